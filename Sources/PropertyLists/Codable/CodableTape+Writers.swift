import FoundationEssentials

// The tape written out by the binary and XML writers' own rules, giving the bytes they give for
// the tree the tree encoder would have built (same objects, numbers, order and text).

extension CodableTape {
  /// The tape as `bplist00`, as `BinaryPlistWriter` writes the equal tree; the flattener's
  /// arrays and tables are `scratch`'s memory, and go back there. The tape's strings, data and
  /// dictionary keys are released as they are flattened (see `flattenTape`): the tape is used up.
  mutating func binaryData(reusing scratch: inout PlistTapeScratch) throws(PropertyListError) -> Data {
    // At most one object and one reference per entry: no growing (and copying) on the way.
    var flattener = BinaryPlistWriter.Flattener(reusing: &scratch.flattener)
    flattener.reserve(references: entries.count)
    defer { flattener.giveBack(to: &scratch.flattener) }
    return try entries.withUnsafeMutableBufferPointer { (entries) throws(PropertyListError) in
      _ = try flattener.flattenTape(entries, at: 0, depth: 0)
      return flattener.emit().takeData()
    }
  }

  /// The tape as an XML property list, as `XMLPlistWriter` writes the equal tree.
  /// `capacity` is a guess at the output's size (0: none). The tape's strings and data are
  /// released as they are written (their entries become `false`): the tape is used up.
  /// `orders` are the key orders worked out for earlier documents (`nil`: none yet), kept for
  /// the next: a struct's keys arrays are the encoder's key templates, the same every document.
  mutating func xmlData(capacity: Int = 0, orders: inout XMLPlistWriter.KeyOrderCache?) throws(PropertyListError) -> Data {
    var writer = XMLTapeWriter(orders: orders.take() ?? XMLPlistWriter.KeyOrderCache())
    defer { orders = writer.orders }
    return try XMLPlistWriter.document(capacity: capacity) { (out) throws(PropertyListError) in
      try entries.withUnsafeMutableBufferPointer { (entries) throws(PropertyListError) in
        try writer.write(entries, at: 0, indent: 0, into: &out)
      }
    }.takeData()
  }

  /// ``xmlData(capacity:orders:)`` without orders from earlier documents.
  mutating func xmlData(capacity: Int = 0) throws(PropertyListError) -> Data {
    var orders: XMLPlistWriter.KeyOrderCache?
    return try xmlData(capacity: capacity, orders: &orders)
  }
}

extension BinaryPlistWriter.Flattener {
  /// `flatten(_:depth:)` for the entry at `index` of a tape: the same pre-order numbering, a
  /// dictionary's keys before its values. Scalars are read in place on the tape.
  ///
  /// A string or data entry is moved out and released once its bytes are laid out, and a
  /// dictionary's keys array once the dictionary is numbered (its header becomes an empty
  /// array's, keeping its `end`), while
  /// they are still in the cache: left for emptying the tape afterwards, those releases each
  /// missed the cache on a large document (`perf`: 6 % of the 14 MB document's samples, in
  /// `swift_release` under the tape's `removeAll`).
  mutating func flattenTape(
    _ tape: UnsafeMutableBufferPointer<CodableTapeEntry>, at index: Int, depth: Int
  ) throws(PropertyListError) -> Int {
    switch tape[index] {
    case .array(let count, let end):
      guard depth < 512 * 2 else { throw tooDeep() }
      let number = memory.objects.count
      memory.objects.append(.array(first: 0, count: 0))
      let mark = memory.pending.count
      var cursor = index &+ 1
      while cursor < Int(end) {
        memory.pending.append(try flattenTapeMember(tape, at: cursor, depth: depth &+ 1))
        cursor = CodableTape.next(after: cursor, in: UnsafeBufferPointer(tape))
      }
      closeContainer(number, mark: mark, object: .array(first: memory.references.count, count: Int(count)))
      return number
    case .dictionary(_, let end, _):
      guard depth < 512 * 2 else { throw tooDeep() }
      // The header is taken off the tape, its keys array owned here (no retain) and released
      // when the dictionary is numbered; its `end` stays for the parent's cursor.
      let header = (tape.baseAddress! + index).move()
      (tape.baseAddress! + index).initialize(to: .array(count: 0, end: end))
      let keys: [String]
      let isMap: Bool
      switch consume header {
      case .dictionary(let headerKeys, _, let headerIsMap): (keys, isMap) = (headerKeys, headerIsMap)
      default: preconditionFailure("a dictionary header")
      }
      let number = memory.objects.count
      memory.objects.append(.dictionary(first: 0, count: 0))
      let mark = memory.pending.count
      if isMap {
        for key in keys { memory.pending.append(flattenKey(key)) }
      } else {
        appendKeyNumbers(keys, from: mark)
      }
      var cursor = index &+ 1
      while cursor < Int(end) {
        memory.pending.append(try flattenTapeMember(tape, at: cursor &+ 1, depth: depth &+ 1))
        cursor = CodableTape.next(after: cursor &+ 1, in: UnsafeBufferPointer(tape))
      }
      closeContainer(number, mark: mark, object: .dictionary(first: memory.references.count, count: keys.count))
      return number
    case .key:
      preconditionFailure("a tape key stands only inside a dictionary")
    default:
      return flattenTapeScalar(tape, at: index)
    }
  }

