public import FoundationEssentials
internal import Foundation
public import InterfaceObjects
public import Restoration
public import ObjectModel

/// The list of items (the book's `BNRItemsViewController`): a table whose selection is restored by
/// item key, with the highlighted row as its selection.
public final class ItemsViewController: ViewController, DataSourceModelAssociation {
  /// The table (the storyboard's `table` outlet, or one of its own when made in code).
  public var table = TableView(frame: CGRect(x: 0, y: 0, width: 375, height: 812))
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

  /// What `addNewItem:` (the add button's action) does in the app around (set by the terminal).
  public var onAddNewItem: () -> Void = {}
  private static let actions = ActionTable(for: ItemsViewController.self, inheriting: ViewController.actionTable) {
    $0.action("addNewItem:") { controller, _ in controller.onAddNewItem() }
  }
  public override class var actionTable: ActionTable { actions }

  public override func viewDidLoad() {
    super.viewDidLoad()
    table.dataSource = self
    table.allowsMultipleSelection = false
    if table.superview == nil { view?.addSubview(table) }
  }

  /// The book's add button: a right bar button item made in code, this controller its target.
  public var addItem: BarButtonItem {
    rightBarButtonItem(title: "+ (a)", action: "addNewItem:")
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

/// The detail of one item (the book's `BNRDetailViewController`): its name, serial number and
/// value being edited (the fields keep unsaved text through restoration), its date — a row that
/// opens the date editor — and its photo. Made again by its restoration class from the item key
/// it saved.
public final class DetailViewController: ViewController, ViewControllerRestoration {
  /// The item shown, by key (the saved state), and the item itself once found in the store.
  public var itemKey = ""
  public weak var item: Item?
  public var nameField = TextField(frame: CGRect(x: 100, y: 100, width: 250, height: 20))
  public var serialField = TextField(frame: CGRect(x: 100, y: 140, width: 250, height: 20))
  public var valueField = TextField(frame: CGRect(x: 100, y: 180, width: 250, height: 20))
  /// The labels before the fields, the date and the photo (their text set in the user's
  /// language as the screen is drawn).
  public var nameLabel = Label(frame: CGRect(x: 15, y: 100, width: 85, height: 20))
  public var serialLabel = Label(frame: CGRect(x: 15, y: 140, width: 85, height: 20))
  public var valueLabel = Label(frame: CGRect(x: 15, y: 180, width: 85, height: 20))
  public var createdLabel = Label(frame: CGRect(x: 15, y: 220, width: 85, height: 20))
  public var photoLabel = Label(frame: CGRect(x: 15, y: 260, width: 85, height: 20))
  /// The date created, as a button whose action (`showDateEditor:`, sent up the responder chain)
  /// opens the date editor.
  public var dateButton = Button(frame: CGRect(x: 90, y: 220, width: 260, height: 20))
  /// What the photo is (type, size) or that there is none.
  public var photoSummary = Label(frame: CGRect(x: 100, y: 260, width: 250, height: 20))
  /// Attaches a photo (`choosePhoto:`, up the responder chain): the path prompt opens.
  public var choosePhotoButton = Button(frame: CGRect(x: 90, y: 300, width: 260, height: 20))
  /// Which row has the focus: 0 name, 1 serial, 2 value (the ``fields``), 3 the date
  /// (``dateRow``).
  public var focusedField = 0

  /// What the controller's actions do in the app around it (set by ``HomepwnerApp``).
  public var onShowDateEditor: () -> Void = {}
  public var onChoosePhoto: () -> Void = {}

  private static let keys = KeyTable(for: DetailViewController.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("nameField", \.nameField)
    $0.key("serialField", \.serialField)
    $0.key("valueField", \.valueField)
    $0.key("nameLabel", \.nameLabel)
    $0.key("serialLabel", \.serialLabel)
    $0.key("valueLabel", \.valueLabel)
    $0.key("createdLabel", \.createdLabel)
    $0.key("photoLabel", \.photoLabel)
    $0.key("dateButton", \.dateButton)
    $0.key("photoSummary", \.photoSummary)
    $0.key("choosePhotoButton", \.choosePhotoButton)
  }
  public override class var keyTable: KeyTable { keys }

  /// The actions the storyboard's buttons send to the first responder (nil target), which reach
  /// this controller through the responder chain: button → view → controller.
  private static let actions = ActionTable(for: DetailViewController.self, inheriting: ViewController.actionTable) {
    $0.action("showDateEditor:") { controller, _ in controller.onShowDateEditor() }
    $0.action("choosePhoto:") { controller, _ in controller.onChoosePhoto() }
  }
  public override class var actionTable: ActionTable { actions }

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
    // Made in code (no storyboard): the views are its own, and the buttons send their actions
    // to the first responder as the storyboard's do.
    for subview in fields as [View] + [nameLabel, serialLabel, valueLabel, createdLabel, photoLabel, dateButton, photoSummary, choosePhotoButton]
    where subview.superview == nil {
      view?.addSubview(subview)
    }
    if dateButton.actions(for: .touchUpInside).isEmpty { dateButton.addTarget(nil, action: "showDateEditor:", for: .touchUpInside) }
    if choosePhotoButton.actions(for: .touchUpInside).isEmpty { choosePhotoButton.addTarget(nil, action: "choosePhoto:", for: .touchUpInside) }
    nameField.restorationIdentifier = nameField.restorationIdentifier ?? "Name"
    serialField.restorationIdentifier = serialField.restorationIdentifier ?? "Serial"
    valueField.restorationIdentifier = valueField.restorationIdentifier ?? "Value"
  }

  public var fields: [TextField] { [nameField, serialField, valueField] }

  /// The row of the date created, after the fields: the date editor opens from it.
  public var dateRow: Int { fields.count }

  /// The text field with the focus; `nil` on the date row.
  public var focusedTextField: TextField? { fields.indices.contains(focusedField) ? fields[focusedField] : nil }

  /// The control with the focus: the focused text field, or the date's button on the date row.
  public var focusedControl: Control { focusedTextField ?? dateButton }

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

/// The date an item was created, being changed (the book's `BNRDateViewController`): a date
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
  public var datePicker = DatePicker(frame: CGRect(x: 0, y: 100, width: 375, height: 216))
  /// The part of the date the arrow keys change.
  public var selectedComponent = Component.year
  /// The calendar the parts are counted in: Gregorian, in the process's time zone (the one the
  /// screens show dates in).
  public var calendar = Calendar(identifier: .gregorian)

  private static let keys = KeyTable(for: DateViewController.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("datePicker", \.datePicker)
  }
  public override class var keyTable: KeyTable { keys }

  /// What `save:` (the Save button's action) does in the app around (set by the terminal).
  public var onSave: () -> Void = {}
  private static let actions = ActionTable(for: DateViewController.self, inheriting: ViewController.actionTable) {
    $0.action("save:") { controller, _ in controller.onSave() }
  }
  public override class var actionTable: ActionTable { actions }

  /// The Save button (a right bar button item targeting this controller; its title is set in the
  /// user's language as the screen is drawn).
  public var saveItem: BarButtonItem {
    rightBarButtonItem(title: "Save", action: "save:")
  }

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
  public var scroll = ScrollView(frame: CGRect(x: 0, y: 0, width: 375, height: 812))
  /// The labels in the scroll view, one per line, 20 points apart (a terminal row).
  public private(set) var lineLabels: [Label] = []

  /// The height of a line, in points.
  public static let lineHeight = 20.0

  /// Shows `lines` in the scroll view, a label each.
  public func show(lines: [String]) {
    _ = view
    while lineLabels.count < lines.count {
      let label = Label(frame: CGRect(x: 10, y: 100 + Self.lineHeight * Double(lineLabels.count), width: 365, height: Self.lineHeight))
      scroll.addSubview(label)
      lineLabels.append(label)
    }
    for (index, label) in lineLabels.enumerated() {
      label.isHidden = index >= lines.count
      label.text = index < lines.count ? lines[index] : ""
    }
  }
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

extension ViewController {
  /// The controller's first right bar button item, made on first use with `title`, `action` and
  /// the controller as its target (as `initWithTitle:style:target:action:` in `viewDidLoad`).
  func rightBarButtonItem(title: String, action: String) -> BarButtonItem {
    if let item = navigationItem.rightBarButtonItems.first { return item }
    let item = BarButtonItem()
    item.title = title
    item.target = self
    item.action = action
    navigationItem.rightBarButtonItems = [item]
    return item
  }
}
