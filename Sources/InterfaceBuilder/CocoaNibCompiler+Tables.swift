import Interface

/// How AppKit lays out a cell-based table inside its scroll view when the nib is archived.
///
/// Rules read off Apple's pairs (test_table_uniform_header, test_sv2, test_6col, …):
/// * the columns need `Σ width + (n − 1) × intercellSpacing.width + 32` (the 16-point padding of
///   the automatic/inset style on either side);
/// * the table keeps the width it gets from its clip view when that is enough, else it grows to
///   what the columns need (the columns keep their widths);
/// * NSTvFlags bits 21–22 record the comparison: 1 narrower than the table, 2 equal, 3 wider
///   (the table grew).
struct TableLayout {
  var width: Double
  var relation: Int
  /// Lenient mode: AppKit would shrink the columns in a way not known here; the document's
  /// column widths are kept (the table as wide as they need).
  var keepsDocumentWidths = false
}

extension CocoaNibCompiler {
  static let columnAutoresizingStyles = [
    "none": 0, "uniform": 1, "sequential": 2, "reverseSequential": 3, "lastColumnOnly": 4, "firstColumnOnly": 5,
  ]

  /// A table's row height: the xib's, or in a view-based table the height of its tallest
  /// prototype cell view (test24_tables_elastic: 24, 52 and 75 for rowHeight="24" throughout;
  /// transmission_MainMenu: 62 of 18, 62 and 22).
  static func tableRowHeight(_ element: InterfaceDocument.Element) -> Double {
    if element.flag("viewBased") {
      let heights = tableColumns(element).flatMap { column in
        (column.child("prototypeCellViews")?.children ?? []).filter { $0.name == "tableCellView" }.map(\.frameRect.height)
      }
      if let tallest = heights.max() { return tallest }
    }
    return element.double("rowHeight") ?? 17
  }

  /// The table's columns (`<tableColumns>`).
  static func tableColumns(_ element: InterfaceDocument.Element) -> [InterfaceDocument.Element] {
    element.child("tableColumns")?.children.filter { $0.name == "tableColumn" } ?? []
  }

