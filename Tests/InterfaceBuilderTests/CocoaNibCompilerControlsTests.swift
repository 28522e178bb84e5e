import Foundation
import Interface
import InterfaceBuilder
import PropertyLists
import TestSupport
import Testing

/// Issue 15's rules on small documents written here: date-formatted titles, the inline bezel's
/// font, images saved as keyed archives, tab view key view loops, predicate editors, menu items'
/// represented objects and base64 key equivalents, button hugging defaults.
@Suite struct CocoaNibCompilerControlsTests {
  /// Compiles `objects` (inside a window's content view when `inWindow`) without ICC profiles
  /// (catalog colours then carry no NSICC).
  static func compile(_ objects: String, resources: String = "", inWindow: Bool = true) throws(InterfaceBuilderError) -> NibGraph {
    try CocoaNibCompiler.compile(
      try CocoaNibCompilerUnitTests.document(objects, resources: resources, inWindow: inWindow), options: .init(omitsColorProfiles: true))
  }

  /// The objects of `className`, in graph order.
  static func objects(_ graph: NibGraph, _ className: String) -> [Int] {
    graph.objects.indices.filter { graph[$0].className == className }
  }

  /// The object `key` of object `index` refers to.
  static func target(_ graph: NibGraph, _ index: Int, _ key: String) -> Int? {
    if case .object(let target)? = graph[index][key] { return target }
    return nil
  }

  static func textField(title: String, formatter: String) -> String {
    """
                          <textField id="t1">
                              <rect key="frame" x="10" y="10" width="200" height="20"/>
                              <textFieldCell key="cell" title="\(title)" id="t2">
                                  \(formatter)
                                  <font key="font" metaFont="system"/>
                              </textFieldCell>
                          </textField>
    """
  }

  // MARK: Date formatters

  @Test func aDateFormattedTitleIsTheDateItsPatternParsesInGMT() throws {
    let graph = try Self.compile(Self.textField(title: "4/1/1976, 11:00 pm", formatter: "<dateFormatter key=\"formatter\" dateStyle=\"short\" timeStyle=\"short\" id=\"f1\"/>"))
    let cell = try #require(Self.objects(graph, "NSTextFieldCell").first)
    let date = try #require(Self.target(graph, cell, "NSContents"))
    #expect(graph[date].className == "NSDate")
    // d/M/y, h:mm a → 4 January 1976, 23:00 GMT, as in Apple's test_date_formatter.nib.
    #expect(graph[date]["NS.time"] == .float64(-788_662_800))
  }

  @Test func theLongStyleParsesAMonthName() throws {
    let graph = try Self.compile(Self.textField(title: "1 January 2001 at 12:30 am", formatter: "<dateFormatter key=\"formatter\" dateStyle=\"long\" timeStyle=\"short\" id=\"f1\"/>"))
    let cell = try #require(Self.objects(graph, "NSTextFieldCell").first)
    let date = try #require(Self.target(graph, cell, "NSContents"))
    #expect(graph[date]["NS.time"] == .float64(1800), "00:30 on the reference date")
  }

  @Test(arguments: ["Text Cell", "4/13/1976, 1:00 pm", "4/1/1976, 13:00 pm", "4/1/1976", "4/1/1976, 11:00 pm and more", ""])
  func aTitleThePatternDoesNotParseStaysText(_ title: String) throws {
    let graph = try Self.compile(Self.textField(title: title, formatter: "<dateFormatter key=\"formatter\" dateStyle=\"short\" timeStyle=\"short\" id=\"f1\"/>"))
    let cell = try #require(Self.objects(graph, "NSTextFieldCell").first)
    let contents = try #require(Self.target(graph, cell, "NSContents"))
    #expect(graph.text(of: contents) == title)
  }

  // MARK: Fonts and hugging

  static func button(cellType: String, bezel: String, font: String, attributes: String = "") -> String {
    """
                          <button \(attributes) id="b1">
                              <rect key="frame" x="10" y="10" width="75" height="19"/>
                              <buttonCell key="cell" type="\(cellType)" bezelStyle="\(bezel)" alignment="center" borderStyle="border" id="b2">
                                  <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                  <font key="font" \(font)/>
                              </buttonCell>
                          </button>
    """
  }

