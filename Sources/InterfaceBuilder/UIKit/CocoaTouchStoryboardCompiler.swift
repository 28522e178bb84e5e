internal import Interface
internal import PropertyLists

/// Compiles an iOS storyboard into what the nib loader's `Storyboard` reads: an `Info.plist`
/// (`UIStoryboardDesignatedEntryPointIdentifier`, `UIViewControllerIdentifiersToNibNames`,
/// `UIStoryboardVersion`) and one UIKit graph per scene (``CocoaTouchCompiler``'s encoding —
/// Stasis's own, not Apple's bytes).
///
/// A scene's nib holds its view controller and everything under it; its File's Owner receives
/// the controller through the `sceneViewController` outlet, and the controller's `storyboard`
/// outlet points at the external object `UIStoryboardPlaceholder`. Segues become
/// `UIStoryboardSegueTemplate` objects in the controller's `UIStoryboardSegueTemplates`
/// (`UIIdentifier`, `UIKind`, `UIDestinationViewControllerIdentifier`, `UIUnwindAction`,
/// `UIRelationship`); a segue started by a control or a bar button item is also an action
/// `perform:` from it to the template, as in UIKit. A scene without a `storyboardIdentifier` is
/// named `UIViewController-<id>`.
public enum CocoaTouchStoryboardCompiler {
  public static func compile(_ document: InterfaceDocument) throws(InterfaceBuilderError) -> CompiledStoryboardOutput {
    try compile(document, lenient: false)
  }

  /// Compiles an iOS storyboard for the nib loader in lenient mode: as ``compile(_:)`` does, a
  /// connection from an object of one scene to an object of another left out — Interface Builder
  /// does not let one make such a connection (each scene is a nib of its own, which can only refer
  /// to the objects it holds and to the storyboard), so it comes only from an edited or pasted
  /// document; UIKit never sees it — but without the warning ``compile(_:)`` files under the
  /// scene's nib for `ibtool --compile`.
  public static func compileLeniently(_ document: InterfaceDocument) throws(InterfaceBuilderError) -> CompiledStoryboardOutput {
    try compile(document, lenient: true)
  }

