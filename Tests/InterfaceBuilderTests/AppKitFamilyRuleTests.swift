import Foundation
import Interface
import TestSupport
import Testing

@testable import InterfaceBuilder

/// Rules for element families that were refused, each with its evidence: date formatters of
/// every style (weekday styles among them) and a window's content border.
@Suite struct AppKitFamilyRuleTests {
  static func compile(_ objects: String, inWindow: Bool = true) throws(InterfaceBuilderError) -> Compilation {
    try CocoaNibCompiler.compileReportingUnverified(
      try CocoaNibCompilerUnitTests.document(objects, inWindow: inWindow), options: .init(omitsColorProfiles: true))
  }

  // MARK: Date formatters

  /// Evidence: every NSDateFormatter in the corpus's Apple-compiled nibs has the NS.format the
  /// table gives for its NS.attributes dateStyle and timeStyle (short/short and long/short).
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func theTableGivesApplesPatternForEveryCorpusFormatter() throws {
    var checked = 0
    for file in Corpus.files(in: "nib") where file.path.hasSuffix(".nib") {
      let bytes = try file.bytes()
      guard NIBArchive.isNIBArchive(bytes) else { continue }
      let graph = NibGraph(try NIBArchive(bytes: bytes))
      for formatter in graph.objects where formatter.className == "NSDateFormatter" {
        guard case .object(let attributes)? = formatter["NS.attributes"], let members = graph.members(of: attributes),
          let format = graph.text(of: formatter, forKey: "NS.format")
        else { continue }
        var styles = ["dateStyle": 0, "timeStyle": 0]
        for pair in stride(from: 0, to: members.count - 1, by: 2) {
          guard let key = graph.text(of: members[pair]), styles[key] != nil, case .int8(let value)? = graph[members[pair + 1]]["NS.intval"] else { continue }
          styles[key] = Int(value)
        }
        #expect(CocoaNibCompiler.datePatterns["\(styles["dateStyle"]!),\(styles["timeStyle"]!)"] == format, "\(file.name)")
        checked += 1
      }
    }
    #expect(checked >= 3)
  }

  /// A full (weekday) date style compiles — ICU's en_AU pattern, reported as unverified — and
  /// the cell's title is the date the pattern parses (the weekday name read, not checked).
  @Test func aWeekdayDateStyleCompilesAndParsesItsTitle() throws {
    let compilation = try Self.compile(
      CocoaNibCompilerControlsTests.textField(
        title: "Sunday, 4 January 1976 at 11:00 pm", formatter: "<dateFormatter key=\"formatter\" dateStyle=\"full\" timeStyle=\"short\" id=\"f1\"/>"))
    let graph = compilation.graph
    let formatter = try #require(graph.objects.first { $0.className == "NSDateFormatter" })
    #expect(graph.text(of: formatter, forKey: "NS.format") == "EEEE, d MMMM y 'at' h:mm\u{202F}a")
    let cell = try #require(CocoaNibCompilerControlsTests.objects(graph, "NSTextFieldCell").first)
    let date = try #require(CocoaNibCompilerControlsTests.target(graph, cell, "NSContents"))
    #expect(graph[date]["NS.time"] == .float64(-788_662_800))
    #expect(compilation.warnings.contains { $0.element == "dateFormatter" && $0.detail.contains("EEEE") })
  }

  @Test(arguments: [
    ("d MMM y, h:mm:ss\u{202F}a", "4 Jan 1976, 11:00:30 pm", -788_662_770.0),
    ("d MMM y", "4 Sept 1976", -767_664_000.0),
    ("h:mm:ss\u{202F}a z", "12:00:01 am UTC", 1.0),
    ("EEEE, d MMMM y", "Monday, 1 January 2001", 0.0),
  ])
  func theMediumLongAndFullFieldsParse(_ pattern: String, _ text: String, _ time: Double) {
    // A time alone is on 1 January 2001 only when the pattern has no date: none here parses
    // without a day, month and year, so the time-only pattern answers nil.
    let expected: Double? = pattern.hasPrefix("h") ? nil : time
    #expect(CocoaNibCompiler.parseDate(text, pattern: pattern) == expected)
  }

