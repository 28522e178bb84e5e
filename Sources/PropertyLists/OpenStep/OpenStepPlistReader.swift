import FoundationEssentials

/// Reads OpenStep ("old-style", ASCII) property lists and `.strings` files into
/// ``PropertyListValue``, following CoreFoundation's old-style parser
/// (`CFPropertyListCreateWithData` with `kCFPropertyListOpenStepFormat`).
///
/// Grammar (as CF's `CFOldStylePList.c` parses it): dictionaries `{ key = value; … }` (a
/// `key;` entry means value = key), arrays `( a, b, )` (a trailing comma is allowed), data
/// `<0fbd 77>`, quoted strings (`"…"` or `'…'`, with C's escapes, octal `\NNN` and `\UXXXX`)
/// and unquoted strings of `[A-Za-z0-9_$/:.-]`. `//` and `/* */` comments count as whitespace.
/// There are no numbers, booleans or dates: every scalar is a string.
///
/// Document rules:
/// * A document of only whitespace and comments is an empty dictionary. A document of zero
///   bytes is an error, as in `CFPropertyListCreateWithData`, except in strings-file mode,
///   where it is an empty table (empty `.strings` files are common and load as empty tables).
/// * A document that begins with a string and has more text after it is re-read in
///   "strings-file mode": the whole document is the body of a dictionary without braces, and
///   every entry must end with `;`. `stringsFile: true` forces this mode (a document that starts
///   with `{` is then read as one braced dictionary, as Apple's general reader would).
/// * Any other value followed by more text is an error ("junk after the property list").
///   Unlike CoreFoundation, text left over after a strings-file body is an error too, instead of
///   being dropped silently.
/// * Duplicate keys: the last value wins.
///
/// Encodings: UTF-8 with or without a byte-order mark, UTF-16 and UTF-32 with a byte-order mark,
/// and UTF-16 without one when the first or second byte is NUL (see
/// ``PlistText/guessOpenStepEncoding(_:)``). Invalid text throws
/// `PropertyListError.Code.badEncoding`.
///
/// Errors carry the 1-based line of the problem. Nesting deeper than
/// ``PropertyListReadingOptions/maximumDepth`` throws `PropertyListError.Code.tooDeep`; more
/// values (keys included) than ``PropertyListReadingOptions/maximumObjectCount`` throws
/// `PropertyListError.Code.limitExceeded`. The parser keeps its own stack, so deep nesting
/// cannot overflow the thread's stack whatever the limits are.
enum OpenStepPlistReader {
  static func read(
    _ buffer: UnsafeRawBufferPointer, options: PropertyListReadingOptions, stringsFile: Bool
  ) throws(PropertyListError) -> PropertyListValue {
    let format: PropertyListFormat = stringsFile ? .strings : .openStep
    if buffer.isEmpty && !stringsFile {
      // CoreFoundation refuses zero-length data before parsing ("Cannot parse a NULL or
      // zero-length data"); a zero-length .strings file is an empty table.
      throw PropertyListError(.truncated, format: format, position: .line(1), detail: "the document is empty (zero bytes)")
    }
    let encoding = PlistText.guessOpenStepEncoding(buffer)
    if case .utf8(let skip) = encoding {
      let text = UnsafeRawBufferPointer(rebasing: buffer[skip...])
      if let bad = PlistText.firstInvalidUTF8(text) {
        throw PropertyListError(
          .badEncoding, format: format, position: .line(PlistText.lineNumber(in: text, at: bad)),
          detail: "byte 0x\(String(text[bad], radix: 16)) at offset \(bad + skip) is not valid UTF-8")
      }
      return try parse(text, format: format, options: options, stringsFile: stringsFile)
    }
    switch PlistText.transcodeToUTF8(buffer, from: encoding) {
    case .failure(let failure):
      throw PropertyListError(
        .badEncoding, format: format, position: .line(failure.line),
        detail: "\(failure.detail) (byte offset \(failure.inputOffset))")
    case .success(let utf8):
      return try withContiguousBytes(of: utf8) { (text) throws(PropertyListError) in
        try parse(text, format: format, options: options, stringsFile: stringsFile)
      }
    }
  }

