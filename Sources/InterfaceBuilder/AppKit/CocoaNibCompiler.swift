public import Interface

/// Compiles a macOS xib (`com.apple.InterfaceBuilder3.Cocoa.XIB`) into the object graph Apple's
/// `ibtool --compile` writes as a NIBArchive: a root `NSObject` whose `IB.objectdata` is an
/// `NSIBObjectData` holding the File's Owner (`NSRoot`), the visible windows, the connections,
/// every object with its parent (`NSObjectsKeys`/`NSObjectsValues`) and object ids
/// (`NSOidsKeys`/`NSOidsValues`).
///
/// Elements whose compilation is known are compiled; any other element is refused with
/// `InterfaceBuilderError.Code.unsupported`, naming the element and its line, rather than guessed.
///
/// ```swift
/// let document = try InterfaceDocument(contentsOfFile: "MainMenu.xib")
/// let graph = try CocoaNibCompiler.compile(document)
/// try NIBArchive(graph).encoded()   // the bytes of MainMenu.nib
/// ```
public struct CocoaNibCompiler {
  /// Compiles `document` into a nib graph.
  ///
  /// - Throws: ``InterfaceBuilderError``: `.unsupported` for an element or attribute the
  ///   compiler does not know, `.invalidDocument` for a reference to a missing object id or a
  ///   malformed value.
  public static func compile(_ document: InterfaceDocument, options: Options = Options()) throws(InterfaceBuilderError) -> NibGraph {
    try compileReportingUnverified(document, options: options).graph
  }

  /// Compiles `document` as ``compile(_:options:)`` does, with a warning for each feature
  /// compiled from AppKit's archive keys (what its decoder reads) that no Apple-compiled nib in
  /// the corpus shows: the nib loads in AppKit, but its bytes may differ from Apple's ibtool's.
  /// `ibtool --compile` prints these warnings.
  public static func compileReportingUnverified(
    _ document: InterfaceDocument, options: Options = Options()
  ) throws(InterfaceBuilderError) -> Compilation {
    guard document.platform == .macOS, document.kind == .xib else {
      throw InterfaceBuilderError(
        .unsupported, path: document.path, line: document.root.line,
        detail: "only macOS xibs compile so far; this is a \(document.platform == .iOS ? "iOS" : "macOS") \(document.kind.rawValue)")
    }
    var compiler = CocoaNibCompiler(document: try document.withTextChildrenAsAttributes(), options: options)
    let graph = try compiler.run()
    return Compilation(graph: graph, warnings: compiler.unverifiedWarnings)
  }

  /// What the compiler needs beyond the document.
  public struct Options: Sendable {
    /// The ICC profiles AppKit embeds in catalog colors: by default the two this module ships
    /// (``ColorProfiles/shipped``); without any, a catalog color is refused (or written without its
    /// profile, with ``omitsColorProfiles``).
    public var colorProfiles: ColorProfiles?
    /// The module of the target being built (`ibtool --module`): classes whose
    /// `customModuleProvider` is `target` are looked up in it instead of their `customModule`.
    public var module: String?
    /// Compile catalog colors without their ICC profile when ``colorProfiles`` is not given: the
    /// color space keeps its `NSID` and model but no `NSICC`. For graphs loaded in-process (the
    /// nib loader straight from a xib), never for nibs shipped to AppKit.
    public var omitsColorProfiles: Bool
    /// The scroller style of the Mac whose compile this one stands for (AppKit's
    /// `NSScroller.preferredScrollerStyle`, which follows System Settings' "Show scroll bars"
    /// and the pointing device): Apple's ibtool tiles every scroll view as that Mac shows it.
    /// ``ScrollerStyle/legacy`` (the default) narrows a clip view by its shown scrollers, as on
    /// the Mac that compiled the corpus's pairs; ``ScrollerStyle/overlay`` keeps the clip view's
    /// whole size under them.
    public var scrollerStyle: ScrollerStyle
    /// Lenient compiling's plan (``compileLeniently(_:options:)``); `nil`, the strict compiler,
    /// for everything else.
    var lenientPlan: LenientPlan?

