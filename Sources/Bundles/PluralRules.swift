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

  /// The operands of a floating-point number as written in its shortest round-trip decimal form
  /// (`1.5` → v 1, f 5; `2.0` → v 0, like the integer 2; `0.25` → v 2, f 25).
  public init(_ value: Double) {
    isInteger = false
    let magnitude = abs(value)
    n = magnitude
    guard magnitude.isFinite, magnitude < 1e18 else {
      i = magnitude.isFinite ? UInt64.max : 0
      v = 0
      f = 0
      t = 0
      return
    }
    i = UInt64(magnitude.rounded(.towardZero))
    let text = "\(magnitude)"   // shortest round-trip form, e.g. "1.5", "2.0", "1e-05"
    var fraction = ""
    if let dot = text.firstIndex(of: "."), !text.contains("e") {
      fraction = String(text[text.index(after: dot)...])
      if fraction == "0" { fraction = "" }
    }
    v = fraction.count
    f = UInt64(fraction.prefix(18)) ?? 0
    var trimmed = fraction
    while trimmed.hasSuffix("0") { trimmed.removeLast() }
    t = UInt64(trimmed.prefix(18)) ?? 0
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

/// CLDR cardinal plural rules (CLDR 48 `plurals.xml`) for the languages Stasis ships: en, de,
/// nl, sv, da, it, es, fr, pt (and pt-PT), ru, uk, pl, cs, ar, he, ja, zh, ko, and the others
/// with the same rule sets. Languages not listed fall back to English's rule.
public enum PluralRules {
  /// The category of `operands` in `language` (a language identifier or `.lproj` name:
  /// `fr`, `pt_PT`, `zh-Hant`, `English`).
  public static func category(for operands: PluralOperands, language: String) -> PluralCategory {
    let tag = LanguageTag(language)
    let code = tag?.language ?? "en"
    let n = operands.n, i = operands.i, v = operands.v
    let isWhole = n == n.rounded(.towardZero)
    // n % 100 etc. only equal an integer range for whole n.
    let n10 = isWhole ? UInt64(n.truncatingRemainder(dividingBy: 10)) : UInt64.max
    let n100 = isWhole ? UInt64(n.truncatingRemainder(dividingBy: 100)) : UInt64.max
    let i10 = i % 10, i100 = i % 100
    let millions = v == 0 && i != 0 && i % 1_000_000 == 0
    switch code {
    case "ja", "zh", "ko", "th", "vi", "id", "ms", "my", "lo", "km":
      return .other
    case "fr":
      // one: i = 0,1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0
      if i == 0 || i == 1 { return .one }
      return millions ? .many : .other
    case "pt":
      if tag?.region == "PT" {
        if i == 1 && v == 0 { return .one }
        return millions ? .many : .other
      }
      // one: i = 0..1
      if i <= 1 { return .one }
      return millions ? .many : .other
    case "es":
      // one: n = 1
      if n == 1 { return .one }
      return millions ? .many : .other
    case "it", "ca":
      if i == 1 && v == 0 { return .one }
      return millions ? .many : .other
    case "ru", "uk", "be":
      guard v == 0 else { return .other }
      if i10 == 1 && i100 != 11 { return .one }
      if (2...4).contains(i10) && !(12...14).contains(i100) { return .few }
      return .many
    case "pl":
      if i == 1 && v == 0 { return .one }
      guard v == 0 else { return .other }
      if (2...4).contains(i10) && !(12...14).contains(i100) { return .few }
      return .many
    case "cs", "sk":
      if i == 1 && v == 0 { return .one }
      if (2...4).contains(i) && v == 0 { return .few }
      if v != 0 { return .many }
      return .other
    case "ar":
      if n == 0 { return .zero }
      if n == 1 { return .one }
      if n == 2 { return .two }
      if (3...10).contains(n100) { return .few }
      if (11...99).contains(n100) { return .many }
      return .other
    case "he":
      // one: i = 1 and v = 0 or i = 0 and v != 0; two: i = 2 and v = 0
      if (i == 1 && v == 0) || (i == 0 && v != 0) { return .one }
      if i == 2 && v == 0 { return .two }
      return .other
    case "lv":
      let f = operands.f
      if n10 == 0 || (11...19).contains(n100) || (v == 2 && (11...19).contains(f % 100)) { return .zero }
      if (n10 == 1 && n100 != 11) || (v == 2 && f % 10 == 1 && f % 100 != 11) || (v != 2 && f % 10 == 1) { return .one }
      return .other
    default:
      // en, de, nl, sv, fi and the other languages whose rule is one: i = 1 and v = 0
      if i == 1 && v == 0 { return .one }
      return .other
    }
  }
}
