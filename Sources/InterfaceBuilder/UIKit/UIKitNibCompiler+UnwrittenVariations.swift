/// The size-class variations the UIKit compilers leave out, for `ibtool` to report.
///
/// Apple's encoding of a variation is known from the pairs for three things only (their trait
/// storages' `UIKeyPath`s): a constraint's `constant` (`encodedConstant`), a stack view's
/// `spacing` (`spacing`) and the constraints a view installs (`<mask key="constraints">`,
/// `traitStorageConstraints`), each for the size classes. Anything else a `<variation>` holds —
/// another attribute (`hidden`, `axis`), a child element (`<fontDescription>`, `<color>`, a mask
/// of subviews) — or a variation keyed by another trait has no sample: the element's base value
/// is compiled and the variation left out, which each warning says.
extension UIKitNibCompiler {
  /// A warning for each `<variation>` of `document` that is not written, or part of one (what it
  /// varies that is left out), in document order.
  public static func unwrittenVariations(in document: InterfaceDocument) -> [CompilerWarning] {
    var warnings: [CompilerWarning] = []
    collectUnwrittenVariations(under: document.root, path: document.path, into: &warnings)
    return warnings
  }

  static func collectUnwrittenVariations(under element: InterfaceDocument.Element, path: String?, into warnings: inout [CompilerWarning]) {
    for variation in element.children("variation") {
      let key = variation["key"] ?? ""
      guard traits(ofVariation: key) != nil else {
        warnings.append(
          CompilerWarning(
            path: path, line: variation.line, element: "variation",
            detail: "key=\"\(key)\" of <\(element.name)> varies a trait other than the size classes, which no Apple sample shows: left out, the base value compiled"))
        continue
      }
      var written: Set<String> = ["key"]
      if element.name == "constraint" { written.insert("constant") }
      if element.name == "stackView" { written.insert("spacing") }
      let attributes = variation.attributes.map(\.name).filter { !written.contains($0) }
      let children = variation.children.filter { !($0.name == "mask" && $0["key"] == "constraints") }.map { child in
        "<\(child.name)\(child["key"].map { " key=\"\($0)\"" } ?? "")>"
      }
      guard !attributes.isEmpty || !children.isEmpty else { continue }
      let varied = (attributes.map { "`\($0)`" } + children).joined(separator: ", ")
      warnings.append(
        CompilerWarning(
          path: path, line: variation.line, element: "variation",
          detail: "key=\"\(key)\" of <\(element.name)> varies \(varied), which no Apple sample shows: left out, the base value compiled"))
    }
    for child in element.children where child.name != "variation" {
      collectUnwrittenVariations(under: child, path: path, into: &warnings)
    }
  }
}
