import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scalar elements, each read exactly as CoreFoundation's `parseIntegerTag`, `parseRealTag`,
/// `parseDateTag` and `parseDataTag` read them (in Apple's `CFPropertyList.c`). Each method starts
/// just after the open tag and ends after the close tag.
extension XMLPlistScanner {
  // MARK: <integer>

  /// CF's integer whitespace: bytes below 0x21, bytes 0x7F–0xA0, and the first byte of some
  /// three-byte UTF-8 spaces. CF tests one byte at a time (so it steps through a multi-byte space
  /// byte by byte), and its U+2000…U+200B test compares the third byte with decimal 80; both
  /// quirks are kept because they decide which documents are accepted.
  @inline(__always)
  func isIntegerWhitespace(at offset: Int) -> Bool {
    let first = base[offset]
    if first < 0x21 || (first > 0x7E && first < 0xA1) { return true }
    if (first == 0xE2 || first == 0xE3) && count - offset >= 3 {
      let second = base[offset + 1]
      let third = base[offset + 2]
      if first == 0xE2 && second == 0x80 { return (third >= 80 && third <= 0x8B) || third == 0xAF }
      if first == 0xE2 && second == 0x81 { return third == 0x9F }
      if first == 0xE3 && second == 0x80 && third == 0x80 { return true }
    }
    return false
  }

