import Interface

/// Table attributes no Apple-compiled nib in the corpus shows, written with the archive keys
/// AppKit's `NSTableView` and `NSTableColumn` decoders read: the table style, floating group
/// rows and a column's sort descriptor prototype. Each one compiled is reported by
/// ``CocoaNibCompiler/noteUnverified(_:_:)``.
extension CocoaNibCompiler {
  /// `tableStyle` → NSTableViewStyle (AppKit's enum: automatic 0, fullWidth 1, inset 2,
  /// sourceList 3, plain 4).
  static let tableStyles = ["automatic": 0, "fullWidth": 1, "inset": 2, "sourceList": 3, "plain": 4]

  /// The table's NSTableViewStyle, or `nil` for the automatic style (the attribute left out).
  ///
  /// - Throws: `.invalidDocument` for a style AppKit does not have.
  func tableStyle(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int? {
    guard let name = element["tableStyle"] else { return nil }
    guard let style = Self.tableStyles[name] else { throw invalid(element, "tableStyle \"\(name)\" is not known") }
    return style == 0 ? nil : style
  }

  /// `<tableView tableStyle="…">` → `NSTableViewStyle` (int), the key AppKit's table decoder
  /// reads, when it differs from AppKit's default (automatic). No corpus pair has one; a public
  /// ibtool re-implementation read its place off Apple's compiles of NetNewsWire's
  /// CurrentActivityWindow.xib, DinosaursWindow.xib and AccountsPreferencesView.xib: right
  /// after NSAllowsTypeSelect (and a source list's NSTableViewSelectionHighlightStyle), before
  /// NSTableViewDraggingDestinationStyle; fullWidth 1, inset 2.
  mutating func tableStyleEntry(_ element: InterfaceDocument.Element, style: Int?) -> NibGraph.Entry? {
    guard let style else { return nil }
    var what = "tableStyle=\"\(element["tableStyle"] ?? "")\" as NSTableViewStyle \(style), AppKit's decoder key"
    if style != 2 { what += "; the columns are laid out by the inset style's rules" }
    noteUnverified(element, what)
    return .init("NSTableViewStyle", .int8(Int8(style)))
  }

  /// `selectionHighlightStyle` → the keys between NSAllowsTypeSelect and the archived reusable
  /// views: `NSTableViewSelectionHighlightStyle` (AppKit's NSTableViewSelectionHighlightStyle:
  /// none -1, regular 0, sourceList 1) when it is not regular, the table style
  /// (``tableStyleEntry(_:style:)``), then `NSTableViewDraggingDestinationStyle` — 1 for a source
  /// list, whose dragging feedback AppKit turns to the source-list style too (HSChooserWindow),
  /// else AppKit's default, regular 0.
  ///
  /// `none` rests on no Apple-compiled nib and on no public sample (the clone knows only
  /// `sourceList`): the value is AppKit's enum, a negative integer, which Apple's nibs hold as an
  /// int64 (every control's NSControlWritingDirection -1); AppKit's documentation has only a
  /// source list change the dragging feedback, so it stays 0. Reported as unverified.
  ///
  /// - Throws: `.invalidDocument` for a style AppKit does not have.
  mutating func selectionHighlightEntries(_ element: InterfaceDocument.Element, tableStyle: Int?) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    let dragging: Int8
    switch element["selectionHighlightStyle"] ?? "regular" {
    case "regular":
      dragging = 0
    case "sourceList":
      entries.append(.init("NSTableViewSelectionHighlightStyle", .int8(1)))
      dragging = 1
    case "none":
      noteUnverified(element, "selectionHighlightStyle=\"none\" as NSTableViewSelectionHighlightStyle -1, AppKit's enum")
      entries.append(.init("NSTableViewSelectionHighlightStyle", NibGraph.integer(-1)))
      dragging = 0
    case let other:
      throw invalid(element, "selectionHighlightStyle \"\(other)\" is not known")
    }
    if let styleEntry = tableStyleEntry(element, style: tableStyle) { entries.append(styleEntry) }
    entries.append(.init("NSTableViewDraggingDestinationStyle", .int8(dragging)))
    return entries
  }

  /// `floatsGroupRows="NO"` → `NSTableViewShouldFloatGroupRows` false, after the archived
  /// reusable views and before NSTableViewGroupRowStyle (where the same re-implementation writes
  /// it for NetNewsWire's SidebarView.xib). No corpus pair has one.
  mutating func floatsGroupRowsEntry(_ element: InterfaceDocument.Element) -> NibGraph.Entry? {
    guard !element.flag("floatsGroupRows", default: true) else { return nil }
    noteUnverified(element, "floatsGroupRows=\"NO\" as NSTableViewShouldFloatGroupRows false, AppKit's decoder key")
    return .init("NSTableViewShouldFloatGroupRows", .bool(false))
  }

  /// `<sortDescriptor key="sortDescriptorPrototype" sortKey=… selector=… ascending=…>` (a table
  /// column's) → `NSSortDescriptor` {NSKey, NSAscending, NSSelector, NSReverseNullOrder false},
  /// the keys Foundation's decoder reads (known from re-implementations; no Apple sample).
  mutating func compileSortDescriptor(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["sortKey", "selector", "ascending"])
    if let child = element.children.first { throw unsupported(child) }
    guard let key = element["sortKey"] else { throw invalid(element, "a sort descriptor needs its sortKey") }
    let descriptor = graph.add("NSSortDescriptor")
    graph[descriptor].entries = [
      .init("NSKey", string(key)), .init("NSAscending", .bool(element.flag("ascending", default: true))),
      .init("NSSelector", string(element["selector"] ?? "compare:")), .init("NSReverseNullOrder", .bool(false)),
    ]
    noteUnverified(element, "<sortDescriptor> as NSSortDescriptor {NSKey, NSAscending, NSSelector, NSReverseNullOrder}, Foundation's decoder keys")
    return descriptor
  }
}
