import Interface

// Storyboard controllers other than a window's plain content view controller: a controller's
// own nib (instantiated by identifier), tab and split view controllers with the child
// controllers their relationship segues name, and container views with their embed segues.
//
// No Apple-compiled sample in the corpus shows any of these: the keys are AppKit's, as public
// decoders of Apple's nibs and storyboards read them (GNUstep libs-gui's NSSplitViewController
// and NSSplitViewItem, public ibtool re-implementations' tab view controllers and segue
// templates). Each one compiled calls `noteUnverified`, so `ibtool --compile` warns.

extension CocoaStoryboardCompiler {
  /// The name a controller is instantiated by (its nib's name and its key in Info.plist's
  /// NSViewControllerIdentifiersToNibNames): its `storyboardIdentifier`, else its class and id,
  /// as Apple names a window controller's (`NSWindowController-<id>`).
  static func controllerNibName(_ element: InterfaceDocument.Element) -> String {
    element["storyboardIdentifier"] ?? CocoaNibCompiler.bestEffortClassName(element.name) + "-" + (element["id"] ?? "")
  }

  /// The ids of the controllers a segue other than a relationship leads to (an embed segue's
  /// destination, made by identifier when its container view loads).
  static func segueDestinations(_ document: InterfaceDocument) -> Set<String> {
    var found: Set<String> = []
    func walk(_ element: InterfaceDocument.Element) {
      if element.name == "segue", element["kind"] != "relationship", let destination = element["destination"] { found.insert(destination) }
      for child in element.children { walk(child) }
    }
    for scene in document.scenes { walk(scene) }
    return found
  }
}

extension CocoaNibCompiler {
  /// The container controllers compiled here, by tag, with their AppKit class.
  static let containerControllerClasses = ["tabViewController": "NSTabViewController", "splitViewController": "NSSplitViewController"]

  /// A scene's controller as a nib holds it, listed among the objects under `parent`: a view
  /// controller naming its view's nib (``viewControllerObject(_:)``), or a tab or split view
  /// controller with its children (``containerControllerObject(_:parent:)``); in lenient mode
  /// another controller best-effort.
  mutating func storyboardControllerObject(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    if element.name == "viewController" {
      let controller = try viewControllerObject(element)
      objectsWithParents.append((controller, parent))
      return controller
    }
    if Self.containerControllerClasses[element.name] != nil { return try containerControllerObject(element, parent: parent) }
    guard options.lenientPlan != nil else { throw unsupported(element, "a <\(element.name)> as another controller's child is not compiled yet") }
    lenientWarnings.append(
      CompilerWarning(
        path: document.path, line: element.line, element: element.name,
        detail: "as another controller's child: compiled as a best-effort controller (Apple's compilation of it is not known here)"))
    return try bestEffortController(element, parent: parent)
  }

  /// A storyboard nib for one controller, instantiated by its identifier: the controller
  /// (``storyboardControllerObject(_:parent:)``; in lenient mode a controller the compiler does
  /// not know, best-effort), the Application placeholder and an `NSStoryboardPlaceholder`; the
  /// scene owner's `sceneController` outlet to the controller and its `storyboard` outlet —
  /// the shape of Apple's window controller nibs (sb_swift_wc), unverified for other controllers.
  mutating func compileControllerScene(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> NibGraph {
    let objectData = startArchive()
    let owner = storyboardOwner()
    let controller: Int
    if element.name == "viewController" || Self.containerControllerClasses[element.name] != nil {
      controller = try storyboardControllerObject(element, parent: owner)
      noteUnverified(
        element,
        "a <\(element.name)> instantiated by identifier as a nib of its own (\(CocoaStoryboardCompiler.controllerNibName(element))) "
          + "holding the controller, with sceneController and storyboard outlets")
    } else {
      controller = try enclosing(element) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
        try compiler.bestEffortController(element, parent: owner)
      }
    }
    _ = applicationPlaceholder()
    let storyboard = externalPlaceholder("NSStoryboardPlaceholder")
    objectsWithParents.append((storyboard, owner))
    _ = outlet(from: owner, to: controller, "sceneController")
    _ = outlet(from: controller, to: storyboard, "storyboard")
    return try finishArchive(objectData)
  }

