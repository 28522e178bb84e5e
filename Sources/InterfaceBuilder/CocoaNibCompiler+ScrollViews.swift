import Interface

extension CocoaNibCompiler {
  /// Scroll views and what lives in them: `<scrollView>`, `<clipView>`, `<scroller>`,
  /// `<tableView>`, `<outlineView>`, `<tableHeaderView>`, `<tableColumn>`, `<tableCellView>`,
  /// `<textView>`.
  mutating func compileScrollingView(
    _ element: InterfaceDocument.Element, parent: Int, superview: Int?
  ) throws(InterfaceBuilderError) -> Int {
    throw unsupported(element)
  }
}