  /// The layout of a table whose frame (after its clip view was tiled) is `element`'s frame.
  func tableLayout(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> TableLayout {
    let columns = Self.tableColumns(element)
    let spacing = element.child("size", key: "intercellSpacing")?.double("width") ?? 3
    var needed = 32.0
    for column in columns { needed += column.double("width") ?? 0 }
    if columns.count > 1 { needed += Double(columns.count - 1) * spacing }
    let available = element.frameRect.width
    if needed < available { return TableLayout(width: available, relation: 1) }
    if needed == available { return TableLayout(width: available, relation: 2) }
    // Wider columns than the table: AppKit shrinks the columns that resize with the table in
    // some documents (test_single_col_noresize, test_table_mult_sel_no, sv16b: by amounts not
    // understood here) and grows the table in others (test_6col, test24_tables_elastic).
    let style = Self.columnAutoresizingStyles[element["columnAutoresizingStyle"] ?? "uniform"] ?? 1
    let shrinkable = columns.contains { column in
      column.child("tableColumnResizingMask", key: "resizingMask")?.flag("resizeWithTable") == true
        && (column.double("width") ?? 0) > (column.double("minWidth") ?? 0)
    }
    // A uniform table whose resizable columns can shrink and whose columns fill it with 12
    // points to spare (6 a side) keeps its width and its columns' (outline_cellview: 218 + 34 +
    // 31 + 2 × 3 + 12 = 301, NSTvFlags "equal").
    if style == 1, shrinkable, needed - 32 + 12 == available { return TableLayout(width: available, relation: 2) }
    if style != 0, shrinkable, element["rowSizeStyle"] != "automatic" {
      guard options.lenientPlan != nil else {
        throw unsupported(element, "a table whose columns are wider than its clip view and may shrink with it: how AppKit resizes them is not known here")
      }
      return TableLayout(width: needed, relation: 3, keepsDocumentWidths: true)
    }
    return TableLayout(width: needed, relation: 3)
  }

  /// The scroll view whose clip view holds the element with xib id `id`.
  func enclosingScrollView(ofDocumentID id: String) -> InterfaceDocument.Element? {
    index.scrollViewsByDocumentID[id]
  }

  /// Whether a table's scroll view shows the table's corner view (seen only with a header view
  /// and `hasHorizontalScroller="NO"`; otherwise the corner view stays the table's alone).
  static func scrollViewShowsCorner(_ scrollView: InterfaceDocument.Element) -> Bool {
    scrollView.child("tableHeaderView", key: "headerView") != nil && !scrollView.flag("hasHorizontalScroller", default: true)
  }

  // MARK: Table views

  /// `<tableView>` → `NSTableView`, `<outlineView>` → `NSOutlineView` (cell-based).
  mutating func compileTableView(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    let isOutline = element.name == "outlineView"
    try checkAttributes(
      element,
      known: Set<String>([
        "allowsExpansionToolTips", "columnAutoresizingStyle", "alternatingRowBackgroundColors", "columnReordering", "columnResizing",
        "multipleSelection", "emptySelection", "autosaveColumns", "typeSelect", "rowHeight", "headerView", "autosaveName", "columnSelection",
        "rowSizeStyle", "viewBased",
      ]).union(isOutline ? ["indentationPerLevel", "outlineTableColumn", "autoresizesOutlineColumn", "autosaveExpandedItems", "indentationMarkerFollowsCell"] : []),
      view: true)
    let viewBased = element.flag("viewBased")
    for child in element.children {
      switch child.name {
      case "rect", "autoresizingMask", "tableColumns", "connections": break
      case "size" where child["key"] == "intercellSpacing": break
      case "color" where child["key"] == "backgroundColor" || child["key"] == "gridColor": break
      default: throw unsupported(child)
      }
    }
    guard let id = element["id"], let scrollElement = enclosingScrollView(ofDocumentID: id) else {
      throw unsupported(element, "a table outside a scroll view is not compiled yet")
    }
    let table = try begin(element, className: isOutline ? "NSOutlineView" : "NSTableView", parent: parent)
    let layout = try tableLayout(element)
    let frame = element.frameRect
    if layout.keepsDocumentWidths {
      lenientWarnings.append(
        CompilerWarning(
          path: document.path, line: element.line, element: element.name,
          detail: "columns wider than the clip view kept at the document's widths (how AppKit shrinks them is not known here)"))
    }

    var entries: [NibGraph.Entry] = [
      .init("NSNextResponder", superview.map { .object($0) } ?? .null), .init("NSNibTouchBar", .null),
      // Always width- and height-sizable, whatever the xib's mask (test_table_no_header).
      .init("NSvFlags", NibGraph.integer(viewFlags(element) | 0x12)),
    ]
    // A view-based table archives its (empty) subviews (outline_cellview).
    if viewBased { entries.append(.init("NSSubviews", .object(graph.collection("NSMutableArray", [])))) }
    entries += [
      .init("NSFrameSize", string(Self.sizeString(width: layout.width, height: frame.height))),
    ]
    if let superview { entries.append(.init("NSSuperview", .object(superview))) }
    if element.flag("wantsLayer") { entries.append(.init("NSViewIsLayerTreeHost", .bool(true))) }
    entries.append(.init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)))
    // Hugging: written unless {250, 750} (a missing priority counts 250 — test_6col has {250, 250}).
    if let hugging = huggingString(element, defaults: (250, 750)) { entries.append(.init("NSHuggingPriority", string(hugging))) }
    entries += tailViewEntries(element)
    entries.append(.init("NSEnabled", .bool(true)))
    entries.append(.init("NSAllowsLogicalLayoutDirection", .bool(false)))
    if element.flag("allowsExpansionToolTips") { entries.append(.init("NSControlAllowsExpansionToolTips", .bool(true))) }
    entries += [
      .init("NSControlSize", .int8(0)), .init("NSControlContinuous", .bool(false)), .init("NSControlRefusesFirstResponder", .bool(false)),
      .init("NSControlUsesSingleLineMode", .bool(false)), .init("NSControlTextAlignment", .int8(0)), .init("NSControlLineBreakMode", .int8(0)),
      .init("NSControlWritingDirection", .int8(0)), .init("NSControlSendActionMask", .int8(0)),
    ]
    if let header = element["headerView"] { entries.append(.init("NSHeaderView", .object(object(forID: header, line: element.line)))) }

