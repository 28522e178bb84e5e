import FoundationEssentials
internal import CPrefetch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The binary writer's table of scalars already written, so equal strings, numbers, dates and data
/// share one object (CoreFoundation's `uniquingset`).
///
/// Equality here is exact: strings compare by their UTF-8 bytes (CFString equality, unlike Swift's
/// `==`, does not fold canonically equivalent strings, and folding them would change the data),
/// reals by bit pattern and width, dates by bit pattern. An open-addressing table with a cheap
/// byte hash keeps the writer fast on documents of a million strings.
struct UniquingTable {
  /// One slot for strings and data: the hash's high 32 bits (`tag`, which also gives the slot's
  /// position: the top bits of the hash, so that the table can grow without the values' hashes)
  /// and the object number, -1 when empty. One 8-byte slot per probe keeps a table of a million
  /// scalars to one cache line per lookup, and half the memory of separate hash and number arrays.
  private struct Slot {
    var tag: UInt32
    var number: Int32
  }
  private var slots: [Slot] = []
  private var occupied = 0
  /// log2 of the slot count.
  private var bits = 0
  /// Integers, reals and dates, in a table of their own that holds each value's bits: a value met
  /// again (a keyed archive repeats its numbers) is recognized in the slot, without reading the
  /// object it was written as — a second cache miss per lookup once the document outgrows the
  /// caches. A value is only ever equal to one of its own kind, so the two tables answer as one.
  private var numbers = NumberTable()

  /// The number of an equal integer, real or date (`key`) already in the table, or `number`,
  /// recorded for it.
  @inline(__always)
  mutating func insertNumber(_ key: NumberTable.Key, number: Int) -> Int {
    numbers.insert(key, number: number)
  }

