import StasisSystem

/// One parsed conversion specifier.
struct FormatSpec: Sendable {
  struct Flags: OptionSet, Sendable {
    let rawValue: UInt8
    static let minus = Flags(rawValue: 1)
    static let plus = Flags(rawValue: 2)
    static let space = Flags(rawValue: 4)
    static let zero = Flags(rawValue: 8)
    static let alternate = Flags(rawValue: 16)
    static let grouping = Flags(rawValue: 32)
  }

  enum Length: Sendable { case none, hh, h, l, ll, big, z, t, j }

  /// The specifier as written, for messages (`%2$d`).
  var text: String
  /// 1-based argument position from `N$`, if written.
  var position: Int?
  var flags: Flags = []
  var width: Int?
  var widthFromArgument = false
  var widthPosition: Int?
  var precision: Int?
  var precisionFromArgument = false
  var precisionPosition: Int?
  var length: Length = .none
  var conversion: UInt8 = 0
  /// Byte offset just after `%` and any `N$`: the specifier's body, for rewriting positions.
  var bodyStart: Int = 0
  var end: Int = 0

  var isInteger: Bool {
    switch conversion {
    case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"): true
    default: false
    }
  }

  var isNumeric: Bool {
    switch conversion {
    case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"),
      UInt8(ascii: "a"), UInt8(ascii: "A"):
      true
    default: isInteger
    }
  }
}

enum FormatToken: Sendable {
  /// Bytes `start..<end` of the format, copied as they are.
  case literal(Int, Int)
  /// `%%`.
  case percent
  case specifier(FormatSpec)
  /// `%#@name@` or `%N$#@name@`, a `.stringsdict` variable.
  case variable(FormatSpec, name: String)
}