    // The corner view: placed by the scroll view (compileScrollView fills it in) or the table's own.
    let corner = graph.add("_NSCornerView")
    if !Self.scrollViewShowsCorner(scrollElement) {
      let vertical = scrollElement.child("scroller", key: "verticalScroller")
      let cornerFrame: ViewRect
      if vertical == nil || vertical?.flag("hidden") == true || !scrollElement.flag("hasVerticalScroller", default: true) {
        cornerFrame = ViewRect(x: 0, y: 0, width: 17, height: 28)
      } else {
        let inset = Self.borderInset(scrollElement)
        cornerFrame = ViewRect(x: scrollElement.frameRect.width - inset - 17, y: inset, width: 18, height: 28)
      }
      var cornerEntries: [NibGraph.Entry] = [
        .init("NSNextResponder", .null), .init("NSNibTouchBar", .null), .init("NSvFlags", .int16(256)), frameEntry(cornerFrame),
        .init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)),
      ]
      cornerEntries += tailViewEntries(InterfaceDocument.Element(name: "view"))
      graph[corner].entries = cornerEntries
    }
    entries.append(.init("NSCornerView", .object(corner)))

    let prototypes = viewBased ? try prototypeCells(of: element, layout: layout, scrollView: scrollElement) : []
    var columns: [Int] = []
    for (index, column) in Self.tableColumns(element).enumerated() {
      let own = prototypes.filter { $0.column == index }.map(\.element)
      columns.append(try compileTableColumn(column, index: index, table: table, tableElement: element, prototypes: own))
    }
    entries.append(.init("NSTableColumns", .object(graph.collection("NSMutableArray", columns))))
    let spacing = element.child("size", key: "intercellSpacing")
    entries.append(.init("NSIntercellSpacingWidth", .float64(spacing?.double("width") ?? 3)))
    entries.append(.init("NSIntercellSpacingHeight", .float64(spacing?.double("height") ?? 2)))
    if let background = element.child("color", key: "backgroundColor") { entries.append(.init("NSBackgroundColor", .object(try color(background)))) }
    if let grid = element.child("color", key: "gridColor") { entries.append(.init("NSGridColor", .object(try color(grid)))) }
    entries.append(.init("NSRowHeight", .float64(Self.tableRowHeight(element))))

    guard let style = Self.columnAutoresizingStyles[element["columnAutoresizingStyle"] ?? "uniform"] else {
      throw invalid(element, "columnAutoresizingStyle \"\(element["columnAutoresizingStyle"] ?? "")\" is not known")
    }
    var flags = 0x0200_0000 | layout.relation << 21
    if element.flag("columnReordering", default: true) { flags |= 0x8000_0000 }
    if element.flag("columnResizing", default: true) { flags |= 0x4000_0000 }
    if element.flag("emptySelection", default: true) { flags |= 0x1000_0000 }
    if element.flag("multipleSelection", default: true) { flags |= 0x0800_0000 }
    if element.flag("columnSelection") { flags |= 0x0400_0000 }
    if element.flag("autosaveColumns", default: true) { flags |= 0x0100_0000 }
    if element.flag("alternatingRowBackgroundColors") { flags |= 0x0080_0000 }
    if style == 1 { flags |= 0x8000 }
    entries.append(.init("NSTvFlags", NibGraph.integer(Self.signExtended(flags))))
    entries.append(.init("NSDelegate", .null))
    entries.append(.init("NSDataSource", .null))
    if let name = element["autosaveName"] { entries.append(.init("NSAutosaveName", string(name))) }
    entries.append(.init("NSColumnAutoresizingStyle", .int8(Int8(style))))
    entries.append(.init("NSDraggingSourceMaskForLocal", .int64(-1)))
    entries.append(.init("NSDraggingSourceMaskForNonLocal", .int8(0)))
    entries.append(.init("NSAllowsTypeSelect", .bool(element.flag("typeSelect", default: true))))
    entries.append(.init("NSTableViewDraggingDestinationStyle", .int8(0)))
    if viewBased {
      let reusable = try compileReusableViews(prototypes)
      entries.append(.init("NSTableViewArchivedReusableViewsKey", .object(reusable)))
    }
    entries.append(.init("NSTableViewGroupRowStyle", .int8(1)))
    if isOutline {
      if !element.flag("autoresizesOutlineColumn") { entries.append(.init("NSOutlineViewAutoresizesOutlineColumnKey", .bool(false))) }
      entries.append(.init("NSOutlineViewIndentationPerLevelKey", .float32(Float(element.double("indentationPerLevel") ?? 16))))
      if element.flag("autosaveExpandedItems") { entries.append(.init("NSOutlineViewAutosaveExpandedItemsKey", .bool(true))) }
      if element["indentationMarkerFollowsCell"] == "NO" { entries.append(.init("NSOutlineViewIndentationMarkerFollowsCellKey", .bool(false))) }
      entries.append(.init("NSOutineViewStronglyReferencesItems", .bool(true)))
    }
    graph[table].entries = entries
    try compileChildren(of: element, object: table, known: ["rect", "autoresizingMask", "tableColumns", "size", "color"])
    return table
  }

  /// `<tableColumn>` → `NSTableColumn`, with its header cell and data cell.
  mutating func compileTableColumn(
    _ element: InterfaceDocument.Element, index: Int, table: Int, tableElement: InterfaceDocument.Element,
    prototypes: [InterfaceDocument.Element] = []
  ) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["identifier", "editable", "width", "minWidth", "maxWidth"])
    for child in element.children {
      switch child.name {
      case "tableHeaderCell" where child["key"] == "headerCell": break
      case "tableColumnResizingMask" where child["key"] == "resizingMask": break
      case _ where child["key"] == "dataCell": break
      case "prototypeCellViews" where tableElement.flag("viewBased"): break
      case "connections": break
      default: throw unsupported(child)
      }
    }
    let column = try begin(element, className: "NSTableColumn", parent: table)
    var entries: [NibGraph.Entry] = [
      .init("NSIdentifier", string(element["identifier"] ?? "AutomaticTableColumnIdentifier.\(index)")),
      .init("NSWidth", .float64(element.double("width") ?? 0)),
      .init("NSMinWidth", .float64(element.double("minWidth") ?? 0)),
      .init("NSMaxWidth", .float64(element.double("maxWidth") ?? 0)),
    ]
    guard let headerElement = element.child("tableHeaderCell", key: "headerCell") else { throw invalid(element, "a table column needs its header cell") }
    entries.append(.init("NSHeaderCell", .object(try compileTableHeaderCell(headerElement, column: column))))
    guard let dataElement = element.children.first(where: { $0["key"] == "dataCell" }) else { throw invalid(element, "a table column needs its data cell") }
    entries.append(.init("NSDataCell", .object(try compileCell(dataElement, control: table, parent: column, controlElement: tableElement))))
    // The prototype cell views are also objects of the document itself, children of their
    // column, reached only through their connections (outline_cellview).
    for prototype in prototypes { _ = try compileTableCellView(prototype, identifier: nil, parent: column) }
    if let mask = element.child("tableColumnResizingMask", key: "resizingMask") {
      let bits = (mask.flag("resizeWithTable") ? 1 : 0) | (mask.flag("userResizable") ? 2 : 0)
      if bits != 0 {
        entries.append(.init("NSResizingMask", .int8(Int8(bits))))
        entries.append(.init("NSIsResizeable", .bool(true)))
      }
    }
    if element.flag("editable", default: true) { entries.append(.init("NSIsEditable", .bool(true))) }
    entries.append(.init("NSTableView", .object(table)))
    graph[column].entries = entries
    try compileChildren(
      of: element, object: column,
      known: ["tableHeaderCell", "tableColumnResizingMask", "prototypeCellViews", element.children.first { $0["key"] == "dataCell" }?.name ?? ""])
    return column
  }

  /// `<tableHeaderCell>` → `NSTableHeaderCell`.
  mutating func compileTableHeaderCell(_ element: InterfaceDocument.Element, column: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["lineBreakMode", "borderStyle", "alignment", "title"])
    guard element["borderStyle"] == nil || element["borderStyle"] == "border" else {
      throw unsupported(element, "a header cell's borderStyle other than border is not compiled yet")
    }
    let cell = try begin(element, className: "NSTableHeaderCell", parent: column)
    let (flags, flags2) = cellFlags(element, className: "NSTableHeaderCell")
    var entries: [NibGraph.Entry] = [.init("NSCellFlags", NibGraph.integer(flags)), .init("NSCellFlags2", NibGraph.integer(flags2))]
    entries.append(.init("NSContents", string(element["title"] ?? "")))
    // No font or the small system font: the header text style's font (test_table_no_header).
    if let font = element.child("font", key: "font"), font["metaFont"] != "smallSystem" || font["size"] != nil {
      throw unsupported(font, "a header cell font other than the small system font is not compiled yet")
    }
    entries.append(.init("NSSupport", .object(try headerFont())))
    if let background = element.child("color", key: "backgroundColor") {
      // Apple shares catalog colors but gives every header cell its own calibrated or device
      // background color (test_table_header_first_col, outline_cellview).
      if background["catalog"] != nil {
        entries.append(.init("NSBackgroundColor", .object(try color(background))))
      } else {
        func isColorKey(_ key: String) -> Bool { key.hasPrefix("white:") || key.hasPrefix("rgb") }
        let saved = sharedObjects
        sharedObjects = saved.filter { !isColorKey($0.key) }
        let unshared = try color(background)
        let added = sharedObjects.filter { saved[$0.key] == nil && !isColorKey($0.key) }
        sharedObjects = saved.merging(added) { old, _ in old }
        entries.append(.init("NSBackgroundColor", .object(unshared)))
      }
    }
    if let text = element.child("color", key: "textColor") { entries.append(.init("NSTextColor", .object(try color(text)))) }
    graph[cell].entries = entries
    try compileChildren(of: element, object: cell, known: ["font", "color"])
    return cell
  }

  /// The font of a header cell without one: the 11-point system font of the subheadline text style.
  mutating func headerFont() throws(InterfaceBuilderError) -> Int {
    try textStyleFont(name: ".AppleSystemUIFont", size: 11, flags: 16, style: "UICTFontTextStyleSubhead")
  }


  /// `<tableHeaderView>` → `NSTableHeaderView` of `width` (its table's); the scroll view puts it
  /// in the header clip view.
  mutating func compileTableHeaderView(_ element: InterfaceDocument.Element, parent: Int, width: Double) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: [], view: true)
    let header = try begin(element, className: "NSTableHeaderView", parent: parent)
    var entries: [NibGraph.Entry] = [
      .init("NSNextResponder", .null), .init("NSNibTouchBar", .null), .init("NSvFlags", NibGraph.integer(viewFlags(element))),
      frameEntry(ViewRect(x: 0, y: 0, width: width, height: element.frameRect.height)),
      .init("NSSuperview", .null),
    ]
    if element.flag("wantsLayer") { entries.append(.init("NSViewIsLayerTreeHost", .bool(true))) }
    entries.append(.init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)))
    entries += tailViewEntries(element)
    // The table whose headerView this is.
    let tableID = element["id"].flatMap { index.tableIDsByHeaderViewID[$0] }
    guard let tableID else { throw unsupported(element, "a table header view no table names as its headerView is not compiled yet") }
    entries.append(.init("NSTableView", .object(object(forID: tableID, line: element.line))))
    graph[header].entries = entries
    try compileChildren(of: element, object: header, known: ["rect", "autoresizingMask"])
    return header
  }
}

