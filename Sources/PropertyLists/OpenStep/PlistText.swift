/// Text-level helpers shared by the OpenStep and JSON readers: guessing the Unicode encoding
/// of a document, validating UTF-8, transcoding UTF-16 and UTF-32 to UTF-8, and turning byte
/// offsets into line numbers for error messages.
///
/// Both readers parse UTF-8 bytes. A UTF-8 document (with or without a byte-order mark) is parsed
/// in place after one validation pass; UTF-16 and UTF-32 documents are transcoded to UTF-8 first.
enum PlistText {
  /// An encoding guessed from a document's first bytes, and how many bytes of byte-order mark
  /// to skip.
  enum Encoding: Equatable {
    case utf8(skip: Int)
    case utf16(bigEndian: Bool, skip: Int)
    case utf32(bigEndian: Bool, skip: Int)
  }

  /// The encoding of an OpenStep or `.strings` document: a byte-order mark for UTF-8, UTF-32 or
  /// UTF-16; otherwise UTF-16 without a mark when the first or second byte is NUL (big-endian
  /// when the first byte is NUL, since ASCII text then reads `00 xx`; little-endian when the
  /// second is); otherwise UTF-8.
  ///
  /// The mark-less UTF-16 rule is the one Apple's `.strings` loading follows; CF's property-list
  /// parser itself (the toolchain's plutil) rejects mark-less UTF-16, so Stasis reads a superset
  /// of what it reads.
  static func guessOpenStepEncoding(_ buffer: UnsafeRawBufferPointer) -> Encoding {
    if let marked = byteOrderMark(buffer) { return marked }
    if buffer.count >= 2 {
      if buffer[0] == 0 { return .utf16(bigEndian: true, skip: 0) }
      if buffer[1] == 0 { return .utf16(bigEndian: false, skip: 0) }
    }
    return .utf8(skip: 0)
  }

  /// The encoding of a JSON document: a byte-order mark, or else the pattern of NUL bytes in the
  /// first four (RFC 4627 §3, as `JSONSerialization` detects it): `00 00 00 xx` UTF-32BE,
  /// `xx 00 00 00` UTF-32LE, `00 xx` UTF-16BE, `xx 00` UTF-16LE; otherwise UTF-8.
  static func guessJSONEncoding(_ buffer: UnsafeRawBufferPointer) -> Encoding {
    if let marked = byteOrderMark(buffer) { return marked }
    if buffer.count >= 4 {
      if buffer[0] == 0 && buffer[1] == 0 && buffer[2] == 0 { return .utf32(bigEndian: true, skip: 0) }
      if buffer[1] == 0 && buffer[2] == 0 && buffer[3] == 0 { return .utf32(bigEndian: false, skip: 0) }
    }
    if buffer.count >= 2 {
      if buffer[0] == 0 { return .utf16(bigEndian: true, skip: 0) }
      if buffer[1] == 0 { return .utf16(bigEndian: false, skip: 0) }
    }
    return .utf8(skip: 0)
  }

  /// The encoding named by a byte-order mark at the start of `buffer`, if there is one. UTF-32
  /// marks are tested before UTF-16 ones, because `FF FE 00 00` starts with the UTF-16LE mark.
  static func byteOrderMark(_ buffer: UnsafeRawBufferPointer) -> Encoding? {
    let count = buffer.count
    if count >= 4 {
      if buffer[0] == 0x00 && buffer[1] == 0x00 && buffer[2] == 0xFE && buffer[3] == 0xFF {
        return .utf32(bigEndian: true, skip: 4)
      }
      if buffer[0] == 0xFF && buffer[1] == 0xFE && buffer[2] == 0x00 && buffer[3] == 0x00 {
        return .utf32(bigEndian: false, skip: 4)
      }
    }
    if count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { return .utf8(skip: 3) }
    if count >= 2 {
      if buffer[0] == 0xFE && buffer[1] == 0xFF { return .utf16(bigEndian: true, skip: 2) }
      if buffer[0] == 0xFF && buffer[1] == 0xFE { return .utf16(bigEndian: false, skip: 2) }
    }
    return nil
  }

  // MARK: - UTF-8 validation

  /// The offset of the first byte that does not begin a well-formed UTF-8 sequence (Unicode
  /// Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or `nil` when all of
  /// `buffer` is valid. ASCII runs are skipped eight bytes at a time.
  static func firstInvalidUTF8(_ buffer: UnsafeRawBufferPointer) -> Int? {
    let count = buffer.count
    var i = 0
    while i < count {
      // Skip ASCII a word at a time.
      while i &+ 8 <= count {
        let word = buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { break }
        i &+= 8
      }
      guard i < count else { return nil }
      let lead = buffer[i]
      if lead < 0x80 {
        i &+= 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0: length = 3; low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: length = 3; high = 0x9F
      case 0xF0: length = 4; low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4: length = 4; high = 0x8F
      default: return i
      }
      guard length <= count &- i else { return i }
      let second = buffer[i &+ 1]
      guard second >= low && second <= high else { return i }
      if length >= 3 {
        guard buffer[i &+ 2] & 0xC0 == 0x80 else { return i }
        if length == 4 {
          guard buffer[i &+ 3] & 0xC0 == 0x80 else { return i }
        }
      }
      i &+= length
    }
    return nil
  }