    public init(
      colorProfiles: ColorProfiles? = ColorProfiles.shipped, module: String? = nil, omitsColorProfiles: Bool = false,
      scrollerStyle: ScrollerStyle = .legacy
    ) {
      self.colorProfiles = colorProfiles
      self.module = module
      self.omitsColorProfiles = omitsColorProfiles
      self.scrollerStyle = scrollerStyle
    }
  }

  /// AppKit's `NSScroller.Style`: how the compiling Mac shows scrollers.
  public enum ScrollerStyle: String, Sendable, CaseIterable {
    /// `NSScrollerStyleLegacy`: scrollers take room beside the clip view (a mouse, or "Show
    /// scroll bars: Always").
    case legacy
    /// `NSScrollerStyleOverlay`: scrollers float over the clip view (a trackpad with "Show
    /// scroll bars: Automatically", or "When scrolling").
    case overlay
  }

  let document: InterfaceDocument
  let options: Options
  var graph = NibGraph(rootClass: "NSObject")
  /// Shared `NSString` objects by text (Apple's encoder writes equal strings once).
  var strings: [String: Int] = [:]
  /// Shared `NSNumber` objects by numeric value (an int and a double of the same value share).
  var numbers: [Double: Int] = [:]
  /// Shared objects by a description of their content (fonts, colors, color spaces).
  var sharedObjects: [String: Int] = [:]
  /// The graph object of each xib id, created when first compiled or referenced.
  var objectsByID: [String: Int] = [:]
  /// Ids of the elements compiled so far, with their lines.
  var compiledIDs: [String: Int] = [:]
  /// Ids referenced before being compiled, with the line of the first reference.
  var pendingReferences: [String: Int] = [:]
  /// Every compiled object with an id, with its parent, in document order (NSObjectsKeys/Values).
  var objectsWithParents: [(object: Int, parent: Int)] = []
  var outletConnections: [Int] = []
  var actionConnections: [Int] = []
  var bindingConnections: [Int] = []
  var earlyConnections: [Int] = []
  /// Connections after all the others (a storyboard's runtime-attribute connectors).
  var lateConnections: [Int] = []
  /// Ids that stand for the First Responder (`-1` in a xib; each scene's own in a storyboard):
  /// an action aimed at one has no `NSDestination`.
  var firstResponderIDs: Set<String> = ["-1"]
  /// Whether menu items are listed among the objects last to first (storyboards do so).
  var reversesMenuItems = false
  var helpConnections: [Int] = []
  /// `NSNibAXAttributeConnector`s from `<accessibility>` elements (``compileAccessibility(_:for:owner:)``),
  /// kept apart from the other connections.
  var accessibilityConnectors: [Int] = []
  var visibleWindows: [Int] = []
  /// The File's Owner's object.
  var filesOwner = -1
  /// Whether this compiler makes a view-based table's prototype cell view nib
  /// (``prototypeNib(_:identifier:document:options:index:)``).
  var isPrototypeNib = false
  /// What lenient compiling did in this compile beyond its plan (segues of best-effort objects,
  /// controllers compiled best-effort).
  var lenientWarnings: [CompilerWarning] = []
  /// What this compile wrote from AppKit's archive keys without an Apple-compiled sample to check
  /// it against (``noteUnverified(_:_:)``): `ibtool --compile` reports each as a warning.
  var unverifiedWarnings: [CompilerWarning] = []
  /// Objects whose element names a custom class (or is a custom view), for ``applyCustomClasses()``.
  var customClassed: [(object: Int, element: InterfaceDocument.Element)] = []

  /// What the compiler looks up across the document, gathered in one walk and shared with the
  /// compilers of a storyboard's scenes and of prototype cell views.
  let index: DocumentIndex
  /// Ids of the views some constraint names as an item (or holds without naming a first item).
  var constrainedIDs: Set<String> { index.constrainedIDs }

  init(document: InterfaceDocument, options: Options, index: DocumentIndex? = nil) {
    self.document = document
    self.options = options
    self.index = index ?? DocumentIndex(document)
  }