  /// Every style pair has a pattern (none/none aside), the date joined to the time by ", " for
  /// short and medium dates and by " 'at' " for long and full ones.
  @Test func everyStylePairHasAPattern() {
    #expect(CocoaNibCompiler.datePatterns.count == 24)
    #expect(CocoaNibCompiler.datePatterns["2,2"] == "d MMM y, h:mm:ss\u{202F}a")
    #expect(CocoaNibCompiler.datePatterns["4,4"] == "EEEE, d MMMM y 'at' h:mm:ss\u{202F}a zzzz")
    #expect(CocoaNibCompiler.datePatterns["0,0"] == nil)
  }

  // MARK: A window's content border

  static func window(_ border: String) -> String {
    """
            <window title="W" id="w1">
                <rect key="contentRect" x="0" y="0" width="500" height="400"/>
                <view key="contentView" id="w2">
                    <rect key="frame" x="0" y="0" width="500" height="400"/>
                </view>
                \(border)
            </window>
    """
  }

  /// Evidence: viraptor/ibtool `ibtool/parsers/contentBorderThickness.py` (minY → a double
  /// NSContentBorderThicknessMinY and NSAutorecalculatesContentBorderThicknessMinY false); no
  /// corpus nib has one, so it is reported as unverified.
  @Test func aContentBorderIsItsThicknessAndNoAutorecalculation() throws {
    let compilation = try Self.compile(Self.window("<contentBorderThickness minY=\"22\"/>"), inWindow: false)
    let window = try #require(compilation.graph.objects.first { $0.className == "NSWindowTemplate" })
    #expect(window["NSContentBorderThicknessMinY"] == .float64(22))
    #expect(window["NSAutorecalculatesContentBorderThicknessMinY"] == .bool(false))
    #expect(window["NSContentBorderThicknessMaxY"] == nil)
    #expect(compilation.warnings.contains { $0.element == "contentBorderThickness" })
  }

  @Test func aBadContentBorderIsRefusedWithItsLine() {
    let bad = expectError(InterfaceBuilderError.self, .invalidDocument) {
      try Self.compile(Self.window("<contentBorderThickness minY=\"wide\"/>"), inWindow: false)
    }
    #expect(bad?.line == 12)
    let other = expectError(InterfaceBuilderError.self, .unsupported) {
      try Self.compile(Self.window("<contentBorderThickness minX=\"4\"/>"), inWindow: false)
    }
    #expect(other?.line == 12)
  }
}

/// Button cells' NSButtonFlags2 by type and bezel.
@Suite struct ButtonFlagRuleTests {
  static func button(type: String, bezel: String, keyEquivalent: String? = nil) -> String {
    """
                          <button id="b1">
                              <rect key="frame" x="10" y="10" width="80" height="32"/>
                              <buttonCell key="cell" type="\(type)" title="OK" bezelStyle="\(bezel)" alignment="center" borderStyle="border" \(keyEquivalent.map { "keyEquivalent=\"\($0)\"" } ?? "") imageScaling="proportionallyDown" inset="2" id="b2">
                                  <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                  <font key="font" metaFont="system"/>
                              </buttonCell>
                          </button>
    """
  }

  static func flags2(_ objects: String) throws -> Int64? {
    let graph = try CocoaNibCompilerControlsTests.compile(objects)
    guard let cell = graph.objects.first(where: { $0.className == "NSButtonCell" }) else { return nil }
    switch cell["NSButtonFlags2"] {
    case .int8(let v)?: return Int64(v)
    case .int16(let v)?: return Int64(v)
    case .int32(let v)?: return Int64(v)
    case .int64(let v)?: return v
    default: return nil
    }
  }

  /// Evidence: viraptor/ibtool helpers.py's button_type_id ("bevel": 0x1 with the rounded bezel,
  /// else 0x2); Apple's test16_buttons.nib and sb_button_hug show 0x2 with regularSquare (their
  /// pairs stay Apple's).
  @Test func aRoundedBevelButtonHasThePushType() throws {
    #expect(try Self.flags2(Self.button(type: "bevel", bezel: "rounded")) == 0x81)
    #expect(try Self.flags2(Self.button(type: "bevel", bezel: "regularSquare")) == 0x82)
  }

