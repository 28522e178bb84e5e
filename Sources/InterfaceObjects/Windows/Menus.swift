
/// A menu (`NSMenu`): title, items, and the name (`MainMenu`, `_NSAppleMenu`, …).
open class Menu: NibObject {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    for item in items { references.keep(item) }
  }
  /// `title`.
  public var title = ""
  /// `items`; the menu owns them.
  public private(set) var items: [MenuItem] = []
  /// The menu's special name (`NSName`: `_NSMainMenu`, `_NSAppleMenu`, `_NSWindowsMenu`, …).
  public var specialName: String?
  /// `autoenablesItems`.
  /// `delegate` (`NSMenuDelegate`), weak; set by a nib's `delegate` outlet.
  public weak var delegate: AnyObject?
  public var autoenablesItems = true

  public required init() { super.init() }

  /// Adds `item` at the end (`addItem:`).
  public func addItem(_ item: MenuItem) {
    items.append(item)
    item.menuStorage = self
  }

  isolated deinit {
    for item in items where item.menuStorage === self { item.menuStorage = nil }
  }

  /// The first item titled `title` (`itemWithTitle:`), searching this menu only.
  public func item(withTitle title: String) -> MenuItem? { items.first { $0.title == title } }

  public static let menuKeys = NibKeyTable(for: Menu.self) {
    $0.key("delegate", \.delegate)
    $0.string(\.title, from: "NSTitle", key: "title") { $0.title = $1 }
    $0.readOnlyKey("items", \.items)
    $0.string(\.specialName, from: "NSName") { $0.specialName = $1 }
    $0.bool(\.autoenablesItems, from: "NSNoAutoenable", inverted: true, key: "autoenablesItems") { $0.autoenablesItems = $1 }
    $0.decode { menu, coder throws(InterfaceObjectsError) in
      for item in try coder.decodeArray(forKey: "NSMenuItems", of: MenuItem.self) { menu.addItem(item) }
    }
  }
  open override class var nibKeyTable: NibKeyTable { menuKeys }
}

/// A menu item (`NSMenuItem`): title, key equivalent, target and action, submenu, state.
open class MenuItem: NibObject {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.cuttable(submenu) { { [weak self] in self?.submenu = nil } }
    references.cuttable(representedObject) { { [weak self] in self?.representedObject = nil } }
  }
  public var title = ""
  /// `keyEquivalent` (a single character, or empty).
  public var keyEquivalent = ""
  /// `keyEquivalentModifierMask` (shift 1<<17, control 1<<18, option 1<<19, command 1<<20).
  public var keyEquivalentModifierMask = 0
  public var tag = 0
  /// `state`: 0 off, 1 on, −1 mixed.
  public var state = 0
  public var isEnabled = true
  public var isHidden = false
  public var isSeparatorItem = false
  public var isAlternate = false
  /// `submenu`; the item owns it.
  public var submenu: Menu?
  /// The menu the item is in (`menu`).
  public var menu: Menu? { menuStorage }
  /// Set by the menu that holds the item, cleared when that menu goes.
  unowned(unsafe) var menuStorage: Menu?
  /// `target`, weak; `nil` sends ``action`` along the responder chain.
  public weak var target: AnyObject?
  /// `action`: the selector name sent when the item is chosen.
  public var action: String?
  /// `image`.
  public var image: Image?
  /// `representedObject`.
  public var representedObject: Any?

  public required init() { super.init() }

  public static let menuItemKeys = NibKeyTable(for: MenuItem.self) {
    $0.string(\.title, from: "NSTitle", key: "title") { $0.title = $1 }
    $0.string(\.keyEquivalent, from: "NSKeyEquiv", key: "keyEquivalent") { $0.keyEquivalent = $1 }
    $0.integer(\.keyEquivalentModifierMask, from: "NSKeyEquivModMask", key: "keyEquivalentModifierMask") { $0.keyEquivalentModifierMask = $1 }
    $0.integer(\.tag, from: "NSTag", key: "tag") { $0.tag = $1 }
    $0.integer(\.state, from: "NSState", key: "state") { $0.state = $1 }
    $0.bool(\.isEnabled, from: "NSIsDisabled", inverted: true, key: "enabled") { $0.isEnabled = $1 }
    $0.bool(\.isHidden, from: "NSIsHidden", key: "hidden") { $0.isHidden = $1 }
    $0.bool(\.isSeparatorItem, from: "NSIsSeparator") { $0.isSeparatorItem = $1 }
    $0.bool(\.isAlternate, from: "NSIsAlternate") { $0.isAlternate = $1 }
    $0.object(\.submenu, from: "NSSubmenu", key: "submenu") { $0.submenu = $1 }
    $0.object(\.image, from: "NSImage") { $0.image = $1 }
    $0.value(\.representedObject, from: "NSRepObject", key: "representedObject") { $0.representedObject = $1 }
    $0.string(\.action, from: "NSAction", key: "action") { $0.action = $1 }
    $0.reference(\.target, from: "NSTarget", key: "target") { $0.target = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { menuItemKeys }

  /// Sends the item's action (choosing the item): to ``target``, else along the responder chain
  /// through `application`. Answers whether an object handled it.
  @discardableResult
  public func performAction(in application: Application) throws -> Bool {
    guard let action, isEnabled else { return false }
    return try application.sendAction(action, to: target, from: self)
  }
}