  mutating func run() throws(InterfaceBuilderError) -> NibGraph {
    let objectData = startArchive()
    let topLevel = document.objects
    guard let owner = topLevel.first(where: { $0["id"] == "-2" }) else {
      throw InterfaceBuilderError(.invalidDocument, path: document.path, line: document.root.line, detail: "no File's Owner (<customObject id=\"-2\">) in <objects>")
    }
    filesOwner = try compilePlaceholder(owner)
    for element in topLevel where element["id"] != "-2" && element["id"] != "-1" {
      _ = try compileObject(element, parent: filesOwner, superview: nil)
    }
    return try finishArchive(objectData)
  }

  /// The root `NSObject` with its `IB.objectdata` (returned, filled by ``finishArchive(_:)``).
  mutating func startArchive() -> Int {
    let objectData = graph.add("NSIBObjectData")
    graph.append("IB.objectdata", .object(objectData), to: graph.root)
    graph.append("IB.systemFontUpdateVersion", .int8(1), to: graph.root)
    return objectData
  }

  /// Custom classes, the check that every referenced id exists, and the `NSIBObjectData` keys:
  /// connections (early, outlets, actions, bindings, help, late), objects with parents, and
  /// object ids (the File's Owner 1, then the objects, then the connections but the early ones).
  mutating func finishArchive(_ objectData: Int) throws(InterfaceBuilderError) -> NibGraph {
    try applyCustomClasses()
    if options.lenientPlan != nil || document.kind == .storyboard { dropConnectionsToOtherScenes() }
    if let (id, line) = pendingReferences.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
      throw InterfaceBuilderError(.invalidDocument, path: document.path, line: line, detail: "a reference to object id \"\(id)\", which the document does not define")
    }
    let identified = outletConnections + actionConnections + bindingConnections + helpConnections + lateConnections
    let connections = earlyConnections + identified
    var keys: [Int] = [filesOwner]
    keys += objectsWithParents.map(\.object)
    keys += identified
    let oids = keys.indices.map { number($0 + 1) }
    // The accessibility connectors' own ids continue the others'; without any, both arrays are
    // the one empty array.
    let accessibilityKeys = accessibilityConnectors.isEmpty ? emptyArray() : graph.collection("NSArray", accessibilityConnectors)
    let accessibilityValues =
      accessibilityConnectors.isEmpty
      ? accessibilityKeys : graph.collection("NSArray", accessibilityConnectors.indices.map { number(keys.count + $0 + 1) })
    graph[objectData].entries = [
      .init("NSRoot", .object(filesOwner)),
      .init("NSVisibleWindows", .object(graph.collection("NSMutableSet", visibleWindows))),
      .init("NSConnections", .object(graph.collection("NSMutableArray", connections))),
      .init("NSObjectsKeys", .object(graph.collection("NSArray", objectsWithParents.map(\.object)))),
      .init("NSObjectsValues", .object(graph.collection("NSArray", objectsWithParents.map(\.parent)))),
      .init("NSOidsKeys", .object(graph.collection("NSArray", keys))),
      .init("NSOidsValues", .object(graph.collection("NSArray", oids))),
      .init("NSAccessibilityConnectors", .object(graph.collection("NSMutableArray", accessibilityConnectors))),
      .init("NSAccessibilityOidsKeys", .object(accessibilityKeys)),
      .init("NSAccessibilityOidsValues", .object(accessibilityValues)),
    ]
    return graph
  }

  // MARK: Shared values

  /// The shared `NSString` holding `text`.
  mutating func string(_ text: String) -> NIBArchive.Payload {
    if let known = strings[text] { return .object(known) }
    let index = graph.string(text)
    strings[text] = index
    return .object(index)
  }

  /// The index of the shared `NSString` holding `text`.
  mutating func sharedString(_ text: String) -> Int {
    if let known = strings[text] { return known }
    let index = graph.string(text)
    strings[text] = index
    return index
  }

  /// A localizable property's text: in a document inside an `.lproj` folder (a Base
  /// localization), an `NSLocalizableString` {NS.bytes, NSKey "<object id>.<property>", NSDev
  /// the development text}, which the nib loader looks up in the matching `.strings` table;
  /// elsewhere the shared `NSString`.
  mutating func localizable(_ text: String, _ element: InterfaceDocument.Element, _ property: String) -> NIBArchive.Payload {
    guard isLocalized, !text.isEmpty, let id = element["id"] else { return string(text) }
    let object = graph.add("NSLocalizableString")
    graph[object].entries = [
      .init("NS.bytes", .data(Array(text.utf8))), .init("NSKey", string(id + "." + property)), .init("NSDev", string(text)),
    ]
    return .object(object)
  }

  /// Whether the document lives in an `.lproj` folder (its strings are localizable).
  var isLocalized: Bool { document.path?.split(separator: "/").dropLast().contains { $0.hasSuffix(".lproj") } ?? false }

  /// The element as the document has it (with its own frame), for a copy whose frame the
  /// compiler has recomputed; the copy itself when it has no id or is not found.
  func originalElement(_ element: InterfaceDocument.Element) -> InterfaceDocument.Element {
    guard let id = element["id"], let original = index.elementsByID[id], original.name == element.name else { return element }
    return original
  }

  /// A string, or `nil` (type 9) when `text` is absent.
  mutating func optionalString(_ text: String?) -> NIBArchive.Payload {
    text.map { string($0) } ?? .null
  }

  /// A new `NSMutableString` (never shared).
  mutating func mutableString(_ text: String) -> NIBArchive.Payload {
    .object(graph.string(text, className: "NSMutableString"))
  }

  /// The shared `NSNumber` of an integer (`NS.intval`, smallest width).
  mutating func number(_ value: Int) -> Int {
    if let known = numbers[Double(value)] { return known }
    let index = graph.add("NSNumber", [.init("NS.intval", NibGraph.integer(value))])
    numbers[Double(value)] = index
    return index
  }

  /// The shared `NSNumber` of a double (`NS.dblval`); an integral value shares with the integer.
  mutating func number(double value: Double) -> Int {
    if let known = numbers[value] { return known }
    let index = graph.add("NSNumber", [.init("NS.dblval", .float64(value))])
    numbers[value] = index
    return index
  }

  /// An object shared by content: `make` runs only the first time `key` is asked for.
  mutating func shared(_ key: String, _ make: (inout CocoaNibCompiler) throws(InterfaceBuilderError) -> Int) throws(InterfaceBuilderError) -> Int {
    if let known = sharedObjects[key] { return known }
    let index = try make(&self)
    sharedObjects[key] = index
    return index
  }

  // MARK: Objects by id

  /// The graph object for xib id `id`, created empty when first asked for.
  mutating func object(forID id: String, line: Int) -> Int {
    if let known = objectsByID[id] { return known }
    let index = graph.add("")
    objectsByID[id] = index
    pendingReferences[id] = line
    return index
  }

  /// Creates (or takes over the referenced placeholder of) the object for `element`, registers
  /// it with its parent for NSObjectsKeys, and returns its index.
  ///
  /// - Throws: `.invalidDocument` when another element already has the same id (a document
  ///   whose ids are not unique cannot be compiled: both would become one object).
  mutating func begin(_ element: InterfaceDocument.Element, className: String, parent: Int?) throws(InterfaceBuilderError) -> Int {
    let index: Int
    if let id = element["id"] {
      if let first = compiledIDs[id] {
        throw invalid(element, "the id \"\(id)\" is already the id of the element at line \(first); ids must be unique")
      }
      compiledIDs[id] = element.line
      index = object(forID: id, line: element.line)
      pendingReferences[id] = nil
      if let parent { objectsWithParents.append((index, parent)) }
    } else {
      index = graph.add(className)
    }
    graph[index].className = className
    if element["customClass"] != nil || element.name == "customView" { customClassed.append((index, element)) }
    return index
  }

  /// Classes whose custom subclasses Apple's ibtool always archives as an `NSClassSwapper`.
  static let swappedClasses: Set<String> = [
    "NSView", "NSOutlineView", "NSButton", "NSTextField", "NSTextView", "NSProgressIndicator", "NSTableView", "NSTableHeaderView",
    "NSPopUpButtonCell", "NSScrollView", "NSLevelIndicatorCell", "NSImageView", "NSTableCellView", "NSCustomFormatter",
    "NSSegmentedControl", "NSSegmentedCell", "NSSearchFieldCell", "NSStackView", "NSSplitView", "NSTextFieldCell",
  ]
  /// Swapped classes that are instantiated with `initWithCoder:`, not `init` (no `NSInitializeWithInit`).
  static let codedClasses: Set<String> = [
    "NSView", "NSCustomView", "NSButton", "NSTextField", "NSOutlineView", "NSScrollView", "NSClipView", "NSColorWell", "NSStackView",
    "NSTextView", "NSProgressIndicator", "NSTableView", "NSTableHeaderView", "NSPopUpButtonCell", "NSLevelIndicatorCell",
    "NSSegmentedControl", "NSSegmentedCell", "NSImageView", "NSTableCellView", "NSCustomFormatter", "NSSearchFieldCell", "NSSplitView",
    "NSTextFieldCell",
  ]

  /// Custom classes, once every object is compiled: an `NSClassSwapper` {NSClassName,
  /// NSOriginalClassName, NSInitializeWithInit, then the original class's keys} where Apple's
  /// ibtool swaps (custom subclasses of the classes in ``swappedClasses``, and with
  /// `customObjectInstantitationMethod="direct"` every custom view and every custom class in a
  /// module), else the object keeps its class and ends with `IBClassReference` and `NSClassName`.
  mutating func applyCustomClasses() throws(InterfaceBuilderError) {
    let direct = document.root["customObjectInstantitationMethod"] == "direct"
    for (object, element) in customClassed {
      if let id = element["id"], ["-1", "-2", "-3"].contains(id) { continue }
      let original = graph[object].className
      let custom = element["customClass"]
      let handledByOwner = original == "NSCustomObject" || original == "NSCustomView" || original == "NSWindowTemplate"
      let swap: Bool
      if direct {
        // AppKit's own classes (NSFontManager) stay NSCustomObjects (one sample; inferred).
        let appKitClass = custom?.hasPrefix("NS") == true && element["customModule"] == nil
        swap = original != "NSWindowTemplate" && !(original == "NSCustomObject" && appKitClass)
      } else {
        swap = custom != nil && Self.swappedClasses.contains(original)
      }
      if swap {
        var entries = graph[object].entries
        if original == "NSCustomObject" || original == "NSCustomView" {
          entries.removeAll { $0.key == "IBClassReference" || $0.key == "NSClassName" }
        }
        let originalName = original == "NSCustomObject" ? "NSObject" : original == "NSCustomView" ? "NSView" : original
        var head: [NibGraph.Entry] = [
          .init("NSClassName", string(custom.map { swiftClassName($0, module: module(of: element)) } ?? originalName)),
          .init("NSOriginalClassName", string(originalName)),
        ]
        if !Self.codedClasses.contains(original) { head.append(.init("NSInitializeWithInit", .bool(true))) }
        graph[object].className = "NSClassSwapper"
        graph[object].entries = head + entries
      } else if !handledByOwner, let custom {
        try appendClassReference(of: element, to: object)
        graph.append("NSClassName", string(swiftClassName(custom, module: module(of: element))), to: object)
      }
    }
  }

  /// The module a custom class is looked up in: the target's (``Options/module``) when the
  /// document says `customModuleProvider="target"` and one is given, else `customModule`.
  func module(of element: InterfaceDocument.Element) -> String? {
    if element["customModuleProvider"] == "target", let module = options.module { return module }
    return element["customModule"]
  }

  // MARK: Errors

  /// An `.unsupported` refusal of `element` (of its `attribute`, when the refusal is about that
  /// attribute alone), which lenient compiling knows how to get around.
  func unsupported(_ element: InterfaceDocument.Element, _ what: String? = nil, attribute: String? = nil) -> InterfaceBuilderError {
    var error = InterfaceBuilderError(
      .unsupported, path: document.path, line: element.line,
      detail: what ?? "<\(element.name)\(element["key"].map { " key=\"\($0)\"" } ?? "")> is not compiled yet (how Apple's ibtool compiles it is not known here)")
    error.refusal = Refusal(element: ElementKey(element), attribute: attribute)
    return error
  }

  /// Records that `element` was compiled from AppKit's archive keys (`what` says which) with no
  /// Apple-compiled sample to check the bytes against; `ibtool --compile` warns with it.
  /// Lenient compiles (the nib loader's) leave these out: their warnings are what was left out.
  mutating func noteUnverified(_ element: InterfaceDocument.Element, _ what: String) {
    noteWarning(element, "\(what) (not checked against an Apple-compiled nib)")
  }

  /// Records a warning about how `element` was compiled, for `ibtool --compile` to report.
  mutating func noteWarning(_ element: InterfaceDocument.Element, _ what: String) {
    guard options.lenientPlan == nil else { return }
    unverifiedWarnings.append(CompilerWarning(path: document.path, line: element.line, element: element.name, detail: what))
  }

  func invalid(_ element: InterfaceDocument.Element, _ what: String) -> InterfaceBuilderError {
    InterfaceBuilderError(.invalidDocument, path: document.path, line: element.line, detail: "<\(element.name)>: \(what)")
  }
}

