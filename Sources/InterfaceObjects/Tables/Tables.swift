public import Foundation

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

  /// Each column's ``TableColumn/tableView`` is set to the table.
  public static let tableViewKeys = NibKeyTable(for: TableView.self, inheriting: controlKeys) {
    $0.decode { table, coder throws(InterfaceObjectsError) in
      table.tableColumns = try coder.decodeArray(forKey: "NSTableColumns", of: TableColumn.self)
      for column in table.tableColumns { column.tableView = table }
    }
    $0.double(\.rowHeight, from: "NSRowHeight", "UIRowHeight", key: "rowHeight") { $0.rowHeight = $1 }
    $0.reference(\.delegate, from: "NSDelegate", key: "delegate") { $0.delegate = $1 }
    $0.reference(\.dataSource, from: "NSDataSource", key: "dataSource") { $0.dataSource = $1 }
    $0.object(\.headerView, from: "NSHeaderView") { $0.headerView = $1 }
    $0.string(\.autosaveName, from: "NSAutosaveName", key: "autosaveName") { $0.autosaveName = $1 }
    $0.object(\.tableHeaderView, from: "UITableHeaderView", key: "tableHeaderView") { $0.tableHeaderView = $1 }
    $0.object(\.tableFooterView, from: "UITableFooterView", key: "tableFooterView") { $0.tableFooterView = $1 }
    $0.key("dragDelegate", \.dragDelegate)
    $0.key("dropDelegate", \.dropDelegate)
  }
  open override class var nibKeyTable: NibKeyTable { tableViewKeys }
  /// UIKit's `dragDelegate` and `dropDelegate` (table and collection views), weak.
  public weak var dragDelegate: AnyObject?
  public weak var dropDelegate: AnyObject?
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
  public static let tableColumnKeys = NibKeyTable(for: TableColumn.self) {
    $0.string(\.identifier, from: "NSIdentifier", key: "identifier") { $0.identifier = $1 }
    $0.double(\.width, from: "NSWidth", key: "width") { $0.width = $1 }
    $0.double(\.minWidth, from: "NSMinWidth") { $0.minWidth = $1 }
    $0.double(\.maxWidth, from: "NSMaxWidth") { $0.maxWidth = $1 }
    $0.object(\.headerCell, from: "NSHeaderCell") { $0.headerCell = $1 }
    $0.object(\.dataCell, from: "NSDataCell") { $0.dataCell = $1 }
    $0.bool(\.isEditable, from: "NSIsEditable") { $0.isEditable = $1 }
    $0.readOnlyKey("title", \.title)
  }
  public override class var nibKeyTable: NibKeyTable { tableColumnKeys }
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
  public static let tableCellViewKeys = NibKeyTable(for: TableCellView.self, inheriting: viewKeys) {
    $0.key("textField", \.textField)
    $0.key("imageView", \.imageView)
    $0.string(\.reuseIdentifier, from: "UIReuseIdentifier", key: "reuseIdentifier") { $0.reuseIdentifier = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { tableCellViewKeys }
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