// MARK: View-based tables

extension CocoaNibCompiler {
  /// The frames AppKit gives a view-based table's prototype cell views, by column (`nil` for a
  /// column without one).
  ///
  /// Read off Apple's nibs (test24_tables_elastic, transmission_MainMenu, HSChooserWindow,
  /// outline_cellview): the cells keep their xib height and y; they are tiled across the row
  /// from x = 10 + ⌊intercell width / 2⌋, one intercell width apart, each as wide as in the
  /// xib (a column without a prototype counts its own width), and the row ends 10 points
  /// before the table's edge. When the widths do not add up, the difference goes to the one
  /// column that resizes with the table; AppKit lays the cells out as if a small vertical
  /// scroller were a regular one (outline_cellview: 297 of the table's 301 points; seen once).
  func prototypeCellFrames(
    of table: InterfaceDocument.Element, layout: TableLayout, scrollView: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> [ViewRect?] {
    let columns = Self.tableColumns(table)
    let spacing = table.child("size", key: "intercellSpacing")?.double("width") ?? 3
    let prototypes = columns.map { $0.child("prototypeCellViews")?.children.first { $0.name == "tableCellView" } }
    var widths = zip(columns, prototypes).map { column, prototype in prototype?.frameRect.width ?? column.double("width") ?? 0 }
    var rowWidth = layout.width
    let vertical = scrollView.child("scroller", key: "verticalScroller")
    if scrollView.flag("hasVerticalScroller", default: true), let vertical, !vertical.flag("hidden"), vertical["controlSize"] == "small" {
      rowWidth -= 4
    }
    let difference = rowWidth - (widths.reduce(0, +) + Double(columns.count) * spacing + 20)
    if difference != 0 {
      let resizable = columns.indices.filter { index in
        prototypes[index] != nil && columns[index].child("tableColumnResizingMask", key: "resizingMask")?.flag("resizeWithTable") == true
      }
      guard resizable.count == 1 else {
        throw unsupported(table, "prototype cell views whose widths do not fill the table's row: how AppKit shares the difference is not known here")
      }
      widths[resizable[0]] += difference
    }
    var x = 10 + (spacing / 2).rounded(.down)
    var frames: [ViewRect?] = []
    for (index, prototype) in prototypes.enumerated() {
      if let prototype {
        let frame = prototype.frameRect
        frames.append(ViewRect(x: x, y: frame.y, width: widths[index], height: frame.height))
      } else {
        frames.append(nil)
      }
      x += widths[index] + spacing
    }
    return frames
  }

  /// The prototype cell views of a view-based table, placed (``prototypeCellFrames(of:layout:scrollView:)``),
  /// with their column and reuse identifier (their own, else their column's).
  func prototypeCells(
    of table: InterfaceDocument.Element, layout: TableLayout, scrollView: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> [(column: Int, element: InterfaceDocument.Element, identifier: String)] {
    let frames = try prototypeCellFrames(of: table, layout: layout, scrollView: scrollView)
    var cells: [(column: Int, element: InterfaceDocument.Element, identifier: String)] = []
    for (index, column) in Self.tableColumns(table).enumerated() {
      guard let prototypes = column.child("prototypeCellViews") else { continue }
      for prototype in prototypes.children {
        guard prototype.name == "tableCellView" else { throw unsupported(prototype) }
        let identifier = prototype["identifier"] ?? column["identifier"] ?? "AutomaticTableColumnIdentifier.\(index)"
        var cell = prototype
        if let frame = frames[index] {
          // Several prototypes in one column each keep their own y and height (transmission_MainMenu).
          let own = prototype.frameRect
          cell = prototype.resized(to: ViewRect(x: frame.x, y: own.y, width: frame.width, height: own.height))
        }
        cells.append((index, cell, identifier))
      }
    }
    return cells
  }

  /// `NSTableViewArchivedReusableViewsKey`: an `NSMutableDictionary` from each prototype cell
  /// view's reuse identifier, in sorted order, to an `NSNib` whose `NSNibFileData` is a nib of
  /// its own holding the cell view.
  mutating func compileReusableViews(
    _ cells: [(column: Int, element: InterfaceDocument.Element, identifier: String)]
  ) throws(InterfaceBuilderError) -> Int {
    var nibs: [(identifier: String, nib: Int)] = []
    for cell in cells {
      let bytes = try Self.prototypeNib(cell.element, identifier: cell.identifier, document: document, options: options, index: index)
      let data = graph.data(bytes)
      let nib = graph.add(
        "NSNib",
        [
          .init("NSNibFileData", .object(data)), .init("NSNibFileIsKeyed", .bool(true)), .init("NSNibFileUseParentBundle", .bool(true)),
          .init("NSNibFileImages", .null), .init("NSNibFileSounds", .null),
        ])
      nibs.append((cell.identifier, nib))
    }
    // Apple writes the identifiers sorted (transmission_MainMenu, HSChooserWindow, reusable_views_order).
    nibs.sort { $0.identifier.unicodeScalars.lexicographicallyPrecedes($1.identifier.unicodeScalars) }
    var members: [Int] = []
    for (identifier, nib) in nibs { members += [sharedString(identifier), nib] }
    return graph.collection("NSMutableDictionary", members)
  }

  /// The nib of one prototype cell view: a File's Owner `NSObject`, the cell view (its parent the
  /// owner) and an `NSApplication` placeholder after it, with the cell view's own connections.
  static func prototypeNib(
    _ cell: InterfaceDocument.Element, identifier: String, document: InterfaceDocument, options: Options, index: DocumentIndex
  ) throws(InterfaceBuilderError) -> [UInt8] {
    // Each prototype is compiled twice (here and in the document), so a view-based table inside
    // a prototype would double the work at every level; Apple has no sample of one: refused.
    func holdsViewBasedTable(_ element: InterfaceDocument.Element) -> Bool {
      ((element.name == "tableView" || element.name == "outlineView") && element.flag("viewBased")) || element.children.contains(where: holdsViewBasedTable)
    }
    if holdsViewBasedTable(cell) {
      throw InterfaceBuilderError(
        .unsupported, path: document.path, line: cell.line, detail: "a view-based table inside a prototype cell view is not compiled (no sample of Apple's)")
    }
    var nested = CocoaNibCompiler(document: document, options: options, index: index)
    let objectData = nested.startArchive()
    nested.filesOwner = nested.graph.add("NSCustomObject", [.init("NSClassName", nested.string("NSObject"))])
    nested.objectsByID["-2"] = nested.filesOwner
    _ = try nested.compileTableCellView(cell, identifier: identifier, parent: nested.filesOwner)
    let application = nested.graph.add("NSCustomObject", [.init("NSClassName", nested.string("NSApplication"))])
    nested.objectsByID["-3"] = application
    nested.objectsWithParents.append((application, nested.filesOwner))
    let graph = try nested.finishArchive(objectData)
    return NIBArchive(graph, keepingUnreachable: false).encoded()
  }

  /// `<tableCellView>` → `NSTableCellView` with `NSReuseIdentifierKey` in its own nib, without
  /// it (`identifier` nil) as an object of the document.
  mutating func compileTableCellView(_ element: InterfaceDocument.Element, identifier: String?, parent: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["identifier", "misplaced"], view: true)
    let view = try begin(element, className: "NSTableCellView", parent: parent)
    var entries = try viewEntries(element, view: view, superview: nil)
    if let identifier {
      let reuse = NibGraph.Entry("NSReuseIdentifierKey", string(identifier))
      if let index = entries.firstIndex(where: { $0.key == "NSViewConstraints" }) {
        entries.insert(reuse, at: index)
      } else {
        entries.append(reuse)
      }
    }
    entries += tailViewEntries(element)
    graph[view].entries = entries
    try compileChildren(of: element, object: view, known: ["rect", "autoresizingMask", "subviews", "constraints"])
    return view
  }
}