/// The two ICC profiles Apple's ibtool embeds in the colors of a compiled macOS nib (in the
/// `NSICC` of an `NSColorSpace`): Generic Gray Gamma 2.2 (`NSID` 9) and sRGB (`NSID` 7).
///
/// They are Apple's and Hewlett-Packard's data, shipped for interoperability as this module's
/// resources (``shipped``, extracted from an Apple-compiled nib of the test corpus; see
/// `ColorProfiles/README.md`); ``init(extractingFrom:)`` takes them from another nib Apple compiled,
/// which holds them whenever it has a catalog color (`ibtool --color-profiles-from`).
public struct ColorProfiles: Sendable, Hashable {
  public var genericGray: [UInt8]
  public var sRGB: [UInt8]

  public init(genericGray: [UInt8], sRGB: [UInt8]) {
    self.genericGray = genericGray
    self.sRGB = sRGB
  }

  /// The profiles found in the `NSColorSpace` objects of `nibs`, or `nil` when either is missing.
  public init?(extractingFrom nibs: [NIBArchive]) {
    var gray: [UInt8]?, rgb: [UInt8]?
    for nib in nibs {
      let graph = NibGraph(nib)
      for object in graph.objects where object.className == "NSColorSpace" {
        guard case .int8(let id)? = object["NSID"], case .object(let data)? = object["NSICC"],
          case .data(let bytes)? = graph[data]["NS.bytes"]
        else { continue }
        if id == 9 { gray = gray ?? bytes }
        if id == 7 { rgb = rgb ?? bytes }
      }
    }
    guard let gray, let rgb else { return nil }
    self.init(genericGray: gray, sRGB: rgb)
  }
}

