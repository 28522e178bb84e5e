internal import ObjectModel

/// A view controller (`UIViewController` / `NSViewController`), headless: its view (loaded on
/// first use from its nib), title, items, restoration identifier, storyboard, parent and children,
/// and segues.
///
/// The stored properties that view loading, containment and restoration touch for every
/// controller (the loaded view, its loader, the children and parent link, the presented
/// controller, the restoration identifier and class name) have no run-time exclusivity checks:
/// controllers are `@MainActor`, and each of these is read or assigned whole, or changed in place
/// by the controller's own methods with no call that could reach the same property while the
/// change is under way. Only a program passing one of them `inout` while assigning it again would
/// lose the check's trap. The checks were a few percent of a 10,000-node restore (profiled).
open class ViewController: Responder {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(viewIfLoaded)
    for child in children { references.keep(child) }
    references.keep(presentedViewController)
    references.keep(tabBarItem)
    references.keep(navigationItemStorage)
  }
  @exclusivity(unchecked) private var loadedView: View?
  /// Loads the view from the controller's nib when it is first asked for (the nib loader sets it
  /// for a storyboard scene's `NSNibName`).
  @exclusivity(unchecked) public var viewLoader: ((ViewController) throws -> View?)?
  /// The error of the last failed view load (``view`` cannot throw).
  @exclusivity(unchecked) public private(set) var viewLoadingError: (any Error)?
  /// `title`.
  public var title: String?
  /// `nibName`: the nib that holds the view.
  public var nibName: String?
  /// The storyboard identifier the controller was made under.
  public var storyboardIdentifier: String?
  /// `storyboard`: where the controller came from (kept alive by the controller, as UIKit does,
  /// so that segues and lazy views still work after the caller drops the storyboard).
  public var storyboard: (any ViewControllerSource)?
  /// `restorationIdentifier`.
  @exclusivity(unchecked) public var restorationIdentifier: String?
  /// The name of the restoration class (`restorationClass`), when one is set.
  @exclusivity(unchecked) public var restorationClassName: String?
  /// `navigationItem`: made when it is first asked for, as UIKit makes it (most controllers
  /// never use theirs; making one for every controller was an object per controller made and
  /// freed — profiled in restoring thousands of controllers).
  public var navigationItem: NavigationItem {
    get {
      if let navigationItemStorage { return navigationItemStorage }
      let made = NavigationItem()
      navigationItemStorage = made
      return made
    }
    set { navigationItemStorage = newValue }
  }
  private var navigationItemStorage: NavigationItem?
  /// `tabBarItem`.
  public var tabBarItem: TabBarItem?
  /// `children` / `childViewControllers`.
  @exclusivity(unchecked) public private(set) var children: [ViewController] = []

  isolated deinit {
    // Children and a view that live on (held elsewhere) must not keep a link to this controller.
    for child in children where child.parentLink === self { child.parentLink = nil }
    if let loadedView, loadedView.viewController === self { loadedView.viewController = nil }
  }
  /// `parent` / `parentViewController`, not retained.
  public var parent: ViewController? { parentLink }
  /// The parent, unretained and without Swift `weak` (which gives every child a side table and
  /// slows each retain of it): the parent holds its children, and clears their link when it
  /// lets one go (`removeFromParent`) or goes itself (`deinit`), so it never dangles.
  @exclusivity(unchecked) private unowned(unsafe) var parentLink: ViewController?
  /// `presentedViewController`.
  @exclusivity(unchecked) public private(set) var presentedViewController: ViewController?
  /// `presentingViewController`, weak.
  public private(set) weak var presentingViewController: ViewController?
  /// The segues the storyboard gave the controller.
  public var segueTemplates: [SegueTemplate] = []
  /// The relationship segues of a container (`rootViewController`, `viewControllers`): the
  /// storyboard fills the container's children from them.
  public var relationshipSegues: [(relationship: String, destination: String)] = []
  /// The archived templates, kept alive: controls that start a segue target them (weakly).
  private var segueTemplateObjects: [SegueTemplateObject] = []
  private var viewLoadingExternals: [(name: String, object: WeakReference)] = []

  /// The objects the view's nib refers to as external objects, by identifier
  /// (`NSExternalObjectsTableForViewLoading`: in a storyboard, the controller itself as
  /// `UpstreamPlaceholder-1`). Held weakly.
  public var externalObjectsForViewLoading: [String: AnyObject] {
    var table: [String: AnyObject] = [:]
    for entry in viewLoadingExternals { if let object = entry.object.object { table[entry.name] = object } }
    return table
  }

  public required init() { super.init() }

  /// `view`: loaded (``loadViewIfNeeded()``) on first use; a failed load leaves it `nil` and the
  /// error in ``viewLoadingError``.
  public var view: View? {
    get {
      if loadedView == nil { try? loadViewIfNeeded() }
      return loadedView
    }
    set { setView(newValue) }
  }

  /// The view if it is loaded (`viewIfLoaded`).
  public var viewIfLoaded: View? { loadedView }
  /// `isViewLoaded`.
  public var isViewLoaded: Bool { loadedView != nil }

  /// Loads the view now if it is not loaded (`loadViewIfNeeded`), then calls ``viewDidLoad()``.
  public func loadViewIfNeeded() throws {
    guard loadedView == nil else { return }
    do {
      let loaded = try viewLoader?(self) ?? View()
      if loadedView == nil { setView(loaded) }
      viewLoadingError = nil
      viewDidLoad()
    } catch {
      viewLoadingError = error
      throw error
    }
  }

  private func setView(_ newView: View?) {
    if let loadedView, loadedView.viewController === self { loadedView.viewController = nil }
    loadedView = newView
    newView?.viewController = self
    if let newView, let hostingWindow { hostingWindow.contentView = newView }
  }

  /// The window whose root (content) view controller this is, weak.
  public internal(set) weak var hostingWindow: Window?

  /// Called once after the view is loaded (`viewDidLoad`). Subclasses call `super`.
  open func viewDidLoad() {}

  /// Called on a memory warning (`didReceiveMemoryWarning`): drop what can be rebuilt. Since
  /// iOS 6 the view is kept. Subclasses call `super`.
  open func didReceiveMemoryWarning() {}

  /// This controller and every controller under it — children, then what it presents — depth
  /// first (at most 10,000).
  public var controllerTree: [ViewController] {
    var result: [ViewController] = []
    var stack: [ViewController] = [self]
    var seen: Set<ObjectIdentifier> = []
    while let controller = stack.popLast(), result.count < 10_000 {
      guard seen.insert(ObjectIdentifier(controller)).inserted else { continue }
      result.append(controller)
      if let presented = controller.presentedViewController { stack.append(presented) }
      stack.append(contentsOf: controller.children.reversed())
    }
    return result
  }

  /// Adds `child` (`addChildViewController:`), taking it from its old parent.
  public func addChild(_ child: ViewController) {
    // A controller cannot become a child of itself or of one of its own children (a cycle).
    var ancestor: ViewController? = self
    var steps = 0
    while let current = ancestor, steps < 10_000 {
      if current === child { return }
      ancestor = current.parent
      steps += 1
    }
    child.removeFromParent()
    children.append(child)
    child.parentLink = self
  }

  /// Makes `controllers` the children, in that order (what containers' `setViewControllers`
  /// does): the others leave, the ones already children move into place.
  func replaceChildren(with controllers: [ViewController]) {
    for child in children where !controllers.contains(where: { $0 === child }) { child.removeFromParent() }
    // Room for the new ones at once (a restored navigation stack of hundreds grew by doubling).
    children.reserveCapacity(children.count + controllers.count)
    for controller in controllers { addChild(controller) }
  }

  /// Takes the controller from its parent (`removeFromParentViewController`).
  public func removeFromParent() {
    parentLink?.children.removeAll { $0 === self }
    parentLink = nil
  }

  /// Presents `controller` modally (`presentViewController:animated:completion:`).
  public func present(_ controller: ViewController) {
    // Presenting a controller that is this one or presents it would be a cycle.
    var presenter: ViewController? = self
    var steps = 0
    while let current = presenter, steps < 10_000 {
      if current === controller { return }
      presenter = current.presentingViewController
      steps += 1
    }
    presentedViewController = controller
    controller.presentingViewController = self
  }

  /// Dismisses the controller this one presented (`dismissViewControllerAnimated:completion:`).
  public func dismiss() {
    presentedViewController?.presentingViewController = nil
    presentedViewController = nil
  }

  /// The nearest navigation controller above (`navigationController`).
  public var navigationController: NavigationController? { ancestor(NavigationController.self) }
  /// The nearest tab bar controller above (`tabBarController`).
  public var tabBarController: TabBarController? { ancestor(TabBarController.self) }

  private func ancestor<Container: ViewController>(_ type: Container.Type) -> Container? {
    var current = parent
    var steps = 0
    while let controller = current, steps < 1_000 {
      if let found = controller as? Container { return found }
      current = controller.parent
      steps += 1
    }
    return nil
  }

  /// UIKit's rule: the view's superview; for a window's root view, the window; else the parent
  /// or the presenting controller.
  open override var nextResponder: Responder? {
    assignedNextResponder ?? loadedView?.superview ?? loadedView?.window ?? parent ?? presentingViewController
  }

  // MARK: - State restoration (UIStateRestoring)

  /// The schema version of what ``encodeRestorableState(with:)`` writes; raise it when the
  /// state's keys change, and register a migration with the `Restoration` module.
  open class var restorableStateVersion: Int { 0 }

  /// Writes the controller's restorable state (`encodeRestorableStateWithCoder:`): here, the
  /// controller it presents. Subclasses call `super`.
  open func encodeRestorableState(with coder: any RestorableStateEncoder) {
    if let presentedViewController { coder.encodeRestorableObject(presentedViewController, forKey: RestorableStateKey.presentedViewController) }
  }

  /// Reads the state back (`decodeRestorableStateWithCoder:`): here, presents the restored
  /// controller it presented. Subclasses call `super`.
  open func decodeRestorableState(with coder: any RestorableStateDecoder) {
    if let presented = coder.decodeRestorableObject(forKey: RestorableStateKey.presentedViewController) as? ViewController {
      present(presented)
    }
  }

  /// Called once every restored object has decoded its state (`applicationFinishedRestoringState`).
  open func applicationFinishedRestoringState() {}

  // MARK: - Segues

  /// Whether the segue may run (`shouldPerformSegueWithIdentifier:sender:`); `true` here.
  open func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool { true }

  /// Called before a segue runs, to pass data to its destination (`prepareForSegue:sender:`).
  open func prepare(for segue: StoryboardSegue, sender: Any?) {}

  /// Runs the segue `identifier` (`performSegueWithIdentifier:sender:`): asks
  /// ``shouldPerformSegue(withIdentifier:sender:)``, makes the destination from the storyboard,
  /// calls ``prepare(for:sender:)``, then shows it — pushed on the navigation controller for
  /// `show`/`push` when there is one, presented otherwise. Answers the segue, or `nil` when
  /// ``shouldPerformSegue(withIdentifier:sender:)`` said no.
  ///
  /// - Throws: `InterfaceObjectsError.Code.invalidValue` when the controller has no
  ///   segue of that identifier or no storyboard; the storyboard's error when the destination
  ///   cannot be made.
  @discardableResult
  public func performSegue(withIdentifier identifier: String, sender: Any?) throws -> StoryboardSegue? {
    guard let template = segueTemplates.first(where: { $0.identifier == identifier }) else {
      throw InterfaceObjectsError(
        .invalidValue, className: String(describing: type(of: self)), key: identifier,
        detail: "the view controller has no segue with identifier \(identifier)")
    }
    guard shouldPerformSegue(withIdentifier: identifier, sender: sender) else { return nil }
    if template.kind == "unwind", let action = template.unwindAction {
      return try unwind(action: action, identifier: identifier, sender: sender)
    }
    guard let storyboard else {
      throw InterfaceObjectsError(
        .invalidValue, className: String(describing: type(of: self)), key: identifier,
        detail: "the view controller was not made by a storyboard, so its segue \(identifier) has nowhere to come from")
    }
    let destination = try storyboard.instantiateViewController(withIdentifier: template.destination)
    let segue = StoryboardSegue(identifier: identifier, kind: template.kind, source: self, destination: destination)
    prepare(for: segue, sender: sender)
    if ["show", "push"].contains(template.kind), let navigation = self as? NavigationController ?? navigationController {
      navigation.pushViewController(destination)
    } else {
      present(destination)
    }
    return segue
  }

  /// An unwind segue, searched as UIKit does: from this controller outwards, first the
  /// controllers below each one in its navigation stack (nearest first), then its parent or the
  /// controller that presented it. The first that has the unwind action gets it; everything
  /// presented above it is dismissed and its navigation stack is popped back to it.
  private func unwind(action: String, identifier: String, sender: Any?) throws -> StoryboardSegue? {
    var current: ViewController? = self
    var steps = 0
    while let node = current, steps < 1_000 {
      steps += 1
      if let navigation = node.parent as? NavigationController, let position = navigation.children.firstIndex(where: { $0 === node }) {
        for candidate in navigation.children[..<position].reversed() where candidate.responds(to: action) {
          return try finishUnwind(to: candidate, action: action, identifier: identifier, sender: sender)
        }
      }
      let next = node.parent ?? node.presentingViewController
      if let next, next.responds(to: action) {
        return try finishUnwind(to: next, action: action, identifier: identifier, sender: sender)
      }
      current = next
    }
    throw InterfaceObjectsError(
      .invalidValue, className: String(describing: type(of: self)), key: identifier,
      detail: "no view controller this one came from has the unwind action \(action)")
  }

  private func finishUnwind(to destination: ViewController, action: String, identifier: String, sender: Any?) throws -> StoryboardSegue {
    let segue = StoryboardSegue(identifier: identifier, kind: "unwind", source: self, destination: destination)
    prepare(for: segue, sender: sender)
    try destination.perform(action: action, sender: segue)
    destination.dismiss()
    if let navigation = destination.parent as? NavigationController {
      while let top = navigation.topViewController, top !== destination, navigation.viewControllers.count > 1 { navigation.popViewController() }
    }
    return segue
  }

  public static let viewControllerKeys = NibKeyTable(for: ViewController.self) {
    // Not through the key path: setting a computed property by key path reads it first, and
    // reading `view` loads it — from inside the very nib that is setting it.
    $0.key("view", get: { $0.viewIfLoaded }, set: { controller, view in controller.setView(view) })
    $0.string(\.nibName, from: "NSNibName", "UINibName", key: "nibName") { $0.nibName = $1 }
    $0.string(\.title, from: "NSTitle", "UITitle", key: "title") { $0.title = $1 }
    $0.string(\.restorationIdentifier, from: "UIRestorationIdentifier", key: "restorationIdentifier") { $0.restorationIdentifier = $1 }
    $0.string(\.storyboardIdentifier, from: "UIStoryboardIdentifier") { $0.storyboardIdentifier = $1 }
    $0.decode { controller, coder throws(InterfaceObjectsError) in try controller.decodeViewAndScene(from: coder) }
    $0.readOnlyKey("navigationItem", \.navigationItem)
    $0.key("tabBarItem", \.tabBarItem)
    $0.key("storyboard", get: { $0.storyboard }, set: { controller, storyboard in controller.storyboard = storyboard })
    $0.readOnlyKey("children", \.children)
  }
  open override class var nibKeyTable: NibKeyTable { viewControllerKeys }

  /// The view (`NSView`/`UIView`), the objects a storyboard view's nib reaches upstream, the
  /// navigation and tab bar items, the children and the segue templates.
  private func decodeViewAndScene(from coder: NibCoder) throws(InterfaceObjectsError) {
    if let view = try coder.decodeObject(forKey: "NSView", as: View.self) {
      setView(view)
    } else if let view = try coder.decodeObject(forKey: "UIView", as: View.self) {
      setView(view)
    }
    // AppKit's and UIKit's names for the objects a storyboard view's nib reaches upstream.
    var externals = try coder.decodeObject(forKey: "NSExternalObjectsTableForViewLoading")
    if externals == nil { externals = try coder.decodeObject(forKey: "UIExternalObjectsTableForViewLoading") }
    if let table = externals as? [String: Any] {
      viewLoadingExternals = table.sorted { $0.key < $1.key }.compactMap { name, value in
        type(of: value) is AnyClass ? (name, WeakReference(value as AnyObject)) : nil
      }
    }
    if let item = try coder.decodeObject(forKey: "UINavigationItem", as: NavigationItem.self) { navigationItem = item }
    tabBarItem = try coder.decodeObject(forKey: "UITabBarItem", as: TabBarItem.self)
    for child in try coder.decodeArray(forKey: "UIChildViewControllers", of: ViewController.self) { addChild(child) }
    segueTemplateObjects = try coder.decodeArray(forKey: "UIStoryboardSegueTemplates", of: SegueTemplateObject.self)
    for record in segueTemplateObjects {
      record.sourceViewController = self
      if let relationship = record.relationship {
        relationshipSegues.append((relationship, record.template.destination))
      } else {
        segueTemplates.append(record.template)
      }
    }
  }
}
