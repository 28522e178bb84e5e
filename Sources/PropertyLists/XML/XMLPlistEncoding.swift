import FoundationEssentials

/// How the bytes of an XML property list are encoded, found the way CoreFoundation's
/// `encodingForXMLData` finds it:
///
/// 1. a byte-order mark: `00 00 FE FF` UTF-32BE, `FF FE 00 00` UTF-32LE, `EF BB BF` UTF-8,
///    `FF FE` UTF-16LE, `FE FF` UTF-16BE;
/// 2. a zero in byte 0 or byte 1: UTF-16 without a mark;
/// 3. the `encoding="…"` pseudo-attribute of a leading `<?xml …?>`;
/// 4. otherwise UTF-8.
///
/// Everything that is not UTF-8 is converted to UTF-8 before the scanner sees it, so the scanner
/// only ever works on UTF-8 bytes.
///
/// One deliberate difference from CF: for mark-less UTF-16, CF skips the first two bytes as if they
/// were a mark (losing the first character) and decodes in an unspecified byte order. Here the
/// byte order is taken from which of the first two bytes is zero (`00 3C` big-endian, `3C 00`
/// little-endian, the XML 1.0 appendix F rule) and nothing is skipped.
enum XMLPlistTextEncoding: Equatable {
  case utf8
  case utf16BigEndian
  case utf16LittleEndian
  case utf32BigEndian
  case utf32LittleEndian
  case ascii
  case isoLatin1
  case windowsLatin1
  case macRoman

  /// The encoding announced by a byte-order mark or implied by zero bytes, and the length of the
  /// mark. `nil` when the bytes look like an 8-bit encoding (then the XML declaration decides).
  static func unicodeSignature(_ bytes: UnsafeRawBufferPointer) -> (encoding: XMLPlistTextEncoding, markLength: Int)? {
    let count = bytes.count
    // The length tests are CF's (strictly longer than the mark).
    if count > 4 {
      if bytes[0] == 0x00 && bytes[1] == 0x00 && bytes[2] == 0xFE && bytes[3] == 0xFF { return (.utf32BigEndian, 4) }
      if bytes[0] == 0xFF && bytes[1] == 0xFE && bytes[2] == 0x00 && bytes[3] == 0x00 { return (.utf32LittleEndian, 4) }
    }
    if count > 3, bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { return (.utf8, 3) }
    if count > 2 {
      if bytes[0] == 0xFF && bytes[1] == 0xFE { return (.utf16LittleEndian, 2) }
      if bytes[0] == 0xFE && bytes[1] == 0xFF { return (.utf16BigEndian, 2) }
      if bytes[0] == 0x00 { return (.utf16BigEndian, 0) }
      if bytes[1] == 0x00 { return (.utf16LittleEndian, 0) }
    }
    return nil
  }

  /// Detects the encoding of a whole document. Throws when an `encoding="…"` names an encoding
  /// this reader does not convert, or when the declaration is cut off before the name.
  static func detect(_ bytes: UnsafeRawBufferPointer) throws(PropertyListError) -> (encoding: XMLPlistTextEncoding, markLength: Int) {
    if let signature = unicodeSignature(bytes) { return signature }
    return (try declaredEncoding(bytes), 0)
  }

