import PropertyLists
public import StasisSystem

/// A `printf`-style formatter with Foundation's `%@` and positional arguments, written for
/// Stasis instead of relying on `String(format:)` (missing from FoundationEssentials, and on
/// Linux it crashes or prints garbage when an argument does not fit its specifier).
///
/// Supported: `%@ %d %i %u %x %X %o %f %F %e %E %g %G %a %A %c %C %s %S %p %%`, flags
/// `- + space 0 # '`, width and precision as digits or `*`, length modifiers `hh h l ll q L z t j`,
/// positional arguments `%1$@ %2$d` (1-based; `*2$` for widths). C11 §7.21.6.1's rules hold
/// where C defines them: `%u %x %X %o` without a length modifier print a 32-bit `unsigned int`
/// (`%x` of `Int32(-1)` is `ffffffff`; `%D %U %O` are `%ld %lu %lo`), the `0` flag does not
/// pad infinity or NaN, `%#.0o` of 0 is `0`, the `'` flag groups nothing (the C/POSIX locale has
/// no thousands separator), and widths count bytes — except `%@`, whose width and precision count
/// UTF-16 code units as CFString's do (a precision never splits a surrogate pair, nor `%s`'s a
/// UTF-8 sequence). Deliberate difference: `%d` prints a 64-bit value whole (C leaves a too-wide
/// argument undefined; Apple's 64-bit `%d` keeps the low 32 bits); `%hd`/`%hhd` truncate as C does.
///
/// Mixing positional and sequential specifiers is an error; arguments no specifier uses are
/// allowed (a `.stringsdict` variant like "one file" ignores its number). Floating-point
/// conversions are rendered by the C library's `snprintf` from a specifier Stasis rebuilt
/// itself, so the digits match C exactly.
public enum StringFormat {
  /// Formats `format` with `arguments` (`String(format:_:)`,
  /// `+[NSString stringWithFormat:]`), reporting a mismatch instead of crashing.
  ///
  /// - Throws: `BundleError.Code.formatMismatch` naming the specifier when its argument is
  ///   missing or of the wrong type; `BundleError.Code.invalidFormat` for a malformed
  ///   specifier or mixed positional and sequential arguments.
  public static func format(_ format: String, _ arguments: [FormatValue]) throws(BundleError) -> String {
    let tokens = try FormatTokenizer.tokenize(format)
    return try render(format, tokens, arguments)
  }

  /// Formats with Swift values; see ``format(_:_:)-(String,[FormatValue])``.
  public static func format(_ format: String, _ arguments: any FormatArgument...) throws(BundleError) -> String {
    try self.format(format, arguments.map(\.formatValue))
  }

  /// Formats, and on a mismatch returns `format` unformatted rather than failing (what a user
  /// interface should show instead of crashing).
  public static func formatOrReturnFormat(_ format: String, _ arguments: [FormatValue]) -> String {
    (try? self.format(format, arguments)) ?? format
  }

