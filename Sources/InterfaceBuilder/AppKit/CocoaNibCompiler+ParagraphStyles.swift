import Interface

extension CocoaNibCompiler {
  // MARK: Paragraph styles

  /// The attributes of a `<paragraphStyle>` the compiler reads.
  static let paragraphStyleAttributes: Set<String> = ["key", "alignment", "lineBreakMode", "baseWritingDirection"]

  /// AppKit's `NSTextAlignment` on macOS (left 0, right 1, center 2, justified 3, natural 4).
  static let paragraphAlignments = ["left": 0, "right": 1, "center": 2, "justified": 3, "natural": 4]

  /// `<paragraphStyle key="NSParagraphStyle" alignment lineBreakMode baseWritingDirection>` with
  /// its `<tabStops>` → `NSParagraphStyle` {NSAlignment (natural when absent), NSTighteningFactorForTruncation
  /// 0.05 (the float's value as a double), NSTabStops (an NSArray of `NSTextTab` {NSLocation},
  /// one object per location across the text), NSAllowsTighteningForTruncation 1}. The line break
  /// mode and the writing direction are AppKit's defaults for text storage and write no key of
  /// their own; they only keep runs apart. This is the public Python clone's reading of Apple's
  /// compiles (viraptor/ibtool `attributedString.py`, `_build_paragraph_style`); no corpus pair
  /// has a paragraph style, so each is reported as unverified. Other paragraph attributes (line
  /// spacing, indents, heights…) and tab stops other than left-aligned ones are refused with
  /// their line: how Apple archives them is not known here.
  mutating func paragraphStyle(_ element: InterfaceDocument.Element, tabs: inout [Double: Int]) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: Self.paragraphStyleAttributes)
    let alignmentName = element["alignment"] ?? "natural"
    guard let alignment = Self.paragraphAlignments[alignmentName] else { throw invalid(element, "alignment \"\(alignmentName)\" is not known") }
    if let direction = element["baseWritingDirection"], Self.writingDirections[direction] == nil {
      throw invalid(element, "baseWritingDirection \"\(direction)\" is not known")
    }
    if let mode = element["lineBreakMode"], Self.lineBreakModes[mode] == nil { throw invalid(element, "lineBreakMode \"\(mode)\" is not known") }
    var stops: [Int] = []
    for location in try tabLocations(element) {
      if let known = tabs[location] {
        stops.append(known)
      } else {
        let tab = graph.add("NSTextTab", [.init("NSLocation", .float64(location))])
        tabs[location] = tab
        stops.append(tab)
      }
    }
    noteUnverified(element, "a paragraph style as NSParagraphStyle {NSAlignment \(alignment), NSTabStops, tightening for truncation}")
    return graph.add(
      "NSParagraphStyle",
      [
        .init("NSAlignment", NibGraph.integer(alignment)), .init("NSTighteningFactorForTruncation", .float64(Double(Float(0.05)))),
        .init("NSTabStops", .object(graph.collection("NSArray", stops))), .init("NSAllowsTighteningForTruncation", .int8(1)),
      ])
  }

  /// The locations of a paragraph style's left-aligned `<textTab>`s, in order.
  func tabLocations(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [Double] {
    var locations: [Double] = []
    for child in element.children {
      guard child.name == "tabStops", child["key"] == nil else {
        throw unsupported(child, "<\(child.name)> in a paragraph style is not compiled yet")
      }
      for tab in child.children {
        guard tab.name == "textTab", tab["alignment"] == nil || tab["alignment"] == "left", let location = tab.double("location"), location.isFinite else {
          throw unsupported(tab, "a tab stop other than a left-aligned one with a location is not compiled yet")
        }
        locations.append(location)
      }
    }
    return locations
  }

  /// What tells two paragraph styles apart (alignment, line break mode, writing direction and
  /// tab stops), or `nil` for none.
  func paragraphSignature(_ element: InterfaceDocument.Element?) throws(InterfaceBuilderError) -> String? {
    guard let element else { return nil }
    let tabs = try tabLocations(element).map { String($0) }.joined(separator: ",")
    return [element["alignment"] ?? "", element["lineBreakMode"] ?? "", element["baseWritingDirection"] ?? "", tabs].joined(separator: "|")
  }

  /// Whether two optional fonts have the same attributes.
  static func sameAttributes(_ a: InterfaceDocument.Element?, _ b: InterfaceDocument.Element?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let a?, let b?): return a.attributes.elementsEqual(b.attributes, by: { $0 == $1 })
    default: return false
    }
  }
}
