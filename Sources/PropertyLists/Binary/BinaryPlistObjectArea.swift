import FoundationEssentials

/// The single objects of a `bplist00` document: its object area (the bytes before the offset
/// table) and the reads of one object's count, string or scalar value, each checked against the
/// area's end.
///
/// Kept apart from ``BinaryPlistReader/Parser`` and small (three words, passed in registers):
/// a non-mutating method of the parser called from its mutating, recursive
/// `value(at:depth:)` received a copy of the whole parser (152 bytes, a `memcpy` per string
/// and scalar object).
extension BinaryPlistReader {
  struct ObjectArea {
    let buffer: UnsafeRawBufferPointer
    /// One past the last byte an object may use (the offset table's start).
    let end: Int

    /// Reads the count of a data, string or container object whose marker is at `start`:
    /// the low nibble, or for 0xF a following integer object. Returns the count and where the
    /// payload starts.
    @inline(__always)
    func count(marker: UInt8, at start: Int) throws(PropertyListError) -> (count: Int, payload: Int) {
      let nibble = Int(marker & 0x0F)
      if nibble != 0x0F { return (nibble, start + 1) }
      let intMarkerAt = start + 1
      guard intMarkerAt < end else {
        throw failure(.truncated, at: start, "object at \(start) has an extended count that runs into the offset table")
      }
      let intMarker = buffer[intMarkerAt]
      guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
        throw failure(.unexpectedInput, at: intMarkerAt, "extended count marker is 0x\(String(intMarker, radix: 16)); expected an integer marker 0x10...0x13")
      }
      let width = 1 << Int(intMarker & 0x0F)
      guard width <= end - intMarkerAt - 1 else {
        throw failure(.truncated, at: intMarkerAt, "extended count of \(width) bytes runs into the offset table")
      }
      let raw = BinaryPlistReader.bigEndian(buffer, at: intMarkerAt + 1, width: width)
      guard raw <= UInt64(Int.max >> 4) else {
        throw failure(.limitExceeded, at: intMarkerAt, "count \(raw) is impossibly large")
      }
      return (Int(raw), intMarkerAt + 1 + width)
    }

    /// Checks that `count` elements of `size` bytes starting at `payload` end before the offset table.
    @inline(__always)
    func checkFits(_ count: Int, size: Int, payload: Int, start: Int, what: String) throws(PropertyListError) {
      let available = end - payload
      let (needed, overflow) = count.multipliedReportingOverflow(by: size)
      guard !overflow, available >= 0, needed <= available else {
        throw failure(.truncated, at: start, "\(what) at \(start) claims \(count) elements of \(size) bytes but only \(Swift.max(available, 0)) bytes remain before the offset table")
      }
    }

    /// The string object whose marker (`0x5n` ASCII, `0x6n` UTF-16) is at `start`. Not inlined
    /// into ``BinaryPlistReader/Parser/value(at:depth:)`` for the reason given at ``scalarValue(marker:object:start:)``.
    @inline(never)
    func string(marker: UInt8, start: Int) throws(PropertyListError) -> String {
      let (count, payload) = try count(marker: marker, at: start)
      if marker >> 4 == 0x5 {
        try checkFits(count, size: 1, payload: payload, start: start, what: "ASCII string")
        return try asciiString(payload: payload, count: count, start: start)
      }
      try checkFits(count, size: 2, payload: payload, start: start, what: "UTF-16 string")
      return utf16String(payload: payload, count: count)
    }

    /// The text of dictionary key object at `start` of the dictionary at `container`: a string, or an
    /// integer read as its decimal text.
    func keyText(start: Int, container: Int) throws(PropertyListError) -> String {
      let marker = buffer[start]
      switch marker >> 4 {
      case 0x5, 0x6: return try string(marker: marker, start: start)
      case 0x1:
        // CoreFoundation tolerates scalar keys; integer keys occur in real files (Mail's
        // `VersionMapping`). They are read as their decimal text. Other non-string keys are refused.
        return try integer(marker: marker, at: start).description
      default:
        throw failure(.unexpectedInput, at: start, "dictionary at \(container) has a key of marker 0x\(String(marker, radix: 16)); keys must be strings (or integers)")
      }
    }

