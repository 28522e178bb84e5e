import FoundationEssentials
import Interface

/// The xib's attribute values as the compiler reads them.
extension InterfaceDocument.Element {
  /// `YES`/`NO` attribute, or `defaultValue` when absent.
  func flag(_ name: String, default defaultValue: Bool = false) -> Bool {
    guard let value = self[name] else { return defaultValue }
    return value == "YES"
  }

  /// The element's text, decoded when it is saved `base64-UTF8="YES"` (line breaks and padding
  /// as Interface Builder writes them); `nil` when that text is not base64 of UTF-8.
  var decodedText: String? {
    guard flag("base64-UTF8") else { return text }
    var padded = text.filter { !$0.isWhitespace }
    while padded.utf8.count % 4 != 0 { padded += "=" }
    guard let data = Data(base64Encoded: padded) else { return nil }
    return String(data: data, encoding: .utf8)
  }

  /// A number attribute (`x="12.5"`), or `nil` when absent, not a number or not finite.
  func double(_ name: String) -> Double? {
    guard let value = self[name].flatMap({ Double($0) }), value.isFinite else { return nil }
    return value
  }

  /// A whole-number attribute given as a number (`priority="750"`), or `nil` when absent, not a
  /// number, or beyond what an `Int` holds (so a hostile value cannot trap the conversion).
  func wholeNumber(_ name: String) -> Int? {
    guard let value = double(name), abs(value) < 9e18 else { return nil }
    return Int(value.rounded(.towardZero))
  }
}

extension CocoaNibCompiler {
  /// Compiles one object element (a top-level object, a view, a cell, a menu item…) whose
  /// parent object (for NSObjectsValues) is `parent`, and returns its graph object.
  ///
  /// In lenient mode an element the plan compiles best-effort is compiled so, and a refusal
  /// raised inside the element names it as the innermost object being compiled.
  mutating func compileObject(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    guard let plan = options.lenientPlan else { return try compileKnownObject(element, parent: parent, superview: superview) }
    do {
      if plan.bestEffort.contains(ElementKey(element)) { return try compileBestEffort(element, parent: parent, superview: superview) }
      return try compileKnownObject(element, parent: parent, superview: superview)
    } catch {
      var error = error
      if error.refusal != nil, error.refusal?.enclosing == nil { error.refusal?.enclosing = ElementKey(element) }
      throw error
    }
  }

  /// ``compileObject(_:parent:superview:)`` by the element's tag, Apple's way.
  mutating func compileKnownObject(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    switch element.name {
    case "customObject": return try compileCustomObject(element, parent: parent)
    case "window", "panel": return try compileWindow(element, parent: parent)
    case "view", "customView": return try compileView(element, parent: parent, superview: superview)
    case "containerView": return try compileContainerView(element, parent: parent, superview: superview)
    case "textField": return try compileControl(element, className: "NSTextField", parent: parent, superview: superview)
    case "button": return try compileControl(element, className: "NSButton", parent: parent, superview: superview)
    case "menu": return try compileMenu(element, parent: parent)
    case "userDefaultsController": return try compileUserDefaultsController(element, parent: parent)
    case "arrayController", "objectController": return try compileObjectController(element, parent: parent)
    case "wkWebView": return try compileWebView(element, parent: parent, superview: superview)
    case "scrollView", "clipView", "scroller", "tableView", "outlineView", "tableHeaderView", "tableColumn", "tableCellView", "textView":
      return try compileScrollingView(element, parent: parent, superview: superview)
    case "popUpButton", "imageView", "box", "slider", "stepper", "segmentedControl", "searchField", "secureTextField", "colorWell",
      "datePicker", "progressIndicator", "levelIndicator", "matrix", "pathControl", "comboBox", "tokenField", "splitView", "tabView",
      "stackView", "visualEffectView", "pdfView", "predicateEditor", "browser", "collectionView", "gridView", "switch":
      return try compileOtherControl(element, parent: parent, superview: superview)
    default: throw unsupported(element)
    }
  }

  // MARK: Placeholders and custom objects

