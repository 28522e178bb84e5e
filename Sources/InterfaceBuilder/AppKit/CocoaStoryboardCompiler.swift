public import Interface
public import PropertyLists

/// A compiled macOS storyboard, as Apple's `ibtool --compile Main.storyboardc Main.storyboard`
/// writes it: an `Info.plist` and one nib per window controller, per view controller's view and
/// for the main menu.
public struct CompiledStoryboardOutput: Sendable {
  /// The folder's `Info.plist`: `NSStoryboardDesignatedEntryPointIdentifier`,
  /// `NSStoryboardMainMenu`, `NSStoryboardVersion` 1, `NSViewControllerIdentifiersToNibNames`
  /// and `NSViewControllerIdentifiersToUUIDs`.
  public var info: PropertyListValue
  /// Each nib by file name without `.nib`, in the order they were made.
  public var nibs: [(name: String, graph: NibGraph)]
  /// The warnings, by the name of the nib they concern: for a lenient compile, what it did
  /// instead of refusing; for a strict one, `ibtool --compile`'s notes (what was compiled
  /// without an Apple sample to check it against, connections across scenes left out).
  public var warnings: [String: [CompilerWarning]] = [:]
  /// Each nib's name with the number of the scene it was made from.
  var sceneNibs: [(name: String, scene: Int)] = []
  /// What the scenes' compilers wrote without an Apple sample to check it against (and
  /// connections they left out), each with the nib it concerns.
  var unverified: [(nib: String, warning: CompilerWarning)] = []

  /// Files each warning under the nibs of the scene whose lines hold it.
  mutating func distributeWarnings(_ warnings: [CompilerWarning], scenes: [InterfaceDocument.Element]) {
    for warning in warnings {
      guard let position = scenes.lastIndex(where: { $0.line <= warning.line }) else { continue }
      for nib in sceneNibs where nib.scene == position { self.warnings[nib.name, default: []].append(warning) }
    }
  }
}

/// Compiles a macOS storyboard (`com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB`) scene by
/// scene, with the per-scene machinery of ``CocoaNibCompiler``.
///
/// What is compiled is the shape Apple's samples show: an application scene with a main menu
/// (→ `MainMenu.nib`), window controllers whose window's content view controller is set by a
/// `window.shadowedContentViewController` relationship segue (→ one nib named by the
/// controller's `storyboardIdentifier`, or `NSWindowController-<id>`, holding the controller,
/// its window and the content view controller), and view controllers (→ `<id>-view-<view id>`,
/// the view, with the controller outside the nib as an `UpstreamPlaceholder-1` external object).
/// Without an Apple sample, each noted unverified (CocoaStoryboardCompiler+Controllers.swift): a
/// controller instantiated by identifier (its `storyboardIdentifier`, or an embed segue's
/// destination) also gets a nib of its own under that name; tab and split view controllers are
/// compiled with their relationship segues' children where they are used; a container view's
/// embed segue is a template of its controller; connections to another scene's objects are left
/// out with a warning. Other controllers and segues are refused with their line.
///
/// `uniqueIdentifierForStoryboardCompilation` values are UUIDs Apple makes at random; these are
/// derived from the document and the controller's id, so that a build is reproducible.
public enum CocoaStoryboardCompiler {
  public static func compile(
    _ document: InterfaceDocument, options: CocoaNibCompiler.Options = .init()
  ) throws(InterfaceBuilderError) -> CompiledStoryboardOutput {
    guard document.platform == .macOS, document.kind == .storyboard else {
      throw InterfaceBuilderError(
        .unsupported, path: document.path, line: document.root.line,
        detail: "only macOS storyboards compile so far; this is a \(document.platform == .iOS ? "iOS" : "macOS") \(document.kind.rawValue)")
    }
    var noWarnings: [CompilerWarning]? = nil
    let converted = try document.withTextChildrenAsAttributes()
    var output = try compileScenes(converted, options: options, warnings: &noWarnings)
    // Once per nib: a controller compiled into several nibs (a window's content that is also
    // instantiated by identifier) notes the same things in each.
    for (nib, warning) in output.unverified where output.warnings[nib]?.contains(warning) != true {
      output.warnings[nib, default: []].append(warning)
    }
    output.unverified = []
    return output
  }

