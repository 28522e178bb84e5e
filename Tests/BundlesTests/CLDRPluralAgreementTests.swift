import Foundation
import Testing
import TestSupport

@testable import Bundles

/// Issue 14, finding 4: plural categories equal CLDR's (through Babel, an implementation
/// nobody here wrote) for every locale in CLDR, on the integers 0…1000, the doubles 0.00001…1e6
/// at every decade, and decimal strings with visible fraction digits.
@Suite("Plural rules agree with CLDR for every locale")
struct CLDRPluralAgreementTests {
  static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Oracles/cldr_plurals.py").path

  /// Whether python3 with Babel is here (`.ci/run` installs it).
  static let babelAvailable = PythonModule.isAvailable("babel")

  enum Case {
    case integer(Int), double(Double), decimal(String)

    var oracleLine: String {
      switch self {
      case .integer(let value): "int:\(value)"
      case .double(let value): "double:\(value)"
      case .decimal(let text): "decimal:\(text)"
      }
    }

    var operands: PluralOperands {
      switch self {
      case .integer(let value): PluralOperands(value)
      case .double(let value): PluralOperands(value)
      case .decimal(let text): PluralOperands(decimal: text)!
      }
    }
  }

  static let cases: [Case] =
    (0...1000).map { .integer($0) }
    + [1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1000, 1e4, 1e5, 1e6].map { .double($0) }
    + ["1.0", "1.50", "0.00", "0.0", "2.0", "1.5", "0.5", "10.00", "11.0", "21.00", "101.1", "1.05", "2.10", "3.25", "1000000.0"]
    .map { .decimal($0) }

  static let letters: [PluralCategory: Character] = [.zero: "z", .one: "o", .two: "t", .few: "f", .many: "m", .other: "x"]

  @Test(.enabled(if: babelAvailable, "python3 with Babel is not installed (pip install babel==2.18.0); CLDR oracle skipped"))
  func everyLocaleAgreesWithCLDR() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Self.oracle]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(Self.cases.map(\.oracleLine).joined(separator: "\n").utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    var locales = 0
    var compared = 0
    var mismatches: [String] = []
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 2 else { continue }
      if fields[0] == "cldr" {
        #expect(String(fields[1]) == PluralRules.cldrVersion, "the table is CLDR \(PluralRules.cldrVersion), Babel has \(fields[1])")
        continue
      }
      locales += 1
      let expected = Array(fields[1])
      for (index, item) in Self.cases.enumerated() {
        compared += 1
        let actual = Self.letters[PluralRules.category(for: item.operands, language: String(fields[0]))]!
        if actual != expected[index], mismatches.count < 30 {
          mismatches.append("\(fields[0]) \(item.oracleLine): CLDR \(expected[index]), Stasis \(actual)")
        }
      }
    }
    print("plural rules vs CLDR \(PluralRules.cldrVersion): \(locales) locales × \(Self.cases.count) cases = \(compared), \(mismatches.count) mismatches")
    #expect(locales > 1000)
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }

  /// The cases the issue named, without the oracle.
  @Test func theIssuesCases() {
    func category(_ operands: PluralOperands, _ language: String) -> PluralCategory { PluralRules.category(for: operands, language: language) }
    #expect(category(PluralOperands(decimal: "1.5")!, "da") == .one)
    #expect(category(PluralOperands(decimal: "1.0")!, "be") == .one)
    #expect(category(PluralOperands(decimal: "2.0")!, "be") == .few)
    #expect(category(PluralOperands(decimal: "0.0")!, "be") == .many)
    #expect(category(PluralOperands(1), "yue") == .other)
    #expect(category(PluralOperands(0), "hi") == .one)
    #expect(category(PluralOperands(0), "fa") == .one)
    #expect(category(PluralOperands(0), "bn") == .one)
    #expect(category(PluralOperands(21), "lt") == .one)
    #expect(category(PluralOperands(1e-5), "pl") == .other, "0.00001 has v = 5")
    #expect(category(PluralOperands(1e-5), "ru") == .other)
    #expect(category(PluralOperands(1e-5), "cs") == .many)
    #expect(category(PluralOperands(1), "xx-unknown") == .other, "an unknown language gets the root rule, not English's")
    #expect(category(PluralOperands(1), "tlh") == .other)
  }

  @Test func plainDecimals() {
    #expect(PluralOperands.plainDecimal(1e-5) == ("0", "00001"))
    #expect(PluralOperands.plainDecimal(2.0) == ("2", ""))
    #expect(PluralOperands.plainDecimal(1.2e20) == ("120000000000000000000", ""))
    #expect(PluralOperands.plainDecimal(1.25e-7) == ("0", "000000125"))
    #expect(PluralOperands.plainDecimal(123.456) == ("123", "456"))
  }
}