  static func render(_ format: String, _ tokens: [FormatToken], _ arguments: [FormatValue]) throws(BundleError) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(format.utf8.count + 16)
    let bytes = Array(format.utf8)
    var sequential = 0
    var usesPositions: Bool?
    func take(_ position: Int?, _ spec: FormatSpec) throws(BundleError) -> FormatValue {
      let index: Int
      if let position {
        if usesPositions == false { throw mixed(spec) }
        usesPositions = true
        index = position
      } else {
        if usesPositions == true { throw mixed(spec) }
        usesPositions = false
        sequential += 1
        index = sequential
      }
      guard index >= 1, index <= arguments.count else {
        throw BundleError(
          .formatMismatch,
          detail: "specifier \(spec.text) uses argument \(index), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given")
      }
      return arguments[index - 1]
    }
    for token in tokens {
      switch token {
      case .literal(let start, let end):
        output.append(contentsOf: bytes[start..<end])
      case .percent:
        output.append(UInt8(ascii: "%"))
      case .variable(let spec, _):
        throw BundleError(.invalidFormat, detail: "\(spec.text) is a .stringsdict variable, and this format has no rules for it")
      case .specifier(let spec):
        var width = spec.width
        var leftAlign = spec.flags.contains(.minus)
        if spec.widthFromArgument {
          let value = try take(spec.widthPosition, spec)
          guard case .int(let number) = value.asSignedInteger else { throw mismatch(spec, value, expected: "an integer width") }
          if number < 0 { leftAlign = true }
          width = Int(clamping: number.magnitude)
        }
        var precision = spec.precision
        if spec.precisionFromArgument {
          let value = try take(spec.precisionPosition, spec)
          guard case .int(let number) = value.asSignedInteger else { throw mismatch(spec, value, expected: "an integer precision") }
          precision = number < 0 ? nil : Int(clamping: number)
        }
        let value = try take(spec.position, spec)
        let body = try renderValue(spec, value, precision: precision)
        let bodyCount = paddingLength(of: body, conversion: spec.conversion)
        let widthValue = min(width ?? 0, 1 << 16)
        if bodyCount >= widthValue {
          output.append(contentsOf: body)
        } else if leftAlign {
          output.append(contentsOf: body)
          output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: widthValue - bodyCount))
        } else if spec.flags.contains(.zero) && spec.isNumeric && !(spec.isInteger && precision != nil)
          && !isInfinityOrNaN(body)
        {
          // Zeros go after the sign and any 0x prefix.
          var prefixLength = 0
          if let first = body.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: " ") {
            prefixLength = 1
          }
          if body.count >= prefixLength + 2, body[prefixLength] == UInt8(ascii: "0"),
            body[prefixLength + 1] == UInt8(ascii: "x") || body[prefixLength + 1] == UInt8(ascii: "X")
          {
            prefixLength += 2
          }
          output.append(contentsOf: body[..<prefixLength])
          output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: widthValue - bodyCount))
          output.append(contentsOf: body[prefixLength...])
        } else {
          output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: widthValue - bodyCount))
          output.append(contentsOf: body)
        }
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// How many columns a rendered conversion takes for its width (C11 §7.21.6.1 counts bytes;
  /// CFString counts `%@` in UTF-16 code units): UTF-16 units for `%@`, bytes for the rest.
  static func paddingLength(of body: [UInt8], conversion: UInt8) -> Int {
    conversion == UInt8(ascii: "@") ? String(decoding: body, as: UTF8.self).utf16.count : body.count
  }

  /// Whether a floating-point conversion printed `inf` or `nan` (any case, any sign), which C
  /// pads with spaces even under the `0` flag.
  static func isInfinityOrNaN(_ body: [UInt8]) -> Bool {
    body.contains { $0 | 0x20 == UInt8(ascii: "i") || $0 | 0x20 == UInt8(ascii: "n") }
  }

  @inline(never)
  static func mixed(_ spec: FormatSpec) -> BundleError {
    BundleError(.invalidFormat, detail: "specifier \(spec.text) mixes positional and sequential arguments")
  }

  @inline(never)
  static func mismatch(_ spec: FormatSpec, _ value: FormatValue, expected: String) -> BundleError {
    BundleError(.formatMismatch, detail: "specifier \(spec.text) expects \(expected), got \(value.kindName)")
  }

  static func renderValue(_ spec: FormatSpec, _ value: FormatValue, precision: Int?) throws(BundleError) -> [UInt8] {
    let flags = spec.flags
    switch spec.conversion {
    case UInt8(ascii: "d"), UInt8(ascii: "i"):
      guard case .int(var number) = value.asSignedInteger else { throw mismatch(spec, value, expected: "an integer") }
      switch spec.length {
      case .hh: number = Int64(Int8(truncatingIfNeeded: number))
      case .h: number = Int64(Int16(truncatingIfNeeded: number))
      default: break
      }
      var digits = Array(String(number.magnitude).utf8)
      if let precision {
        if precision == 0 && number == 0 { digits = [] }
        if digits.count < precision { digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: min(precision, 4096) - digits.count), at: 0) }
      }
      var sign: [UInt8] = []
      if number < 0 { sign = [UInt8(ascii: "-")] } else if flags.contains(.plus) { sign = [UInt8(ascii: "+")] } else if flags.contains(.space) { sign = [UInt8(ascii: " ")] }
      return sign + digits
    case UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"), UInt8(ascii: "p"):
      var bits: UInt64
      switch value {
      case .int(let number): bits = UInt64(bitPattern: number)
      case .uint(let number): bits = number
      case .character(let scalar): bits = UInt64(scalar.value)
      default: throw mismatch(spec, value, expected: spec.conversion == UInt8(ascii: "p") ? "a pointer-sized integer" : "an integer")
      }
      switch spec.length {
      case .hh: bits = UInt64(UInt8(truncatingIfNeeded: bits))
      case .h: bits = UInt64(UInt16(truncatingIfNeeded: bits))
      // C's %u %x %o take an unsigned int: a negative Int32 prints its 32-bit pattern
      // (`ffffffff`), as glibc, Apple and Foundation print it. %p is pointer-sized.
      case .none where spec.conversion != UInt8(ascii: "p"): bits = UInt64(UInt32(truncatingIfNeeded: bits))
      default: break
      }
      let radix: Int
      switch spec.conversion {
      case UInt8(ascii: "o"): radix = 8
      case UInt8(ascii: "u"): radix = 10
      default: radix = 16
      }
      var digits = Array(String(bits, radix: radix, uppercase: spec.conversion == UInt8(ascii: "X")).utf8)
      if let precision {
        if precision == 0 && bits == 0 { digits = [] }
        if digits.count < precision { digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: min(precision, 4096) - digits.count), at: 0) }
      }
      if spec.conversion == UInt8(ascii: "p") { return Array("0x".utf8) + digits }
      if flags.contains(.alternate) {
        switch spec.conversion {
        case UInt8(ascii: "x") where bits != 0: return Array("0x".utf8) + digits
        case UInt8(ascii: "X") where bits != 0: return Array("0X".utf8) + digits
        // `#` makes the first octal digit a 0, even for 0 with precision 0 (`%#.0o` of 0 is "0").
        case UInt8(ascii: "o") where digits.first != UInt8(ascii: "0"): return [UInt8(ascii: "0")] + digits
        default: break
        }
      }
      return digits
    case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"),
      UInt8(ascii: "a"), UInt8(ascii: "A"):
      guard case .double(let number) = value else { throw mismatch(spec, value, expected: "a floating-point number") }
      return formatDouble(number, conversion: spec.conversion, flags: flags, precision: precision)
    case UInt8(ascii: "c"), UInt8(ascii: "C"):
      switch value {
      case .character(let scalar): return Array(String(Character(scalar)).utf8)
      case .int, .uint:
        guard case .int(let number) = value.asSignedInteger, let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: number)) else {
          throw mismatch(spec, value, expected: "a character code")
        }
        return Array(String(Character(scalar)).utf8)
      default: throw mismatch(spec, value, expected: "a character")
      }
    case UInt8(ascii: "s"), UInt8(ascii: "S"):
      switch value {
      case .string(let text): return truncated(text, precision)
      case .null: return Array("(null)".utf8)
      default: throw mismatch(spec, value, expected: "a string")
      }
    case UInt8(ascii: "@"):
      return truncatedUTF16(value.description, precision)
    default:
      throw BundleError(.invalidFormat, detail: "unknown conversion in \(spec.text)")
    }
  }

  /// `%s`: at most `precision` bytes (C11), cut back to the last whole UTF-8 sequence (C would
  /// cut inside one; a Swift string cannot hold the half).
  static func truncated(_ text: String, _ precision: Int?) -> [UInt8] {
    let bytes = Array(text.utf8)
    guard let precision, bytes.count > precision else { return bytes }
    var end = precision
    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    return Array(bytes[..<end])
  }

  /// `%@`: at most `precision` UTF-16 code units, as CFString counts (`%.1@` of "e\u{301}" is
  /// "e"), never splitting a surrogate pair (CF would leave half of it).
  static func truncatedUTF16(_ text: String, _ precision: Int?) -> [UInt8] {
    guard let precision, text.utf16.count > precision else { return Array(text.utf8) }
    var units = Array(text.utf16.prefix(precision))
    if let last = units.last, UTF16.isLeadSurrogate(last) { units.removeLast() }
    return Array(String(decoding: units, as: UTF16.self).utf8)
  }


  /// Renders one double through `snprintf` with a specifier rebuilt from parsed parts only.
  static func formatDouble(_ number: Double, conversion: UInt8, flags: FormatSpec.Flags, precision: Int?) -> [UInt8] {
    var spec = "%"
    if flags.contains(.plus) { spec += "+" }
    if flags.contains(.space) { spec += " " }
    if flags.contains(.alternate) { spec += "#" }
    if let precision { spec += "." + String(min(precision, 300)) }
    spec.unicodeScalars.append(Unicode.Scalar(conversion))
    return CPrintf.format(number, specifier: spec)
  }
}

extension FormatValue {
  /// The value as a signed integer for `%d` and `*` widths: integers, unsigned values that fit,
  /// and characters (their code point).
  var asSignedInteger: FormatValue? {
    switch self {
    case .int: self
    case .uint(let value): value <= UInt64(Int64.max) ? .int(Int64(value)) : .int(Int64(bitPattern: value))
    case .character(let scalar): .int(Int64(scalar.value))
    default: nil
    }
  }
}