  /// Compiles a macOS storyboard for the nib loader in lenient mode: inside scenes, what the
  /// strict compiler refuses is left out or compiled best-effort as in
  /// ``CocoaNibCompiler/compileLeniently(_:options:)``; and the scenes themselves:
  ///
  /// - a scene of a controller the compiler does not know (`pageController`…), or such a
  ///   controller as a window's content, is a best-effort controller of its class (a view
  ///   controller in the headless model) with its child objects, in a nib named by its
  ///   `storyboardIdentifier` or `<class>-<id>`; its segues are left out, with a warning.
  ///
  /// Each warning is listed under the nib of the scene it concerns. Never for `ibtool --compile`.
  public static func compileLeniently(
    _ document: InterfaceDocument, options: CocoaNibCompiler.Options = .init()
  ) throws(InterfaceBuilderError) -> CompiledStoryboardOutput {
    guard document.platform == .macOS, document.kind == .storyboard else { return try compile(document, options: options) }
    let converted = try document.withTextChildrenAsAttributes()
    var (output, warnings) = try LenientPlan.compile(converted) { (document, plan) throws(InterfaceBuilderError) in
      var lenientOptions = options
      lenientOptions.lenientPlan = plan
      var sceneWarnings: [CompilerWarning]? = []
      var output = try compileScenes(document, options: lenientOptions, warnings: &sceneWarnings)
      output.warnings = ["": sceneWarnings ?? []]
      return output
    }
    warnings += output.warnings[""] ?? []
    output.warnings = [:]
    output.unverified = []
    output.distributeWarnings(warnings, scenes: converted.scenes)
    return output
  }

