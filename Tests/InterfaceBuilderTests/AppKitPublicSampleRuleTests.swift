import Foundation
import Interface
import TestSupport
import Testing

@testable import InterfaceBuilder

/// Rules that rest on the public Python ibtool clone's readings of Apple's compiles
/// (viraptor/ibtool), one public sample each and no corpus pair: a date formatter's fixed
/// format, a custom number formatter without formats, a tab view's initial item, AppKit's
/// standard toolbar items' sizes and images. Each is compiled, and reported as unverified.
@Suite struct AppKitPublicSampleRuleTests {
  static func compile(_ objects: String, inWindow: Bool = true) throws(InterfaceBuilderError) -> Compilation {
    try CocoaNibCompiler.compileReportingUnverified(
      try CocoaNibCompilerUnitTests.document(objects, inWindow: inWindow), options: .init(omitsColorProfiles: true))
  }

  static func objects(_ graph: NibGraph, _ className: String) -> [Int] { CocoaNibCompilerControlsTests.objects(graph, className) }
  static func target(_ graph: NibGraph, _ index: Int, _ key: String) -> Int? { CocoaNibCompilerControlsTests.target(graph, index, key) }

  /// A dictionary's members as key text → member index.
  static func dictionary(_ graph: NibGraph, _ index: Int) -> [String: Int] {
    let members = graph.members(of: index) ?? []
    var result: [String: Int] = [:]
    for pair in stride(from: 0, to: members.count - 1, by: 2) {
      if let key = graph.text(of: members[pair]) { result[key] = members[pair + 1] }
    }
    return result
  }

  // MARK: Date formatters with a fixed format

