public import ObjectModel

/// `NSGridView`: views laid out in rows and columns. Its rows and columns are kept with their
/// cells (`NSGrid_rows`, `NSGrid_columns`); the cells' content views are also its subviews.
open class GridView: View {
  /// `rowSpacing` / `columnSpacing` (`NSGrid_rowSpacing`, `NSGrid_columnSpacing`).
  public var rowSpacing = 6.0
  public var columnSpacing = 6.0
  /// The rows, top to bottom (`NSGrid_rows`), and columns, leading to trailing (`NSGrid_columns`).
  public private(set) var rows: [GridRow] = []
  public private(set) var columns: [GridColumn] = []

  public required init() { super.init() }

  /// `numberOfRows` / `numberOfColumns`.
  public var numberOfRows: Int { rows.count }
  public var numberOfColumns: Int { columns.count }

  /// `cellAtColumnIndex:rowIndex:` — the cell of a row whose column is the one at `column`.
  public func cell(atColumnIndex column: Int, rowIndex row: Int) -> GridCell? {
    guard rows.indices.contains(row), columns.indices.contains(column) else { return nil }
    let target = columns[column]
    return rows[row].cells.first { $0.column === target }
  }

  public static let gridViewKeys = KeyTable(for: GridView.self, inheriting: viewKeys) {
    $0.key("rowSpacing", \.rowSpacing)
    $0.key("columnSpacing", \.columnSpacing)
  }
  open override class var keyTable: KeyTable { gridViewKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    rowSpacing = coder.decodeDouble(forKey: "NSGrid_rowSpacing") ?? rowSpacing
    columnSpacing = coder.decodeDouble(forKey: "NSGrid_columnSpacing") ?? columnSpacing
    rows = try coder.decodeArray(forKey: "NSGrid_rows", of: GridRow.self)
    columns = try coder.decodeArray(forKey: "NSGrid_columns", of: GridColumn.self)
  }
}

/// `NSGridRow`: one row of a grid view, with its cells (`NSGrid_cells`).
public final class GridRow: NibObject {
  /// `gridView` (`NSGrid_owningGrid`), weak: the grid holds its rows.
  public weak var gridView: GridView?
  /// `height` (`NSGrid_height`; `NSGridViewSizeForContent`, the smallest float, follows the content).
  public var height = 0.0
  /// `topPadding`, `bottomPadding`, `hidden`.
  public var topPadding = 0.0
  public var bottomPadding = 0.0
  public var isHidden = false
  /// The row's cells (`NSGrid_cells`).
  public private(set) var cells: [GridCell] = []

  public required init() { super.init() }

  public static let gridRowKeys = KeyTable(for: GridRow.self) {
    $0.key("height", \.height)
    $0.key("topPadding", \.topPadding)
    $0.key("bottomPadding", \.bottomPadding)
    $0.key("hidden", \.isHidden)
  }
  public override class var keyTable: KeyTable { gridRowKeys }

  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    gridView = try coder.decodeReference(forKey: "NSGrid_owningGrid") as? GridView
    height = coder.decodeDouble(forKey: "NSGrid_height") ?? 0
    topPadding = coder.decodeDouble(forKey: "NSGrid_topPadding") ?? 0
    bottomPadding = coder.decodeDouble(forKey: "NSGrid_bottomPadding") ?? 0
    isHidden = coder.decodeBool(forKey: "NSGrid_hidden") ?? false
    cells = try coder.decodeArray(forKey: "NSGrid_cells", of: GridCell.self)
  }
}

/// `NSGridColumn`: one column of a grid view.
public final class GridColumn: NibObject {
  /// `gridView` (`NSGrid_owningGrid`), weak.
  public weak var gridView: GridView?
  /// `width` (`NSGrid_width`), `leadingPadding`, `trailingPadding`, `hidden`.
  public var width = 0.0
  public var leadingPadding = 0.0
  public var trailingPadding = 0.0
  public var isHidden = false

  public required init() { super.init() }

  public static let gridColumnKeys = KeyTable(for: GridColumn.self) {
    $0.key("width", \.width)
    $0.key("leadingPadding", \.leadingPadding)
    $0.key("trailingPadding", \.trailingPadding)
    $0.key("hidden", \.isHidden)
  }
  public override class var keyTable: KeyTable { gridColumnKeys }

  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    gridView = try coder.decodeReference(forKey: "NSGrid_owningGrid") as? GridView
    width = coder.decodeDouble(forKey: "NSGrid_width") ?? 0
    leadingPadding = coder.decodeDouble(forKey: "NSGrid_leadingPadding") ?? 0
    trailingPadding = coder.decodeDouble(forKey: "NSGrid_trailingPadding") ?? 0
    isHidden = coder.decodeBool(forKey: "NSGrid_hidden") ?? false
  }
}

/// `NSGridCell`: where a row and a column meet, with its content view (`NSGrid_content`).
public final class GridCell: NibObject {
  /// `row` (`NSGrid_owningRow`) and `column` (`NSGrid_owningColumn`), weak.
  public weak var row: GridRow?
  public weak var column: GridColumn?
  /// `contentView` (`NSGrid_content`), also a subview of the grid.
  public var contentView: View?

  public required init() { super.init() }

  public static let gridCellKeys = KeyTable(for: GridCell.self) {
    $0.key("contentView", \.contentView)
  }
  public override class var keyTable: KeyTable { gridCellKeys }

  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    row = try coder.decodeReference(forKey: "NSGrid_owningRow") as? GridRow
    column = try coder.decodeReference(forKey: "NSGrid_owningColumn") as? GridColumn
    contentView = try coder.decodeObject(forKey: "NSGrid_content", as: View.self)
  }
}
