import Interface

/// `<gridView>` with its `<rows>`, `<columns>` and `<gridCells>`, which no Apple-compiled nib in
/// the corpus shows: AppKit's `NSGridView`, `NSGridRow`, `NSGridColumn` and `NSGridCell`, with the
/// `NSGrid_…` keys their decoders read (as GNUstep's re-implementation, which loads Apple's nibs,
/// decodes them). The keys' order, the cells held by their rows (not by the grid) and the
/// mutable arrays follow a public ibtool re-implementation's reading of Apple's compiles of
/// NetNewsWire's AccountsFeedbin.xib and AccountsReaderAPI.xib; we have not seen such a nib
/// ourselves, so each grid is reported by ``CocoaNibCompiler/noteUnverified(_:_:)``.
extension CocoaNibCompiler {
  /// NSGridCellPlacement: inherited 0, none 1, leading/top 2, trailing/bottom 3, center 4, fill 5.
  static let gridPlacements = ["inherited": 0, "none": 1, "leading": 2, "top": 2, "trailing": 3, "bottom": 3, "center": 4, "fill": 5]
  /// NSGridRowAlignment: inherited 0, none 1, firstBaseline 2, lastBaseline 3.
  static let gridRowAlignments = ["inherited": 0, "none": 1, "firstBaseline": 2, "lastBaseline": 3]
  /// NSGridViewSizeForContent (FLT_MIN): a row height or column width that follows its content.
  static let gridSizeForContent = Double(Float.leastNormalMagnitude)

  /// An `NSGrid_xPlacement`/`NSGrid_yPlacement`/`NSGrid_alignment` value from `attribute`
  /// (inherited when absent).
  func gridEnum(_ element: InterfaceDocument.Element, _ attribute: String, _ values: [String: Int]) throws(InterfaceBuilderError) -> NIBArchive.Payload {
    guard let name = element[attribute] else { return .int8(0) }
    guard let value = values[name] else { throw invalid(element, "\(attribute) \"\(name)\" is not known") }
    return .int8(Int8(value))
  }

  /// `<gridView>` → `NSGridView` {view keys (its cells' content views are its subviews),
  /// NSGrid_rowSpacing, NSGrid_columnSpacing, NSGrid_xPlacement, NSGrid_yPlacement,
  /// NSGrid_alignment, NSGrid_rows, NSGrid_columns}; each `NSGridRow` {NSGrid_owningGrid,
  /// NSGrid_yPlacement, NSGrid_alignment, NSGrid_height, NSGrid_topPadding,
  /// NSGrid_bottomPadding, NSGrid_hidden, NSGrid_cells (its cells in document order)}, each
  /// `NSGridColumn` {NSGrid_owningGrid, NSGrid_xPlacement, NSGrid_width, NSGrid_leadingPadding,
  /// NSGrid_trailingPadding, NSGrid_hidden}, each `NSGridCell` {NSGrid_owningRow,
  /// NSGrid_owningColumn, NSGrid_mergeHead, NSGrid_xPlacement, NSGrid_yPlacement,
  /// NSGrid_alignment, NSGrid_content}; the arrays are `NSMutableArray`s.
  mutating func compileGridView(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["xPlacement", "yPlacement", "rowAlignment", "rowSpacing", "columnSpacing"], view: true)
    for child in element.children where !["rect", "autoresizingMask", "constraints", "rows", "columns", "gridCells", "connections"].contains(child.name) {
      throw unsupported(child)
    }
    let rowElements = element.child("rows")?.children ?? []
    let columnElements = element.child("columns")?.children ?? []
    let cellElements = element.child("gridCells")?.children ?? []
    for child in rowElements where child.name != "gridRow" { throw unsupported(child) }
    for child in columnElements where child.name != "gridColumn" { throw unsupported(child) }
    for child in cellElements where child.name != "gridCell" { throw unsupported(child) }

