internal import CPrefetch

/// A table from scalars to numbers under the binary writer's exact equality (``UniquingTable``'s
/// rule: strings by UTF-8 bytes, reals by bit pattern and width, numbers by type — `-0.0` and
/// `0.0`, `"\u{E9}"` and `"e\u{301}"`, `Float(1.5)` and `1.5` stay apart), open-addressed with its
/// byte hash: the keyed archiver's `$objects` uniquing, for writers outside this module.
package struct ExactScalarTable {
  /// One slot: the hash's high 32 bits (`tag`, whose top bits also give the slot's position, so
  /// that growing needs no value hashed again) and the number, `UInt32.max` when empty. Eight
  /// bytes per slot, as in ``UniquingTable``: a table of two million strings (a keyed archive of a
  /// million objects) takes 32 MB, and one of 200,000 fits in the last-level cache.
  private struct Slot {
    var tag: UInt32
    var number: UInt32
  }
  private static let empty = Slot(tag: 0, number: .max)
  private var slots: [Slot] = []
  /// One byte per slot, 0 when it is empty, else 0x80 and seven bits of its tag (``control(_:)``):
  /// a lookup scans these, and reads a slot only when its byte matches. A table of two million
  /// strings has 4 MB of them, which stay in the last-level cache where its 32 MB of slots do not:
  /// a string met for the first time (most strings of a large archive) is then placed without
  /// waiting for any slot to come from memory, where it waited for one or more cache misses.
  private var controls: [UInt8] = []
  /// The recorded values, by slot, for ``number(for:orInsert:)``; empty for a table used through
  /// ``number(for:storedAt:orInsert:)``, whose caller keeps the values.
  private var keys: [PropertyListValue] = []
  private var occupied = 0
  /// log2 of the slot count.
  private var bits = 0
  /// Slot writes of new entries not made yet, at most ``deferredRun``, in a table of at least
  /// 2^``deferringBits`` slots (one larger than the caches). A new entry's slot is a cache miss of
  /// its own (its control byte was read already), and a store that misses holds up the next atomic
  /// operation (every retain and release) until it is done: written one by one, each new string of
  /// a large archive waited for its slot; written in runs, their misses overlap. Its control byte
  /// is written at once, so a lookup that matches it looks here first (``slot(at:)``).
  private var deferred: [(position: Int, slot: Slot)] = []

  package init() {}

  /// Slot writes are deferred in tables of at least 2^18 slots (2 MB of slots: larger than L2).
  private static var deferringBits: Int { 18 }
  /// How many slot writes wait at most.
  private static var deferredRun: Int { 16 }

  /// Whether `number` fits a slot. Numbers from `UInt32.max - 1` up (four billion values, far
  /// beyond what fits in memory) are handed out unrecorded: a value met again gets a new number.
  @inline(__always)
  private static func fits(_ number: UInt64) -> Bool { number < UInt64(UInt32.max) }

  @inline(__always)
  private static func tag(_ value: PropertyListValue) -> UInt32 { UInt32(truncatingIfNeeded: UniquingTable.hash(value) >> 32) }

  /// A slot's control byte: its tag's low seven bits (the position comes from the high ones).
  @inline(__always)
  private static func control(_ tag: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: tag) | 0x80 }

  /// The number recorded for a scalar exactly equal to `value`, or `make()`'s, recorded for it
  /// (the table keeps a copy of each value).
  @inline(__always)
  package mutating func number(for value: PropertyListValue, orInsert make: () -> UInt64) -> UInt64 {
    number(for: value, keepingKeys: true, storedAt: { _ in .bool(false) }, orInsert: make)
  }

  /// The number recorded for a scalar exactly equal to `value`, or `make()`'s, recorded for it;
  /// `stored` gives the value recorded under a number (the caller keeps them — the keyed
  /// archiver's `$objects` — so the table holds no copies, and a lookup that finds nothing reads
  /// only the table). Use one form or the other on a table, not both.
  @inline(__always)
  package mutating func number(
    for value: PropertyListValue, storedAt stored: (UInt64) -> PropertyListValue, orInsert make: () -> UInt64
  ) -> UInt64 {
    number(for: value, keepingKeys: false, storedAt: stored, orInsert: make)
  }

  /// Both forms: recorded values compared in `keys` (`keepsKeys`) or through `stored`.
  @inline(__always)
  private mutating func number(
    for value: PropertyListValue, keepingKeys keepsKeys: Bool, storedAt stored: (UInt64) -> PropertyListValue, orInsert make: () -> UInt64
  ) -> UInt64 {
    if occupied * 2 >= slots.count { grow(keepingKeys: keepsKeys) }
    let tag = Self.tag(value)
    let slot: Int
    switch probe(for: value, tag: tag, keepingKeys: keepsKeys, storedAt: stored) {
    case .found(let number): return number
    case .empty(let position): slot = position
    }
    let number = make()
    guard Self.fits(number) else { return number }
    let entry = Slot(tag: tag, number: UInt32(truncatingIfNeeded: number))
    if bits >= Self.deferringBits {
      deferred.append((slot, entry))
      if deferred.count == Self.deferredRun { writeDeferred() }
    } else {
      slots[slot] = entry
    }
    controls[slot] = Self.control(tag)
    if keepsKeys { keys[slot] = value }
    occupied += 1
    return number
  }

  /// The number recorded for a scalar exactly equal to `value`, if any, in a table used through
  /// ``number(for:storedAt:orInsert:)``.
  package func existingNumber(for value: PropertyListValue, storedAt stored: (UInt64) -> PropertyListValue) -> UInt64? {
    guard bits > 0 else { return nil }
    if case .found(let number) = probe(for: value, tag: Self.tag(value), keepingKeys: false, storedAt: stored) { return number }
    return nil
  }

  /// Where a lookup ends: at the number of an equal value, or at the empty slot a new one takes.
  private enum Probe {
    case found(UInt64)
    case empty(Int)
  }

  /// The lookup of `value` (whose ``tag(_:)`` is `tag`) in a table of at least one slot with one
  /// free: its control bytes scanned from the tag's position, a slot read only where its byte
  /// matches, the recorded value (in `keys` or through `stored`) only where the whole tag does.
  @inline(__always)
  private func probe(
    for value: PropertyListValue, tag: UInt32, keepingKeys keepsKeys: Bool, storedAt stored: (UInt64) -> PropertyListValue
  ) -> Probe {
    let control = Self.control(tag)
    let mask = slots.count - 1
    var slot = Int(tag >> UInt32(32 - bits))
    while true {
      let byte = controls[slot]
      if byte == 0 { return .empty(slot) }
      if byte == control {
        let existing = self.slot(at: slot)
        if existing.tag == tag, UniquingTable.exactlyEqual(value, keepsKeys ? keys[slot] : stored(UInt64(existing.number))) {
          return .found(UInt64(existing.number))
        }
      }
      slot = (slot + 1) & mask
    }
  }

  /// Slot `position`, written or waiting in ``deferred`` (each slot is written once).
  @inline(__always)
  private func slot(at position: Int) -> Slot {
    for index in deferred.indices where deferred[index].position == position { return deferred[index].slot }
    return slots[position]
  }

  /// Makes the slot writes that wait, one after another (their misses overlap).
  private mutating func writeDeferred() {
    slots.withUnsafeMutableBufferPointer { slots in
      for index in deferred.indices { slots[deferred[index].position] = deferred[index].slot }
    }
    deferred.removeAll(keepingCapacity: true)
  }

  private mutating func grow(keepingKeys keepsKeys: Bool, toBits newBits: Int? = nil) {
    writeDeferred()
    // Up to 2^32 slots: positions come from the 32-bit tag.
    bits = Swift.max(6, newBits ?? bits + 1)
    let capacity = 1 << bits
    let oldSlots = slots
    var oldKeys: [PropertyListValue] = []
    if keepsKeys {
      oldKeys = [PropertyListValue](repeating: .bool(false), count: capacity)
      swap(&oldKeys, &keys)
    }
    slots = [Slot](repeating: Self.empty, count: capacity)
    controls = [UInt8](repeating: 0, count: capacity)
    let mask = capacity - 1
    let shift = UInt32(32 - bits)
    for index in oldSlots.indices where oldSlots[index].number != .max {
      var slot = Int(oldSlots[index].tag >> shift)
      while controls[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = oldSlots[index]
      controls[slot] = Self.control(oldSlots[index].tag)
      // Moved, not copied: no retain and release per key.
      if keepsKeys { swap(&keys[slot], &oldKeys[index]) }
    }
  }

  /// Makes room for `count` more values, so that recording them grows the table at most once, now
  /// (one move of the values recorded so far, and one block of fresh pages, instead of one per
  /// doubling): for a caller that knows how many values it will look up (the keyed archiver's
  /// deferred uniquing), in a table used through ``number(for:storedAt:orInsert:)``.
  package mutating func reserve(_ count: Int) {
    var bits = Swift.max(6, bits)
    while (occupied + count) * 2 > 1 << bits { bits += 1 }
    if bits > self.bits { grow(keepingKeys: !keys.isEmpty, toBits: Swift.min(bits, 32)) }
  }

  /// Asks for the control byte where a lookup of `value` starts (a software prefetch, which
  /// neither waits nor faults; the slot, read only by a match and written in runs by a new value,
  /// is not asked for: in a table of 32 MB its prefetch cost a page-table walk per value, more
  /// than it saved): for a caller that looks up many values one after another (the
  /// keyed archiver's deferred uniquing), asking a few values ahead lets their cache misses overlap
  /// in a table larger than the caches, where the lookups one by one would wait for each in turn.
  /// (Plain loads in runs of 16 did overlap, but each run waited for its slowest.) Changes nothing.
  @inline(__always)
  package func prefetch(_ value: PropertyListValue) {
    guard bits > 0 else { return }
    let position = Int(Self.tag(value) >> UInt32(32 - bits))
    controls.withUnsafeBufferPointer { stasis_prefetch($0.baseAddress! + position) }
  }
}
