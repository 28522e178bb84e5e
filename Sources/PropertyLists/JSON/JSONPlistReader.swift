/// Reads JSON into ``PropertyListValue`` the way `plutil` does: `JSONSerialization` semantics,
/// then conversion to property-list types.
///
/// * Grammar: RFC 8259, plus what Foundation's parser also accepts: one trailing comma before
///   `]` or `}` (swift-foundation's `JSONScanner`: "the foundation json implementation does
///   support trailing commas"). Whitespace is space, TAB, LF and CR only. The top level may be
///   any value.
/// * Numbers: without a fraction or exponent, a value in `Int64.min ... UInt64.max` is an
///   ``PropertyListValue/integer(_:)``; beyond that range, and with a fraction or exponent, it is a
///   ``PropertyListValue/real(_:width:)`` (`1` → integer, `1.0` → real). A number too large for
///   a `Double` is an error, as it is in `JSONSerialization`; one too small becomes 0. Leading
///   zeros, a bare `-`, `1.` and `.5` are errors.
/// * Strings: the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`; a high surrogate must be followed by
///   a `\u` low surrogate; an unescaped control character is an error.
/// * `null` is an error (`PropertyListError.Code.unrepresentable`): property lists have no
///   null. Duplicate keys: the last value wins.
/// * Encodings: UTF-8 (with or without a byte-order mark), UTF-16 and UTF-32 in either byte
///   order with or without a mark (``PlistText/guessJSONEncoding(_:)``). Invalid text throws
///   `PropertyListError.Code.badEncoding`.
///
/// Errors give the byte offset in the document for UTF-8 input and the line number for
/// UTF-16/32 input (which is transcoded before parsing). Nesting deeper than
/// ``PropertyListReadingOptions/maximumDepth`` throws `PropertyListError.Code.tooDeep`, more
/// values than ``PropertyListReadingOptions/maximumObjectCount`` (keys included) throws
/// `PropertyListError.Code.limitExceeded`; the parser keeps its own stack.
enum JSONPlistReader {
  static func read(_ buffer: UnsafeRawBufferPointer, options: PropertyListReadingOptions) throws(PropertyListError) -> PropertyListValue {
    let encoding = PlistText.guessJSONEncoding(buffer)
    if case .utf8(let skip) = encoding {
      let text = UnsafeRawBufferPointer(rebasing: buffer[skip...])
      if let bad = PlistText.firstInvalidUTF8(text) {
        throw PropertyListError(
          .badEncoding, format: .json, position: .byteOffset(bad + skip),
          detail: "byte 0x\(String(text[bad], radix: 16)) is not valid UTF-8")
      }
      return try parse(text, offsetBias: skip, reportLines: false, options: options)
    }
    switch PlistText.transcodeToUTF8(buffer, from: encoding) {
    case .failure(let failure):
      throw PropertyListError(
        .badEncoding, format: .json, position: .byteOffset(failure.inputOffset), detail: failure.detail)
    case .success(let utf8):
      return try withContiguousBytes(of: utf8) { (text) throws(PropertyListError) in
        try parse(text, offsetBias: 0, reportLines: true, options: options)
      }
    }
  }

  private static func parse(
    _ text: UnsafeRawBufferPointer, offsetBias: Int, reportLines: Bool, options: PropertyListReadingOptions
  ) throws(PropertyListError) -> PropertyListValue {
    guard let base = text.baseAddress, text.count > 0 else {
      throw PropertyListError(.truncated, format: .json, position: .byteOffset(offsetBias), detail: "the document is empty; expected a JSON value")
    }
    var parser = JSONParser(
      base: base.assumingMemoryBound(to: UInt8.self), count: text.count, offsetBias: offsetBias,
      reportLines: reportLines, options: options)
    return try parser.document()
  }
}

/// RFC 8259 over UTF-8 bytes, as a loop over an explicit stack of open containers.
struct JSONParser {
  private enum Step {
    case value
    case elementOrEnd
    case keyOrEnd
    case attach
  }

  let base: UnsafePointer<UInt8>
  let end: Int
  let offsetBias: Int
  let reportLines: Bool
  var position = 0
  private var pending: PendingContainers
  private var scratch: [UInt8] = []

  init(
    base: UnsafePointer<UInt8>, count: Int, offsetBias: Int, reportLines: Bool, options: PropertyListReadingOptions
  ) {
    self.base = base
    self.end = count
    self.offsetBias = offsetBias
    self.reportLines = reportLines
    self.pending = PendingContainers(options: options)
  }

  mutating func document() throws(PropertyListError) -> PropertyListValue {
    let value = try run()
    skipWhitespace()
    guard position == end else {
      throw unexpected(expecting: "the end of the document after the top-level value")
    }
    return value
  }

