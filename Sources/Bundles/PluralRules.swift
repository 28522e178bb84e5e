/// A CLDR plural category (`zero`, `one`, `two`, `few`, `many`, `other`), the keys of a
/// `.stringsdict` plural rule (`NSStringPluralRuleType`).
public enum PluralCategory: String, Sendable, CaseIterable, Hashable {
  case zero, one, two, few, many, other
}

/// The CLDR plural operands of a number: `n` absolute value, `i` integer digits, `v` count of
/// visible fraction digits, `f` visible fraction digits as an integer, `t` the same without
/// trailing zeros (UTS #35, Language Plural Rules).
public struct PluralOperands: Sendable, Hashable {
  public var n: Double
  public var i: UInt64
  public var v: Int
  public var f: UInt64
  public var t: UInt64
  /// Whether the number was given as an integer (an integer 0 may pick a `zero` variant even in
  /// languages whose rules have no zero category, as Foundation does).
  public var isInteger: Bool

  public init(_ value: Int) {
    let magnitude = value.magnitude
    n = Double(magnitude)
    i = UInt64(magnitude)
    v = 0
    f = 0
    t = 0
    isInteger = true
  }

  public init(_ value: UInt64) {
    n = Double(value)
    i = value
    v = 0
    f = 0
    t = 0
    isInteger = true
  }

  /// The operands of a floating-point number, from its shortest round-trip decimal written out
  /// without exponent notation, as ICU (and so Apple's `.stringsdict` selection) reads a double:
  /// `1.5` → v 1, f 5; `2.0` → v 0, like the integer 2; `0.25` → v 2, f 25; `1e-05` is
  /// `0.00001` → v 5, f 1, t 1; `1e+20` is `100000000000000000000`. At most 18 fraction digits
  /// are kept in `f` and `t` (their visible count `v` is exact).
  public init(_ value: Double) {
    isInteger = false
    let magnitude = abs(value)
    n = magnitude
    guard magnitude.isFinite else {
      (i, v, f, t) = (0, 0, 0, 0)
      return
    }
    let (integerDigits, fractionDigits) = Self.plainDecimal(magnitude)
    i = integerDigits.count > 19 ? UInt64.max : UInt64(integerDigits) ?? UInt64.max
    let fraction = Substring(fractionDigits)
    v = fraction.count
    f = UInt64(fraction.prefix(18)) ?? 0
    var trimmed = fraction
    while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
    t = UInt64(trimmed.prefix(18)) ?? 0
  }

  /// The integer and fraction digits of the shortest round-trip form of `magnitude` (finite,
  /// not negative), exponent expanded and a lone `.0` dropped: `1e-05` → ("0", "00001").
  static func plainDecimal(_ magnitude: Double) -> (integer: String, fraction: String) {
    let text = "\(magnitude)"   // "1.5", "2.0", "1e-05", "1.2e+20"
    var mantissa = Substring(text)
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = text[..<e]
      exponent = Int(text[text.index(after: e)...]) ?? 0
    }
    let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    var integer = String(parts[0])
    var fraction = parts.count > 1 ? String(parts[1]) : ""
    if exponent > 0 {
      let moved = min(exponent, fraction.count)
      integer += fraction.prefix(moved)
      fraction = String(fraction.dropFirst(moved))
      integer += String(repeating: "0", count: exponent - moved)
    } else if exponent < 0 {
      let moved = min(-exponent, integer.count)
      fraction = String(integer.suffix(moved)) + fraction
      integer = String(integer.dropLast(moved))
      fraction = String(repeating: "0", count: -exponent - moved) + fraction
    }
    while integer.count > 1 && integer.hasPrefix("0") { integer.removeFirst() }
    if integer.isEmpty { integer = "0" }
    if fraction.allSatisfy({ $0 == "0" }) { fraction = "" }
    return (integer, fraction)
  }

  /// Operands from a decimal string as written (`"1.50"` → v 2, f 50, t 5).
  public init?(decimal text: String) {
    var digits = Substring(text)
    if digits.hasPrefix("-") { digits = digits.dropFirst() }
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let integerPart = parts.first, !integerPart.isEmpty, integerPart.count <= 18,
      integerPart.allSatisfy({ $0.isASCII && $0.isNumber }), let integer = UInt64(integerPart)
    else { return nil }
    let fraction = parts.count > 1 ? parts[1] : ""
    guard fraction.count <= 18, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    i = integer
    v = fraction.count
    f = UInt64(fraction) ?? 0
    var trimmed = fraction
    while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
    t = UInt64(trimmed) ?? 0
    n = Double(digits) ?? Double(integer)
    isInteger = false
  }
}

/// CLDR's cardinal plural rules for every locale in CLDR (`PluralRuleTable.swift`, generated
/// from CLDR's data by Tools/cldr/generate_plural_rules.py; see ``cldrVersion``), evaluated by
/// UTS #35's rule syntax. A locale is looked up as language-script-region, language-region,
/// language-script, then language; a language CLDR has no rules for gets CLDR's root rule
/// (every number is `other`), never English's.
public enum PluralRules {
  /// The category of `operands` in `language` (a language identifier or `.lproj` name:
  /// `fr`, `pt_PT`, `zh-Hant`, `English`).
  public static func category(for operands: PluralOperands, language: String) -> PluralCategory {
    for (category, condition) in rules(for: language) where condition.holds(for: operands) {
      return category
    }
    return .other
  }

  /// The rules of `language`, parsed once per locale.
  static func rules(for language: String) -> [(PluralCategory, PluralCondition)] {
    guard let tag = LanguageTag(language) else { return [] }
    var candidates: [String] = []
    if let script = tag.script, let region = tag.region { candidates.append("\(tag.language)-\(script)-\(region)") }
    if let region = tag.region { candidates.append("\(tag.language)-\(region)") }
    if let script = tag.script { candidates.append("\(tag.language)-\(script)") }
    candidates.append(tag.language)
    for candidate in candidates {
      if let rules = parsedTable[candidate] { return rules }
    }
    return []
  }

