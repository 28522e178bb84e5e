public import ObjectModel

/// `NSSplitViewController`: a view controller whose view is a split view, kept with its
/// `splitView` outlet (its split view items are archived as data, `NSSplitViewItem`).
open class SplitViewController: ViewController {
  /// `splitView`, set by the nib's `splitView` outlet.
  public var splitView: SplitView?

  public required init() { super.init() }

  public static let splitViewControllerKeys = KeyTable(for: SplitViewController.self, inheriting: viewControllerKeys) {
    $0.key("splitView", \.splitView)
  }
  open override class var keyTable: KeyTable { splitViewControllerKeys }
}

/// `NSTabViewController`: a view controller whose view is a tab view, kept with its `tabView`
/// outlet (its tab view items are archived as `NSTabViewItem`s).
open class TabViewController: ViewController {
  /// `tabView`, set by the nib's `tabView` outlet.
  public var tabView: TabView?
  /// `tabViewItems`: a storyboard sets them as a runtime attribute (an array of `NSTabViewItem`s).
  public var tabViewItems: [TabViewItem] = []

  public required init() { super.init() }

  public static let tabViewControllerKeys = KeyTable(for: TabViewController.self, inheriting: viewControllerKeys) {
    $0.key("tabView", \.tabView)
    $0.key("tabViewItems", get: { $0.tabViewItems as [Any] }, set: { controller, items in
      controller.tabViewItems = items.compactMap { $0 as? TabViewItem }
    })
  }
  open override class var keyTable: KeyTable { tabViewControllerKeys }
}