  /// The File's Owner (`id="-2"`): an `NSCustomObject` whose class is the custom class or
  /// `NSObject`.
  mutating func compilePlaceholder(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let object = try begin(element, className: "NSCustomObject", parent: nil)
    let className = element["customClass"].map { swiftClassName($0, module: module(of: element)) } ?? "NSObject"
    if element["customClass"] != nil { try appendClassReference(of: element, to: object) }
    graph.append("NSClassName", string(className), to: object)
    try compileChildren(of: element, object: object, known: [])
    return object
  }

  /// `<customObject>`: the Application placeholder (`id="-3"`, always `NSApplication`) or an
  /// object the nib instantiates (`NSObject` or its custom class).
  mutating func compileCustomObject(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    let object = try begin(element, className: "NSCustomObject", parent: parent)
    let isApplication = element["id"] == "-3"
    if element["customClass"] != nil { try appendClassReference(of: element, to: object) }
    let className =
      isApplication ? "NSApplication" : element["customClass"].map { swiftClassName($0, module: module(of: element)) } ?? "NSObject"
    graph.append("NSClassName", string(className), to: object)
    try compileChildren(of: element, object: object, known: [])
    return object
  }

  /// `IBClassReference` {IBClassName, IBModuleName, IBModuleProvider} for an element with a
  /// `customClass`.
  mutating func appendClassReference(of element: InterfaceDocument.Element, to object: Int) throws(InterfaceBuilderError) {
    guard let customClass = element["customClass"] else { return }
    let reference = graph.add("IBClassReference")
    graph[reference].entries = [
      .init("IBClassName", string(customClass)),
      .init("IBModuleName", optionalString(element["customModule"])),
      .init("IBModuleProvider", optionalString(element["customModuleProvider"])),
    ]
    graph.append("IBClassReference", .object(reference), to: object)
  }

  /// The runtime name of a class: Swift classes in a module are mangled (`_TtC5MyApp4View`).
  func swiftClassName(_ name: String, module: String?) -> String {
    guard let module, !module.isEmpty else { return name }
    return "_TtC\(module.utf8.count)\(module)\(name.utf8.count)\(name)"
  }

  // MARK: Geometry

  /// A number as Apple's geometry strings print it: integers without a fraction, others as
  /// the shortest decimal that reads back the same.
  static func geometryNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  static func rectString(x: Double, y: Double, width: Double, height: Double) -> String {
    "{{\(geometryNumber(x)), \(geometryNumber(y))}, {\(geometryNumber(width)), \(geometryNumber(height))}}"
  }

  static func sizeString(width: Double, height: Double) -> String {
    "{\(geometryNumber(width)), \(geometryNumber(height))}"
  }

  /// `<rect key="…" x y width height>` as four numbers.
  func rect(_ element: InterfaceDocument.Element, key: String) throws(InterfaceBuilderError) -> (x: Double, y: Double, width: Double, height: Double)? {
    guard let rect = element.child("rect", key: key) else { return nil }
    guard let x = rect.double("x"), let y = rect.double("y"), let width = rect.double("width"), let height = rect.double("height") else {
      throw invalid(rect, "a rect needs numeric x, y, width and height")
    }
    return (x, y, width, height)
  }

  // MARK: Windows