  // MARK: - Transcoding

  /// Why a UTF-16 or UTF-32 document could not be transcoded.
  struct TranscodingFailure: Error {
    /// Offset of the bad code unit in the input.
    var inputOffset: Int
    /// The line it is on (counted in the text decoded so far).
    var line: Int
    var detail: String
  }

  /// Transcodes UTF-16 or UTF-32 text (after its byte-order mark) to UTF-8. Unpaired surrogates,
  /// values above U+10FFFF and a trailing partial code unit are errors.
  static func transcodeToUTF8(
    _ buffer: UnsafeRawBufferPointer, from encoding: Encoding
  ) -> Result<[UInt8], TranscodingFailure> {
    switch encoding {
    case .utf8(let skip):
      return .success(Array(buffer[skip...]))
    case .utf16(let bigEndian, let skip):
      return transcodeUTF16(buffer, bigEndian: bigEndian, skip: skip)
    case .utf32(let bigEndian, let skip):
      return transcodeUTF32(buffer, bigEndian: bigEndian, skip: skip)
    }
  }

  private static func transcodeUTF16(
    _ buffer: UnsafeRawBufferPointer, bigEndian: Bool, skip: Int
  ) -> Result<[UInt8], TranscodingFailure> {
    var output: [UInt8] = []
    output.reserveCapacity(buffer.count - skip + (buffer.count - skip) / 2)
    @inline(__always) func unit(_ at: Int) -> UInt32 {
      bigEndian
        ? UInt32(buffer[at]) << 8 | UInt32(buffer[at + 1])
        : UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at])
    }
    var i = skip
    let end = buffer.count
    while i < end {
      guard end - i >= 2 else {
        return .failure(failure(at: i, output, "UTF-16 text ends in the middle of a code unit"))
      }
      let first = unit(i)
      var scalar = first
      var width = 2
      if first >= 0xD800 && first <= 0xDBFF {
        guard end - i >= 4 else {
          return .failure(failure(at: i, output, "UTF-16 text ends after a high surrogate"))
        }
        let second = unit(i + 2)
        guard second >= 0xDC00 && second <= 0xDFFF else {
          return .failure(failure(at: i, output, "UTF-16 high surrogate is not followed by a low surrogate"))
        }
        scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        width = 4
      } else if first >= 0xDC00 && first <= 0xDFFF {
        return .failure(failure(at: i, output, "UTF-16 low surrogate without a high surrogate"))
      }
      appendUTF8(scalar, to: &output)
      i += width
    }
    return .success(output)
  }

  private static func transcodeUTF32(
    _ buffer: UnsafeRawBufferPointer, bigEndian: Bool, skip: Int
  ) -> Result<[UInt8], TranscodingFailure> {
    var output: [UInt8] = []
    output.reserveCapacity((buffer.count - skip) / 2)
    var i = skip
    let end = buffer.count
    while i < end {
      guard end - i >= 4 else {
        return .failure(failure(at: i, output, "UTF-32 text ends in the middle of a code unit"))
      }
      let scalar: UInt32 =
        bigEndian
        ? UInt32(buffer[i]) << 24 | UInt32(buffer[i + 1]) << 16 | UInt32(buffer[i + 2]) << 8 | UInt32(buffer[i + 3])
        : UInt32(buffer[i + 3]) << 24 | UInt32(buffer[i + 2]) << 16 | UInt32(buffer[i + 1]) << 8 | UInt32(buffer[i])
      guard scalar <= 0x10FFFF && !(scalar >= 0xD800 && scalar <= 0xDFFF) else {
        return .failure(failure(at: i, output, "UTF-32 code unit is not a Unicode scalar value"))
      }
      appendUTF8(scalar, to: &output)
      i += 4
    }
    return .success(output)
  }

  @inline(never)
  private static func failure(at offset: Int, _ decoded: [UInt8], _ detail: String) -> TranscodingFailure {
    let line = decoded.withUnsafeBytes { lineNumber(in: $0, at: $0.count) }
    return TranscodingFailure(inputOffset: offset, line: line, detail: detail)
  }

  /// Appends the UTF-8 form of a Unicode scalar value (the caller guarantees it is one).
  @inline(__always)
  static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
    if scalar < 0x80 {
      output.append(UInt8(truncatingIfNeeded: scalar))
    } else if scalar < 0x800 {
      output.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
      output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    } else if scalar < 0x10000 {
      output.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
      output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    } else {
      output.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
      output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
      output.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
    }
  }

  // MARK: - Lines

  /// The 1-based line that byte `offset` is on. CR, LF and CRLF each end a line, as in
  /// CoreFoundation's old-style parser. Only called when an error is being built.
  @inline(never)
  static func lineNumber(in buffer: UnsafeRawBufferPointer, at offset: Int) -> Int {
    let limit = Swift.min(Swift.max(offset, 0), buffer.count)
    var line = 1
    var i = 0
    while i < limit {
      let byte = buffer[i]
      if byte == 0x0A {
        line += 1
      } else if byte == 0x0D {
        line += 1
        if i + 1 < limit && buffer[i + 1] == 0x0A { i += 1 }
      }
      i += 1
    }
    return line
  }

  /// Builds a `String` from UTF-8 bytes that have already been validated.
  @inline(__always)
  static func string(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
  }
}
