import Interface

extension CocoaNibCompiler {
  // MARK: A window's content border

  /// `<contentBorderThickness minY="22" maxY="…"/>` on a `<window>` → on its `NSWindowTemplate`,
  /// per edge given: `NSContentBorderThicknessMin<Y>` (a double) and
  /// `NSAutorecalculatesContentBorderThicknessMin<Y>` false (`setContentBorderThickness:forEdge:`
  /// and `setAutorecalculatesContentBorderThickness:forEdge:`, which AppKit supports for the
  /// bottom and top edges only).
  ///
  /// Evidence: the keys, their types and the false flag are the public Python ibtool clone's
  /// (viraptor/ibtool `ibtool/parsers/contentBorderThickness.py`, minY; its comparer checks value
  /// types but not key order); the top edge (`maxY` → `…MaxY`) follows AppKit's model by
  /// analogy. No corpus nib shows a content border, so the keys' place (after the template's
  /// other keys) is not known and each one is reported as unverified.
  mutating func compileContentBorder(_ element: InterfaceDocument.Element, window: Int) throws(InterfaceBuilderError) {
    try checkAttributes(element, known: ["minY", "maxY"])
    if let child = element.children.first { throw unsupported(child) }
    for (attribute, edge) in [("minY", "MinY"), ("maxY", "MaxY")] {
      guard let text = element[attribute] else { continue }
      guard let thickness = element.double(attribute), thickness.isFinite, thickness >= 0 else {
        throw invalid(element, "\(attribute) \"\(text)\" is not a thickness")
      }
      graph.append("NSContentBorderThickness" + edge, .float64(thickness), to: window)
      graph.append("NSAutorecalculatesContentBorderThickness" + edge, .bool(false), to: window)
      noteUnverified(element, "<contentBorderThickness \(attribute)> as NSContentBorderThickness\(edge) after the window template's other keys")
    }
  }
}
