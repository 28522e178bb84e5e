/// Big-endian UTF-16 string objects (marker `0x6n`) made into `String`s: an unpaired surrogate
/// becomes U+FFFD, as CoreFoundation's reader makes it.
///
/// Short strings are transcoded into stack scratch space of the largest size they can take (3
/// bytes a unit) and copied into a string of their exact size (strings of up to 15 UTF-8 bytes
/// stay inline). Longer ones — whose scratch space the standard library would take from the heap,
/// and whose copy is the larger cost — are measured first (a vector pass gives a bound at most
/// 2 bytes a surrogate pair above the exact size) and transcoded straight into the string's own
/// storage.
extension BinaryPlistReader {
  /// Strings of more units than this are measured and transcoded in place (3 bytes a unit is
  /// the standard library's 1 KB limit for `withUnsafeTemporaryAllocation` on the stack).
  static let utf16ScratchLimit = 1200

  static func utf16String(_ source: UnsafeRawPointer, count: Int) -> String {
    guard count > 0 else { return "" }
    if count > utf16ScratchLimit {
      let bound = utf8LengthBound(source, count: count)
      return String(unsafeUninitializedCapacity: bound) { target in
        transcodeUTF16(source, count: count, into: target.baseAddress!)
      }
    }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count &* 3) { scratch in
      let length = transcodeUTF16(source, count: count, into: scratch.baseAddress!)
      return String(unsafeUninitializedCapacity: length) { target in
        target.baseAddress!.initialize(from: scratch.baseAddress!, count: length)
        return length
      }
    }
  }

  /// The UTF-8 size of `count` big-endian UTF-16 units at `source`, counting every unit at or
  /// above U+0800 — surrogates too — as 3 bytes: exact without surrogates, 2 bytes over for
  /// each surrogate pair (4 bytes of UTF-8), exact for an unpaired one (U+FFFD, 3 bytes).
  static func utf8LengthBound(_ source: UnsafeRawPointer, count: Int) -> Int {
    var total = count
    var index = 0
    // Eight units a step, 2 at most per lane and step in UInt16 lanes: flushed every 2,048
    // steps, so that neither a lane nor the lanes' (UInt16) sum can wrap.
    while index &+ 8 <= count {
      var lanes = SIMD8<UInt16>()
      var steps = 0
      while index &+ 8 <= count, steps < 2_048 {
        let loaded = source.loadUnaligned(fromByteOffset: index &* 2, as: SIMD8<UInt16>.self)
        let units = (loaded &<< 8) | (loaded &>> 8)
        // 1 where a unit is at or above 0x80 (then 0x800): the bits above bit 6 (then 10), a
        // number of at most 511, made 0 or 1 by a carry into bit 15. (The SIMD comparison
        // operators compile to a loop over the lanes here; shifts and adds to vector code.)
        lanes &+= ((units &>> 7) &+ 0x7FFF) &>> 15
        lanes &+= ((units &>> 11) &+ 0x7FFF) &>> 15
        index &+= 8
        steps &+= 1
      }
      total &+= Int(lanes.wrappedSum())
    }
    while index < count {
      let unit = UInt16(bigEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: UInt16.self))
      total &+= (unit >= 0x80 ? 1 : 0) &+ (unit >= 0x800 ? 1 : 0)
      index &+= 1
    }
    return total
  }

  /// Whether four big-endian UTF-16 units are all ASCII (each unit's high byte zero and low byte
  /// below 0x80). `word` holds their eight bytes with the first in its lowest byte
  /// (`UInt64(littleEndian:)` of the bytes loaded in memory order).
  @inline(__always)
  static func fourASCIIUnits(_ word: UInt64) -> Bool {
    word & 0x80FF_80FF_80FF_80FF == 0
  }

  /// Writes the UTF-8 of `count` big-endian UTF-16 units at `source` to `target` (room for 3
  /// bytes a unit, or for ``utf8LengthBound(_:count:)``); returns the number of bytes written.
  static func transcodeUTF16(_ source: UnsafeRawPointer, count: Int, into target: UnsafeMutablePointer<UInt8>) -> Int {
    var out = target
    var index = 0
    while index < count {
      if index &+ 8 <= count {
        // Eight units in one vector: each unit's low byte, when all eight are ASCII.
        let units = source.loadUnaligned(fromByteOffset: index &* 2, as: SIMD8<UInt16>.self)
        let words = unsafeBitCast(units, to: SIMD2<UInt64>.self)
        if fourASCIIUnits(words[0] | words[1]) {
          UnsafeMutableRawPointer(out).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: units &>> 8), as: SIMD8<UInt8>.self)
          out += 8
          index &+= 8
          continue
        }
      }
      if index &+ 4 <= count {
        let word = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: UInt64.self))
        if fourASCIIUnits(word) {
          // The units' low bytes (big-endian units: every second byte, from the second).
          let bytes = UInt32(truncatingIfNeeded: (word >> 8) & 0xFF | (word >> 16) & 0xFF00 | (word >> 24) & 0xFF_0000 | (word >> 32) & 0xFF00_0000)
          UnsafeMutableRawPointer(out).storeBytes(of: bytes.littleEndian, as: UInt32.self)
          out += 4
          index &+= 4
          continue
        }
      }
      var scalar = UInt32(UInt16(bigEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: UInt16.self)))
      index &+= 1
      if scalar < 0x80 {
        out.pointee = UInt8(truncatingIfNeeded: scalar)
        out += 1
        continue
      }
      if scalar < 0x800 {
        out[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
        out[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        out += 2
        continue
      }
      if scalar & 0xF800 == 0xD800 {
        var paired = false
        if scalar < 0xDC00, index < count {
          let low = UInt32(UInt16(bigEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: UInt16.self)))
          if low & 0xFC00 == 0xDC00 {
            scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (low &- 0xDC00)
            index &+= 1
            paired = true
          }
        }
        if paired {
          out[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
          out[1] = UInt8(truncatingIfNeeded: 0x80 | (scalar >> 12) & 0x3F)
          out[2] = UInt8(truncatingIfNeeded: 0x80 | (scalar >> 6) & 0x3F)
          out[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
          out += 4
          continue
        }
        scalar = 0xFFFD
      }
      out[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
      out[1] = UInt8(truncatingIfNeeded: 0x80 | (scalar >> 6) & 0x3F)
      out[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
      out += 3
    }
    return out - target
  }
}
