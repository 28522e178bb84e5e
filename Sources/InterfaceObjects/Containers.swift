public import Foundation
public import ObjectModel

/// A scroll view (`UIScrollView` / `NSScrollView`): on macOS a clip view holding the document
/// view, and the scrollers.
open class ScrollView: View {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.cuttable(contentView) { { [weak self] in self?.contentView = nil } }
  }
  /// `contentView` (`NSContentView`, a ``ClipView``).
  public var contentView: ClipView?
  /// `documentView`: what scrolls.
  public var documentView: View? { contentView?.documentView }
  public var hasVerticalScroller = false
  public var hasHorizontalScroller = false
  /// `contentOffset`: how far the content is scrolled.
  public var contentOffset = CGPoint.zero
  public required init() { super.init() }

  /// Keeps the content offset (UIKit restores a scroll view's position).
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode([Double(contentOffset.x), Double(contentOffset.y)], forKey: RestorableStateKey.contentOffset)
  }

  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    if let offset = restoredPoint(coder.decodeObject(forKey: RestorableStateKey.contentOffset)) { contentOffset = offset }
  }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    contentView = try coder.decodeObject(forKey: "NSContentView", as: ClipView.self)
    hasVerticalScroller = try coder.decodeReference(forKey: "NSVScroller") != nil
    hasHorizontalScroller = try coder.decodeReference(forKey: "NSHScroller") != nil
  }
}

/// `NSClipView`: the visible part of a scroll view's document.
open class ClipView: View {
  /// `documentView`, weak: the clip view's subviews own it.
  public weak var documentView: View?
  public var drawsBackground = true
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    documentView = try coder.decodeObject(forKey: "NSDocView", as: View.self)
  }
}

