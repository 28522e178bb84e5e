public import FoundationEssentials
public import InterfaceObjects
public import Restoration
public import ObjectModel

/// The list of items (the seeds' `BNRItemsViewController`): a table whose selection is restored by
/// item key, with the highlighted row as its selection.
public final class ItemsViewController: ViewController, DataSourceModelAssociation {
  /// The table (the storyboard's `table` outlet, or one of its own when made in code).
  public var table = TableView()
  public weak var store: ItemStore?
  /// The items as the list shows them (sorted as the settings say).
  public var displayedItems: () -> [Item] = { [] }

  public required init() {
    super.init()
    restorationIdentifier = "Items"
    title = "Homepwner"
    table.restorationIdentifier = "ItemsTable"
  }

  private static let keys = KeyTable(for: ItemsViewController.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("table", \.table)
  }
  public override class var keyTable: KeyTable { keys }

  public override func viewDidLoad() {
    super.viewDidLoad()
    table.dataSource = self
    table.allowsMultipleSelection = false
    if table.superview == nil { view?.addSubview(table) }
  }

  /// The highlighted row, if any.
  public var highlightedRow: Int? {
    get { table.indexPathForSelectedRow?.row }
    set { table.selectRow(at: newValue.map { IndexPath(row: $0, section: 0) }) }
  }

  public func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    let items = displayedItems()
    guard items.indices.contains(indexPath.row) else { return nil }
    return items[indexPath.row].itemKey
  }

  public func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
    displayedItems().firstIndex { $0.itemKey == identifier }.map { IndexPath(row: $0, section: 0) }
  }
}

/// The detail of one item (the seeds' `BNRDetailViewController`): its name, serial number and
/// value being edited (the fields keep unsaved text through restoration), its date and photo.
/// Made again by its restoration class from the item key it saved.
public final class DetailViewController: ViewController, ViewControllerRestoration {
  /// The item shown, by key (the saved state), and the item itself once found in the store.
  public var itemKey = ""
  public weak var item: Item?
  public var nameField = TextField()
  public var serialField = TextField()
  public var valueField = TextField()
  /// Which field has the focus: 0 name, 1 serial, 2 value.
  public var focusedField = 0

  /// The store restored detail screens look their item up in.
  nonisolated(unsafe) static var storeForRestoration: ItemStore?
  /// The storyboard restored detail screens are made from (its `Detail` scene).
  nonisolated(unsafe) static var storyboardForRestoration: (any ViewControllerSource)?

  private static let keys = KeyTable(for: DetailViewController.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("nameField", \.nameField)
    $0.key("serialField", \.serialField)
    $0.key("valueField", \.valueField)
  }
  public override class var keyTable: KeyTable { keys }

  public required init() {
    super.init()
    restorationIdentifier = "Detail"
    restorationClassName = "DetailViewController"
    nameField.restorationIdentifier = "Name"
    serialField.restorationIdentifier = "Serial"
    valueField.restorationIdentifier = "Value"
  }

  /// A detail screen for `item`, its fields filled from it.
  public convenience init(item: Item) {
    self.init()
    show(item)
  }

  /// Shows `item`: its fields filled from it.
  public func show(_ item: Item) {
    self.item = item
    itemKey = item.itemKey
    title = item.itemName
    _ = view
    nameField.text = item.itemName
    serialField.text = item.serialNumber
    valueField.text = String(item.valueInDollars)
  }

  public override func viewDidLoad() {
    super.viewDidLoad()
    for field in fields where field.superview == nil { view?.addSubview(field) }
    nameField.restorationIdentifier = nameField.restorationIdentifier ?? "Name"
    serialField.restorationIdentifier = serialField.restorationIdentifier ?? "Serial"
    valueField.restorationIdentifier = valueField.restorationIdentifier ?? "Value"
  }

  public var fields: [TextField] { [nameField, serialField, valueField] }

  /// Writes the fields back into the item (leaving the screen).
  public func commit() {
    guard let item else { return }
    item.itemName = nameField.text
    item.serialNumber = serialField.text
    if let value = Int(valueField.text.filter { $0.isNumber }) { item.valueInDollars = value }
  }

  public override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(itemKey, forKey: "itemKey")
    coder.encode(focusedField, forKey: "focusedField")
  }

  public override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    focusedField = min(max(coder.decodeInteger(forKey: "focusedField") ?? 0, 0), 2)
  }

  public static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    guard let key = coder.decode(String.self, forKey: "itemKey"), let item = storeForRestoration?.item(withKey: key) else { return nil }
    let detail = (try? storyboardForRestoration?.instantiateViewController(withIdentifier: "Detail")) as? DetailViewController ?? DetailViewController()
    detail.restorationClassName = "DetailViewController"
    detail.item = item
    detail.itemKey = key
    detail.title = item.itemName
    return detail
  }
}

/// The settings screen: lines in a scroll view.
public final class SettingsViewController: ViewController {
  public var scroll = ScrollView()
  private static let keys = KeyTable(for: SettingsViewController.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("scroll", \.scroll)
  }
  public override class var keyTable: KeyTable { keys }
  public required init() {
    super.init()
    restorationIdentifier = "Settings"
    title = "Settings"
    scroll.restorationIdentifier = "SettingsScroll"
  }
  public override func viewDidLoad() {
    super.viewDidLoad()
    if scroll.superview == nil { view?.addSubview(scroll) }
  }
}
