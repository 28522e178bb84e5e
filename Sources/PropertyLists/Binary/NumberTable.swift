import FoundationEssentials
internal import CPrefetch

/// ``UniquingTable``'s integers, reals and dates: open-addressed 16-byte slots holding a value's
/// 64 bits, its kind and its object number, so that equality is decided in the slot. Kinds keep
/// apart what CF keeps apart: a negative integer from a positive one with the same bits, a
/// single-precision real from a double, a real from a date; reals and dates compare by bit
/// pattern, as ``UniquingTable/exactlyEqual(_:_:)`` does.
struct NumberTable {
  /// A value as the table compares it.
  struct Key {
    var bits: UInt64
    var kind: UInt32

    @inline(__always)
    static func integer(_ integer: PropertyListInteger) -> Key { Key(bits: integer.bitPattern, kind: integer.isNegative ? 1 : 2) }

    @inline(__always)
    static func real(_ number: Double, width: PropertyListValue.RealWidth) -> Key {
      Key(bits: number.bitPattern, kind: width == .single ? 3 : 4)
    }

    @inline(__always)
    static func date(_ date: Date) -> Key { Key(bits: date.timeIntervalSinceReferenceDate.bitPattern, kind: 5) }
  }
  private struct Slot {
    var bits: UInt64
    /// The key's kind (1–5), 0 when the slot is empty.
    var kind: UInt32
    var number: Int32
  }
  private var slots: [Slot] = []
  /// The values recorded.
  private(set) var count = 0
  private var mask = 0

  /// The key of an integer, a real or a date; nil for every other value.
  @inline(__always)
  static func key(_ value: PropertyListValue) -> Key? {
    switch value {
    case .integer(let integer): .integer(integer)
    case .real(let number, let width): .real(number, width: width)
    case .date(let date): .date(date)
    default: nil
    }
  }

  @inline(__always)
  private static func position(_ key: Key, mask: Int) -> Int {
    Int(truncatingIfNeeded: UniquingTable.mix(key.bits ^ (UInt64(key.kind) &* 0x9E37_79B9_7F4A_7C15))) & mask
  }

  /// The number of an equal value already recorded, or `number`, recorded for `key`.
  @inline(__always)
  mutating func insert(_ key: Key, number: Int) -> Int {
    if count * 2 >= slots.count { grow() }
    var slot = Self.position(key, mask: mask)
    while true {
      let existing = slots[slot]
      if existing.kind == 0 {
        slots[slot] = Slot(bits: key.bits, kind: key.kind, number: Int32(truncatingIfNeeded: number))
        count += 1
        return number
      }
      if existing.bits == key.bits, existing.kind == key.kind { return Int(existing.number) }
      slot = (slot + 1) & mask
    }
  }

  /// Prefetches the slot where a lookup of `key` starts (see ``UniquingTable/prefetch(_:)``).
  @inline(__always)
  func prefetch(_ key: Key) {
    guard !slots.isEmpty else { return }
    let position = Self.position(key, mask: mask)
    slots.withUnsafeBufferPointer { stasis_prefetch($0.baseAddress! + position) }
  }

  /// The slots in use (the memory kept may be larger: see ``removeAllForNextDocument()``).
  var slotCount: Int { slots.count }

  /// The bytes the table holds.
  var keptBytes: Int { slots.capacity * MemoryLayout<Slot>.stride }

  /// Empties the table for the next document, keeping its memory, at the size that holds what
  /// this one held (see ``UniquingTable/removeAllForNextDocument()``).
  mutating func removeAllForNextDocument() {
    let size = slots.isEmpty ? 0 : 1 << UniquingTable.bits(toHold: count)
    count = 0
    slots.removeAll(keepingCapacity: true)
    if size > 0 { slots.append(contentsOf: repeatElement(Slot(bits: 0, kind: 0, number: -1), count: size)) }
    mask = Swift.max(size - 1, 0)
  }

  private mutating func grow() {
    let capacity = Swift.max(64, slots.count * 2)
    let old = slots
    slots = [Slot](repeating: Slot(bits: 0, kind: 0, number: -1), count: capacity)
    mask = capacity - 1
    let mask = mask
    slots.withUnsafeMutableBufferPointer { slots in
      for entry in old where entry.kind != 0 {
        var slot = Self.position(Key(bits: entry.bits, kind: entry.kind), mask: mask)
        while slots[slot].kind != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
      }
    }
  }
}