  /// CF's scan of `<?xml … encoding="NAME" …?>`: only a declaration at byte 0 counts, the
  /// attribute must be spelled `encoding=` with no spaces around `=`, and `?` or `>` ends the
  /// search with UTF-8.
  private static func declaredEncoding(_ bytes: UnsafeRawBufferPointer) throws(PropertyListError) -> XMLPlistTextEncoding {
    let count = bytes.count
    guard count >= 5, bytes.starts(with: "<?xml".utf8) else { return .utf8 }
    let pattern = Array("ncoding=".utf8)
    var index = 5
    var found = false
    while index < count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "?") || byte == UInt8(ascii: ">") { return .utf8 }
      index += 1
      if index + 8 >= count {
        throw PropertyListError(
          .truncated, format: .xml, position: .line(1),
          detail: "the XML declaration ends before its encoding name; expected encoding=\"…\" and ?>")
      }
      if byte == UInt8(ascii: "e") && (0..<8).allSatisfy({ bytes[index + $0] == pattern[$0] }) {
        index += 8
        found = true
        break
      }
    }
    guard found, index < count else { return .utf8 }
    let quote = bytes[index]
    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return .utf8 }
    let nameStart = index + 1
    var nameEnd = nameStart
    while nameEnd < count && bytes[nameEnd] != quote { nameEnd += 1 }
    guard nameEnd < count else { return .utf8 }
    let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
    if let known = named(name) { return known }
    throw PropertyListError(
      .badEncoding, format: .xml, position: .line(1),
      detail: "the XML declaration names an encoding this reader does not convert; expected UTF-8, UTF-16, UTF-32, US-ASCII, ISO-8859-1, windows-1252 or macintosh")
  }

  /// Maps a charset name to an encoding this reader converts. CF resolves names it does not know
  /// itself through ICU's alias table, whose comparison (`ucnv_compareNames`) ignores case and
  /// every character but letters and digits, and drops a `0` that follows a non-digit and precedes
  /// a digit; so `UTF8`, `utf_8`, ` UTF-8` and `ISO-8859-01` all name encodings here too. Names
  /// with non-ASCII characters are unknown.
  static func named(_ name: String) -> XMLPlistTextEncoding? {
    let characters = Array(name.utf8)
    // CF hands ICU the name as an 8-bit C string; a name with other characters is never found.
    guard characters.allSatisfy({ $0 < 0x80 }) else { return nil }
    var key: [UInt8] = []
    var afterDigit = false
    for (index, byte) in characters.enumerated() {
      switch byte {
      case UInt8(ascii: "0"):
        let next = index + 1 < characters.count ? characters[index + 1] : 0
        if !afterDigit && next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9") { continue }
        key.append(byte)
      case UInt8(ascii: "1")...UInt8(ascii: "9"):
        afterDigit = true
        key.append(byte)
      case UInt8(ascii: "a")...UInt8(ascii: "z"):
        afterDigit = false
        key.append(byte)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"):
        afterDigit = false
        key.append(byte | 0x20)
      default:
        afterDigit = false
      }
    }
    switch String(decoding: key, as: UTF8.self) {
    case "utf8": return .utf8
    case "utf16", "utf16be", "iso10646ucs2", "ucs2", "unicode", "unicodebigunmarked": return .utf16BigEndian
    case "utf16le", "unicodelittleunmarked": return .utf16LittleEndian
    case "utf32", "utf32be", "iso10646ucs4", "ucs4": return .utf32BigEndian
    case "utf32le": return .utf32LittleEndian
    case "usascii", "ascii", "ansix341968", "iso646us", "us", "csascii", "ibm367", "cp367": return .ascii
    case "iso88591", "isolatin1", "latin1", "l1", "cp819", "ibm819", "csisolatin1", "isoir100", "iso885911987": return .isoLatin1
    case "windows1252", "cp1252", "xansi", "ibm5348": return .windowsLatin1
    case "macintosh", "mac", "xmacroman", "macroman", "csmacintosh", "macos0": return .macRoman
    default: return nil
    }
  }

  /// The document's bytes as UTF-8, without any byte-order mark. UTF-8 input is not copied: the
  /// result then only says how many leading bytes to skip.
  enum Converted {
    case inPlace(skip: Int)
    case converted([UInt8])
  }

  static func utf8Text(_ bytes: UnsafeRawBufferPointer) throws(PropertyListError) -> Converted {
    let (encoding, markLength) = try detect(bytes)
    let body = UnsafeRawBufferPointer(rebasing: bytes[markLength...])
    switch encoding {
    case .utf8: return .inPlace(skip: markLength)
    case .utf16BigEndian: return .converted(try transcodeUTF16(body, bigEndian: true, offset: markLength))
    case .utf16LittleEndian: return .converted(try transcodeUTF16(body, bigEndian: false, offset: markLength))
    case .utf32BigEndian: return .converted(try transcodeUTF32(body, bigEndian: true, offset: markLength))
    case .utf32LittleEndian: return .converted(try transcodeUTF32(body, bigEndian: false, offset: markLength))
    case .ascii:
      if let bad = body.firstIndex(where: { $0 >= 0x80 }) {
        throw encodingError("byte 0x\(String(body[bad], radix: 16)) is not US-ASCII, the declared encoding", at: bad + markLength)
      }
      return .inPlace(skip: markLength)
    case .isoLatin1:
      var out: [UInt8] = []
      out.reserveCapacity(body.count + body.count / 8)
      for byte in body { appendScalar(UInt32(byte), to: &out) }
      return .converted(out)
    case .windowsLatin1:
      var out: [UInt8] = []
      out.reserveCapacity(body.count + body.count / 8)
      for (index, byte) in body.enumerated() {
        if byte >= 0x80 && byte <= 0x9F {
          let scalar = windows1252High[Int(byte - 0x80)]
          guard scalar != 0 else {
            throw encodingError("byte 0x\(String(byte, radix: 16)) is undefined in windows-1252, the declared encoding", at: index + markLength)
          }
          appendScalar(UInt32(scalar), to: &out)
        } else {
          appendScalar(UInt32(byte), to: &out)
        }
      }
      return .converted(out)
    case .macRoman:
      var out: [UInt8] = []
      out.reserveCapacity(body.count + body.count / 8)
      for byte in body {
        appendScalar(byte < 0x80 ? UInt32(byte) : UInt32(macRomanHigh[Int(byte - 0x80)]), to: &out)
      }
      return .converted(out)
    }
  }

  @inline(never)
  static func encodingError(_ detail: String, at offset: Int) -> PropertyListError {
    PropertyListError(.badEncoding, format: .xml, position: .byteOffset(offset), detail: detail)
  }

  @inline(__always)
  static func appendScalar(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      out.append(UInt8(scalar))
    case 0x80..<0x800:
      out.append(UInt8(0xC0 | (scalar >> 6)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    case 0x800..<0x10000:
      out.append(UInt8(0xE0 | (scalar >> 12)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    default:
      out.append(UInt8(0xF0 | (scalar >> 18)))
      out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }

  private static func transcodeUTF16(_ body: UnsafeRawBufferPointer, bigEndian: Bool, offset: Int) throws(PropertyListError) -> [UInt8] {
    guard body.count % 2 == 0 else {
      throw encodingError("UTF-16 text has an odd number of bytes (\(body.count)); the last character is cut off", at: offset + body.count - 1)
    }
    var out: [UInt8] = []
    out.reserveCapacity(body.count)
    let units = body.count / 2
    var index = 0
    @inline(__always) func unit(_ i: Int) -> UInt32 {
      bigEndian
        ? UInt32(body[2 * i]) << 8 | UInt32(body[2 * i + 1])
        : UInt32(body[2 * i + 1]) << 8 | UInt32(body[2 * i])
    }
    while index < units {
      let first = unit(index)
      if first & 0xFC00 == 0xD800 {
        guard index + 1 < units, unit(index + 1) & 0xFC00 == 0xDC00 else {
          throw encodingError("UTF-16 text has an unpaired high surrogate 0x\(String(first, radix: 16))", at: offset + 2 * index)
        }
        let second = unit(index + 1)
        appendScalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00), to: &out)
        index += 2
      } else if first & 0xFC00 == 0xDC00 {
        throw encodingError("UTF-16 text has an unpaired low surrogate 0x\(String(first, radix: 16))", at: offset + 2 * index)
      } else {
        appendScalar(first, to: &out)
        index += 1
      }
    }
    return out
  }

  private static func transcodeUTF32(_ body: UnsafeRawBufferPointer, bigEndian: Bool, offset: Int) throws(PropertyListError) -> [UInt8] {
    guard body.count % 4 == 0 else {
      throw encodingError("UTF-32 text is not a whole number of 4-byte units (\(body.count) bytes)", at: offset + body.count - body.count % 4)
    }
    var out: [UInt8] = []
    out.reserveCapacity(body.count / 2)
    var index = 0
    while index < body.count {
      let scalar: UInt32 = bigEndian
        ? UInt32(body[index]) << 24 | UInt32(body[index + 1]) << 16 | UInt32(body[index + 2]) << 8 | UInt32(body[index + 3])
        : UInt32(body[index + 3]) << 24 | UInt32(body[index + 2]) << 16 | UInt32(body[index + 1]) << 8 | UInt32(body[index])
      guard scalar < 0x110000, scalar & 0xFFFF_F800 != 0xD800 else {
        throw encodingError("UTF-32 unit 0x\(String(scalar, radix: 16)) is not a Unicode scalar value", at: offset + index)
      }
      appendScalar(scalar, to: &out)
      index += 4
    }
    return out
  }

  /// windows-1252 bytes 0x80–0x9F; 0 marks the five undefined bytes.
  private static let windows1252High: [UInt16] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
    0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
  ]

  /// Mac OS Roman bytes 0x80–0xFF (Apple's mapping, with the euro sign at 0xDB).
  private static let macRomanHigh: [UInt16] = [
    0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1, 0x00E0, 0x00E2, 0x00E4, 0x00E3, 0x00E5, 0x00E7, 0x00E9, 0x00E8,
    0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF, 0x00F1, 0x00F3, 0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC,
    0x2020, 0x00B0, 0x00A2, 0x00A3, 0x00A7, 0x2022, 0x00B6, 0x00DF, 0x00AE, 0x00A9, 0x2122, 0x00B4, 0x00A8, 0x2260, 0x00C6, 0x00D8,
    0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202, 0x2211, 0x220F, 0x03C0, 0x222B, 0x00AA, 0x00BA, 0x03A9, 0x00E6, 0x00F8,
    0x00BF, 0x00A1, 0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB, 0x00BB, 0x2026, 0x00A0, 0x00C0, 0x00C3, 0x00D5, 0x0152, 0x0153,
    0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0x00F7, 0x25CA, 0x00FF, 0x0178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02,
    0x2021, 0x00B7, 0x201A, 0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1, 0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, 0x00CC, 0x00D3, 0x00D4,
    0xF8FF, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7,
  ]

  /// Reads the code unit at `index` (in units) of a document in a Unicode encoding, for sniffing.
  @inline(__always)
  func unit(_ bytes: UnsafeRawBufferPointer, _ index: Int) -> UInt32? {
    switch self {
    case .utf16BigEndian:
      guard 2 * index + 1 < bytes.count else { return nil }
      return UInt32(bytes[2 * index]) << 8 | UInt32(bytes[2 * index + 1])
    case .utf16LittleEndian:
      guard 2 * index + 1 < bytes.count else { return nil }
      return UInt32(bytes[2 * index + 1]) << 8 | UInt32(bytes[2 * index])
    case .utf32BigEndian:
      guard 4 * index + 3 < bytes.count else { return nil }
      return UInt32(bytes[4 * index]) << 24 | UInt32(bytes[4 * index + 1]) << 16 | UInt32(bytes[4 * index + 2]) << 8 | UInt32(bytes[4 * index + 3])
    case .utf32LittleEndian:
      guard 4 * index + 3 < bytes.count else { return nil }
      return UInt32(bytes[4 * index + 3]) << 24 | UInt32(bytes[4 * index + 2]) << 16 | UInt32(bytes[4 * index + 1]) << 8 | UInt32(bytes[4 * index])
    default:
      guard index < bytes.count else { return nil }
      return UInt32(bytes[index])
    }
  }
}

