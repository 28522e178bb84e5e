public import Interface

// MARK: - Lenient compiling
//
// `ibtool --compile` refuses what has no known encoding (neither an Apple sample nor AppKit's
// decoder keys), and warns for each feature written from decoder keys alone. The nib loader, compiling a document on the spot
// for an app on Linux, wants what UIKit and AppKit do with a nib they half understand: log and go
// on. Lenient compiling is that mode, and only the loader asks for it
// (``CocoaNibCompiler/compileLeniently(_:options:)``,
// ``CocoaStoryboardCompiler/compileLeniently(_:options:)``,
// ``CocoaTouchStoryboardCompiler/compileLeniently(_:)``).
//
// How it works: the document is compiled the strict way; when the compiler refuses something
// (`.unsupported`, which names the element, its line and, for an attribute, the attribute), the
// refusal is turned into one entry of a ``LenientPlan`` and the document is compiled again with
// the plan applied, until it compiles. Each entry is the least the compiler can give up:
//
// 1. an attribute the compiler refuses is left out (the element compiles Apple's way without
//    it: `<tableView tableStyle="inset">`, `<outlineView floatsGroupRows>`);
// 2. else a child element that nothing refers to (no id, or an id no other element names) is
//    left out: a value (`<string key="keyEquivalent">`, `<imageReference key="secondaryImage">`,
//    a `<color>` in a CMYK color space, an embed segue);
// 3. else the innermost object element being compiled (a view, a control, a top-level object)
//    is compiled as a best-effort object (``CocoaNibCompiler/compileBestEffort(_:parent:superview:)``):
//    its class from its tag and custom class, its frame, subviews and connections, every other
//    attribute and child element kept as a generic key and value.
//
// Every entry is a ``CompilerWarning`` naming the element, its line and why, which the loader
// adds to the loaded nib's warnings. A refusal the plan cannot get around (an entry it already
// has) ends lenient compiling with the strict error; so does a document needing more than
// ``LenientPlan/maximumEntries`` entries, so that a hostile document cannot make the compiler
// loop. Malformed XML and invalid documents are refused as in strict mode: the plan only answers
// `.unsupported`.

/// Something lenient compiling did instead of refusing, with the element and line it concerns.
public struct CompilerWarning: Sendable, Hashable, CustomStringConvertible {
  /// The document, when it has a path.
  public var path: String?
  /// The 1-based line of the element concerned.
  public var line: Int
  /// The element's name (`predicateEditor`, `textView`).
  public var element: String
  /// What was done and why (the strict compiler's refusal).
  public var detail: String

  public init(path: String?, line: Int, element: String, detail: String) {
    self.path = path
    self.line = line
    self.element = element
    self.detail = detail
  }

  public var description: String {
    // A detail that opens with the element itself (`<textView>`, `<textView drawsBackground="NO">`)
    // is not given its tag again.
    let namesElement = detail.hasPrefix("<\(element)>") || detail.hasPrefix("<\(element) ")
    return "\(path ?? "<document>"):\(line): " + (namesElement ? detail : "<\(element)> \(detail)")
  }

  /// The strict compiler's error for the same element: what a strict load reports.
  public var strictError: InterfaceBuilderError {
    InterfaceBuilderError(.unsupported, path: path, line: line, detail: "<\(element)> \(detail) (refused in strict mode)")
  }
}

/// A compiled nib graph with its compile's warnings: what lenient compiling did instead of
/// refusing, and what either mode compiled without an Apple sample to check it against.
public struct Compilation: Sendable {
  public var graph: NibGraph
  public var warnings: [CompilerWarning]
}

/// An element as refusals and plans name it: its line, name and id (an element's attributes and
/// children may change between attempts; these do not).
struct ElementKey: Hashable, Sendable {
  var line: Int
  var name: String
  var id: String?

  init(_ element: InterfaceDocument.Element) {
    line = element.line
    name = element.name
    id = element["id"]
  }
}

/// What an `.unsupported` error refused: the element, the attribute when only it is refused, and
/// the innermost object element being compiled when the refusal happened.
struct Refusal: Hashable, Sendable {
  var element: ElementKey
  var attribute: String?
  var enclosing: ElementKey?
}

