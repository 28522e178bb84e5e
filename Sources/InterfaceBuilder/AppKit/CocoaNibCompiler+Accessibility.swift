import Interface

extension CocoaNibCompiler {
  // MARK: Accessibility

  /// `<accessibility description help>` on an object → one `NSNibAXAttributeConnector` per
  /// attribute {AXDestinationArchiveKey → the object, AXAttributeTypeArchiveKey → an
  /// `NSMutableString` "AXDescription" or "AXHelp", AXAttributeValueArchiveKey → the text
  /// (localizable as "<id>.ibExternalAccessibilityDescription" or "…Help")}, listed in the
  /// NSIBObjectData's NSAccessibilityConnectors with ids after all the others
  /// (``finishArchive(_:)``). This is how a public ibtool re-implementation read a description
  /// off Apple's compile of NetNewsWire's SidebarView.xib (the sidebar's "Feeds"); the help
  /// attribute is assumed to take the same path. No corpus pair has `<accessibility>`, so it is
  /// reported as unverified. Other attributes are refused.
  mutating func compileAccessibility(
    _ element: InterfaceDocument.Element, for object: Int, owner: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) {
    try checkAttributes(element, known: ["description", "help"])
    if let child = element.children.first { throw unsupported(child) }
    for (attribute, name, property) in [
      ("description", "AXDescription", "ibExternalAccessibilityDescription"), ("help", "AXHelp", "ibExternalAccessibilityHelp"),
    ] {
      guard let text = element[attribute] else { continue }
      let type = graph.string(name, className: "NSMutableString")
      let connector = graph.add(
        "NSNibAXAttributeConnector",
        [
          .init("AXDestinationArchiveKey", .object(object)), .init("AXAttributeTypeArchiveKey", .object(type)),
          .init("AXAttributeValueArchiveKey", localizable(text, owner, property)),
        ])
      accessibilityConnectors.append(connector)
      noteUnverified(element, "<accessibility \(attribute)> as an NSNibAXAttributeConnector (\(name)) among the NSAccessibilityConnectors")
    }
  }
}
