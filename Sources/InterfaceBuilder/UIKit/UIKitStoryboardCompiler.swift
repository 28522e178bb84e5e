internal import Interface
internal import PropertyLists

/// Compiles an iOS storyboard into Apple's `.storyboardc` encoding, as Xcode's ibtool writes it:
/// an `Info.plist` (`UIStoryboardDesignatedEntryPointIdentifier`,
/// `UIViewControllerIdentifiersToNibNames`, `UIStoryboardVersion` 1), one nib per scene named by
/// its controller's storyboard identifier (else `<UIKit class>-<id>`, `UIViewController-BYZ-38-t0r`),
/// and one nib per controller's view, `<controller id>-view-<view id>`.
///
/// A scene's nib holds its controller (with `UINibName`, the view's nib, and
/// `UIExternalObjectsTableForViewLoading`, the objects the view's nib reaches as upstream
/// placeholders) and the scene's other objects (`UITopLevelObjectsToKeepAliveFromStoryboard`);
/// File's Owner receives the controller through `sceneViewController`, the controller's
/// `storyboard` outlet reaches the `UIStoryboardPlaceholder`. The view's nib holds the view (with
/// the controller's top and bottom layout guides as `_UILayoutGuide` subviews), File's Owner's
/// `view` outlet and every connection with an end in the view; the controller and the segue
/// templates its controls perform are `UIProxyObject`s named `UpstreamPlaceholder-<id>` there.
/// Each connection lives in the nib that holds one of its ends. Views are compiled as
/// ``UIKitNibCompiler`` compiles a xib's.
///
/// Evidence: the Apple-compiled pairs of mixpanel's MPNotification and MPSurvey storyboards
/// (Xcode 7.3.1). Segue templates, relationship segues and container controllers have no Apple
/// sample in the corpus; they follow the keys UIKit's decoders read (each noted where written).
public enum UIKitStoryboardCompiler {
  /// Compiles an iOS storyboard.
  ///
  /// - Throws: ``InterfaceBuilderError`` naming the element and line of what cannot be compiled.
  public static func compile(
    _ document: InterfaceDocument, options: UIKitNibCompiler.Options = UIKitNibCompiler.Options()
  ) throws(InterfaceBuilderError) -> CompiledStoryboardOutput {
    guard document.platform == .iOS, document.kind == .storyboard else {
      throw InterfaceBuilderError(.unsupported, path: document.path, line: document.root.line, detail: "not an iOS storyboard")
    }
    let storyboard = try Storyboard(document: try document.withTextChildrenAsAttributes(), options: options)
    var nibs: [(name: String, graph: NibGraph)] = []
    for scene in storyboard.scenes {
      let scenePlan = try storyboard.plan(scene)
      if let view = scenePlan.view { nibs.append((scenePlan.viewNibName, try storyboard.viewNib(scenePlan, view: view))) }
      nibs.append((scenePlan.identifier, try storyboard.sceneNib(scenePlan)))
    }
    var info: [(String, PropertyListValue)] = []
    if let initial = document.root["initialViewController"] {
      guard let identifier = storyboard.identifiers[initial] else {
        throw InterfaceBuilderError(
          .invalidDocument, path: document.path, line: document.root.line, detail: "the initial view controller \(initial) is not a scene's")
      }
      info.append(("UIStoryboardDesignatedEntryPointIdentifier", .string(identifier)))
    }
    info.append(("UIStoryboardVersion", .integer(1)))
    let table = storyboard.identifiers.values.sorted().map { ($0, PropertyListValue.string($0)) }
    info.append(("UIViewControllerIdentifiersToNibNames", .dictionary(PropertyListDictionary(table))))
    var output = CompiledStoryboardOutput(info: .dictionary(PropertyListDictionary(info)), nibs: nibs)
    output.warnings = crossSceneWarnings(storyboard.document, scenes: storyboard.scenes, identifiers: storyboard.identifiers)
    return output
  }

  /// The identifier of an upstream placeholder: ibtool draws a random Interface Builder id
  /// (`UpstreamPlaceholder-8p0-3g-sCS`, another each compile); ours is drawn from the ids of the
  /// view and the object it stands for, so that a compile is repeatable.
  static func upstreamIdentifier(_ seed: String) -> String {
    let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    var characters: [Character] = []
    for position in 0..<10 {
      if position == 3 || position == 6 { characters.append("-"); continue }
      characters.append(alphabet[Int(hash % UInt64(alphabet.count))])
      hash /= UInt64(alphabet.count)
    }
    return "UpstreamPlaceholder-" + String(characters)
  }
}

extension UIKitStoryboardCompiler {
  /// One scene laid out in nibs: its controller, its view, which ids each nib holds, and the
  /// objects of the scene the view's nib reaches as upstream placeholders.
  struct ScenePlan {
    var scene: InterfaceDocument.Element
    var controller: InterfaceDocument.Element
    var identifier: String
    var view: InterfaceDocument.Element?
    var viewNibName: String
    /// Ids of the view and everything under it (its nib's objects, the layout guides).
    var viewIDs: Set<String>
    /// Ids of the scene's objects outside the view.
    var sceneIDs: Set<String>
    /// Scene objects (and segues) the view's nib refers to, by id, with their placeholder's name.
    var upstream: [(id: String, name: String)]
  }