/// A table view (`UITableView` / `NSTableView`, and `NSOutlineView`): columns, row height,
/// delegate and data source.
open class TableView: Control {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    for column in tableColumns { references.keep(column) }
    references.cuttable(headerView) { { [weak self] in self?.headerView = nil } }
    references.cuttable(tableHeaderView) { { [weak self] in self?.tableHeaderView = nil } }
    references.cuttable(tableFooterView) { { [weak self] in self?.tableFooterView = nil } }
  }
  /// `tableColumns`; the table owns them.
  public var tableColumns: [TableColumn] = []
  /// `rowHeight`.
  public var rowHeight = 0.0
  /// `delegate`, weak.
  public weak var delegate: AnyObject?
  /// `dataSource`, weak.
  public weak var dataSource: AnyObject?
  /// `headerView`.
  public var headerView: View?
  /// `autosaveName`.
  public var autosaveName: String?
  /// UIKit's `tableHeaderView` / `tableFooterView`.
  public var tableHeaderView: View?
  public var tableFooterView: View?
  /// `contentOffset`: how far the rows are scrolled.
  public var contentOffset = CGPoint.zero
  /// `allowsMultipleSelection`.
  public var allowsMultipleSelection = false
  /// `indexPathsForSelectedRows`, in the order they were selected.
  public private(set) var indexPathsForSelectedRows: [IndexPath] = []
  public required init() { super.init() }

  /// `indexPathForSelectedRow`: the first selected row.
  public var indexPathForSelectedRow: IndexPath? { indexPathsForSelectedRows.first }

  /// Selects the row at `indexPath` (`selectRowAtIndexPath:animated:scrollPosition:`); without
  /// multiple selection the previous selection is dropped; `nil` clears it.
  public func selectRow(at indexPath: IndexPath?) {
    guard let indexPath else { return indexPathsForSelectedRows.removeAll() }
    if !allowsMultipleSelection { indexPathsForSelectedRows.removeAll() }
    if !indexPathsForSelectedRows.contains(indexPath) { indexPathsForSelectedRows.append(indexPath) }
  }

  /// Deselects the row at `indexPath` (`deselectRowAtIndexPath:animated:`).
  public func deselectRow(at indexPath: IndexPath) { indexPathsForSelectedRows.removeAll { $0 == indexPath } }

  /// Keeps the content offset and the selection: by the data source's model identifiers when it
  /// adopts ``DataSourceModelAssociation`` (the selection then follows the items), by index path
  /// otherwise.
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode([Double(contentOffset.x), Double(contentOffset.y)], forKey: RestorableStateKey.contentOffset)
    if let association = dataSource as? DataSourceModelAssociation {
      let identifiers = indexPathsForSelectedRows.compactMap { association.modelIdentifierForElement(at: $0, in: self) }
      coder.encode(identifiers, forKey: RestorableStateKey.selectedModelIdentifiers)
    } else {
      coder.encode(indexPathsForSelectedRows.map { [$0.section, $0.row] }, forKey: RestorableStateKey.selectedIndexPaths)
    }
  }

  /// Reads the offset and the selection back; model identifiers the data source no longer knows
  /// select nothing.
  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    if let offset = restoredPoint(coder.decodeObject(forKey: RestorableStateKey.contentOffset)) { contentOffset = offset }
    var selection: [IndexPath] = []
    if let identifiers = coder.decodeObject(forKey: RestorableStateKey.selectedModelIdentifiers) as? [Any] {
      let association = dataSource as? DataSourceModelAssociation
      for case let identifier as String in identifiers {
        if let path = association?.indexPathForElement(withModelIdentifier: identifier, in: self) { selection.append(path) }
      }
    } else if let pairs = coder.decodeObject(forKey: RestorableStateKey.selectedIndexPaths) as? [Any] {
      for case let pair as [Any] in pairs where pair.count == 2 {
        if let section = pair[0] as? Int, let row = pair[1] as? Int, section >= 0, row >= 0 {
          selection.append(IndexPath(row: row, section: section))
        }
      }
    }
    var unique: [IndexPath] = []
    for path in selection where !unique.contains(path) { unique.append(path) }
    indexPathsForSelectedRows = unique
  }

  /// The column with `identifier` (`tableColumnWithIdentifier:`).
  public func tableColumn(withIdentifier identifier: String) -> TableColumn? {
    tableColumns.first { $0.identifier == identifier }
  }

  public static let tableViewKeys = KeyTable(for: TableView.self, inheriting: controlKeys) {
    $0.key("delegate", \.delegate)
    $0.key("dataSource", \.dataSource)
    $0.key("rowHeight", \.rowHeight)
    $0.key("autosaveName", \.autosaveName)
    $0.key("tableHeaderView", \.tableHeaderView)
    $0.key("tableFooterView", \.tableFooterView)
    $0.key("dragDelegate", \.dragDelegate)
    $0.key("dropDelegate", \.dropDelegate)
  }
  open override class var keyTable: KeyTable { tableViewKeys }
  /// UIKit's `dragDelegate` and `dropDelegate` (table and collection views), weak.
  public weak var dragDelegate: AnyObject?
  public weak var dropDelegate: AnyObject?

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    tableColumns = try coder.decodeArray(forKey: "NSTableColumns", of: TableColumn.self)
    for column in tableColumns { column.tableView = self }
    rowHeight = coder.decodeDouble(forKey: "NSRowHeight") ?? coder.decodeDouble(forKey: "UIRowHeight") ?? 0
    delegate = try coder.decodeReference(forKey: "NSDelegate")
    dataSource = try coder.decodeReference(forKey: "NSDataSource")
    headerView = try coder.decodeObject(forKey: "NSHeaderView", as: View.self)
    autosaveName = try coder.decodeString(forKey: "NSAutosaveName")
    tableHeaderView = try coder.decodeObject(forKey: "UITableHeaderView", as: View.self)
    tableFooterView = try coder.decodeObject(forKey: "UITableFooterView", as: View.self)
  }
}

/// A table column (`NSTableColumn`): identifier, width, header and data cells.
public final class TableColumn: NibObject {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  public override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(headerCell)
    references.keep(dataCell)
  }
  public var identifier: String?
  public var width = 0.0
  public var minWidth = 0.0
  public var maxWidth = 0.0
  /// The header's title (`headerCell.stringValue`).
  public var title: String { headerCell?.title ?? "" }
  public var headerCell: Cell?
  public var dataCell: Cell?
  public var isEditable = true
  /// The table, weak.
  public weak var tableView: TableView?
  public required init() { super.init() }
  public static let tableColumnKeys = KeyTable(for: TableColumn.self) {
    $0.key("identifier", \.identifier)
    $0.key("width", \.width)
    $0.readOnlyKey("title", \.title)
  }
  public override class var keyTable: KeyTable { tableColumnKeys }
  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    identifier = try coder.decodeString(forKey: "NSIdentifier")
    width = coder.decodeDouble(forKey: "NSWidth") ?? 0
    minWidth = coder.decodeDouble(forKey: "NSMinWidth") ?? 0
    maxWidth = coder.decodeDouble(forKey: "NSMaxWidth") ?? 0
    headerCell = try coder.decodeObject(forKey: "NSHeaderCell", as: Cell.self)
    dataCell = try coder.decodeObject(forKey: "NSDataCell", as: Cell.self)
    isEditable = coder.decodeBool(forKey: "NSIsEditable") ?? true
  }
}

