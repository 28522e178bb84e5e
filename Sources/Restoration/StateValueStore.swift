internal import FoundationEssentials

/// Every node's state values, one after the other, as a snapshot that was read keeps them: in
/// the typed columns they were stored in (format 3's `StateValueColumns`), each boxed in `Any`
/// only when a coder asks for it. A 10,000-node restore used to box its 30,000 values into an
/// `[Any]` while reading and free them at the end, most of them never looked at twice
/// (profiled: the array alone was a megabyte of fresh pages per restore).
///
/// Snapshots of formats 1 and 2, and tables made from ``SnapshotNode`` values, keep every value
/// as a general one (already boxed).
struct StateValueStore {
  typealias Tag = StateValueColumns.Tag

  /// A ``Tag`` per value.
  private(set) var tags: [UInt8]
  /// Per value, the index of its member in the column its tag names: `integers`, `reals`,
  /// the strings, the arrays or `general` (unused for Booleans).
  private var slots: [Int]
  private var integers: [Int]
  private var reals: [Double]
  /// The strings' UTF-8, one after another (checked when read), and where each starts, with
  /// the end of the last one after them.
  private var text: Data
  private var stringStarts: [Int]
  /// Per array, its first member's index in the column of its members' type.
  private var arrayStarts: [Int]
  private var arrayCounts: [Int]
  /// The general values: `StasisStateValues`' members in order (`()` for one secure decoding
  /// left out or refused, which its node's own entries leave out).
  private(set) var general: [Any]

  /// Values that are all general, in order.
  init(boxed values: [Any]) {
    tags = [UInt8](repeating: Tag.general.rawValue, count: values.count)
    slots = Array(values.indices)
    integers = []
    reals = []
    text = Data()
    stringStarts = [0]
    arrayStarts = []
    arrayCounts = []
    general = values
  }

  /// The typed columns of `tags.count` values, checked by the caller (`StateValueColumns.read`):
  /// each column holds as many members as the tags and `arrayCounts` take from it, `stringStarts`
  /// are in order within `text` and start no string inside a UTF-8 character.
  init(tags: [UInt8], integers: [Int], reals: [Double], text: Data, stringStarts: [Int], arrayCounts: [Int], generalCount: Int) {
    var slots: [Int] = []
    slots.reserveCapacity(tags.count)
    var arrayStarts: [Int] = []
    arrayStarts.reserveCapacity(arrayCounts.count)
    var next = (integer: 0, real: 0, string: 0, array: 0, general: 0)
    for tag in tags {
      switch tag {
      case Tag.integer.rawValue:
        slots.append(next.integer)
        next.integer += 1
      case Tag.real.rawValue:
        slots.append(next.real)
        next.real += 1
      case Tag.string.rawValue:
        slots.append(next.string)
        next.string += 1
      case Tag.reals.rawValue, Tag.integers.rawValue, Tag.strings.rawValue:
        let members = arrayCounts[next.array]
        slots.append(next.array)
        switch tag {
        case Tag.reals.rawValue:
          arrayStarts.append(next.real)
          next.real += members
        case Tag.integers.rawValue:
          arrayStarts.append(next.integer)
          next.integer += members
        default:
          arrayStarts.append(next.string)
          next.string += members
        }
        next.array += 1
      case Tag.general.rawValue:
        slots.append(next.general)
        next.general += 1
      default: slots.append(0)
      }
    }
    self.tags = tags
    self.slots = slots
    self.integers = integers
    self.reals = reals
    self.text = text
    self.stringStarts = stringStarts
    self.arrayStarts = arrayStarts
    self.arrayCounts = arrayCounts
    general = [Any](repeating: (), count: generalCount)
  }

  /// How many values there are.
  var count: Int { tags.count }

  /// How many of them are general values.
  var generalCount: Int { general.count }

  /// Whether the value at `offset` is a general one.
  func isGeneral(at offset: Int) -> Bool { tags[offset] == Tag.general.rawValue }

  /// Puts the general values in: `values` has one per general value, in order.
  mutating func setGeneral(_ values: [Any]) {
    precondition(values.count == general.count, "one value per general value")
    general = values
  }

  /// The value at `offset`, boxed: an `Int`, `Double`, `String`, `Bool`, an `[Any]` of one of
  /// the first three, or a general value.
  func value(at offset: Int) -> Any {
    let slot = slots[offset]
    switch tags[offset] {
    case Tag.integer.rawValue: return integers[slot]
    case Tag.real.rawValue: return reals[slot]
    case Tag.string.rawValue: return string(slot)
    case Tag.false.rawValue: return false
    case Tag.true.rawValue: return true
    case Tag.reals.rawValue:
      let start = arrayStarts[slot]
      return reals[start..<(start + arrayCounts[slot])].map { $0 as Any }
    case Tag.integers.rawValue:
      let start = arrayStarts[slot]
      return integers[start..<(start + arrayCounts[slot])].map { $0 as Any }
    case Tag.strings.rawValue:
      let start = arrayStarts[slot]
      return (start..<(start + arrayCounts[slot])).map { string($0) as Any }
    default: return general[slot]
    }
  }

  /// The values in `range`, boxed.
  func values(in range: Range<Int>) -> [Any] { range.map(value(at:)) }

  /// String `index`, made from its bytes (checked as UTF-8 when read).
  private func string(_ index: Int) -> String {
    let start = stringStarts[index]
    let end = stringStarts[index + 1]
    return text.withUnsafeBytes { raw in
      String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
    }
  }
}
