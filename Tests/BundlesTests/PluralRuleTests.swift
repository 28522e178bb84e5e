import Bundles
import Testing

/// CLDR 48 cardinal rules for 0, 1, 2, 3, 5, 11, 21, 22, 101 and 1.5, written from the rules in
/// `plurals.xml` (and their published samples: pl "many: 0, 5~19, 100…", cs "many: @decimal
/// 0.0~1.5", ar "other: 100~102…", he "other: 0, 3~17…", fr "one: i = 0,1 @decimal 0.0~1.5").
@Suite struct PluralRuleTests {
  static let numbers: [String] = ["0", "1", "2", "3", "5", "11", "21", "22", "101", "1.5"]

  static let expected: [(language: String, categories: [PluralCategory])] = [
    ("en", [.other, .one, .other, .other, .other, .other, .other, .other, .other, .other]),
    ("de", [.other, .one, .other, .other, .other, .other, .other, .other, .other, .other]),
    ("it", [.other, .one, .other, .other, .other, .other, .other, .other, .other, .other]),
    ("es", [.other, .one, .other, .other, .other, .other, .other, .other, .other, .other]),
    ("fr", [.one, .one, .other, .other, .other, .other, .other, .other, .other, .one]),
    ("pt", [.one, .one, .other, .other, .other, .other, .other, .other, .other, .one]),
    ("pt-PT", [.other, .one, .other, .other, .other, .other, .other, .other, .other, .other]),
    ("ru", [.many, .one, .few, .few, .many, .many, .one, .few, .one, .other]),
    ("uk", [.many, .one, .few, .few, .many, .many, .one, .few, .one, .other]),
    ("pl", [.many, .one, .few, .few, .many, .many, .many, .few, .many, .other]),
    ("cs", [.other, .one, .few, .few, .other, .other, .other, .other, .other, .many]),
    ("ar", [.zero, .one, .two, .few, .few, .many, .many, .many, .other, .other]),
    ("he", [.other, .one, .two, .other, .other, .other, .other, .other, .other, .other]),
    ("ja", Array(repeating: .other, count: 10)),
    ("zh-Hans", Array(repeating: .other, count: 10)),
    ("zh_TW", Array(repeating: .other, count: 10)),
    ("ko", Array(repeating: .other, count: 10)),
  ]

  @Test(arguments: expected.map(\.language))
  func matchesCLDR(_ language: String) {
    let categories = Self.expected.first { $0.language == language }!.categories
    for (number, category) in zip(Self.numbers, categories) {
      let operands = number.contains(".") ? PluralOperands(Double(number)!) : PluralOperands(Int(number)!)
      #expect(PluralRules.category(for: operands, language: language) == category, "\(language) \(number)")
    }
  }

  @Test func operandsFollowTheWrittenForm() {
    let written = PluralOperands(decimal: "1.50")!
    #expect(written.i == 1 && written.v == 2 && written.f == 50 && written.t == 5)
    let double = PluralOperands(0.25)
    #expect(double.i == 0 && double.v == 2 && double.f == 25)
    #expect(PluralOperands(2.0).v == 0)
    // Visible fraction digits change the category: "1.0" is not "one" in English or Russian.
    #expect(PluralRules.category(for: PluralOperands(decimal: "1.0")!, language: "en") == .other)
    #expect(PluralRules.category(for: PluralOperands(decimal: "1.0")!, language: "es") == .one)  // es: n = 1
    #expect(PluralRules.category(for: PluralOperands(decimal: "0.5")!, language: "he") == .one)  // he: i = 0 and v != 0
    #expect(PluralRules.category(for: PluralOperands(decimal: "2.5")!, language: "cs") == .many)
    #expect(PluralRules.category(for: PluralOperands(1_000_000), language: "fr") == .many)
    #expect(PluralRules.category(for: PluralOperands(1_000_000), language: "es") == .many)
    #expect(PluralRules.category(for: PluralOperands(-1), language: "en") == .one)
    #expect(PluralOperands(decimal: "x1") == nil)
  }

  @Test func zeroVariantForIntegerZeroOnly() throws {
    let format = LocalizedFormat(
      format: "%#@n@", variables: ["n": .init(ruleType: "NSStringPluralRuleType", valueType: "f", variants: ["zero": "none", "one": "%.1f one", "other": "%.1f many"])],
      language: "en")
    #expect(try format.formatted(0) == "none")
    #expect(try format.formatted(0.0) == "0.0 many")  // a floating 0 selects by CLDR: other
    #expect(try format.formatted(1.0) == "1.0 one")
    #expect(try format.formatted(1.5) == "1.5 many")
  }
}
