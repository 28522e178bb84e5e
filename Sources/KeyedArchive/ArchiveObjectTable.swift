import FoundationEssentials
import PropertyLists

/// One `$objects` entry or one value of an object, as the archiver keeps it: 16 bytes, a number,
/// Boolean or UID by its bits, a string, run of UIDs or other value by its position in one of
/// ``ArchiveObjectTable``'s side lists, an object by its first value and its key layout.
struct ArchiveSlot {
  enum Kind: UInt8 {
    /// `word` is the UID.
    case uid
    /// An integer: `word` is its bit pattern (`negative`: an `Int64` below zero).
    case positive, negative
    /// A real: `word` is the `Double`'s bit pattern; `single` was encoded as a `Float`.
    case double, single
    /// `word` is 0 or 1.
    case bool
    /// `word` is the position in ``ArchiveObjectTable/strings``.
    case string
    /// An array of UIDs (`NS.objects`, `NS.keys`): `word` is its first member in
    /// ``ArchiveObjectTable/uidRuns``, `extra` the member count.
    case uids
    /// Any other value (data, dates, other arrays and dictionaries): `word` is its position in
    /// ``ArchiveObjectTable/others``.
    case other
    /// A `$objects` entry that is an object: `word` is its first value in
    /// ``ArchiveObjectTable/values``, `extra` its key layout in ``ArchiveObjectTable/layouts``.
    case object
  }
  var word: UInt64
  var extra: UInt32
  var kind: Kind

  @inline(__always)
  init(_ kind: Kind, _ word: UInt64, extra: UInt32 = 0) {
    self.word = word
    self.extra = extra
    self.kind = kind
  }

  @inline(__always)
  static func integer(_ integer: PropertyListInteger) -> ArchiveSlot {
    ArchiveSlot(integer.isNegative ? .negative : .positive, integer.bitPattern)
  }

  @inline(__always)
  static func real(_ number: Double, width: PropertyListValue.RealWidth) -> ArchiveSlot {
    ArchiveSlot(width == .single ? .single : .double, number.bitPattern)
  }

  /// Entry 0, `$null`, and the placeholder of an object whose contents are not written yet.
  static var null: ArchiveSlot { ArchiveSlot(.string, 0) }

  /// This scalar entry marked as not uniqued yet (``ScalarNumbering``): `extra`, which a scalar
  /// does not use, is 1.
  @inline(__always)
  var deferred: ArchiveSlot { ArchiveSlot(kind, word, extra: 1) }

  /// Whether this is a `$objects` scalar entry not uniqued yet.
  @inline(__always)
  var isDeferredScalar: Bool { extra == 1 && kind != .object && kind != .uids }
}

/// The archive's `$objects`, flat: every object's values in one list (16 bytes each, the object's
/// run contiguous) under a key layout shared by the objects that wrote the same keys, instead of a
/// dictionary (a values array of its own) per object. A graph of a million items is about 4
/// million entries and 8 million values, some 230 MB with its strings, where dictionaries of
/// `PropertyListValue`s took some 710 MB of fresh pages. The writers read it as it is
/// (``ArchiveBinaryWriter``, ``ArchiveXMLWriter``).
struct ArchiveObjectTable {
  /// `$objects`, in UID order.
  var entries: [ArchiveSlot] = [.null]
  /// The objects' values; an object's are `values[word ..< word + layouts[extra].count]`.
  var values: [ArchiveSlot] = []
  /// The strings of `entries` and `values`; position 0 is `$null`.
  var strings: [String] = ["$null"]
  var uidRuns: [UInt64] = []
  var others: [PropertyListValue] = []
  /// Key lists; layout 0 is empty (a class none of whose objects was written yet).
  var layouts: [[String]] = [[]]
  /// The values of the objects being written, the innermost last (each object's from its
  /// ``ObjectContents/mark``).
  var pending: [ArchiveSlot] = []
  /// The members of the UID arrays being written, the innermost last.
  var pendingUIDs: [UInt64] = []

