
/// A navigation item (`UINavigationItem`): title and bar button items.
public final class NavigationItem: NibObject {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  public override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    for item in leftBarButtonItems + rightBarButtonItems { references.keep(item) }
  }
  public var title: String?
  /// `backButtonTitle`: what the back button shows when this item is below the top one (its
  /// title when nil).
  public var backButtonTitle: String?
  public var leftBarButtonItems: [BarButtonItem] = []
  public var rightBarButtonItems: [BarButtonItem] = []
  public required init() { super.init() }
  public static let navigationItemKeys = NibKeyTable(for: NavigationItem.self) {
    $0.string(\.title, from: "UITitle", key: "title") { $0.title = $1 }
    $0.key("backButtonTitle", \.backButtonTitle)
    $0.array(\.leftBarButtonItems, from: "UILeftBarButtonItems") { $0.leftBarButtonItems = $1 }
    $0.array(\.rightBarButtonItems, from: "UIRightBarButtonItems") { $0.rightBarButtonItems = $1 }
  }
  public override class var nibKeyTable: NibKeyTable { navigationItemKeys }
}

/// A bar item: ``TabBarItem`` and ``BarButtonItem`` (`UIBarItem`).
open class BarItem: NibObject {
  public var title: String?
  public var image: Image?
  public var tag = 0
  public var isEnabled = true
  public required init() { super.init() }
  public static let barItemKeys = NibKeyTable(for: BarItem.self) {
    $0.string(\.title, from: "UITitle", key: "title") { $0.title = $1 }
    $0.object(\.image, from: "UIImage", key: "image") { $0.image = $1 }
    $0.integer(\.tag, from: "UITag", key: "tag") { $0.tag = $1 }
    $0.bool(\.isEnabled, from: "UIEnabled", key: "enabled") { $0.isEnabled = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { barItemKeys }
}

/// `UITabBarItem`.
public final class TabBarItem: BarItem {
  public required init() { super.init() }
}

/// `UIBarButtonItem`: a bar item with a target and action (no event mask).
open class BarButtonItem: BarItem {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(customView)
  }
  /// `target`, weak; `nil` sends the action along the responder chain.
  public weak var target: AnyObject?
  /// `action`.
  public var action: String?
  /// `systemItem` (UIKit's `UIBarButtonSystemItem`), when it is one.
  public var systemItem: Int?
  /// `customView`.
  public var customView: View?
  public required init() { super.init() }
  public static let barButtonItemKeys = NibKeyTable(for: BarButtonItem.self, inheriting: barItemKeys) {
    $0.key("target", \.target)
    $0.key("action", \.action)
    $0.integer(\.systemItem, from: "UISystemItem") { $0.systemItem = $1 }
    $0.object(\.customView, from: "UICustomView") { $0.customView = $1 }
  }
  public override class var nibKeyTable: NibKeyTable { barButtonItemKeys }
}
