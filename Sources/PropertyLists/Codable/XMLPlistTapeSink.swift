import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One element of an XML document as the Codable decoder reads it in place (`XMLPlistTape`):
/// 16 bytes, where the value tree spends a 32-byte value per element and an allocation per
/// container, per string longer than 15 bytes and per data.
struct XMLPlistTapeEntry {
  enum Kind: UInt8 {
    /// Text of plain ASCII, in the document: `payload` is its offset, `count` its length.
    case asciiRun
    /// Any other text (not ASCII, with references or CDATA), made into a string when read:
    /// `payload` is its position among the tape's strings.
    case string
    /// An integer: `payload` is its bit pattern; `negativeInteger` when below zero.
    case integer, negativeInteger
    /// A `<real>` or a `<date>` (seconds since 2001): `payload` is the `Double`'s bit pattern.
    case real, date
    /// `payload` is its position among the tape's data.
    case data
    /// `payload` is 1 for `<true/>`, 0 for `<false/>`.
    case bool
    /// A keyed-archiver UID (`CF$UID`): `payload` is its value.
    case uid
    /// Containers: `payload` is where their members start in the tape's member list, `count`
    /// how many there are. An array's members are its elements' entries; a dictionary's are
    /// pairs (key entry, value entry), no key repeated.
    case array, dictionary
  }

  var payload: UInt64
  var count: UInt32
  var kind: Kind
}

/// Builds the flat record of an XML document for ``XMLPlistTape``, as ``XMLPlistParser``
/// reads it (the parser checks everything; this only stores). Values are kept as the tree
/// reader would make them — numbers, dates and data read, text validated — except that text of
/// plain ASCII stays in the document until it is decoded.
struct XMLPlistTapeSink: XMLPlistSink {
  /// The document's text (after any byte-order mark), which ASCII runs point into.
  let base: UnsafePointer<UInt8>
  var entries: [XMLPlistTapeEntry] = []
  var members: [UInt32] = []
  var strings: [String] = []
  var datas: [Data] = []
  /// The members of the open containers so far, innermost last.
  private var pending: [UInt32] = []
  /// For each open container, its entry (-1 for `<plist>`) and where its members start in `pending`.
  private var frames: [(entry: Int, start: Int)] = []
  /// Set when an offset, length or count does not fit an entry's fields (documents of 4 GB or
  /// more): the decoder then reads the document as a tree.
  private(set) var overflowed = false

  /// A record for a text of `count` bytes at `base`. Its arrays start at a size for the
  /// elements such a document usually holds (Foundation's and Python's layout spends 35–40 bytes
  /// an element, measured on the benchmark's item stores), saving most of their regrowth.
  init(base: UnsafePointer<UInt8>, count: Int) {
    self.base = base
    let expected = Swift.min(count / 32, 1 << 24)
    entries.reserveCapacity(expected)
    members.reserveCapacity(expected)
  }

  @inline(__always)
  private mutating func append(_ kind: XMLPlistTapeEntry.Kind, payload: UInt64, count: Int = 0) -> Int {
    if count > Int(UInt32.max) || entries.count >= Int(UInt32.max) { overflowed = true }
    entries.append(XMLPlistTapeEntry(payload: payload, count: UInt32(truncatingIfNeeded: count), kind: kind))
    return entries.count &- 1
  }

  /// An entry for a string already made (text that is not plain ASCII, or has references or
  /// CDATA: made, and its UTF-8 checked, as the tree reader makes it).
  @inline(__always)
  private mutating func made(_ string: String) -> Int {
    strings.append(string)
    return append(.string, payload: UInt64(strings.count &- 1))
  }

  /// Text of plain ASCII stays in the document; other text comes made into a string.
  mutating func string(_ start: Int, _ end: Int, base: UnsafePointer<UInt8>, readable: Int) -> Int? {
    guard Self.isASCII(base + start, end &- start) else { return nil }
    return append(.asciiRun, payload: UInt64(start), count: end &- start)
  }

  mutating func key(_ start: Int, _ end: Int, base: UnsafePointer<UInt8>, readable: Int) -> UInt64? {
    guard let fingerprint = XMLPlistKeyCache.fingerprint(base + start, end &- start, readable: readable) else { return nil }
    pending.append(UInt32(truncatingIfNeeded: append(.asciiRun, payload: UInt64(start), count: end &- start)))
    return fingerprint
  }

  mutating func key(made key: String) {
    pending.append(UInt32(truncatingIfNeeded: made(key)))
  }

  mutating func emptyKey() {
    pending.append(UInt32(truncatingIfNeeded: append(.asciiRun, payload: 0)))
  }

  mutating func scalar(_ value: PropertyListValue) -> Int {
    switch value {
    case .string(let string):
      if string.isEmpty { return append(.asciiRun, payload: 0) }
      return made(string)
    case .integer(let integer):
      return append(integer.isNegative ? .negativeInteger : .integer, payload: integer.bitPattern)
    case .real(let real, _):
      return append(.real, payload: real.bitPattern)
    case .date(let date):
      return append(.date, payload: date.timeIntervalSinceReferenceDate.bitPattern)
    case .data(let data):
      datas.append(data)
      return append(.data, payload: UInt64(datas.count &- 1))
    case .bool(let bool):
      return append(.bool, payload: bool ? 1 : 0)
    case .uid(let uid):
      return append(.uid, payload: uid)
    case .array:
      // The parser hands over only empty containers.
      return append(.array, payload: 0)
    case .dictionary:
      return append(.dictionary, payload: 0)
    }
  }