extension XMLPlistReader {
  /// Whether `buffer` should be read as XML: after an optional byte-order mark (or in mark-less
  /// UTF-16) and whitespace, the first character is `<`, and the markup is not an OpenStep `<hex>`
  /// data literal (`<`, then only hex digits and whitespace up to `>`), which CF would also end up
  /// reading as OpenStep after its XML attempt failed.
  ///
  /// Text in UTF-16 or UTF-32 counts only when it, too, starts with `<`, so that a UTF-16
  /// OpenStep or `.strings` file is left to the OpenStep reader.
  static func looksLikeXML(_ buffer: UnsafeRawBufferPointer) -> Bool {
    guard !buffer.isEmpty else { return false }
    let (encoding, markLength) = XMLPlistTextEncoding.unicodeSignature(buffer) ?? (.utf8, 0)
    let body = UnsafeRawBufferPointer(rebasing: buffer[markLength...])
    var index = 0
    while let unit = encoding.unit(body, index), unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D {
      index += 1
    }
    guard encoding.unit(body, index) == 0x3C else { return false }
    index += 1
    guard let next = encoding.unit(body, index) else { return false }
    if next == 0x3F || next == 0x21 { return true }  // <? or <!
    // `<` followed only by hex digits and whitespace up to `>` (or the end) is OpenStep data.
    while let unit = encoding.unit(body, index) {
      switch unit {
      case 0x3E: return false
      case 0x30...0x39, 0x41...0x46, 0x61...0x66, 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return true
      }
    }
    return false
  }
}