  /// Evidence: a key equivalent without a modifier mask sets 0x10000000 (the clone's
  /// HAS_KEY_EQUIVALENT); a Return key equivalent ("\r") is one such.
  @Test func aReturnKeyEquivalentSetsTheKeyEquivalentBit() throws {
    #expect(try Self.flags2(Self.button(type: "push", bezel: "rounded", keyEquivalent: "&#xD;")) == 0x1000_0081)
  }
}

/// Text field cells' bezel style.
@Suite struct TextFieldBezelRuleTests {
  static func field(bezel: String?) -> String {
    """
                          <textField id="t1">
                              <rect key="frame" x="10" y="10" width="200" height="22"/>
                              <textFieldCell key="cell" selectable="YES" editable="YES" borderStyle="bezel" \(bezel.map { "bezelStyle=\"\($0)\"" } ?? "") title="x" id="t2">
                                  <font key="font" metaFont="system"/>
                              </textFieldCell>
                          </textField>
    """
  }

  /// Evidence: Apple's searchfield_no_completion.nib writes a round search field cell's
  /// NSTextBezelStyle 1 right after NSControlView; the clone writes the same key for secure text
  /// field cells (`secureTextFieldCell.py`); the square bezel is the default and writes nothing.
  @Test func aRoundTextFieldWritesItsBezelStyleAfterItsControlView() throws {
    let compilation = try AppKitFamilyRuleTests.compile(Self.field(bezel: "round"))
    let cell = try #require(compilation.graph.objects.first { $0.className == "NSTextFieldCell" })
    let keys = cell.entries.map(\.key)
    let position = try #require(keys.firstIndex(of: "NSTextBezelStyle"))
    #expect(keys[position - 1] == "NSControlView")
    #expect(cell["NSTextBezelStyle"] == .int8(1))
    #expect(compilation.warnings.contains { $0.detail.contains("NSTextBezelStyle") })
    for bezel in [nil, "square"] {
      let square = try AppKitFamilyRuleTests.compile(Self.field(bezel: bezel))
      #expect(square.graph.objects.first { $0.className == "NSTextFieldCell" }?["NSTextBezelStyle"] == nil)
    }
  }

  @Test func anUnknownBezelIsRefusedWithItsLine() {
    let error = expectError(InterfaceBuilderError.self, .invalidDocument) { try AppKitFamilyRuleTests.compile(Self.field(bezel: "oval")) }
    #expect(error?.line != nil)
  }
}

/// Toolbar button items (no view, bordered, a nil tool tip, no sizes).
@Suite struct ToolbarButtonItemRuleTests {
  static let window = """
            <window title="W" id="w1">
                <rect key="contentRect" x="0" y="0" width="500" height="400"/>
                <view key="contentView" id="w2">
                    <rect key="frame" x="0" y="0" width="500" height="400"/>
                </view>
                <toolbar key="toolbar" implicitIdentifier="T1" autosavesConfiguration="NO" displayMode="iconAndLabel" sizeMode="regular" id="tb1">
                    <allowedToolbarItems>
                        <toolbarItem implicitItemIdentifier="R1" label="Refresh" paletteLabel="Refresh" bordered="YES" sizingBehavior="auto" id="ti1">
                            <nil key="toolTip"/>
                            <connections>
                                <action selector="refresh:" target="-1" id="c1"/>
                            </connections>
                        </toolbarItem>
                    </allowedToolbarItems>
                    <defaultToolbarItems>
                        <toolbarItem reference="ti1"/>
                    </defaultToolbarItems>
                </toolbar>
            </window>
    """