  private static func parse(
    _ text: UnsafeRawBufferPointer, format: PropertyListFormat, options: PropertyListReadingOptions,
    stringsFile: Bool
  ) throws(PropertyListError) -> PropertyListValue {
    guard let base = text.baseAddress, text.count > 0 else { return .dictionary(PropertyListDictionary()) }
    var parser = OpenStepParser(
      base: base.assumingMemoryBound(to: UInt8.self), count: text.count, format: format, options: options)
    return try parser.document(stringsFile: stringsFile)
  }
}

/// The old-style grammar as a loop over an explicit stack of open containers.
struct OpenStepParser {
  /// What the loop expects next.
  private enum Step {
    case value
    case elementOrEnd
    case keyOrEnd
    case attach
  }

  let base: UnsafePointer<UInt8>
  let end: Int
  let format: PropertyListFormat
  var position = 0
  private var pending: PendingContainers
  private var scratch: [UInt8] = []

  init(base: UnsafePointer<UInt8>, count: Int, format: PropertyListFormat, options: PropertyListReadingOptions) {
    self.base = base
    self.end = count
    self.format = format
    self.pending = PendingContainers(options: options)
  }

  // MARK: - Document

  mutating func document(stringsFile: Bool) throws(PropertyListError) -> PropertyListValue {
    skipWhitespace()
    if position == end { return .dictionary(PropertyListDictionary()) }
    let first = base[position]
    if stringsFile {
      if first == UInt8(ascii: "{") {
        let value = try run(from: .value)
        skipWhitespace()
        guard position == end else { throw junk() }
        return value
      }
      return try body()
    }
    let value = try run(from: .value)
    skipWhitespace()
    if position == end { return value }
    if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || Self.isUnquoted(first) {
      // A string followed by more text: read the whole document again as a strings file.
      position = 0
      pending.valueCount = 0
      return try body()
    }
    throw junk()
  }

  private mutating func body() throws(PropertyListError) -> PropertyListValue {
    try open(.body, at: position)
    return try run(from: .keyOrEnd)
  }

  // MARK: - The loop