  static func compileScenes(
    _ document: InterfaceDocument, options: CocoaNibCompiler.Options, warnings: inout [CompilerWarning]?
  ) throws(InterfaceBuilderError) -> CompiledStoryboardOutput {
    var controllers: [String: InterfaceDocument.Element] = [:]
    var firstResponders: Set<String> = []
    for scene in document.scenes {
      for object in scene.child("objects")?.children ?? [] {
        if object["sceneMemberID"] == "firstResponder", let id = object["id"] { firstResponders.insert(id) }
        if object["sceneMemberID"] == "viewController", let id = object["id"] { controllers[id] = object }
      }
    }
    let index = DocumentIndex(document)
    let instantiated = segueDestinations(document)
    var nibs: [(name: String, graph: NibGraph)] = []
    var namesToNibs: [(String, PropertyListValue)] = []
    var namesToUUIDs: [(String, PropertyListValue)] = []
    var entryPoint: String?
    var unverified: [(nib: String, warning: CompilerWarning)] = []
    let initial = document.root["initialViewController"]
    var sceneNibs: [(name: String, scene: Int)] = []
    for (sceneNumber, scene) in document.scenes.enumerated() {
      defer { for nib in nibs.dropFirst(sceneNibs.count) { sceneNibs.append((nib.name, sceneNumber)) } }
      // The scene's objects that are neither its controller nor its First Responder.
      let otherObjects = (scene.child("objects")?.children ?? []).filter { $0["sceneMemberID"] == nil && $0.name != "point" }
      for object in scene.child("objects")?.children ?? [] where object["sceneMemberID"] == "viewController" {
        var compiler = CocoaNibCompiler(document: document, options: options, index: index)
        compiler.firstResponderIDs.formUnion(firstResponders)
        // The nib `compiler` makes (its warnings are filed under it).
        var compilerNib = ""
        switch object.name {
        case "application":
          guard let menu = object.child("menu", key: "mainMenu") else { continue }
          let graph = try compiler.compileMainMenu(application: object, menu: menu, sceneObjects: otherObjects)
          nibs.append(("MainMenu", graph))
          compilerNib = "MainMenu"
          namesToNibs.append(("MainMenu", .string("MainMenu")))
        case "windowController":
          let name = try nibName(object["storyboardIdentifier"] ?? "NSWindowController-" + (object["id"] ?? ""), for: object, in: document)
          let uuid = storyboardUUID(document, object["id"] ?? "")
          let graph = try compiler.compileWindowControllerScene(object, controllers: controllers, uuid: uuid)
          nibs.append((name, graph))
          compilerNib = name
          namesToNibs.append((name, .string(name)))
          namesToUUIDs.append((name, .string(uuid)))
          if object["id"] == initial { entryPoint = name }
        case "viewController":
          guard let view = CocoaNibCompiler.controllerView(object), let viewID = view["id"], let id = object["id"] else {
            throw compiler.unsupported(object, "a view controller without its own view (<view key=\"view\"> with an id) is not compiled yet")
          }
          let graph = try compiler.compileViewControllerView(object, view: view, sceneObjects: otherObjects)
          compilerNib = try nibName("\(id)-view-\(viewID)", for: object, in: document)
          nibs.append((compilerNib, graph))
          // Instantiable by identifier (its storyboardIdentifier, or an embed segue's destination):
          // a nib of its own as well (``CocoaNibCompiler/compileControllerScene(_:)``).
          if object["storyboardIdentifier"] != nil || instantiated.contains(id) {
            var sceneCompiler = CocoaNibCompiler(document: document, options: options, index: index)
            sceneCompiler.firstResponderIDs.formUnion(firstResponders)
            let name = try nibName(controllerNibName(object), for: object, in: document)
            nibs.append((name, try sceneCompiler.compileControllerScene(object)))
            namesToNibs.append((name, .string(name)))
            namesToUUIDs.append((name, .string(storyboardUUID(document, id))))
            if id == initial { entryPoint = name }
            warnings? += sceneCompiler.lenientWarnings
            unverified += sceneCompiler.unverifiedWarnings.map { (name, $0) }
          }
        case "tabViewController", "splitViewController":
          // Compiled where it is used (a window's content, an item of another container); a nib
          // of its own only when something instantiates it by identifier.
          let id = object["id"] ?? ""
          guard object["storyboardIdentifier"] != nil || instantiated.contains(id) || id == initial else { continue }
          let name = try nibName(controllerNibName(object), for: object, in: document)
          nibs.append((name, try compiler.compileControllerScene(object)))
          compilerNib = name
          namesToNibs.append((name, .string(name)))
          namesToUUIDs.append((name, .string(storyboardUUID(document, id))))
          if id == initial { entryPoint = name }
        default:
          guard warnings != nil else { throw compiler.unsupported(object, "a <\(object.name)> scene is not compiled yet") }
          let id = object["id"] ?? ""
          let name = try nibName(controllerNibName(object), for: object, in: document)
          nibs.append((name, try compiler.compileControllerScene(object)))
          namesToNibs.append((name, .string(name)))
          namesToUUIDs.append((name, .string(storyboardUUID(document, id))))
          if object["id"] == initial { entryPoint = name }
          warnings?.append(
            CompilerWarning(
              path: document.path, line: object.line, element: object.name,
              detail: "a <\(object.name)> scene is compiled as a best-effort controller (Apple's compilation of it is not known here)"))
        }
        warnings? += compiler.lenientWarnings
        unverified += compiler.unverifiedWarnings.map { (compilerNib, $0) }
      }
    }
    var seen: [String: Int] = [:]
    for (index, nib) in nibs.enumerated() {
      if seen[nib.name] != nil {
        throw InterfaceBuilderError(
          .invalidDocument, path: document.path, line: document.root.line,
          detail: "two scenes compile to a nib named \"\(nib.name)\" (storyboard identifiers must be unique)")
      }
      seen[nib.name] = index
    }
    var info: [(String, PropertyListValue)] = []
    if let entryPoint { info.append(("NSStoryboardDesignatedEntryPointIdentifier", .string(entryPoint))) }
    info.append(("NSStoryboardMainMenu", .string("MainMenu")))
    info.append(("NSStoryboardVersion", .integer(PropertyListInteger(Int64(1)))))
    info.append(("NSViewControllerIdentifiersToNibNames", .dictionary(PropertyListDictionary(namesToNibs))))
    info.append(("NSViewControllerIdentifiersToUUIDs", .dictionary(PropertyListDictionary(namesToUUIDs))))
    var output = CompiledStoryboardOutput(info: .dictionary(PropertyListDictionary(info)), nibs: nibs)
    output.sceneNibs = sceneNibs
    output.unverified = unverified
    return output
  }

