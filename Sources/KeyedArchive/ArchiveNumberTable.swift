import CPrefetch

/// The direct binary writer's numbers (``ArchiveBinaryDirectWriter``): integers, reals and dates
/// by exact value — their 64 bits and a kind that keeps apart what CF keeps apart (a negative
/// integer from a positive one with the same bits, a `Float` from a `Double`, a real from a date)
/// — to the object number of their first occurrence in the document.
///
/// Open-addressed, 16 bytes a slot holding the value, its kind and its number, so that a lookup
/// decides in the slot it reads. It is sized once from the writer's estimate of the numbers to
/// come (at most half full), and doubles only if that estimate was short: each doubling of a table
/// larger than the caches is a block of fresh pages and a miss per value moved.
struct ArchiveNumberTable {
  /// What the table compares: the bits, and the kind (1 negative integer, 2 other integer,
  /// 3 `Float`, 4 `Double`, 5 date; 0 marks an empty slot).
  struct Key {
    var bits: UInt64
    var kind: UInt32
  }
  private struct Slot {
    var bits: UInt64
    var kind: UInt32
    var number: UInt32
  }
  private var slots: [Slot]
  private var mask: Int
  private var count = 0

  /// A table with room for `expected` numbers before it grows.
  init(expected: Int) {
    var size = 64
    while size < 2 * expected { size <<= 1 }
    slots = [Slot](repeating: Slot(bits: 0, kind: 0, number: 0), count: size)
    mask = size - 1
  }

  @inline(__always)
  private static func position(_ key: Key, mask: Int) -> Int {
    var mixed = key.bits ^ (UInt64(key.kind) &* 0x9E37_79B9_7F4A_7C15)
    mixed = (mixed ^ (mixed >> 31)) &* 0xBF58_476D_1CE4_E5B9
    mixed ^= mixed >> 29
    return Int(truncatingIfNeeded: mixed) & mask
  }

  /// The number of an equal value recorded before, or `number`, recorded now for `key`.
  /// Numbers are below 2^32 (the writer hands the document to the general writer beyond).
  @inline(__always)
  mutating func number(for key: Key, orInsert number: Int) -> Int {
    if (count &+ 1) &* 2 > slots.count { grow() }
    let mask = self.mask
    let found: Int? = slots.withUnsafeMutableBufferPointer { slots in
      var slot = Self.position(key, mask: mask)
      while true {
        let existing = slots[slot]
        if existing.kind == 0 {
          slots[slot] = Slot(bits: key.bits, kind: key.kind, number: UInt32(truncatingIfNeeded: number))
          return nil
        }
        if existing.bits == key.bits, existing.kind == key.kind { return Int(existing.number) }
        slot = (slot &+ 1) & mask
      }
    }
    if let found { return found }
    count &+= 1
    return number
  }

  /// The slot where a lookup of `key` starts.
  @inline(__always)
  func start(of key: Key) -> Int { Self.position(key, mask: mask) }

  /// Asks for the slots at `positions` (from ``start(of:)``, this table unchanged since) by
  /// software prefetches, one right after another, so that their cache misses are all in flight
  /// together while the caller works on the objects before them. A prefetch neither faults nor
  /// waits; plain loads in its place held the processor up at the first miss once its window of
  /// instructions was full (measured at 100k and 1M items).
  @inline(__always)
  func prefetch(_ positions: UnsafeBufferPointer<Int>) {
    slots.withUnsafeBufferPointer { slots in
      guard let base = slots.baseAddress else { return }
      for position in positions where position < slots.count { stasis_prefetch(base + position) }
    }
  }

  private mutating func grow() {
    let old = slots
    let size = slots.count * 2
    slots = [Slot](repeating: Slot(bits: 0, kind: 0, number: 0), count: size)
    mask = size - 1
    let mask = self.mask
    slots.withUnsafeMutableBufferPointer { slots in
      for entry in old where entry.kind != 0 {
        var slot = Self.position(Key(bits: entry.bits, kind: entry.kind), mask: mask)
        while slots[slot].kind != 0 { slot = (slot &+ 1) & mask }
        slots[slot] = entry
      }
    }
  }
}
