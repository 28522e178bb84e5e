import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension BinaryPlistWriter {
  /// The strings and data a flattener has numbered, each laid out already as its object's bytes
  /// (marker and count, then ASCII, big-endian UTF-16 or the data's bytes), end to end in the
  /// order of their objects.
  ///
  /// A string is written here when it is numbered, while its bytes are in the cache (they were
  /// just hashed); `emit` then copies these bytes. Before, `emit` read every string a second
  /// time (a cache miss each on a large document) through a copy of it kept for the purpose,
  /// retained and released, and `appendString` was a sixth of the time of writing the 1.3 MB
  /// benchmark document. The uniquing table compares new strings and data with these bytes.
  ///
  /// It is moved, never shared: from a flattener to the working memory kept for the next
  /// document (``FlattenerScratch``, which sits behind a lock) and back, one user at a time; hence
  /// `@unchecked Sendable`.
  final class TextStore: @unchecked Sendable {
    /// Unchecked: a flattener is the only user of its store, one call at a time, and a checked
    /// access per string would cost more than writing it.
    @exclusivity(unchecked) var bytes = ByteOutput(capacity: 0)

    deinit { bytes.release() }

    /// Lays out a string (`isString`) or data whose bytes are `value`; returns where it starts.
    @inline(__always)
    func append(_ value: UnsafeRawBufferPointer, isString: Bool) -> Int {
      let offset = bytes.count
      let run = value.assumingMemoryBound(to: UInt8.self)
      if isString {
        BinaryPlistWriter.appendString(run, to: &bytes)
      } else {
        BinaryPlistWriter.appendMarker(0x40, count: run.count, to: &bytes)
        bytes.append(run)
      }
      return offset
    }

    /// The object laid out at `offset`: its marker's high nibble (`0x40` data, `0x50` ASCII,
    /// `0x60` UTF-16), where its contents start, and their length in bytes.
    @inline(__always)
    static func object(at offset: Int, in base: UnsafePointer<UInt8>) -> (kind: UInt8, start: Int, byteCount: Int) {
      let marker = base[offset]
      var count = Int(marker & 0x0F)
      var start = offset &+ 1
      if count == 0x0F {
        let width = 1 << Int(base[start] & 0x0F)
        count = 0
        for index in 1...width { count = count << 8 | Int(base[start &+ index]) }
        start &+= 1 &+ width
      }
      let kind = marker & 0xF0
      return (kind, start, kind == 0x60 ? count &* 2 : count)
    }

    /// The length of the whole object laid out at `offset` (marker and contents).
    @inline(__always)
    static func objectLength(at offset: Int, in base: UnsafePointer<UInt8>) -> Int {
      let (_, start, byteCount) = object(at: offset, in: base)
      return start &- offset &+ byteCount
    }

    /// What a text object keeps in its `count`: the length of its laid-out bytes, or, for one of
    /// 4 GB or more, `UInt32.max` (its length is then read from its marker).
    @inline(__always)
    static func lengthField(_ length: Int) -> UInt32 {
      length < Int(UInt32.max) ? UInt32(truncatingIfNeeded: length) : UInt32.max
    }

    /// The length of `object`'s bytes laid out at `offset` (from ``lengthField(_:)``).
    @inline(__always)
    static func length(of object: Object, at offset: Int, in base: UnsafePointer<UInt8>) -> Int {
      object.count != UInt32.max ? Int(object.count) : objectLength(at: offset, in: base)
    }

    /// Whether the object laid out at `offset` is a string (`isString`) or data whose bytes
    /// (UTF-8 for a string) are `value`: by exact bytes, as CF compares.
    static func object(at offset: Int, in base: UnsafePointer<UInt8>, equals value: UnsafeRawBufferPointer, isString: Bool) -> Bool {
      let (kind, start, byteCount) = object(at: offset, in: base)
      let stored = UnsafeRawBufferPointer(start: base + start, count: byteCount)
      switch kind {
      case 0x40: return !isString && sameBytes(value, stored)
      case 0x50: return isString && sameBytes(value, stored)
      default:
        // UTF-16, whose strings have a character outside ASCII: compared as UTF-16 (the
        // transcoding of valid UTF-8 is one to one).
        guard isString, byteCount > 0 else { return false }
        let utf8 = value.assumingMemoryBound(to: UInt8.self)
        guard BinaryPlistWriter.utf16Count(utf8) &* 2 == byteCount else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { units in
          BinaryPlistWriter.transcodeToUTF16BigEndian(utf8, into: units.baseAddress!)
          return memcmp(units.baseAddress!, base + start, byteCount) == 0
        }
      }
    }
  }
}
