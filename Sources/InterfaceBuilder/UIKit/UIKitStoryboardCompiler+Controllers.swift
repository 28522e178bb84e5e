import Interface

extension UIKitStoryboardCompiler {
  /// UIViewController's keys in the order ibtool writes them. Seen in the pairs (Xcode 7.3.1):
  /// `UIExternalObjectsTableForViewLoading`, `UINibName`, `UIStoryboardIdentifier`,
  /// `UITopLevelObjectsToKeepAliveFromStoryboard`, `UIDefinesPresentationContext`,
  /// `UIModalTransitionStyle`; the others are keys UIKit's decoder reads, placed by their
  /// meaning (no Apple sample).
  static let controllerKeyOrder = [
    "UIExternalObjectsTableForViewLoading", "UINibName", "UIStoryboardIdentifier", "UITopLevelObjectsToKeepAliveFromStoryboard",
    "UIRestorationIdentifier", "UITitle", "UIStoryboardSegueTemplates", "UIParentViewController", "UIChildViewControllers",
    "UIViewControllers", "UINavigationBar", "UINavigationToolbar", "UITabBar", "UINavigationItem", "UITabBarItem", "UIToolbarItems",
    "UIHidesBottomBarWhenPushed", "UIDefinesPresentationContext", "UIProvidesPresentationContextTransitionStyle",
    "UIModalPresentationStyle", "UIModalTransitionStyle",
  ]

  static let modalTransitionStyles = ["coverVertical": 0, "flipHorizontal": 1, "crossDissolve": 2, "partialCurl": 3]
  static let modalPresentationStyles = [
    "fullScreen": 0, "pageSheet": 1, "formSheet": 2, "currentContext": 3, "custom": 4, "overFullScreen": 5, "overCurrentContext": 6,
    "popover": 7, "none": -1, "automatic": -2,
  ]

  /// The template class of each segue kind, as UIKit names them (no Apple-compiled sample in
  /// the corpus; the classes UIKit's storyboard loader decodes).
  static let segueTemplateClasses = [
    "show": "UIStoryboardShowSegueTemplate", "showDetail": "UIStoryboardShowSegueTemplate",
    "presentation": "UIStoryboardPresentationSegueTemplate", "modal": "UIStoryboardModalSegueTemplate",
    "push": "UIStoryboardPushSegueTemplate", "popoverPresentation": "UIStoryboardPopoverPresentationSegueTemplate",
    "popover": "UIStoryboardPopoverSegueTemplate", "embed": "UIStoryboardEmbedSegueTemplate", "custom": "UIStoryboardSegueTemplate",
    "unwind": "UIStoryboardUnwindSegueTemplate", "replace": "UIStoryboardReplaceSegueTemplate",
  ]

  /// Compiles scene controllers into a scene's nib, with the controllers their relationship
  /// segues embed (a navigation controller's root, a tab bar controller's tabs), each once per
  /// nib and never in a cycle.
  struct ControllerEmbedding {
    let storyboard: Storyboard
    var visiting: Set<String> = []

    init(storyboard: Storyboard) { self.storyboard = storyboard }

