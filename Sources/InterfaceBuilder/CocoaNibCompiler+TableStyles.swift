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

  /// `<tableView tableStyle="…">` → `NSTableViewStyle` (int) and `floatsGroupRows="NO"` →
  /// `NSTableViewShouldFloatGroupRows` false, the keys AppKit's table decoder reads (known from
  /// re-implementations of Apple's nib compiler and of AppKit; no Apple sample). Written only
  /// when they differ from AppKit's defaults (automatic, floating).
  mutating func tableStyleEntries(_ element: InterfaceDocument.Element, style: Int?) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if !element.flag("floatsGroupRows", default: true) {
      entries.append(.init("NSTableViewShouldFloatGroupRows", .bool(false)))
      noteUnverified(element, "floatsGroupRows=\"NO\" as NSTableViewShouldFloatGroupRows false, AppKit's decoder key")
    }
    if let style {
      entries.append(.init("NSTableViewStyle", .int8(Int8(style))))
      var what = "tableStyle=\"\(element["tableStyle"] ?? "")\" as NSTableViewStyle \(style), AppKit's decoder key"
      if style != 2 { what += "; the columns are laid out by the inset style's rules" }
      noteUnverified(element, what)
    }
    return entries
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