  /// A nib's name as a file name in the `.storyboardc` folder: not empty, no `/` or NUL, not
  /// starting with `.`, not `Info` (the folder's plist) — a document cannot make the compiler
  /// write outside the folder or over another of its files.
  static func nibName(_ name: String, for element: InterfaceDocument.Element, in document: InterfaceDocument) throws(InterfaceBuilderError) -> String {
    guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\0"), name != "Info", name.utf8.count <= 200 else {
      throw InterfaceBuilderError(
        .invalidDocument, path: document.path, line: element.line,
        detail: "<\(element.name)>: \"\(name)\" cannot name a nib in the compiled storyboard (a file name: not empty, no \"/\", not starting with \".\")")
    }
    return name
  }

  /// A UUID made from the document's path and a controller id (FNV-1a, 128 bits, version 4 bits
  /// set), so that compiling the same storyboard twice gives the same bytes.
  static func storyboardUUID(_ document: InterfaceDocument, _ id: String) -> String {
    var high: UInt64 = 0xcbf2_9ce4_8422_2325, low: UInt64 = 0x8422_2325_cbf2_9ce4
    for byte in Array(((document.path ?? "") as String).utf8) + [0] + Array(id.utf8) {
      high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
      low = (low ^ UInt64(byte) ^ (high >> 29)) &* 0x0000_0100_0000_01B3
    }
    high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000
    low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    func hex(_ value: UInt64, _ digits: Int) -> String {
      let text = String(value, radix: 16, uppercase: true)
      return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
    let h = hex(high, 16), l = hex(low, 16)
    return "\(h.prefix(8))-\(h.dropFirst(8).prefix(4))-\(h.suffix(4))-\(l.prefix(4))-\(l.suffix(12))"
  }
}

extension CocoaNibCompiler {
  /// A storyboard nib's File's Owner: an `NSCustomObject` of class `NSObject`, filled at load.
  mutating func storyboardOwner() -> Int {
    filesOwner = graph.add("NSCustomObject", [.init("NSClassName", string("NSObject"))])
    return filesOwner
  }

  /// The Application placeholder every nib has: an `NSCustomObject` of `NSApplication`.
  mutating func applicationPlaceholder() -> Int {
    let application = graph.add("NSCustomObject", [.init("NSClassName", string("NSApplication"))])
    objectsWithParents.append((application, filesOwner))
    return application
  }

  /// An `NSNibExternalObjectPlaceholder` for the object the loader passes in under `identifier`.
  mutating func externalPlaceholder(_ identifier: String) -> Int {
    graph.add("NSNibExternalObjectPlaceholder", [.init("NSExternalObjectPlaceholderIdentifier", string(identifier))])
  }

  mutating func outlet(from source: Int, to destination: Int, _ label: String) -> Int {
    let connector = graph.add("NSNibOutletConnector")
    graph[connector].entries = [
      .init("NSSource", .object(source)), .init("NSDestination", .object(destination)), .init("NSLabel", string(label)),
      .init("NSChildControllerCreationSelectorName", .null),
    ]
    outletConnections.append(connector)
    return connector
  }

  /// `MainMenu.nib`: the application (an `NSCustomObject` of `NSApplication` whose `IBMainMenu`
  /// is the menu), the Application placeholder, and the menu, whose items a storyboard lists
  /// last to first.
  mutating func compileMainMenu(
    application: InterfaceDocument.Element, menu: InterfaceDocument.Element, sceneObjects: [InterfaceDocument.Element]
  ) throws(InterfaceBuilderError) -> NibGraph {
    let objectData = startArchive()
    _ = storyboardOwner()
    let app = graph.add("NSCustomObject")
    if let id = application["id"] { objectsByID[id] = app }
    objectsWithParents.append((app, filesOwner))
    _ = applicationPlaceholder()
    reversesMenuItems = true
    let mainMenu = try compileMenu(menu, parent: filesOwner)
    graph[app].entries = [.init("IBMainMenu", .object(mainMenu)), .init("NSClassName", string("NSApplication"))]
    // The scene's other objects (the app delegate, controllers) live in the same nib; their
    // order among the objects is not known from Apple's samples.
    for object in sceneObjects { _ = try compileObject(object, parent: filesOwner, superview: nil) }
    try compileConnections(of: application, source: app)
    return try finishArchive(objectData)
  }