    mutating func compileController(
      _ plan: ScenePlan, keepAlive: [Int], parent: Int? = nil, into compiler: inout UIKitNibCompiler
    ) throws(InterfaceBuilderError) -> Int {
      let element = plan.controller
      let controllerID = element["id"] ?? ""
      visiting.insert(controllerID)
      defer { visiting.remove(controllerID) }
      let className = UIKitNibCompiler.className(of: element) ?? "UIViewController"
      let object = compiler.graph.add(className)
      try compiler.register(object, element)
      compiler.objects.append(object)
      var keys: [String: NIBArchive.Payload] = [:]
      if plan.view != nil { keys["UINibName"] = .object(compiler.graph.string(plan.viewNibName)) }
      keys["UIStoryboardIdentifier"] = .object(compiler.graph.string(plan.identifier))
      if !keepAlive.isEmpty { keys["UITopLevelObjectsToKeepAliveFromStoryboard"] = .object(compiler.graph.collection("NSArray", keepAlive)) }
      // "Use Storyboard ID" makes the storyboard identifier the restoration identifier.
      let restoration = element.flag("useStoryboardIdentifierAsRestorationIdentifier") ? element["storyboardIdentifier"] : element["restorationIdentifier"]
      if let value = restoration, !value.isEmpty { keys["UIRestorationIdentifier"] = .object(compiler.graph.string(value)) }
      if let value = element["title"] { keys["UITitle"] = .object(compiler.graph.string(value)) }
      if let parent { keys["UIParentViewController"] = .object(parent) }
      if element.flag("hidesBottomBarWhenPushed") { keys["UIHidesBottomBarWhenPushed"] = .bool(true) }
      if element.flag("definesPresentationContext") { keys["UIDefinesPresentationContext"] = .bool(true) }
      if element.flag("providesPresentationContextTransitionStyle") { keys["UIProvidesPresentationContextTransitionStyle"] = .bool(true) }
      if let style = element["modalPresentationStyle"].flatMap({ UIKitStoryboardCompiler.modalPresentationStyles[$0] }), style != 0 {
        keys["UIModalPresentationStyle"] = NibGraph.integer(style)
      }
      if let style = element["modalTransitionStyle"].flatMap({ UIKitStoryboardCompiler.modalTransitionStyles[$0] }), style != 0 {
        keys["UIModalTransitionStyle"] = NibGraph.integer(style)
      }
      // Bars and items the controller holds (not its view): compiled as the xib compiler does.
      let barKeys = ["navigationBar": "UINavigationBar", "toolbar": "UINavigationToolbar", "tabBar": "UITabBar",
                     "navigationItem": "UINavigationItem", "tabBarItem": "UITabBarItem"]
      for child in element.children {
        guard let key = child["key"].flatMap({ barKeys[$0] }), let item = try compiler.compileObject(child) else { continue }
        keys[key] = .object(item)
      }
      if let items = element.child("toolbarItems") {
        var members: [Int] = []
        for item in items.children { if let compiled = try compiler.compileObject(item) { members.append(compiled) } }
        keys["UIToolbarItems"] = .object(compiler.graph.collection("NSArray", members))
      }
      // Relationship segues embed their destinations; the other segues are templates.
      var children: [Int] = []
      var templates: [Int] = []
      for segue in element.child("connections")?.children ?? [] where segue.name == "segue" && segue["kind"] == "relationship" {
        guard let destination = segue["destination"], let child = storyboard.controllers[destination],
          let scene = storyboard.scenes.first(where: { $0.controller["id"] == destination })
        else { throw compiler.invalid(segue, "the relationship's destination \(segue["destination"] ?? "(none)") is not a scene's controller") }
        guard !visiting.contains(destination) else { throw compiler.invalid(segue, "relationship segues make a cycle through \(destination)") }
        _ = child
        let childPlan = try storyboard.plan(scene)
        // The child's view and other objects are its own scene's nibs'.
        compiler.foreignIDs.formUnion(childPlan.viewIDs.union(childPlan.sceneIDs))
        children.append(try compileController(childPlan, keepAlive: [], parent: object, into: &compiler))
      }
      var sceneStack = [plan.scene]
      while let next = sceneStack.popLast() {
        for segue in next.child("connections")?.children ?? [] where segue.name == "segue" && segue["kind"] != "relationship" {
          templates.append(try compiler.segueTemplate(segue, identifiers: storyboard.identifiers))
        }
        sceneStack.append(contentsOf: next.children.reversed())
      }
      // An embedded child (a navigation controller's root) is the instance its container uses:
      // it performs its own segues, so its templates are in the container's nib too.
      if !templates.isEmpty { keys["UIStoryboardSegueTemplates"] = .object(compiler.graph.collection("NSArray", templates)) }
      if !children.isEmpty {
        keys["UIChildViewControllers"] = .object(compiler.graph.collection("NSArray", children))
        if element.name == "navigationController" || element.name == "tabBarController" {
          keys["UIViewControllers"] = .object(compiler.graph.collection("NSArray", children))
        }
      }
      // The objects the view's nib reaches through its upstream placeholders.
      if plan.view != nil {
        var table: [Int] = []
        for (id, name) in plan.upstream {
          guard let target = id == controllerID ? object : compiler.objectsByID[id] else { continue }
          table += [compiler.graph.string(name), target]
        }
        keys["UIExternalObjectsTableForViewLoading"] = .object(compiler.graph.collection("NSDictionary", table))
      }
      var entries = UIKitStoryboardCompiler.controllerKeyOrder.compactMap { key in keys[key].map { NibGraph.Entry(key, $0) } }
      if let custom = compiler.customClassName(element) {
        compiler.graph[object].className = "UIClassSwapper"
        entries += [.init("UIClassName", .object(compiler.graph.string(custom))), .init("UIOriginalClassName", .object(compiler.graph.string(className)))]
      }
      compiler.graph[object].entries = entries
      if parent == nil {
        if let list = element.child("connections") { compiler.deferredConnections.append((list, controllerID)) }
        if let attributes = element.child("userDefinedRuntimeAttributes") { try compiler.compileRuntimeAttributes(attributes, object: object) }
        try compiler.addSegueTriggers(in: plan.scene, skipping: plan.viewIDs)
      }
      return object
    }
  }
}

