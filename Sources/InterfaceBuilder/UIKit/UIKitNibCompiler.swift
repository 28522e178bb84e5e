public import Interface

/// Compiles an iOS xib into Apple's UIKit nib encoding, as Xcode's ibtool writes it (the newest
/// Xcode of the corpus, 12; Docs/ibtool.md notes what older ones wrote): a root `NSObject` whose
/// `UINibTopLevelObjectsKey`, `UINibObjectsKey`, `UINibConnectionsKey`, `UINibVisibleWindowsKey`,
/// `UINibAccessibilityConfigurationsKey`, `UINibTraitStorageListsKey` and `UINibKeyValuePairsKey`
/// list the objects; placeholders as `UIProxyObject`, custom classes as `UIClassSwapper` (the
/// object's own keys, then `UIClassName` and `UIOriginalClassName`), connections as
/// `UIRuntimeOutletConnection`/`UIRuntimeEventConnection`, runtime attributes as
/// `UINibKeyValuePair`; views as `UIBounds`/`UICenter`/`UISubviews` and UIView's other keys in
/// the order UIKit's encoder writes them.
///
/// Rules come from UIKit's model and the Apple-compiled pairs of the corpus (ios_pairs); a rule
/// resting on few samples says so. Elements and attributes not known here are compiled as far as
/// their class and view keys go, never refused: only a document that is not well formed (an id
/// used twice, a connection to an object the document does not define) is.
public struct UIKitNibCompiler {
  /// Compiles an iOS xib.
  ///
  /// - Throws: ``InterfaceBuilderError`` naming the element and line of what cannot be compiled.
  public static func compile(_ document: InterfaceDocument, options: Options = Options()) throws(InterfaceBuilderError) -> NibGraph {
    guard document.platform == .iOS, document.kind == .xib else {
      throw InterfaceBuilderError(.unsupported, path: document.path, line: document.root.line, detail: "not an iOS xib")
    }
    var compiler = UIKitNibCompiler(document: try document.withTextChildrenAsAttributes(), options: options)
    for element in compiler.document.objects { try compiler.compileTopLevel(element) }
    return try compiler.finish()
  }

  /// What the compiler is asked to write.
  public struct Options: Sendable, Hashable {
    /// The Swift module of classes with `customModuleProvider="target"` and no `customModule`.
    public var module: String?
    /// The Xcode whose ibtool is followed, as `DTXcode` writes it (1200 = 12.0): keys Xcode
    /// added later are left out for an older one (`UIDeepDrawRect` 8, the content inset
    /// adjustment and estimated heights 9, the font scaling keys 10,
    /// `UIViewLargeContentStoredProperties` and `UIWhite-Double` 11).
    public var xcode: Int

    /// The variant for systems before iOS 11 (a nib folder's `runtime.nib`): safe-area layout
    /// guides do not exist there, so constraints to one are made to its view instead, and no
    /// guide is archived.
    public var withoutSafeAreaGuides: Bool
    /// The deployment target (`--minimum-deployment-target`), major and minor, when given.
    public var deploymentTarget: (major: Int, minor: Int)?

    public init(
      module: String? = nil, xcode: Int = 1200, withoutSafeAreaGuides: Bool = false, deploymentTarget: (major: Int, minor: Int)? = nil
    ) {
      self.module = module
      self.xcode = xcode
      self.withoutSafeAreaGuides = withoutSafeAreaGuides
      self.deploymentTarget = deploymentTarget
    }

    public static func == (left: Options, right: Options) -> Bool {
      left.module == right.module && left.xcode == right.xcode && left.withoutSafeAreaGuides == right.withoutSafeAreaGuides
        && left.deploymentTarget?.major == right.deploymentTarget?.major && left.deploymentTarget?.minor == right.deploymentTarget?.minor
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(module)
      hasher.combine(xcode)
      hasher.combine(withoutSafeAreaGuides)
      hasher.combine(deploymentTarget?.major)
      hasher.combine(deploymentTarget?.minor)
    }
  }

  /// The nibs a document compiles to for a deployment target (`major`, `minor`): one, unnamed
  /// (a flat nib), or a nib folder's files by name. Before iOS 11 a document that uses safe areas
  /// (`useSafeAreas="YES"`) is a folder of `objects-11.0+.nib` (the graph as for iOS 11) and
  /// `runtime.nib` (``Options/withoutSafeAreaGuides``), as the YPImagePicker pairs show.
  public static func compileVariants(
    _ document: InterfaceDocument, options: Options = Options(), deploymentTarget: (major: Int, minor: Int)?
  ) throws(InterfaceBuilderError) -> [(name: String?, graph: NibGraph)] {
    let graph = try compile(document, options: options)
    guard let target = deploymentTarget, target.major < 11, document.root["useSafeAreas"] == "YES" else { return [(nil, graph)] }
    var older = options
    older.withoutSafeAreaGuides = true
    return [("objects-11.0+.nib", graph), ("runtime.nib", try compile(document, options: older))]
  }

