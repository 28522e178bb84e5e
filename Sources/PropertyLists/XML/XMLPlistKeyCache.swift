import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Dictionary keys already made into strings, so that a key seen again (as in arrays of records)
/// costs a hash and a byte comparison instead of a new `String`.
///
/// Direct-mapped on a hash of the key's bytes; an entry points at the bytes of the key it was
/// made from, inside the document, which outlives the reader. Only plain ASCII keys are handled
/// (their bytes are valid UTF-8, and two of them are equal strings exactly when their bytes are
/// equal); others go the usual way.
struct XMLPlistKeyCache {
  /// The fingerprint of keys that are not fingerprinted (not ASCII, or from references or CDATA).
  static let unknownFingerprint: UInt64 = 0
  /// The fingerprint of the empty key.
  static var emptyFingerprint: UInt64 { finish(0, count: 0) }

  struct Entry {
    var bytes: UnsafePointer<UInt8>?
    var count = 0
    var string = ""
  }

  private static let slotBits = 8
  private static let slotCount = 1 << slotBits
  /// Longer keys are fingerprinted but not kept.
  private static let maximumCachedCount = 64
  private var entries: [Entry] = []

  /// The fingerprint of the `count` bytes at `bytes` (never ``unknownFingerprint``), or `nil` if
  /// they are not all ASCII. `readable` bytes from `bytes` on may be read (at least `count`), so
  /// the last partial word can be loaded whole and masked.
  @inline(__always)
  static func fingerprint(_ bytes: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> UInt64? {
    var hash: UInt64 = 0
    var high: UInt64 = 0
    let raw = UnsafeRawPointer(bytes)
    var index = 0
    while index + 8 <= count {
      let chunk = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      high |= chunk
      hash = (hash ^ chunk) &* 0x9E37_79B9_7F4A_7C15
      hash ^= hash >> 29
      index += 8
    }
    if index < count {
      // The last partial word, little-endian (the key's bytes are the low ones): loaded whole
      // and masked when the bytes after it may be read, else a byte at a time.
      let chunk =
        index + 8 <= readable
        ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) & (UInt64.max >> (64 - 8 * UInt64(count - index)))
        : UniquingTable.littleEndianTail(raw, from: index, to: count)
      high |= chunk
      hash = (hash ^ chunk) &* 0x9E37_79B9_7F4A_7C15
      hash ^= hash >> 29
    }
    guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
    return finish(hash, count: count)
  }

  /// The string for the `count` bytes at `bytes` and their fingerprint (never
  /// ``unknownFingerprint``), or `nil` if they are not all ASCII. `readable` bytes from `bytes`
  /// on may be read (at least `count`).
  @inline(__always)
  mutating func string(_ bytes: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> (String, UInt64)? {
    guard let fingerprint = Self.fingerprint(bytes, count, readable: readable) else { return nil }
    guard count <= Self.maximumCachedCount else {
      return (String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self), fingerprint)
    }
    if entries.isEmpty { entries = Array(repeating: Entry(), count: Self.slotCount) }
    let slot = Int(truncatingIfNeeded: fingerprint >> (64 - UInt64(Self.slotBits)))
    return entries.withUnsafeMutableBufferPointer { entries in
      if entries[slot].count == count, let cached = entries[slot].bytes,
        cached == bytes || Self.sameBytes(cached, bytes, count, readable: readable)
      {
        return (entries[slot].string, fingerprint)
      }
      let string = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
      entries[slot] = Entry(bytes: bytes, count: count, string: string)
      return (string, fingerprint)
    }
  }

  /// Whether the `count` bytes at `cached` and at `bytes` are equal, a word at a time. `cached`
  /// comes from earlier in the same document, so whatever may be read after `bytes` (`readable`
  /// bytes from it) may be read after `cached` too.
  @inline(__always)
  private static func sameBytes(_ cached: UnsafePointer<UInt8>, _ bytes: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> Bool {
    guard cached < bytes, count + 8 <= readable else { return memcmp(cached, bytes, count) == 0 }
    let left = UnsafeRawPointer(cached)
    let right = UnsafeRawPointer(bytes)
    var index = 0
    while index + 8 <= count {
      if left.loadUnaligned(fromByteOffset: index, as: UInt64.self) != right.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
        return false
      }
      index += 8
    }
    guard index < count else { return true }
    let mask = UInt64.max >> (64 - 8 * UInt64(count - index))
    let difference = UInt64(littleEndian: left.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      ^ UInt64(littleEndian: right.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    return difference & mask == 0
  }

  @inline(__always)
  private static func finish(_ hash: UInt64, count: Int) -> UInt64 {
    var mixed = (hash ^ UInt64(truncatingIfNeeded: count)) &* 0xBF58_476D_1CE4_E5B9
    mixed ^= mixed >> 31
    mixed = mixed &* 0x94D0_49BB_1331_11EB
    mixed ^= mixed >> 32
    return mixed | 1
  }
}
