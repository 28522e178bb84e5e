import FoundationEssentials

// The Codable encoder's output before it becomes bytes: one flat array of entries in the order
// `encode(to:)` wrote them, instead of a tree of arrays and dictionaries.
//
// A container is a header entry followed by its members; the header records where the members
// end, so a writer can step over a member container without reading it. A dictionary's members
// are `key` entries each followed by its value. Both writers need more than one pass over a
// dictionary (the binary writer numbers all its keys before its values; the XML writer writes
// keys in CF's sorted order), and the header's `end` gives them that without any tree.

/// One entry of a ``CodableTape``: 24 bytes, a scalar held as itself.
enum CodableTapeEntry {
  case string(String)
  case integer(PropertyListInteger)
  case real(Double, width: PropertyListValue.RealWidth)
  case bool(Bool)
  case date(Date)
  case data(Data)
  /// A dictionary's key; its value follows.
  case key(String)
  /// An array of `count` members, which end before entry `end`.
  case array(count: Int32, end: Int32)
  /// A dictionary with `keys` (unique, in the order written), whose entries end before `end`.
  /// The keys of a struct's dictionaries are shared between dictionaries of one shape, so the
  /// writers' per-keys-array caches recognize them; a `[String: V]`'s (`isMap`) are its own,
  /// sorted, and kept out of those caches, where they would only push the shared ones out.
  case dictionary(keys: [String], end: Int32, isMap: Bool)

  /// A scalar entry as a value (`nil` for keys and containers).
  @inline(__always) var scalar: PropertyListValue? {
    switch self {
    case .string(let string): .string(string)
    case .integer(let integer): .integer(integer)
    case .real(let number, let width): .real(number, width: width)
    case .bool(let flag): .bool(flag)
    case .date(let date): .date(date)
    case .data(let data): .data(data)
    case .key, .array, .dictionary: nil
    }
  }
}

/// The flat output of ``PlistTapeEncoder``: entry 0 is the document's root.
struct CodableTape {
  var entries: [CodableTapeEntry] = []

  /// The index of the entry after the one at `index` and everything inside it.
  @inline(__always)
  static func next(after index: Int, in entries: UnsafeBufferPointer<CodableTapeEntry>) -> Int {
    switch entries[index] {
    case .array(_, let end), .dictionary(_, let end, _): Int(end)
    default: index &+ 1
    }
  }

  /// The positions of the values of the dictionary whose header is at `index`, in the order
  /// written, appended to `positions`.
  @inline(__always)
  static func valuePositions(
    ofDictionaryAt index: Int, end: Int, in entries: UnsafeBufferPointer<CodableTapeEntry>, into positions: inout [Int]
  ) {
    var cursor = index &+ 1
    while cursor < end {
      // `cursor` is a key; its value follows.
      positions.append(cursor &+ 1)
      cursor = next(after: cursor &+ 1, in: entries)
    }
  }
}