  /// The slot tag of a string's or data's hash (``hash(_:)``, ``hashBytes(_:seed:)``).
  @inline(__always)
  static func tag(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 32) }

  /// The number of a string or data whose hash has `tag` and that `matches` (given the number of
  /// each candidate with that tag) recognizes as equal, or `number`, recorded under `tag`.
  @inline(__always)
  mutating func insertText(tag: UInt32, number: Int, matches: (Int) -> Bool) -> Int {
    if occupied * 2 >= slots.count { grow() }
    let mask = slots.count - 1
    var slot = Int(tag >> UInt32(32 - bits))
    while true {
      let existing = slots[slot]
      if existing.number < 0 {
        slots[slot] = Slot(tag: tag, number: Int32(truncatingIfNeeded: number))
        occupied += 1
        return number
      }
      if existing.tag == tag, matches(Int(existing.number)) { return Int(existing.number) }
      slot = (slot + 1) & mask
    }
  }

  /// ``insertText(tag:number:matches:)`` without recording anything: the matching number, if any.
  @inline(__always)
  func findText(tag: UInt32, matches: (Int) -> Bool) -> Int? {
    guard bits > 0 else { return nil }
    let mask = slots.count - 1
    var slot = Int(tag >> UInt32(32 - bits))
    while true {
      let existing = slots[slot]
      if existing.number < 0 { return nil }
      if existing.tag == tag, matches(Int(existing.number)) { return Int(existing.number) }
      slot = (slot + 1) & mask
    }
  }

  /// Asks the processor for the slot where a lookup of `value` would start. Looking up a run of
  /// values one after another waits for one cache miss after another once the table outgrows the
  /// caches; prefetching their first slots a few values ahead lets the misses overlap with each
  /// other and with the work between. (Reading the slots instead, as this did before, overlapped
  /// the misses with each other only: the reads held up the processor until they were answered,
  /// and the read-ahead took a fifth of the time of writing the 14 MB benchmark document.)
  @inline(__always)
  func prefetch(_ value: PropertyListValue) {
    if let key = NumberTable.key(value) { return numbers.prefetch(key) }
    guard bits > 0 else { return }
    let position = Int(Self.tag(Self.hash(value)) >> UInt32(32 - bits))
    slots.withUnsafeBufferPointer { stasis_prefetch($0.baseAddress! + position) }
  }

  /// The bytes the table holds.
  var keptBytes: Int { slots.capacity * MemoryLayout<Slot>.stride + numbers.keptBytes }

  /// Whether lookups wait on memory, so that reading their slots ahead (``prefetch(_:)``) pays for
  /// hashing each value twice: the tables in use outgrow the processor's caches (2^17 slots of
  /// strings, 1 MB, or a number table of 1 MB), and this document has put more than a few
  /// thousand values in them. (Measured on three documents: the read-ahead cost 8 % of writing
  /// the 1.3 MB item store, whose tables fit the caches; on the 14 MB one, with tables of several
  /// megabytes, it takes a fifth of the samples and saves as much — the time is the same with the
  /// threshold at 16 MB; it had been measured at about 1 % on a keyed archive of 100,000 objects.)
  /// The number table's size is the slots in use, not the memory kept: a small document written
  /// after a large one starts with the large one's tables emptied, and with the memory kept as
  /// the measure it paid for the read-ahead in every document after that. The count keeps it off
  /// for the one small document that finds the tables still at the large one's size.
  var outgrowsCaches: Bool {
    (bits >= 17 || numbers.slotCount >= 1 << 16) && occupied &+ numbers.count >= 1 << 12
  }

  /// Empties the table for the next document, keeping its memory, at the size that holds what
  /// this one held: a run of alike documents then never grows it, and emptying it costs in
  /// proportion to what the document that filled it wrote (a small document after a large one
  /// empties the large table once, then a small one).
  mutating func removeAllForNextDocument() {
    let target = bits == 0 ? 0 : Self.bits(toHold: occupied)
    occupied = 0
    slots.removeAll(keepingCapacity: true)
    if target > 0 { slots.append(contentsOf: repeatElement(Slot(tag: 0, number: -1), count: 1 << target)) }
    bits = target
    numbers.removeAllForNextDocument()
  }

  /// The log2 of the smallest table (64 slots at least) that holds `count` values with one slot
  /// in two free.
  static func bits(toHold count: Int) -> Int {
    var bits = 6
    while bits < 31 && (1 << bits) < 2 * count { bits += 1 }
    return bits
  }

  private mutating func grow() {
    // Up to 2^31 slots: positions come from the 32-bit tag (object numbers are Int32 anyway).
    bits = Swift.max(6, bits + 1)
    let old = slots
    slots = [Slot](repeating: Slot(tag: 0, number: -1), count: 1 << bits)
    let mask = slots.count - 1
    let shift = UInt32(32 - bits)
    slots.withUnsafeMutableBufferPointer { slots in
      for entry in old where entry.number >= 0 {
        var slot = Int(entry.tag >> shift)
        while slots[slot].number >= 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
      }
    }
  }

  @inline(__always)
  static func mix(_ x: UInt64) -> UInt64 {
    var z = x
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A hash of `bytes`: a multiply and a shift per word, in four independent lanes over runs of
  /// 32 bytes (one lane waits on each multiply in turn: data of a few hundred bytes took as long
  /// as all the rest of its object's writing), and the last partial word loaded in at most three
  /// reads rather than a byte at a time (a loop whose length changed from string to string, and
  /// whose exit the processor mispredicted).
  @inline(__always)
  static func hashBytes(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
    let count = bytes.count
    var h = seed ^ UInt64(count) &* 0x9E37_79B9_7F4A_7C15
    guard let base = bytes.baseAddress else { return mix(h) }
    var index = 0
    if count >= 32 {
      var lanes = (h, h ^ 0x243F_6A88_85A3_08D3, h ^ 0x1319_8A2E_0370_7344, h ^ 0xA409_3822_299F_31D0)
      while index &+ 32 <= count {
        lanes.0 = hashStep(lanes.0, base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        lanes.1 = hashStep(lanes.1, base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self))
        lanes.2 = hashStep(lanes.2, base.loadUnaligned(fromByteOffset: index &+ 16, as: UInt64.self))
        lanes.3 = hashStep(lanes.3, base.loadUnaligned(fromByteOffset: index &+ 24, as: UInt64.self))
        index &+= 32
      }
      h = mix(lanes.0) &+ rotate(mix(lanes.1), 17) &+ rotate(mix(lanes.2), 31) &+ rotate(mix(lanes.3), 47)
    }
    while index &+ 8 <= count {
      h = hashStep(h, base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      index &+= 8
    }
    let left = count &- index
    guard left > 0 else { return mix(h) }
    let tail: UInt64
    if count >= 8 {
      // The last eight bytes, of which the high `left` are the ones not hashed yet.
      tail = base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) >> UInt64(64 &- 8 &* left)
    } else if left >= 4 {
      // Two four-byte reads that overlap in the middle; the shared bytes land in the same places.
      let low = UInt64(base.loadUnaligned(fromByteOffset: index, as: UInt32.self))
      let high = UInt64(base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
      tail = low | high << UInt64(8 &* (left &- 4))
    } else {
      // One to three bytes: the first, the middle and the last (some of them the same).
      let first = UInt64(base.load(fromByteOffset: index, as: UInt8.self))
      let middle = UInt64(base.load(fromByteOffset: index &+ left / 2, as: UInt8.self))
      let last = UInt64(base.load(fromByteOffset: count &- 1, as: UInt8.self))
      tail = first | middle << UInt64(8 &* (left / 2)) | last << UInt64(8 &* (left &- 1))
    }
    return mix(h ^ tail)
  }

  @inline(__always)
  private static func rotate(_ x: UInt64, _ bits: UInt64) -> UInt64 { x << bits | x >> (64 &- bits) }

  @inline(__always)
  private static func hashStep(_ h: UInt64, _ word: UInt64) -> UInt64 {
    let x = (h ^ word) &* 0x0000_0100_0000_01B3
    return x ^ (x >> 29)
  }

  /// The bytes `index..<count` at `bytes` (fewer than eight) as the low bytes of a word, the
  /// first lowest: the last partial word of a hash over bytes, read a byte at a time.
  @inline(__always)
  static func littleEndianTail(_ bytes: UnsafeRawPointer, from index: Int, to count: Int) -> UInt64 {
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    for offset in index..<count {
      tail |= UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self)) << shift
      shift += 8
    }
    return tail
  }

  static func hash(_ value: PropertyListValue) -> UInt64 {
    switch value {
    case .string(let string): return withUTF8Bytes(of: string) { hashBytes(UnsafeRawBufferPointer($0), seed: 1) }
    case .integer(let integer): return mix(integer.bitPattern ^ (integer.isNegative ? 0x2222 : 0x3333))
    case .real(let number, let width): return mix(number.bitPattern ^ (width == .single ? 0x4444 : 0x5555))
    case .date(let date): return mix(date.timeIntervalSinceReferenceDate.bitPattern ^ 0x6666)
    case .data(let data): return data.withUnsafeBytes { hashBytes($0, seed: 7) }
    case .bool(let flag): return mix(flag ? 0x7777 : 0x8888)
    default: return 0
    }
  }

  static func exactlyEqual(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)):
      return withUTF8Bytes(of: x) { sameBytes(UnsafeRawBufferPointer($0), y) }
    case (.integer(let x), .integer(let y)): return x == y
    case (.real(let x, let xw), .real(let y, let yw)): return x.bitPattern == y.bitPattern && xw == yw
    case (.date(let x), .date(let y)):
      return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
    case (.data(let x), .data(let y)): return x == y
    case (.bool(let x), .bool(let y)): return x == y
    default: return false
    }
  }
}