  // MARK: Tab and split view controllers

  /// `<tabViewController>` → `NSTabViewController` {NSSelectedTabViewItemIndex,
  /// NSViewControllerTabStyle, NSViewControllerTransitionOption, showSeguePresentationStyle,
  /// uniqueIdentifierForStoryboardCompilation, NSTabView (its `<tabView key="tabView">`),
  /// privateRelationshipSegueTrackingItems (its items)}, each `<tabViewItem>` an `NSTabViewItem`
  /// {NSIdentifier, NSLabel, NSColor, NSImage} whose `viewController` outlet is the child the
  /// matching `tabItems` relationship segue names, and a runtime attribute `tabViewItems`.
  ///
  /// `<splitViewController>` → `NSSplitViewController` {NSSplitView (its `<splitView
  /// key="splitView">`), NSSplitViewItems, showSeguePresentationStyle,
  /// uniqueIdentifierForStoryboardCompilation}, each `<splitViewItem>` an `NSSplitViewItem`
  /// {NSSplitViewItemViewController (the `splitItems` segue's child), NSBehavior, NSHoldingPriority,
  /// NSCanCollapse, NSCollapsed}.
  ///
  /// The children are compiled into this nib (each reaching the storyboard through an
  /// `NSStoryboardPlaceholder`), as a window controller's content is; the controller's outlets
  /// (`tabView`, `splitView`) as the document gives them.
  mutating func containerControllerObject(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    guard let className = Self.containerControllerClasses[element.name], let id = element["id"] else {
      throw invalid(element, "a container controller needs an id")
    }
    let isTab = element.name == "tabViewController"
    try checkAttributes(
      element,
      known: isTab
        ? ["sceneMemberID", "storyboardIdentifier", "showSeguePresentationStyle", "selectedTabViewItemIndex", "tabStyle"]
        : ["sceneMemberID", "storyboardIdentifier", "showSeguePresentationStyle"])
    let viewKey = isTab ? "tabView" : "splitView"
    let itemsTag = isTab ? "tabViewItems" : "splitViewItems"
    for child in element.children {
      switch child.name {
      case "connections", itemsTag: continue
      case viewKey where child["key"] == viewKey: continue
      case "viewControllerTransitionOptions" where isTab && child["key"] == "transitionOptions": continue
      default: throw unsupported(child)
      }
    }
    if let first = compiledIDs[id] { throw invalid(element, "the id \"\(id)\" is already the id of the element at line \(first); ids must be unique") }
    let controller = object(forID: id, line: element.line)
    compiledIDs[id] = element.line
    pendingReferences[id] = nil
    graph[controller].className = className
    objectsWithParents.append((controller, parent))

    // The children, in the order of the relationship segues, one per item.
    let relationship = isTab ? "tabItems" : "splitItems"
    var destinations: [InterfaceDocument.Element] = []
    var outlets = element.child("connections") ?? InterfaceDocument.Element(name: "connections")
    for connection in outlets.children where connection.name == "segue" {
      guard connection["kind"] == "relationship", connection["relationship"] == relationship else {
        throw unsupported(connection, "a <\(element.name)>'s segue other than its \(relationship) relationships is not compiled yet")
      }
      guard let destinationID = connection["destination"], let destination = index.elementsByID[destinationID],
        destination["sceneMemberID"] == "viewController"
      else { throw invalid(connection, "the segue's destination \(connection["destination"] ?? "(none)") is not a scene's controller") }
      destinations.append(destination)
    }
    outlets.children.removeAll { $0.name == "segue" }
    let itemElements = element.child(itemsTag)?.children ?? []
    guard itemElements.count == destinations.count else {
      throw invalid(element, "\(itemElements.count) <\(itemsTag)> but \(destinations.count) \(relationship) relationship segues")
    }
    guard let viewElement = element.children.first(where: { $0.name == viewKey && $0["key"] == viewKey }) else {
      throw unsupported(element, "a <\(element.name)> without its <\(viewKey) key=\"\(viewKey)\"> is not compiled yet")
    }
    let view = try compileObject(viewElement, parent: controller, superview: nil)
    var items: [Int] = []
    for (itemElement, destination) in zip(itemElements, destinations) {
      let item = try begin(itemElement, className: isTab ? "NSTabViewItem" : "NSSplitViewItem", parent: controller)
      let child = try storyboardControllerObject(destination, parent: controller)
      let placeholder = externalPlaceholder("NSStoryboardPlaceholder")
      objectsWithParents.append((placeholder, filesOwner))
      _ = outlet(from: child, to: placeholder, "storyboard")
      if isTab {
        try tabViewControllerItem(itemElement, item: item, child: child)
      } else {
        try splitViewItem(itemElement, item: item, child: child)
      }
      items.append(item)
    }

    var entries: [NibGraph.Entry] = []
    if isTab {
      let styles = ["segmentedControlOnTop": 0, "segmentedControlOnBottom": 1, "toolbar": 2, "unspecified": -1]
      guard let style = styles[element["tabStyle"] ?? "segmentedControlOnTop"] else {
        throw unsupported(element, "tabStyle \"\(element["tabStyle"] ?? "")\" is not known", attribute: "tabStyle")
      }
      guard let selected = Int(element["selectedTabViewItemIndex"] ?? "0") else {
        throw invalid(element, "selectedTabViewItemIndex \"\(element["selectedTabViewItemIndex"] ?? "")\" is not a whole number")
      }
      entries.append(.init("NSSelectedTabViewItemIndex", NibGraph.integer(selected)))
      entries.append(.init("NSViewControllerTabStyle", NibGraph.integer(style)))
      if let transitions = element.child("viewControllerTransitionOptions", key: "transitionOptions") {
        entries.append(.init("NSViewControllerTransitionOption", NibGraph.integer(try transitionOptions(transitions))))
      }
    }
    if let identifier = element["storyboardIdentifier"] { entries.append(.init("NSStoryboardIdentifier", string(identifier))) }
    entries += try presentationEntries(element, uuid: CocoaStoryboardCompiler.storyboardUUID(document, id))
    if isTab {
      entries.append(.init("NSTabView", .object(view)))
      entries.append(.init("privateRelationshipSegueTrackingItems", .object(graph.collection("NSArray", items))))
      let attributes = graph.add("NSIBUserDefinedRuntimeAttributesConnector")
      graph[attributes].entries = [
        .init("NSObject", .object(controller)),
        .init("NSValues", .object(graph.collection("NSArray", [graph.collection("NSArray", items)]))),
        .init("NSKeyPaths", .object(graph.collection("NSArray", [sharedString("tabViewItems")]))),
      ]
      lateConnections.append(attributes)
    } else {
      entries.append(.init("NSSplitView", .object(view)))
      entries.append(.init("NSSplitViewItems", .object(graph.collection("NSArray", items))))
    }
    graph[controller].entries = try swapped(element, original: className, plain: className, object: controller) + entries
    try compileConnections(outlets, source: controller)
    noteUnverified(
      element,
      isTab
        ? "<tabViewController> as NSTabViewController {NSSelectedTabViewItemIndex, NSViewControllerTabStyle, "
          + "NSViewControllerTransitionOption, NSTabView, privateRelationshipSegueTrackingItems} with its tabItems children "
          + "and a tabViewItems runtime attribute"
        : "<splitViewController> as NSSplitViewController {NSSplitView, NSSplitViewItems} with its splitItems children (GNUstep's decoder keys)")
    return controller
  }

