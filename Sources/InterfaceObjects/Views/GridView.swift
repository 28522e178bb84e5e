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

  public static let gridViewKeys = NibKeyTable(for: GridView.self, inheriting: viewKeys) {
    $0.double(\.rowSpacing, from: "NSGrid_rowSpacing", key: "rowSpacing") { $0.rowSpacing = $1 }
    $0.double(\.columnSpacing, from: "NSGrid_columnSpacing", key: "columnSpacing") { $0.columnSpacing = $1 }
    $0.array(\.rows, from: "NSGrid_rows") { $0.rows = $1 }
    $0.array(\.columns, from: "NSGrid_columns") { $0.columns = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { gridViewKeys }
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

  public static let gridRowKeys = NibKeyTable(for: GridRow.self) {
    $0.reference(\.gridView, from: "NSGrid_owningGrid") { $0.gridView = $1 }
    $0.double(\.height, from: "NSGrid_height", key: "height") { $0.height = $1 }
    $0.double(\.topPadding, from: "NSGrid_topPadding", key: "topPadding") { $0.topPadding = $1 }
    $0.double(\.bottomPadding, from: "NSGrid_bottomPadding", key: "bottomPadding") { $0.bottomPadding = $1 }
    $0.bool(\.isHidden, from: "NSGrid_hidden", key: "hidden") { $0.isHidden = $1 }
    $0.array(\.cells, from: "NSGrid_cells") { $0.cells = $1 }
  }
  public override class var nibKeyTable: NibKeyTable { gridRowKeys }
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

  public static let gridColumnKeys = NibKeyTable(for: GridColumn.self) {
    $0.reference(\.gridView, from: "NSGrid_owningGrid") { $0.gridView = $1 }
    $0.double(\.width, from: "NSGrid_width", key: "width") { $0.width = $1 }
    $0.double(\.leadingPadding, from: "NSGrid_leadingPadding", key: "leadingPadding") { $0.leadingPadding = $1 }
    $0.double(\.trailingPadding, from: "NSGrid_trailingPadding", key: "trailingPadding") { $0.trailingPadding = $1 }
    $0.bool(\.isHidden, from: "NSGrid_hidden", key: "hidden") { $0.isHidden = $1 }
  }
  public override class var nibKeyTable: NibKeyTable { gridColumnKeys }
}

/// `NSGridCell`: where a row and a column meet, with its content view (`NSGrid_content`).
public final class GridCell: NibObject {
  /// `row` (`NSGrid_owningRow`) and `column` (`NSGrid_owningColumn`), weak.
  public weak var row: GridRow?
  public weak var column: GridColumn?
  /// `contentView` (`NSGrid_content`), also a subview of the grid.
  public var contentView: View?

  public required init() { super.init() }

  public static let gridCellKeys = NibKeyTable(for: GridCell.self) {
    $0.reference(\.row, from: "NSGrid_owningRow") { $0.row = $1 }
    $0.reference(\.column, from: "NSGrid_owningColumn") { $0.column = $1 }
    $0.object(\.contentView, from: "NSGrid_content", key: "contentView") { $0.contentView = $1 }
  }
  public override class var nibKeyTable: NibKeyTable { gridCellKeys }
}