  /// The sizes of the lists that grow with the archive.
  struct Counts {
    var entries, values, strings, uidRuns: Int
  }

  var counts: Counts { Counts(entries: entries.count, values: values.count, strings: strings.count, uidRuns: uidRuns.count) }

  /// Makes room in each list for `factor` times what it gained since `start`, beyond what it holds.
  mutating func reserve(repeating start: Counts, times factor: Double) {
    func room(_ count: Int, _ then: Int) -> Int { count + Int(Double(count - then) * factor) }
    entries.reserveCapacity(room(entries.count, start.entries))
    values.reserveCapacity(room(values.count, start.values))
    strings.reserveCapacity(room(strings.count, start.strings))
    uidRuns.reserveCapacity(room(uidRuns.count, start.uidRuns))
  }

  /// `value` as a slot, its string, UIDs or other value added to the side lists.
  mutating func slot(_ value: PropertyListValue) -> ArchiveSlot {
    switch value {
    case .uid(let uid): return ArchiveSlot(.uid, uid)
    case .integer(let integer): return .integer(integer)
    case .real(let number, let width): return .real(number, width: width)
    case .bool(let flag): return ArchiveSlot(.bool, flag ? 1 : 0)
    case .string(let string): return stringSlot(string)
    case .array(let members) where members.allSatisfy({ if case .uid = $0 { true } else { false } }):
      let first = uidRuns.count
      for member in members { if case .uid(let uid) = member { uidRuns.append(uid) } }
      return ArchiveSlot(.uids, UInt64(first), extra: UInt32(members.count))
    default:
      others.append(value)
      return ArchiveSlot(.other, UInt64(others.count - 1))
    }
  }

  /// Adds a `$objects` entry and returns its UID.
  @inline(__always)
  mutating func append(_ slot: ArchiveSlot) -> UInt64 {
    entries.append(slot)
    return UInt64(entries.count - 1)
  }

  /// Replaces every UID kept in the objects' values, the UID runs and the other values by
  /// `final`'s (``ScalarNumbering/compact(_:top:)``).
  mutating func renumberUIDs(_ final: (UInt64) -> UInt64) {
    values.withUnsafeMutableBufferPointer { values in
      for index in values.indices where values[index].kind == .uid { values[index].word = final(values[index].word) }
    }
    uidRuns.withUnsafeMutableBufferPointer { runs in
      for index in runs.indices { runs[index] = final(runs[index]) }
    }
    for index in others.indices { others[index] = ScalarNumbering.renumbered(others[index], final) }
  }

  @inline(__always)
  mutating func stringSlot(_ string: String) -> ArchiveSlot {
    strings.append(string)
    return ArchiveSlot(.string, UInt64(strings.count - 1))
  }

  /// The members of `pendingUIDs` from `mark` as a run of UIDs, taken off the stack.
  mutating func uidRun(from mark: Int) -> ArchiveSlot {
    let first = uidRuns.count
    let count = pendingUIDs.count - mark
    uidRuns.append(contentsOf: pendingUIDs[mark...])
    pendingUIDs.removeLast(count)
    return ArchiveSlot(.uids, UInt64(first), extra: UInt32(count))
  }

  /// The value a slot stands for.
  func value(_ slot: ArchiveSlot) -> PropertyListValue {
    switch slot.kind {
    case .uid: .uid(slot.word)
    case .positive: .integer(PropertyListInteger(slot.word))
    case .negative: .integer(PropertyListInteger(Int64(bitPattern: slot.word)))
    case .double: .real(Double(bitPattern: slot.word))
    case .single: .real(Double(bitPattern: slot.word), width: .single)
    case .bool: .bool(slot.word != 0)
    case .string: .string(strings[Int(slot.word)])
    case .uids: .array(uidRuns[Int(slot.word)..<Int(slot.word) + Int(slot.extra)].map { .uid($0) })
    case .other: others[Int(slot.word)]
    case .object: .dictionary(dictionary(slot))
    }
  }

