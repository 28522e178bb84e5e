import Foundation
import PropertyLists
import TestSupport
import Testing

private func jsonText(_ value: PropertyListValue, _ options: PropertyListWritingOptions = .default) throws(PropertyListError) -> String {
  String(decoding: try value.encodedBytes(as: .json, options: options), as: UTF8.self)
}

/// What a value reads back as after a trip through JSON as plutil writes it: a real with an
/// integral value of at most 2^53 is written without a fraction (`1.0` → `1`), so it comes back
/// as an integer. Everything else is unchanged.
func jsonTripExpectation(_ value: PropertyListValue) -> PropertyListValue {
  switch value {
  case .real(let real, _) where real.rounded() == real && abs(real) <= 9_007_199_254_740_992:
    return .integer(PropertyListInteger(Int64(real)))
  case .array(let elements):
    return .array(elements.map(jsonTripExpectation))
  case .dictionary(let dictionary):
    return .dictionary(PropertyListDictionary(keys: dictionary.keys, values: dictionary.values.map(jsonTripExpectation)))
  default:
    return value
  }
}

@Suite("JSON writer")
struct JSONWriterTests {
  static let sample: PropertyListValue = [
    "b/slash": "a/b \"q\" \\ é 😀 \u{1} \u{7F} \u{2028}\ttab",
    "a": [0.1, 1.0, 1e300, -0.0, 1.5e-7, 123456789012345678.0, 3.14159, 100.0, 1e16, 1e15, 2.5e-5, 0.0001],
    "i": [.integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64.max)), 0],
    "t": true,
    "f": false,
    "e": [:],
    "ea": [],
  ]

  /// The output of `plutil -convert json` for the same value (keys in this dictionary's order
  /// instead of plutil's hash order).
  @Test func compact() throws {
    let expected = #"{"b\/slash":"a\/b \"q\" \\ é 😀 \u0001 "# + "\u{7F} \u{2028}" + #"\ttab","a":[0.1,1,1e+300,-0,1.5e-07,1.2345678901234568e+17,3.14159,100,1e+16,1000000000000000,2.5e-05,0.0001],"i":[-9223372036854775808,18446744073709551615,0],"t":true,"f":false,"e":{},"ea":[]}"#
    #expect(try jsonText(Self.sample) == expected)
  }

  /// Byte for byte what `plutil -convert json -r` printed for the same value.
  @Test func prettyPrintedAndSorted() throws {
    let expected = """
      {
        "a" : [
          0.1,
          1,
          1e+300,
          -0,
          1.5e-07,
          1.2345678901234568e+17,
          3.14159,
          100,
          1e+16,
          1000000000000000,
          2.5e-05,
          0.0001
        ],
        "b\\/slash" : "a\\/b \\"q\\" \\\\ é 😀 \\u0001 \u{7F} \u{2028}\\ttab",
        "e" : {

        },
        "ea" : [

        ],
        "f" : false,
        "i" : [
          -9223372036854775808,
          18446744073709551615,
          0
        ],
        "t" : true
      }
      """
    #expect(try jsonText(Self.sample, .init(prettyPrinted: true, sortedKeys: true)) == expected)
  }

  @Test func emptyAndNestedContainers() throws {
    let pretty = PropertyListWritingOptions(prettyPrinted: true, sortedKeys: true)
    #expect(try jsonText([:], pretty) == "{\n\n}")
    #expect(try jsonText([], pretty) == "[\n\n]")
    #expect(try jsonText([], .default) == "[]")
    #expect(try jsonText([[], [[1]], [:], ["a": [:]]], pretty) == "[\n  [\n\n  ],\n  [\n    [\n      1\n    ]\n  ],\n  {\n\n  },\n  {\n    \"a\" : {\n\n    }\n  }\n]")
  }

  @Test func controlCharacterEscapes() throws {
    let string = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }) + "\u{7F}\u{2028}\u{2029}\u{FEFF}\"\\/"
    let expected = #"["\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f"#
      + "\u{7F}\u{2028}\u{2029}\u{FEFF}" + #"\"\\\/"]"#
    #expect(try jsonText([.string(string)]) == expected)
  }

  @Test func realFormatting() throws {
    let cases: [(Double, String)] = [
      (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"), (0.1 + 0.2, "0.30000000000000004"),
      (1e-5, "1e-05"), (123456.789, "123456.789"), (9007199254740992, "9007199254740992"), (1e21, "1e+21"),
      (-1.5, "-1.5"), (18014398509481984, "1.8014398509481984e+16"), (1000000000000000.5, "1000000000000000.5"),
      (9999999999999998, "9.999999999999998e+15"), (0.00011, "0.00011"), (1e-7, "1e-07"),
      (9223372036854775808, "9.223372036854776e+18"), (-1e16, "-1e+16"),
    ]
    for (real, text) in cases {
      #expect(try jsonText([.real(real)]) == "[\(text)]", "\(real)")
    }
  }

  /// 32-bit reals are written from their Float value, as plutil does.
  @Test func singleWidthReals() throws {
    let values: [Float] = [0.1, 1.5, .greatestFiniteMagnitude, 1e-7, 16777216, 0.3]
    let text = try jsonText(.array(values.map { .real(Double($0), width: .single) }))
    #expect(text == "[0.1,1.5,3.4028235e+38,1e-07,16777216,0.3]")
  }

  @Test func unrepresentableValuesNameTheirKeyPath() {
    let cases: [(PropertyListValue, String, String)] = [
      (["x": [1, ["y": .date(Date(timeIntervalSinceReferenceDate: 0))]]], "date", "x.1.y"),
      (["blob": .data(Data([1]))], "data", "blob"),
      ([.uid(1)], "UID", "0"),
      (["n": [.real(.nan)]], "nan", "n.0"),
      (["a.b": .real(.infinity)], "inf", "a\\.b"),
    ]
    for (value, what, path) in cases {
      let error = expectError(PropertyListError.self, .unrepresentable, "\(what) should not be writable as JSON") {
        try value.encodedBytes(as: .json)
      }
      if let error {
        #expect(error.format == .json)
        #expect(error.detail.contains(what), "\(error)")
        #expect(error.detail.contains("\"\(path)\""), "\(error)")
      }
    }
  }

  @Test func topLevelMustBeAContainer() {
    for value: PropertyListValue in ["s", 1, 1.5, true] {
      expectError(PropertyListError.self, .unrepresentable, "\(value)") { try value.encodedBytes(as: .json) }
    }
  }

  /// plutil -r's key order, observed on this machine's plutil for these keys.
  @Test func sortedKeyOrderMatchesPlutil() throws {
    let observed: [String] = [
      "\t", "\n", " ", "_", "-", ",", ";", ":", "!", "?", ".", "'", "\"", "(", ")", "[", "]", "{", "}", "@", "*", "/",
      "\\", "&", "#", "%", "`", "^", "+", "<", "=", ">", "|", "~", "😀", "$", "0", "1", "01", "001", "2", "3", "4", "5", "6",
      "7", "8", "9", "９", "10", "a", "a\u{0}", "a\u{1}", "ａ", "A", "a b", "a_b", "a-b", "a1", "a01", "A1", "a2", "a10",
      "ab", "aB", "Ab", "AB", "ab1", "b", "B", "c", "C", "d", "D", "e", "E", "é", "f", "F", "g", "G", "h", "H", "i", "I",
      "j", "J", "k", "K", "l", "L", "m", "M", "n", "N", "o", "O", "p", "P", "q", "Q", "r", "R", "s", "S", "ſ", "ss",
      "ß", "t", "T", "u", "U", "v", "V", "w", "W", "x", "X", "x\ty", "x y", "y", "Y", "z", "Z", "ω", "Ω", "中", "日",
    ]
    let observedWithGeneratorAlphabet: [String] = [
      "\u{1}", "\u{7F}", "\t", "\n", "\u{2028}", " ", "_", "-", ",", ";", ":", ".", "'", "\"", "(", ")", "{", "}", "/",
      "\\", "&", "<", "=", ">", "🇯🇵", "😀", "$", "0", "1", "9", "a", "b", "c", "e", "E", "é", "n", "N", "ñ", "o", "s",
      "ss", "ß", "X", "Y", "Z", "ω", "Ω", "中", "文",
    ]
    for expected in [observed, observedWithGeneratorAlphabet] {
      var rng = SplitMix64(seed: 1)
      let shuffled = expected.shuffled(using: &rng)
      let dictionary = PropertyListValue.dictionary(PropertyListDictionary(keys: shuffled, values: shuffled.indices.map { .integer($0) }))
      let bytes = try dictionary.encodedBytes(as: .json, options: .init(prettyPrinted: true, sortedKeys: true))
      // Read the keys back in file order by scanning the pretty output's key lines.
      let keysInOrder = try orderOfKeys(in: bytes)
      #expect(keysInOrder == expected)
    }
  }

  /// The keys of a flat pretty-printed object, in the order they appear.
  private func orderOfKeys(in bytes: [UInt8]) throws -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    var keys: [String] = []
    for line in text.split(separator: "\n").dropFirst().dropLast() {
      let entry = "{" + line.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ",")) + "}"
      let value = try PropertyListValue(decoding: Array(entry.utf8), format: .json)
      keys += value.dictionaryValue?.keys ?? []
    }
    return keys
  }

  @Test(arguments: 0..<500 as Range<UInt64>)
  func generatedValuesRoundTrip(seed: UInt64) throws {
    var generator = RandomPropertyList(seed: seed, kinds: .json)
    let document = generator.document()
    let expected = jsonTripExpectation(document)
    for options in [PropertyListWritingOptions.default, .init(prettyPrinted: true, sortedKeys: true), .init(prettyPrinted: false, sortedKeys: true)] {
      let bytes = try document.encodedBytes(as: .json, options: options)
      let read = try PropertyListValue(decoding: bytes, format: .json)
      #expect(read == expected, "seed \(seed), \(options)")
      // Writing what was read gives the same bytes.
      #expect(try read.encodedBytes(as: .json, options: options) == bytes, "seed \(seed), \(options)")
    }
  }
}
