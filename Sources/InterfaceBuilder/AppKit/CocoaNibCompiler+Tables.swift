import Interface

/// How AppKit lays out a cell-based table inside its scroll view when the nib is archived.
///
/// Rules read off Apple's pairs (test_table_uniform_header, test_sv2, test_6col, scrollview_table,
/// sv16b, test_outline_small_sv, …), with `W` the table's width once its clip view is tiled and
/// `columns` = Σ width + (n − 1) × intercellSpacing.width:
/// * the columns *need* `columns + 32` (the 16-point padding of the automatic/inset style on
///   either side); when `W` is at least that, nothing moves;
/// * when they need more (they overflow), AppKit autoresizes them to fill the table by its column
///   autoresizing style (NSColumnAutoresizingStyle) so that `columns + 12 = W` — shrinking or
///   growing the column that resizes with the table (scrollview_table: 115 → 106 in 141;
///   sv16b: 542 → 556 in 568; test_outline_small_sv: 231 → 218 in 301);
/// * when no column taking part in that style can shrink, the table grows to what its columns
///   need instead (test_6col, test_table_no_header: `columns + 32`), the columns keep their widths;
/// * NSTvFlags bits 21–22 record the outcome: 1 columns narrower than the table, 2 columns that
///   fill it (either padding), 3 a table grown to its columns.
///
/// A table whose scroll view resizes with its window loses 29 points of columns instead
/// (`CocoaNibCompiler.windowLayout`).
///
/// Refused, as no sample shows them: several columns sharing the fit, a column reaching its
/// minimum or maximum width on the way.
struct TableLayout {
  var width: Double
  var relation: Int
  /// NSWidth of each column, in document order.
  var columnWidths: [Double]
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

  /// Whether a column resizes with its table (`<tableColumnResizingMask resizeWithTable="YES">`).
  static func resizesWithTable(_ column: InterfaceDocument.Element) -> Bool {
    column.child("tableColumnResizingMask", key: "resizingMask")?.flag("resizeWithTable") == true
  }

  /// The indices of the columns a column autoresizing style (NSColumnAutoresizingStyle) lets
  /// AppKit resize, as AppKit documents the styles: every column that resizes with the table
  /// (uniform, sequential, reverse sequential), only the last or only the first column (and only
  /// if it resizes with the table), or none.
  static func autoresizedColumns(_ columns: [InterfaceDocument.Element], style: Int) -> [Int] {
    switch style {
    case 1, 2, 3: return columns.indices.filter { resizesWithTable(columns[$0]) }
    case 4: return columns.indices.last.map { resizesWithTable(columns[$0]) ? [$0] : [] } ?? []
    case 5: return columns.indices.first.map { resizesWithTable(columns[$0]) ? [$0] : [] } ?? []
    default: return []
    }
  }

  /// A table's intercell spacing: its `<size key="intercellSpacing">`, or 0×0 without one (every
  /// pair's table gives it; a public ibtool re-implementation read 0×0 off Apple's compile of
  /// NetNewsWire's TimelineTableView.xib, which gives none: its scroll view's line scroll is the
  /// row height, 96, alone). A table without one is reported by compileTable as unverified.
  static func intercellSpacing(_ table: InterfaceDocument.Element) -> (width: Double, height: Double) {
    guard let size = table.child("size", key: "intercellSpacing") else { return (0, 0) }
    return (size.double("width") ?? 0, size.double("height") ?? 0)
  }