  static func compile(_ document: InterfaceDocument, lenient: Bool) throws(InterfaceBuilderError) -> CompiledStoryboardOutput {
    guard document.platform == .iOS, document.kind == .storyboard else {
      throw InterfaceBuilderError(.unsupported, path: document.path, line: document.root.line, detail: "not an iOS storyboard")
    }
    let document = try document.withTextChildrenAsAttributes()
    let localizableKeys = Set(StringsExport(document).entries.map(\.key))
    // Every scene's controller and its identifier, first: segues name destinations by id.
    var identifiers: [String: String] = [:]
    var controllers: [(scene: InterfaceDocument.Element, controller: InterfaceDocument.Element)] = []
    for scene in document.scenes {
      let members = scene.child("objects")?.children ?? []
      guard let controller = members.first(where: { $0["sceneMemberID"] == "viewController" }), let id = controller["id"] else {
        throw InterfaceBuilderError(.unsupported, path: document.path, line: scene.line, detail: "a scene without a view controller")
      }
      let identifier = controller["storyboardIdentifier"] ?? "UIViewController-" + id
      guard !identifiers.values.contains(identifier), !identifier.contains("/"), !identifier.hasPrefix(".") else {
        throw InterfaceBuilderError(
          .invalidDocument, path: document.path, line: controller.line, detail: "the storyboard identifier \(identifier) is repeated or not a file name")
      }
      identifiers[id] = identifier
      controllers.append((scene, controller))
    }
    var allIDs: Set<String> = []
    var stack = [document.root]
    while let element = stack.popLast() {
      if let id = element["id"] { allIDs.insert(id) }
      stack.append(contentsOf: element.children)
    }
    var nibs: [(name: String, graph: NibGraph)] = []
    var warnings: [String: [CompilerWarning]] = [:]
    for (scene, controller) in controllers {
      var compiler = CocoaTouchCompiler(document: document, localizableKeys: localizableKeys)
      compiler.otherScenesIDs = allIDs
      let owner = compiler.graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(compiler.string("IBFilesOwner")))])
      let storyboard = compiler.graph.add(
        "UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(compiler.string("UIStoryboardPlaceholder")))])
      compiler.objects += [owner, storyboard]
      compiler.topLevel += [owner, storyboard]
      for member in scene.child("objects")?.children ?? [] { try compiler.compileTopLevel(member) }
      let controllerObject = try compiler.object(controller["id"], for: controller)
      try compiler.compileDeferred()
      try addSegues(&compiler, controller: controllerObject, identifiers: identifiers)
      compiler.connections += [
        compiler.graph.add(
          "UIRuntimeOutletConnection",
          [
            .init("UILabel", .object(compiler.string("sceneViewController"))), .init("UISource", .object(owner)),
            .init("UIDestination", .object(controllerObject)),
          ]),
        compiler.graph.add(
          "UIRuntimeOutletConnection",
          [
            .init("UILabel", .object(compiler.string("storyboard"))), .init("UISource", .object(controllerObject)),
            .init("UIDestination", .object(storyboard)),
          ]),
      ]
      let name = identifiers[controller["id"] ?? ""] ?? ""
      nibs.append((name, try compiler.finish()))
      // A connection to another scene's object is left out in both modes: a warning of
      // `ibtool --compile`; a lenient compile (the loader's) has nothing else to report.
      if !lenient, !compiler.crossSceneWarnings.isEmpty { warnings[name] = compiler.crossSceneWarnings }
    }
    let table = identifiers.values.sorted().map { ($0, PropertyListValue.string($0)) }
    var info: [(String, PropertyListValue)] = []
    if let initial = document.root["initialViewController"] {
      guard let identifier = identifiers[initial] else {
        throw InterfaceBuilderError(
          .invalidDocument, path: document.path, line: document.root.line, detail: "the initial view controller \(initial) is not a scene")
      }
      info.append(("UIStoryboardDesignatedEntryPointIdentifier", .string(identifier)))
    }
    info.append(("UIViewControllerIdentifiersToNibNames", .dictionary(PropertyListDictionary(table))))
    info.append(("UIStoryboardVersion", .integer(1)))
    return CompiledStoryboardOutput(info: .dictionary(PropertyListDictionary(info)), nibs: nibs, warnings: warnings)
  }

  /// The scene's segues as templates on its controller (and `perform:` actions from the controls
  /// that start them).
  static func addSegues(
    _ compiler: inout CocoaTouchCompiler, controller: Int, identifiers: [String: String]
  ) throws(InterfaceBuilderError) {
    var templates: [Int] = []
    for (segue, sourceID) in compiler.segues {
      guard let kind = segue["kind"] else { throw compiler.invalid(segue, "a segue needs a kind") }
      var entries: [NibGraph.Entry] = [.init("UIKind", .object(compiler.string(kind)))]
      let identifier = segue["identifier"] ?? segue["id"] ?? ""
      entries.append(.init("UIIdentifier", .object(compiler.string(identifier))))
      if kind == "unwind" {
        guard let action = segue["unwindAction"] else { throw compiler.invalid(segue, "an unwind segue needs an unwindAction") }
        entries.append(.init("UIUnwindAction", .object(compiler.string(action))))
      } else {
        guard let destination = segue["destination"], let name = identifiers[destination] else {
          throw compiler.invalid(segue, "the segue's destination \(segue["destination"] ?? "(none)") is not a scene's view controller")
        }
        entries.append(.init("UIDestinationViewControllerIdentifier", .object(compiler.string(name))))
      }
      if kind == "relationship" {
        guard let relationship = segue["relationship"] else { throw compiler.invalid(segue, "a relationship segue needs its relationship") }
        entries.append(.init("UIRelationship", .object(compiler.string(relationship))))
      }
      let template = compiler.graph.add("UIStoryboardSegueTemplate", entries)
      compiler.objects.append(template)
      templates.append(template)
      let source = try compiler.object(sourceID, for: segue)
      guard source != controller, let sourceElement = compiler.elementsByID[sourceID] else { continue }
      // A control or bar button item starts its segue with the action perform: (a cell's
      // selection is the table view controller's to act on).
      var action: [NibGraph.Entry] = [
        .init("UILabel", .object(compiler.string("perform:"))), .init("UISource", .object(source)),
        .init("UIDestination", .object(template)),
      ]
      switch sourceElement.name {
      case "barButtonItem": break
      case "tableViewCell", "collectionViewCell": continue
      default: action.append(.init("UIEventMask", NibGraph.integer(1 << 6)))
      }
      compiler.connections.append(compiler.graph.add("UIRuntimeEventConnection", action))
    }
    if !templates.isEmpty {
      compiler.graph[controller].entries.append(
        .init("UIStoryboardSegueTemplates", .object(compiler.graph.collection("NSArray", templates))))
    }
  }
}

