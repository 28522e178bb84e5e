import Interface

extension CocoaNibCompiler {
  // MARK: Constraints

  static let layoutAttributes = [
    "left": 1, "right": 2, "top": 3, "bottom": 4, "leading": 5, "trailing": 6, "width": 7, "height": 8, "centerX": 9, "centerY": 10,
    "baseline": 11, "lastBaseline": 11, "firstBaseline": 12,
  ]

  /// `<constraint>` → `NSLayoutConstraint`; a missing `firstItem` is the view that holds it.
  mutating func compileConstraint(_ element: InterfaceDocument.Element, owner: Int) throws(InterfaceBuilderError) -> Int {
    guard element.name == "constraint" else { throw unsupported(element) }
    let constraint = try begin(element, className: "NSLayoutConstraint", parent: owner)
    func attribute(_ name: String) throws(InterfaceBuilderError) -> Int? {
      guard let text = element[name] else { return nil }
      guard let value = Self.layoutAttributes[text] else { throw invalid(element, "\(name) \"\(text)\" is not a layout attribute") }
      return value
    }
    guard let first = try attribute("firstAttribute") else { throw invalid(element, "a constraint needs firstAttribute") }
    var entries: [NibGraph.Entry] = []
    let firstItem = element["firstItem"].map { object(forID: $0, line: element.line) } ?? owner
    entries.append(.init("NSFirstItem", .object(firstItem)))
    entries.append(.init("NSFirstAttributeV2", NibGraph.integer(first)))
    entries.append(.init("NSFirstAttribute", NibGraph.integer(first)))
    if let multiplier = try constraintMultiplier(element) { entries.append(.init("NSMultiplier", .float64(multiplier))) }
    switch element["relation"] {
    case nil, "equal": break
    case "greaterThanOrEqual": entries.append(.init("NSRelation", .int8(1)))
    case "lessThanOrEqual": entries.append(.init("NSRelation", .int64(-1)))
    case let other?: throw invalid(element, "relation \"\(other)\" is not known")
    }
    if let second = try attribute("secondAttribute") {
      let secondItem = element["secondItem"].map { object(forID: $0, line: element.line) } ?? owner
      entries.append(.init("NSSecondItem", .object(secondItem)))
      entries.append(.init("NSSecondAttributeV2", NibGraph.integer(second)))
      entries.append(.init("NSSecondAttribute", NibGraph.integer(second)))
    }
    let constant = element.double("constant") ?? 0
    let symbolic = element.flag("symbolic")
    if constant != 0 && !symbolic { entries.append(.init("NSConstantV2", .float64(constant))) }
    if symbolic { entries.append(.init("NSSymbolicConstant", string("NSSpace"))) }
    entries.append(.init("NSShouldBeArchived", .bool(true)))
    if let priority = element.wholeNumber("priority"), priority != 1000 { entries.append(.init("NSPriority", NibGraph.integer(priority))) }
    if constant != 0 && !symbolic { entries.append(.init("NSConstant", .float64(constant))) }
    graph[constraint].entries = entries
    return constraint
  }

  /// A constraint's `multiplier` ("0.8", or a ratio "1:2") → NSMultiplier, the double AppKit's
  /// NSLayoutConstraint decoder reads (1 when absent), written after the first attribute and
  /// before the relation, its value rounded to single precision and widened again (0.951613 →
  /// 0.9516130089759827); a multiplier of 1 is not written. No pair in the corpus has one: the
  /// place and the rounding are a public ibtool re-implementation's reading of Apple's compile
  /// of NetNewsWire's AccountsReaderAPI.xib, so each one is reported as unverified.
  mutating func constraintMultiplier(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Double? {
    guard let text = element["multiplier"] else { return nil }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
    let value: Double
    switch parts.count {
    case 1:
      guard let single = parts[0], single.isFinite else { throw invalid(element, "multiplier \"\(text)\" is not a number or a ratio") }
      value = single
    case 2:
      guard let numerator = parts[0], let denominator = parts[1], denominator != 0, (numerator / denominator).isFinite else {
        throw invalid(element, "multiplier \"\(text)\" is not a number or a ratio")
      }
      value = numerator / denominator
    default:
      throw invalid(element, "multiplier \"\(text)\" is not a number or a ratio")
    }
    guard value != 1 else { return nil }
    let archived = Double(Float(value))
    noteUnverified(element, "a constraint multiplier as NSMultiplier \(archived)")
    return archived
  }
}
