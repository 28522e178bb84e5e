import Foundation
import Interface
import InterfaceBuilder
import Testing
import TestSupport

/// Features compiled from AppKit's archive keys without an Apple-compiled sample (text view
/// options, colors in named spaces, separatorColor, content tint, button key equivalent
/// modifiers, constraint multipliers, chained bindings, old-style boxes, bare matrices, popup
/// fonts, empty attributed titles, accessibility, configured symbols), on small documents: the
/// keys, value types and values written, and the warning each one reports.
@Suite struct UnverifiedFeatureTests {
  static let options = CocoaNibCompiler.Options(colorProfiles: ColorProfiles(genericGray: [1, 2, 3], sRGB: [4, 5, 6]))

  /// Compiles `objects` inside a window's content view (or as they are, `inWindow: false`).
  static func compile(_ objects: String, resources: String = "", inWindow: Bool = true) throws(InterfaceBuilderError) -> Compilation {
    try CocoaNibCompiler.compileReportingUnverified(try CocoaNibCompilerUnitTests.document(objects, resources: resources, inWindow: inWindow), options: options)
  }

  static func objects(_ graph: NibGraph, _ className: String) -> [Int] {
    graph.objects.indices.filter { graph[$0].className == className }
  }

  static func target(_ graph: NibGraph, _ index: Int, _ key: String) -> Int? {
    if case .object(let target)? = graph[index][key] { return target }
    return nil
  }

  /// The text of a data payload without its trailing NUL.
  static func dataText(_ graph: NibGraph, _ index: Int, _ key: String) -> String? {
    guard case .data(let bytes)? = graph[index][key] else { return nil }
    return String(decoding: bytes.last == 0 ? bytes.dropLast() : bytes[...], as: UTF8.self)
  }

  static func warned(_ compilation: Compilation, _ text: String) -> Bool {
    compilation.warnings.contains { $0.detail.contains(text) && $0.detail.contains("not checked against an Apple-compiled nib") }
  }

  // MARK: Text views

  static func textView(_ attributes: String, colors: String = "") -> String {
    """
                          <textView importsGraphics="NO" richText="NO" verticallyResizable="YES" \(attributes) id="tv">
                              <rect key="frame" x="0" y="0" width="200" height="100"/>
                              <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
    \(colors)
                              <size key="minSize" width="200" height="100"/>
                              <size key="maxSize" width="200" height="10000000"/>
                          </textView>
    """
  }

  /// The shared data and layout manager of the document's one text view.
  static func textViewParts(_ compilation: Compilation) throws -> (shared: Int, layoutManager: Int) {
    let graph = compilation.graph
    let textView = try #require(objects(graph, "NSTextView").first)
    let shared = try #require(target(graph, textView, "NSSharedData"))
    let container = try #require(target(graph, textView, "NSTextContainer"))
    let layoutManager = try #require(target(graph, container, "NSLayoutManager"))
    return (shared, layoutManager)
  }