    let grid = try begin(element, className: "NSGridView", parent: parent)
    var entries = try viewEntries(element, view: grid, superview: superview)
    var rows: [String: Int] = [:], rowOrder: [String] = []
    for row in rowElements {
      try checkAttributes(row, known: ["yPlacement", "rowAlignment", "height", "topPadding", "bottomPadding", "hidden"])
      guard let id = row["id"] else { throw invalid(row, "a grid row needs an id") }
      let object = try begin(row, className: "NSGridRow", parent: grid)
      // NSGrid_cells, the row's cells, is added below once they are compiled.
      graph[object].entries = [
        .init("NSGrid_owningGrid", .object(grid)), .init("NSGrid_yPlacement", try gridEnum(row, "yPlacement", Self.gridPlacements)),
        .init("NSGrid_alignment", try gridEnum(row, "rowAlignment", Self.gridRowAlignments)),
        .init("NSGrid_height", .float64(row.double("height") ?? Self.gridSizeForContent)),
        .init("NSGrid_topPadding", .float64(row.double("topPadding") ?? 0)), .init("NSGrid_bottomPadding", .float64(row.double("bottomPadding") ?? 0)),
        .init("NSGrid_hidden", .bool(row.flag("hidden"))),
      ]
      try compileChildren(of: row, object: object, known: [])
      rows[id] = object
      rowOrder.append(id)
    }
    var columns: [String: Int] = [:], columnOrder: [String] = []
    for column in columnElements {
      try checkAttributes(column, known: ["xPlacement", "width", "leadingPadding", "trailingPadding", "hidden"])
      guard let id = column["id"] else { throw invalid(column, "a grid column needs an id") }
      let object = try begin(column, className: "NSGridColumn", parent: grid)
      graph[object].entries = [
        .init("NSGrid_owningGrid", .object(grid)), .init("NSGrid_xPlacement", try gridEnum(column, "xPlacement", Self.gridPlacements)),
        .init("NSGrid_width", .float64(column.double("width") ?? Self.gridSizeForContent)),
        .init("NSGrid_leadingPadding", .float64(column.double("leadingPadding") ?? 0)),
        .init("NSGrid_trailingPadding", .float64(column.double("trailingPadding") ?? 0)), .init("NSGrid_hidden", .bool(column.flag("hidden"))),
      ]
      try compileChildren(of: column, object: object, known: [])
      columns[id] = object
      columnOrder.append(id)
    }
    var cells: [String: Int] = [:]
    var rowCells: [String: [Int]] = [:]
    var contents: [Int] = []
    for cell in cellElements {
      try checkAttributes(cell, known: ["row", "column", "xPlacement", "yPlacement", "rowAlignment"])
      guard let rowID = cell["row"], let row = rows[rowID], let columnID = cell["column"], let column = columns[columnID] else {
        throw invalid(cell, "a grid cell needs the ids of one of its grid's rows and columns")
      }
      let key = rowID + "\u{0}" + columnID
      guard cells[key] == nil else { throw invalid(cell, "two grid cells at the same row and column") }
      let object = try begin(cell, className: "NSGridCell", parent: grid)
      var content: NIBArchive.Payload = .null
      for child in cell.children where child["key"] == "contentView" {
        let view = try compileObject(child, parent: object, superview: grid)
        markNotTranslating(view, element: child)
        contents.append(view)
        content = .object(view)
      }
      graph[object].entries = [
        .init("NSGrid_owningRow", .object(row)), .init("NSGrid_owningColumn", .object(column)), .init("NSGrid_mergeHead", .null),
        .init("NSGrid_xPlacement", try gridEnum(cell, "xPlacement", Self.gridPlacements)),
        .init("NSGrid_yPlacement", try gridEnum(cell, "yPlacement", Self.gridPlacements)),
        .init("NSGrid_alignment", try gridEnum(cell, "rowAlignment", Self.gridRowAlignments)), .init("NSGrid_content", content),
      ]
      for child in cell.children where child["key"] != "contentView" && child.name != "connections" { throw unsupported(child) }
      try compileChildren(of: cell, object: object, known: [cell.children.first { $0["key"] == "contentView" }?.name ?? ""])
      cells[key] = object
      rowCells[rowID, default: []].append(object)
    }
    // Each row holds its cells, in the document's order; a cell at every row and column.
    for rowID in rowOrder {
      for columnID in columnOrder where cells[rowID + "\u{0}" + columnID] == nil {
        throw unsupported(element, "a grid view without a cell at every row and column is not compiled yet")
      }
      if let row = rows[rowID] {
        graph.append("NSGrid_cells", .object(graph.collection("NSMutableArray", rowCells[rowID] ?? [])), to: row)
      }
    }
    if !contents.isEmpty {
      let position = (entries.firstIndex { $0.key == "NSvFlags" } ?? 0) + 1
      entries.insert(.init("NSSubviews", .object(graph.collection("NSMutableArray", contents))), at: position)
    }
    if let hugging = hugging(element) { entries.append(.init("NSHuggingPriority", hugging)) }
    if let resistance = compressionString(element) { entries.append(.init("NSAntiCompressionPriority", string(resistance))) }
    entries += tailViewEntries(element)
    entries += [
      .init("NSGrid_rowSpacing", .float64(element.double("rowSpacing") ?? 6)),
      .init("NSGrid_columnSpacing", .float64(element.double("columnSpacing") ?? 6)),
      .init("NSGrid_xPlacement", try gridEnum(element, "xPlacement", Self.gridPlacements)),
      .init("NSGrid_yPlacement", try gridEnum(element, "yPlacement", Self.gridPlacements)),
      .init("NSGrid_alignment", try gridEnum(element, "rowAlignment", Self.gridRowAlignments)),
      .init("NSGrid_rows", .object(graph.collection("NSMutableArray", rowOrder.compactMap { rows[$0] }))),
      .init("NSGrid_columns", .object(graph.collection("NSMutableArray", columnOrder.compactMap { columns[$0] }))),
    ]
    graph[grid].entries = entries
    try compileChildren(of: element, object: grid, known: ["rect", "autoresizingMask", "constraints", "rows", "columns", "gridCells"])
    noteUnverified(
      element,
      "<gridView> as NSGridView with NSGridRow/NSGridColumn/NSGridCell and their NSGrid_… keys (rows, columns, cells, content, owning row/column/grid, placements, spacing), AppKit's decoder keys"
    )
    return grid
  }
}