  @Test func anInlineBezelsSmallBoldFontIsTheEmphasizedSubheadline() throws {
    let graph = try Self.compile(Self.button(cellType: "inline", bezel: "inline", font: "metaFont=\"smallSystemBold\""))
    let cell = try #require(Self.objects(graph, "NSButtonCell").first)
    let font = try #require(Self.target(graph, cell, "NSSupport"))
    #expect(graph.text(of: graph[font], forKey: "NSName") == ".AppleSystemUIFontDemi")
    #expect(graph[font]["NSSize"] == .float64(11))
    #expect(graph[font]["NSfFlags"] == .int8(0x10))
    let descriptor = try #require(Self.target(graph, font, "NSTextStyleDescriptor"))
    let attributes = try #require(Self.target(graph, descriptor, "NSFontDescriptorAttributes"))
    let texts = (graph.members(of: attributes) ?? []).compactMap { graph.text(of: $0) }
    #expect(texts.contains("UICTFontTextStyleEmphasizedSubhead"))
    #expect(graph[cell]["NSBezelStyle"] == .int8(15))
  }

  @Test func otherBezelsAndTextFieldsKeepTheBoldFont() throws {
    for (type, bezel) in [("recessed", "recessed"), ("push", "rounded")] {
      let graph = try Self.compile(Self.button(cellType: type, bezel: bezel, font: "metaFont=\"smallSystemBold\""))
      let cell = try #require(Self.objects(graph, "NSButtonCell").first)
      let font = try #require(Self.target(graph, cell, "NSSupport"))
      #expect(graph.text(of: graph[font], forKey: "NSName") == ".AppleSystemUIFontBold", "\(bezel)")
    }
    let graph = try Self.compile(Self.textField(title: "x", formatter: "").replacingOccurrences(of: "metaFont=\"system\"", with: "metaFont=\"smallSystemBold\""))
    let cell = try #require(Self.objects(graph, "NSTextFieldCell").first)
    let font = try #require(Self.target(graph, cell, "NSSupport"))
    #expect(graph.text(of: graph[font], forKey: "NSName") == ".AppleSystemUIFontBold")
  }

  @Test func theRoundedRectBezelIsStyle12() throws {
    let graph = try Self.compile(Self.button(cellType: "roundRect", bezel: "roundedRect", font: "metaFont=\"cellTitle\""))
    let cell = try #require(Self.objects(graph, "NSButtonCell").first)
    #expect(graph[cell]["NSBezelStyle"] == .int8(12))
  }

  @Test(arguments: [
    ("disclosureTriangle", "disclosure", "horizontalHuggingPriority=\"750\" verticalHuggingPriority=\"750\"", nil),
    ("disclosure", "roundedDisclosure", "horizontalHuggingPriority=\"750\" verticalHuggingPriority=\"750\"", nil),
    ("square", "shadowlessSquare", "verticalHuggingPriority=\"750\"", "{250, 750}"),
    ("square", "shadowlessSquare", "horizontalHuggingPriority=\"250\" verticalHuggingPriority=\"250\"", nil),
  ] as [(String, String, String, String?)])
  func buttonHuggingDefaultsFollowTheBezel(_ type: String, _ bezel: String, _ hugging: String, _ expected: String?) throws {
    let graph = try Self.compile(Self.button(cellType: type, bezel: bezel, font: "metaFont=\"system\"", attributes: hugging))
    let button = try #require(Self.objects(graph, "NSButton").first)
    let written = Self.target(graph, button, "NSHuggingPriority").flatMap { graph.text(of: $0) }
    #expect(written == expected, "\(bezel) \(hugging)")
  }

  // MARK: Images saved as keyed archives

