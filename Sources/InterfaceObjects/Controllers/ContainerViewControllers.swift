/// A navigation controller (`UINavigationController`): a stack of view controllers.
open class NavigationController: ViewController {
  public required init() { super.init() }

  /// `viewControllers`: the stack, root first.
  public var viewControllers: [ViewController] { children }
  /// `topViewController`.
  public var topViewController: ViewController? { children.last }

  /// Pushes `controller` on the stack (`pushViewController:animated:`).
  public func pushViewController(_ controller: ViewController) { addChild(controller) }

  /// Pops the top controller (`popViewControllerAnimated:`), never the root.
  @discardableResult
  public func popViewController() -> ViewController? {
    guard children.count > 1, let top = children.last else { return nil }
    top.removeFromParent()
    return top
  }

  /// Replaces the whole stack (`setViewControllers:animated:`).
  public func setViewControllers(_ controllers: [ViewController]) { replaceChildren(with: controllers) }

  /// Writes the stack as references (UIKit keeps a navigation controller's children so).
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encodeRestorableObjects(asObjects(children), forKey: RestorableStateKey.childViewControllers)
  }

  /// Re-attaches the restored children as the stack; children that were not restored are left
  /// out, and the stack is kept as it was when none was.
  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    let stack = restoredControllers(coder.decodeRestorableObjects(forKey: RestorableStateKey.childViewControllers))
    if !stack.isEmpty { setViewControllers(stack) }
  }
}

/// A tab bar controller (`UITabBarController`): view controllers side by side, one selected.
open class TabBarController: ViewController {
  public required init() { super.init() }

  /// `viewControllers`.
  public var viewControllers: [ViewController] { children }
  /// `selectedIndex`.
  public var selectedIndex = 0
  /// `selectedViewController`.
  public var selectedViewController: ViewController? {
    children.indices.contains(selectedIndex) ? children[selectedIndex] : nil
  }

  /// Replaces the tabs (`setViewControllers:animated:`), keeping the selection in range.
  public func setViewControllers(_ controllers: [ViewController]) {
    replaceChildren(with: controllers)
    if !children.indices.contains(selectedIndex) { selectedIndex = 0 }
  }

  /// Writes the tabs and the selected tab as references.
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encodeRestorableObjects(asObjects(children), forKey: RestorableStateKey.childViewControllers)
    coder.encodeRestorableObject(selectedViewController, forKey: RestorableStateKey.selectedViewController)
  }

  /// Re-attaches the restored tabs and selects the restored selected tab.
  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    let tabs = restoredControllers(coder.decodeRestorableObjects(forKey: RestorableStateKey.childViewControllers))
    if !tabs.isEmpty { setViewControllers(tabs) }
    if let selected = coder.decodeRestorableObject(forKey: RestorableStateKey.selectedViewController) as? ViewController,
      let index = children.firstIndex(where: { $0 === selected })
    {
      selectedIndex = index
    }
  }
}

/// `NSSplitViewController`: a view controller whose view is a split view, kept with its
/// `splitView` outlet (its split view items are archived as data, `NSSplitViewItem`).
open class SplitViewController: ViewController {
  /// `splitView`, set by the nib's `splitView` outlet.
  public var splitView: SplitView?

  public required init() { super.init() }

  public static let splitViewControllerKeys = NibKeyTable(for: SplitViewController.self, inheriting: viewControllerKeys) {
    $0.key("splitView", \.splitView)
  }
  open override class var nibKeyTable: NibKeyTable { splitViewControllerKeys }
}

/// `NSTabViewController`: a view controller whose view is a tab view, kept with its `tabView`
/// outlet (its tab view items are archived as `NSTabViewItem`s).
open class TabViewController: ViewController {
  /// `tabView`, set by the nib's `tabView` outlet.
  public var tabView: TabView?
  /// `tabViewItems`: a storyboard sets them as a runtime attribute (an array of `NSTabViewItem`s).
  public var tabViewItems: [TabViewItem] = []

  public required init() { super.init() }

  public static let tabViewControllerKeys = NibKeyTable(for: TabViewController.self, inheriting: viewControllerKeys) {
    $0.key("tabView", \.tabView)
    $0.key("tabViewItems", get: { $0.tabViewItems as [Any] }, set: { controller, items in
      controller.tabViewItems = items.compactMap { $0 as? TabViewItem }
    })
  }
  open override class var nibKeyTable: NibKeyTable { tabViewControllerKeys }
}

/// `controllers` as `[AnyObject]`, by a plain loop: the implicit conversion casts each member at
/// run time (callgrind: `_arrayForceCast` with a `swift_dynamicCast` per child, 1.5 % of a
/// 10,000-node save with navigation stacks of 370).
@MainActor private func asObjects(_ controllers: [ViewController]) -> [AnyObject] {
  var objects: [AnyObject] = []
  objects.reserveCapacity(controllers.count)
  for controller in controllers { objects.append(controller) }
  return objects
}

/// The view controllers among `objects`, in order. A plain loop, not `compactMap`: a closure
/// formed in main-actor code checks, each time it is called, that it runs on the main actor
/// (profiled: a sixth of re-attaching a restored navigation stack of hundreds).
@MainActor private func restoredControllers(_ objects: [AnyObject]) -> [ViewController] {
  var controllers: [ViewController] = []
  controllers.reserveCapacity(objects.count)
  for object in objects {
    if let controller = object as? ViewController { controllers.append(controller) }
  }
  return controllers
}
