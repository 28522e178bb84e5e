extension NIBArchive {
  /// A readable listing of the object graph, as `ibtool --print-objects` will print it: each
  /// object reachable from the root once, with its class and keys, references resolved, strings
  /// (`NSString`'s `NS.bytes`) and numbers (`NSNumber`'s `NS.intval`/`NS.dblval`) shown as values,
  /// inlined collections (`NSInlinedValue` followed by `UINibEncoderEmptyKey` members) as lists,
  /// and objects already shown (shared or cyclic) as a back reference.
  ///
  /// ```text
  /// #0 NSObject
  ///   UINibTopLevelObjectsKey = #1 NSArray [1]
  ///     [0] = #2 UIView
  ///       UITag = int8 7
  /// ```
  public func dump() -> String {
    guard !objects.isEmpty else { return "(no objects)\n" }
    var lines: [String] = []
    var shown = Set<Int>()
    var depthGuard = 0

    func scalar(of index: Int) -> String? {
      let name = className(of: index)
      let entries = values(of: index)
      if name == "NSString" || name == "NSMutableString", entries.count == 1, entries[0].key == "NS.bytes",
        case .data(let bytes) = entries[0].payload
      {
        return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
      }
      if name == "NSNumber", entries.count == 1 {
        switch (entries[0].key, entries[0].payload) {
        case ("NS.intval", let payload), ("NS.dblval", let payload): return Self.describe(payload)
        default: return nil
        }
      }
      return nil
    }

    func render(_ index: Int, indent: String) {
      depthGuard += 1
      defer { depthGuard -= 1 }
      let entries = values(of: index)
      let isInlined = entries.first.map { $0.key == "NSInlinedValue" && $0.payload == .bool(true) } ?? false
      var member = 0
      for (key, payload) in entries {
        if isInlined && key == "NSInlinedValue" { continue }
        let label = isInlined && key == "UINibEncoderEmptyKey" ? "[\(member)]" : key
        if isInlined && key == "UINibEncoderEmptyKey" { member += 1 }
        guard case .object(let target) = payload else {
          lines.append(indent + label + " = " + Self.describe(payload))
          continue
        }
        if let value = scalar(of: target) {
          shown.insert(target)
          lines.append(indent + label + " = " + value)
        } else if shown.contains(target) {
          lines.append(indent + label + " = #\(target) \(className(of: target)) ↺")
        } else {
          shown.insert(target)
          let targetEntries = values(of: target)
          let inlinedCount = targetEntries.first?.key == "NSInlinedValue" ? targetEntries.count - 1 : nil
          lines.append(indent + label + " = #\(target) \(className(of: target))" + (inlinedCount.map { " [\($0)]" } ?? ""))
          if depthGuard < 256 { render(target, indent: indent + "  ") } else { lines.append(indent + "  …") }
        }
      }
    }

    shown.insert(0)
    lines.append("#0 \(className(of: 0))")
    render(0, indent: "  ")
    let unreached = objects.count - shown.count
    if unreached > 0 { lines.append("(\(unreached) \(unreached == 1 ? "object" : "objects") not reachable from the root)") }
    return lines.joined(separator: "\n") + "\n"
  }
}