/// What lenient compiling leaves out or compiles best-effort, learnt from refusals one at a time.
struct LenientPlan: Hashable, Sendable {
  /// More entries than this end lenient compiling (each costs a compile of the document).
  static let maximumEntries = 128

  var removedAttributes: [ElementKey: Set<String>] = [:]
  var removedElements: Set<ElementKey> = []
  var bestEffort: Set<ElementKey> = []
  var warnings: [CompilerWarning] = []
  /// Ids some attribute of the document names (`destination`, `firstItem`, `headerView`…): an
  /// element with one of them cannot be left out.
  let referencedIDs: Set<String>

  init(_ document: InterfaceDocument) {
    var referenced: Set<String> = []
    var pending = [document.root]
    while let element = pending.popLast() {
      for attribute in element.attributes where attribute.name != "id" { referenced.insert(attribute.value) }
      pending.append(contentsOf: element.children)
    }
    referencedIDs = referenced
  }

  var isEmpty: Bool { removedAttributes.isEmpty && removedElements.isEmpty && bestEffort.isEmpty }

  /// Adds the entry that gets around `error`; `false` when there is none (the error stands).
  mutating func learn(from error: InterfaceBuilderError, path: String?) -> Bool {
    guard error.code == .unsupported, let refusal = error.refusal, warnings.count < Self.maximumEntries else { return false }
    let element = refusal.element
    // The attributes that make the element what it is stay: without them it would be another object.
    let essential: Set<String> = ["id", "key", "customClass", "customModule", "customModuleProvider"]
    if let attribute = refusal.attribute, !essential.contains(attribute), removedAttributes[element]?.contains(attribute) != true {
      removedAttributes[element, default: []].insert(attribute)
      warnings.append(CompilerWarning(path: path, line: element.line, element: element.name, detail: "attribute \(attribute) left out: \(error.detail)"))
      return true
    }
    // A value, a cell's part or a connection may be left out; an object with an id (a view, a
    // cell, a menu) is compiled best-effort instead, even when nothing refers to it.
    let removableWithID: Set<String> = ["constraint", "segue", "outlet", "action", "binding", "outletCollection", "sortDescriptor"]
    let structural: Set<String> = ["document", "objects", "scenes", "scene", "resources", "dependencies"]
    if element != refusal.enclosing, !structural.contains(element.name),
      element.id.map({ removableWithID.contains(element.name) && !referencedIDs.contains($0) }) ?? true, !removedElements.contains(element)
    {
      removedElements.insert(element)
      warnings.append(CompilerWarning(path: path, line: element.line, element: element.name, detail: "left out: \(error.detail)"))
      return true
    }
    if let enclosing = refusal.enclosing, !bestEffort.contains(enclosing) {
      bestEffort.insert(enclosing)
      let cause = element == enclosing ? "" : " (at line \(element.line), <\(element.name)>)"
      warnings.append(
        CompilerWarning(
          path: path, line: enclosing.line, element: enclosing.name,
          detail: "compiled as a best-effort generic object: \(error.detail)\(cause)"))
      return true
    }
    return false
  }

  /// `document` without the attributes and elements the plan leaves out.
  func apply(to document: InterfaceDocument) -> InterfaceDocument {
    guard !removedAttributes.isEmpty || !removedElements.isEmpty else { return document }
    func prune(_ element: InterfaceDocument.Element) -> InterfaceDocument.Element {
      var result = element
      if let names = removedAttributes[ElementKey(element)] { result.attributes.removeAll { names.contains($0.name) } }
      if !element.children.isEmpty {
        result.children = element.children.compactMap { child in removedElements.contains(ElementKey(child)) ? nil : prune(child) }
      }
      return result
    }
    var pruned = document
    pruned.root = prune(document.root)
    return pruned
  }

  /// Compiles `document` with `compile` until it compiles, learning from each refusal.
  static func compile<Output>(
    _ document: InterfaceDocument, _ compile: (InterfaceDocument, LenientPlan) throws(InterfaceBuilderError) -> Output
  ) throws(InterfaceBuilderError) -> (Output, [CompilerWarning]) {
    var plan = LenientPlan(document)
    while true {
      do {
        return (try compile(plan.apply(to: document), plan), plan.warnings)
      } catch {
        guard plan.learn(from: error, path: document.path) else { throw error }
      }
    }
  }
}