  /// dateformatter_weekday (the clone's sample): `dateFormat="EEEE"` → NS.format "EEEE",
  /// NS.attributes {dateFormat, dateStyle 0, formatterBehavior 1040, timeStyle 0} with one
  /// shared 0, the title "Wednesday" kept as a string, and no date-formatter bit in NSCellFlags2.
  @Test func aFixedDateFormatIsArchivedAsWrittenAndLeavesTheTitleAString() throws {
    let compilation = try Self.compile(
      CocoaNibCompilerControlsTests.textField(
        title: "Wednesday", formatter: #"<dateFormatter key="formatter" formatterBehavior="custom10_4" dateFormat="EEEE" id="f1"/>"#))
    let graph = compilation.graph
    let formatter = try #require(Self.objects(graph, "NSDateFormatter").first)
    #expect(graph.text(of: graph[formatter], forKey: "NS.format") == "EEEE")
    #expect(graph[formatter]["NS.natural"] == .bool(false))
    let attributes = Self.dictionary(graph, try #require(Self.target(graph, formatter, "NS.attributes")))
    #expect(Set(attributes.keys) == ["dateFormat", "dateStyle", "formatterBehavior", "timeStyle"])
    #expect(attributes["dateFormat"].flatMap { graph.text(of: $0) } == "EEEE")
    #expect(attributes["dateStyle"] == attributes["timeStyle"], "one NSNumber 0 for both styles")
    #expect(attributes["dateStyle"].flatMap { graph[$0]["NS.intval"] } == .int8(0))
    let cell = try #require(Self.objects(graph, "NSTextFieldCell").first)
    let contents = try #require(Self.target(graph, cell, "NSContents"))
    #expect(graph.text(of: contents) == "Wednesday")
    guard case .int32(let flags2)? = graph[cell]["NSCellFlags2"] else { Issue.record("NSCellFlags2 is not an int32"); return }
    #expect(flags2 >= 0, "no date-formatter bit (0x80000000) with a fixed format")
    #expect(compilation.warnings.contains { $0.element == "dateFormatter" && $0.detail.contains("EEEE") })
  }

  /// A fixed format beside a style: which one AppKit keeps is shown by no sample — refused with the line.
  @Test func aFixedDateFormatBesideAStyleIsRefusedWithItsLine() {
    let error = expectError(InterfaceBuilderError.self, .unsupported) {
      try Self.compile(
        CocoaNibCompilerControlsTests.textField(
          title: "", formatter: #"<dateFormatter key="formatter" dateFormat="EEEE" dateStyle="short" id="f1"/>"#))
    }
    #expect(error?.line != nil)
  }

  // MARK: Number formatters

  static func numberFormatter(_ attributes: String) -> String {
    CocoaNibCompilerControlsTests.textField(
      title: "",
      formatter: """
        <numberFormatter key="formatter" \(attributes) id="f1">
            <nil key="negativeInfinitySymbol"/>
            <nil key="positiveInfinitySymbol"/>
            <integer key="minimum" value="0"/>
            <real key="maximum" value="999"/>
        </numberFormatter>
        """)
  }

  /// numfmt_dedup (the clone's sample): a custom10_4 formatter without positiveFormat gets the
  /// pattern its digits give, as a default10_4 one does (1…42 integer digits → 41 "#" and "0").
  @Test func aCustomNumberFormatterWithoutFormatsTakesThePatternOfItsDigits() throws {
    let attributes = #"formatterBehavior="custom10_4" allowsFloats="NO" usesGroupingSeparator="NO" groupingSize="0" minimumIntegerDigits="1" maximumIntegerDigits="42""#
    let compilation = try Self.compile(Self.numberFormatter(attributes))
    let graph = compilation.graph
    let formatter = try #require(Self.objects(graph, "NSNumberFormatter").first)
    let pattern = String(repeating: "#", count: 41) + "0"
    #expect(graph.text(of: graph[formatter], forKey: "NS.positiveformat") == pattern)
    #expect(graph.text(of: graph[formatter], forKey: "NS.negativeformat") == pattern)
    #expect(graph[formatter]["NS.allowsfloats"] == .bool(false))
    #expect(compilation.warnings.contains { $0.element == "numberFormatter" })
    // The same settings with the default behaviour: the same pattern, and no warning.
    let plain = try Self.compile(Self.numberFormatter(attributes.replacingOccurrences(of: "custom10_4", with: "default10_4")))
    let plainFormatter = try #require(Self.objects(plain.graph, "NSNumberFormatter").first)
    #expect(plain.graph.text(of: plain.graph[plainFormatter], forKey: "NS.positiveformat") == pattern)
    #expect(!plain.warnings.contains { $0.element == "numberFormatter" })
  }

  /// Two formatters with equal settings share each equal NSNumber (the compiler's numbers are
  /// shared by value, as Apple's are: numfmt's minimumIntegerDigits 1 and its 1.0).
  @Test func twoFormattersShareTheirEqualNumbers() throws {
    let one = Self.numberFormatter(#"formatterBehavior="custom10_4" minimumIntegerDigits="1" maximumIntegerDigits="42""#)
    let two = one.replacingOccurrences(of: "id=\"t1\"", with: "id=\"t3\"").replacingOccurrences(of: "id=\"t2\"", with: "id=\"t4\"")
      .replacingOccurrences(of: "id=\"f1\"", with: "id=\"f2\"")
    let graph = try Self.compile(one + two).graph
    let formatters = Self.objects(graph, "NSNumberFormatter")
    #expect(formatters.count == 2)
    let first = Self.dictionary(graph, try #require(Self.target(graph, formatters[0], "NS.attributes")))
    let second = Self.dictionary(graph, try #require(Self.target(graph, formatters[1], "NS.attributes")))
    #expect(first == second, "each key's value is the one shared object")
  }

  // MARK: Tab views

  static func tabView(initialItem: String) -> String {
    """
        <tabView type="noTabsNoBorder" drawsBackground="NO" initialItem="\(initialItem)" id="tv">
            <rect key="frame" x="0" y="0" width="300" height="200"/>
            <tabViewItems>
                <tabViewItem label="A" identifier="a" id="ti1">
                    <view key="view" id="iv"><rect key="frame" x="0" y="0" width="300" height="200"/></view>
                </tabViewItem>
            </tabViewItems>
        </tabView>
    """
  }

  /// tabview_scrollview_chain (the clone's sample): `initialItem` names the selected item.
  @Test func aTabViewsInitialItemIsTheSelectedOne() throws {
    let graph = try Self.compile(Self.tabView(initialItem: "ti1")).graph
    let tabView = try #require(Self.objects(graph, "NSTabView").first)
    let item = try #require(Self.objects(graph, "NSTabViewItem").first)
    #expect(Self.target(graph, tabView, "NSSelectedTabViewItem") == item)
    #expect(graph[tabView]["NSDrawsBackground"] == nil)
    let error = expectError(InterfaceBuilderError.self, .invalidDocument) { try Self.compile(Self.tabView(initialItem: "nowhere")) }
    #expect(error?.line != nil)
  }

  /// Of two items only the selected one's view is the tab view's subview; the other's view has
  /// no superview and no next responder (the clone's `tabView.py`; warned). An item without an
  /// identifier archives no NSIdentifier.
  @Test func onlyTheSelectedItemsViewIsASubview() throws {
    let document = """
          <tabView initialItem="ti2" id="tv">
              <rect key="frame" x="0" y="0" width="300" height="200"/>
              <tabViewItems>
                  <tabViewItem label="A" identifier="a" id="ti1">
                      <view key="view" id="iv1"><rect key="frame" x="10" y="33" width="280" height="154"/></view>
                  </tabViewItem>
                  <tabViewItem label="B" id="ti2">
                      <view key="view" id="iv2"><rect key="frame" x="10" y="33" width="280" height="154"/></view>
                  </tabViewItem>
              </tabViewItems>
          </tabView>
      """
    let compilation = try Self.compile(document)
    let graph = compilation.graph
    let tabView = try #require(Self.objects(graph, "NSTabView").first)
    let items = Self.objects(graph, "NSTabViewItem")
    #expect(items.count == 2)
    let views = items.compactMap { Self.target(graph, $0, "NSView") }
    #expect(views.count == 2)
    let subviews = try #require(Self.target(graph, tabView, "NSSubviews").flatMap { graph.members(of: $0) })
    let selected = try #require(Self.target(graph, tabView, "NSSelectedTabViewItem"))
    let selectedView = try #require(Self.target(graph, selected, "NSView"))
    #expect(subviews == [selectedView])
    #expect(graph.text(of: graph[selected], forKey: "NSLabel") == "B")
    #expect(graph[selected]["NSIdentifier"] == nil)
    let other = try #require(views.first { $0 != selectedView })
    #expect(graph[other]["NSSuperview"] == nil)
    #expect(graph[other]["NSNextResponder"] == .null)
    #expect(Self.target(graph, selectedView, "NSSuperview") == tabView)
    #expect(compilation.warnings.contains { $0.element == "tabView" })
  }

  // MARK: AppKit's standard toolbar items

  /// A window with a toolbar allowing `items` (and defaulting to `defaults`).
  static func toolbarWindow(_ items: String, defaults: String = "") -> String {
    """
          <window title="W" id="w1">
              <rect key="contentRect" x="0" y="0" width="500" height="400"/>
              <view key="contentView" id="w2"><rect key="frame" x="0" y="0" width="500" height="400"/></view>
              <toolbar key="toolbar" implicitIdentifier="T1" displayMode="iconOnly" sizeMode="regular" id="tb">
                  <allowedToolbarItems>\(items)</allowedToolbarItems>
                  \(defaults.isEmpty ? "" : "<defaultToolbarItems>\(defaults)</defaultToolbarItems>")
              </toolbar>
          </window>
      """
  }

  /// sb_toolbar_colors_tv (the clone's sample): the Colors item is 44 × 42 with AppKit's
  /// NSToolbarShowColors image resource (no namespace); Fonts and Print carry template SF Symbols.
  @Test func standardToolbarItemsCarryAppKitsImages() throws {
    let window = Self.toolbarWindow(
      #"<toolbarItem implicitItemIdentifier="NSToolbarShowColorsItem" id="i1"/><toolbarItem implicitItemIdentifier="NSToolbarShowFontsItem" id="i2"/>"#)
    let graph = try Self.compile(window, inWindow: false).graph
    var images: [String: Int] = [:]
    for item in Self.objects(graph, "NSToolbarItem") {
      guard let identifier = graph.text(of: graph[item], forKey: "NSToolbarItemIdentifier") else { continue }
      images[identifier] = Self.target(graph, item, "NSToolbarItemImage")
      if identifier == "NSToolbarShowColorsItem" {
        #expect(graph.text(of: graph[item], forKey: "NSToolbarItemMinSize") == "{44, 42}")
        #expect(graph.text(of: graph[item], forKey: "NSToolbarItemMaxSize") == "{44, 42}")
      }
    }
    let colors = try #require(images["NSToolbarShowColorsItem"])
    #expect(graph[colors].className == "NSCustomResource")
    #expect(graph.text(of: graph[colors], forKey: "NSResourceName") == "NSToolbarShowColors")
    #expect(graph[colors]["IBNamespaceID"] == .null)
    let fonts = try #require(images["NSToolbarShowFontsItem"])
    #expect(graph[fonts].className == "NSImage")
    #expect(graph[fonts]["NSIsTemplate"] == .bool(true))
    #expect(graph.text(of: graph[fonts], forKey: "NSSize") == "{19, 12}")
    let reps = try #require(Self.target(graph, fonts, "NSReps").flatMap { graph.members(of: $0) })
    let representation = try #require(reps.first.flatMap { graph.members(of: $0) })
    #expect(representation.count == 3)
    #expect(graph.text(of: representation[1]) == "textformat")
  }

  // MARK: Clip views

  static func scrollView(document: String, clipAttributes: String = "", clipColor: String = "") -> String {
    """
        <scrollView borderType="none" horizontalLineScroll="10" horizontalPageScroll="10" verticalLineScroll="10" verticalPageScroll="10" hasHorizontalScroller="NO" id="sv">
            <rect key="frame" x="0" y="0" width="200" height="150"/>
            <clipView key="contentView" \(clipAttributes) id="cv">
                <rect key="frame" x="0" y="0" width="200" height="150"/>
                <subviews>\(document)</subviews>
                \(clipColor)
            </clipView>
            <scroller key="horizontalScroller" hidden="YES" verticalHuggingPriority="750" horizontal="YES" id="hs">
                <rect key="frame" x="-100" y="-100" width="200" height="15"/>
            </scroller>
            <scroller key="verticalScroller" verticalHuggingPriority="750" horizontal="NO" id="vs">
                <rect key="frame" x="184" y="0" width="16" height="150"/>
            </scroller>
        </scrollView>
    """
  }

  /// The clip view's NScvFlags in a document saved by `toolsVersion`.
  static func clipFlags(_ scrollView: String, toolsVersion: String) throws -> NIBArchive.Payload? {
    let body = """
          <window title="W" id="w1">
              <rect key="contentRect" x="0" y="0" width="500" height="400"/>
              <view key="contentView" id="w2">
                  <rect key="frame" x="0" y="0" width="500" height="400"/>
                  <subviews>\(scrollView)</subviews>
              </view>
          </window>
      """
    let text = String(decoding: CocoaNibCompilerUnitTests.xib(body), as: UTF8.self)
      .replacingOccurrences(of: #"toolsVersion="22505""#, with: "toolsVersion=\"\(toolsVersion)\"")
    let graph = try CocoaNibCompiler.compile(try InterfaceDocument(bytes: Array(text.utf8), path: "t.xib"), options: .init(omitsColorProfiles: true))
    guard let clip = Self.objects(graph, "NSClipView").first else { return .null }
    return graph[clip]["NScvFlags"]
  }

  static let textView = #"<textView id="tx"><rect key="frame" x="0" y="0" width="200" height="150"/></textView>"#
  static let customView = #"<customView id="dv"><rect key="frame" x="0" y="0" width="200" height="150"/></customView>"#
  static let whiteBackground = #"<color key="backgroundColor" white="1" alpha="1" colorSpace="calibratedWhite"/>"#

  /// test13_clip_flags (the clone's sample, toolsVersion 11762): a text view's clip view in a
  /// scroll view, saved before toolsVersion 14269 and not saying drawsBackground, draws none;
  /// a custom document view's does (clipview_customview_drawsbg); from 14269 on both do.
  @Test func anOldDocumentsTextClipViewDrawsNoBackground() throws {
    #expect(try Self.clipFlags(Self.scrollView(document: Self.textView, clipColor: Self.whiteBackground), toolsVersion: "11762") == nil)
    #expect(try Self.clipFlags(Self.scrollView(document: Self.customView), toolsVersion: "11762") == .int8(4))
    #expect(try Self.clipFlags(Self.scrollView(document: Self.textView, clipColor: Self.whiteBackground), toolsVersion: "14269") == .int8(4))
    #expect(
      try Self.clipFlags(Self.scrollView(document: Self.textView, clipAttributes: #"drawsBackground="YES""#), toolsVersion: "11762") == .int8(4))
    let catalog = #"<color key="backgroundColor" name="controlBackgroundColor" catalog="System" colorSpace="catalog"/>"#
    #expect(try Self.clipFlags(Self.scrollView(document: Self.textView, clipColor: catalog), toolsVersion: "11762") == .int8(4))
  }

  // MARK: Paragraph styles in text storage

  /// textview_multiattr (corpus) with paragraph styles added to its runs: each distinct style
  /// is an NSParagraphStyle in its run's dictionary (NSAlignment as AppKit's NSTextAlignment,
  /// NSTabStops with one NSTextTab per location, tightening for truncation); each dictionary
  /// has its own style object, tab stops are shared by location (the clone's
  /// `attributedString.py`; warned).
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func paragraphStylesJoinTheirRunsAttributes() throws {
    let source = String(decoding: try Corpus.file("xib/ibtool_pairs/correct/textview_multiattr.xib").bytes(), as: UTF8.self)
    let rightToLeft = #"<paragraphStyle key="NSParagraphStyle" alignment="center" baseWritingDirection="rightToLeft"><tabStops><textTab location="28"/></tabStops></paragraphStyle>"#
    let natural = #"<paragraphStyle key="NSParagraphStyle" alignment="center"><tabStops><textTab location="28"/><textTab location="56"/></tabStops></paragraphStyle>"#
    var fonts = 0
    var text = ""
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      text += line + "\n"
      if line.contains("<font key=\"NSFont\"") {
        fonts += 1
        text += fonts == 1 ? rightToLeft + "\n" : natural + "\n"
      }
    }
    #expect(fonts == 3)
    let compilation = try CocoaNibCompiler.compileReportingUnverified(
      try InterfaceDocument(bytes: Array(text.utf8), path: "t.xib"), options: .init(omitsColorProfiles: true))
    let graph = compilation.graph
    let styles = Self.objects(graph, "NSParagraphStyle")
    #expect(styles.count == 3, "one NSParagraphStyle in each of the three dictionaries (the runs' fonts differ too)")
    for style in styles {
      #expect(graph[style]["NSAlignment"] == .int8(2))
      #expect(graph[style]["NSAllowsTighteningForTruncation"] == .int8(1))
      #expect(graph[style]["NSTighteningFactorForTruncation"] == .float64(Double(Float(0.05))))
    }
    let tabs = Self.objects(graph, "NSTextTab")
    #expect(tabs.count == 2, "one NSTextTab per location, shared between the styles")
    #expect(Set(tabs.compactMap { graph[$0]["NSLocation"] }) == [.float64(28), .float64(56)])
    let storage = try #require(Self.objects(graph, "NSTextStorage").first)
    let dictionaries = try #require(Self.target(graph, storage, "NSAttributes").flatMap { graph.members(of: $0) })
    #expect(dictionaries.count == 3)
    #expect(compilation.warnings.contains { $0.element == "paragraphStyle" })
    // A line spacing is refused with its line.
    let spaced = text.replacingOccurrences(of: #"alignment="center">"#, with: #"alignment="center" lineSpacing="4">"#)
    let error = expectError(InterfaceBuilderError.self, .unsupported) {
      try CocoaNibCompiler.compile(try InterfaceDocument(bytes: Array(spaced.utf8), path: "t.xib"), options: .init(omitsColorProfiles: true))
    }
    #expect(error?.line != nil)
  }

  /// Two neighbouring runs with one font whose paragraph styles differ only in writing
  /// direction stay two runs with two dictionaries (the direction writes no key of its own but
  /// tells the styles apart, as in the clone's `_paragraph_signature`); equal styles merge.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func runsDifferingInWritingDirectionStayApart() throws {
    func storage(_ first: String, _ second: String) throws -> (runs: Int, dictionaries: Int) {
      let source = String(decoding: try Corpus.file("xib/ibtool_pairs/correct/textview_attributedstring.xib").bytes(), as: UTF8.self)
      let fragments = """
        <attributedString key="textStorage">
            <fragment content="one "><attributes><font key="NSFont" metaFont="system"/>\(first)</attributes></fragment>
            <fragment content="two"><attributes><font key="NSFont" metaFont="system"/>\(second)</attributes></fragment>
        </attributedString>
        """
      guard let start = source.range(of: "<attributedString key=\"textStorage\">"), let end = source.range(of: "</attributedString>") else {
        Issue.record("textview_attributedstring has no text storage")
        return (0, 0)
      }
      let text = source.replacingCharacters(in: start.lowerBound..<end.upperBound, with: fragments)
      let graph = try CocoaNibCompiler.compile(try InterfaceDocument(bytes: Array(text.utf8), path: "t.xib"), options: .init(omitsColorProfiles: true))
      let textStorage = try #require(Self.objects(graph, "NSTextStorage").first)
      guard let attributes = Self.target(graph, textStorage, "NSAttributes") else { return (0, 0) }
      if graph[attributes].className == "NSDictionary" { return (1, 1) }
      let info = try #require(Self.target(graph, textStorage, "NSAttributeInfo"))
      guard case .data(let bytes)? = graph[info]["NS.bytes"] else { return (0, 0) }
      return (bytes.count / 2, graph.members(of: attributes)?.count ?? 0)
    }
    let leftToRight = #"<paragraphStyle key="NSParagraphStyle" alignment="left" baseWritingDirection="leftToRight"/>"#
    let rightToLeft = #"<paragraphStyle key="NSParagraphStyle" alignment="left" baseWritingDirection="rightToLeft"/>"#
    let apart = try storage(leftToRight, rightToLeft)
    #expect(apart.runs == 2 && apart.dictionaries == 2)
    let merged = try storage(leftToRight, leftToRight)
    #expect(merged.runs == 1 && merged.dictionaries == 1)
  }
}