  private mutating func run(from initial: Step) throws(PropertyListError) -> PropertyListValue {
    var step = initial
    var completed = PropertyListValue.bool(false)
    while true {
      switch step {
      case .value:
        skipWhitespace()
        guard position < end else { throw failure(.truncated, at: position, "the document ends where a value was expected") }
        let byte = base[position]
        switch byte {
        case UInt8(ascii: "{"):
          try open(.dictionary, at: position)
          position += 1
          step = .keyOrEnd
        case UInt8(ascii: "("):
          try open(.array, at: position)
          position += 1
          step = .elementOrEnd
        case UInt8(ascii: "<"):
          position += 1
          completed = .data(try readData())
          try countObject()
          step = .attach
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
          position += 1
          completed = .string(try readQuoted(quote: byte))
          try countObject()
          step = .attach
        default:
          guard Self.isUnquoted(byte) else { throw unexpected(byte, expecting: "a value") }
          completed = .string(readUnquoted())
          try countObject()
          step = .attach
        }

      case .elementOrEnd:
        skipWhitespace()
        guard position < end else { throw unterminated() }
        if base[position] == UInt8(ascii: ")") {
          position += 1
          completed = pending.closeArray()
          step = .attach
        } else {
          step = .value
        }

      case .keyOrEnd:
        skipWhitespace()
        let kind = pending.open[pending.open.count - 1].kind
        guard position < end else {
          guard kind == .body else { throw unterminated() }
          completed = pending.closeDictionary()
          step = .attach
          continue
        }
        let byte = base[position]
        if byte == UInt8(ascii: "}") && kind == .dictionary {
          position += 1
          completed = pending.closeDictionary()
          step = .attach
          continue
        }
        let key: String
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          position += 1
          key = try readQuoted(quote: byte)
        } else if Self.isUnquoted(byte) {
          key = readUnquoted()
        } else {
          throw unexpected(byte, expecting: kind == .body ? "a key string" : "a key string or '}'")
        }
        try countObject()
        skipWhitespace()
        guard position < end else {
          throw failure(.truncated, at: position, "the document ends after a key; expected '=' or ';'")
        }
        switch base[position] {
        case UInt8(ascii: ";"):
          // `key;` — the value is the key itself (the strings-file shortcut, legal everywhere).
          position += 1
          pending.keys.append(key)
          pending.values.append(.string(key))
          try countObject()
        case UInt8(ascii: "="):
          position += 1
          pending.keys.append(key)
          step = .value
        default:
          throw failure(.unexpectedInput, at: position, "missing ';' or '=' after a dictionary key")
        }

      case .attach:
        guard let container = pending.open.last else { return completed }
        pending.values.append(completed)
        skipWhitespace()
        if container.kind == .array {
          guard position < end else { throw unterminated() }
          switch base[position] {
          case UInt8(ascii: ","):
            position += 1
            step = .elementOrEnd
          case UInt8(ascii: ")"):
            position += 1
            completed = pending.closeArray()
          default:
            throw unexpected(base[position], expecting: "',' or ')' in an array")
          }
        } else {
          guard position < end else {
            throw failure(.truncated, at: position, "the document ends where ';' was expected after a dictionary value")
          }
          guard base[position] == UInt8(ascii: ";") else {
            throw failure(.unexpectedInput, at: position, "missing ';' after a dictionary value")
          }
          position += 1
          step = .keyOrEnd
        }
      }
    }
  }

  private mutating func open(_ kind: PendingContainers.Kind, at offset: Int) throws(PropertyListError) {
    if let passed = pending.push(kind, at: offset) { throw failure(passed.code, at: offset, passed.detail) }
  }

  @inline(__always)
  private mutating func countObject() throws(PropertyListError) {
    if let passed = pending.countValue() { throw failure(passed.code, at: position, passed.detail) }
  }

  // MARK: - Whitespace and comments

  /// Skips whitespace (TAB, LF, VT, FF, CR, space, U+2028, U+2029) and comments. An
  /// unterminated `/*` comment runs to the end of the document, as in CoreFoundation.
  private mutating func skipWhitespace() {
    while position < end {
      switch base[position] {
      case 0x09...0x0D, 0x20:
        position += 1
      case 0xE2:
        guard position + 2 < end, base[position + 1] == 0x80,
          base[position + 2] == 0xA8 || base[position + 2] == 0xA9
        else { return }
        position += 3
      case UInt8(ascii: "/"):
        guard position + 1 < end else { return }
        let next = base[position + 1]
        if next == UInt8(ascii: "/") {
          position += 2
          while position < end {
            let byte = base[position]
            if byte == 0x0A || byte == 0x0D { break }
            if byte == 0xE2 && position + 2 < end && base[position + 1] == 0x80
              && (base[position + 2] == 0xA8 || base[position + 2] == 0xA9)
            {
              break
            }
            position += 1
          }
        } else if next == UInt8(ascii: "*") {
          position += 2
          while position < end {
            if base[position] == UInt8(ascii: "*") && position + 1 < end && base[position + 1] == UInt8(ascii: "/") {
              position += 2
              break
            }
            position += 1
          }
        } else {
          return
        }
      default:
        return
      }
    }
  }

  // MARK: - Strings

  /// `[A-Za-z0-9_$/:.-]`, tested with two 64-bit masks.
  @inline(__always)
  static func isUnquoted(_ byte: UInt8) -> Bool {
    // Bits for '$' (36), '-' (45), '.' (46), '/' (47), '0'–'9' (48–57), ':' (58).
    let low: UInt64 = 1 << 36 | 1 << 45 | 1 << 46 | 1 << 47 | 0x3FF << 48 | 1 << 58
    // Bits for 'A'–'Z' (65–90), '_' (95), 'a'–'z' (97–122), relative to 64.
    let high: UInt64 = 0x3FF_FFFF << 1 | 1 << 31 | 0x3FF_FFFF << 33
    if byte < 64 { return low >> UInt64(byte) & 1 != 0 }
    if byte < 128 { return high >> UInt64(byte &- 64) & 1 != 0 }
    return false
  }

  private mutating func readUnquoted() -> String {
    let start = position
    while position < end && Self.isUnquoted(base[position]) { position += 1 }
    return PlistText.string(base, start, position)
  }

  /// Reads a quoted string whose opening quote has been consumed.
  private mutating func readQuoted(quote: UInt8) throws(PropertyListError) -> String {
    let start = position
    var i = start
    // Fast path: no escapes. Scan a word at a time for the quote or a backslash.
    let quoteWord = UInt64(quote) &* 0x0101_0101_0101_0101
    let slashWord: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
    while i + 8 <= end {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      if Self.hasZeroByte(word ^ quoteWord) || Self.hasZeroByte(word ^ slashWord) { break }
      i += 8
    }
    while i < end {
      let byte = base[i]
      if byte == quote {
        position = i + 1
        return PlistText.string(base, start, i)
      }
      if byte == UInt8(ascii: "\\") { break }
      i += 1
    }
    guard i < end else { throw unterminatedString(openedAt: start - 1) }

    // Slow path: copy runs and decoded escapes into the scratch buffer.
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: i - start))
    while i < end {
      let byte = base[i]
      if byte == quote {
        position = i + 1
        return String(decoding: scratch, as: UTF8.self)
      }
      if byte != UInt8(ascii: "\\") {
        // Copy the run up to the next quote or backslash in one go.
        var runEnd = i + 1
        while runEnd < end && base[runEnd] != quote && base[runEnd] != UInt8(ascii: "\\") { runEnd += 1 }
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + i, count: runEnd - i))
        i = runEnd
        continue
      }
      i += 1
      guard i < end else {
        throw failure(.truncated, at: i, "the document ends inside a backslash escape")
      }
      let escaped = base[i]
      i += 1
      switch escaped {
      case UInt8(ascii: "a"): scratch.append(0x07)
      case UInt8(ascii: "b"): scratch.append(0x08)
      case UInt8(ascii: "f"): scratch.append(0x0C)
      case UInt8(ascii: "n"): scratch.append(0x0A)
      case UInt8(ascii: "r"): scratch.append(0x0D)
      case UInt8(ascii: "t"): scratch.append(0x09)
      case UInt8(ascii: "v"): scratch.append(0x0B)
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        // One to three octal digits; the value is kept to 8 bits, as CF does, and decoded
        // through the NeXTSTEP character set.
        var code = escaped &- UInt8(ascii: "0")
        var digits = 1
        while digits < 3 && i < end && base[i] >= UInt8(ascii: "0") && base[i] <= UInt8(ascii: "7") {
          code = code &<< 3 &+ (base[i] &- UInt8(ascii: "0"))
          i += 1
          digits += 1
        }
        PlistText.appendUTF8(NeXTSTEPEncoding.scalar(for: code), to: &scratch)
      case UInt8(ascii: "U"):
        let (unit, next) = Self.hexUnit(base, from: i, end: end)
        i = next
        if unit >= 0xD800 && unit <= 0xDBFF {
          // A high surrogate pairs with an immediately following `\U` low surrogate.
          if i + 1 < end && base[i] == UInt8(ascii: "\\") && base[i + 1] == UInt8(ascii: "U") {
            let (low, afterLow) = Self.hexUnit(base, from: i + 2, end: end)
            if low >= 0xDC00 && low <= 0xDFFF {
              PlistText.appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &scratch)
              i = afterLow
              continue
            }
          }
          PlistText.appendUTF8(0xFFFD, to: &scratch)
        } else if unit >= 0xDC00 && unit <= 0xDFFF {
          PlistText.appendUTF8(0xFFFD, to: &scratch)
        } else {
          PlistText.appendUTF8(unit, to: &scratch)
        }
      default:
        // `\"`, `\\`, `\'`, backslash-newline and any other character stand for themselves.
        // A multi-byte character's lead byte is copied here and its continuation bytes by the
        // loop, so the result stays valid UTF-8.
        scratch.append(escaped)
      }
    }
    throw unterminatedString(openedAt: start - 1)
  }

  /// Up to four hex digits (stopping at the first non-hex byte) as one UTF-16 code unit.
  @inline(__always)
  private static func hexUnit(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> (UInt32, Int) {
    var value: UInt32 = 0
    var i = start
    while i < end && i - start < 4 {
      guard let digit = HexDigit.value(base[i]) else { return (value, i) }
      value = value << 4 | UInt32(digit)
      i += 1
    }
    return (value, i)
  }

  /// True when some byte of `word` is zero.
  @inline(__always)
  static func hasZeroByte(_ word: UInt64) -> Bool {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
  }

  // MARK: - Data

  /// Reads `<hex>` after the `<`: pairs of hex digits, with whitespace allowed between pairs.
  private mutating func readData() throws(PropertyListError) -> Data {
    scratch.removeAll(keepingCapacity: true)
    var i = position
    while true {
      guard i < end else {
        throw failure(.truncated, at: i, "the document ends inside data; expected '>'")
      }
      let byte = base[i]
      if byte == UInt8(ascii: ">") { break }
      if let high = HexDigit.value(byte) {
        guard i + 1 < end else {
          throw failure(.truncated, at: i + 1, "the document ends inside data; expected '>'")
        }
        guard let low = HexDigit.value(base[i + 1]) else {
          throw failure(.invalidValue, at: i, "data has an odd number of hex digits in a group")
        }
        scratch.append(high << 4 | low)
        i += 2
        continue
      }
      switch byte {
      case 0x20, 0x0A, 0x09, 0x0D:
        i += 1
      case 0xE2 where i + 2 < end && base[i + 1] == 0x80 && (base[i + 2] == 0xA8 || base[i + 2] == 0xA9):
        i += 3
      default:
        throw failure(.unexpectedInput, at: i, "data holds a byte that is not a hex digit (0x\(String(byte, radix: 16)))")
      }
    }
    position = i + 1
    return Data(scratch)
  }


  // MARK: - Errors

  @inline(never)
  private func failure(_ code: PropertyListError.Code, at offset: Int, _ detail: String) -> PropertyListError {
    let line = PlistText.lineNumber(in: UnsafeRawBufferPointer(start: base, count: end), at: offset)
    return PropertyListError(code, format: format, position: .line(line), detail: detail)
  }

  @inline(never)
  private func unexpected(_ byte: UInt8, expecting: String) -> PropertyListError {
    let found: String
    if byte >= 0x21 && byte < 0x7F {
      found = "'\(Character(Unicode.Scalar(byte)))'"
    } else {
      found = "byte 0x\(String(byte, radix: 16))"
    }
    return failure(.unexpectedInput, at: position, "found \(found) where \(expecting) was expected")
  }

  @inline(never)
  private func unterminated() -> PropertyListError {
    guard let container = pending.open.last else {
      return failure(.truncated, at: position, "the document ends too early")
    }
    let openedOn = PlistText.lineNumber(in: UnsafeRawBufferPointer(start: base, count: end), at: container.openedAt)
    let what = container.kind == .array ? "array" : "dictionary"
    let closer = container.kind == .array ? "')'" : "'}'"
    return failure(.truncated, at: position, "the document ends inside the \(what) opened on line \(openedOn); expected \(closer)")
  }

  @inline(never)
  private func unterminatedString(openedAt offset: Int) -> PropertyListError {
    failure(.truncated, at: offset, "unterminated quoted string (it starts on this line)")
  }

  @inline(never)
  private func junk() -> PropertyListError {
    failure(.unexpectedInput, at: position, "junk after the property list's top-level value")
  }
}