  /// `<viewControllerTransitionOptions>` → NSViewControllerTransitionOptions: crossfade 0x1,
  /// slideUp 0x10, slideDown 0x20, slideLeft 0x40, slideRight 0x80, slideForward 0x140,
  /// slideBackward 0x180, allowUserInteraction 0x1000.
  func transitionOptions(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let flags = [
      "crossfade": 0x1, "slideUp": 0x10, "slideDown": 0x20, "slideLeft": 0x40, "slideRight": 0x80, "slideForward": 0x140,
      "slideBackward": 0x180, "allowUserInteraction": 0x1000,
    ]
    var value = 0
    for attribute in element.attributes where attribute.name != "key" {
      guard let flag = flags[attribute.name] else {
        throw unsupported(element, "<viewControllerTransitionOptions> attribute \(attribute.name) is not known", attribute: attribute.name)
      }
      if attribute.value == "YES" { value |= flag }
    }
    return value
  }

  /// A tab view controller's `<tabViewItem label image identifier>` → `NSTabViewItem`
  /// {NSIdentifier, NSLabel, NSColor (the System catalog's controlColor, as a tab view's items
  /// have, nkv_simple), NSImage}, with its `viewController` outlet to the child controller and
  /// its image also as the runtime attribute `image`.
  mutating func tabViewControllerItem(_ element: InterfaceDocument.Element, item: Int, child: Int) throws(InterfaceBuilderError) {
    try checkAttributes(element, known: ["label", "image", "identifier", "catalog"])
    if let child = element.children.first { throw unsupported(child) }
    var entries: [NibGraph.Entry] = []
    if let identifier = element["identifier"] { entries.append(.init("NSIdentifier", string(identifier))) }
    entries.append(.init("NSLabel", localizable(element["label"] ?? "", element, "label")))
    entries.append(.init("NSColor", .object(try catalogColor("controlColor", catalog: "System", element: element))))
    var image: Int?
    if let name = element["image"] {
      let made = try namedImage(name, catalog: element["catalog"], element: element)
      entries.append(.init("NSImage", .object(made)))
      image = made
    }
    graph[item].entries = entries
    _ = outlet(from: item, to: child, "viewController")
    if let image {
      let attributes = graph.add("NSIBUserDefinedRuntimeAttributesConnector")
      graph[attributes].entries = [
        .init("NSObject", .object(item)), .init("NSValues", .object(graph.collection("NSArray", [image]))),
        .init("NSKeyPaths", .object(graph.collection("NSArray", [sharedString("image")]))),
      ]
      lateConnections.append(attributes)
    }
  }

