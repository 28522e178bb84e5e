import Interface

extension CocoaNibCompiler {
  /// Controls and containers beyond text fields and buttons.
  mutating func compileOtherControl(
    _ element: InterfaceDocument.Element, parent: Int, superview: Int?
  ) throws(InterfaceBuilderError) -> Int {
    throw unsupported(element)
  }

  /// Cells beyond `<textFieldCell>` and `<buttonCell>`.
  mutating func compileOtherCell(
    _ element: InterfaceDocument.Element, control: Int, parent: Int, controlElement: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> Int {
    throw unsupported(element)
  }
}