/// Whether two runs of bytes are equal.
@inline(__always)
func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
  a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
}

/// Whether `bytes` are the UTF-8 bytes of `string`.
@inline(__always)
func sameBytes(_ bytes: UnsafeRawBufferPointer, _ string: String) -> Bool {
  withUTF8Bytes(of: string) { sameBytes(bytes, UnsafeRawBufferPointer($0)) }
}

/// Whether `bytes` are the bytes of `data`.
@inline(__always)
func sameBytes(_ bytes: UnsafeRawBufferPointer, _ data: Data) -> Bool {
  data.withUnsafeBytes { sameBytes(bytes, $0) }
}

/// Runs `body` on the UTF-8 bytes of `string`: in place when it stores them contiguously (every
/// native string), else on a contiguous copy.
@inline(__always)
func withUTF8Bytes<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
  if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
  var copy = string
  return copy.withUTF8(body)
}

/// The binary writer's object numbers of dictionary keys already written, by the exact
/// representation of the key `String` (its bits), so that a key met again — every object of a
/// keyed archive repeats its class's keys — costs two word compares instead of hashing its bytes.
///
/// Equal bits mean the very same string: the same small-string bytes, or the same storage. A hit
/// is therefore always the string's number; a string equal to one recorded but stored apart
/// misses, and the ``UniquingTable`` gives it the same number. Recorded strings are kept, so their
/// storage (and with it their bits) cannot be reused by another string.
struct KeyNumbers {
  private var words: [(UInt64, UInt64)] = []
  private var numbers: [Int32] = []
  private var strings: [String] = []
  private var occupied = 0
  private var mask = 0