  /// Evidence: viraptor/ibtool `ibtool/parsers/toolbar.py` (`_make_custom_item`): bordered →
  /// NSToolbarItemBordered, absent sizes "{0, 0}", `<nil key="toolTip"/>` → nil, sizingBehavior
  /// not archived; the action is an ordinary connector. No corpus pair: reported unverified.
  @Test func aToolbarButtonItemIsBorderedWithoutSizesOrToolTip() throws {
    let compilation = try AppKitFamilyRuleTests.compile(Self.window, inWindow: false)
    let graph = compilation.graph
    let item = try #require(graph.objects.firstIndex { $0.className == "NSToolbarItem" })
    #expect(graph[item]["NSToolbarItemBordered"] == .bool(true))
    #expect(graph[item]["NSToolbarItemToolTip"] == .null)
    #expect(graph.text(of: graph[item], forKey: "NSToolbarItemMinSize") == "{0, 0}")
    #expect(graph.text(of: graph[item], forKey: "NSToolbarItemMaxSize") == "{0, 0}")
    #expect(graph.objects.contains { $0.className == "NSNibControlConnector" && $0["NSSource"] == .object(item) })
    #expect(compilation.warnings.contains { $0.element == "toolbarItem" && $0.detail.contains("toolbar button item") })
  }
}

/// Progress indicators with a value.
@Suite struct ProgressIndicatorRuleTests {
  static func indicator(_ value: String) -> String {
    """
                          <progressIndicator wantsLayer="YES" maxValue="100" doubleValue="\(value)" style="bar" id="p1">
                              <rect key="frame" x="10" y="10" width="200" height="20"/>
                          </progressIndicator>
    """
  }

  /// Evidence: AppKit's decoder reads NSpiFlags, NSMinValue and NSMaxValue only (Cocotron's
  /// NSProgressIndicator decoder reads no value and starts it at the minimum), and the Python
  /// clone writes no value (`progressIndicator.py`): the value is not archived; the same graph as
  /// without it, reported unverified.
  @Test func aProgressValueIsNotArchived() throws {
    let with = try AppKitFamilyRuleTests.compile(Self.indicator("42.5"))
    let without = try AppKitFamilyRuleTests.compile(Self.indicator("42.5").replacingOccurrences(of: " doubleValue=\"42.5\"", with: ""))
    #expect(NIBArchive(with.graph).firstDifference(from: NIBArchive(without.graph)) == nil)
    #expect(with.warnings.contains { $0.element == "progressIndicator" && $0.detail.contains("doubleValue") })
    let bad = expectError(InterfaceBuilderError.self, .invalidDocument) { try AppKitFamilyRuleTests.compile(Self.indicator("lots")) }
    #expect(bad?.line != nil)
  }

  /// Without maxValue (or minValue) the key is left out, AppKit's default kept: the clone writes
  /// either only when given (`progressIndicator.py`); every corpus indicator gives maxValue, so
  /// the absent key is reported unverified.
  @Test func anIndicatorWithoutMaximumArchivesNone() throws {
    let compilation = try AppKitFamilyRuleTests.compile(
      Self.indicator("1").replacingOccurrences(of: " maxValue=\"100\"", with: "").replacingOccurrences(of: " doubleValue=\"1\"", with: ""))
    let indicator = try #require(compilation.graph.objects.first { $0.className == "NSProgressIndicator" })
    #expect(indicator["NSMaxValue"] == nil && indicator["NSMinValue"] == nil)
    #expect(indicator["NSpiFlags"]?.integerValue == 0x4005)
    #expect(compilation.warnings.contains { $0.element == "progressIndicator" && $0.detail.contains("without maxValue") })
  }
}

/// Cell flags and prototype image cells, read off the corpus's Apple pairs.
@Suite struct CellRuleTests {
  /// Evidence: HSChooserWindow's three cells with allowsEditingTextAttributes="YES" have
  /// NSCellFlags2 0x50400800 in Apple's nib where their other attributes give 0x10400800.
  @Test func allowsEditingTextAttributesSetsItsBit() throws {
    let graph = try CocoaNibCompilerControlsTests.compile(
      """
                          <textField id="t1">
                              <rect key="frame" x="10" y="10" width="200" height="20"/>
                              <textFieldCell key="cell" lineBreakMode="truncatingTail" sendsActionOnEndEditing="YES" title="Text" allowsEditingTextAttributes="YES" id="t2">
                                  <font key="font" metaFont="system"/>
                              </textFieldCell>
                          </textField>
      """)
    let cell = try #require(graph.objects.first { $0.className == "NSTextFieldCell" })
    #expect(cell["NSCellFlags2"] == .int32(0x5040_0800))
  }

