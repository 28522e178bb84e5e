import Interface

extension CocoaNibCompiler {
  /// A stack view's own content hugging and compression resistance (`horizontalHuggingPriority`,
  /// `verticalCompressionResistancePriority`, … on `<stackView>`, not its stack hugging) →
  /// NSHuggingPriority "{h, v}" unless both are NSView's default 250, and NSAntiCompressionPriority
  /// "{h, v}" whenever either is given (a missing one 750), as for other views (the keys
  /// NSView's decoder reads; the corpus has no Apple-compiled stack view with either, so NSView's
  /// defaults are taken as the stack view's).
  mutating func stackViewPriorityEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let hugging = hugging(element) { entries.append(.init("NSHuggingPriority", hugging)) }
    if let resistance = compressionString(element) { entries.append(.init("NSAntiCompressionPriority", string(resistance))) }
    let given = ["horizontalHuggingPriority", "verticalHuggingPriority", "horizontalCompressionResistancePriority", "verticalCompressionResistancePriority"]
      .filter { element[$0] != nil }
    if !given.isEmpty {
      noteUnverified(element, "<stackView> \(given.joined(separator: ", ")) as NSHuggingPriority/NSAntiCompressionPriority with NSView's defaults (250, 750)")
    }
    return entries
  }
}