  /// `<splitViewItem behavior holdingPriority canCollapse collapsed>` → `NSSplitViewItem`
  /// {NSSplitViewItemViewController, NSBehavior (sidebar 1, contentList 2, inspector 3),
  /// NSHoldingPriority (a float), NSCanCollapse, NSCollapsed}, each written when the document
  /// gives it.
  mutating func splitViewItem(_ element: InterfaceDocument.Element, item: Int, child: Int) throws(InterfaceBuilderError) {
    try checkAttributes(element, known: ["behavior", "holdingPriority", "canCollapse", "collapsed"])
    if let child = element.children.first { throw unsupported(child) }
    var entries: [NibGraph.Entry] = [.init("NSSplitViewItemViewController", .object(child))]
    let behaviors = ["default": 0, "sidebar": 1, "contentList": 2, "inspector": 3]
    if let name = element["behavior"] {
      guard let behavior = behaviors[name] else { throw unsupported(element, "behavior \"\(name)\" is not known", attribute: "behavior") }
      entries.append(.init("NSBehavior", NibGraph.integer(behavior)))
    }
    if let text = element["holdingPriority"] {
      guard let priority = Float(text), priority.isFinite else { throw invalid(element, "holdingPriority \"\(text)\" is not a number") }
      entries.append(.init("NSHoldingPriority", .float32(priority)))
    }
    if element["canCollapse"] != nil { entries.append(.init("NSCanCollapse", .bool(element.flag("canCollapse")))) }
    if element["collapsed"] != nil { entries.append(.init("NSCollapsed", .bool(element.flag("collapsed")))) }
    graph[item].entries = entries
  }

  // MARK: Container views and embed segues

  /// The container views inside a view controller's view, each with its embed segue, in
  /// document order.
  static func embedSegues(in view: InterfaceDocument.Element) -> [(container: InterfaceDocument.Element, segue: InterfaceDocument.Element)] {
    var found: [(container: InterfaceDocument.Element, segue: InterfaceDocument.Element)] = []
    func walk(_ element: InterfaceDocument.Element) {
      if element.name == "containerView" {
        for segue in element.child("connections")?.children ?? [] where segue.name == "segue" && segue["kind"] == "embed" {
          found.append((element, segue))
        }
      }
      for child in element.children { walk(child) }
    }
    walk(view)
    return found
  }