/// The document's cross-references, gathered in one walk (so that no lookup walks the whole
/// document again, which a large hostile document would make quadratic).
final class DocumentIndex: Sendable {
  /// Ids of the views a constraint names as an item, or that hold a constraint without a first item.
  let constrainedIDs: Set<String>
  /// Each element with an id, by id (the first one, when a document repeats an id).
  let elementsByID: [String: InterfaceDocument.Element]
  /// Each `<scrollView>` by the id of its clip view's document view.
  let scrollViewsByDocumentID: [String: InterfaceDocument.Element]
  /// The id of the table that names each header view (`headerView="…"`).
  let tableIDsByHeaderViewID: [String: String]
  /// The content size of each top-level window, by the id of its content view.
  let windowContentSizes: [String: (Double, Double)]
  /// Ids of the document's top-level objects (`<objects>` children).
  let topLevelIDs: Set<String>
  /// Ids of the scroll views whose width follows their window's: reached from a window's
  /// content view through views that are all width-sizable (`<autoresizingMask widthSizable="YES">`).
  let windowResizedScrollViewIDs: Set<String>

  init(_ document: InterfaceDocument) {
    var constrained = Set<String>()
    var byID: [String: InterfaceDocument.Element] = [:]
    var scrollViews: [String: InterfaceDocument.Element] = [:]
    var tables: [String: String] = [:]
    var resized = Set<String>()
    var pending: [InterfaceDocument.Element] = [document.root]
    while let element = pending.popLast() {
      if let id = element["id"], byID[id] == nil { byID[id] = element }
      if element.name == "constraints" {
        for constraint in element.children where constraint.name == "constraint" {
          if let first = constraint["firstItem"] { constrained.insert(first) }
          if let second = constraint["secondItem"] { constrained.insert(second) }
        }
      }
      if let id = element["id"], let constraints = element.child("constraints"),
        constraints.children.contains(where: { $0["firstItem"] == nil || $0["secondItem"] == nil && $0["secondAttribute"] != nil })
      {
        constrained.insert(id)
      }
      if element.name == "scrollView", let documentID = element.child("clipView", key: "contentView")?.child("subviews")?.children.first?["id"],
        scrollViews[documentID] == nil
      {
        scrollViews[documentID] = element
      }
      if element.name == "window" || element.name == "panel" {
        // Top-level or in a storyboard scene; each view is looked at once per window holding it.
        var views = element.children.filter { $0["key"] == "contentView" }.flatMap { $0.child("subviews")?.children ?? [] }
        while let view = views.popLast() {
          guard view.child("autoresizingMask", key: "autoresizingMask")?.flag("widthSizable") == true else { continue }
          if view.name == "scrollView", let id = view["id"] { resized.insert(id) }
          views += view.child("subviews")?.children ?? []
        }
      }
      if element.name == "tableView" || element.name == "outlineView", let header = element["headerView"], let id = element["id"], tables[header] == nil {
        tables[header] = id
      }
      pending.append(contentsOf: element.children.reversed())
    }
    var sizes: [String: (Double, Double)] = [:]
    for window in document.objects where window.name == "window" || window.name == "panel" {
      guard let rect = window.child("rect", key: "contentRect"), let width = rect.double("width"), let height = rect.double("height") else { continue }
      for content in window.children where content["key"] == "contentView" {
        if let id = content["id"], sizes[id] == nil { sizes[id] = (width, height) }
      }
    }
    constrainedIDs = constrained
    elementsByID = byID
    scrollViewsByDocumentID = scrollViews
    tableIDsByHeaderViewID = tables
    windowContentSizes = sizes
    topLevelIDs = Set(document.objects.compactMap { $0["id"] })
    windowResizedScrollViewIDs = resized
  }
}