  /// ``ruleTable`` parsed: locale → (category, condition) in CLDR's order.
  static let parsedTable: [String: [(PluralCategory, PluralCondition)]] = {
    var table: [String: [(PluralCategory, PluralCondition)]] = [:]
    for line in ruleTable {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      var rules: [(PluralCategory, PluralCondition)] = []
      for field in fields.dropFirst() {
        guard let colon = field.firstIndex(of: ":"), let category = PluralCategory(rawValue: String(field[..<colon])),
          let condition = PluralCondition(parsing: String(field[field.index(after: colon)...]))
        else { preconditionFailure("PluralRuleTable: cannot parse \(field)") }
        rules.append((category, condition))
      }
      table[String(fields[0])] = rules
    }
    return table
  }()
}

/// One CLDR plural condition (UTS #35 §5.1): relations joined by `and`, alternatives by `or`,
/// on the operands `n i v w f t c e`, with `mod`/`%`, `=`/`in`/`is`, `!=`/`not in`/`is not`,
/// `within`, value lists and ranges.
struct PluralCondition: Sendable {
  struct Relation: Sendable {
    var operand: Character
    var modulus: UInt64?
    var negated: Bool
    /// `within` accepts any n in the range, not only whole ones.
    var within: Bool
    var ranges: [ClosedRange<UInt64>]
  }

  /// `or` of `and`s.
  var alternatives: [[Relation]]

  init?(parsing text: String) {
    let words = Self.words(of: text)
    var index = 0
    func peek() -> String? { index < words.count ? words[index] : nil }
    func next() -> String? {
      defer { index += 1 }
      return peek()
    }
    var alternatives: [[Relation]] = [[]]
    while let operandWord = next() {
      guard operandWord.count == 1, let operand = operandWord.first, "nivwftce".contains(operand) else { return nil }
      var modulus: UInt64?
      if peek() == "mod" || peek() == "%" {
        index += 1
        guard let word = next(), let value = UInt64(word) else { return nil }
        modulus = value
      }
      var negated = false
      var within = false
      switch next() {
      case "=", "in": break
      case "!=": negated = true
      case "is": if peek() == "not" { index += 1; negated = true }
      case "not":
        negated = true
        switch next() {
        case "in": break
        case "within": within = true
        default: return nil
        }
      case "within": within = true
      default: return nil
      }
      var ranges: [ClosedRange<UInt64>] = []
      repeat {
        if peek() == "," { index += 1 }
        guard let word = next(), let low = UInt64(word) else { return nil }
        var high = low
        if peek() == ".." {
          index += 1
          guard let word = next(), let value = UInt64(word), value >= low else { return nil }
          high = value
        }
        ranges.append(low...high)
      } while peek() == ","
      alternatives[alternatives.count - 1].append(
        Relation(operand: operand, modulus: modulus, negated: negated, within: within, ranges: ranges))
      switch next() {
      case nil: break
      case "and": continue
      case "or": alternatives.append([])
      default: return nil
      }
    }
    guard alternatives.allSatisfy({ !$0.isEmpty }) else { return nil }
    self.alternatives = alternatives
  }

  /// The rule's words: names, numbers and the symbols `,` `..` `%` `=` `!=` on their own.
  static func words(of text: String) -> [String] {
    var words: [String] = []
    var current = ""
    let characters = Array(text)
    var index = 0
    func flush() {
      if !current.isEmpty { words.append(current) }
      current = ""
    }
    while index < characters.count {
      let character = characters[index]
      if character == " " {
        flush()
      } else if character == "," || character == "%" || character == "=" {
        flush()
        words.append(String(character))
      } else if character == "!" && index + 1 < characters.count && characters[index + 1] == "=" {
        flush()
        words.append("!=")
        index += 1
      } else if character == "." && index + 1 < characters.count && characters[index + 1] == "." {
        flush()
        words.append("..")
        index += 1
      } else {
        current.append(character)
      }
      index += 1
    }
    flush()
    return words
  }

  func holds(for operands: PluralOperands) -> Bool {
    alternatives.contains { relations in relations.allSatisfy { $0.holds(for: operands) } }
  }
}

extension PluralCondition.Relation {
  func holds(for operands: PluralOperands) -> Bool {
    let integral: UInt64
    var whole = true
    switch operand {
    case "n":
      // n is the absolute value; with a fraction it equals no integer (but lies `within` ranges).
      whole = operands.f == 0 && operands.t == 0
      integral = operands.i
    case "i": integral = operands.i
    case "v": integral = UInt64(operands.v)
    case "w": integral = UInt64(Self.digitCount(operands))
    case "f": integral = operands.f
    case "t": integral = operands.t
    default: integral = 0   // c and e: no compact exponent in plain numbers
    }
    var value = integral
    if let modulus, modulus != 0 { value %= modulus }
    let inRanges: Bool
    if whole {
      inRanges = ranges.contains { $0.contains(value) }
    } else {
      // A fractional n (or n mod m) equals no integer; `within` asks only for the range.
      inRanges = within && ranges.contains { value >= $0.lowerBound && value < $0.upperBound }
    }
    return inRanges != negated
  }

  /// w: the number of visible fraction digits without trailing zeros.
  static func digitCount(_ operands: PluralOperands) -> Int {
    guard operands.t != 0 else { return 0 }
    var digits = operands.v
    var f = operands.f
    while f % 10 == 0 && f != 0 && digits > 0 {
      f /= 10
      digits -= 1
    }
    return digits
  }
}