  /// The layout of a table whose frame (after its clip view was tiled) is `element`'s frame.
  func tableLayout(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> TableLayout {
    let columns = Self.tableColumns(element)
    let widths = columns.map { $0.double("width") ?? 0 }
    let spacing = Self.intercellSpacing(element).width
    var occupied = widths.reduce(0, +)
    if columns.count > 1 { occupied += Double(columns.count - 1) * spacing }
    let needed = occupied + 32
    let available = element.frameRect.width
    if needed < available { return TableLayout(width: available, relation: 1, columnWidths: widths) }
    if needed == available { return TableLayout(width: available, relation: 2, columnWidths: widths) }
    let style = Self.columnAutoresizingStyles[element["columnAutoresizingStyle"] ?? "uniform"] ?? 1
    func canShrink(_ index: Int) -> Bool { widths[index] > (columns[index].double("minWidth") ?? 0) }
    let shrinkable = columns.indices.contains { Self.resizesWithTable(columns[$0]) && canShrink($0) }
    if element["rowSizeStyle"] == "automatic" {
      // With the automatic row size style AppKit leaves the columns as they are (test24_tables_elastic,
      // sv_nohs_wide_col: the table grows), except that a uniform table whose columns fill it
      // with 12 points to spare keeps its width (outline_cellview: 218 + 34 + 31 + 2 × 3 + 12 = 301).
      if style == 1, shrinkable, occupied + 12 == available { return TableLayout(width: available, relation: 2, columnWidths: widths) }
      return TableLayout(width: needed, relation: 3, columnWidths: widths)
    }
    let resized = Self.autoresizedColumns(columns, style: style)
    if !resized.contains(where: canShrink) {
      // Nothing the style resizes can give way: the table grows to its columns (test_6col,
      // test_table_no_header; the "none" style resizes nothing). Another column that could
      // shrink under a style that leaves it alone has no sample: refused.
      if shrinkable, style != 0 { return try unknownResizing(element, occupied: occupied, widths: widths, "its style resizes none of the columns that could shrink") }
      return TableLayout(width: needed, relation: 3, columnWidths: widths)
    }
    if let scrollView = enclosingScrollView(ofDocumentID: element["id"] ?? ""), index.windowResizedScrollViewIDs.contains(scrollView["id"] ?? "") {
      return try windowLayout(element, scrollView: scrollView, style: style, widths: widths, occupied: occupied)
    }
    guard resized.count == 1, let column = resized.first else {
      return try unknownResizing(element, occupied: occupied, widths: widths, "several columns would share the change")
    }
    var fitted = widths
    fitted[column] += available - 12 - occupied
    let minimum = columns[column].double("minWidth") ?? 0, maximum = columns[column].double("maxWidth") ?? .infinity
    guard fitted[column] >= minimum, fitted[column] <= maximum else {
      return try unknownResizing(element, occupied: occupied, widths: widths, "a column would reach its minimum or maximum width")
    }
    return TableLayout(width: available, relation: 2, columnWidths: fitted)
  }

  /// The layout of an overflowing table whose scroll view resizes with its window, read off
  /// test_single_col_noresize, test_table_1col_autohide, test_table_mult_sel_no,
  /// test_outline_indent and sv_nohs_small_vs (all five in 400-point windows, their vertical
  /// scrollers hidden until needed): when the columns fill the table (`columns + 12 ≥ W`), AppKit
  /// takes 29 points off them and leaves the table its width: 350 → 321 (uniform, one column),
  /// 178 + 172 → 163 + 158 (uniform, shares by width, rounded), 172 → 143 (the last column of
  /// two), 344 → 315 (a small scroller). 29 is what a shown regular vertical scroller (17,
  /// ``scrollerWidth(_:table:)``) and the fit's 12 points take together, as if the window's
  /// layout first showed the scroller and AppKit never gave the room back when it hid again; that
  /// reading is a guess, the 29 is what the five nibs show. The columns are then narrower than
  /// the table (NSTvFlags relation 1).
  ///
  /// Refused outside what those five show: a scroll view that does not autohide a hidden vertical
  /// scroller, columns that do not fill the table, a style other than uniform or last column only,
  /// a share that the two readings of "uniform" (by width, by room above the minimum width) do not
  /// agree on, a column taken past its minimum, and columns that still overflow afterwards.
  private func windowLayout(
    _ element: InterfaceDocument.Element, scrollView: InterfaceDocument.Element, style: Int, widths: [Double], occupied: Double
  ) throws(InterfaceBuilderError) -> TableLayout {
    func refuse(_ reason: String) throws(InterfaceBuilderError) -> TableLayout {
      try unknownResizing(element, occupied: occupied, widths: widths, "its scroll view resizes with its window and " + reason)
    }
    let vertical = scrollView.child("scroller", key: "verticalScroller")
    guard scrollView.flag("autohidesScrollers"), scrollView.flag("hasVerticalScroller", default: true), vertical?.flag("hidden") == true else {
      return try refuse("its vertical scroller is not one hidden until needed")
    }
    let available = element.frameRect.width
    guard occupied + 12 >= available else { return try refuse("its columns leave more than 12 points") }
    let columns = Self.tableColumns(element)
    let taken = Self.scrollerWidth(nil) + 12
    let resized = Self.autoresizedColumns(columns, style: style)
    var shares: [Int: Double] = [:]
    switch style {
    case 4:
      guard let last = resized.first else { return try refuse("its last column does not resize with it") }
      shares[last] = taken
    case 1:
      // Shares of `taken` in proportion to `weight`, rounded, the last column taking what is left.
      func shared(_ weight: (Int) -> Double) -> [Int: Double]? {
        let total = resized.reduce(0) { $0 + weight($1) }
        guard total > 0 else { return nil }
        var result: [Int: Double] = [:]
        var left = taken
        for index in resized.dropLast() {
          let share = (taken * weight(index) / total).rounded()
          result[index] = share
          left -= share
        }
        if let last = resized.last { result[last] = left }
        return result
      }
      let byWidth = shared { widths[$0] }
      let byRoom = shared { widths[$0] - (columns[$0].double("minWidth") ?? 0) }
      guard let byWidth, byWidth == byRoom else { return try refuse("how its columns share the change is not known") }
      shares = byWidth
    default:
      return try refuse("its column autoresizing style is neither uniform nor last column only")
    }
    var narrowed = widths
    for (index, share) in shares {
      narrowed[index] -= share
      guard narrowed[index] >= (columns[index].double("minWidth") ?? 0) else { return try refuse("a column would pass its minimum width") }
    }
    let occupiedNow = occupied - taken
    guard occupiedNow + 32 <= available else { return try refuse("its columns would still overflow it") }
    return TableLayout(width: available, relation: occupiedNow + 32 == available ? 2 : 1, columnWidths: narrowed)
  }

  /// Refuses a table whose columns AppKit would autoresize in a way not known here; in lenient
  /// mode the document's widths are kept, the table as wide as they need.
  private func unknownResizing(
    _ element: InterfaceDocument.Element, occupied: Double, widths: [Double], _ reason: String
  ) throws(InterfaceBuilderError) -> TableLayout {
    guard options.lenientPlan != nil else {
      throw unsupported(element, "a table whose columns are wider than its clip view and may shrink with it (\(reason)): how AppKit resizes them is not known here")
    }
    return TableLayout(width: occupied + 32, relation: 3, columnWidths: widths, keepsDocumentWidths: true)
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
        "rowSizeStyle", "viewBased", "selectionHighlightStyle", "usesAutomaticRowHeights", "tableStyle", "floatsGroupRows",
      ]).union(isOutline ? ["indentationPerLevel", "outlineTableColumn", "autoresizesOutlineColumn", "autosaveExpandedItems", "indentationMarkerFollowsCell"] : []),
      view: true)
    let viewBased = element.flag("viewBased")
    for child in element.children {
      switch child.name {
      case "rect", "autoresizingMask", "tableColumns", "connections", "accessibility": break  // accessibility: compileChildren
      case "size" where child["key"] == "intercellSpacing": break
      case "color" where child["key"] == "backgroundColor" || child["key"] == "gridColor": break
      default: throw unsupported(child)
      }
    }
    guard let id = element["id"], let scrollElement = enclosingScrollView(ofDocumentID: id) else {
      throw unsupported(element, "a table outside a scroll view is not compiled yet")
    }
    let tableStyle = try self.tableStyle(element)
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
      // NSvFlags: hidden (0x80000000 | 0x100) when neither scroller can show, the table having
      // no horizontal scroller and columns that fill it (scrollview_table, transmission_MainMenu;
      // not HSChooserWindow with its horizontal scroller, sv_nohs_wide_col with its wider table).
      var cornerFlags = 256
      if vertical == nil || vertical?.flag("hidden") == true || !scrollElement.flag("hasVerticalScroller", default: true) {
        cornerFrame = ViewRect(x: 0, y: 0, width: 17, height: 28)
        if !scrollElement.flag("hasHorizontalScroller", default: true), layout.relation == 2 { cornerFlags = Int(bitPattern: 0xFFFF_FFFF_8000_0100) }
      } else {
        let inset = Self.borderInset(scrollElement)
        cornerFrame = ViewRect(x: scrollElement.frameRect.width - inset - 17, y: inset, width: 18, height: 28)
      }
      var cornerEntries: [NibGraph.Entry] = [
        .init("NSNextResponder", .null), .init("NSNibTouchBar", .null), .init("NSvFlags", NibGraph.integer(cornerFlags)), frameEntry(cornerFrame),
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
      columns.append(try compileTableColumn(column, index: index, width: layout.columnWidths[index], table: table, tableElement: element, prototypes: own))
    }
    entries.append(.init("NSTableColumns", .object(graph.collection("NSMutableArray", columns))))
    let spacing = Self.intercellSpacing(element)
    if element.child("size", key: "intercellSpacing") == nil {
      noteUnverified(element, "a table without <size key=\"intercellSpacing\"> as intercell spacing 0×0")
    }
    entries.append(.init("NSIntercellSpacingWidth", .float64(spacing.width)))
    entries.append(.init("NSIntercellSpacingHeight", .float64(spacing.height)))
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
    entries += try selectionHighlightEntries(element, tableStyle: tableStyle)
    if viewBased {
      let reusable = try compileReusableViews(prototypes)
      entries.append(.init("NSTableViewArchivedReusableViewsKey", .object(reusable)))
    }
    if let floating = floatsGroupRowsEntry(element) { entries.append(floating) }
    entries.append(.init("NSTableViewGroupRowStyle", .int8(1)))
    // NSTableViewUseARH: usesAutomaticRowHeights (HSChooserWindow); where an outline view
    // puts it among its own keys is not known.
    if element.flag("usesAutomaticRowHeights") {
      guard !isOutline else { throw unsupported(element, "usesAutomaticRowHeights on an outline view is not compiled yet (no sample of Apple's)") }
      entries.append(.init("NSTableViewUseARH", .bool(true)))
    }
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
  ///
  /// `width` is its NSWidth once AppKit has laid the table out (``tableLayout(_:)``).
  mutating func compileTableColumn(
    _ element: InterfaceDocument.Element, index: Int, width: Double, table: Int, tableElement: InterfaceDocument.Element,
    prototypes: [InterfaceDocument.Element] = []
  ) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["identifier", "editable", "width", "minWidth", "maxWidth"])
    for child in element.children {
      switch child.name {
      case "tableHeaderCell" where child["key"] == "headerCell": break
      case "tableColumnResizingMask" where child["key"] == "resizingMask": break
      case _ where child["key"] == "dataCell": break
      case "prototypeCellViews" where tableElement.flag("viewBased"): break
      case "sortDescriptor" where child["key"] == "sortDescriptorPrototype": break
      case "connections": break
      default: throw unsupported(child)
      }
    }
    let column = try begin(element, className: "NSTableColumn", parent: table)
    var entries: [NibGraph.Entry] = [
      .init("NSIdentifier", string(element["identifier"] ?? "AutomaticTableColumnIdentifier.\(index)")),
      .init("NSWidth", .float64(width)),
      .init("NSMinWidth", .float64(element.double("minWidth") ?? 0)),
      .init("NSMaxWidth", .float64(element.double("maxWidth") ?? 0)),
    ]
    guard let headerElement = element.child("tableHeaderCell", key: "headerCell") else { throw invalid(element, "a table column needs its header cell") }
    entries.append(.init("NSHeaderCell", .object(try compileTableHeaderCell(headerElement, column: column))))
    guard let dataElement = element.children.first(where: { $0["key"] == "dataCell" }) else { throw invalid(element, "a table column needs its data cell") }
    entries.append(.init("NSDataCell", .object(try compileCell(dataElement, control: table, parent: column, controlElement: tableElement))))
    // The prototype cell views are also objects of the document itself, children of their
    // column, reached only through their connections (outline_cellview); one with an identifier
    // of its own keeps it there as NSReuseIdentifierKey (HSChooserWindow, transmission_MainMenu).
    for prototype in prototypes { _ = try compileTableCellView(prototype, identifier: prototype["identifier"], parent: column) }
    if let mask = element.child("tableColumnResizingMask", key: "resizingMask") {
      let bits = (mask.flag("resizeWithTable") ? 1 : 0) | (mask.flag("userResizable") ? 2 : 0)
      if bits != 0 {
        entries.append(.init("NSResizingMask", .int8(Int8(bits))))
        entries.append(.init("NSIsResizeable", .bool(true)))
      }
    }
    if element.flag("editable", default: true) { entries.append(.init("NSIsEditable", .bool(true))) }
    if let prototype = element.child("sortDescriptor", key: "sortDescriptorPrototype") {
      entries.append(.init("NSSortDescriptorPrototype", .object(try compileSortDescriptor(prototype))))
    }
    entries.append(.init("NSTableView", .object(table)))
    graph[column].entries = entries
    try compileChildren(
      of: element, object: column,
      known: ["tableHeaderCell", "tableColumnResizingMask", "prototypeCellViews", "sortDescriptor", element.children.first { $0["key"] == "dataCell" }?.name ?? ""])
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
        func isColorKey(_ key: String) -> Bool { key.hasPrefix("white") || key.hasPrefix("rgb") }
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
  /// column without one), and whether they are the document's own frames (`keptDocumentFrames`).
  ///
  /// Read off Apple's nibs (test24_tables_elastic, transmission_MainMenu, HSChooserWindow,
  /// outline_cellview): the cells keep their xib height and y; they are tiled across the row
  /// from x = 10 + ⌊intercell width / 2⌋, one intercell width apart, each as wide as in the
  /// xib (a column without a prototype counts its own width), and the row ends 10 points
  /// before the table's edge. When the widths do not add up, the difference goes to the one
  /// column that resizes with the table; AppKit lays the cells out as if a small vertical
  /// scroller were a regular one (outline_cellview: 297 of the table's 301 points; seen once).
  ///
  /// Not from a sample: when no single column can take the difference, or the table's style is
  /// not the inset one those rules come from (`tableStyle` fullWidth, plain, sourceList: their
  /// row padding differs), the cell views keep the frames the document gives them — Interface
  /// Builder saves them laid out for the table as it shows it. A table without prototypes has
  /// nothing to place.
  func prototypeCellFrames(
    of table: InterfaceDocument.Element, layout: TableLayout, scrollView: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> (frames: [ViewRect?], keptDocumentFrames: Bool) {
    let columns = Self.tableColumns(table)
    let spacing = Self.intercellSpacing(table).width
    let prototypes = columns.map { $0.child("prototypeCellViews")?.children.first { $0.name == "tableCellView" } }
    let documentFrames = prototypes.map { $0?.frameRect }
    guard prototypes.contains(where: { $0 != nil }) else { return (documentFrames, false) }
    if !["automatic", "inset"].contains(table["tableStyle"] ?? "automatic") { return (documentFrames, true) }
    var widths = zip(layout.columnWidths, prototypes).map { width, prototype in prototype?.frameRect.width ?? width }
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
      // How AppKit shares the difference among several columns (or gives it to none) is not known.
      guard resizable.count == 1 else { return (documentFrames, true) }
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
    return (frames, false)
  }

  /// The prototype cell views of a view-based table, placed (``prototypeCellFrames(of:layout:scrollView:)``),
  /// with their column and reuse identifier (their own, else their column's).
  mutating func prototypeCells(
    of table: InterfaceDocument.Element, layout: TableLayout, scrollView: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> [(column: Int, element: InterfaceDocument.Element, identifier: String)] {
    let (frames, kept) = try prototypeCellFrames(of: table, layout: layout, scrollView: scrollView)
    if kept {
      noteUnverified(table, "prototype cell views kept at the document's frames (how AppKit lays them out in this table is not known here)")
    }
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
    nested.isPrototypeNib = true
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