extension CocoaNibCompiler {
  /// Compiles a macOS xib for the nib loader in lenient mode: what the strict compiler refuses
  /// is left out or compiled best-effort (see the top of this file), each time with a warning.
  /// Never for `ibtool --compile`: such a graph is not what Apple's ibtool writes.
  ///
  /// - Throws: ``InterfaceBuilderError`` as ``compile(_:options:)`` for what lenient compiling
  ///   does not get around: malformed or invalid documents, limits, a refusal met twice.
  public static func compileLeniently(_ document: InterfaceDocument, options: Options = Options()) throws(InterfaceBuilderError) -> Compilation {
    guard document.platform == .macOS, document.kind == .xib else { return try compileReportingUnverified(document, options: options) }
    let converted = try document.withTextChildrenAsAttributes()
    let ((graph, own), warnings) = try LenientPlan.compile(converted) { (document, plan) throws(InterfaceBuilderError) in
      var lenientOptions = options
      lenientOptions.lenientPlan = plan
      var compiler = CocoaNibCompiler(document: document, options: lenientOptions)
      return (try compiler.run(), compiler.lenientWarnings)
    }
    return Compilation(graph: graph, warnings: warnings + own)
  }

  /// The tags ``compileObject(_:parent:superview:)`` compiles.
  static let objectTags: Set<String> = [
    "customObject", "window", "panel", "view", "customView", "textField", "button", "menu", "userDefaultsController", "scrollView",
    "clipView", "scroller", "tableView", "outlineView", "tableHeaderView", "tableColumn", "tableCellView", "textView", "popUpButton",
    "imageView", "box", "slider", "stepper", "segmentedControl", "searchField", "secureTextField", "colorWell", "datePicker",
    "progressIndicator", "levelIndicator", "matrix", "pathControl", "comboBox", "tokenField", "splitView", "tabView", "stackView",
    "visualEffectView", "pdfView", "predicateEditor", "browser", "collectionView", "gridView", "switch", "wkWebView", "arrayController",
    "objectController", "containerView",
  ]

  /// The class an element's tag stands for: `NS` and the tag capitalized (`predicateEditor` →
  /// `NSPredicateEditor`), with the tags of other frameworks and of Interface Builder's own
  /// stand-ins named as their classes are.
  static func bestEffortClassName(_ tag: String) -> String {
    let known = [
      "customView": "NSView", "customObject": "NSObject", "containerView": "NSView", "wkWebView": "WKWebView", "webView": "WebView",
      "pdfView": "PDFView", "pdfThumbnailView": "PDFThumbnailView", "avPlayerView": "AVPlayerView", "mapView": "MKMapView",
      "sceneView": "SCNView", "skView": "SKView", "mtkView": "MTKView", "openGLView": "NSOpenGLView", "imageBrowserView": "IKImageBrowserView",
      "arrayController": "NSArrayController", "objectController": "NSObjectController",
    ]
    if let name = known[tag] { return name }
    guard let first = tag.first else { return "NSObject" }
    return "NS" + first.uppercased() + tag.dropFirst()
  }