  /// An object entry as a dictionary.
  func dictionary(_ slot: ArchiveSlot) -> PropertyListDictionary {
    let keys = layouts[Int(slot.extra)]
    let first = Int(slot.word)
    return PropertyListDictionary(uniqueKeys: keys, values: values[first..<first + keys.count].map { value($0) })
  }

  /// Entry `number` of `$objects` as a value (for the scalar table's comparisons).
  @inline(__always)
  func entryValue(_ number: UInt64) -> PropertyListValue { value(entries[Int(number)]) }

  /// `$objects` as values.
  func objectValues() -> [PropertyListValue] { entries.map { value($0) } }

  /// Adds a key layout and returns its number.
  mutating func addLayout(_ keys: [String]) -> UInt32 {
    layouts.append(keys)
    return UInt32(layouts.count - 1)
  }

  // MARK: - The object being written

  /// Sets `slot` for `key` in the object `contents` describes (whose values are the top of
  /// `pending`), replacing the value of an equal key already set.
  @inline(__always)
  mutating func set(_ slot: ArchiveSlot, forKey key: String, in contents: inout ObjectContents) {
    if contents.positions == nil {
      let position = contents.count
      if position < contents.layout.count, contents.layout[position] == key {
        pending.append(slot)
        contents.count = position + 1
        return
      }
      contents.leaveLayout()
    }
    if case .integer(let at)? = contents.positions![key], let position = at.int64Value {
      pending[contents.mark + Int(position)] = slot
    } else {
      contents.positions![key] = .integer(contents.count)
      pending.append(slot)
      contents.count += 1
    }
  }

  /// Stores the finished object `contents` describes at `uid` (its values taken off `pending`)
  /// and returns its keys and their layout number (the class's next layout).
  mutating func finish(_ contents: borrowing ObjectContents, at uid: UInt64) -> (keys: [String], layout: UInt32) {
    let keys: [String]
    let layout: UInt32
    if let positions = contents.positions {
      keys = positions.keys
      layout = addLayout(keys)
    } else if contents.count == contents.layout.count {
      (keys, layout) = (contents.layout, contents.layoutNumber)
    } else {
      keys = Array(contents.layout[..<contents.count])
      layout = addLayout(keys)
    }
    let first = values.count
    values.append(contentsOf: pending[contents.mark...])
    pending.removeLast(pending.count - contents.mark)
    entries[Int(uid)] = ArchiveSlot(.object, UInt64(first), extra: layout)
    return (keys, layout)
  }

  /// Sets `slot` for `key` in the finished object at `uid` (a conditional reference resolved at
  /// the end).
  mutating func replace(_ slot: ArchiveSlot, forKey key: String, inObject uid: Int) {
    let entry = entries[uid]
    guard entry.kind == .object, let position = layouts[Int(entry.extra)].firstIndex(of: key) else { return }
    values[Int(entry.word) + position] = slot
  }
}

/// The object being written: the key layout it follows (its class's last), where its values
/// start on ``ArchiveObjectTable/pending``, and how many it has. While it writes its layout's keys
/// in the same order, a key needs no search (the layout's keys are distinct, so a key equal to the
/// next one equals none before it) and the object shares the layout. At the first other key it
/// keeps its own keys (`positions`, with `PropertyListDictionary`'s rules: keys in the order
/// first written, a repeated key replacing its value in place).
struct ObjectContents {
  let layout: [String]
  let layoutNumber: UInt32
  /// Where this object's values start on the pending stack, and its UID arrays' members on the
  /// pending UID stack (to unwind both when its encoding fails).
  let mark: Int
  let uidMark: Int
  var count = 0
  /// Once the object left its layout: each key's position among its values.
  var positions: PropertyListDictionary?

  init(following layout: [String], number: UInt32, mark: Int, uidMark: Int) {
    self.layout = layout
    self.layoutNumber = number
    self.mark = mark
    self.uidMark = uidMark
  }

  mutating func leaveLayout() {
    positions = PropertyListDictionary(
      uniqueKeys: Array(layout[..<count]), values: (0..<count).map { .integer($0) })
  }
}