  /// A window controller's nib: the controller, its window (with a content view made for it
  /// when the storyboard has none) and its content view controller, each view controller
  /// reaching the storyboard through an `NSStoryboardPlaceholder` external object.
  mutating func compileWindowControllerScene(
    _ element: InterfaceDocument.Element, controllers: [String: InterfaceDocument.Element], uuid: String
  ) throws(InterfaceBuilderError) -> NibGraph {
    let objectData = startArchive()
    let owner = storyboardOwner()
    guard let windowElement = element.child("window", key: "window") else {
      throw invalid(element, "a window controller needs its <window key=\"window\">")
    }
    let segues = element.child("connections")?.children ?? []
    var contentElement: InterfaceDocument.Element?
    for segue in segues {
      guard segue.name == "segue", segue["kind"] == "relationship", segue["relationship"] == "window.shadowedContentViewController",
        let destination = segue["destination"], let controller = controllers[destination]
      else { throw unsupported(segue, "only a window.shadowedContentViewController relationship segue is compiled so far") }
      contentElement = controller
    }
    let contentPlaceholder = contentElement.map { _ in externalPlaceholder("NSStoryboardPlaceholder") }
    if let contentPlaceholder { objectsWithParents.append((contentPlaceholder, owner)) }

    let controller = graph.add("NSWindowController")
    if let id = element["id"] { objectsByID[id] = controller }
    objectsWithParents.append((controller, owner))
    let windowPosition = objectsWithParents.count
    let window = try compileWindow(windowElement, parent: controller)
    let afterWindow = objectsWithParents.count
    visibleWindows.removeAll { $0 == window }
    if case .null? = graph[window]["NSWindowView"] {
      let content = try rect(windowElement, key: "contentRect") ?? (0, 0, 0, 0)
      let view = graph.add("NSView")
      graph[view].entries = [
        .init("NSNextResponder", .null), .init("NSNibTouchBar", .null), .init("NSvFlags", NibGraph.integer(0x100)),
        .init("NSFrameSize", string(Self.sizeString(width: content.width, height: content.height))),
        .init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)),
      ] + tailViewEntries(windowElement)
      if let position = graph[window].entries.firstIndex(where: { $0.key == "NSWindowView" }) {
        graph[window].entries[position].value = .object(view)
      }
      objectsWithParents.append((view, window))
    }
    var contentController: Int?
    if let contentElement { contentController = try storyboardControllerObject(contentElement, parent: window) }
    // The content view and controller are listed right after the window, before its toolbar (sb_toolbar).
    let synthesized = Array(objectsWithParents[afterWindow...])
    objectsWithParents.removeSubrange(afterWindow...)
    let windowRow = objectsWithParents[windowPosition...].firstIndex { $0.object == window } ?? (objectsWithParents.count - 1)
    objectsWithParents.insert(contentsOf: synthesized, at: min(windowRow + 1, objectsWithParents.count))
    var entries: [NibGraph.Entry] = [.init("IBWindowTemplate", .object(window))]
    if let contentController { entries.append(.init("IBWindowTemplateContentViewController", .object(contentController))) }
    if let identifier = element["storyboardIdentifier"] { entries.append(.init("explicitStoryboardIdentifier", string(identifier))) }
    entries += try presentationEntries(element, uuid: uuid)
    graph[controller].entries = try swapped(element, original: "IBNSWindowController", plain: "NSWindowController", object: controller) + entries
    _ = applicationPlaceholder()
    let ownPlaceholder = externalPlaceholder("NSStoryboardPlaceholder")
    objectsWithParents.append((ownPlaceholder, owner))

    // The connections' order differs between Interface Builder versions (samples from Xcode 7
    // and Xcode 14/15); older documents also make the controller the window's delegate.
    _ = outlet(from: owner, to: controller, "sceneController")
    if (Int(document.toolsVersion) ?? 0) < 20000 {
      if let contentController, let contentPlaceholder { _ = outlet(from: contentController, to: contentPlaceholder, "storyboard") }
      _ = outlet(from: window, to: controller, "delegate")
      _ = outlet(from: controller, to: ownPlaceholder, "storyboard")
      _ = outlet(from: controller, to: window, "window")
    } else {
      _ = outlet(from: controller, to: ownPlaceholder, "storyboard")
      _ = outlet(from: controller, to: window, "window")
      if let contentController, let contentPlaceholder { _ = outlet(from: contentController, to: contentPlaceholder, "storyboard") }
    }
    if let contentController {
      let attributes = graph.add("NSIBUserDefinedRuntimeAttributesConnector")
      graph[attributes].entries = [
        .init("NSObject", .object(window)), .init("NSValues", .object(graph.collection("NSArray", [contentController]))),
        .init("NSKeyPaths", .object(graph.collection("NSArray", [sharedString("contentViewController")]))),
      ]
      lateConnections.append(attributes)
    }
    return try finishArchive(objectData)
  }

  /// A view controller as another nib holds it: `NSViewController` (or a class swapper for its
  /// custom class) {NSNibName (its view's nib), NSTitle, NSStoryboardIdentifier,
  /// NSExternalObjectsTableForViewLoading (itself as `UpstreamPlaceholder-1` when its view's nib
  /// refers to it, and its embed segues' templates), NSStoryboardSegueTemplates,
  /// showSeguePresentationStyle, uniqueIdentifierForStoryboardCompilation…}. Apple's samples show
  /// the keys of a controller without title, identifier or segues (sb_basic_wc, sb_swift_wc); the
  /// others are noted unverified.
  mutating func viewControllerObject(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let id = element["id"], let view = Self.controllerView(element), let viewID = view["id"] else {
      throw unsupported(element, "a view controller without its own view (<view key=\"view\"> with an id) is not compiled yet")
    }
    let controller = graph.add("NSViewController")
    let upstream = hasUpstreamConnections(element)
    var table = upstream ? [sharedString("UpstreamPlaceholder-1"), controller] : []
    var templates: [Int] = []
    for (position, embed) in Self.embedSegues(in: view).enumerated() {
      let template = try embedSegueTemplate(embed.segue)
      table += [sharedString(Self.embedPlaceholderIdentifier(position, upstream: upstream)), template]
      templates.append(template)
    }
    var entries: [NibGraph.Entry] = [.init("NSNibName", string("\(id)-view-\(viewID)"))]
    if let title = element["title"] {
      entries.append(.init("NSTitle", string(title)))
      noteUnverified(element, "title as the view controller's NSTitle (AppKit's NSViewController key)")
    }
    if let identifier = element["storyboardIdentifier"] {
      entries.append(.init("NSStoryboardIdentifier", string(identifier)))
      noteUnverified(element, "storyboardIdentifier \"\(identifier)\" as the controller's NSStoryboardIdentifier")
    }
    entries.append(.init("NSExternalObjectsTableForViewLoading", .object(graph.collection("NSMutableDictionary", table))))
    if !templates.isEmpty { entries.append(.init("NSStoryboardSegueTemplates", .object(graph.collection("NSArray", templates)))) }
    entries += try presentationEntries(element, uuid: CocoaStoryboardCompiler.storyboardUUID(document, id))
    entries = try swapped(element, original: "NSViewController", plain: "NSViewController", object: controller) + entries
    if graph[controller].className == "NSClassSwapper", element["storyboardIdentifier"] != nil {
      entries.append(.init("connectionsRequireClassSwapperForStoryboardCompilation", .bool(true)))
    }
    graph[controller].entries = entries
    return controller
  }

  /// showSeguePresentationStyle (0, or 1 for `showSeguePresentationStyle="single"`),
  /// uniqueIdentifierForStoryboardCompilation, and for a single-instance controller
  /// NSStoryboardSegueDestinationOptions {NSSingleInstancePresentationIdentifier: its UUID}.
  /// Apple's samples show only the default style.
  mutating func presentationEntries(_ element: InterfaceDocument.Element, uuid: String) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    let single: Bool
    switch element["showSeguePresentationStyle"] {
    case nil, "multiple": single = false
    case "single": single = true
    case let style?: throw unsupported(element, "showSeguePresentationStyle \"\(style)\" is not known", attribute: "showSeguePresentationStyle")
    }
    var entries: [NibGraph.Entry] = [
      .init("showSeguePresentationStyle", .int8(single ? 1 : 0)), .init("uniqueIdentifierForStoryboardCompilation", string(uuid)),
    ]
    if single {
      let options = graph.collection("NSDictionary", [sharedString("NSSingleInstancePresentationIdentifier"), sharedString(uuid)])
      entries.append(.init("NSStoryboardSegueDestinationOptions", .object(options)))
      noteUnverified(
        element, "showSeguePresentationStyle=\"single\" as showSeguePresentationStyle 1 with NSStoryboardSegueDestinationOptions {NSSingleInstancePresentationIdentifier}")
    }
    return entries
  }

  /// A view controller's view: its child with `key="view"` (`<view>` or `<customView>`).
  static func controllerView(_ element: InterfaceDocument.Element) -> InterfaceDocument.Element? {
    element.children.first { $0["key"] == "view" && ($0.name == "view" || $0.name == "customView") }
  }

  /// Whether a view controller's own connections reach into its view (then its view's nib
  /// refers to it through `UpstreamPlaceholder-1`).
  func hasUpstreamConnections(_ element: InterfaceDocument.Element) -> Bool {
    if element.child("connections")?.children.contains(where: { $0.name == "outlet" || $0.name == "action" }) == true { return true }
    guard let id = element["id"], let view = Self.controllerView(element) else { return false }
    // A connection inside the view aimed at the controller (a button's action on it).
    func refers(_ node: InterfaceDocument.Element) -> Bool {
      if node.name == "connections", node.children.contains(where: { $0["destination"] == id || $0["target"] == id }) { return true }
      return node.children.contains(where: refers)
    }
    return refers(view)
  }

  /// The class-swapper head for a controller with a custom class, or nothing (the object keeps
  /// the `plain` class).
  mutating func swapped(
    _ element: InterfaceDocument.Element, original: String, plain: String, object: Int
  ) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    guard let custom = element["customClass"] else {
      graph[object].className = plain
      return []
    }
    graph[object].className = "NSClassSwapper"
    return [
      .init("NSClassName", string(swiftClassName(custom, module: module(of: element)))), .init("NSOriginalClassName", string(original)),
    ]
  }

  /// A view controller's view nib: the view (owned by the controller, which is the File's
  /// Owner at load), and the controller's outlets and actions through `UpstreamPlaceholder-1`.
  mutating func compileViewControllerView(
    _ element: InterfaceDocument.Element, view: InterfaceDocument.Element, sceneObjects: [InterfaceDocument.Element] = []
  ) throws(InterfaceBuilderError) -> NibGraph {
    let objectData = startArchive()
    let owner = storyboardOwner()
    // The controller is outside this nib: references to it go to its upstream placeholder.
    let upstream = hasUpstreamConnections(element) ? externalPlaceholder("UpstreamPlaceholder-1") : nil
    if let upstream, let id = element["id"] { objectsByID[id] = upstream }
    let root = try compileObject(view, parent: owner, superview: nil)
    // The scene's other objects (a shared user defaults controller, …) live in the view's nib;
    // their place among the objects is not known from Apple's samples.
    for object in sceneObjects { _ = try compileObject(object, parent: owner, superview: nil) }
    _ = outlet(from: owner, to: root, "view")
    _ = applicationPlaceholder()
    if let upstream {
      objectsWithParents.append((upstream, owner))
      try compileConnections(of: element, source: upstream)
    }
    // Each embed segue's template, an object of the controller's nib, reaches its container
    // view through an external placeholder (the controller's NSExternalObjectsTableForViewLoading).
    for (position, embed) in Self.embedSegues(in: view).enumerated() {
      let placeholder = externalPlaceholder(Self.embedPlaceholderIdentifier(position, upstream: upstream != nil))
      objectsWithParents.append((placeholder, owner))
      guard let id = embed.container["id"], let container = objectsByID[id] else { throw invalid(embed.container, "a container view needs an id") }
      _ = outlet(from: placeholder, to: container, "containerView")
    }
    return try finishArchive(objectData)
  }
}
