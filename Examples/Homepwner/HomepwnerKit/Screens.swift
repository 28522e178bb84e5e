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

/// Where restored item screens (the detail, the date editor) find their item and their scene.
enum ItemScreenRestoration {
  /// The store restored item screens look their item up in.
  nonisolated(unsafe) static var store: ItemStore?
  /// The storyboard restored item screens are made from (its `Detail` and `Date` scenes).
  nonisolated(unsafe) static var storyboard: (any ViewControllerSource)?
}

/// The detail of one item (the seeds' `BNRDetailViewController`): its name, serial number and
/// value being edited (the fields keep unsaved text through restoration), its date — a row that
/// opens the date editor — and its photo. Made again by its restoration class from the item key
/// it saved.
public final class DetailViewController: ViewController, ViewControllerRestoration {
  /// The item shown, by key (the saved state), and the item itself once found in the store.
  public var itemKey = ""
  public weak var item: Item?
  public var nameField = TextField()
  public var serialField = TextField()
  public var valueField = TextField()
  /// Which row has the focus: 0 name, 1 serial, 2 value (the ``fields``), 3 the date
  /// (``dateRow``).
  public var focusedField = 0

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

  /// The row of the date created, after the fields: the date editor opens from it.
  public var dateRow: Int { fields.count }

  /// The text field with the focus; `nil` on the date row.
  public var focusedTextField: TextField? { fields.indices.contains(focusedField) ? fields[focusedField] : nil }

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
    focusedField = min(max(coder.decodeInteger(forKey: "focusedField") ?? 0, 0), dateRow)
  }

  public static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    guard let key = coder.decode(String.self, forKey: "itemKey"), let item = ItemScreenRestoration.store?.item(withKey: key) else { return nil }
    let detail = (try? ItemScreenRestoration.storyboard?.instantiateViewController(withIdentifier: "Detail")) as? DetailViewController ?? DetailViewController()
    detail.restorationClassName = "DetailViewController"
    detail.item = item
    detail.itemKey = key
    detail.title = item.itemName
    return detail
  }
}

/// The date an item was created, being changed (the seeds' `BNRDateViewController`): a date
/// picker (the storyboard's `datePicker` outlet) whose year, month or day the user steps; the
/// item takes the date only when the user saves. The picker keeps the unsaved date through
/// restoration, the controller the item's key and the part selected. Made again by its
/// restoration class from the item key it saved.
public final class DateViewController: ViewController, ViewControllerRestoration {
  /// A part of the date, in the order the screen shows them.
  public enum Component: Int, CaseIterable, Sendable {
    case year, month, day

    /// The calendar's unit of the part.
    var unit: Calendar.Component {
      switch self {
      case .year: .year
      case .month: .month
      case .day: .day
      }
    }
  }

  /// The item whose date is changed, by key (the saved state), and the item itself.
  public var itemKey = ""
  public weak var item: Item?
  public var datePicker = DatePicker()
  /// The part of the date the arrow keys change.
  public var selectedComponent = Component.year
  /// The calendar the parts are counted in: Gregorian, in the process's time zone (the one the
  /// screens show dates in).
  public var calendar = Calendar(identifier: .gregorian)

  private static let keys = KeyTable(for: DateViewController.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("datePicker", \.datePicker)
  }
  public override class var keyTable: KeyTable { keys }

  public required init() {
    super.init()
    restorationIdentifier = "Date"
    restorationClassName = "DateViewController"
    datePicker.restorationIdentifier = "DatePicker"
    datePicker.datePickerMode = .date
  }

  public override func viewDidLoad() {
    super.viewDidLoad()
    if datePicker.superview == nil { view?.addSubview(datePicker) }
    datePicker.restorationIdentifier = datePicker.restorationIdentifier ?? "DatePicker"
  }

  /// Shows `item`: the picker set to its date.
  public func show(_ item: Item) {
    self.item = item
    itemKey = item.itemKey
    _ = view
    datePicker.date = item.dateCreated
  }

  /// Changes the selected part by `amount` (later for a positive amount), carrying into the
  /// larger parts (December 31 and a day is January 1); a day the new month lacks becomes its
  /// last (January 31 and a month is February 28 or 29). The picker keeps the date in its range.
  public func step(by amount: Int) {
    guard let moved = calendar.date(byAdding: selectedComponent.unit, value: amount, to: datePicker.date) else { return }
    datePicker.date = moved
  }

  /// Selects the part after the selected one; answers `false` when it is the last.
  @discardableResult
  public func selectNext() -> Bool {
    guard let next = Component(rawValue: selectedComponent.rawValue + 1) else { return false }
    selectedComponent = next
    return true
  }

  /// Selects the part before the selected one; answers `false` when it is the first.
  @discardableResult
  public func selectPrevious() -> Bool {
    guard let previous = Component(rawValue: selectedComponent.rawValue - 1) else { return false }
    selectedComponent = previous
    return true
  }

  /// Gives the item the date chosen.
  public func save() { item?.dateCreated = datePicker.date }

  public override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(itemKey, forKey: "itemKey")
    coder.encode(selectedComponent.rawValue, forKey: "selectedComponent")
  }

  public override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    selectedComponent = coder.decodeInteger(forKey: "selectedComponent").flatMap(Component.init(rawValue:)) ?? .year
  }

  public static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    guard let key = coder.decode(String.self, forKey: "itemKey"), let item = ItemScreenRestoration.store?.item(withKey: key) else { return nil }
    let scene = try? ItemScreenRestoration.storyboard?.instantiateViewController(withIdentifier: "Date")
    let editor = scene as? DateViewController ?? DateViewController()
    editor.restorationClassName = "DateViewController"
    editor.show(item)
    return editor
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