  /// A best-effort object for an element the compiler cannot compile Apple's way (lenient mode
  /// only): the class of its tag (`NSPredicateEditor`), as a class swapper when it names a
  /// custom class (an `NSCustomView`/`NSCustomObject` with its `NSClassName` for those tags);
  /// for a view, the keys every view has (`NSNextResponder`, `NSvFlags`, `NSSubviews` compiled
  /// the usual way, `NSFrame`/`NSFrameSize`, `NSSuperview`, constraints); its connections and
  /// runtime attributes; every other attribute as a key of its own name (`YES`/`NO` as booleans,
  /// anything else as the string the document has) and every other child under its `key` (or its
  /// tag) as a generic value (``bestEffortValue(_:parent:)``).
  mutating func compileBestEffort(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    let base = Self.bestEffortClassName(element.name)
    let custom = element["customClass"].map { swiftClassName($0, module: module(of: element)) }
    let holder: String
    var entries: [NibGraph.Entry] = []
    switch element.name {
    case "customView": holder = "NSCustomView"
    case "customObject": holder = "NSCustomObject"
    default:
      holder = custom == nil ? base : "NSClassSwapper"
      if let custom { entries += [.init("NSClassName", string(custom)), .init("NSOriginalClassName", string(base))] }
    }
    let object = try begin(element, className: holder, parent: parent)
    if holder == "NSClassSwapper" { customClassed.removeAll { $0.object == object } }
    var handled: Set<String> = ["connections", "userDefinedRuntimeAttributes", "viewLayoutGuide"]
    let isView = superview != nil || element.child("rect", key: "frame") != nil || element.child("subviews") != nil
    if isView {
      entries += try viewEntries(element, view: object, superview: superview)
      handled.formUnion(["subviews", "constraints", "autoresizingMask"])
    }
    if holder == "NSCustomView" || holder == "NSCustomObject" {
      try appendClassReference(of: element, to: object)
      entries += graph[object].entries
      entries.append(.init("NSClassName", string(custom ?? base)))
    }
    let skipped: Set<String> = ["id", "key", "customClass", "customModule", "customModuleProvider", "sceneMemberID", "userLabel"]
    for attribute in element.attributes where !skipped.contains(attribute.name) {
      switch attribute.value {
      case "YES": entries.append(.init(attribute.name, .bool(true)))
      case "NO": entries.append(.init(attribute.name, .bool(false)))
      default: entries.append(.init(attribute.name, string(attribute.value)))
      }
    }
    for child in element.children where !handled.contains(child.name) {
      if child.name == "rect", child["key"] == "frame", isView { continue }
      if child.name == "point", child["key"] == "canvasLocation" { continue }
      entries.append(.init(child["key"] ?? child.name, try bestEffortValue(child, parent: object)))
    }
    graph[object].entries = entries
    for child in element.children {
      switch child.name {
      case "connections":
        // Segues are a storyboard's: the best-effort object leaves them out (an embed segue's
        // child controller is not made).
        var connections = child
        connections.children.removeAll { $0.name == "segue" }
        for segue in child.children where segue.name == "segue" {
          lenientWarnings.append(
            CompilerWarning(
              path: document.path, line: segue.line, element: "segue",
              detail: "kind \"\(segue["kind"] ?? "")\" to \(segue["destination"] ?? "(none)") left out: a segue of a best-effort object is not compiled"))
        }
        try compileConnections(connections, source: object)
      case "userDefinedRuntimeAttributes": try compileRuntimeAttributes(child, object: object)
      default: break
      }
    }
    return object
  }

  /// A child element of a best-effort object as a generic value: a `<string>` its text; a
  /// number or boolean an `NSNumber`; a rect, size, point or range the string Apple's geometry
  /// strings use; a color or font as the compiler makes them; an element with an id an object
  /// (compiled the usual way when its tag is one the compiler knows, else best-effort); a list
  /// (children only) an array; anything else a dictionary of its attributes and children.
  mutating func bestEffortValue(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> NIBArchive.Payload {
    func number(_ text: String?) -> NIBArchive.Payload {
      guard let text, let value = Double(text), value.isFinite else { return text.map { string($0) } ?? .null }
      if let whole = Int(exactly: value), abs(whole) < 1 << 53 { return .object(self.number(whole)) }
      return .object(self.number(double: value))
    }
    switch element.name {
    case "string", "mutableString": return string(try stringContent(element))
    case "integer", "real", "number": return number(element["value"])
    case "bool", "boolean": return .object(self.number(element["value"] == "YES" ? 1 : 0))
    case "nil": return .null
    case "rect":
      return string(
        Self.rectString(
          x: element.double("x") ?? 0, y: element.double("y") ?? 0, width: element.double("width") ?? 0, height: element.double("height") ?? 0))
    case "size": return string(Self.sizeString(width: element.double("width") ?? 0, height: element.double("height") ?? 0))
    case "point": return string("{\(Self.geometryNumber(element.double("x") ?? 0)), \(Self.geometryNumber(element.double("y") ?? 0))}")
    case "range": return string("{\(element["location"] ?? "0"), \(element["length"] ?? "0")}")
    case "color": return .object(try color(element))
    case "font": return .object(try font(element, defaultSize: 13))
    default: break
    }
    if element["id"] != nil {
      if Self.objectTags.contains(element.name) { return .object(try compileObject(element, parent: parent, superview: nil)) }
      return .object(try compileBestEffort(element, parent: parent, superview: nil))
    }
    let attributes = element.attributes.filter { $0.name != "key" }
    if attributes.isEmpty, !element.children.isEmpty {
      var members: [Int] = []
      for child in element.children {
        if case .object(let member) = try bestEffortValue(child, parent: parent) { members.append(member) }
      }
      return .object(graph.collection("NSArray", members))
    }
    var pairs: [Int] = []
    for attribute in attributes {
      pairs += [sharedString(attribute.name), sharedString(attribute.value)]
    }
    for child in element.children {
      switch try bestEffortValue(child, parent: parent) {
      case .object(let value): pairs += [sharedString(child["key"] ?? child.name), value]
      default: continue
      }
    }
    if !element.text.isEmpty, element.children.isEmpty { pairs += [sharedString("text"), sharedString(element.text)] }
    return .object(graph.collection("NSDictionary", pairs))
  }
}

extension CocoaNibCompiler {
  /// Whether lenient compiling's plan compiles `element` best-effort.
  func compilesBestEffort(_ element: InterfaceDocument.Element) -> Bool {
    options.lenientPlan?.bestEffort.contains(ElementKey(element)) == true
  }

