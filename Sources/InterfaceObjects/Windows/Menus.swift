public import ObjectModel

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

  public static let menuKeys = KeyTable(for: Menu.self) {
    $0.key("delegate", \.delegate)
    $0.key("title", \.title)
    $0.readOnlyKey("items", \.items)
    $0.key("autoenablesItems", \.autoenablesItems)
  }
  open override class var keyTable: KeyTable { menuKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    title = try coder.decodeString(forKey: "NSTitle") ?? ""
    specialName = try coder.decodeString(forKey: "NSName")
    autoenablesItems = coder.decodeBool(forKey: "NSNoAutoenable") != true
    for item in try coder.decodeArray(forKey: "NSMenuItems", of: MenuItem.self) { addItem(item) }
  }
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

  public static let menuItemKeys = KeyTable(for: MenuItem.self) {
    $0.key("title", \.title)
    $0.key("keyEquivalent", \.keyEquivalent)
    $0.key("keyEquivalentModifierMask", \.keyEquivalentModifierMask)
    $0.key("tag", \.tag)
    $0.key("state", \.state)
    $0.key("enabled", \.isEnabled)
    $0.key("hidden", \.isHidden)
    $0.key("submenu", \.submenu)
    $0.key("target", \.target)
    $0.key("action", \.action)
    $0.key("representedObject", \.representedObject)
  }
  open override class var keyTable: KeyTable { menuItemKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    title = try coder.decodeString(forKey: "NSTitle") ?? ""
    keyEquivalent = try coder.decodeString(forKey: "NSKeyEquiv") ?? ""
    keyEquivalentModifierMask = coder.decodeInteger(forKey: "NSKeyEquivModMask") ?? 0
    tag = coder.decodeInteger(forKey: "NSTag") ?? 0
    state = coder.decodeInteger(forKey: "NSState") ?? 0
    isEnabled = coder.decodeBool(forKey: "NSIsDisabled") != true
    isHidden = coder.decodeBool(forKey: "NSIsHidden") == true
    isSeparatorItem = coder.decodeBool(forKey: "NSIsSeparator") == true
    isAlternate = coder.decodeBool(forKey: "NSIsAlternate") == true
    submenu = try coder.decodeObject(forKey: "NSSubmenu", as: Menu.self)
    image = try coder.decodeObject(forKey: "NSImage", as: Image.self)
    representedObject = try coder.decodeObject(forKey: "NSRepObject")
    if let action = try coder.decodeString(forKey: "NSAction") { self.action = action }
    if let target = try coder.decodeReference(forKey: "NSTarget") { self.target = target }
  }

  /// Sends the item's action (choosing the item): to ``target``, else along the responder chain
  /// through `application`. Answers whether an object handled it.
  @discardableResult
  public func performAction(in application: Application) throws -> Bool {
    guard let action, isEnabled else { return false }
    return try application.sendAction(action, to: target, from: self)
  }
}