extension UIKitNibCompiler {
  /// A segue's template (`UIStoryboard…SegueTemplate`): `UIIdentifier`, the destination scene's
  /// identifier (`UIDestinationViewControllerIdentifier`), a custom segue's class
  /// (`UISegueClassName`), the action a show or unwind segue sends (`UIActionName`), an embed
  /// segue performed when the view loads (`UIPerformOnViewLoad`), `UIAnimates` when not animated.
  mutating func segueTemplate(_ segue: InterfaceDocument.Element, identifiers: [String: String]) throws(InterfaceBuilderError) -> Int {
    guard let kind = segue["kind"], let className = UIKitStoryboardCompiler.segueTemplateClasses[kind] else {
      throw invalid(segue, "a segue of kind \(segue["kind"] ?? "(none)"), which UIKit does not know")
    }
    var entries: [NibGraph.Entry] = []
    if let identifier = segue["identifier"] { entries.append(.init("UIIdentifier", .object(graph.string(identifier)))) }
    if let custom = segue["customClass"] { entries.append(.init("UISegueClassName", .object(graph.string(custom)))) }
    if kind == "unwind" {
      guard let action = segue["unwindAction"] else { throw invalid(segue, "an unwind segue needs an unwindAction") }
      entries.append(.init("UIActionName", .object(graph.string(action))))
    } else {
      guard let destination = segue["destination"], let name = identifiers[destination] else {
        throw invalid(segue, "the segue's destination \(segue["destination"] ?? "(none)") is not a scene's view controller")
      }
      entries.append(.init("UIDestinationViewControllerIdentifier", .object(graph.string(name))))
    }
    if kind == "show" { entries.append(.init("UIActionName", .object(graph.string("showViewController:sender:")))) }
    if kind == "showDetail" { entries.append(.init("UIActionName", .object(graph.string("showDetailViewController:sender:")))) }
    if kind == "embed" { entries.append(.init("UIPerformOnViewLoad", .bool(true))) }
    if segue["animates"] == "NO" { entries.append(.init("UIAnimates", .bool(false))) }
    if kind == "presentation" || kind == "modal" {
      if let style = segue["modalPresentationStyle"].flatMap({ UIKitStoryboardCompiler.modalPresentationStyles[$0] }) {
        entries.append(.init("UIModalPresentationStyle", NibGraph.integer(style)))
      }
      if let style = segue["modalTransitionStyle"].flatMap({ UIKitStoryboardCompiler.modalTransitionStyles[$0] }) {
        entries.append(.init("UIModalTransitionStyle", NibGraph.integer(style)))
      }
    }
    let template = graph.add(className, entries)
    try register(template, segue)
    objects.append(template)
    return template
  }