  /// Runs `body`, naming `element` as the innermost object being compiled in a refusal raised
  /// inside it (lenient mode; the strict compiler just runs `body`).
  mutating func enclosing<Result>(
    _ element: InterfaceDocument.Element, _ body: (inout CocoaNibCompiler) throws(InterfaceBuilderError) -> Result
  ) throws(InterfaceBuilderError) -> Result {
    guard options.lenientPlan != nil else { return try body(&self) }
    do {
      return try body(&self)
    } catch {
      var error = error
      if error.refusal != nil, error.refusal?.enclosing == nil { error.refusal?.enclosing = ElementKey(element) }
      throw error
    }
  }

  /// A controller the storyboard compiler does not know (`splitViewController`,
  /// `tabViewController`…), best-effort: its child objects compiled, its principal view (`view`,
  /// `splitView` or `tabView`) also under `NSView`, where a view controller keeps its view.
  mutating func bestEffortController(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    let controller = try compileBestEffort(element, parent: parent, superview: nil)
    if let view = graph[controller].entries.first(where: { ["view", "splitView", "tabView"].contains($0.key) }) {
      graph.append("NSView", view.value, to: controller)
    }
    return controller
  }
}

extension CocoaNibCompiler {
  /// Connections to an object the document defines outside what this nib compiles (in a
  /// storyboard, an object of another scene) are left out (`ibtool --compile` warns about each,
  /// ``noteDroppedConnection(_:line:count:)``). Interface Builder does not let one make such a
  /// connection — each scene is a nib of its own, which refers only to its own objects and to the
  /// storyboard — so it comes from an edited or pasted document; AppKit never sees it. A
  /// reference to an id the document does not define at all is still refused (`.invalidDocument`).
  mutating func dropConnectionsToOtherScenes() {
    for (id, line) in pendingReferences.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) where index.elementsByID[id] != nil {
      guard let placeholder = objectsByID[id] else { continue }
      func aimsAtPlaceholder(_ connector: Int) -> Bool {
        graph[connector]["NSDestination"] == .object(placeholder) || graph[connector]["NSSource"] == .object(placeholder)
      }
      let before = outletConnections.count + actionConnections.count + bindingConnections.count
      outletConnections.removeAll(where: aimsAtPlaceholder)
      actionConnections.removeAll(where: aimsAtPlaceholder)
      bindingConnections.removeAll(where: aimsAtPlaceholder)
      let dropped = before - (outletConnections.count + actionConnections.count + bindingConnections.count)
      guard dropped > 0 else { continue }
      pendingReferences[id] = nil
      noteDroppedConnection(id, line: line, count: dropped)
    }
  }
}
