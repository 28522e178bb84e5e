import Bundles
import Testing
import TestSupport
import StasisSystem

@Suite struct StringFormatTests {
  static let cases: [(String, [FormatValue], String)] = [
    ("%@ and %@", [.string("a"), .string("b")], "a and b"),
    ("%d %i %u", [.int(-5), .int(7), .uint(9)], "-5 7 9"),
    ("%ld %lld %lu %qd", [.int(1 << 40), .int(-(1 << 40)), .uint(UInt64.max), .int(3)], "1099511627776 -1099511627776 18446744073709551615 3"),
    ("%x %X %o %#x %#o", [.int(255), .int(255), .int(8), .int(255), .int(8)], "ff FF 10 0xff 010"),
    ("%f|%.2f|%e|%g|%G", [.double(3.14159), .double(2.005), .double(12345.678), .double(0.0001), .double(1e20)], "3.141590|2.00|1.234568e+04|0.0001|1E+20"),
    ("%c%C%s", [.character("A"), .int(0x00E9), .string("xyz")], "Aéxyz"),
    ("100%%", [], "100%"),
    ("%1$@ %2$d %1$@", [.string("x"), .int(2)], "x 2 x"),
    ("%2$@ sent %1$d", [.int(3), .string("Ann")], "Ann sent 3"),
    ("[%5d][%-5d][%05d][%+d][% d]", [.int(42), .int(42), .int(-42), .int(42), .int(42)], "[   42][42   ][-0042][+42][ 42]"),
    ("[%8.3f][%-8.2f][%08.2f]", [.double(3.14159), .double(2.5), .double(-2.5)], "[   3.142][2.50    ][-0002.50]"),
    ("[%10@][%-4@][%.2@]", [.string("right"), .string("ab"), .string("truncate")], "[     right][ab  ][tr]"),
    ("[%*d][%-*d]", [.int(4), .int(7), .int(3), .int(1)], "[   7][1  ]"),
    ("%.3d|%.0d|%'d|%'.2f", [.int(7), .int(0), .int(1234567), .double(1234.5)], "007||1234567|1234.50"),  // ' groups nothing in the C locale
    ("%hhd %hd", [.int(300), .int(70000)], "44 4464"),
    ("%@ %@ %@", [.null, .double(1.5), .int(3)], "(null) 1.5 3"),
    ("%p", [.uint(0xdead)], "0xdead"),
    ("日本 %@ 語", [.string("ü")], "日本 ü 語"),
    ("%s", [.null], "(null)"),
  ]

  @Test(arguments: 0 ..< cases.count)
  func formats(_ index: Int) throws {
    let (format, arguments, expected) = Self.cases[index]
    #expect(try StringFormat.format(format, arguments) == expected)
  }

  @Test func longFloatingPointOutputIsNotCut() throws {
    let text = try StringFormat.format("%.300f", [.double(1e308)])
    #expect(text.utf8.count == 309 + 1 + 300)
    #expect(text.hasPrefix("1000000000000000010979") && text.hasSuffix("000"))
    #expect(try StringFormat.format("%a|%e", [.double(1), .double(-.infinity)]) == "0x1p+0|-inf")
  }

  @Test func swiftValues() throws {
    #expect(try StringFormat.format("%d %@ %.1f %c %d", 3, "x", 2.25, Character("z"), true) == "3 x 2.2 z 1")
    let missing: String? = nil
    #expect(try StringFormat.format("%@", missing) == "(null)")
  }

  @Test func mismatchesAreTypedErrorsNamingTheSpecifier() throws {
    let tooFew = expectError(BundleError.self, .formatMismatch) { try StringFormat.format("%@ and %@", [.string("a")]) }
    #expect(tooFew?.detail.contains("%@") == true)
    let wrongType = expectError(BundleError.self, .formatMismatch) { try StringFormat.format("%2$d", [.int(1), .string("x")]) }
    #expect(wrongType?.detail.contains("%2$d") == true)
    #expect(wrongType?.detail.contains("a string") == true)
    expectError(BundleError.self, .formatMismatch) { try StringFormat.format("%f", [.int(1)]) }
    expectError(BundleError.self, .formatMismatch) { try StringFormat.format("%d", [.double(1)]) }
    expectError(BundleError.self, .formatMismatch) { try StringFormat.format("%s", [.int(1)]) }
    expectError(BundleError.self, .formatMismatch) { try StringFormat.format("%3$@", [.int(1)]) }
    expectError(BundleError.self, .invalidFormat) { try StringFormat.format("%1$@ %@", [.int(1), .int(2)]) }
    expectError(BundleError.self, .invalidFormat) { try StringFormat.format("50%", []) }
    expectError(BundleError.self, .invalidFormat) { try StringFormat.format("%k", [.int(1)]) }
    expectError(BundleError.self, .invalidFormat) { try StringFormat.format("%0$d", [.int(1)]) }
    expectError(BundleError.self, .invalidFormat) { try StringFormat.format("%#@unclosed", [.int(1)]) }
    #expect(StringFormat.formatOrReturnFormat("%d%d", [.int(1)]) == "%d%d")
    // Extra arguments are allowed: a variant may not print its number.
    #expect(try StringFormat.format("one file", [.int(1)]) == "one file")
  }

  @Test func stringsdictVariablesWithPositions() throws {
    let plural = LocalizedFormat.Variable(
      ruleType: "NSStringPluralRuleType", valueType: "ld", variants: ["one": "%2$ld day", "other": "%2$ld days"])
    let format = LocalizedFormat(format: "%1$@ in %2$#@days@", variables: ["days": plural], language: "en")
    #expect(try format.formatted("Paris", 1) == "Paris in 1 day")
    #expect(try format.formatted("Paris", 3) == "Paris in 3 days")
    expectError(BundleError.self, .formatMismatch) { try format.formatted("Paris") }
    expectError(BundleError.self, .formatMismatch) { try format.formatted("Paris", "three") }
    let russian = LocalizedFormat(
      format: "%#@files@",
      variables: ["files": .init(ruleType: "NSStringPluralRuleType", valueType: "d",
                                 variants: ["one": "%d файл", "few": "%d файла", "many": "%d файлов", "other": "%d файла"])],
      language: "ru")
    #expect(try [1, 2, 5, 11, 21, 22, 101].map { try russian.formatted($0) }
      == ["1 файл", "2 файла", "5 файлов", "11 файлов", "21 файл", "22 файла", "101 файл"])
    let device = LocalizedFormat(
      format: "Tap %#@action@", variables: ["action": .init(ruleType: "NSStringDeviceSpecificRuleType", valueType: nil, variants: ["ipad": "here", "other": "there"])],
      language: "en", device: "ipad")
    #expect(try device.formatted() == "Tap here")
    let unknown = LocalizedFormat(format: "%#@nope@", variables: [:], language: "en")
    expectError(BundleError.self, .invalidFormat) { try unknown.formatted(1) }
  }
}