/// Splits a format string into literal runs and specifiers.
enum FormatTokenizer {
  static func tokenize(_ format: String) throws(BundleError) -> [FormatToken] {
    let bytes = Array(format.utf8)
    var tokens: [FormatToken] = []
    var literalStart = 0
    var index = 0
    let count = bytes.count
    while index < count {
      guard bytes[index] == UInt8(ascii: "%") else {
        index += 1
        continue
      }
      if literalStart < index { tokens.append(.literal(literalStart, index)) }
      let start = index
      index += 1
      guard index < count else {
        throw BundleError(.invalidFormat, detail: "format ends with a lone % at byte \(start)")
      }
      if bytes[index] == UInt8(ascii: "%") {
        tokens.append(.percent)
        index += 1
        literalStart = index
        continue
      }
      var spec = FormatSpec(text: "")
      // N$
      if let (number, after) = readNumber(bytes, index), after < count, bytes[after] == UInt8(ascii: "$") {
        guard number >= 1 else { throw invalid(bytes, start, after + 1, "argument positions start at 1") }
        spec.position = number
        index = after + 1
      }
      spec.bodyStart = index
      // Flags.
      flagLoop: while index < count {
        switch bytes[index] {
        case UInt8(ascii: "-"): spec.flags.insert(.minus)
        case UInt8(ascii: "+"): spec.flags.insert(.plus)
        case UInt8(ascii: " "): spec.flags.insert(.space)
        case UInt8(ascii: "0"): spec.flags.insert(.zero)
        case UInt8(ascii: "#"): spec.flags.insert(.alternate)
        case UInt8(ascii: "'"): spec.flags.insert(.grouping)
        default: break flagLoop
        }
        index += 1
      }
      // A .stringsdict variable: %#@name@.
      if spec.flags == .alternate, index < count, bytes[index] == UInt8(ascii: "@") {
        let nameStart = index + 1
        var nameEnd = nameStart
        while nameEnd < count, bytes[nameEnd] != UInt8(ascii: "@") { nameEnd += 1 }
        guard nameEnd < count, nameEnd > nameStart else {
          throw invalid(bytes, start, min(nameEnd, count), "a %#@variable@ needs a name and a closing @")
        }
        spec.conversion = UInt8(ascii: "@")
        spec.end = nameEnd + 1
        spec.text = String(decoding: bytes[start..<spec.end], as: UTF8.self)
        tokens.append(.variable(spec, name: String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)))
        index = nameEnd + 1
        literalStart = index
        continue
      }
      // Width.
      if let after = readAmount(bytes, index, into: &spec.width, fromArgument: &spec.widthFromArgument, position: &spec.widthPosition) {
        index = after
      }
      // Precision ("." alone means 0).
      if index < count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        if let after = readAmount(
          bytes, index, into: &spec.precision, fromArgument: &spec.precisionFromArgument, position: &spec.precisionPosition)
        {
          index = after
        } else {
          spec.precision = 0
        }
      }
      // Length.
      if index < count {
        switch bytes[index] {
        case UInt8(ascii: "h"):
          if index + 1 < count, bytes[index + 1] == UInt8(ascii: "h") { spec.length = .hh; index += 2 } else { spec.length = .h; index += 1 }
        case UInt8(ascii: "l"):
          if index + 1 < count, bytes[index + 1] == UInt8(ascii: "l") { spec.length = .ll; index += 2 } else { spec.length = .l; index += 1 }
        case UInt8(ascii: "q"): spec.length = .ll; index += 1
        case UInt8(ascii: "L"): spec.length = .big; index += 1
        case UInt8(ascii: "z"): spec.length = .z; index += 1
        case UInt8(ascii: "t"): spec.length = .t; index += 1
        case UInt8(ascii: "j"): spec.length = .j; index += 1
        default: break
        }
      }
      guard index < count else { throw invalid(bytes, start, count, "the specifier has no conversion character") }
      let conversion = bytes[index]
      switch conversion {
      case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"),
        UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"),
        UInt8(ascii: "a"), UInt8(ascii: "A"), UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "s"), UInt8(ascii: "S"),
        UInt8(ascii: "@"), UInt8(ascii: "p"), UInt8(ascii: "D"), UInt8(ascii: "U"), UInt8(ascii: "O"):
        // %D %U %O are the obsolete long forms of %ld %lu %lo.
        switch conversion {
        case UInt8(ascii: "D"): (spec.conversion, spec.length) = (UInt8(ascii: "d"), .l)
        case UInt8(ascii: "U"): (spec.conversion, spec.length) = (UInt8(ascii: "u"), .l)
        case UInt8(ascii: "O"): (spec.conversion, spec.length) = (UInt8(ascii: "o"), .l)
        default: spec.conversion = conversion
        }
      default:
        throw invalid(bytes, start, index + 1, "unknown conversion character")
      }
      index += 1
      spec.end = index
      spec.text = String(decoding: bytes[start..<index], as: UTF8.self)
      tokens.append(.specifier(spec))
      literalStart = index
    }
    if literalStart < count { tokens.append(.literal(literalStart, count)) }
    return tokens
  }

  /// Decimal digits at `index` (at most 9 of them), and the index after them.
  /// A width or precision: digits, or `*` (the next argument) or `*n$` (argument n).
  enum Amount {
    case digits(Int)
    case argument(position: Int?)
  }

  /// Reads a width or precision at `index` into `value` (digits) or `fromArgument` and
  /// `position` (`*`, `*N$`); the index after it, or nil when there is none.
  static func readAmount(
    _ bytes: [UInt8], _ index: Int, into value: inout Int?, fromArgument: inout Bool, position: inout Int?
  ) -> Int? {
    guard let (amount, after) = readAmount(bytes, index) else { return nil }
    switch amount {
    case .digits(let number): value = number
    case .argument(let argument):
      fromArgument = true
      position = argument
    }
    return after
  }

  /// The width or precision at `index`, and the index after it; `nil` if there is none.
  static func readAmount(_ bytes: [UInt8], _ index: Int) -> (Amount, Int)? {
    if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
      if let (number, after) = readNumber(bytes, index + 1), after < bytes.count, bytes[after] == UInt8(ascii: "$") {
        return (.argument(position: number), after + 1)
      }
      return (.argument(position: nil), index + 1)
    }
    if let (number, after) = readNumber(bytes, index) { return (.digits(number), after) }
    return nil
  }

  static func readNumber(_ bytes: [UInt8], _ index: Int) -> (Int, Int)? {
    var value = 0
    var cursor = index
    while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9"), cursor - index < 9 {
      value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
      cursor += 1
    }
    return cursor > index ? (value, cursor) : nil
  }

  @inline(never)
  static func invalid(_ bytes: [UInt8], _ start: Int, _ end: Int, _ why: String) -> BundleError {
    let text = String(decoding: bytes[start..<min(max(end, start), bytes.count)], as: UTF8.self)
    return BundleError(.invalidFormat, detail: "\(why): \(text) at byte \(start)")
  }
}