  /// A container's member: scalars here, without a call per member.
  @inline(__always)
  private mutating func flattenTapeMember(
    _ tape: UnsafeMutableBufferPointer<CodableTapeEntry>, at index: Int, depth: Int
  ) throws(PropertyListError) -> Int {
    switch tape[index] {
    case .array, .dictionary: try flattenTape(tape, at: index, depth: depth)
    default: flattenTapeScalar(tape, at: index)
    }
  }

  /// A scalar entry's object number: numbers by their bits, strings and data by their bytes, a
  /// new string or data laid out in the text store (no copy of the value).
  @inline(__always)
  private mutating func flattenTapeScalar(_ tape: UnsafeMutableBufferPointer<CodableTapeEntry>, at index: Int) -> Int {
    switch tape[index] {
    case .string, .data:
      // Moved out, laid out, and released here.
      let entry = (tape.baseAddress! + index).move()
      (tape.baseAddress! + index).initialize(to: .bool(false))
      switch consume entry {
      case .string(let string):
        return withUTF8Bytes(of: string) { flattenTapeText(UnsafeRawBufferPointer($0), isString: true, at: index) }
      case .data(let data):
        return data.withUnsafeBytes { flattenTapeText($0, isString: false, at: index) }
      default: preconditionFailure("a string or data entry")
      }
    case .integer(let integer): return flattenNumber(.integer(integer), .integer(integer))
    case .real(let value, let width): return flattenNumber(.real(value, width: width), .real(value, width: width))
    case .date(let date): return flattenNumber(.date(date), .date(date))
    case .bool(let flag): return flattenBool(flag)
    case .key, .array, .dictionary: preconditionFailure("not a scalar entry")
    }
  }

  @inline(__always)
  private mutating func flattenTapeText(_ bytes: UnsafeRawBufferPointer, isString: Bool, at index: Int) -> Int {
    uniqueText(bytes, tag: Self.textTag(bytes, isString: isString), isString: isString)
  }
}

/// Writes a tape as `XMLPlistWriter` writes a tree: scalars through its own code, containers
/// with their tags, a dictionary's entries in CF's key order.
///
/// A string or data entry is moved out of the tape as it is written and released right after,
/// while its storage is still in the cache. Released with the rest of the tape at the end
/// instead, each was a cache miss on a large document: a tenth of the time of encoding the
/// 20 MB benchmark document went into emptying its tape.
struct XMLTapeWriter {
  var orders: XMLPlistWriter.KeyOrderCache
  /// The positions of the values of the open dictionaries, each dictionary's run above its
  /// parent's.
  var positions: [Int] = []

  init(orders: XMLPlistWriter.KeyOrderCache = XMLPlistWriter.KeyOrderCache()) {
    self.orders = orders
  }

  mutating func write(
    _ tape: UnsafeMutableBufferPointer<CodableTapeEntry>, at index: Int, indent: Int, into out: inout XMLPlistOutput
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
        cursor = CodableTape.next(after: cursor, in: UnsafeBufferPointer(tape))
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
      CodableTape.valuePositions(ofDictionaryAt: index, end: Int(end), in: UnsafeBufferPointer(tape), into: &positions)
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
    // Strings and data written from the tape, without a copy as a value, and released.
    case .string, .data:
      let entry = (tape.baseAddress! + index).move()
      (tape.baseAddress! + index).initialize(to: .bool(false))
      out.appendTabs(indent)
      switch consume entry {
      case .string(let string): XMLPlistWriter.writeString(string, into: &out)
      case .data(let data): XMLPlistWriter.writeData(data, indent: indent, into: &out)
      default: break
      }
    // Numbers and booleans as `XMLPlistWriter.writeValue` writes them, without making a value.
    case .integer(let integer):
      out.appendTabs(indent)
      out.append("<integer>")
      out.appendDecimal(integer)
      out.append("</integer>\n")
    case .real(let real, let width):
      out.appendTabs(indent)
      out.append("<real>")
      // A 32-bit real is a float CFNumber, which CF widens to double for printing.
      out.appendReal(width == .single ? Double(Float(real)) : real)
      out.append("</real>\n")
    case .bool(let flag):
      out.appendTabs(indent)
      out.append(flag ? "<true/>\n" : "<false/>\n")
    case .date(let date):
      _ = try XMLPlistWriter.writeValue(.date(date), indent: indent, orders: &orders, into: &out)
    }
  }
}