  /// The document's scenes and their controllers' identifiers.
  struct Storyboard {
    let document: InterfaceDocument
    let options: UIKitNibCompiler.Options
    var scenes: [(scene: InterfaceDocument.Element, controller: InterfaceDocument.Element)] = []
    /// Scene identifiers (nib names) by controller id.
    var identifiers: [String: String] = [:]
    /// Every controller of the document by id (relationship segues embed them).
    var controllers: [String: InterfaceDocument.Element] = [:]
    /// Every id of the document: a connection to another scene's object (which Interface Builder
    /// does not make; an edited document) is left out, as UIKit could not make it, with a
    /// warning (``crossSceneWarnings(_:scenes:identifiers:)``).
    var allIDs: Set<String> = []

    init(document: InterfaceDocument, options: UIKitNibCompiler.Options) throws(InterfaceBuilderError) {
      self.document = document
      self.options = options
      Self.collectIDs(document.root, into: &allIDs)
      for scene in document.scenes {
        let members = scene.child("objects")?.children ?? []
        guard let controller = members.first(where: { $0["sceneMemberID"] == "viewController" }), let id = controller["id"] else {
          throw InterfaceBuilderError(.unsupported, path: document.path, line: scene.line, detail: "a scene without a view controller")
        }
        // A storyboard reference stands for a scene of another storyboard: no nib of its own.
        if controller.name == "viewControllerPlaceholder" { continue }
        let className = UIKitNibCompiler.className(of: controller) ?? "UIViewController"
        let identifier = controller["storyboardIdentifier"] ?? className + "-" + id
        guard !identifiers.values.contains(identifier), !identifier.contains("/"), !identifier.hasPrefix(".") else {
          throw InterfaceBuilderError(
            .invalidDocument, path: document.path, line: controller.line, detail: "the storyboard identifier \(identifier) is repeated or not a file name")
        }
        identifiers[id] = identifier
        controllers[id] = controller
        scenes.append((scene, controller))
      }
    }

    /// Which nib holds what, for one scene.
    func plan(_ entry: (scene: InterfaceDocument.Element, controller: InterfaceDocument.Element)) throws(InterfaceBuilderError) -> ScenePlan {
      let (scene, controller) = entry
      let controllerID = controller["id"] ?? ""
      let view = controller.children.first { $0["key"] == "view" }
      var viewIDs: Set<String> = []
      if let view { Self.collectIDs(view, into: &viewIDs) }
      for guide in controller.child("layoutGuides")?.children ?? [] { if let id = guide["id"] { viewIDs.insert(id) } }
      var sceneIDs: Set<String> = []
      Self.collectIDs(scene, into: &sceneIDs)
      sceneIDs.subtract(viewIDs)
      // The scene objects the view reaches: the controller always; others and segue templates
      // when a connection crosses from the view to them or from them into the view.
      var reached: [String] = [controllerID]
      func reach(_ id: String) { if !reached.contains(id) { reached.append(id) } }
      var stack = view.map { [$0] } ?? []
      while let element = stack.popLast() {
        for connection in element.child("connections")?.children ?? [] {
          if connection.name == "segue", connection["kind"] != "embed", connection["kind"] != "relationship",
            !UIKitNibCompiler.cells.contains(element.name), let id = connection["id"]
          {
            reach(id)
          }
          if let destination = connection["destination"], sceneIDs.contains(destination), connection.name != "segue" {
            if Self.isPlaceholder(destination, in: scene) { continue }
            reach(destination)
          }
        }
        stack.append(contentsOf: element.children)
      }
      var sceneStack = [scene]
      while let element = sceneStack.popLast() {
        if let id = element["id"], viewIDs.contains(id) { continue }
        for connection in element.child("connections")?.children ?? [] where connection.name != "segue" {
          if let destination = connection["destination"], viewIDs.contains(destination), let source = element["id"] { reach(source) }
        }
        sceneStack.append(contentsOf: element.children)
      }
      let viewID = view?["id"] ?? ""
      return ScenePlan(
        scene: scene, controller: controller, identifier: identifiers[controllerID] ?? "", view: view,
        viewNibName: controllerID + "-view-" + viewID, viewIDs: viewIDs, sceneIDs: sceneIDs,
        upstream: reached.map { ($0, UIKitStoryboardCompiler.upstreamIdentifier(viewID + "/" + $0)) })
    }

    static func collectIDs(_ root: InterfaceDocument.Element, into ids: inout Set<String>) {
      var stack = [root]
      while let element = stack.popLast() {
        // Connections and segues are not objects of either nib.
        if element.name == "connections" { continue }
        if let id = element["id"] { ids.insert(id) }
        stack.append(contentsOf: element.children)
      }
    }