  /// Evidence: in Apple's HSChooserWindow.nib and transmission_MainMenu.nib, every image cell of a
  /// prototype cell view animates inside the prototype's own nib (NSAnimates true) and not in its
  /// copy among the document's objects (false). Read with Stasis's reader: the Python nibarchive
  /// package swaps the two Boolean types.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func prototypeImageCellsAnimateInTheirOwnNib() throws {
    for name in ["HSChooserWindow", "transmission_MainMenu"] {
      let apple = NibGraph(try NIBArchive(contentsOfFile: Corpus.file("nib/ibtool_pairs/correct/\(name).nib").path))
      var outer: [NIBArchive.Payload?] = [], nested: [NIBArchive.Payload?] = []
      for object in apple.objects {
        if object.className == "NSImageCell", object["NSControlView"] != nil { outer.append(object["NSAnimates"]) }
        guard object.className == "NSNib", case .object(let data)? = object["NSNibFileData"], case .data(let bytes)? = apple[data]["NS.bytes"] else { continue }
        let prototype = NibGraph(try NIBArchive(bytes: bytes))
        nested += prototype.objects.filter { $0.className == "NSImageCell" }.map { $0["NSAnimates"] }
      }
      #expect(!nested.isEmpty && nested.allSatisfy { $0 == .bool(true) }, "\(name)")
      #expect(!outer.isEmpty && outer.allSatisfy { $0 == .bool(false) }, "\(name)")
      let ours = try CocoaNibCompiler.compile(InterfaceDocument(contentsOfFile: Corpus.file("xib/ibtool_pairs/correct/\(name).xib").path))
      var oursNested: [NIBArchive.Payload?] = []
      for object in ours.objects where object.className == "NSNib" {
        guard case .object(let data)? = object["NSNibFileData"], case .data(let bytes)? = ours[data]["NS.bytes"] else { continue }
        oursNested += NibGraph(try NIBArchive(bytes: bytes)).objects.filter { $0.className == "NSImageCell" }.map { $0["NSAnimates"] }
      }
      #expect(oursNested == nested, "\(name)")
    }
  }
}

/// A text field cell's attributes are compiled or refused, never dropped.
@Suite struct TextFieldCellAttributeTests {
  static func field(_ attributes: String) -> String {
    """
                          <textField id="t1">
                              <rect key="frame" x="10" y="10" width="200" height="22"/>
                              <textFieldCell key="cell" title="x" \(attributes) id="t2">
                                  <font key="font" metaFont="system"/>
                              </textFieldCell>
                          </textField>
    """
  }

  /// An attribute whose Apple encoding is not known (a layout direction, which Interface
  /// Builder writes on controls, not cells) is refused with its line, where it used to be dropped
  /// silently. (A base writing direction, refused before, is compiled: AppKitGeneralRuleTests.)
  @Test func anUnknownAttributeIsRefusedWithItsLine() {
    let error = expectError(InterfaceBuilderError.self, .unsupported) {
      try AppKitFamilyRuleTests.compile(Self.field("userInterfaceLayoutDirection=\"rightToLeft\""))
    }
    #expect(error?.line != nil)
    #expect(error?.description.contains("userInterfaceLayoutDirection") == true)
  }

  /// Evidence: the corpus's text field cells are bezeled (NSCellFlags 0x00400000, textfield_*
  /// pairs); a plain border is the bit beside it, the clone's CellFlags.BORDERED (unverified).
  @Test func aBorderedCellSetsTheBorderedBit() throws {
    let compilation = try AppKitFamilyRuleTests.compile(Self.field("borderStyle=\"border\""))
    let cell = try #require(compilation.graph.objects.first { $0.className == "NSTextFieldCell" })
    guard case .int32(let flags)? = cell["NSCellFlags"] else { Issue.record("NSCellFlags: \(String(describing: cell["NSCellFlags"]))"); return }
    #expect(flags & 0x00C0_0000 == 0x0080_0000)
    #expect(compilation.warnings.contains { $0.detail.contains("borderStyle") })
  }
}
