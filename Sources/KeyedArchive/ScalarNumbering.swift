import PropertyLists

/// The archiver's inline scalars (strings, numbers, Booleans, data) in `$objects`, one entry per
/// exact value — uniqued as the binary writer uniques (`ExactScalarTable`: `-0.0` and `0.0`,
/// canonically equivalent strings, a float and a double of one value stay apart, as CF keeps
/// them) — numbered now while the table is small, and later once it is large.
///
/// A scalar met for the first time takes the next `$objects` entry, so its UID is known only once
/// the table has said it is new. While the table fits in the caches that costs little; once it
/// has outgrown them (a million-item graph has two million strings, whose table's 4 MB of control
/// bytes does not stay cached on a shared machine), each new string's lookup waits for a cache
/// miss, and the walk can do nothing until it is served: the strings come from the objects'
/// `encode(with:)` one call at a time. From ``deferringThreshold`` distinct scalars on, each
/// scalar therefore takes an entry of its own at once (a *provisional* UID, marked
/// ``ArchiveSlot/isDeferredScalar``), and the entries are uniqued afterwards in `$objects` order
/// (``unique(_:)``), the table's bytes for each asked for ``lookAhead`` entries before its lookup
/// so that their misses overlap. A scalar equal to an earlier one then gives its entry up,
/// and the entries after it move down (``compact(_:top:)``): the first occurrence of each value
/// keeps its place among the others, so `$objects` is numbered exactly as when each scalar was
/// looked up at once (an object's UID before its contents, a scalar's at its first occurrence).
///
/// The UIDs handed out while encoding stay provisional until the end: every place that keeps one
/// (object values, UID runs, other values, `$top`) is renumbered once, and only when a scalar gave
/// its entry up; the conditional references are resolved before that, in provisional UIDs.
struct ScalarNumbering {
  /// Every distinct scalar, under its provisional UID (the entry it first took).
  private(set) var table = ExactScalarTable()
  /// From this many distinct scalars looked up at once, scalars are uniqued later. The default,
  /// 2^18, is where the table's control bytes (what a new scalar's lookup reads: 512 KB for
  /// 2^19 slots) stop fitting in a core's 1 MB L2 cache as the table doubles; 0 defers from the
  /// first scalar, `Int.max` never.
  var deferringThreshold = 1 << 18
  /// Distinct scalars looked up at once so far.
  private var immediateCount = 0
  /// Whether scalars are given provisional entries (from ``deferringThreshold`` on).
  private(set) var isDeferring = false
  /// Provisional entries of scalars not uniqued yet.
  private var waiting = 0
  /// Entries before `cursor` are uniqued; `finalCount` of them keep an entry of their own.
  private(set) var cursor = 0
  private(set) var finalCount = 0
  /// The final UID of each entry from `movedFrom` (the first that gave its entry up) to `cursor`;
  /// an entry before `movedFrom` keeps its UID. (32 bits: 2^32 entries of 16 bytes would take
  /// 64 GB before their values.)
  private var moved: [UInt32] = []
  private var movedFrom = Int.max
  /// How many entries ahead the uniquing asks for the table's bytes.
  static var lookAhead: Int { 16 }

  /// Whether every entry kept its provisional UID so far.
  var isIdentity: Bool { movedFrom == .max }

  /// The UID of `value` added to `objects` as a scalar entry: its earlier equal entry's, or a new
  /// entry's — looked up now, or a provisional entry of its own once deferring.
  @inline(__always)
  mutating func number(for value: PropertyListValue, in objects: inout ArchiveObjectTable) -> UInt64 {
    if isDeferring {
      waiting += 1
      return objects.append(objects.slot(value).deferred)
    }
    var added = false
    let uid = table.number(for: value, storedAt: { objects.entryValue($0) }) {
      added = true
      return objects.append(objects.slot(value))
    }
    if added {
      immediateCount += 1
      if immediateCount >= deferringThreshold { startDeferring(at: objects.entries.count) }
    }
    return uid
  }

  /// Entries before `start` were uniqued as they came: the uniquing starts from there.
  private mutating func startDeferring(at start: Int) {
    isDeferring = true
    cursor = start
    finalCount = start
  }

  /// The final UID of the uniqued entry `uid` (below ``cursor``).
  @inline(__always)
  func finalUID(_ uid: UInt64) -> UInt64 { Self.finalUID(uid, moved: moved, from: movedFrom) }

