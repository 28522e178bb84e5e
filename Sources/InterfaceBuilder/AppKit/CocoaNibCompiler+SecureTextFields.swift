import Interface

/// `<secureTextField>` and its `<secureTextFieldCell>`, which no Apple-compiled nib in the corpus
/// shows: a text field and text field cell of AppKit's secure subclasses, with the keys a
/// re-implementation of Apple's nib compiler writes for them.
extension CocoaNibCompiler {
  /// `<secureTextField>` → `NSSecureTextField`: a text field's keys (NSAllowsWritingTools false).
  mutating func compileSecureTextField(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    let field = try compileControl(element, className: "NSSecureTextField", parent: parent, superview: superview)
    noteUnverified(element, "<secureTextField> as NSSecureTextField with a text field's keys (NSAllowsWritingTools false)")
    return field
  }

  /// `<secureTextFieldCell>` → `NSSecureTextFieldCell`: a text field cell's keys, and its
  /// `<allowedInputSourceLocales>` strings as NSAllowedInputLocales (an `NSArray`).
  mutating func compileSecureTextFieldCell(
    _ element: InterfaceDocument.Element, control: Int, parent: Int, controlElement: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> Int {
    let cell = try compileTextFieldCell(element, control: control, parent: parent, controlElement: controlElement, className: "NSSecureTextFieldCell")
    if let locales = element.child("allowedInputSourceLocales") {
      var members: [Int] = []
      for item in locales.children {
        guard item.name == "string" else { throw unsupported(item) }
        members.append(sharedString(try stringContent(item)))
      }
      if !members.isEmpty { graph.append("NSAllowedInputLocales", .object(graph.collection("NSArray", members)), to: cell) }
    }
    if let completion = textCompletionEntry(controlElement) { graph.append(completion.key, completion.value, to: cell) }
    return cell
  }
}