  let document: InterfaceDocument
  let options: Options
  var module: String? { options.module }
  var graph = NibGraph(rootClass: "NSObject")
  /// Graph objects by document id.
  var objectsByID: [String: Int] = [:]
  /// `UINibObjectsKey`: every object of the document.
  var objects: [Int] = []
  var topLevel: [Int] = []
  var connections: [Int] = []
  var keyValuePairs: [Int] = []
  var accessibilityConfigurations: [Int] = []
  /// The top-level objects with their elements, for their size-class variations.
  var topLevelElements: [(element: InterfaceDocument.Element, object: Int)] = []
  /// `UINibVisibleWindowsKey`: windows marked `visibleAtLaunch`.
  var visibleWindows: [Int] = []
  /// Compiled once every object exists: connection lists (with the id of their source) and
  /// constraint lists (with the view that holds them).
  var deferredConnections: [(InterfaceDocument.Element, String)] = []
  var deferredConstraints: [(list: InterfaceDocument.Element, view: Int, viewID: String)] = []
  /// `<viewLayoutGuide>`s by id: the view that owns it and its key (`safeArea`…).
  var layoutGuides: [String: (view: Int, key: String)] = [:]
  /// The guide objects made for the layout guides constraints use, by guide id.
  var guideObjects: [String: Int] = [:]
  /// Ids that stand for another object as constraint items (a cell for its content view).
  var constraintItems: [String: Int] = [:]
  /// The views being compiled, outermost first (a view's superview is the last).
  var superviews: [Int] = []
  /// The layout margins of each view (top, left, bottom, right), for the legacy constants.
  var margins: [Int: [Double]] = [:]
  /// A storyboard's nibs: ids of objects that another nib of the storyboard holds (connections
  /// to them are that nib's), and ids this nib holds as an upstream placeholder (a connection
  /// between two of them is another nib's).
  var foreignIDs: Set<String> = []
  var upstreamIDs: Set<String> = []
  /// Views whose frame Interface Builder fixed without constraints, for the prototyping
  /// constraints ibtool adds (``compilePrototypingConstraints()``).
  var fixedFrames: [(view: Int, superview: Int, frame: [Double])] = []
  /// Prototype cells' external object tables, filled when the nib's objects all exist.
  var deferredExternalTables: [(table: Int, entries: [(name: String, id: String)])] = []

  init(document: InterfaceDocument, options: Options) {
    self.document = document
    self.options = options
  }

  func invalid(_ element: InterfaceDocument.Element, _ what: String) -> InterfaceBuilderError {
    InterfaceBuilderError(.invalidDocument, path: document.path, line: element.line, detail: what)
  }

  mutating func register(_ object: Int, _ element: InterfaceDocument.Element) throws(InterfaceBuilderError) {
    guard let id = element["id"] else { return }
    guard objectsByID[id] == nil else { throw invalid(element, "the id \(id) is used twice") }
    objectsByID[id] = object
  }

  mutating func compileTopLevel(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) {
    switch element.name {
    case "placeholder":
      let identifier = element["placeholderIdentifier"] ?? ""
      let proxy = graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(graph.string(identifier)))])
      try register(proxy, element)
      objects.append(proxy)
      topLevel.append(proxy)
      if let list = element.child("connections"), let id = element["id"] { deferredConnections.append((list, id)) }
    default:
      guard let object = try compileObject(element) else { return }
      topLevel.append(object)
      topLevelElements.append((element, object))
      if element.name == "window", element.flag("visibleAtLaunch") { visibleWindows.append(object) }
    }
  }

  /// The runtime class name of a custom class: Swift classes of a module are mangled
  /// (`_TtC13SwiftMessages11MessageView`); with `customModuleProvider="target"` the module is
  /// the target's (`--module`), whatever `customModule` the document last saved (pairs of
  /// YPImagePicker whose classes came from Fusuma).
  func customClassName(_ element: InterfaceDocument.Element) -> String? {
    guard let name = element["customClass"], !name.isEmpty else { return nil }
    let target = element["customModuleProvider"] == "target" ? self.module : nil
    guard let module = target ?? element["customModule"] else { return name }
    return "_TtC\(module.utf8.count)\(module)\(name.utf8.count)\(name)"
  }

  /// Compiles an object element and everything under it; answers its graph object (`nil` for
  /// elements that are no object of the nib).
  @discardableResult
  mutating func compileObject(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int? {
    guard let className = Self.className(of: element) else { return nil }
    let object = graph.add(className)
    try register(object, element)
    objects.append(object)
    var entries: [NibGraph.Entry]
    if Self.isView(element) {
      entries = try viewEntries(element, object: object)
    } else {
      entries = try plainObjectEntries(element, object: object)
    }
    if let custom = customClassName(element) {
      graph[object].className = "UIClassSwapper"
      entries += [.init("UIClassName", .object(graph.string(custom))), .init("UIOriginalClassName", .object(graph.string(className)))]
    }
    graph[object].entries = entries
    if let list = element.child("connections"), let id = element["id"] { deferredConnections.append((list, id)) }
    if let attributes = element.child("userDefinedRuntimeAttributes") { try compileRuntimeAttributes(attributes, object: object) }
    compileSwitchFrame(element, object: object)
    compileAccessibility(element, object: object)
    return object
  }

  /// The root's lists, after the deferred constraints and connections.
  mutating func finish() throws(InterfaceBuilderError) -> NibGraph {
    try compileConstraints()
    try compileExternalTables()
    try compileConnections()
    let traitStorageLists = compileTraitStorageLists(topLevelElements)
    let empty = graph.collection("NSArray", [])
    func list(_ members: [Int]) -> NIBArchive.Payload { .object(members.isEmpty ? empty : graph.collection("NSArray", members)) }
    graph[graph.root].entries = [
      .init("UINibTopLevelObjectsKey", list(topLevel)),
      .init("UINibObjectsKey", list(objects)),
      .init("UINibConnectionsKey", list(connections)),
      .init("UINibVisibleWindowsKey", list(visibleWindows)),
      .init("UINibAccessibilityConfigurationsKey", list(accessibilityConfigurations)),
      .init("UINibTraitStorageListsKey", list(traitStorageLists)),
      .init("UINibKeyValuePairsKey", list(keyValuePairs)),
    ]
    sharingEqualValues()
    return graph
  }
}