  /// A window's title bar attributes → NSWindowTitleVisibility (hidden 1),
  /// NSTitlebarAppearsTransparent true and NSTitlebarSeparatorStyle (AppKit's enum: automatic 0,
  /// none 1, line 2, shadow 3), in this order after NSMaxFullScreenContentSize, each only when it
  /// differs from AppKit's default — as a public ibtool re-implementation read them off Apple's
  /// compile of NetNewsWire's AboutWindowController.xib (hidden, YES, none). No corpus pair has
  /// them, so each is reported by ``noteUnverified(_:_:)``.
  mutating func titlebarEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let visibility = element["titleVisibility"] {
      guard let value = ["visible": 0, "hidden": 1][visibility] else { throw invalid(element, "titleVisibility \"\(visibility)\" is not visible or hidden") }
      if value != 0 {
        entries.append(.init("NSWindowTitleVisibility", .int8(Int8(value))))
        noteUnverified(element, "titleVisibility=\"\(visibility)\" as NSWindowTitleVisibility \(value)")
      }
    }
    if element.flag("titlebarAppearsTransparent") {
      entries.append(.init("NSTitlebarAppearsTransparent", .bool(true)))
      noteUnverified(element, "titlebarAppearsTransparent=\"YES\" as NSTitlebarAppearsTransparent true")
    }
    if let style = element["separatorStyle"] {
      guard let value = ["automatic": 0, "none": 1, "line": 2, "shadow": 3][style] else { throw invalid(element, "separatorStyle \"\(style)\" is not known") }
      if value != 0 {
        entries.append(.init("NSTitlebarSeparatorStyle", .int8(Int8(value))))
        noteUnverified(element, "separatorStyle=\"\(style)\" as NSTitlebarSeparatorStyle \(value)")
      }
    }
    return entries
  }

  /// `<window>` → `NSWindowTemplate`.
  mutating func compileWindow(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    let window = try begin(element, className: "NSWindowTemplate", parent: parent)
    var entries: [NibGraph.Entry] = []
    if let mask = element.child("windowStyleMask", key: "styleMask") {
      var style = 0
      for (name, bit) in [("titled", 1), ("closable", 2), ("miniaturizable", 4), ("resizable", 8), ("utility", 16), ("docModal", 64),
        ("nonactivatingPanel", 128), ("texturedBackground", 256), ("unifiedTitleAndToolbar", 4096), ("hudWindow", 8192),
        ("fullScreen", 16384), ("fullSizeContentView", 32768)]
      where mask.flag(name) { style |= bit }
      entries.append(.init("NSWindowStyleMask", NibGraph.integer(style)))
    }
    entries.append(.init("NSWindowBacking", .int8(2)))
    let content = try rect(element, key: "contentRect") ?? (0, 0, 0, 0)
    let screen = try rect(element, key: "screenRect") ?? (0, 0, 0, 0)
    let position = element.child("windowPositionMask", key: "initialPositionMask")
    let left = position?.flag("leftStrut") ?? false, right = position?.flag("rightStrut") ?? false
    let bottom = position?.flag("bottomStrut") ?? false, top = position?.flag("topStrut") ?? false
    var origin = (x: content.x, y: content.y)
    if !(position != nil && screen == (0, 0, 0, 0)) {
      if !(left || right) { origin.x = screen.width / 2 - content.width / 2 }
      if !(bottom || top) { origin.y = screen.height / 2 - content.height / 2 }
    }
    let windowRect = string(Self.rectString(x: origin.x, y: origin.y, width: content.width, height: content.height))
    entries.append(.init("NSWindowRect", windowRect))

    var flags = 0
    switch (position == nil, left, right, bottom, top) {
    case (true, _, _, _, _): flags |= 0x78_0000
    case (false, true, true, true, true): flags |= 0x78_0000
    case (false, false, false, true, true): flags |= 0x78_0000  // top and bottom only (sb_basic_wc)
    case (false, true, _, true, _): flags |= 0
    case (false, _, true, true, _): flags |= 0x5_0000
    case (false, true, _, _, true): flags |= 0x28_0000
    case (false, _, true, _, true): flags |= 0x30_0000
    case (false, true, _, _, _): flags |= 0x68_0000
    case (false, _, true, _, _): flags |= 0x70_0000
    case (false, _, _, true, _): flags |= 0x58_0000
    case (false, _, _, _, true): flags |= 0x38_0000
    default: flags |= 0x78_0000
    }
    if element.flag("deferred", default: true) { flags |= 0x2000_0000 }
    if element.flag("allowsToolTipsWhenApplicationIsInactive", default: true) { flags |= 0x2000 }
    if element.flag("autorecalculatesKeyViewLoop", default: true) { flags |= 0x800 }
    if !element.flag("releasedWhenClosed", default: true) { flags |= 0x4000_0000 }
    if element.flag("hidesOnDeactivate") { flags |= Int(bitPattern: 0xFFFF_FFFF_8000_0000) }
    entries.append(.init("NSWTFlags", NibGraph.integer(flags)))
    entries.append(.init("NSWindowTitle", localizable(element["title"] ?? "", element, "title")))
    entries.append(.init("NSWindowSubtitle", string("")))
    entries.append(
      .init("NSWindowClass", string(element["customClass"].map { swiftClassName($0, module: module(of: element)) } ?? "NSWindow")))
    entries.append(.init("NSViewClass", .null))
    entries.append(.init("NSUserInterfaceItemIdentifier", optionalString(element["identifier"])))
    let contentMax = element.children.first { $0.name == "value" && $0["key"] == "maxSize" }
    let contentMin = element.children.first { $0.name == "value" && $0["key"] == "minSize" }
    func size(of value: InterfaceDocument.Element?) throws(InterfaceBuilderError) -> (Double, Double)? {
      guard let value else { return nil }
      guard value["type"] == "size", let width = value.double("width"), let height = value.double("height") else {
        throw invalid(value, "a size value needs <size width height>")
      }
      return (width, height)
    }
    let maxSize = try size(of: contentMax), minSize = try size(of: contentMin)
    if let maxSize { entries.append(.init("NSWindowContentMaxSize", string(Self.sizeString(width: maxSize.0, height: maxSize.1)))) }
    if let minSize { entries.append(.init("NSWindowContentMinSize", string(Self.sizeString(width: minSize.0, height: minSize.1)))) }
    entries.append(.init("NSWindowView", .null))
    let windowViewPosition = entries.count - 1
    entries.append(.init("NSScreenRect", string(Self.rectString(x: screen.x, y: screen.y, width: screen.width, height: screen.height))))
    // The frame limits add the title bar to the content limits, unless the content view runs
    // under it (fullSizeContentView: transmission_MainMenu, minSize 350×5 → NSMinSize {350, 5};
    // the one sample).
    let styleMask = element.child("windowStyleMask", key: "styleMask")
    let titleBar: Double = styleMask?.flag("titled") == true && styleMask?.flag("fullSizeContentView") != true ? 32 : 0
    if let minSize { entries.append(.init("NSMinSize", string(Self.sizeString(width: minSize.0, height: minSize.1 + titleBar)))) }
    if let maxSize {
      entries.append(.init("NSMaxSize", string(Self.sizeString(width: maxSize.0, height: maxSize.1 + titleBar))))
    } else {
      entries.append(.init("NSMaxSize", string("{10000000000000, 10000000000000}")))
    }
    if let behavior = element.child("windowCollectionBehavior", key: "collectionBehavior") {
      var bits = 0
      for (name, bit) in [("canJoinAllSpaces", 1), ("moveToActiveSpace", 2), ("managed", 4), ("transient", 8), ("stationary", 16),
        ("participatesInCycle", 32), ("ignoresCycle", 64), ("fullScreenPrimary", 128), ("fullScreenAuxiliary", 256),
        ("fullScreenNone", 512), ("fullScreenAllowsTiling", 2048), ("fullScreenDisallowsTiling", 4096)]
      where behavior.flag(name) { bits |= bit }
      entries.append(.init("NSWindowCollectionBehavior", NibGraph.integer(bits)))
    }
    if let name = element["frameAutosaveName"] { entries.append(.init("NSFrameAutosaveName", string(name))) }
    entries.append(.init("NSWindowIsRestorable", .bool(element.flag("restorable", default: true))))
    let zero = string("{0, 0}")
    entries.append(.init("NSMinFullScreenContentSize", zero))
    entries.append(.init("NSMaxFullScreenContentSize", zero))
    entries += try titlebarEntries(element)
    if let mode = element["tabbingMode"] {
      let modes = ["automatic": 0, "preferred": 1, "disallowed": 2]
      guard let value = modes[mode] else { throw invalid(element, "tabbingMode \"\(mode)\" is not automatic, preferred or disallowed") }
      entries.append(.init("NSWindowTabbingMode", .int8(Int8(value))))
    }
    graph[window].entries = entries
    if element["customClass"] != nil { try appendClassReference(of: element, to: window) }
    if let style = element["toolbarStyle"] {
      let styles = ["automatic": 0, "expanded": 1, "preference": 2, "unified": 3, "unifiedCompact": 4, "compact": 4]
      guard let value = styles[style] else { throw invalid(element, "toolbarStyle \"\(style)\" is not known") }
      graph.append("NSWindowToolbarStyle", .int8(Int8(value)), to: window)
    }
    if element.flag("visibleAtLaunch", default: true) { visibleWindows.append(window) }

    for child in element.children {
      switch child.name {
      case "view" where child["key"] == "contentView":
        let view = try compileView(child, parent: window, superview: nil, contentSize: Self.contentViewSize(of: element, content: child, contentRect: (content.width, content.height)))
        graph[window].entries[windowViewPosition].value = .object(view)
      case "clipView" where child["key"] == "contentView":
        let view = try compileObject(child, parent: window, superview: nil)
        graph[window].entries[windowViewPosition].value = .object(view)
      case "toolbar" where child["key"] == "toolbar": try compileWindowToolbar(child, window: window)
      case "contentBorderThickness": try compileContentBorder(child, window: window)
      case "windowStyleMask", "rect", "windowPositionMask", "value", "windowCollectionBehavior": break
      case "point" where child["key"] == "canvasLocation": break
      case "connections": try compileConnections(child, source: window)
      default: throw unsupported(child)
      }
    }
    return window
  }

  // MARK: Views

  /// The size a window's content view is archived with: the content rect's, except that a
  /// titled window's content view laid out by its own constraints keeps its frame in the
  /// document (test25_hugging: {480, 89} under a 480 × 158 content rect; transmission_MainMenu:
  /// {480, 348} under 480 × 269). An untitled window's (HSChooserWindow) and a content view
  /// without constraints (test6_whitecolor, test7_clipview, textview_attributedstring,
  /// textview_multiattr) take the content rect's. Inferred from these six pairs.
  static func contentViewSize(
    of window: InterfaceDocument.Element, content: InterfaceDocument.Element, contentRect: (Double, Double)
  ) -> (Double, Double) {
    guard window.child("windowStyleMask", key: "styleMask")?.flag("titled") == true, content.child("constraints")?.children.isEmpty == false,
      let frame = content.child("rect", key: "frame"), let width = frame.double("width"), let height = frame.double("height")
    else { return contentRect }
    return (width, height)
  }

  /// `<view>` → `NSView`, `<customView>` → `NSCustomView`.
  mutating func compileView(
    _ element: InterfaceDocument.Element, parent: Int, superview: Int?, contentSize: (Double, Double)? = nil
  ) throws(InterfaceBuilderError) -> Int {
    let isCustom = element.name == "customView"
    let view = try begin(element, className: isCustom ? "NSCustomView" : "NSView", parent: parent)
    var entries = try viewEntries(element, view: view, superview: superview, contentSize: contentSize)
    // An NSCustomView archives clipsToBounds twice (StatusBar, split view panes).
    if isCustom && element.flag("clipsToBounds") { entries.append(.init("NSViewClipsToBoundsKeyName", .bool(true))) }
    if let hugging = hugging(element) { entries.append(.init("NSHuggingPriority", hugging)) }
    entries += tailViewEntries(element)
    graph[view].entries = entries
    if isCustom {
      if element["customClass"] != nil { try appendClassReference(of: element, to: view) }
      graph.append("NSClassName", string(element["customClass"].map { swiftClassName($0, module: module(of: element)) } ?? "NSView"), to: view)
    }
    try compileChildren(of: element, object: view, known: ["rect", "autoresizingMask", "subviews", "constraints"])
    return view
  }

  /// The view keys every view writes, from NSNextResponder to NSViewConstraints, with the
  /// subviews compiled; `extraAfterSubviews` come right after NSSubviews (an image view's drag
  /// types).
  mutating func viewEntries(
    _ element: InterfaceDocument.Element, view: Int, superview: Int?, contentSize: (Double, Double)? = nil,
    extraAfterSubviews: [NibGraph.Entry] = [], alwaysSubviews: Bool = false
  ) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    entries.append(.init("NSNextResponder", superview.map { .object($0) } ?? .null))
    entries.append(.init("NSNibTouchBar", .null))
    entries.append(.init("NSvFlags", NibGraph.integer(viewFlags(element))))
    let subviewElements = element.child("subviews")?.children ?? []
    var subviews: [Int] = []
    for child in subviewElements {
      subviews.append(try compileObject(child, parent: view, superview: view))
    }
    // An NSCustomView lists its subviews last to first (StatusBar, nkv_simple,
    // textfield_formatter, transmission_MainMenu: every custom view with two or more).
    if element.name == "customView" { subviews.reverse() }
    if !subviews.isEmpty || alwaysSubviews {
      entries.append(.init("NSSubviews", .object(graph.collection("NSMutableArray", subviews))))
    }
    entries += extraAfterSubviews
    let frame = try rect(element, key: "frame") ?? (0, 0, 0, 0)
    if let contentSize {
      entries.append(.init("NSFrameSize", string(Self.sizeString(width: contentSize.0, height: contentSize.1))))
    } else if frame.x == 0 && frame.y == 0 {
      entries.append(.init("NSFrameSize", string(Self.sizeString(width: frame.width, height: frame.height))))
    }
    // NSViewIsLayerTreeHost follows a root view's frame, and a subview's NSSuperview (every
    // pair's layer-backed subviews, HSChooserWindow's text field and image views among them; a
    // public ibtool re-implementation read the same off Apple's compile of NetNewsWire's
    // ActivityLogWindow.xib, a label).
    if element.flag("wantsLayer") && superview == nil { entries.append(.init("NSViewIsLayerTreeHost", .bool(true))) }
    if contentSize == nil && !(frame.x == 0 && frame.y == 0) {
      entries.append(.init("NSFrame", string(Self.rectString(x: frame.x, y: frame.y, width: frame.width, height: frame.height))))
    }
    if let superview { entries.append(.init("NSSuperview", .object(superview))) }
    if element.flag("wantsLayer") && superview != nil { entries.append(.init("NSViewIsLayerTreeHost", .bool(true))) }
    entries.append(.init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)))
    // Written for a view some constraint names, and for a top-level view not pinned by a fixed
    // frame (test_6col).
    if element["translatesAutoresizingMaskIntoConstraints"] == "NO", let id = element["id"],
      constrainedIDs.contains(id) || (index.topLevelIDs.contains(id) && !element.flag("fixedFrame"))
    {
      entries.append(.init("NSDoNotTranslateAutoresizingMask", .bool(true)))
    }
    if let constraints = element.child("constraints"), !constraints.children.isEmpty {
      var compiled: [Int] = []
      for constraint in constraints.children {
        compiled.append(try compileConstraint(constraint, owner: view))
      }
      entries.append(.init("NSViewConstraints", .object(graph.collection("NSArray", compiled))))
    }
    entries += layoutGuideEntries(element)
    return entries
  }

  /// IBNSSafeAreaLayoutGuide, IBNSLayoutMarginsGuide and IBNSClipsToBounds, which end every view's keys.
  /// A view's `<viewLayoutGuide key="safeArea">` and `key="layoutMargins"` become
  /// `IBNSViewAutolayoutGuide` objects (system type 2 and 1); without them the keys are nil.
  mutating func tailViewEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    func guide(_ key: String, _ type: Int8) -> NIBArchive.Payload {
      guard element.children.contains(where: { $0.name == "viewLayoutGuide" && $0["key"] == key }) else { return .null }
      return .object(graph.add("IBNSViewAutolayoutGuide", [.init("IBNSLayoutGuideSystemType", .int8(type))]))
    }
    return [
      .init("IBNSSafeAreaLayoutGuide", guide("safeArea", 2)), .init("IBNSLayoutMarginsGuide", guide("layoutMargins", 1)),
      .init("IBNSClipsToBounds", .int8(element.flag("clipsToBounds") ? 1 : 0)),
    ]
  }

  /// `NSViewLayoutGuides`: the view's layout guides that a constraint names, as `NSLayoutGuide`
  /// objects (not listed among the nib's objects).
  mutating func layoutGuideEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var guides: [Int] = []
    for child in element.children where child.name == "viewLayoutGuide" {
      guard let id = child["id"], constrainedIDs.contains(id), let key = child["key"] else { continue }
      let identifiers = ["safeArea": "NSViewSafeAreaLayoutGuide", "layoutMargins": "NSViewLayoutMarginsGuide"]
      let guide = object(forID: id, line: child.line)
      pendingReferences[id] = nil
      graph[guide].className = "NSLayoutGuide"
      graph[guide].entries = [
        .init("NSLayoutGuideIdentifier", string(identifiers[key] ?? key)), .init("NSShouldBeArchived", .bool(true)),
        .init("NSLayoutGuideNegativeSize", .bool(true)), .init("NSLayoutGuideLockedToOwningView", .bool(true)),
        .init("NSLayoutGuideSystemConstraints", .object(graph.collection("NSMutableArray", []))),
      ]
      guides.append(guide)
    }
    return guides.isEmpty ? [] : [.init("NSViewLayoutGuides", .object(graph.collection("NSArray", guides)))]
  }

  /// NSvFlags: autoresizing bits, 0x100 for autoresizesSubviews, hidden, focus ring.
  func viewFlags(_ element: InterfaceDocument.Element) -> Int {
    var flags = element.flag("autoresizesSubviews", default: true) ? 0x100 : 0
    if element.flag("hidden") { flags |= Int(bitPattern: 0xFFFF_FFFF_8000_0000) }
    // A control with a cell keeps its focus ring type in the cell (NSCellFlags2; NSControl's
    // focusRingType is its cell's), so its own NSvFlags bits stay clear: every text field of
    // the corpus pairs with focusRingType (twenty, outline_cellview, transmission_MainMenu);
    // views without a cell — tables, scroll views, boxes — set them (scrollview_table,
    // test_date_formatter: 0x1000).
    if !element.children.contains(where: { $0["key"] == "cell" }) {
      flags |= Self.bits(element["focusRingType"], ["none": 0x1000, "exterior": 0x2000])
    }
    if let mask = element.child("autoresizingMask", key: "autoresizingMask") {
      for (name, bit) in [("flexibleMinX", 1), ("widthSizable", 2), ("flexibleMaxX", 4), ("flexibleMinY", 8), ("heightSizable", 16), ("flexibleMaxY", 32)]
      where mask.flag(name) { flags |= bit }
    } else {
      flags |= document.root["useAutolayout"] == "YES" ? 0x0C : 0x28
    }
    return flags
  }

  /// NSHuggingPriority "{h, v}" when it differs from the class's own default.
  mutating func hugging(_ element: InterfaceDocument.Element, defaults: (Int, Int) = (250, 250)) -> NIBArchive.Payload? {
    priorities(element, prefix: "HuggingPriority", defaults: defaults, onlyWhenDifferent: true).map { string($0) }
  }

  /// A tool tip → an `NSIBHelpConnector` {NSDestination, NSFile "NSToolTipHelpKey", NSMarker}.
  mutating func compileToolTip(_ text: String, for object: Int) throws(InterfaceBuilderError) {
    let connector = graph.add("NSIBHelpConnector")
    graph[connector].entries = [
      .init("NSDestination", .object(object)), .init("NSFile", string("NSToolTipHelpKey")), .init("NSMarker", string(text)),
    ]
    helpConnections.append(connector)
  }

  /// The text of a `<string>` element, decoding `base64-UTF8="YES"`.
  func stringContent(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> String {
    guard let text = element.decodedText else { throw invalid(element, "base64-UTF8 text that is not base64 of UTF-8") }
    return text
  }

  /// Compiles the children of `element` that are not handled by the caller (`known`):
  /// connections; anything else is refused.
  mutating func compileChildren(of element: InterfaceDocument.Element, object: Int, known: Set<String>) throws(InterfaceBuilderError) {
    if let toolTip = element["toolTip"] { try compileToolTip(toolTip, for: object) }
    for child in element.children where !known.contains(child.name) {
      switch child.name {
      case "string" where child["key"] == "toolTip":
        // A tool tip saved base64-encoded is not archived by Apple's ibtool (tooltip_base64; one sample).
        if !child.flag("base64-UTF8") { try compileToolTip(try stringContent(child), for: object) }
      case "connections": try compileConnections(child, source: object)
      case "userDefinedRuntimeAttributes": try compileRuntimeAttributes(child, object: object)
      case "accessibility": try compileAccessibility(child, for: object, owner: element)
      case "point" where child["key"] == "canvasLocation": break  // where Interface Builder draws it; not compiled
      case "viewLayoutGuide": break  // with the view's own keys (tailViewEntries, layoutGuideEntries)
      case "animations" where child.children.isEmpty && child.attributes.allSatisfy({ $0.name == "key" }): break  // nothing to archive (test_animations)
      default: throw unsupported(child)
      }
    }
  }
}