  /// The external object an embed segue's template is in its source's view nib: the
  /// `UpstreamPlaceholder-<n>` after the controller's own (objects of the controller's nib that
  /// the view's nib refers to are numbered so).
  static func embedPlaceholderIdentifier(_ position: Int, upstream: Bool) -> String {
    "UpstreamPlaceholder-\(position + (upstream ? 2 : 1))"
  }

  /// `<segue kind="embed" destination>` → `NSStoryboardEmbedSegueTemplate` {NSIdentifier (when
  /// the segue has one), NSDestinationControllerIdentifier (the destination's name in Info.plist),
  /// NSSegueClassName (a custom segue class)}, AppKit's segue template keys.
  mutating func embedSegueTemplate(_ segue: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let destinationID = segue["destination"], let destination = index.elementsByID[destinationID],
      destination["sceneMemberID"] == "viewController"
    else { throw invalid(segue, "the embed segue's destination \(segue["destination"] ?? "(none)") is not a scene's controller") }
    var entries: [NibGraph.Entry] = []
    if let identifier = segue["identifier"] { entries.append(.init("NSIdentifier", string(identifier))) }
    entries.append(.init("NSDestinationControllerIdentifier", string(CocoaStoryboardCompiler.controllerNibName(destination))))
    if let custom = segue["customClass"] { entries.append(.init("NSSegueClassName", string(swiftClassName(custom, module: module(of: segue))))) }
    let template = graph.add("NSStoryboardEmbedSegueTemplate")
    graph[template].entries = entries
    noteUnverified(
      segue,
      "embed segue as NSStoryboardEmbedSegueTemplate {NSDestinationControllerIdentifier} in the controller's "
        + "NSStoryboardSegueTemplates, reaching its container view through an UpstreamPlaceholder")
    return template
  }

  /// `<containerView>` (storyboards) → a plain `NSView` with the view keys; its embed segue is
  /// its controller's (``embedSegueTemplate(_:)``), connected to it from the view's nib.
  mutating func compileContainerView(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    guard document.kind == .storyboard else { throw unsupported(element, "a <containerView> outside a storyboard is not compiled") }
    var plain = element
    plain.name = "view"
    if let position = plain.children.firstIndex(where: { $0.name == "connections" }) {
      let segues = plain.children[position].children.filter { $0.name == "segue" }
      if let other = segues.first(where: { $0["kind"] != "embed" }) {
        throw unsupported(other, "a container view's \(other["kind"] ?? "") segue is not compiled (only its embed segue)")
      }
      if segues.count > 1 { throw unsupported(segues[1], "a container view with more than one embed segue is not compiled") }
      plain.children[position].children.removeAll { $0.name == "segue" }
    }
    noteUnverified(element, "<containerView> as a plain NSView")
    return try compileView(plain, parent: parent, superview: superview)
  }

  // MARK: Connections across scenes

  /// Warns about each connection to an object of another scene, which ``finishArchive(_:)``
  /// leaves out of a storyboard's nib (each scene is a nib of its own, which can refer only to
  /// its own objects and to the storyboard): a warning of `ibtool --compile`, which compiles the
  /// storyboard all the same. A lenient compile of a storyboard leaves it out as the strict one
  /// does; of a xib (a connection to an object the plan left out), it warns that it did.
  mutating func noteDroppedConnection(_ id: String, line: Int, count: Int) {
    let element = index.elementsByID[id].map { "<\($0.name)> at line \($0.line)" } ?? id
    if options.lenientPlan != nil {
      guard document.kind != .storyboard else { return }
      lenientWarnings.append(
        CompilerWarning(
          path: document.path, line: line, element: "connection",
          detail: "\(count) connection(s) to \(id), \(element) outside this nib, left out"))
      return
    }
    let what = "\(count) connection(s) to \(id), \(element) in another scene, left out: a storyboard's connections cannot cross scenes"
    unverifiedWarnings.append(CompilerWarning(path: document.path, line: line, element: "connection", detail: what))
  }
}
