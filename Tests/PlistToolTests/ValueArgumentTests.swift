import Foundation
import PropertyLists
import Testing

@testable import PlistTool

/// The value arguments of -insert/-replace, checked against what the toolchain's plutil does
/// with the same text (see Docs/plutil.md for the two deliberate differences).
@Suite("plutil value arguments")
struct ValueArgumentTests {
  @Test(arguments: [
    (" 12", Int64(12)), ("+7", 7), ("-0", 0), ("12abc", 12), ("abc", 0), ("", 0), ("  -42  ", -42), ("1e5", 1),
    ("--5", 0), ("+-5", 0), ("0x10", 0), ("-9223372036854775808", .min), ("-9223372036854775809", .min),
    ("9223372036854775807", .max), ("18446744073709551615", .max), ("99999999999999999999999", .max),
    ("\t\n3", 3),
  ])
  func integers(text: String, expected: Int64) {
    #expect(InsertedValueReader.integerPrefix(of: text) == expected)
  }

  @Test(arguments: [
    (" 12", 12.0), ("1e5", 100_000), (".5", 0.5), ("-.5e-3", -0.0005), ("abc", 0), ("", 0), ("+7", 7), ("1,5", 1),
    ("1e400", .infinity), ("-1e400", -.infinity), ("  -3.25xyz", -3.25), ("inf", 0), ("nan", 0), ("0x10", 0),
    ("1e", 1), ("1.5e+", 1.5), ("5.", 5), ("-", 0), (".", 0), ("1e-400", 0),
  ])
  func floats(text: String, expected: Double) {
    #expect(InsertedValueReader.doublePrefix(of: text) == expected)
  }

  @Test(arguments: [
    ("aGVsbG8=", "hello"), ("aGVs bG8=", "hello"), ("aGVsbG8=!!", "hello"), ("!aGVsbG8=", "hello"), ("", ""),
    ("ab==", "i"), ("ab==cd==", "i"), ("YQ==YQ==", "a"), ("aGVs\nbG8=", "hello"), ("aGVsbG8h", "hello!"),
  ])
  func base64(text: String, expected: String) {
    #expect(InsertedValueReader.base64Decoded(text) == Data(expected.utf8))
  }

  @Test(arguments: ["aGVsbG8", "a", "ab=", "ab", "abc", "a=b=", "!!!", "====", "ab=c", "a==="])
  func badBase64(text: String) {
    #expect(InsertedValueReader.base64Decoded(text) == nil)
  }

  @Test func bytesAbove127AreSkippedLikeOtherUnknownCharacters() {
    #expect(InsertedValueReader.base64Decoded("aGVs\u{E9}bG8=") == Data("hello".utf8))
  }

  @Test(arguments: [("YES", true), ("yes", true), ("true", true), ("TRUE", true), ("1", false), ("no", false), ("", false), ("y", false)])
  func bools(text: String, expected: Bool) throws {
    #expect(try InsertedValueReader().value(ofType: "-bool", from: text) == .bool(expected))
  }

  @Test func stringsAreTakenAsIs() throws {
    #expect(try InsertedValueReader().value(ofType: "-string", from: "-5 \\n é") == "-5 \\n é")
  }
}