  @inline(__always)
  private static func finalUID(_ uid: UInt64, moved: [UInt32], from movedFrom: Int) -> UInt64 {
    uid < UInt64(truncatingIfNeeded: movedFrom) ? uid : UInt64(moved[Int(uid) - movedFrom])
  }

  /// Uniques `objects`' entries from ``cursor`` on in order: each deferred scalar is looked up
  /// among the scalars before it (its table bytes asked for ``lookAhead`` entries ahead), every other
  /// entry keeps an entry of its own. The table is sized for them first (one move of what it
  /// holds, where growing as it fills moved it once per doubling, each time a miss per value in a
  /// table larger than the caches). Changes nothing in `objects`; ``compact(_:top:)`` applies what
  /// was found.
  mutating func unique(_ objects: ArchiveObjectTable) {
    let end = objects.entries.count
    guard isDeferring, cursor < end else { return }
    table.reserve(waiting)
    waiting = 0
    // The loop works on locals: a method of `self` called from the closure copied `self` (a
    // retain and a release of each of its arrays) per entry.
    var table = ExactScalarTable()
    var moved: [UInt32] = []
    swap(&table, &self.table)
    swap(&moved, &self.moved)
    var (finalCount, movedFrom) = (self.finalCount, self.movedFrom)
    let (start, lookAhead) = (cursor, Self.lookAhead)
    objects.entries.withUnsafeBufferPointer { entries in
      for index in start..<Swift.min(start + lookAhead, end) where entries[index].isDeferredScalar {
        table.prefetch(objects.value(entries[index]))
      }
      for index in start..<end {
        if index + lookAhead < end, entries[index + lookAhead].isDeferredScalar {
          table.prefetch(objects.value(entries[index + lookAhead]))
        }
        let slot = entries[index]
        var final = UInt64(finalCount)
        if slot.isDeferredScalar {
          let first = table.number(for: objects.value(slot), storedAt: { objects.value(entries[Int($0)]) }) { UInt64(index) }
          if first != UInt64(index) { final = Self.finalUID(first, moved: moved, from: movedFrom) }
        }
        if final == UInt64(finalCount) { finalCount += 1 }
        if movedFrom == .max, final != UInt64(index) {
          movedFrom = index
          moved.reserveCapacity(end - index)
        }
        if movedFrom != .max { moved.append(UInt32(final)) }
      }
    }
    swap(&table, &self.table)
    swap(&moved, &self.moved)
    (self.finalCount, self.movedFrom, cursor) = (finalCount, movedFrom, end)
  }

  /// Uniques what is left and applies it: every UID renumbered to its final value, the entries
  /// that gave their place up taken out (their strings let go), the others moved down. Call once,
  /// when encoding is over (conditional references resolved).
  mutating func compact(_ objects: inout ArchiveObjectTable, top: inout PropertyListDictionary) {
    unique(objects)
    guard !isIdentity else { return }
    objects.renumberUIDs { finalUID($0) }
    if case .dictionary(let renumbered) = Self.renumbered(.dictionary(top), { finalUID($0) }) { top = renumbered }
    var next = movedFrom
    for index in movedFrom..<objects.entries.count {
      var slot = objects.entries[index]
      if Int(moved[index - movedFrom]) == next {
        if slot.isDeferredScalar { slot.extra = 0 }
        objects.entries[next] = slot
        next += 1
      } else if slot.kind == .string {
        objects.strings[Int(slot.word)] = ""
      }
    }
    objects.entries.removeLast(objects.entries.count - next)
  }

  /// `value` with every UID in it renumbered by `final`.
  static func renumbered(_ value: PropertyListValue, _ final: (UInt64) -> UInt64) -> PropertyListValue {
    switch value {
    case .uid(let uid): return .uid(final(uid))
    case .array(let members): return .array(members.map { renumbered($0, final) })
    case .dictionary(let dictionary):
      return .dictionary(PropertyListDictionary(uniqueKeys: dictionary.keys, values: dictionary.values.map { renumbered($0, final) }))
    default: return value
    }
  }

  /// The final UID of a scalar exactly equal to `value` among `objects`' entries (compacted), if
  /// any: for the binary writer's strings met outside `$objects`.
  func existingUID(for value: PropertyListValue, in objects: ArchiveObjectTable) -> UInt64? {
    table.existingNumber(for: value, storedAt: { objects.entryValue(finalUID($0)) }).map { finalUID($0) }
  }
}
