import Interface

extension CocoaNibCompiler {
  // MARK: Accessibility

  /// `<accessibility description help>` on a view → NSAccessibilityOverriddenAttributes, an
  /// NSMutableArray of one NSMutableDictionary per attribute {AXDescription or AXHelp → the
  /// text, NSAccessibilityEncodedAttributesValueType → 1}, appended to the object's keys: the
  /// encoding Apple's ibtool gives a search field's cancel button its "cancel" description
  /// (searchfield pairs), written here for a view's own attributes (no pair has
  /// `<accessibility>`, so it is reported as unverified). Other attributes are refused.
  mutating func compileAccessibility(_ element: InterfaceDocument.Element, for object: Int) throws(InterfaceBuilderError) {
    try checkAttributes(element, known: ["description", "help"])
    if let child = element.children.first { throw unsupported(child) }
    var dictionaries: [Int] = []
    for (attribute, name) in [("description", "AXDescription"), ("help", "AXHelp")] {
      guard let text = element[attribute] else { continue }
      dictionaries.append(
        graph.collection(
          "NSMutableDictionary", [sharedString(name), sharedString(text), sharedString("NSAccessibilityEncodedAttributesValueType"), number(1)]))
    }
    guard !dictionaries.isEmpty else { return }
    graph.append("NSAccessibilityOverriddenAttributes", .object(graph.collection("NSMutableArray", dictionaries)), to: object)
    noteUnverified(element, "<accessibility> as NSAccessibilityOverriddenAttributes (the encoding of a search field cancel button's description)")
  }
}
