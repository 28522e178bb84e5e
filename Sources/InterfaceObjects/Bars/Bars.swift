public import ObjectModel

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
  public static let navigationItemKeys = KeyTable(for: NavigationItem.self) {
    $0.key("title", \.title)
    $0.key("backButtonTitle", \.backButtonTitle)
  }
  public override class var keyTable: KeyTable { navigationItemKeys }
  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    title = try coder.decodeString(forKey: "UITitle")
    leftBarButtonItems = try coder.decodeArray(forKey: "UILeftBarButtonItems", of: BarButtonItem.self)
    rightBarButtonItems = try coder.decodeArray(forKey: "UIRightBarButtonItems", of: BarButtonItem.self)
  }
}

/// A bar item: ``TabBarItem`` and ``BarButtonItem`` (`UIBarItem`).
open class BarItem: NibObject {
  public var title: String?
  public var image: Image?
  public var tag = 0
  public var isEnabled = true
  public required init() { super.init() }
  public static let barItemKeys = KeyTable(for: BarItem.self) {
    $0.key("title", \.title)
    $0.key("image", \.image)
    $0.key("tag", \.tag)
    $0.key("enabled", \.isEnabled)
  }
  open override class var keyTable: KeyTable { barItemKeys }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    title = try coder.decodeString(forKey: "UITitle")
    image = try coder.decodeObject(forKey: "UIImage", as: Image.self)
    tag = coder.decodeInteger(forKey: "UITag") ?? 0
    isEnabled = coder.decodeBool(forKey: "UIEnabled") ?? true
  }
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
  public static let barButtonItemKeys = KeyTable(for: BarButtonItem.self, inheriting: barItemKeys) {
    $0.key("target", \.target)
    $0.key("action", \.action)
  }
  public override class var keyTable: KeyTable { barButtonItemKeys }
  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    systemItem = coder.decodeInteger(forKey: "UISystemItem")
    customView = try coder.decodeObject(forKey: "UICustomView", as: View.self)
  }
}