/// A table cell: `NSTableCellView` (its `textField` and `imageView` outlets) and
/// `UITableViewCell` (`reuseIdentifier`, `textLabel`, `contentView`).
open class TableCellView: View {
  /// `textField` (AppKit outlet) / `textLabel`.
  public weak var textField: TextField?
  /// `imageView` (AppKit outlet).
  public weak var imageView: ImageView?
  /// `reuseIdentifier`.
  public var reuseIdentifier: String?
  public required init() { super.init() }
  public static let tableCellViewKeys = KeyTable(for: TableCellView.self, inheriting: viewKeys) {
    $0.key("textField", \.textField)
    $0.key("imageView", \.imageView)
    $0.key("reuseIdentifier", \.reuseIdentifier)
  }
  open override class var keyTable: KeyTable { tableCellViewKeys }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    reuseIdentifier = try coder.decodeString(forKey: "UIReuseIdentifier")
  }
}

/// A stack view (`UIStackView` / `NSStackView`): orientation, spacing, alignment, distribution.
open class StackView: View {
  /// 0 horizontal, 1 vertical (AppKit's `NSStackViewOrientation`; UIKit's `axis`).
  public var orientation = 0
  public var spacing = 8.0
  public var alignment = 0
  public var distribution = 0
  public required init() { super.init() }
  /// `arrangedSubviews` (here: the subviews, in order).
  public var arrangedSubviews: [View] { subviews }
  public static let stackViewKeys = KeyTable(for: StackView.self, inheriting: viewKeys) {
    $0.key("orientation", \.orientation)
    $0.key("axis", \.orientation)
    $0.key("spacing", \.spacing)
    $0.key("alignment", \.alignment)
    $0.key("distribution", \.distribution)
  }
  open override class var keyTable: KeyTable { stackViewKeys }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    orientation = coder.decodeInteger(forKey: "NSStackViewOrientation") ?? coder.decodeInteger(forKey: "UIStackViewAxis") ?? 0
    spacing = coder.decodeDouble(forKey: "NSStackViewSpacing") ?? coder.decodeDouble(forKey: "UIStackViewSpacing") ?? 8
    alignment = coder.decodeInteger(forKey: "NSStackViewAlignment") ?? coder.decodeInteger(forKey: "UIStackViewAlignment") ?? 0
    distribution = coder.decodeInteger(forKey: "NSStackViewdistribution") ?? coder.decodeInteger(forKey: "UIStackViewDistribution") ?? 0
  }
}

/// `NSBox`: a titled container.
open class Box: View {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.cuttable(contentView) { { [weak self] in self?.contentView = nil } }
  }
  public var title = ""
  public var boxType = 0
  public var contentView: View?
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    title = (try coder.decodeObject(forKey: "NSTitleCell", as: Cell.self))?.title ?? ""
    boxType = coder.decodeInteger(forKey: "NSBoxType") ?? 0
    contentView = try coder.decodeObject(forKey: "NSContentView", as: View.self)
  }
}

/// `NSTabView`: tabs, one selected.
open class TabView: View {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    for item in tabViewItems { references.keep(item) }
  }
  public var tabViewItems: [TabViewItem] = []
  public weak var selectedTabViewItem: TabViewItem?
  /// `delegate` (`NSTabViewDelegate`), weak; set by a nib's `delegate` outlet.
  public weak var delegate: AnyObject?
  public static let tabViewKeys = KeyTable(for: TabView.self, inheriting: viewKeys) {
    $0.key("delegate", \.delegate)
  }
  open override class var keyTable: KeyTable { tabViewKeys }
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    tabViewItems = try coder.decodeArray(forKey: "NSTabViewItems", of: TabViewItem.self)
    selectedTabViewItem = try coder.decodeObject(forKey: "NSSelectedTabViewItem", as: TabViewItem.self)
  }
}