    /// A value that is not a container. Kept out of ``BinaryPlistReader/Parser/value(at:depth:)``, which recurses: the
    /// error texts built here would otherwise take room in every level's stack frame (a
    /// 600-deep array needs 600 of them; in a debug build they ran past an 8 MB stack).
    @inline(never)
    func scalarValue(marker: UInt8, object: Int, start: Int) throws(PropertyListError) -> PropertyListValue {
      switch marker >> 4 {
      case 0x0:
        switch marker {
        case 0x08: return .bool(false)
        case 0x09: return .bool(true)
        default:
          throw failure(.unexpectedInput, at: start, "object \(object) has marker 0x\(String(marker, radix: 16)), which is not a value in bplist00 (null and fill are not readable)")
        }
      case 0x1: return .integer(try integer(marker: marker, at: start))
      case 0x2:
        switch marker & 0x0F {
        case 2:
          guard end - start >= 5 else { throw failure(.truncated, at: start, "4-byte real runs into the offset table") }
          let bits = UInt32(BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 4))
          return .real(Double(Float(bitPattern: bits)), width: .single)
        case 3:
          guard end - start >= 9 else { throw failure(.truncated, at: start, "8-byte real runs into the offset table") }
          return .real(Double(bitPattern: BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 8)), width: .double)
        default:
          throw failure(.unexpectedInput, at: start, "real of \(1 << Int(marker & 0x0F)) bytes; only 4 and 8 are allowed")
        }
      case 0x3:
        guard marker == 0x33 else {
          throw failure(.unexpectedInput, at: start, "marker 0x\(String(marker, radix: 16)); the only date marker is 0x33")
        }
        guard end - start >= 9 else { throw failure(.truncated, at: start, "date runs into the offset table") }
        let seconds = Double(bitPattern: BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 8))
        return .date(Date(timeIntervalSinceReferenceDate: seconds))
      case 0x4:
        let (count, payload) = try count(marker: marker, at: start)
        try checkFits(count, size: 1, payload: payload, start: start, what: "data")
        return .data(Data(bytes: buffer.baseAddress! + payload, count: count))
      case 0x5, 0x6: return .string(try string(marker: marker, start: start))
      case 0x8:
        let width = Int(marker & 0x0F) + 1
        guard end - start > width else { throw failure(.truncated, at: start, "UID runs into the offset table") }
        let uid = BinaryPlistReader.bigEndian(buffer, at: start + 1, width: width)
        guard width <= 8 else {
          throw failure(.invalidValue, at: start, "UID of \(width) bytes; at most 8 are allowed")
        }
        return .uid(uid)
      default:
        throw failure(.unexpectedInput, at: start, "object \(object) has marker 0x\(String(marker, radix: 16)), which is not defined in bplist00")
      }
    }

    func integer(marker: UInt8, at start: Int) throws(PropertyListError) -> PropertyListInteger {
      let exponent = Int(marker & 0x0F)
      guard exponent <= 4 else {
        throw failure(.unexpectedInput, at: start, "integer of 2^\(exponent) bytes; at most 16 bytes are allowed")
      }
      let width = 1 << exponent
      guard end - start > width else {
        throw failure(.truncated, at: start, "\(width)-byte integer runs into the offset table")
      }
      switch width {
      case 1, 2, 4: return PropertyListInteger(BinaryPlistReader.bigEndian(buffer, at: start + 1, width: width))
      case 8: return PropertyListInteger(Int64(bitPattern: BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 8)))
      default:
        let high = BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 8)
        let low = BinaryPlistReader.bigEndian(buffer, at: start + 9, width: 8)
        if high == 0 { return PropertyListInteger(low) }
        if high == UInt64.max, Int64(bitPattern: low) < 0 { return PropertyListInteger(Int64(bitPattern: low)) }
        throw failure(.invalidValue, at: start, "128-bit integer does not fit in the range Int64.min...UInt64.max")
      }
    }

    func asciiString(payload: Int, count: Int, start: Int) throws(PropertyListError) -> String {
      try checkASCII(payload: payload, count: count, start: start)
      return checkedASCIIString(payload: payload, count: count)
    }

    /// The string of `count` bytes at `payload`, already checked to be ASCII and in bounds.
    /// (Measured against the standard library's ASCII initializers, Swift 6.3, strings of 6 to 54
    /// bytes: `String(validating:as: Unicode.ASCII.self)` took 70–110 ns a string, through its
    /// unspecialized generic path; `String(decoding:as: Unicode.ASCII.self)` 18–48 ns; this,
    /// the same or less, 16–46 ns.)
    @inline(__always)
    func checkedASCIIString(payload: Int, count: Int) -> String {
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[payload..<(payload + count)])
      return String(unsafeUninitializedCapacity: count) { target in
        if count > 0 { target.baseAddress!.initialize(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count) }
        return count
      }
    }

    /// Checks that an ASCII string object's `count` bytes at `payload` are all below 0x80.
    @inline(__always)
    func checkASCII(payload: Int, count: Int, start: Int) throws(PropertyListError) {
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[payload..<(payload + count)])
      // Fast check, eight bytes at a time, that every byte is ASCII.
      var index = 0
      var accumulated: UInt64 = 0
      while index + 8 <= count {
        accumulated |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index += 8
      }
      while index < count {
        accumulated |= UInt64(bytes[index])
        index += 1
      }
      guard accumulated & 0x8080_8080_8080_8080 == 0 else {
        throw notASCII(at: start)
      }
    }

    @inline(never)
    func notASCII(at start: Int) -> PropertyListError {
      failure(.badEncoding, at: start, "ASCII string object holds a byte above 0x7F")
    }

    /// The string of big-endian UTF-16 object payload `payload` of `count` units, already checked
    /// to be in bounds (``BinaryPlistReader/utf16String(_:count:)``).
    @inline(__always)
    func utf16String(payload: Int, count: Int) -> String {
      BinaryPlistReader.utf16String(buffer.baseAddress! + payload, count: count)
    }
  }
}