    static func isPlaceholder(_ id: String, in scene: InterfaceDocument.Element) -> Bool {
      (scene.child("objects")?.children ?? []).contains { $0["id"] == id && ($0.name == "placeholder" || $0.name == "exit") }
    }

    /// The view's nib: File's Owner (the controller at run time), First Responder, the upstream
    /// placeholders, the view with the layout guides, and the connections with an end in it.
    func viewNib(_ plan: ScenePlan, view: InterfaceDocument.Element) throws(InterfaceBuilderError) -> NibGraph {
      var compiler = UIKitNibCompiler(document: document, options: options)
      let owner = compiler.graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(compiler.graph.string("IBFilesOwner")))])
      let firstResponder = compiler.graph.add(
        "UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(compiler.graph.string("IBFirstResponder")))])
      for member in plan.scene.child("objects")?.children ?? [] where member.name == "placeholder" {
        if member["placeholderIdentifier"] == "IBFirstResponder", let id = member["id"] { compiler.objectsByID[id] = firstResponder }
      }
      var upstreamProxies: [Int] = []
      for (id, name) in plan.upstream {
        let proxy = compiler.graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(compiler.graph.string(name)))])
        compiler.objectsByID[id] = proxy
        compiler.upstreamIDs.insert(id)
        upstreamProxies.append(proxy)
      }
      compiler.foreignIDs = plan.sceneIDs.subtracting(compiler.objectsByID.keys).union(allIDs.subtracting(plan.sceneIDs).subtracting(plan.viewIDs))
      guard let viewObject = try compiler.compileObject(view) else { throw compiler.invalid(view, "a controller's view that is no view") }
      compiler.topLevel = [viewObject, owner, firstResponder] + upstreamProxies
      compiler.objects.insert(contentsOf: [owner, firstResponder] + upstreamProxies, at: 1)
      try compiler.addControllerLayoutGuides(plan.controller, view: viewObject)
      // The scene's objects' connections into the view, from their placeholders.
      var stack = [plan.scene]
      while let element = stack.popLast() {
        if let id = element["id"], plan.viewIDs.contains(id) { continue }
        if let list = element.child("connections"), let id = element["id"], compiler.upstreamIDs.contains(id) {
          compiler.deferredConnections.append((list, id))
        }
        stack.append(contentsOf: element.children)
      }
      try compiler.addSegueTriggers(in: view)
      compiler.connections.append(compiler.outlet("view", from: owner, to: viewObject))
      return try compiler.finish()
    }

    /// The scene's nib: the controller (and the controllers its relationship segues embed), the
    /// scene's other objects, File's Owner, First Responder and the storyboard placeholder.
    func sceneNib(_ plan: ScenePlan) throws(InterfaceBuilderError) -> NibGraph {
      var compiler = UIKitNibCompiler(document: document, options: options)
      compiler.foreignIDs = plan.viewIDs.union(allIDs.subtracting(plan.sceneIDs))
      let owner = compiler.proxy("IBFilesOwner")
      var keepAlive: [Int] = []
      var placeholders = [owner]
      for member in plan.scene.child("objects")?.children ?? [] where member["id"] != plan.controller["id"] {
        switch member.name {
        case "placeholder":
          try compiler.compileTopLevel(member)
          if let last = compiler.topLevel.popLast() { placeholders.append(last) }
        case "exit": continue
        default:
          let before = compiler.topLevel.count
          try compiler.compileTopLevel(member)
          keepAlive += compiler.topLevel[before...]
        }
      }
      compiler.topLevel.removeAll()
      let storyboardPlaceholder = compiler.graph.add(
        "UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(compiler.graph.string("UIStoryboardPlaceholder")))])
      compiler.objects.append(storyboardPlaceholder)
      var embedding = ControllerEmbedding(storyboard: self)
      let controller = try embedding.compileController(plan, keepAlive: keepAlive, into: &compiler)
      compiler.topLevel = [controller] + keepAlive + placeholders + [storyboardPlaceholder]
      compiler.connections += [
        compiler.outlet("sceneViewController", from: owner, to: controller),
        compiler.outlet("storyboard", from: controller, to: storyboardPlaceholder),
      ]
      return try compiler.finish()
    }
  }
}

extension UIKitNibCompiler {
  /// A placeholder (`UIProxyObject`) listed among the nib's objects.
  mutating func proxy(_ identifier: String) -> Int {
    let proxy = graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(graph.string(identifier)))])
    objects.append(proxy)
    return proxy
  }

  /// An outlet connection the compiler makes itself.
  mutating func outlet(_ label: String, from source: Int, to destination: Int) -> Int {
    graph.add(
      "UIRuntimeOutletConnection",
      [.init("UILabel", .object(graph.string(label))), .init("UISource", .object(source)), .init("UIDestination", .object(destination))])
  }
}