  // MARK: - The loop

  private mutating func run() throws(PropertyListError) -> PropertyListValue {
    var step = Step.value
    var completed = PropertyListValue.bool(false)
    while true {
      switch step {
      case .value:
        skipWhitespace()
        guard position < end else { throw endedEarly(expecting: "a value") }
        let byte = base[position]
        switch byte {
        case UInt8(ascii: "{"):
          try open(.dictionary)
          position += 1
          step = .keyOrEnd
        case UInt8(ascii: "["):
          try open(.array)
          position += 1
          step = .elementOrEnd
        case UInt8(ascii: "\""):
          position += 1
          completed = .string(try readString())
          try countObject()
          step = .attach
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          completed = try readNumber()
          try countObject()
          step = .attach
        case UInt8(ascii: "t"):
          try expectLiteral("true")
          completed = .bool(true)
          try countObject()
          step = .attach
        case UInt8(ascii: "f"):
          try expectLiteral("false")
          completed = .bool(false)
          try countObject()
          step = .attach
        case UInt8(ascii: "n"):
          let at = position
          try expectLiteral("null")
          throw failure(
            .unrepresentable, at: at, "null cannot be stored in a property list\(pathDescription())")
        default:
          throw unexpected(expecting: "a value")
        }

      case .elementOrEnd:
        skipWhitespace()
        guard position < end else { throw endedEarly(expecting: "a value or ']'") }
        if base[position] == UInt8(ascii: "]") {
          position += 1
          completed = pending.closeArray()
          step = .attach
        } else {
          step = .value
        }

      case .keyOrEnd:
        skipWhitespace()
        guard position < end else { throw endedEarly(expecting: "a key or '}'") }
        let byte = base[position]
        if byte == UInt8(ascii: "}") {
          position += 1
          completed = pending.closeDictionary()
          step = .attach
          continue
        }
        guard byte == UInt8(ascii: "\"") else { throw unexpected(expecting: "a string key or '}'") }
        position += 1
        let key = try readString()
        try countObject()
        skipWhitespace()
        guard position < end else { throw endedEarly(expecting: "':'") }
        guard base[position] == UInt8(ascii: ":") else { throw unexpected(expecting: "':' after an object key") }
        position += 1
        pending.keys.append(key)
        step = .value

      case .attach:
        guard let container = pending.open.last else { return completed }
        pending.values.append(completed)
        skipWhitespace()
        guard position < end else {
          throw endedEarly(expecting: container.kind == .dictionary ? "',' or '}'" : "',' or ']'")
        }
        let byte = base[position]
        if byte == UInt8(ascii: ",") {
          position += 1
          step = container.kind == .dictionary ? .keyOrEnd : .elementOrEnd
          // A trailing comma is accepted, but `[,]` and `[1,,]` are not: after a comma a
          // value (or key) must come unless the container closes.
        } else if container.kind == .dictionary && byte == UInt8(ascii: "}") {
          position += 1
          completed = pending.closeDictionary()
        } else if container.kind == .array && byte == UInt8(ascii: "]") {
          position += 1
          completed = pending.closeArray()
        } else {
          throw unexpected(expecting: container.kind == .dictionary ? "',' or '}' in an object" : "',' or ']' in an array")
        }
      }
    }
  }

  private mutating func open(_ kind: PendingContainers.Kind) throws(PropertyListError) {
    if let passed = pending.push(kind, at: position) { throw failure(passed.code, at: position, passed.detail) }
  }

  @inline(__always)
  private mutating func countObject() throws(PropertyListError) {
    if let passed = pending.countValue() { throw failure(passed.code, at: position, passed.detail) }
  }

