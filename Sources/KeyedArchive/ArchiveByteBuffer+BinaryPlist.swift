import FoundationEssentials
import PropertyLists

/// The `bplist00` encodings of single objects, as CoreFoundation writes them (`__CFBinaryPlistWrite`),
/// for ``ArchiveBinaryDirectWriter``: the same bytes as the property-list module's binary writer.
extension ArchiveByteBuffer {

  /// A marker whose low nibble holds `count` (`high | count`), or from 15 up `high | 0xF`
  /// followed by the count as an integer object.
  @inline(__always)
  mutating func appendMarker(_ high: UInt8, count: Int) {
    if count < 15 {
      append(high | UInt8(truncatingIfNeeded: count))
      return
    }
    append(high | 0x0F)
    let width = binaryPlistByteWidth(UInt64(count))
    append(0x10 | UInt8(truncatingIfNeeded: width.trailingZeroBitCount))
    append(UInt64(count), width: width)
  }

  /// An integer: a negative one in 8 bytes (`0x13`), one above `Int64.max` in 16 (`0x14`, the
  /// high 8 bytes zero), any other in the fewest of 1, 2, 4 or 8 bytes (`0x10`–`0x13`).
  @inline(__always)
  mutating func appendInteger(bitPattern: UInt64, isNegative: Bool) {
    if isNegative {
      append(0x13)
      append(bitPattern, width: 8)
    } else if bitPattern > UInt64(Int64.max) {
      append(0x14)
      append(0, width: 8)
      append(bitPattern, width: 8)
    } else {
      let width = binaryPlistByteWidth(bitPattern)
      append(0x10 | UInt8(truncatingIfNeeded: width.trailingZeroBitCount))
      append(bitPattern, width: width)
    }
  }

  /// A real (`0x23` and 8 bytes; `single`: `0x22` and the `Float`'s 4) or a date (`0x33` and the
  /// `Double` of seconds since 2001).
  @inline(__always)
  mutating func appendReal(bitPattern: UInt64, single: Bool) {
    if single {
      append(0x22)
      append(UInt64(Float(Double(bitPattern: bitPattern)).bitPattern), width: 4)
    } else {
      append(0x23)
      append(bitPattern, width: 8)
    }
  }

  /// A UID: `0x8n`, then the UID in the fewest bytes that hold it (`n + 1` of them).
  @inline(__always)
  mutating func appendUID(_ uid: UInt64) {
    let width = binaryPlistByteWidth(uid)
    append(0x80 | UInt8(truncatingIfNeeded: width &- 1))
    append(uid, width: width)
  }

  /// Data: `0x4n` (or `0x4F` and a count) and its bytes.
  mutating func appendData(_ bytes: UnsafeRawBufferPointer) {
    appendMarker(0x40, count: bytes.count)
    append(bytes)
  }

  /// A string from its UTF-8: its bytes under `0x5n` when every one is ASCII, else its UTF-16
  /// code units big-endian under `0x6n` (the count in units).
  @inline(__always)
  mutating func appendString(utf8: UnsafeRawBufferPointer) {
    if Self.isASCII(utf8) {
      appendMarker(0x50, count: utf8.count)
      append(utf8)
      return
    }
    let units = Self.utf16Length(utf8)
    appendMarker(0x60, count: units)
    Self.writeUTF16BigEndian(utf8, to: extend(by: 2 &* units))
  }

  /// Whether no byte has its high bit set (eight bytes at a time).
  @inline(__always)
  static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let start = bytes.baseAddress else { return true }
    var seen: UInt64 = 0
    var index = 0
    let count = bytes.count
    while index &+ 8 <= count {
      seen |= start.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index &+= 8
    }
    while index < count {
      seen |= UInt64(start.load(fromByteOffset: index, as: UInt8.self))
      index &+= 1
    }
    return seen & 0x8080_8080_8080_8080 == 0
  }

  /// How many UTF-16 code units valid UTF-8 makes: a unit per lead byte (every byte not of the
  /// form `10xxxxxx`), and a second one per four-byte sequence (lead `11110xxx`).
  static func utf16Length(_ utf8: UnsafeRawBufferPointer) -> Int {
    var units = 0
    for byte in utf8 {
      if byte & 0xC0 != 0x80 { units &+= 1 }
      if byte >= 0xF0 { units &+= 1 }
    }
    return units
  }

  /// Writes valid UTF-8 (a Swift string's) as big-endian UTF-16 at `target`, which has room for
  /// ``utf16Length(_:)`` units.
  static func writeUTF16BigEndian(_ utf8: UnsafeRawBufferPointer, to target: UnsafeMutablePointer<UInt8>) {
    var out = target
    @inline(__always) func unit(_ value: UInt32) {
      out[0] = UInt8(truncatingIfNeeded: value >> 8)
      out[1] = UInt8(truncatingIfNeeded: value)
      out += 2
    }
    var index = 0
    let count = utf8.count
    while index < count {
      let lead = UInt32(utf8[index])
      @inline(__always) func trail(_ offset: Int) -> UInt32 { UInt32(utf8[index &+ offset]) & 0x3F }
      switch lead {
      case ..<0x80:
        unit(lead)
        index &+= 1
      case ..<0xE0:
        unit((lead & 0x1F) << 6 | trail(1))
        index &+= 2
      case ..<0xF0:
        unit((lead & 0x0F) << 12 | trail(1) << 6 | trail(2))
        index &+= 3
      default:
        let scalar = ((lead & 0x07) << 18 | trail(1) << 12 | trail(2) << 6 | trail(3)) &- 0x10000
        unit(0xD800 | scalar >> 10)
        unit(0xDC00 | scalar & 0x3FF)
        index &+= 4
      }
    }
  }
}