  /// A keyed archive of an NSImage as Interface Builder saves one: 1×1, one bitmap rep, a
  /// calibrated white colour, keys in the archiver's order (NSResizingMode first).
  static func archivedImage() throws -> String {
    func uid(_ index: UInt64) -> PropertyListValue { .uid(index) }
    let objects: [PropertyListValue] = [
      "$null",
      ["NSResizingMode": 0, "NSSize": uid(2), "NSReps": uid(3), "NSImageFlags": 549_650_432, "NSColor": uid(9), "$class": uid(11)],
      "{1, 1}",
      ["NS.objects": [uid(4)], "$class": uid(8)],
      ["NS.objects": [uid(5), uid(6)], "$class": uid(10)],
      0,
      ["NSTIFFRepresentation": uid(12), "NSInternalLayoutDirection": 0, "$class": uid(7)],
      ["$classname": "NSBitmapImageRep", "$classes": ["NSBitmapImageRep", "NSImageRep", "NSObject"]],
      ["$classname": "NSMutableArray", "$classes": ["NSMutableArray", "NSArray", "NSObject"]],
      ["NSColorSpace": 3, "NSWhite": .data(Data("0 0\u{0}".utf8)), "$class": uid(13)],
      ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]],
      ["$classname": "NSImage", "$classes": ["NSImage", "NSObject"]],
      .data(Data([0x4D, 0x4D, 0x00, 0x2A])),
      ["$classname": "NSColor", "$classes": ["NSColor", "NSObject"]],
    ]
    let archive: PropertyListValue = [
      "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": ["root": uid(1)], "$objects": .array(objects),
    ]
    let base64 = try archive.encoded(as: .binary).base64EncodedString()
    // Wrapped at 80 columns and without padding, as Interface Builder writes it.
    var lines: [Substring] = []
    var rest = Substring(base64.trimmingCharacters(in: CharacterSet(charactersIn: "=")))
    while !rest.isEmpty {
      lines.append(rest.prefix(80))
      rest = rest.dropFirst(80)
    }
    return """
      <image name="imageView:i2:image" width="1" height="1">
          <mutableData key="keyedArchiveRepresentation">
      \(lines.joined(separator: "\n"))
      </mutableData>
      </image>
      """
  }

  @Test func anImageSavedAsAKeyedArchiveBecomesAnNSImage() throws {
    let objects = """
                          <imageView id="i1">
                              <rect key="frame" x="10" y="10" width="48" height="48"/>
                              <imageCell key="cell" refusesFirstResponder="YES" alignment="left" imageScaling="proportionallyDown" image="imageView:i2:image" id="i2"/>
                          </imageView>
      """
    let graph = try Self.compile(objects, resources: try Self.archivedImage())
    let image = try #require(Self.objects(graph, "NSImage").first)
    #expect(graph[image].entries.map(\.key) == ["NSImageFlags", "NSSize", "NSReps", "NSColor", "NSResizingMode", "NSTintColor"])
    #expect(graph[image]["NSImageFlags"] == .int32(549_650_432))
    #expect(graph[image]["NSTintColor"] == .null)
    let reps = try #require(Self.target(graph, image, "NSReps"))
    #expect(graph[reps].className == "NSMutableArray")
    let pair = try #require(graph.members(of: reps)?.first)
    let rep = try #require(graph.members(of: pair)?.last)
    #expect(graph[rep].className == "NSBitmapImageRep")
    let tiff = try #require(Self.target(graph, rep, "NSTIFFRepresentation"))
    #expect(graph[tiff]["NS.bytes"] == .data([0x4D, 0x4D, 0x00, 0x2A]))
    let color = try #require(Self.target(graph, image, "NSColor"))
    #expect(graph[color].entries.map(\.key) == ["NSColorSpace", "NSWhite"], "no custom colour space, so no NSLinearExposure")
    #expect(Self.objects(graph, "NSCustomResource").isEmpty)
  }

  @Test func anArchivedImageThatIsNotAKeyedArchiveIsInvalid() {
    let resources = """
      <image name="imageView:i2:image" width="1" height="1">
          <mutableData key="keyedArchiveRepresentation">
      bm90IGEgcGxpc3Q
      </mutableData>
      </image>
      """
    let objects = """
                          <imageView id="i1">
                              <rect key="frame" x="10" y="10" width="48" height="48"/>
                              <imageCell key="cell" alignment="left" image="imageView:i2:image" id="i2"/>
                          </imageView>
      """
    let error = expectError(InterfaceBuilderError.self, .invalidDocument) { try Self.compile(objects, resources: resources) }
    #expect(error?.description.contains("keyedArchiveRepresentation") == true)
  }

  // MARK: Tab views

  static func tabView(items: String) -> String {
    """
                          <tabView id="tv">
                              <rect key="frame" x="10" y="10" width="480" height="380"/>
                              <tabViewItems>
      \(items)
                              </tabViewItems>
                          </tabView>
    """
  }

  static func tabViewItem(_ id: String, subviews: String) -> String {
    """
                                  <tabViewItem label="Tab \(id)" identifier="\(id)" id="item\(id)">
                                      <view key="view" id="view\(id)">
                                          <rect key="frame" x="10" y="33" width="460" height="334"/>
                                          <subviews>
      \(subviews)
                                          </subviews>
                                      </view>
                                  </tabViewItem>
      """
  }

  static func plainButton(_ id: String, x: Int, y: Int) -> String {
    """
                                              <button id="\(id)">
                                                  <rect key="frame" x="\(x)" y="\(y)" width="100" height="25"/>
                                                  <buttonCell key="cell" type="push" title="\(id)" bezelStyle="rounded" alignment="center" borderStyle="border" id="\(id)c">
                                                      <font key="font" metaFont="system"/>
                                                  </buttonCell>
                                              </button>
      """
  }

  @Test func aTabViewsKeyViewLoopRunsThroughItsItemTopToBottomLeftToRight() throws {
    // Document order: low, right, left; geometric order: left (top), right (top), low.
    let subviews = Self.plainButton("low", x: 20, y: 100) + "\n" + Self.plainButton("right", x: 200, y: 300) + "\n" + Self.plainButton("left", x: 20, y: 300)
    let graph = try Self.compile(Self.tabView(items: Self.tabViewItem("1", subviews: subviews)))
    let tabView = try #require(Self.objects(graph, "NSTabView").first)
    let item = try #require(Self.objects(graph, "NSTabViewItem").first)
    #expect(graph[item].entries.map(\.key) == ["NSIdentifier", "NSView", "NSLabel", "NSColor", "NSTabView"])
    #expect(Self.target(graph, tabView, "NSSelectedTabViewItem") == item)
    let itemView = try #require(Self.target(graph, item, "NSView"))
    let subviewsOfTab = try #require(Self.target(graph, tabView, "NSSubviews"))
    #expect(graph.members(of: subviewsOfTab) == [itemView])
    var loop: [String] = []
    var current = tabView
    for _ in 0..<6 {
      guard let next = Self.target(graph, current, "NSNextKeyView") else { break }
      let cell = Self.target(graph, next, "NSCell")
      loop.append(next == tabView ? "tab" : next == itemView ? "item" : cell.flatMap { graph.text(of: graph[$0], forKey: "NSContents") } ?? "?")
      current = next
      if next == tabView { break }
    }
    #expect(loop == ["item", "left", "right", "low", "tab"])
    // NSNextKeyView comes right after NSSuperview.
    let keys = graph[tabView].entries.map(\.key)
    #expect(keys.firstIndex(of: "NSNextKeyView") == keys.firstIndex(of: "NSSuperview").map { $0 + 1 })
  }

  /// Of two items without initialItem the first is selected: its view is the tab view's only
  /// subview and the key view loop runs through it; the second item's view has no superview
  /// and no NSNextKeyView (the clone's `tabView.py`; warned).
  @Test func aTabViewOfTwoItemsSelectsTheFirstAndLoopsThroughIt() throws {
    let items = Self.tabViewItem("1", subviews: "") + "\n" + Self.tabViewItem("2", subviews: "")
    let compilation = try CocoaNibCompiler.compileReportingUnverified(
      try CocoaNibCompilerUnitTests.document(Self.tabView(items: items)), options: .init(omitsColorProfiles: true))
    let graph = compilation.graph
    let tabView = try #require(Self.objects(graph, "NSTabView").first)
    let items2 = Self.objects(graph, "NSTabViewItem")
    #expect(items2.count == 2)
    let first = try #require(items2.first { graph.text(of: graph[$0], forKey: "NSIdentifier") == "1" })
    let second = try #require(items2.first { graph.text(of: graph[$0], forKey: "NSIdentifier") == "2" })
    #expect(Self.target(graph, tabView, "NSSelectedTabViewItem") == first)
    let firstView = try #require(Self.target(graph, first, "NSView"))
    let secondView = try #require(Self.target(graph, second, "NSView"))
    #expect(Self.target(graph, tabView, "NSSubviews").flatMap { graph.members(of: $0) } == [firstView])
    #expect(Self.target(graph, tabView, "NSNextKeyView") == firstView)
    #expect(graph[secondView]["NSNextKeyView"] == nil)
    #expect(graph[secondView]["NSSuperview"] == nil)
    #expect(compilation.warnings.contains { $0.element == "tabView" })
  }

  // MARK: Predicate editors

  static func predicateEditor(firstMenu: String) -> String {
    """
                          <predicateEditor verticalHuggingPriority="750" nestingMode="compound" rowHeight="25" id="pe">
                              <rect key="frame" x="0.0" y="0.0" width="429" height="206"/>
                              <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                              <rowTemplates>
                                  <predicateEditorRowTemplate rowType="compound" id="rt">
                                      <popUpMenus>
                                          <menu id="m1">
                                              <items>
      \(firstMenu)
                                              </items>
                                          </menu>
                                          <menu id="m2">
                                              <items>
                                                  <menuItem title="of the following are true" state="on" id="m2a"/>
                                              </items>
                                          </menu>
                                      </popUpMenus>
                                  </predicateEditorRowTemplate>
                              </rowTemplates>
                          </predicateEditor>
    """
  }

  static let anyAll = """
                                                  <menuItem title="Any" state="on" id="m1a">
                                                      <integer key="representedObject" value="2"/>
                                                  </menuItem>
                                                  <menuItem title="All" id="m1b">
                                                      <integer key="representedObject" value="1"/>
                                                  </menuItem>
    """

  @Test func aCompoundRowTemplateLaysOutItsPopupsAndSelectsTheItemThatIsOn() throws {
    let graph = try Self.compile(Self.predicateEditor(firstMenu: Self.anyAll))
    let editor = try #require(Self.objects(graph, "NSPredicateEditor").first)
    #expect(graph[editor]["NSRuleEditorSliceHeight"] == .float64(25))
    #expect(graph[editor]["NSRuleEditorNestingMode"] == .int8(2))
    let holder = try #require(Self.target(graph, editor, "NSRuleEditorSlicesHolder"))
    #expect(graph[holder].className == "_NSRuleEditorViewSliceHolder")
    #expect(Self.target(graph, editor, "NSNextKeyView") == holder)
    let template = try #require(Self.objects(graph, "NSPredicateEditorRowTemplate").first)
    let views = try #require(Self.target(graph, template, "NSPredicateTemplateViews"))
    let popUps = try #require(graph.members(of: views))
    #expect(popUps.count == 2)
    let frames = popUps.map { Self.target(graph, $0, "NSFrame").flatMap { graph.text(of: $0) } }
    #expect(frames == ["{{7, 1}, {68, 24}}", "{{81, 1}, {173, 24}}"])
    #expect(Self.target(graph, popUps[0], "NSNextKeyView") == popUps[1])
    #expect(graph[popUps[1]]["NSNextKeyView"] == .null)
    let cell = try #require(Self.target(graph, popUps[0], "NSCell"))
    let represented = try #require(Self.target(graph, cell, "NSRepresentedObject"))
    #expect(graph[represented]["NS.intval"] == .int8(2), "the represented object of the item that is on")
    let selected = try #require(Self.target(graph, cell, "NSMenuItem"))
    #expect(graph.text(of: graph[selected], forKey: "NSTitle") == "Any")
    #expect(graph.text(of: graph[selected], forKey: "NSAction") == "_popUpItemAction:")
    let secondCell = try #require(Self.target(graph, popUps[1], "NSCell"))
    #expect(graph[secondCell]["NSRepresentedObject"] == nil)
  }

  @Test func aRowTemplateTitleOfUnknownWidthIsRefusedWithItsLine() {
    let menu = "                                                <menuItem title=\"Some\" id=\"m1a\"/>"
    let error = expectError(InterfaceBuilderError.self, .unsupported) { try Self.compile(Self.predicateEditor(firstMenu: menu)) }
    #expect(error?.line == 20)
    #expect(error?.description.contains("\"Some\"") == true)
  }

  // MARK: Menus

  static func menu(_ items: String) -> String {
    """
              <menu title="Main" id="mm">
                  <items>
      \(items)
                  </items>
              </menu>
      """
  }

  @Test func aBase64KeyEquivalentIsItsCharacter() throws {
    let items = """
                      <menuItem title="Remove" id="r1">
                          <string key="keyEquivalent" base64-UTF8="YES">
      CA
      </string>
                      </menuItem>
      """
    let graph = try Self.compile(Self.menu(items), inWindow: false)
    let item = try #require(Self.objects(graph, "NSMenuItem").first)
    #expect(graph.text(of: graph[item], forKey: "NSKeyEquiv") == "\u{8}", "backspace")
  }

  @Test func aMenuItemsRepresentedObjectIsASharedNumber() throws {
    let items = """
                      <menuItem title="Two" id="r1">
                          <integer key="representedObject" value="2"/>
                      </menuItem>
                      <menuItem title="Also two" id="r2">
                          <integer key="representedObject" value="2"/>
                      </menuItem>
      """
    let graph = try Self.compile(Self.menu(items), inWindow: false)
    let items2 = Self.objects(graph, "NSMenuItem")
    let numbers = items2.compactMap { Self.target(graph, $0, "NSRepObject") }
    #expect(numbers.count == 2 && numbers[0] == numbers[1])
    let keys = graph[items2[0]].entries.map(\.key)
    #expect(keys.firstIndex(of: "NSRepObject")! < keys.firstIndex(of: "NSHiddenInRepresentation")!)
  }

  @Test func anotherStringOrIntegerChildOfAMenuItemIsRefused() {
    let items = """
                      <menuItem title="Two" id="r1">
                          <integer key="tag" value="2"/>
                      </menuItem>
      """
    let error = expectError(InterfaceBuilderError.self, .unsupported) { try Self.compile(Self.menu(items), inWindow: false) }
    #expect(error?.line != nil)
  }

  @Test func aSeparatorHasKeyEquivalentModifiersOnlyWhenTheDocumentGivesThem() throws {
    let items = """
                      <menuItem isSeparatorItem="YES" id="s1"/>
                      <menuItem isSeparatorItem="YES" id="s2">
                          <modifierMask key="keyEquivalentModifierMask" command="YES"/>
                      </menuItem>
      """
    let graph = try Self.compile(Self.menu(items), inWindow: false)
    let separators = Self.objects(graph, "NSMenuItem")
    #expect(separators.count == 2)
    #expect(graph[separators[0]]["NSKeyEquivModMask"] == nil)
    #expect(graph[separators[1]]["NSKeyEquivModMask"] == .int32(0x10_0000))
  }

  // MARK: Windows

  @Test(arguments: [("titled=\"YES\"", "{350, 37}"), ("titled=\"YES\" fullSizeContentView=\"YES\"", "{350, 5}"), ("", "{350, 5}")])
  func aWindowsMinimumFrameAddsTheTitleBarUnlessTheContentRunsUnderIt(_ style: String, _ expected: String) throws {
    let objects = """
              <window title="W" id="1">
                  <windowStyleMask key="styleMask" \(style)/>
                  <rect key="contentRect" x="0" y="0" width="480" height="269"/>
                  <value key="minSize" type="size" width="350" height="5"/>
              </window>
      """
    let graph = try Self.compile(objects, inWindow: false)
    let window = try #require(Self.objects(graph, "NSWindowTemplate").first)
    #expect(Self.target(graph, window, "NSMinSize").flatMap { graph.text(of: $0) } == expected)
    #expect(Self.target(graph, window, "NSWindowContentMinSize").flatMap { graph.text(of: $0) } == "{350, 5}")
  }

  /// A configured symbol is compiled at its `<resources>` size (UnverifiedFeatureTests); one
  /// without a size there is refused.
  @Test func aConfiguredSymbolWithoutAResourceSizeIsRefusedWithItsLineAndWhy() {
    let items = """
                      <menuItem title="Donate" id="r1">
                          <imageReference key="secondaryImage" image="heart" catalog="system" symbolScale="default" variableValue="1"/>
                      </menuItem>
      """
    let error = expectError(InterfaceBuilderError.self, .unsupported) { try Self.compile(Self.menu(items), inWindow: false) }
    #expect(error?.line == 10)
    #expect(error?.description.contains("no size in <resources>") == true)
  }
}