  /// The `perform:` actions from the controls, items and gesture recognizers under `root` that
  /// start a segue to its template (in this nib, or its upstream placeholder); a cell's selection
  /// is its table's to act on, an embed or relationship segue starts itself.
  mutating func addSegueTriggers(in root: InterfaceDocument.Element, skipping: Set<String> = []) throws(InterfaceBuilderError) {
    var stack = [root]
    while let element = stack.popLast() {
      if let id = element["id"], skipping.contains(id) { continue }
      stack.append(contentsOf: element.children.reversed())
      guard let sourceID = element["id"], let source = objectsByID[sourceID], !Self.nonViews.contains(element.name) || element.name == "barButtonItem"
        || element.name.hasSuffix("GestureRecognizer")
      else { continue }
      if Self.cells.contains(element.name) { continue }
      for segue in element.child("connections")?.children ?? [] where segue.name == "segue" {
        guard segue["kind"] != "relationship", segue["kind"] != "embed", let id = segue["id"], let template = objectsByID[id] else { continue }
        var entries: [NibGraph.Entry] = [
          .init("UILabel", .object(graph.string("perform:"))), .init("UISource", .object(source)), .init("UIDestination", .object(template)),
        ]
        if !Self.nonViews.contains(element.name) { entries.append(.init("UIEventMask", NibGraph.integer(Self.eventMasks["touchUpInside"] ?? 64))) }
        connections.append(graph.add("UIRuntimeEventConnection", entries))
      }
    }
  }

  /// A controller's top and bottom layout guides (`<viewControllerLayoutGuide>`), as ibtool
  /// archives them in the view's nib: `_UILayoutGuide` views after the view's subviews, hidden,
  /// with `_UILayoutGuideIdentifier` (`_UIViewControllerTop`/`_UIViewControllerBottom`), a
  /// `_UILayoutSupportConstraint` of width 0 at priority 999, and the constraints that pin them
  /// to the view until the controller places them (`_UILayoutGuideConstraintsToRemove`: leading,
  /// the top or the bottom edge, a height of 0), which the view also holds. Neither kind of
  /// constraint is listed among the nib's objects. Evidence: every scene of the MPNotification and
  /// MPSurvey pairs (Xcode 7.3.1).
  mutating func addControllerLayoutGuides(_ controller: InterfaceDocument.Element, view: Int) throws(InterfaceBuilderError) {
    var guides: [Int] = []
    var pinning: [Int] = []
    for element in controller.child("layoutGuides")?.children ?? [] where element.name == "viewControllerLayoutGuide" {
      let top = element["type"] != "bottom"
      let guide = graph.add("_UILayoutGuide", fallbacks: ["UIView"])
      try register(guide, element)
      objects.append(guide)
      let support = systemConstraint("_UILayoutSupportConstraint", guide, 7, nil, 0, priority: 999)
      let toRemove =
        top
        ? [systemConstraint("NSLayoutConstraint", guide, 5, view, 5), systemConstraint("NSLayoutConstraint", guide, 3, view, 3),
           systemConstraint("NSLayoutConstraint", guide, 8, nil, 0)]
        : [systemConstraint("NSLayoutConstraint", guide, 5, view, 5), systemConstraint("NSLayoutConstraint", guide, 8, nil, 0),
           systemConstraint("NSLayoutConstraint", view, 4, guide, 4)]
      var base: [String: NIBArchive.Payload] = [
        "UIOpaque": .bool(true), "UIHidden": .bool(true), "UIAutoresizeSubviews": .bool(true),
        "UIViewDoesNotTranslateAutoresizingMaskIntoConstraints": .bool(true),
        "UIViewAutolayoutConstraints": .object(graph.collection("NSMutableArray", [support])),
        "UIViewSemanticContentAttribute": NibGraph.integer(0),
      ]
      if options.xcode >= 800 { base["UIDeepDrawRect"] = .bool(true) }
      if options.xcode >= 1100 { base["UIViewLargeContentStoredProperties"] = .null }
      graph[guide].entries = Self.keyOrder.compactMap { key in base[key].map { NibGraph.Entry(key, $0) } } + [
        .init("_UILayoutGuideIdentifier", .object(graph.string(top ? "_UIViewControllerTop" : "_UIViewControllerBottom"))),
        .init("_UILayoutGuideConstraintsToRemove", .object(graph.collection("NSArray", toRemove))),
      ]
      guides.append(guide)
      pinning += toRemove
    }
    guard !guides.isEmpty else { return }
    if case .object(let list)? = graph[view]["UISubviews"] {
      graph.objects[list].entries += guides.map { NibGraph.Entry("UINibEncoderEmptyKey", .object($0)) }
    } else {
      graph.objects[view].entries.insertOrdered(.init("UISubviews", .object(graph.collection("NSMutableArray", guides))))
    }
    appendConstraints(pinning, to: view)
  }
}
