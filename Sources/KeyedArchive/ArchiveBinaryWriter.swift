import FoundationEssentials
import PropertyLists

/// Writes the archive — `{$version, $objects, $archiver, $top}` with `$objects` in the flat
/// ``ArchiveObjectTable`` — as `bplist00`, through the binary writer's own numbering and uniquing
/// (`BinaryPlistBuilder`) in the order it would visit the archive as a value: the same bytes as
/// ``KeyedArchiver/finishedArchive()`` encoded as binary, without building that value.
struct ArchiveBinaryWriter {
  let table: ArchiveObjectTable
  let top: PropertyListDictionary
  /// The archiver's table of `$objects` scalars when every string of `$objects` went through it
  /// (so no two are equal): the builder then keeps them out of its own uniquing.
  let distinct: ScalarNumbering?
  private var builder = BinaryPlistBuilder()
  /// The object numbers of the key layouts' keys, each layout's run from its entry in
  /// `keyNumberStarts` (-1 until worked out): one list, read without an array per layout.
  private var keyNumbers: [Int] = []
  private var keyNumberStarts: [Int]
  /// Each key layout's key count (read per object without touching the layout's array).
  private let keyCounts: [Int]

  /// The table's lists, read in place for the whole write (an array read through `self` between
  /// calls that change the builder is retained and released each time).
  private struct Lists {
    let entries: UnsafeBufferPointer<ArchiveSlot>
    let values: UnsafeBufferPointer<ArchiveSlot>
    let uidRuns: UnsafeBufferPointer<UInt64>
  }

  init(table: ArchiveObjectTable, top: PropertyListDictionary, distinct: ScalarNumbering?) {
    self.table = table
    self.top = top
    self.distinct = distinct
    keyNumberStarts = [Int](repeating: -1, count: table.layouts.count)
    keyCounts = table.layouts.map(\.count)
  }

  /// How many `$objects` entries are read ahead (see ``touchNumbers(from:)``).
  static var touchRun: Int { 16 }

  mutating func write() throws(PropertyListError) -> Data {
    // At most one object per entry, value and UID-array member, and one reference more per value
    // (its key): sized once (only what is used is touched).
    let members = table.entries.count + 2 * table.values.count + table.uidRuns.count + 2 * top.count + 16
    // Every string of the archive is one of `strings`, a key, a class name or one inside `others`.
    builder.reserve(objects: members, references: members)
    let document = builder.openContainer()
    for key in KeyedArchiver.documentKeys { builder.push(builder.key(key)) }
    builder.push(builder.scalar(.integer(PropertyListInteger(Int64(KeyedArchiver.version)))))
    let objects = builder.openContainer()
    if let distinct {
      let table = table
      builder.expectDistinctStrings(
        DistinctStrings(key: "$objects") { value in
          if case .string("$null") = value { return 0 }
          return distinct.existingUID(for: value, in: table).map { Int($0) }
        }, count: table.entries.count)
    }
    let table = table
    try table.entries.withUnsafeBufferPointer { (entries) throws(PropertyListError) in
      try table.values.withUnsafeBufferPointer { (values) throws(PropertyListError) in
        try table.uidRuns.withUnsafeBufferPointer { (uidRuns) throws(PropertyListError) in
          let lists = Lists(entries: entries, values: values, uidRuns: uidRuns)
          for index in entries.indices {
            if index & (Self.touchRun - 1) == 0 { touchNumbers(from: index, lists) }
            builder.push(try entry(index, lists))
          }
        }
      }
    }
    builder.push(builder.closeArray(objects))
    builder.push(builder.scalar(.string("NSKeyedArchiver")))
    builder.push(try tree(.dictionary(top), depth: 1))
    builder.closeDictionary(document)
    return builder.finish()
  }

  /// The number of `$objects` entry `index`.
  private mutating func entry(_ index: Int, _ lists: Lists) throws(PropertyListError) -> Int {
    let slot = lists.entries[index]
    switch slot.kind {
    case .object:
      let container = builder.openContainer()
      let layout = Int(slot.extra)
      let count = keyCounts[layout]
      var start = keyNumberStarts[layout]
      if start < 0 {
        start = keyNumbers.count
        for key in table.layouts[layout] { keyNumbers.append(builder.key(key)) }
        keyNumberStarts[layout] = start
      }
      for position in start..<(start + count) { builder.push(keyNumbers[position]) }
      let first = Int(slot.word)
      for position in first..<(first + count) {
        builder.push(try member(lists.values[position], depth: 3, lists))
      }
      return builder.closeDictionary(container)
    case .string where distinct != nil:
      return builder.distinctString(table.strings[Int(slot.word)], at: index)
    default:
      return try member(slot, depth: 2, lists)
    }
  }

  /// The number of a value (or a scalar entry) at `depth` in the document.
  @inline(__always)
  private mutating func member(_ slot: ArchiveSlot, depth: Int, _ lists: Lists) throws(PropertyListError) -> Int {
    switch slot.kind {
    case .uid: return builder.uid(slot.word)
    case .uids:
      let container = builder.openContainer()
      let first = Int(slot.word)
      for position in first..<(first + Int(slot.extra)) { builder.push(builder.uid(lists.uidRuns[position])) }
      return builder.closeArray(container)
    case .other: return try tree(table.others[Int(slot.word)], depth: depth)
    case .object: preconditionFailure("an object is an entry of $objects, not a value")
    default: return builder.scalar(table.value(slot))
    }
  }

  /// The number of a value of any shape, containers visited as the binary writer visits them.
  private mutating func tree(_ value: PropertyListValue, depth: Int) throws(PropertyListError) -> Int {
    switch value {
    case .array(let members):
      guard depth < 512 * 2 else { throw Self.tooDeep() }
      let container = builder.openContainer()
      for index in members.indices { builder.push(try tree(members[index], depth: depth + 1)) }
      return builder.closeArray(container)
    case .dictionary(let dictionary):
      guard depth < 512 * 2 else { throw Self.tooDeep() }
      let container = builder.openContainer()
      for key in dictionary.keys { builder.push(builder.key(key)) }
      let values = dictionary.values
      for index in values.indices { builder.push(try tree(values[index], depth: depth + 1)) }
      return builder.closeDictionary(container)
    case .uid(let uid): return builder.uid(uid)
    default: return builder.scalar(value)
    }
  }

  /// Prefetches the builder's uniquing slots for the numbers in the next ``touchRun`` objects of
  /// `$objects` before they are written one by one: once its table of numbers outgrows the caches
  /// (some 100,000 distinct numbers), their cache misses then overlap instead of coming one after
  /// another.
  private mutating func touchNumbers(from start: Int, _ lists: Lists) {
    for index in start..<Swift.min(start + Self.touchRun, lists.entries.count) {
      let slot = lists.entries[index]
      guard slot.kind == .object else { continue }
      let first = Int(slot.word)
      for position in first..<(first + keyCounts[Int(slot.extra)]) {
        switch lists.values[position].kind {
        case .positive, .negative, .double, .single: builder.prefetch(table.value(lists.values[position]))
        default: break
        }
      }
    }
  }

  static func tooDeep() -> PropertyListError {
    PropertyListError(.tooDeep, format: .binary, detail: "value nests deeper than 1024 containers")
  }
}
