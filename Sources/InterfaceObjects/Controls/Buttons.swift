/// A button (`UIButton` / `NSButton`, and `NSPopUpButton` as ``PopUpButton``): titles per state.
open class Button: Control {
  /// UIKit's titles by control state (0 normal, 1 highlighted, 2 disabled, 4 selected).
  public var titlesByState: [Int: String] = [:]
  /// UIKit's images by control state.
  public var imagesByState: [Int: Image] = [:]

  public required init() { super.init() }

  /// `title` / `currentTitle`: the normal-state title (UIKit) or the cell's title (AppKit).
  public var title: String {
    get { titlesByState[0] ?? cell?.title ?? "" }
    set {
      if let cell { cell.title = newValue } else { titlesByState[0] = newValue }
    }
  }
  /// The title for a UIKit state (`titleForState:`), falling back to the normal title; AppKit's
  /// alternate title for the on state.
  public func title(for state: Int) -> String? {
    if let title = titlesByState[state] { return title }
    if state == 1 || state == 4, let alternate = (cell as? ButtonCell)?.alternateTitle, !alternate.isEmpty { return alternate }
    return titlesByState[0] ?? cell?.title
  }
  /// `state` (AppKit: 1 on, 0 off).
  public var state: Int {
    get { cell?.state ?? 0 }
    set { cell?.state = newValue }
  }
  /// `keyEquivalent`.
  public var keyEquivalent: String { (cell as? ButtonCell)?.keyEquivalent ?? "" }
  /// `image` (the normal image).
  public var image: Image? { (cell as? ButtonCell)?.image ?? imagesByState[0] }

  public static let buttonKeys = NibKeyTable(for: Button.self, inheriting: controlKeys) {
    $0.key("title", \.title)
    $0.key("state", \.state)
    $0.readOnlyKey("keyEquivalent", \.keyEquivalent)
    $0.uiKit { $0.decode { button, coder throws(InterfaceObjectsError) in try button.decodeStatefulContent(from: coder) } }
  }
  open override class var nibKeyTable: NibKeyTable { buttonKeys }

  /// UIKit's titles and images by state (`UIButtonStatefulContent`: `UITitle`, `UIImage`).
  private func decodeStatefulContent(from coder: NibCoder) throws(InterfaceObjectsError) {
    if let contents = try coder.decodeObject(forKey: "UIButtonStatefulContent") as? [String: Any] {
      for (state, content) in contents {
        guard let state = Int(state), let content = content as? GenericObject else { continue }
        if let title = content["UITitle"] as? String { titlesByState[state] = title }
        if let image = content["UIImage"] as? Image { imagesByState[state] = image }
      }
    }
  }
}

/// `NSPopUpButton`: a button with a menu of choices.
open class PopUpButton: Button {
  public required init() { super.init() }
  /// The menu of choices (the cell's).
  public var menu: Menu? { (cell as? PopUpButtonCell)?.menu }
  /// `itemTitles`.
  public var itemTitles: [String] { menu?.items.map(\.title) ?? [] }
  /// `indexOfSelectedItem`.
  public var indexOfSelectedItem: Int { (cell as? PopUpButtonCell)?.indexOfSelectedItem ?? -1 }
  /// `titleOfSelectedItem`.
  public var titleOfSelectedItem: String? {
    let index = indexOfSelectedItem
    guard let items = menu?.items, items.indices.contains(index) else { return nil }
    return items[index].title
  }
}

/// A switch (`UISwitch` / `NSSwitch`).
open class Switch: Control {
  /// `on` / `isOn` (AppKit: the state).
  public var isOn = false
  public required init() { super.init() }
  /// AppKit's state is `NSControlState`, else the cell's.
  public static let switchKeys = NibKeyTable(for: Switch.self, inheriting: controlKeys) {
    $0.key("on", \.isOn)
    $0.key("isOn", \.isOn)
    $0.decode { control, coder in
      control.isOn = coder.decodeBool(forKey: "UISwitchOn") ?? ((coder.decodeInteger(forKey: "NSControlState") ?? control.cell?.state ?? 0) == 1)
    }
  }
  open override class var nibKeyTable: NibKeyTable { switchKeys }
}