  mutating func open(_ tag: XMLPlistTag, level: Int, parent: XMLPlistTag?) {
    let entry =
      switch tag {
      case .array: append(.array, payload: 0)
      case .dict: append(.dictionary, payload: 0)
      default: -1
      }
    frames.append((entry, pending.count))
  }

  @inline(__always)
  mutating func deliver(_ value: Int, into container: XMLPlistTag) {
    pending.append(UInt32(truncatingIfNeeded: value))
  }

  mutating func closeArray(level: Int, parent: XMLPlistTag?) -> Int {
    let (entry, start) = frames.removeLast()
    finish(entry, count: pending.count &- start, members: pending[start...])
    pending.removeLast(pending.count &- start)
    return entry
  }

  mutating func closeDictionary(level: Int, parent: XMLPlistTag?, fingerprints: UnsafeBufferPointer<UInt64>) -> Int {
    let (entry, start) = frames.removeLast()
    if pending.count > start, keyText(Int(pending[start]), is: "CF$UID"), let uid = keyedArchiverUID(pairsFrom: start) {
      entries[entry] = XMLPlistTapeEntry(payload: uid, count: 0, kind: .uid)
    } else if Self.keysDiffer(fingerprints) {
      finish(entry, count: fingerprints.count, members: pending[start...])
    } else {
      let unique = withoutRepeatedKeys(pairsFrom: start)
      finish(entry, count: unique.count / 2, members: unique[...])
    }
    pending.removeLast(pending.count &- start)
    return entry
  }

  mutating func closePlist(parent: XMLPlistTag?) -> Int {
    let (_, start) = frames.removeLast()
    let value = Int(pending[pending.count &- 1])
    pending.removeLast(pending.count &- start)
    return value
  }

  /// Sets container `entry`'s member count (pairs, for a dictionary) and members.
  private mutating func finish(_ entry: Int, count: Int, members list: ArraySlice<UInt32>) {
    if count > Int(UInt32.max) { overflowed = true }
    entries[entry].payload = UInt64(members.count)
    entries[entry].count = UInt32(truncatingIfNeeded: count)
    members.append(contentsOf: list)
  }

  // MARK: Dictionaries

  /// Whether the fingerprints prove that no key repeats (as the tree reader's check, also for
  /// dictionaries above ``PropertyListDictionary/indexThreshold`` keys, which the tree checks
  /// through its hash index).
  static func keysDiffer(_ prints: UnsafeBufferPointer<UInt64>) -> Bool {
    if prints.count <= PropertyListDictionary.indexThreshold { return XMLPlistTreeSink.fingerprintsDiffer(prints) }
    let sorted = prints.sorted()
    if sorted[0] == XMLPlistKeyCache.unknownFingerprint { return false }
    for index in 1..<sorted.count where sorted[index] == sorted[index &- 1] { return false }
    return true
  }

  /// The (key, value) pairs with each key once, at its first position with its last value, as
  /// ``PropertyListDictionary`` keeps them (keys compared as `String`s: canonically equivalent
  /// spellings are the same key), from the pending members at `start` on.
  private func withoutRepeatedKeys(pairsFrom start: Int) -> [UInt32] {
    var kept: [UInt32] = []
    var seen: [String: Int] = [:]
    var index = start
    while index < pending.count {
      let key = keyText(Int(pending[index]))
      if let at = seen[key] {
        kept[at &+ 1] = pending[index &+ 1]
      } else {
        seen[key] = kept.count
        kept.append(pending[index])
        kept.append(pending[index &+ 1])
      }
      index &+= 2
    }
    return kept
  }

  /// A dictionary whose keys are all `CF$UID` with a number last is a keyed-archiver UID, as in
  /// the tree reader (``XMLPlistTreeSink/keyedArchiverUID(keys:values:)``).
  private func keyedArchiverUID(pairsFrom start: Int) -> UInt64? {
    var keys: [String] = []
    var index = start
    while index < pending.count {
      keys.append(keyText(Int(pending[index])))
      index &+= 2
    }
    let last = entries[Int(pending[pending.count &- 1])]
    let value: PropertyListValue =
      switch last.kind {
      case .integer: .integer(PropertyListInteger(last.payload))
      case .negativeInteger: .integer(PropertyListInteger(Int64(bitPattern: last.payload)))
      case .real: .real(Double(bitPattern: last.payload), width: .double)
      default: .bool(false)
      }
    return XMLPlistTreeSink.keyedArchiverUID(keys: keys, values: [value])
  }

  /// The text of a key entry.
  func keyText(_ entry: Int) -> String {
    XMLPlistTape.text(of: entries[entry], base: base, strings: strings)
  }

  /// Whether key entry `entry`'s text is `literal` (ASCII), as `String`'s `==` compares them.
  private func keyText(_ entry: Int, is literal: StaticString) -> Bool {
    let found = entries[entry]
    guard found.kind == .asciiRun else { return keyText(entry) == literal.description }
    return Int(found.count) == literal.utf8CodeUnitCount && memcmp(base + Int(found.payload), literal.utf8Start, Int(found.count)) == 0
  }

  /// Whether `bytes` are all ASCII.
  @inline(__always)
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = bytes.baseAddress else { return true }
    return isASCII(start, bytes.count)
  }

  /// Whether the `count` bytes at `bytes` are all ASCII, a word at a time.
  @inline(__always)
  static func isASCII(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    let raw = UnsafeRawPointer(bytes)
    var index = 0
    var high: UInt64 = 0
    while index &+ 8 <= count {
      high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index &+= 8
    }
    while index < count {
      high |= UInt64(bytes[index])
      index &+= 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }
}
