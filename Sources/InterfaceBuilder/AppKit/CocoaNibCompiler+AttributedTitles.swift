import Interface

extension CocoaNibCompiler {
  // MARK: Attributed titles

  /// An empty `<attributedString key="attributedTitle"/>` (a menu item's, as Interface Builder
  /// saves one whose attributed title was cleared) holds no text and no attributes: nothing is
  /// written and the plain `title` stands (reported as unverified: no pair has one). An
  /// attributed title with fragments is refused: how Apple archives its runs is not known here.
  mutating func emptyAttributedTitle(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) {
    try checkAttributes(element, known: ["key"])
    guard element.children.isEmpty else {
      throw unsupported(element, "an <attributedString key=\"attributedTitle\"> with text is not compiled yet (how Apple's ibtool compiles it is not known here)")
    }
    noteUnverified(element, "an empty <attributedString key=\"attributedTitle\"> not written (the plain title stands)")
  }
}
