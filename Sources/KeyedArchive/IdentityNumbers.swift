/// The keyed archiver's table of class instances already given a UID (identity → UID); also
/// restoration's table of preserved objects (identity → node index).
///
/// Open-addressed, with the identity and its UID together in one 16-byte slot: a lookup reads one
/// cache line, where a `Dictionary` reads its occupancy bitmap, its keys and its values apart (three
/// cache misses per object once the table outgrows the caches, at about 100,000 objects) and hashes
/// the identity with SipHash. Identities are object addresses, so a multiplicative (Fibonacci) hash
/// of the address spreads them; linear probing, at most half full.
package struct IdentityNumbers {
  private struct Slot {
    /// The object's address; 0 marks an empty slot (no object lives at address 0).
    var identity: UInt
    var number: UInt64
  }
  private var slots: [Slot] = []
  private var occupied = 0
  /// log2 of the slot count.
  private var bits = 0

  package init() {}

  /// A table with room for `count` identities before it grows.
  package init(capacity count: Int) {
    guard count > 0 else { return }
    var bits = 6
    while (1 << bits) < count * 2 { bits += 1 }
    self.bits = bits
    slots = [Slot](repeating: Slot(identity: 0, number: 0), count: 1 << bits)
  }

  @inline(__always)
  private static func address(_ identity: ObjectIdentifier) -> UInt { UInt(bitPattern: identity) }

  /// The slot where the probe for `address` starts, in a table of 2^`bits` slots.
  @inline(__always)
  private static func start(_ address: UInt, bits: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
  }

  /// The UID recorded for `identity`, if any.
  @inline(__always)
  package func number(of identity: ObjectIdentifier) -> UInt64? {
    guard occupied > 0 else { return nil }
    let address = Self.address(identity)
    let mask = slots.count - 1
    let first = Self.start(address, bits: bits)
    return slots.withUnsafeBufferPointer { slots in
      var slot = first
      while true {
        let existing = slots[slot]
        if existing.identity == address { return existing.number }
        if existing.identity == 0 { return nil }
        slot = (slot + 1) & mask
      }
    }
  }

  /// Reads the slots where lookups of `count` objects start, their references (each an object's
  /// address, as a Swift array of class instances holds them) read from `references`, and returns
  /// a word of them. Looking up the members of a large array one after another waits for one cache
  /// miss after another once the table outgrows the caches; reading a run of their first slots
  /// together first lets the misses overlap (as the binary writer's read-ahead does). The
  /// references are read as words, not as objects: retaining and releasing each one (an atomic
  /// operation, which waits for every load before it) made the reads one miss after another again.
  @inline(__always)
  func touch(references: UnsafeRawPointer, count: Int) -> UInt {
    guard bits > 0 else { return 0 }
    let bits = bits
    return slots.withUnsafeBufferPointer { slots in
      var word: UInt = 0
      for index in 0..<count {
        let address = references.load(fromByteOffset: index &* MemoryLayout<UInt>.stride, as: UInt.self)
        word ^= slots[Self.start(address, bits: bits)].identity
      }
      return word
    }
  }

  /// Records `number` as the UID of `identity` (replacing a UID recorded before).
  package mutating func record(_ identity: ObjectIdentifier, number: UInt64) {
    if (occupied + 1) * 2 > slots.count { grow() }
    let address = Self.address(identity)
    let mask = slots.count - 1
    let first = Self.start(address, bits: bits)
    let added = slots.withUnsafeMutableBufferPointer { slots in
      var slot = first
      while slots[slot].identity != 0 && slots[slot].identity != address { slot = (slot + 1) & mask }
      let added = slots[slot].identity == 0
      slots[slot] = Slot(identity: address, number: number)
      return added
    }
    if added { occupied += 1 }
  }

  private mutating func grow() {
    bits = Swift.max(6, bits + 1)
    let old = slots
    slots = [Slot](repeating: Slot(identity: 0, number: 0), count: 1 << bits)
    let mask = slots.count - 1
    let bits = bits
    slots.withUnsafeMutableBufferPointer { slots in
      for entry in old where entry.identity != 0 {
        var slot = Self.start(entry.identity, bits: bits)
        while slots[slot].identity != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
      }
    }
  }
}