  @inline(__always)
  private mutating func skipWhitespace() {
    while position < end {
      switch base[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(PropertyListError) {
    let count = literal.utf8CodeUnitCount
    let start = literal.utf8Start
    for i in 0..<count {
      guard position + i < end else { throw endedEarly(expecting: "the rest of '\(literal)'") }
      guard base[position + i] == start[i] else {
        position += i
        throw unexpected(expecting: "the rest of '\(literal)'")
      }
    }
    position += count
  }

  // MARK: - Strings

  /// Reads a string whose opening quote has been consumed.
  private mutating func readString() throws(PropertyListError) -> String {
    let start = position
    var i = start
    // Fast path: scan a word at a time for a quote, a backslash or a control character.
    while i + 8 <= end {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      let quotes = word ^ 0x2222_2222_2222_2222
      let slashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
      let special =
        ((quotes &- 0x0101_0101_0101_0101) & ~quotes) | ((slashes &- 0x0101_0101_0101_0101) & ~slashes)
        | ((word &- 0x2020_2020_2020_2020) & ~word)
      if special & 0x8080_8080_8080_8080 != 0 { break }
      i += 8
    }
    while i < end {
      let byte = base[i]
      if byte == UInt8(ascii: "\"") {
        position = i + 1
        return PlistText.string(base, start, i)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 {
        position = i
        throw failure(.unexpectedInput, at: i, "unescaped control character 0x\(String(byte, radix: 16)) in a string")
      }
      i += 1
    }
    guard i < end else {
      throw failure(.truncated, at: start - 1, "the document ends inside a string")
    }

    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start))
    while i < end {
      let byte = base[i]
      if byte == UInt8(ascii: "\"") {
        position = i + 1
        return String(decoding: scratch, as: UTF8.self)
      }
      if byte < 0x20 {
        throw failure(.unexpectedInput, at: i, "unescaped control character 0x\(String(byte, radix: 16)) in a string")
      }
      if byte != UInt8(ascii: "\\") {
        // Copy the run up to the next quote, backslash or control character in one go.
        var runEnd = i + 1
        while runEnd < end {
          let next = base[runEnd]
          if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next < 0x20 { break }
          runEnd += 1
        }
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + i, count: runEnd - i))
        i = runEnd
        continue
      }
      guard i + 1 < end else { throw failure(.truncated, at: i, "the document ends inside an escape sequence") }
      let escaped = base[i + 1]
      switch escaped {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
      case UInt8(ascii: "b"): scratch.append(0x08)
      case UInt8(ascii: "f"): scratch.append(0x0C)
      case UInt8(ascii: "n"): scratch.append(0x0A)
      case UInt8(ascii: "r"): scratch.append(0x0D)
      case UInt8(ascii: "t"): scratch.append(0x09)
      case UInt8(ascii: "u"):
        let unit = try hexEscape(at: i)
        if unit >= 0xD800 && unit <= 0xDBFF {
          guard i + 7 < end, base[i + 6] == UInt8(ascii: "\\"), base[i + 7] == UInt8(ascii: "u")
          else {
            throw failure(.invalidValue, at: i, "a \\u high surrogate is not followed by a \\u low surrogate")
          }
          let low = try hexEscape(at: i + 6)
          guard low >= 0xDC00 && low <= 0xDFFF else {
            throw failure(.invalidValue, at: i + 6, "a \\u high surrogate is followed by something other than a low surrogate")
          }
          PlistText.appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &scratch)
          i += 12
          continue
        }
        guard unit < 0xDC00 || unit > 0xDFFF else {
          throw failure(.invalidValue, at: i, "a \\u low surrogate without a high surrogate before it")
        }
        PlistText.appendUTF8(unit, to: &scratch)
        i += 6
        continue
      default:
        throw failure(.unexpectedInput, at: i, "invalid escape sequence in a string")
      }
      i += 2
    }
    throw failure(.truncated, at: start - 1, "the document ends inside a string")
  }

  /// The four hex digits of the `\u` escape whose backslash is at `at`.
  private func hexEscape(at: Int) throws(PropertyListError) -> UInt32 {
    guard at + 6 <= end else { throw failure(.truncated, at: at, "the document ends inside a \\u escape") }
    var value: UInt32 = 0
    for i in (at + 2)..<(at + 6) {
      guard let digit = HexDigit.value(base[i]) else { throw failure(.invalidValue, at: i, "a \\u escape needs four hex digits") }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  // MARK: - Numbers

  private mutating func readNumber() throws(PropertyListError) -> PropertyListValue {
    let start = position
    var i = start
    let negative = base[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    guard i < end else { throw endedEarly(expecting: "digits after '-'") }
    let integerStart = i
    if base[i] == UInt8(ascii: "0") {
      i += 1
      if i < end && base[i] >= UInt8(ascii: "0") && base[i] <= UInt8(ascii: "9") {
        throw failure(.invalidValue, at: i, "a number has a leading zero")
      }
    } else if base[i] >= UInt8(ascii: "1") && base[i] <= UInt8(ascii: "9") {
      while i < end && base[i] >= UInt8(ascii: "0") && base[i] <= UInt8(ascii: "9") { i += 1 }
    } else {
      position = i
      throw unexpected(expecting: "a digit in a number")
    }
    let integerEnd = i
    var isInteger = true
    var fractionDigits = 0
    if i < end && base[i] == UInt8(ascii: ".") {
      isInteger = false
      i += 1
      let fractionStart = i
      while i < end && base[i] >= UInt8(ascii: "0") && base[i] <= UInt8(ascii: "9") { i += 1 }
      fractionDigits = i - fractionStart
      guard fractionDigits > 0 else {
        position = i
        throw i < end ? unexpected(expecting: "a digit after '.' in a number") : endedEarly(expecting: "a digit after '.'")
      }
    }
    var exponent = 0
    var exponentOverflow = false
    if i < end && (base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E")) {
      isInteger = false
      i += 1
      var exponentNegative = false
      if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) {
        exponentNegative = base[i] == UInt8(ascii: "-")
        i += 1
      }
      let exponentStart = i
      while i < end && base[i] >= UInt8(ascii: "0") && base[i] <= UInt8(ascii: "9") {
        if exponent < 100_000 { exponent = exponent * 10 + Int(base[i] &- UInt8(ascii: "0")) } else { exponentOverflow = true }
        i += 1
      }
      guard i > exponentStart else {
        position = i
        throw i < end ? unexpected(expecting: "a digit in a number's exponent") : endedEarly(expecting: "an exponent")
      }
      if exponentNegative { exponent = -exponent }
    }
    position = i

    if isInteger {
      // Accumulate the magnitude; fall through to a real when it passes UInt64.max
      // (or 2^63 for a negative number).
      var magnitude: UInt64 = 0
      var overflow = false
      for j in integerStart..<integerEnd {
        let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(base[j] &- UInt8(ascii: "0")))
        if o1 || o2 { overflow = true; break }
        magnitude = sum
      }
      if !overflow {
        if !negative { return .integer(PropertyListInteger(magnitude)) }
        if magnitude <= UInt64(Int64.max) { return .integer(PropertyListInteger(-Int64(magnitude))) }
        if magnitude == UInt64(Int64.max) + 1 { return .integer(PropertyListInteger(Int64.min)) }
      }
    }

    // Fast path (Clinger): up to 15 significant digits and a power of ten up to 22 are exact
    // in a Double, so one multiplication or division rounds correctly.
    let digitCount = (integerEnd - integerStart) + fractionDigits
    if !exponentOverflow && digitCount <= 15 {
      var mantissa: UInt64 = 0
      for j in integerStart..<integerEnd { mantissa = mantissa &* 10 &+ UInt64(base[j] &- UInt8(ascii: "0")) }
      if fractionDigits > 0 {
        let fractionStart = integerEnd + 1
        for j in fractionStart..<(fractionStart + fractionDigits) {
          mantissa = mantissa &* 10 &+ UInt64(base[j] &- UInt8(ascii: "0"))
        }
      }
      let scale = exponent - fractionDigits
      if scale >= -22 && scale <= 22 {
        var result = Double(mantissa)
        if scale < 0 { result /= Self.powersOfTen[-scale] } else { result *= Self.powersOfTen[scale] }
        return .real(negative ? -result : result)
      }
    }
    // General case: the standard library's correctly rounded conversion.
    let text = PlistText.string(base, start, i)
    guard let result = Double(text), result.isFinite else {
      throw failure(.invalidValue, at: start, "a number is too large to be represented")
    }
    return .real(result)
  }

  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  // MARK: - Errors

  private func position(for offset: Int) -> PropertyListError.Position {
    if reportLines {
      return .line(PlistText.lineNumber(in: UnsafeRawBufferPointer(start: base, count: end), at: offset))
    }
    return .byteOffset(offset + offsetBias)
  }

  @inline(never)
  private func failure(_ code: PropertyListError.Code, at offset: Int, _ detail: String) -> PropertyListError {
    PropertyListError(code, format: .json, position: position(for: offset), detail: detail)
  }

  @inline(never)
  private func unexpected(expecting: String) -> PropertyListError {
    let byte = base[position]
    let found: String
    if byte >= 0x21 && byte < 0x7F {
      found = "'\(Character(Unicode.Scalar(byte)))'"
    } else {
      found = "byte 0x\(String(byte, radix: 16))"
    }
    return failure(.unexpectedInput, at: position, "found \(found) where \(expecting) was expected")
  }

  @inline(never)
  private func endedEarly(expecting: String) -> PropertyListError {
    failure(.truncated, at: position, "the document ends where \(expecting) was expected")
  }

  /// " (at key path …)" for the value being read, from the open containers.
  @inline(never)
  private func pathDescription() -> String {
    guard !pending.open.isEmpty else { return " (the top-level value)" }
    var components: [String] = []
    // Rebuild from the stacks: each object's current key is its newest key; each array's
    // current index is the number of its values so far.
    var keyCursor = pending.keys.count
    var valueCursor = pending.values.count
    for container in pending.open.reversed() {
      if container.kind == .dictionary {
        components.append(pending.keys[keyCursor - 1])
      } else {
        components.append(String(valueCursor - container.valueStart))
      }
      keyCursor = container.keyStart
      valueCursor = container.valueStart
    }
    let path = PropertyListKeyPathSyntax.backslash.joined(components.reversed())
    return " (at key path \"\(path)\")"
  }
}