  /// `S* (+|-)? S* ( [0-9]+ | 0[xX][0-9a-fA-F]+ ) </integer>` with nothing between the last
  /// digit and `</integer>`; the value must lie in −2^63 … 2^64−1.
  mutating func scanInteger(openedAt: Int) throws(PropertyListError) -> PropertyListInteger {
    @inline(__always) func current() throws(PropertyListError) -> UInt8 {
      guard position < count else { throw endOfDocument("inside <integer>; expected digits and </integer>", at: openedAt) }
      return base[position]
    }
    while position < count && isIntegerWhitespace(at: position) { position += 1 }
    var byte = try current()
    if byte == UInt8(ascii: "<") { throw failure(.invalidValue, "<integer> is empty; expected digits", at: openedAt) }
    var isNegative = false
    if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
      isNegative = byte == UInt8(ascii: "-")
      position += 1
      while position < count && isIntegerWhitespace(at: position) { position += 1 }
    }
    byte = try current()
    var isHex = false
    var hadLeadingZero = false
    if byte == UInt8(ascii: "0") {
      if position + 1 < count && (base[position + 1] == UInt8(ascii: "x") || base[position + 1] == UInt8(ascii: "X")) {
        position += 1
        isHex = true
      } else {
        hadLeadingZero = true
      }
      position += 1
    }
    byte = try current()
    while byte == UInt8(ascii: "0") {
      hadLeadingZero = true
      position += 1
      byte = try current()
    }
    if byte == UInt8(ascii: "<") {
      guard hadLeadingZero else { throw failure(.invalidValue, "<integer> has a sign or 0x but no digits", at: position) }
      try expectCloseTag(.integer)
      return PropertyListInteger(Int64(0))
    }
    var magnitude: UInt64 = 0
    let radix: UInt64 = isHex ? 16 : 10
    while byte != UInt8(ascii: "<") {
      guard let decoded = HexDigit.value(byte) else {
        throw failure(.invalidValue, "found \(Self.describe(byte)) in <integer>; expected a digit right up to </integer>", at: position)
      }
      let digit = UInt64(decoded)
      if !isHex && digit > 9 {
        throw failure(.invalidValue, "found a hex digit in a decimal <integer>; hexadecimal needs a 0x prefix", at: position)
      }
      let (scaled, overflow) = magnitude.multipliedReportingOverflow(by: radix)
      let (sum, carry) = scaled.addingReportingOverflow(digit)
      if overflow || carry {
        throw failure(.invalidValue, "<integer> is larger than 2^64 − 1", at: position)
      }
      magnitude = sum
      if isNegative && magnitude > UInt64(Int64.max) + 1 {
        throw failure(.invalidValue, "<integer> is smaller than −2^63", at: position)
      }
      position += 1
      byte = try current()
    }
    try expectCloseTag(.integer)
    if isNegative {
      return PropertyListInteger(Int64(bitPattern: 0 &- magnitude))
    }
    return PropertyListInteger(magnitude)
  }

  // MARK: <real>

  /// `<real>`: the text (references and CDATA expanded, as CF parses it like a string) is either
  /// one of `nan`, `inf`, `+inf`, `-inf`, `infinity`, `+infinity`, `-infinity` in any case, or
  /// optional leading white space followed by a decimal number that `strtod` consumes entirely.
  mutating func scanReal(scratch: inout [UInt8], openedAt: Int) throws(PropertyListError) -> Double {
    let text = try scanText(scratch: &scratch)
    let value: Double?
    switch text {
    case .run(let start, let end): value = Self.realValue(UnsafeBufferPointer(start: base + start, count: end - start))
    case .scratch: value = scratch.withUnsafeBufferPointer { Self.realValue($0) }
    }
    guard let value else {
      throw failure(.invalidValue, "<real> does not hold a number; expected a decimal number, nan, inf or infinity", at: openedAt)
    }
    try expectCloseTag(.real)
    return value
  }

  /// Interprets the text of a `<real>` (see ``scanReal(scratch:openedAt:)``); `nil` if it is not
  /// a number. Hexadecimal floats and `nan(…)` are not numbers here, as `strtod` only ever sees
  /// the characters `+ - . 0-9 e E` in CF.
  static func realValue(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    let count = text.count
    // CF builds a string first, so text that is not UTF-8 fails before it is looked at.
    if text.contains(where: { $0 >= 0x80 }), String(validating: text, as: UTF8.self) == nil { return nil }
    if count >= 3 && count <= 9 {
      if asciiCaseInsensitiveEquals(text, "nan") { return .nan }
      if asciiCaseInsensitiveEquals(text, "inf") || asciiCaseInsensitiveEquals(text, "+inf")
        || asciiCaseInsensitiveEquals(text, "infinity") || asciiCaseInsensitiveEquals(text, "+infinity")
      {
        return .infinity
      }
      if asciiCaseInsensitiveEquals(text, "-inf") || asciiCaseInsensitiveEquals(text, "-infinity") { return -.infinity }
    }
    // Leading white space as CF's __CFIsWhitespace sees it (on UTF-16 units).
    var index = 0
    while index < count {
      let lead = text[index]
      var scalar: UInt32
      var length: Int
      if lead < 0x80 {
        scalar = UInt32(lead)
        length = 1
      } else if lead & 0xE0 == 0xC0 && index + 1 < count {
        scalar = UInt32(lead & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F)
        length = 2
      } else if lead & 0xF0 == 0xE0 && index + 2 < count {
        scalar = UInt32(lead & 0x0F) << 12 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F)
        length = 3
      } else {
        break
      }
      guard scalar < 0x21 || (scalar > 0x7E && scalar < 0xA1) || (scalar >= 0x2000 && scalar <= 0x200B) || scalar == 0x3000 else { break }
      index += length
    }
    // strtod's decimal grammar, which must reach the end of the text.
    let tokenStart = index
    if index < count && (text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) { index += 1 }
    var digits = 0
    while index < count && text[index] &- UInt8(ascii: "0") < 10 {
      index += 1
      digits += 1
    }
    if index < count && text[index] == UInt8(ascii: ".") {
      index += 1
      while index < count && text[index] &- UInt8(ascii: "0") < 10 {
        index += 1
        digits += 1
      }
    }
    guard digits > 0 else { return nil }
    if index < count && (text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E")) {
      var exponentEnd = index + 1
      if exponentEnd < count && (text[exponentEnd] == UInt8(ascii: "+") || text[exponentEnd] == UInt8(ascii: "-")) { exponentEnd += 1 }
      var exponentDigits = 0
      while exponentEnd < count && text[exponentEnd] &- UInt8(ascii: "0") < 10 {
        exponentEnd += 1
        exponentDigits += 1
      }
      // Without digits, strtod stops before the 'e', which then is left over.
      if exponentDigits > 0 { index = exponentEnd }
    }
    guard index == count else { return nil }
    let token = UnsafeBufferPointer(rebasing: text[tokenStart..<count])
    return exactDecimal(token) ?? cDecimal(token) ?? Double(String(decoding: token, as: UTF8.self))
  }

  /// The token's value from C's `strtod` on a NUL-terminated copy on the stack, or `nil` if the
  /// token is long or `strtod` stops early. The token holds only `+ - . 0-9 e E`, so the result
  /// is what `Double(String)` gives (which is `strtod` in the C locale), except under a locale
  /// whose decimal point is not `.`: there `strtod` stops at the `.` and the caller falls back.
  @inline(__always)
  static func cDecimal(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
    let count = token.count
    guard count < 64, let source = token.baseAddress else { return nil }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double? in
      guard let start = buffer.baseAddress else { return nil }
      UnsafeMutableRawPointer(start).copyMemory(from: source, byteCount: count)
      start[count] = 0
      var end: UnsafeMutablePointer<CChar>? = nil
      let value = strtod(start, &end)
      guard end == start + count else { return nil }
      return value
    }
  }

  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Clinger's fast path for a token already checked against strtod's grammar: when the
  /// significant digits form an integer of at most 2^53 and the power of ten is within ±22, both
  /// are exact doubles, so one multiplication or division rounds correctly, as strtod would. `nil`
  /// when the token needs the general conversion.
  private static func exactDecimal(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    var negative = false
    if token[0] == UInt8(ascii: "-") || token[0] == UInt8(ascii: "+") {
      negative = token[0] == UInt8(ascii: "-")
      index = 1
    }
    var mantissa: UInt64 = 0
    var significant = 0
    var scale = 0
    var inFraction = false
    while index < token.count {
      let byte = token[index]
      if byte == UInt8(ascii: ".") {
        inFraction = true
      } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        break
      } else {
        let digit = UInt64(byte &- UInt8(ascii: "0"))
        if mantissa != 0 || digit != 0 {
          guard significant < 19 else { return nil }
          mantissa = mantissa * 10 + digit
          significant += 1
        }
        if inFraction { scale -= 1 }
      }
      index += 1
    }
    if index < token.count {
      index += 1
      var exponentNegative = false
      if token[index] == UInt8(ascii: "-") || token[index] == UInt8(ascii: "+") {
        exponentNegative = token[index] == UInt8(ascii: "-")
        index += 1
      }
      guard token.count - index <= 4 else { return nil }
      var exponent = 0
      while index < token.count {
        exponent = exponent * 10 + Int(token[index] &- UInt8(ascii: "0"))
        index += 1
      }
      scale += exponentNegative ? -exponent : exponent
    }
    let magnitude: Double
    if mantissa == 0 {
      magnitude = 0
    } else if mantissa <= 1 << 53 && scale >= 0 && scale <= 22 {
      magnitude = Double(mantissa) * exactPowersOfTen[scale]
    } else if mantissa <= 1 << 53 && scale < 0 && scale >= -22 {
      magnitude = Double(mantissa) / exactPowersOfTen[-scale]
    } else if let rounded = DecimalToBinary.nearestDouble(mantissa, timesTenToThe: scale) {
      magnitude = rounded
    } else {
      return nil
    }
    return negative ? -magnitude : magnitude
  }

  private static func asciiCaseInsensitiveEquals(_ text: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    guard text.count == literal.utf8CodeUnitCount else { return false }
    let pointer = literal.utf8Start
    for index in 0..<text.count {
      var byte = text[index]
      if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
      if byte != pointer[index] { return false }
    }
    return true
  }

  // MARK: <date>

  /// `-?[0-9]*-MM-DDTHH:MM:SSZ</date>`, each two-digit field exactly two digits, interpreted
  /// with CF's `CFGregorianDateGetAbsoluteTime` arithmetic (fields are not range-checked, so
  /// `2001-01-01T25:00:00Z` is a day later; see ``CFGregorianCalendar``).
  mutating func scanDate(openedAt: Int) throws(PropertyListError) -> Date {
    @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    func badForm() -> PropertyListError {
      failure(.invalidValue, "<date> is not YYYY-MM-DDTHH:MM:SSZ", at: openedAt)
    }
    @inline(__always) func expect(_ separator: UInt8) throws(PropertyListError) {
      guard position < count && base[position] == separator else { throw badForm() }
      position += 1
    }
    // CF's read2DigitNumber: needs a third byte after the two digits.
    @inline(__always) func twoDigits() throws(PropertyListError) -> Int32 {
      guard position + 2 < count else { throw badForm() }
      let first = base[position]
      let second = base[position + 1]
      position += 2
      guard isDigit(first) && isDigit(second) else { throw badForm() }
      return Int32(first - UInt8(ascii: "0")) * 10 + Int32(second - UInt8(ascii: "0"))
    }
    var yearIsNegative = false
    if position < count && base[position] == UInt8(ascii: "-") {
      yearIsNegative = true
      position += 1
    }
    var year: Int64 = 0
    while position < count && isDigit(base[position]) {
      year = year * 10 + Int64(base[position] - UInt8(ascii: "0"))
      guard year <= Int64(Int32.max) else {
        throw failure(.invalidValue, "<date> has a year beyond ±2^31", at: openedAt)
      }
      position += 1
    }
    try expect(UInt8(ascii: "-"))
    let month = try twoDigits()
    try expect(UInt8(ascii: "-"))
    let day = try twoDigits()
    try expect(UInt8(ascii: "T"))
    let hour = try twoDigits()
    try expect(UInt8(ascii: ":"))
    let minute = try twoDigits()
    try expect(UInt8(ascii: ":"))
    let second = try twoDigits()
    try expect(UInt8(ascii: "Z"))
    do {
      try expectCloseTag(.date)
    } catch {
      throw failure(.invalidValue, "<date> is not YYYY-MM-DDTHH:MM:SSZ followed by </date>", at: openedAt)
    }
    let absolute = CFGregorianCalendar.absoluteTime(
      year: yearIsNegative ? -year : year, month: month, day: day, hour: hour, minute: minute, second: second)
    return Date(timeIntervalSinceReferenceDate: absolute)
  }

  // MARK: <data>

  /// CF's base64 reader: runs to the next `<`; bytes ≥ 0x80 are an error, other characters
  /// outside the alphabet are skipped, every fourth alphabet character emits up to three bytes,
  /// trailing `=` (counted across white space) shortens that group, and an unfinished last
  /// group is dropped.
  mutating func scanData(openedAt: Int) throws(PropertyListError) -> Data {
    let start = position
    let end = Self.offset(of: UInt8(ascii: "<"), in: base, from: start, to: count) ?? count
    let capacity = (end - start) / 4 * 3
    var badOffset = -1
    var data = Data()
    if capacity > 0 {
      // Decoded straight into a buffer that the Data then owns (no zero-filling, no copy).
      var output = ByteOutput(capacity: capacity)
      let produced = XMLPlistBase64.decodeCF(
        UnsafeBufferPointer(start: base + start, count: end - start),
        into: UnsafeMutableRawBufferPointer(start: output.extend(by: capacity), count: capacity), badOffset: &badOffset)
      if produced > 0 && badOffset < 0 {
        output.count = produced
        data = output.takeData()
      } else {
        output.release()
      }
    } else {
      // Too short to hold a group; still reject bytes ≥ 0x80 as CF does.
      for index in start..<end where base[index] >= 0x80 {
        badOffset = index - start
        break
      }
    }
    if badOffset >= 0 {
      throw failure(.invalidValue, "<data> contains byte 0x\(String(base[start + badOffset], radix: 16, uppercase: true)), which is not base64", at: start + badOffset)
    }
    position = end
    try expectCloseTag(.data)
    return data
  }
}