  /// Whether a `String` is the two words this table compares (every 64-bit platform).
  private static var isUsable: Bool { MemoryLayout<String>.size == 2 * MemoryLayout<UInt64>.size }

  @inline(__always)
  private static func words(of string: String) -> (UInt64, UInt64) {
    withUnsafeBytes(of: string) { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
  }

  @inline(__always)
  private static func slot(of words: (UInt64, UInt64), mask: Int) -> Int {
    Int(truncatingIfNeeded: UniquingTable.mix(words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15))) & mask
  }

  /// The number recorded for `key`, if any.
  @inline(__always)
  func number(for key: String) -> Int? {
    guard Self.isUsable, !numbers.isEmpty else { return nil }
    let keyWords = Self.words(of: key)
    var slot = Self.slot(of: keyWords, mask: mask)
    while numbers[slot] >= 0 {
      if words[slot] == keyWords { return Int(numbers[slot]) }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Records `number` for `key` (which ``number(for:)`` did not find).
  mutating func record(_ key: String, number: Int) {
    guard Self.isUsable else { return }
    insert(key, words: Self.words(of: key), number: Int32(truncatingIfNeeded: number))
  }

  private mutating func insert(_ key: String, words keyWords: (UInt64, UInt64), number: Int32) {
    if occupied * 2 >= numbers.count { grow() }
    var slot = Self.slot(of: keyWords, mask: mask)
    while numbers[slot] >= 0 { slot = (slot + 1) & mask }
    words[slot] = keyWords
    numbers[slot] = number
    strings[slot] = key
    occupied += 1
  }

  /// The bytes the table holds.
  var keptBytes: Int {
    words.capacity * MemoryLayout<(UInt64, UInt64)>.stride + numbers.capacity * MemoryLayout<Int32>.stride
      + strings.capacity * MemoryLayout<String>.stride
  }

  /// Forgets every key (releasing the strings kept), keeping the table's memory.
  mutating func removeAll() {
    guard occupied > 0 else { return }
    for index in numbers.indices where numbers[index] >= 0 {
      numbers[index] = -1
      strings[index] = ""
    }
    occupied = 0
  }

  private mutating func grow() {
    let capacity = Swift.max(64, numbers.count * 2)
    let oldWords = words
    let oldNumbers = numbers
    let oldStrings = strings
    words = [(UInt64, UInt64)](repeating: (0, 0), count: capacity)
    numbers = [Int32](repeating: -1, count: capacity)
    strings = [String](repeating: "", count: capacity)
    mask = capacity - 1
    occupied = 0
    for index in oldNumbers.indices where oldNumbers[index] >= 0 {
      insert(oldStrings[index], words: oldWords[index], number: oldNumbers[index])
    }
  }
}