/// `NSTabViewItem`: a tab's label and view.
public final class TabViewItem: NibObject {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  public override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.cuttable(view) { { [weak self] in self?.view = nil } }
    references.cuttable(identifier) { { [weak self] in self?.identifier = nil } }
  }
  public var label = ""
  public var identifier: Any?
  public var view: View?
  /// `viewController` (a tab view controller's item), weak; set by a nib's outlet.
  public weak var viewController: ViewController?
  /// `image` (a tab view controller's item image; a runtime attribute in storyboards).
  public var image: Any?
  public required init() { super.init() }
  public static let tabViewItemKeys = KeyTable(for: TabViewItem.self) {
    $0.key("label", \.label)
    $0.key("view", \.view)
    $0.key("viewController", \.viewController)
    $0.key("image", \.image)
  }
  public override class var keyTable: KeyTable { tabViewItemKeys }
  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    identifier = try coder.decodeObject(forKey: "NSIdentifier")
    view = try coder.decodeObject(forKey: "NSView", as: View.self)
    label = try coder.decodeString(forKey: "NSLabel") ?? ""
  }
}

/// `NSSplitView`: panes side by side (vertical dividers) or stacked.
open class SplitView: View {
  public var isVertical = false
  /// `delegate` (`NSSplitViewDelegate`), weak; set by a nib's `delegate` outlet.
  public weak var delegate: AnyObject?
  public static let splitViewKeys = KeyTable(for: SplitView.self, inheriting: viewKeys) {
    $0.key("delegate", \.delegate)
    $0.key("vertical", \.isVertical)
  }
  open override class var keyTable: KeyTable { splitViewKeys }
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    isVertical = coder.decodeBool(forKey: "NSIsVertical") == true
  }
}

/// A multi-line text view (`UITextView` / `NSTextView`).
open class TextView: View {
  public var text = ""
  public var isEditable = true
  /// `selectedRange`: the selection or insertion point, in UTF-16 units as `NSRange`.
  public var selectedRange = NSRange(location: 0, length: 0)
  public required init() { super.init() }

  /// Keeps the text, the selection and whether it was being edited (UIKit restores a text
  /// view's selection itself; its text is the app's to keep, and Stasis keeps it too).
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(text, forKey: RestorableStateKey.text)
    coder.encode([selectedRange.location, selectedRange.length], forKey: RestorableStateKey.selectedRange)
    coder.encode(isFirstResponder, forKey: RestorableStateKey.editing)
  }

  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    if let restored = coder.decode(String.self, forKey: RestorableStateKey.text) { text = restored }
    let length = text.utf16.count
    if let range = coder.decodeObject(forKey: RestorableStateKey.selectedRange) as? [Any], range.count == 2,
      let location = range[0] as? Int, let count = range[1] as? Int, location >= 0, count >= 0, location <= length,
      count <= length - location
    {
      selectedRange = NSRange(location: location, length: count)
    }
    restoresFirstResponder = coder.decodeBool(forKey: RestorableStateKey.editing) ?? false
  }
  public static let textViewKeys = KeyTable(for: TextView.self, inheriting: viewKeys) {
    $0.key("text", \.text)
    $0.key("string", \.text)
    $0.key("editable", \.isEditable)
  }
  open override class var keyTable: KeyTable { textViewKeys }
  open override var canBecomeFirstResponder: Bool { isEditable }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    text = try coder.decodeString(forKey: "UIText") ?? ""
  }
}

/// A point kept as `[x, y]` in a restoration coder, or `nil` when the value is not one.
func restoredPoint(_ value: Any?) -> CGPoint? {
  guard let pair = value as? [Any], pair.count == 2 else { return nil }
  func number(_ value: Any) -> Double? {
    switch value {
    case let value as Double: value
    case let value as Int: Double(value)
    case let value as Float: Double(value)
    default: nil
    }
  }
  guard let x = number(pair[0]), let y = number(pair[1]), x.isFinite, y.isFinite else { return nil }
  return CGPoint(x: x, y: y)
}

/// UIKit's table positions on `IndexPath` (`indexPathForRow:inSection:`, `row`, `section`).
extension IndexPath {
  /// A two-index path: `[section, row]`.
  public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
  /// The first index (`section`); 0 for an empty path.
  public var section: Int { count > 0 ? self[0] : 0 }
  /// The second index (`row`); 0 for a path shorter than two.
  public var row: Int { count > 1 ? self[1] : 0 }
}