  @Test func textViewOptionsAreBitsOfTheSharedDataAndLayoutManager() throws {
    let plain = try Self.compile(Self.textView(""))
    let (plainShared, plainManager) = try Self.textViewParts(plain)
    #expect(plain.graph[plainShared]["NSFlags"] == NibGraph.integer(0x903))
    #expect(plain.graph[plainManager]["NSLMFlags"] == .int8(0x66))
    #expect(plain.graph[plainShared]["NSAutomaticTextCompletionDisabled"] == .bool(false))
    #expect(plain.warnings.isEmpty)

    let options = try Self.compile(
      Self.textView(#"drawsBackground="NO" incrementalSearchingEnabled="YES" allowsNonContiguousLayout="YES" textCompletion="NO""#))
    let (shared, manager) = try Self.textViewParts(options)
    #expect(options.graph[shared]["NSFlags"] == .int32(0x4000_0803), "drawsBackground NO clears 0x100, incremental searching sets 0x40000000")
    #expect(options.graph[manager]["NSLMFlags"] == .int16(0xE6), "allowsNonContiguousLayout adds 0x80 to 0x66")
    #expect(options.graph[shared]["NSAutomaticTextCompletionDisabled"] == .bool(true))
    for attribute in ["drawsBackground", "incrementalSearchingEnabled", "allowsNonContiguousLayout", "textCompletion"] {
      #expect(Self.warned(options, attribute), "\(attribute) is reported")
    }
  }

  /// As a public ibtool re-implementation read NetNewsWire's About window off Apple's compile:
  /// allowsCharacterPickerTouchBarItem="NO" is NSMoreFlags 0x2, and with editable="NO",
  /// richText="NO", drawsBackground="NO" the shared data's NSFlags is 0x801.
  @Test func aTextViewsCharacterPickerSettingIsNSMoreFlags0x2() throws {
    let compilation = try Self.compile(Self.textView(#"allowsCharacterPickerTouchBarItem="NO""#))
    let (shared, _) = try Self.textViewParts(compilation)
    #expect(compilation.graph[shared]["NSFlags"] == NibGraph.integer(0x903))
    #expect(compilation.graph[shared]["NSMoreFlags"] == .int8(3))
    #expect(Self.warned(compilation, "allowsCharacterPickerTouchBarItem"))
    let about = try Self.compile(Self.textView(#"editable="NO" drawsBackground="NO" allowsCharacterPickerTouchBarItem="NO" textCompletion="NO""#))
    let (aboutShared, _) = try Self.textViewParts(about)
    #expect(about.graph[aboutShared]["NSFlags"] == NibGraph.integer(0x801))
  }

  /// `misplaced` (Interface Builder's editor state) changes nothing in a scroll view's archive.
  @Test func aMisplacedScrollViewCompilesAsAPlacedOne() throws {
    func scrollView(_ attributes: String) -> String {
      """
                          <scrollView \(attributes) borderType="none" horizontalLineScroll="10" horizontalPageScroll="10" verticalLineScroll="10" verticalPageScroll="10" hasHorizontalScroller="NO" id="sv">
                              <rect key="frame" x="0" y="0" width="200" height="100"/>
                              <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                              <clipView key="contentView" drawsBackground="NO" id="cv">
                                  <rect key="frame" x="0" y="0" width="200" height="100"/>
                                  <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                                  <subviews>
      \(Self.textView(""))
                                  </subviews>
                              </clipView>
                              <scroller key="horizontalScroller" hidden="YES" wantsLayer="YES" verticalHuggingPriority="750" horizontal="YES" id="h">
                                  <rect key="frame" x="-100" y="-100" width="240" height="16"/>
                                  <autoresizingMask key="autoresizingMask"/>
                              </scroller>
                              <scroller key="verticalScroller" wantsLayer="YES" verticalHuggingPriority="750" doubleValue="1" horizontal="NO" id="v">
                                  <rect key="frame" x="184" y="0" width="16" height="100"/>
                                  <autoresizingMask key="autoresizingMask"/>
                              </scroller>
                          </scrollView>
      """
    }
    let placed = try Self.compile(scrollView(""))
    let misplaced = try Self.compile(scrollView(#"misplaced="YES""#))
    #expect(NIBArchive(misplaced.graph).encoded() == NIBArchive(placed.graph).encoded())
    #expect(misplaced.warnings.isEmpty)
  }

  // MARK: Colors

  /// The background color of the document's one text view.
  static func textViewBackground(_ color: String) throws -> (graph: NibGraph, color: Int, warnings: Compilation) {
    let compilation = try compile(textView("", colors: color))
    let (shared, _) = try textViewParts(compilation)
    return (compilation.graph, try #require(target(compilation.graph, shared, "NSBackgroundColor")), compilation)
  }

  @Test func anSRGBColorIsCalibratedRGBWithItsSpaceAndComponents() throws {
    // HSChooserWindow's table background; Apple's NSRGB is "0.03472566977 0.3152296245 0.8149212003 0".
    let (graph, color, compilation) = try Self.textViewBackground(
      #"<color key="backgroundColor" red="0.0" green="0.41176470588235292" blue="0.85098039215686272" alpha="0.0" colorSpace="custom" customColorSpace="sRGB"/>"#)
    #expect(graph[color].entries.map(\.key) == ["NSColorSpace", "NSRGB", "NSCustomColorSpace", "NSComponents", "NSLinearExposure"])
    #expect(graph[color]["NSColorSpace"] == .int8(1))
    #expect(Self.dataText(graph, color, "NSComponents") == "0 0.4117647059 0.8509803922 0")
    #expect(Self.dataText(graph, color, "NSLinearExposure") == "1")
    let rgb = try #require(Self.dataText(graph, color, "NSRGB")).split(separator: " ").compactMap { Double($0) }
    let apple = [0.03472566977, 0.3152296245, 0.8149212003, 0]
    #expect(rgb.count == 4)
    for (mine, theirs) in zip(rgb, apple) { #expect(abs(mine - theirs) < 0.001, "\(rgb) is near Apple's \(apple)") }
    let space = try #require(Self.target(graph, color, "NSCustomColorSpace"))
    #expect(graph[space].className == "NSColorSpace")
    #expect(graph[space]["NSID"] == .int8(7))
    #expect(Self.warned(compilation, "customColorSpace=\"sRGB\""))
  }

  @Test func aGenericGrayColorIsCalibratedWhiteWithItsSpace() throws {
    let (graph, color, compilation) = try Self.textViewBackground(
      #"<color key="backgroundColor" white="0.0" alpha="0.0" colorSpace="custom" customColorSpace="genericGamma22GrayColorSpace"/>"#)
    #expect(graph[color]["NSColorSpace"] == .int8(3))
    #expect(Self.dataText(graph, color, "NSWhite") == "0 0")
    #expect(Self.dataText(graph, color, "NSComponents") == "0 0")
    let space = try #require(Self.target(graph, color, "NSCustomColorSpace"))
    #expect(graph[space]["NSID"] == .int8(9))
    #expect(Self.warned(compilation, "genericGamma22GrayColorSpace"))
  }

  @Test func anotherCustomColorSpaceIsRefused() throws {
    let error = try #require(throws: InterfaceBuilderError.self) {
      try Self.textViewBackground(
        #"<color key="backgroundColor" cyan="0.5" magenta="0.1" yellow="0.4" black="0.6" alpha="1" colorSpace="custom" customColorSpace="genericCMYKColorSpace"/>"#)
    }
    #expect(error.code == .unsupported)
  }

  /// A public ibtool re-implementation's reading of Apple's compile of NetNewsWire's
  /// CurrentActivityWindow.xib: separatorColor's resolved color is the gridColor catalog color
  /// (the same object a gridColor elsewhere in the nib is).
  @Test func separatorColorResolvesToTheGridColorCatalogColor() throws {
    let (graph, color, compilation) = try Self.textViewBackground(
      #"<color key="backgroundColor" name="separatorColor" catalog="System" colorSpace="catalog"/>"#)
    #expect(graph[color]["NSColorSpace"] == .int8(6))
    #expect(graph.text(of: graph[color], forKey: "NSColorName") == "separatorColor")
    #expect(graph.text(of: graph[color], forKey: "NSCatalogName") == "System")
    let inner = try #require(Self.target(graph, color, "NSColor"))
    #expect(graph[inner]["NSColorSpace"] == .int8(6))
    #expect(graph.text(of: graph[inner], forKey: "NSCatalogName") == "System")
    #expect(graph.text(of: graph[inner], forKey: "NSColorName") == "gridColor")
    let resolved = try #require(Self.target(graph, inner, "NSColor"))
    #expect(graph[resolved]["NSColorSpace"] == .int8(3))
    #expect(Self.dataText(graph, resolved, "NSWhite") == "0.4246723652")
    #expect(Self.dataText(graph, resolved, "NSComponents") == "0.5 1")
    #expect(Self.warned(compilation, "System/separatorColor"))
  }

  /// The same reading of NetNewsWire's SidebarView.xib: _sourceListBackgroundColor resolves to
  /// the controlBackgroundColor catalog color.
  @Test func sourceListBackgroundColorResolvesToTheControlBackgroundCatalogColor() throws {
    let (graph, color, compilation) = try Self.textViewBackground(
      #"<color key="backgroundColor" name="_sourceListBackgroundColor" catalog="System" colorSpace="catalog"/>"#)
    #expect(graph.text(of: graph[color], forKey: "NSColorName") == "_sourceListBackgroundColor")
    let inner = try #require(Self.target(graph, color, "NSColor"))
    #expect(graph.text(of: graph[inner], forKey: "NSColorName") == "controlBackgroundColor")
    let resolved = try #require(Self.target(graph, inner, "NSColor"))
    #expect(Self.dataText(graph, resolved, "NSWhite") == "0.602715373")
    #expect(Self.warned(compilation, "System/_sourceListBackgroundColor"))
  }

  static let accentColor = """
    <namedColor name="AccentColor">
        <color red="0.030999999493360519" green="0.41600000858306885" blue="0.93300002813339233" alpha="1" colorSpace="custom" customColorSpace="sRGB"/>
    </namedColor>
    """

  @Test func anAssetCatalogColorIsACatalogColorOfTheMainBundleAroundItsValue() throws {
    let compilation = try Self.compile(
      Self.button(tint: #"<color key="contentTintColor" name="AccentColor"/>"#) + Self.button(tint: #"<color key="contentTintColor" name="AccentColor"/>"#)
        .replacingOccurrences(of: "id=\"b", with: "id=\"c"),
      resources: Self.accentColor)
    let graph = compilation.graph
    let buttons = Self.objects(graph, "NSButton")
    #expect(buttons.count == 2)
    let cells = Self.objects(graph, "NSButtonCell")
    let tint = try #require(Self.target(graph, cells[0], "NSContentTintColor"))
    #expect(Self.target(graph, cells[1], "NSContentTintColor") == tint, "one shared color object")
    #expect(graph[tint].entries.map(\.key) == ["NSColorSpace", "NSCatalogName", "NSColorName", "NSColor"])
    #expect(graph[tint]["NSColorSpace"] == .int8(6))
    #expect(graph.text(of: graph[tint], forKey: "NSCatalogName") == "#$assets-mainBundleID")
    #expect(graph.text(of: graph[tint], forKey: "NSColorName") == "AccentColor")
    let value = try #require(Self.target(graph, tint, "NSColor"))
    #expect(graph[value]["NSColorSpace"] == .int8(1))
    #expect(Self.dataText(graph, value, "NSComponents") == "0.03099999949 0.4160000086 0.9330000281 1")
    // Apple's conversion of these components, as a public re-implementation read it off
    // NetNewsWire's nibs, is "0.0493131876 0.3120345175 0.9147195816"; the nominal conversion
    // comes within 1e-4 (ColorSync's profiles give the last digits) and is warned.
    let rgb = try #require(Self.dataText(graph, value, "NSRGB")).split(separator: " ").compactMap { Double($0) }
    let apple = [0.0493131876, 0.3120345175, 0.9147195816]
    #expect(rgb.count == 3)
    for (mine, theirs) in zip(rgb, apple) { #expect(abs(mine - theirs) < 1e-4, "\(rgb) is near \(apple)") }
    #expect(Self.warned(compilation, "asset catalog color \"AccentColor\""))
    #expect(Self.warned(compilation, "nominal sRGB to Generic RGB conversion"))
  }

  @Test func anAssetCatalogColorWithoutItsDefinitionIsInvalidAtItsLine() throws {
    let error = try #require(throws: InterfaceBuilderError.self) {
      try Self.compile(Self.button(tint: #"<color key="contentTintColor" name="AccentColor"/>"#))
    }
    #expect(error.code == .invalidDocument)
    #expect(error.line != nil)
    #expect(error.detail.contains("<namedColor name=\"AccentColor\">"), "\(error)")
  }

  // MARK: Buttons

  static func button(keyEquivalent: String = "", mask: String = "", tint: String = "") -> String {
    """
                          <button id="b1">
                              <rect key="frame" x="10" y="10" width="75" height="32"/>
                              <buttonCell key="cell" type="push" title="Send" bezelStyle="rounded" alignment="center" borderStyle="border" imageScaling="proportionallyDown" inset="2" id="b2">
                                  <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                  <font key="font" metaFont="system"/>
                                  \(keyEquivalent.isEmpty ? "" : "<string key=\"keyEquivalent\">\(keyEquivalent)</string>")
                                  \(mask)
                              </buttonCell>
                              \(tint)
                          </button>
    """
  }

  static func buttonFlags2(_ compilation: Compilation) throws -> Int {
    let cell = try #require(objects(compilation.graph, "NSButtonCell").first)
    switch compilation.graph[cell]["NSButtonFlags2"] {
    case .int8(let value)?: return Int(value)
    case .int16(let value)?: return Int(value)
    case .int32(let value)?: return Int(value)
    case .int64(let value)?: return Int(value)
    default: Issue.record("no NSButtonFlags2"); return 0
    }
  }

  @Test func aButtonCellsKeyEquivalentModifiersAreNSButtonFlags2BitsShiftedUp() throws {
    let command = try Self.compile(Self.button(keyEquivalent: "D", mask: #"<modifierMask key="keyEquivalentModifierMask" command="YES"/>"#))
    #expect(try Self.buttonFlags2(command) & 0x7FFF_FF00 == 0x1000_0000)
    #expect(Self.warned(command, "key equivalent modifiers"))
    let shiftOption = try Self.compile(Self.button(mask: #"<modifierMask key="keyEquivalentModifierMask" shift="YES" option="YES"/>"#))
    #expect(try Self.buttonFlags2(shiftOption) & 0x7FFF_FF00 == 0x0A00_0000, "shift 1 << 17 and option 1 << 19, shifted 8 bits")
    let none = try Self.compile(Self.button(keyEquivalent: "D", mask: #"<modifierMask key="keyEquivalentModifierMask"/>"#))
    #expect(try Self.buttonFlags2(none) & 0x7FFF_FF00 == 0, "an empty mask has no modifiers")
  }

  /// Where a public ibtool re-implementation read it off Apple's compile of NetNewsWire's
  /// TimelineContainerView.xib: on the button's cell, its last key.
  @Test func aButtonsContentTintColorIsItsCellsLastKey() throws {
    let compilation = try Self.compile(Self.button(tint: #"<color key="contentTintColor" name="controlTextColor" catalog="System" colorSpace="catalog"/>"#))
    let graph = compilation.graph
    let button = try #require(Self.objects(graph, "NSButton").first)
    #expect(graph[button]["NSContentTintColor"] == nil)
    let cell = try #require(Self.target(graph, button, "NSCell"))
    let tint = try #require(Self.target(graph, cell, "NSContentTintColor"))
    #expect(graph[tint].className == "NSColor")
    #expect(graph.text(of: graph[tint], forKey: "NSColorName") == "controlTextColor")
    #expect(graph[cell].entries.last?.key == "NSContentTintColor")
    #expect(graph[cell].entries.dropLast().last?.key == "NSAuxButtonType")
    #expect(Self.warned(compilation, "contentTintColor"))
  }

  /// controlSize="large" as a public ibtool re-implementation read it off Apple's compile of
  /// NetNewsWire's ActivityLogWindow.xib: NSControlSize 0, then NSControlSize2 3 and
  /// NSControlSizeExtraLarge false, on the button and after its cell's NSCellFlags2.
  @Test func aLargeButtonIsRegularWithNSControlSize2() throws {
    let compilation = try Self.compile(
      Self.button().replacingOccurrences(of: #"alignment="center""#, with: #"alignment="center" controlSize="large""#))
    let graph = compilation.graph
    let button = try #require(Self.objects(graph, "NSButton").first)
    let keys = graph[button].entries.map(\.key)
    let index = try #require(keys.firstIndex(of: "NSControlSize"))
    #expect(Array(keys[index...].prefix(3)) == ["NSControlSize", "NSControlSize2", "NSControlSizeExtraLarge"])
    #expect(graph[button]["NSControlSize"] == .int8(0))
    #expect(graph[button]["NSControlSize2"] == .int8(3))
    #expect(graph[button]["NSControlSizeExtraLarge"] == .bool(false))
    let cell = try #require(Self.target(graph, button, "NSCell"))
    #expect(Array(graph[cell].entries.map(\.key).prefix(4)) == ["NSCellFlags", "NSCellFlags2", "NSControlSize2", "NSControlSizeExtraLarge"])
    #expect(graph[cell]["NSControlSize2"] == .int8(3))
    #expect(Self.warned(compilation, "controlSize=\"large\""))
  }

  /// A window's title bar attributes as a public ibtool re-implementation read them off Apple's
  /// compile of NetNewsWire's AboutWindowController.xib: after NSMaxFullScreenContentSize,
  /// NSWindowTitleVisibility 1, NSTitlebarAppearsTransparent true, NSTitlebarSeparatorStyle 1.
  @Test func aWindowsTitleBarAttributesFollowItsFullScreenSizes() throws {
    let window = """
          <window title="W" separatorStyle="none" titlebarAppearsTransparent="YES" titleVisibility="hidden" id="w1">
              <rect key="contentRect" x="0" y="0" width="500" height="400"/>
              <rect key="screenRect" x="0" y="0" width="1440" height="900"/>
              <view key="contentView" id="w2">
                  <rect key="frame" x="0" y="0" width="500" height="400"/>
              </view>
          </window>
      """
    let compilation = try Self.compile(window, inWindow: false)
    let graph = compilation.graph
    let template = try #require(Self.objects(graph, "NSWindowTemplate").first)
    let keys = graph[template].entries.map(\.key)
    let index = try #require(keys.firstIndex(of: "NSMaxFullScreenContentSize"))
    #expect(Array(keys[(index + 1)...].prefix(3)) == ["NSWindowTitleVisibility", "NSTitlebarAppearsTransparent", "NSTitlebarSeparatorStyle"])
    #expect(graph[template]["NSWindowTitleVisibility"] == .int8(1))
    #expect(graph[template]["NSTitlebarAppearsTransparent"] == .bool(true))
    #expect(graph[template]["NSTitlebarSeparatorStyle"] == .int8(1))
    #expect(Self.warned(compilation, "NSWindowTitleVisibility"))
    #expect(Self.warned(compilation, "NSTitlebarSeparatorStyle"))
    // Without the attributes (or at AppKit's defaults), no keys.
    let plain = try Self.compile(window.replacingOccurrences(of: #"separatorStyle="none" titlebarAppearsTransparent="YES" titleVisibility="hidden""#, with: #"titleVisibility="visible""#), inWindow: false)
    let plainTemplate = try #require(Self.objects(plain.graph, "NSWindowTemplate").first)
    #expect(plain.graph[plainTemplate]["NSWindowTitleVisibility"] == nil)
    #expect(plain.graph[plainTemplate]["NSTitlebarAppearsTransparent"] == nil)
    #expect(plain.graph[plainTemplate]["NSTitlebarSeparatorStyle"] == nil)
  }

  /// AppKit's template images at their own size whatever <resources> says: NSActionTemplate
  /// 19×19 (HSChooserWindow's pair; NetNewsWire's DinosaursWindow as a public re-implementation
  /// read it), NSAddTemplate 18×16 and NSRemoveTemplate 18×4 (that reading only, warned).
  @Test func appKitTemplateImagesTakeTheirOwnSize() throws {
    func imageView(_ name: String, _ id: String) -> String {
      """
                          <imageView id="\(id)">
                              <rect key="frame" x="10" y="10" width="20" height="20"/>
                              <imageCell key="cell" refusesFirstResponder="YES" alignment="left" imageScaling="proportionallyDown" image="\(name)" id="\(id)c"/>
                          </imageView>
      """
    }
    let compilation = try Self.compile(
      imageView("NSActionTemplate", "i1") + imageView("NSAddTemplate", "i2") + imageView("NSRemoveTemplate", "i3"),
      resources: #"<image name="NSActionTemplate" width="20" height="20"/><image name="NSAddTemplate" width="14" height="13"/><image name="NSRemoveTemplate" width="14" height="4"/>"#)
    let graph = compilation.graph
    var sizes: [String: String] = [:]
    for resource in Self.objects(graph, "NSCustomResource") {
      guard let name = graph.text(of: graph[resource], forKey: "NSResourceName"), let value = Self.target(graph, resource, "IBDesignSize") else { continue }
      sizes[name] = graph.text(of: graph[value], forKey: "NS.sizeval")
    }
    #expect(sizes["NSActionTemplate"] == "{19, 19}")
    #expect(sizes["NSAddTemplate"] == "{18, 16}")
    #expect(sizes["NSRemoveTemplate"] == "{18, 4}")
    #expect(Self.warned(compilation, "NSAddTemplate"))
    #expect(Self.warned(compilation, "NSRemoveTemplate"))
    #expect(!Self.warned(compilation, "NSActionTemplate"))
  }

  // MARK: Constraints and bindings

  static func constrained(_ multiplier: String) -> String {
    """
                          <customView translatesAutoresizingMaskIntoConstraints="NO" id="v1">
                              <rect key="frame" x="0" y="0" width="100" height="50"/>
                              <constraints>
                                  <constraint firstAttribute="width" secondItem="v1" secondAttribute="height" multiplier="\(multiplier)" id="c1"/>
                              </constraints>
                          </customView>
    """
  }

  static func constraint(_ compilation: Compilation) throws -> Int {
    try #require(objects(compilation.graph, "NSLayoutConstraint").first)
  }

  @Test(arguments: [("1:2", 0.5), ("0.8", 0.8), ("3:4", 0.75), ("0.951613", 0.951613)])
  func aConstraintMultiplierIsTheDoubleNSMultiplier(_ text: String, _ value: Double) throws {
    let compilation = try Self.compile(Self.constrained(text))
    let constraint = try Self.constraint(compilation)
    // Single precision widened to double: 0.8 is 0.800000011920929.
    #expect(compilation.graph[constraint]["NSMultiplier"] == .float64(Double(Float(value))))
    let keys = compilation.graph[constraint].entries.map(\.key)
    #expect(keys.firstIndex(of: "NSMultiplier")! == keys.firstIndex(of: "NSFirstAttribute")! + 1)
    #expect(Self.warned(compilation, "NSMultiplier"))
  }

  @Test func aMultiplierIsRoundedToSinglePrecisionAsAppleArchivesIt() throws {
    // NetNewsWire's AccountsReaderAPI.xib: multiplier="0.951613" is archived as 0.9516130089759827.
    let compilation = try Self.compile(Self.constrained("0.951613"))
    #expect(compilation.graph[try Self.constraint(compilation)]["NSMultiplier"] == .float64(0.9516130089759827))
  }

  @Test func aMultiplierOfOneIsNotWrittenAndNonsenseIsInvalid() throws {
    let one = try Self.compile(Self.constrained("1:1"))
    #expect(one.graph[try Self.constraint(one)]["NSMultiplier"] == nil)
    for bad in ["x", "1:0", "1:2:3"] {
      let error = try #require(throws: InterfaceBuilderError.self) { try Self.compile(Self.constrained(bad)) }
      #expect(error.code == .invalidDocument, "\(bad)")
    }
  }

  @Test func aPreviousBindingIsTheNSPreviousConnector() throws {
    let compilation = try Self.compile(
      """
                          <progressIndicator maxValue="100" indeterminate="YES" style="bar" id="p1">
                              <rect key="frame" x="10" y="10" width="200" height="20"/>
                              <connections>
                                  <binding destination="-2" name="maxValue" keyPath="maxProgressValue" id="13"/>
                                  <binding destination="-2" name="value" keyPath="progressValue" previousBinding="13" id="27"/>
                              </connections>
                          </progressIndicator>
      """)
    let graph = compilation.graph
    let connectors = Self.objects(graph, "NSNibBindingConnector")
    #expect(connectors.count == 2)
    let first = try #require(connectors.first { graph.text(of: graph[$0], forKey: "NSBinding") == "maxValue" })
    let second = try #require(connectors.first { graph.text(of: graph[$0], forKey: "NSBinding") == "value" })
    #expect(Self.target(graph, second, "NSPreviousConnector") == first)
    #expect(graph[first]["NSPreviousConnector"] == nil)
    let keys = graph[second].entries.map(\.key)
    #expect(keys.suffix(2) == ["NSPreviousConnector", "NSNibBindingConnectorVersion"])
    #expect(Self.warned(compilation, "previousBinding"))
  }

  // MARK: Boxes, matrices, popups, menus

  @Test func anOldStyleBoxHasItsBorderTitlePositionAndTitleFont() throws {
    let compilation = try Self.compile(
      """
                          <box boxType="oldStyle" borderType="line" titlePosition="noTitle" id="box">
                              <rect key="frame" x="0" y="0" width="492" height="215"/>
                              <view key="contentView" id="content">
                                  <rect key="frame" x="1" y="1" width="490" height="213"/>
                                  <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                              </view>
                              <font key="titleFont" size="11" name="LucidaGrande"/>
                          </box>
      """)
    let graph = compilation.graph
    let box = try #require(Self.objects(graph, "NSBox").first)
    #expect(graph[box]["NSBoxType"] == .int8(3))
    #expect(graph[box]["NSBorderType"] == .int8(1))
    #expect(graph[box]["NSTitlePosition"] == .int8(0))
    let titleCell = try #require(Self.target(graph, box, "NSTitleCell"))
    let font = try #require(Self.target(graph, titleCell, "NSSupport"))
    #expect(graph.text(of: graph[font], forKey: "NSName") == "LucidaGrande")
    let content = try #require(Self.target(graph, box, "NSContentView"))
    #expect(graph.text(of: graph[content], forKey: "NSFrame") == "{{1, 1}, {490, 213}}")
    #expect(Self.warned(compilation, "oldStyle"))
  }

  /// A primary box's border type, no title and title font, as the Python clone writes them
  /// (`box.py`): the content view fills an untitled box, the title defaults to ""; the other
  /// title positions are refused.
  @Test func aPrimaryBoxHasItsBorderNoTitleAndTitleFont() throws {
    let box = """
                          <box borderType="line" titlePosition="noTitle" id="box">
                              <rect key="frame" x="0" y="0" width="300" height="120"/>
                              <view key="contentView" id="content">
                                  <rect key="frame" x="1" y="1" width="298" height="118"/>
                              </view>
                              <font key="titleFont" size="11" name="LucidaGrande"/>
                          </box>
      """
    let compilation = try Self.compile(box)
    let graph = compilation.graph
    let object = try #require(Self.objects(graph, "NSBox").first)
    #expect(graph[object]["NSBoxType"] == .int8(0))
    #expect(graph[object]["NSBorderType"] == .int8(1))
    #expect(graph[object]["NSTitlePosition"] == .int8(0))
    let titleCell = try #require(Self.target(graph, object, "NSTitleCell"))
    #expect(graph.text(of: graph[titleCell], forKey: "NSContents") == "")
    let font = try #require(Self.target(graph, titleCell, "NSSupport"))
    #expect(graph.text(of: graph[font], forKey: "NSName") == "LucidaGrande")
    let content = try #require(Self.target(graph, object, "NSContentView"))
    #expect(graph.text(of: graph[content], forKey: "NSFrameSize") == "{300, 120}")
    #expect(compilation.warnings.contains { $0.element == "box" && $0.detail.contains("a primary box with NSBorderType 1") })
    let titled = try Self.compile(box.replacingOccurrences(of: " borderType=\"line\" titlePosition=\"noTitle\"", with: " title=\"T\""))
    let titledBox = try #require(Self.objects(titled.graph, "NSBox").first)
    #expect(titled.graph[titledBox]["NSBorderType"] == .int8(3))
    let titledContent = try #require(Self.target(titled.graph, titledBox, "NSContentView"))
    #expect(titled.graph.text(of: titled.graph[titledContent], forKey: "NSFrameSize") == "{300, 108}")
    let error = expectError(InterfaceBuilderError.self, .unsupported) {
      try Self.compile(box.replacingOccurrences(of: "noTitle", with: "belowBottom"))
    }
    #expect(error?.line != nil)
  }

  /// A slider cell without maxValue has AppKit's default maximum, NSMaxValue 1 (the clone's
  /// `sliderCell.py`), reported unverified.
  @Test func aSliderWithoutMaximumHasAppKitsDefault() throws {
    let compilation = try Self.compile(
      """
                          <slider verticalHuggingPriority="750" id="s1">
                              <rect key="frame" x="20" y="20" width="96" height="20"/>
                              <sliderCell key="cell" state="on" alignment="left" doubleValue="0.5" tickMarkPosition="above" sliderType="linear" id="s2"/>
                          </slider>
      """)
    let cell = try #require(compilation.graph.objects.first { $0.className == "NSSliderCell" })
    #expect(cell["NSMaxValue"] == .float64(1))
    #expect(cell["NSValue"] == .float64(0.5))
    #expect(Self.warned(compilation, "without maxValue"))
  }

  @Test func aMatrixWithoutBackgroundOrSizesLeavesTheirKeysOut() throws {
    let compilation = try Self.compile(
      """
              <matrix id="matrix">
                  <buttonCell key="prototype"/>
                  <cells>
                      <column>
                          <buttonCell type="push" title="Cell" id="cell1"/>
                          <buttonCell type="push" title="Cell" id="cell2"/>
                      </column>
                  </cells>
              </matrix>
      """, inWindow: false)
    let graph = compilation.graph
    let matrix = try #require(Self.objects(graph, "NSMatrix").first)
    let keys = Set(graph[matrix].entries.map(\.key))
    #expect(keys.isDisjoint(with: ["NSBackgroundColor", "NSCellBackgroundColor", "NSCellSize", "NSIntercellSpacing"]))
    #expect(graph[matrix]["NSNumRows"] == .int8(2))
    #expect(keys.contains("NSProtoCell"))
    #expect(Self.warned(compilation, "a matrix without backgroundColor, cellSize, intercellSpacing"))
  }

  @Test func aPopupCellsSmallBoldSystemFontIsKept() throws {
    let compilation = try Self.compile(
      """
                          <popUpButton id="pop">
                              <rect key="frame" x="8" y="176" width="46" height="19"/>
                              <popUpButtonCell key="cell" type="recessed" title="Sort" bezelStyle="recessed" alignment="center" borderStyle="border" imageScaling="proportionallyDown" inset="2" pullsDown="YES" id="popcell">
                                  <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                  <font key="font" metaFont="smallSystemBold"/>
                                  <menu key="menu" id="m">
                                      <items>
                                          <menuItem title="Sort" hidden="YES" id="i1">
                                              <attributedString key="attributedTitle"/>
                                              <modifierMask key="keyEquivalentModifierMask"/>
                                          </menuItem>
                                          <menuItem title="Newest" id="i2"/>
                                      </items>
                                  </menu>
                              </popUpButtonCell>
                          </popUpButton>
      """)
    let graph = compilation.graph
    let cell = try #require(Self.objects(graph, "NSPopUpButtonCell").first)
    let font = try #require(Self.target(graph, cell, "NSSupport"))
    #expect(graph.text(of: graph[font], forKey: "NSName") == ".AppleSystemUIFontBold")
    #expect(graph[font]["NSSize"] == .float64(11))
    #expect(Self.warned(compilation, "smallSystemBold"))
    // The empty attributed title leaves the plain one.
    let item = try #require(Self.objects(graph, "NSMenuItem").first)
    #expect(graph.text(of: graph[item], forKey: "NSTitle") == "Sort")
    #expect(!graph[item].entries.contains { $0.key.localizedCaseInsensitiveContains("attributed") })
    #expect(Self.warned(compilation, "attributedTitle"))
  }

  @Test func anAttributedMenuTitleWithTextIsRefused() throws {
    let error = try #require(throws: InterfaceBuilderError.self) {
      try Self.compile(
        """
                <menu id="m">
                    <items>
                        <menuItem title="Sort" id="i1">
                            <attributedString key="attributedTitle"><fragment content="Sort"/></attributedString>
                        </menuItem>
                    </items>
                </menu>
        """, inWindow: false)
    }
    #expect(error.code == .unsupported)
  }

  // MARK: Accessibility and symbols

  /// The object data of a compiled document.
  static func objectData(_ graph: NibGraph) throws -> Int {
    try #require(objects(graph, "NSIBObjectData").first)
  }

  /// As a public ibtool re-implementation read NetNewsWire's SidebarView.xib off Apple's
  /// compile: an NSNibAXAttributeConnector per attribute in NSAccessibilityConnectors, their
  /// ids after every other object id.
  @Test func anAccessibilityDescriptionIsAnAttributeConnector() throws {
    let compilation = try Self.compile(
      """
                          <customView id="v1">
                              <rect key="frame" x="0" y="0" width="100" height="50"/>
                              <accessibility description="Feeds" help="The feeds"/>
                          </customView>
      """)
    let graph = compilation.graph
    let view = try #require(graph.objects.indices.first { graph.text(of: graph[$0], forKey: "NSFrameSize") == "{100, 50}" })
    #expect(graph.objects.allSatisfy { $0["NSAccessibilityOverriddenAttributes"] == nil })
    let data = try Self.objectData(graph)
    let connectorsArray = try #require(Self.target(graph, data, "NSAccessibilityConnectors"))
    #expect(graph[connectorsArray].className == "NSMutableArray")
    let connectors = try #require(graph.members(of: connectorsArray))
    #expect(connectors.count == 2)
    for (connector, (type, text)) in zip(connectors, [("AXDescription", "Feeds"), ("AXHelp", "The feeds")]) {
      #expect(graph[connector].className == "NSNibAXAttributeConnector")
      #expect(graph[connector].entries.map(\.key) == ["AXDestinationArchiveKey", "AXAttributeTypeArchiveKey", "AXAttributeValueArchiveKey"])
      #expect(graph[connector]["AXDestinationArchiveKey"] == .object(view))
      let typeObject = try #require(Self.target(graph, connector, "AXAttributeTypeArchiveKey"))
      #expect(graph[typeObject].className == "NSMutableString")
      #expect(graph.text(of: typeObject) == type)
      let value = try #require(Self.target(graph, connector, "AXAttributeValueArchiveKey"))
      #expect(graph.text(of: value) == text)
    }
    let keysArray = try #require(Self.target(graph, data, "NSAccessibilityOidsKeys"))
    #expect(graph.members(of: keysArray) == connectors)
    let idsArray = try #require(Self.target(graph, data, "NSAccessibilityOidsValues"))
    let ids = try #require(graph.members(of: idsArray))
    let othersArray = try #require(Self.target(graph, data, "NSOidsKeys"))
    let others = try #require(graph.members(of: othersArray)).count
    #expect(ids.map { graph[$0]["NS.intval"] } == [NibGraph.integer(others + 1), NibGraph.integer(others + 2)])
    #expect(Self.warned(compilation, "NSNibAXAttributeConnector"))
  }

  @Test func withoutAccessibilityTheConnectorArraysAreEmpty() throws {
    let graph = try Self.compile("").graph
    let data = try Self.objectData(graph)
    let connectors = try #require(Self.target(graph, data, "NSAccessibilityConnectors"))
    #expect(graph.members(of: connectors) == [])
    #expect(Self.target(graph, data, "NSAccessibilityOidsKeys") == Self.target(graph, data, "NSAccessibilityOidsValues"), "one shared empty array")
  }

  @Test func aTablesAccessibilityDescriptionIsAnAttributeConnector() throws {
    let bytes = TableAttributeTests.table("", gridColor: #"<accessibility description="Feeds"/>"#)
    let compilation = try CocoaNibCompiler.compileReportingUnverified(try InterfaceDocument(bytes: bytes, path: "t.xib"), options: Self.options)
    let graph = compilation.graph
    let table = try #require(Self.objects(graph, "NSTableView").first)
    let connector = try #require(Self.objects(graph, "NSNibAXAttributeConnector").first)
    #expect(graph[connector]["AXDestinationArchiveKey"] == .object(table))
    let value = try #require(Self.target(graph, connector, "AXAttributeValueArchiveKey"))
    #expect(graph.text(of: value) == "Feeds")
  }

  @Test func aConfiguredSymbolTakesItsResourceSize() throws {
    let compilation = try Self.compile(
      """
              <menu id="m">
                  <items>
                      <menuItem title="Donate…" id="i1">
                          <imageReference key="secondaryImage" image="heart" catalog="system" symbolScale="default" variableValue="1"/>
                      </menuItem>
                  </items>
              </menu>
      """, resources: #"<image name="heart" catalog="system" width="16" height="14"/>"#, inWindow: false)
    let graph = compilation.graph
    let item = try #require(Self.objects(graph, "NSMenuItem").first)
    let resource = try #require(Self.target(graph, item, "NSActionImage"))
    #expect(graph[resource].entries.map(\.key) == [
      "NSClassName", "NSResourceName", "NSCatalogName", "NSImageVariableValue", "IBNamespaceID", "IBDesignSize", "IBDesignImageConfiguration",
    ])
    #expect(graph[resource]["NSImageVariableValue"] == .float64(1))
    let size = try #require(Self.target(graph, resource, "IBDesignSize"))
    #expect(graph.text(of: graph[size], forKey: "NS.sizeval") == "{16, 14}")
    let configuration = try #require(Self.target(graph, resource, "IBDesignImageConfiguration"))
    #expect(graph[configuration].className == "IBImageConfiguration")
    #expect(graph[configuration]["IBSymbolScale"] == .int64(-1))
    #expect(graph[configuration]["IBVariableValue"] == .float64(1))
    #expect(Self.warned(compilation, "IBDesignSize"))
  }
}