extension InterfaceDocument {
  /// Properties Interface Builder saves as a `<string key="…">` child instead of an attribute
  /// when their text has characters an attribute would not keep (a tab, a newline).
  static let textProperties: Set<String> = ["title", "alternateTitle", "placeholderString", "label", "paletteLabel"]

  /// The document with each `<string key="title">` (and the other ``textProperties``) child
  /// turned into the attribute it stands for, so that the compiler reads one form.
  ///
  /// - Throws: `.invalidDocument` for base64 text that is not base64 of UTF-8.
  func withTextChildrenAsAttributes() throws(InterfaceBuilderError) -> InterfaceDocument {
    func convert(_ element: Element) throws(InterfaceBuilderError) -> Element {
      var result = element
      var children: [Element] = []
      for child in element.children {
        if child.name == "string", let key = child["key"], Self.textProperties.contains(key), element[key] == nil {
          guard let text = child.decodedText else {
            throw InterfaceBuilderError(.invalidDocument, path: path, line: child.line, detail: "<string key=\"\(key)\">: base64-UTF8 text that is not base64 of UTF-8")
          }
          result.attributes.append((key, text))
        } else {
          children.append(try convert(child))
        }
      }
      result.children = children
      return result
    }
    var copy = self
    copy.root = try convert(root)
    return copy
  }
}
