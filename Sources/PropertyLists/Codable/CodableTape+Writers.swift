import FoundationEssentials

// The tape written out by the binary and XML writers' own rules, giving the bytes they give for
// the tree the tree encoder would have built (same objects, numbers, order and text).

extension CodableTape {
  /// The tape as `bplist00`, as `BinaryPlistWriter` writes the equal tree.
  func binaryData() throws(PropertyListError) -> Data {
    var flattener = BinaryPlistWriter.Flattener()
    // At most one object and one reference per entry: no growing (and copying) on the way.
    flattener.objects.reserveCapacity(entries.count)
    flattener.references.reserveCapacity(entries.count)
    try entries.withUnsafeBufferPointer { (entries) throws(PropertyListError) in
      _ = try flattener.flattenTape(entries, at: 0, depth: 0)
    }
    return flattener.emit().takeData()
  }

  /// The tape as an XML property list, as `XMLPlistWriter` writes the equal tree.
  /// `capacity` is a guess at the output's size (0: none).
  func xmlData(capacity: Int = 0) throws(PropertyListError) -> Data {
    try XMLPlistWriter.document(capacity: capacity) { (out) throws(PropertyListError) in
      var writer = XMLTapeWriter()
      try entries.withUnsafeBufferPointer { (entries) throws(PropertyListError) in
        try writer.write(entries, at: 0, indent: 0, into: &out)
      }
    }.takeData()
  }
}

extension BinaryPlistWriter.Flattener {
  /// `flatten(_:depth:)` for the entry at `index` of a tape: the same pre-order numbering, a
  /// dictionary's keys before its values.
  mutating func flattenTape(
    _ tape: UnsafeBufferPointer<CodableTapeEntry>, at index: Int, depth: Int
  ) throws(PropertyListError) -> Int {
    switch tape[index] {
    case .bool(let flag): return try flatten(.bool(flag), depth: depth)
    case .array(let count, let end):
      guard depth < 512 * 2 else { throw tooDeep() }
      let number = objects.count
      objects.append(.array(first: 0, count: 0))
      let mark = pending.count
      var cursor = index &+ 1
      var member = 0
      while cursor < Int(end) {
        if member & (Self.touchRun - 1) == 0 { touchTapeScalars(tape, from: cursor, end: Int(end)) }
        pending.append(try flattenTape(tape, at: cursor, depth: depth &+ 1))
        cursor = CodableTape.next(after: cursor, in: tape)
        member &+= 1
      }
      let first = references.count
      references.append(contentsOf: pending[mark...])
      pending.removeSubrange(mark...)
      objects[number] = .array(first: first, count: Int(count))
      return number
    case .dictionary(let keys, let end, let isMap):
      guard depth < 512 * 2 else { throw tooDeep() }
      let number = objects.count
      objects.append(.dictionary(first: 0, count: 0))
      let mark = pending.count
      if isMap {
        for key in keys { pending.append(flattenKey(key)) }
      } else {
        appendKeyNumbers(keys, from: mark)
      }
      var cursor = index &+ 1
      while cursor < Int(end) {
        pending.append(try flattenTape(tape, at: cursor &+ 1, depth: depth &+ 1))
        cursor = CodableTape.next(after: cursor &+ 1, in: tape)
      }
      let first = references.count
      references.append(contentsOf: pending[mark...])
      pending.removeSubrange(mark...)
      objects[number] = .dictionary(first: first, count: keys.count)
      return number
    case .key:
      preconditionFailure("a tape key stands only inside a dictionary")
    default:
      return flattenScalar(tape[index].scalar!)
    }
  }
}

extension BinaryPlistWriter.Flattener {
  /// ``touchScalars(_:from:)`` for an array on a tape: reads the uniquing table's slots for the
  /// scalars among the next ``touchRun`` members from `start` and those directly inside the
  /// dictionaries among them, so that their cache misses overlap.
  mutating func touchTapeScalars(_ tape: UnsafeBufferPointer<CodableTapeEntry>, from start: Int, end: Int) {
    var word: Int32 = 0
    var cursor = start
    var member = 0
    while cursor < end && member < Self.touchRun {
      switch tape[cursor] {
      case .dictionary(_, let dictionaryEnd, _):
        var key = cursor &+ 1
        while key < Int(dictionaryEnd) {
          if let value = Self.uniquedScalar(tape[key &+ 1]) { word ^= uniques.touch(value) }
          key = CodableTape.next(after: key &+ 1, in: tape)
        }
      default:
        if let value = Self.uniquedScalar(tape[cursor]) { word ^= uniques.touch(value) }
      }
      cursor = CodableTape.next(after: cursor, in: tape)
      member &+= 1
    }
    touched ^= word
  }

  /// The entry as a value when it is one the uniquing table holds (a string, number, real, date
  /// or data).
  @inline(__always)
  static func uniquedScalar(_ entry: CodableTapeEntry) -> PropertyListValue? {
    if case .bool = entry { return nil }
    return entry.scalar
  }
}

/// Writes a tape as `XMLPlistWriter` writes a tree: scalars through its own code, containers
/// with their tags, a dictionary's entries in CF's key order.
struct XMLTapeWriter {
  var orders = XMLPlistWriter.KeyOrderCache()
  /// The positions of the values of the open dictionaries, each dictionary's run above its
  /// parent's.
  var positions: [Int] = []

  mutating func write(
    _ tape: UnsafeBufferPointer<CodableTapeEntry>, at index: Int, indent: Int, into out: inout XMLPlistOutput
  ) throws(PropertyListError) {
    switch tape[index] {
    case .array(let count, let end):
      out.appendTabs(indent)
      if count == 0 {
        out.append("<array/>\n")
        return
      }
      out.append("<array>\n")
      var cursor = index &+ 1
      while cursor < Int(end) {
        try write(tape, at: cursor, indent: indent &+ 1, into: &out)
        cursor = CodableTape.next(after: cursor, in: tape)
      }
      out.appendTabs(indent)
      out.append("</array>\n")
    case .dictionary(let keys, let end, let isMap):
      out.appendTabs(indent)
      if keys.isEmpty {
        out.append("<dict/>\n")
        return
      }
      out.append("<dict>\n")
      let mark = positions.count
      CodableTape.valuePositions(ofDictionaryAt: index, end: Int(end), in: tape, into: &positions)
      let order = isMap ? XMLPlistWriter.KeyOrderCache.computeOrder(keys) : orders.order(of: keys)
      for member in keys.indices {
        let position = order?[member] ?? member
        out.appendTabs(indent &+ 1)
        out.append("<key>")
        out.appendEscaped(keys[position])
        out.append("</key>\n")
        try write(tape, at: positions[mark &+ position], indent: indent &+ 1, into: &out)
      }
      positions.removeSubrange(mark...)
      out.appendTabs(indent)
      out.append("</dict>\n")
    case .key:
      preconditionFailure("a tape key stands only inside a dictionary")
    default:
      _ = try XMLPlistWriter.writeValue(tape[index].scalar!, indent: indent, orders: &orders, into: &out)
    }
  }
}
