import Foundation
import PropertyLists
import TestSupport
import Testing

private func json(_ text: String, options: PropertyListReadingOptions = .default) throws(PropertyListError) -> PropertyListValue {
  try PropertyListValue(decoding: Array(text.utf8), format: .json, options: options)
}

private func expectJSONFailure(
  _ bytes: [UInt8], _ code: PropertyListError.Code, at offset: Int?, _ name: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let error = expectError(PropertyListError.self, code, "\(name)", sourceLocation: sourceLocation) {
    try PropertyListValue(decoding: bytes, format: .json)
  }
  if let error {
    #expect(error.format == .json, "\(name): \(error)", sourceLocation: sourceLocation)
    if let offset {
      #expect(error.position == .byteOffset(offset), "\(name): \(error)", sourceLocation: sourceLocation)
    }
  }
}

@Suite("JSON reader: values")
struct JSONReaderValueTests {
  @Test func containersAndScalars() throws {
    let value = try json(#" { "a" : [1, 2.5, "x", true, false, {}, []], "b": {"c": -7} } "#)
    #expect(value == ["a": [1, 2.5, "x", true, false, [:], []], "b": ["c": -7]])
    #expect(value.dictionaryValue?.keys == ["a", "b"])
  }

  @Test func anyValueAtTheTopLevel() throws {
    #expect(try json("1") == 1)
    #expect(try json(" \"s\" ") == "s")
    #expect(try json("true") == true)
    #expect(try json("-0.5") == -0.5)
  }

  @Test func integersAndReals() throws {
    #expect(try json("[1]") == [1])
    #expect(try json("[1.0]") == [.real(1)])
    #expect(try json("[1e2]") == [.real(100)])
    #expect(try json("[-0]") == [0])
    #expect(try json("[-0.0]") == [.real(-0.0)])
    #expect(try json("[9223372036854775807]") == [.integer(PropertyListInteger(Int64.max))])
    #expect(try json("[-9223372036854775808]") == [.integer(PropertyListInteger(Int64.min))])
    #expect(try json("[9223372036854775808]") == [.integer(PropertyListInteger(UInt64(1) << 63))])
    #expect(try json("[18446744073709551615]") == [.integer(PropertyListInteger(UInt64.max))])
    #expect(try json("[18446744073709551616]") == [.real(18446744073709551616.0)])
    #expect(try json("[-9223372036854775809]") == [.real(-9223372036854775809.0)])
    #expect(try json("[12345678901234567890123]") == [.real(1.2345678901234568e22)])
    #expect(try json("[-1.5E+3, 2.0e0, 1.5e-07, 0.1e-400]") == [.real(-1500), .real(2), .real(1.5e-7), .real(0)])
    #expect(try json("[0.30000000000000004]") == [.real(0.1 + 0.2)])
  }

  @Test func realsMatchTheStandardLibrarysConversion() throws {
    var rng = SplitMix64(seed: 42)
    for round in 0..<3000 {
      let double: Double
      switch round % 3 {
      case 0: double = Double(bitPattern: rng.next())
      case 1: double = Double.random(in: -1e6...1e6, using: &rng)
      default: double = Double(Int64.random(in: -1_000_000...1_000_000, using: &rng)) / 1000
      }
      guard double.isFinite else { continue }
      for text in [double.description, String(format: "%.17g", double), String(format: "%.6e", double), String(format: "%.3f", double)] {
        guard let expected = Double(text) else { continue }
        let hasFraction = text.contains(".") || text.contains("e")
        let read = try json("[\(text)]")
        if hasFraction {
          #expect(read == [.real(expected)], "\(text)")
        } else {
          #expect(read[0]?.doubleValue == expected, "\(text)")
        }
      }
    }
  }

  @Test func stringEscapes() throws {
    #expect(try json(#"["\"\\\/\b\f\n\r\t"]"#) == ["\"\\/\u{8}\u{C}\n\r\t"])
    #expect(try json(#"["\u00e9\u4E2D\u0000"]"#) == ["é中\u{0}"])
    #expect(try json(#"["\ud83d\ude00 x"]"#) == ["😀 x"])
    #expect(try json("[\"é 😀 \u{2028} \u{7F}\"]") == ["é 😀 \u{2028} \u{7F}"])
    #expect(try json(#"["long string without escapes, to exercise the word-at-a-time scanner"]"#)
      == ["long string without escapes, to exercise the word-at-a-time scanner"])
  }

  @Test func duplicateKeysLastWins() throws {
    #expect(try json(#"{"a":1,"b":2,"a":3}"#) == ["a": 3, "b": 2])
  }

  @Test func trailingCommasAsFoundationAcceptsThem() throws {
    #expect(try json("[1,]") == [1])
    #expect(try json(#"{"a":1,}"#) == ["a": 1])
    #expect(try json("[ [ ] , ]") == [[]])
  }
}

@Suite("JSON reader: null")
struct JSONReaderNullTests {
  @Test func nullIsUnrepresentableWithItsPosition() {
    expectJSONFailure(Array("null".utf8), .unrepresentable, at: 0, "top-level null")
    expectJSONFailure(Array("[1, null]".utf8), .unrepresentable, at: 4, "null in an array")
    expectJSONFailure(Array(#"{"a": {"b": [0, 1, null]}}"#.utf8), .unrepresentable, at: 19, "nested null")
  }

  @Test func nullNamesTheKeyPath() {
    let error = #expect(throws: PropertyListError.self, "null should not read") {
      try json(#"{"a": {"b.c": [0, 1, null]}}"#)
    }
    if let error {
      #expect(error.detail.contains(#""a.b\.c.2""#), "\(error)")
    }
  }
}

@Suite("JSON reader: encodings")
struct JSONReaderEncodingTests {
  static let text = #"{"clé":["日本 😀",1]}"#
  static let expected: PropertyListValue = ["clé": ["日本 😀", 1]]

  static func encode(_ text: String, utf16BigEndian: Bool?, utf32BigEndian: Bool?, bom: Bool) -> [UInt8] {
    var bytes: [UInt8] = []
    if let bigEndian = utf16BigEndian {
      for unit in (bom ? [0xFEFF] : []) + Array(text.utf16) {
        bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      }
    } else if let bigEndian = utf32BigEndian {
      for scalar in (bom ? [0xFEFF] : []) + text.unicodeScalars.map(\.value) {
        let quad = [UInt8(scalar >> 24), UInt8(scalar >> 16 & 0xFF), UInt8(scalar >> 8 & 0xFF), UInt8(scalar & 0xFF)]
        bytes += bigEndian ? quad : quad.reversed()
      }
    }
    return bytes
  }

  @Test func utf8() throws {
    #expect(try PropertyListValue(decoding: Array(Self.text.utf8), format: .json) == Self.expected)
    #expect(try PropertyListValue(decoding: [0xEF, 0xBB, 0xBF] + Array(Self.text.utf8), format: .json) == Self.expected)
  }

  @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
  func utf16(bigEndian: Bool, bom: Bool) throws {
    let bytes = Self.encode(Self.text, utf16BigEndian: bigEndian, utf32BigEndian: nil, bom: bom)
    #expect(try PropertyListValue(decoding: bytes, format: .json) == Self.expected)
  }

  @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
  func utf32(bigEndian: Bool, bom: Bool) throws {
    let bytes = Self.encode(Self.text, utf16BigEndian: nil, utf32BigEndian: bigEndian, bom: bom)
    #expect(try PropertyListValue(decoding: bytes, format: .json) == Self.expected)
  }

  @Test func invalidUTF8() {
    expectJSONFailure(Array(#"["a"#.utf8) + [0xFF] + Array(#""]"#.utf8), .badEncoding, at: 3, "0xFF")
    expectJSONFailure([0xEF, 0xBB, 0xBF] + Array(#"["a"#.utf8) + [0xC3] + Array(#""]"#.utf8), .badEncoding, at: 6, "truncated after a BOM")
  }

  @Test func errorsInTranscodedTextGiveLines() {
    let bytes = Self.encode("[1,\n2,\nx]", utf16BigEndian: false, utf32BigEndian: nil, bom: true)
    let error = #expect(throws: PropertyListError.self) {
      try PropertyListValue(decoding: bytes, format: .json)
    }
    if let error {
      #expect(error.position == .line(3), "\(error)")
    }
  }
}

@Suite("JSON reader: limits")
struct JSONReaderLimitTests {
  @Test func depth() throws {
    _ = try json(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))
    expectJSONFailure(Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8), .tooDeep, at: 512, "513 deep")
    var options = PropertyListReadingOptions()
    options.maximumDepth = 5000
    var value = try json(String(repeating: #"{"k":["#, count: 2500) + "0" + String(repeating: "]}", count: 2500), options: options)
    var levels = 0
    while true {
      if case .dictionary(let d) = value, let inner = d["k"] { value = inner; levels += 1 }
      else if case .array(let a) = value { value = a[0]; levels += 1 }
      else { break }
    }
    #expect(levels == 5000)
  }

  @Test func objectCount() throws {
    var options = PropertyListReadingOptions()
    options.maximumObjectCount = 5
    _ = try json(#"{"a":1,"b":2}"#, options: options)
    #expect(throws: PropertyListError.self) { try json(#"{"a":1,"b":2,"c":3}"#, options: options) }
  }
}

@Suite("JSON reader: broken inputs")
struct JSONReaderBrokenInputTests {
  /// Positions are 0-based byte offsets; where plutil reports "around character N" for the same
  /// input, N is the same number.
  static let cases: [(name: String, text: String, code: PropertyListError.Code, offset: Int)] = [
    ("empty", "", .truncated, 0),
    ("only whitespace", "  \n", .truncated, 3),
    ("leading zero", "[01]", .invalidValue, 2),
    ("negative leading zero", "[-01]", .invalidValue, 3),
    ("bare fraction dot", "[1.]", .unexpectedInput, 3),
    ("leading dot", "[.5]", .unexpectedInput, 1),
    ("bare minus", "[-]", .unexpectedInput, 2),
    ("plus sign", "[+1]", .unexpectedInput, 1),
    ("empty exponent", "[1e]", .unexpectedInput, 3),
    ("hex", "[0x10]", .unexpectedInput, 2),
    ("Infinity", "[Infinity]", .unexpectedInput, 1),
    ("NaN", "[NaN]", .unexpectedInput, 1),
    ("too large", "[1E400]", .invalidValue, 1),
    ("lone high surrogate", #"["\ud83d"]"#, .invalidValue, 2),
    ("lone low surrogate", #"["\ude00x"]"#, .invalidValue, 2),
    ("high then not low", #"["\ud83d\u0041"]"#, .invalidValue, 8),
    ("short unicode escape", #"["\u12"]"#, .invalidValue, 6),
    ("bad escape", #"["\x"]"#, .unexpectedInput, 2),
    ("tab in string", "[\"a\tb\"]", .unexpectedInput, 3),
    ("newline in string", "[\"a\nb\"]", .unexpectedInput, 3),
    ("unterminated string", #"["abc"#, .truncated, 1),
    ("unterminated escaped string", #"["a\"bc"#, .truncated, 1),
    ("junk after value", "  [1]  x", .unexpectedInput, 7),
    ("two values", "[1] [2]", .unexpectedInput, 4),
    ("double comma", "[1,,]", .unexpectedInput, 3),
    ("lone comma", "[,]", .unexpectedInput, 1),
    ("object lone comma", "{,}", .unexpectedInput, 1),
    ("missing colon", #"{"a" 1}"#, .unexpectedInput, 5),
    ("number key", "{1:2}", .unexpectedInput, 1),
    ("single quotes", "['a']", .unexpectedInput, 1),
    ("missing comma", "[1 2]", .unexpectedInput, 3),
    ("unclosed array", "[1, 2", .truncated, 5),
    ("unclosed object", #"{"a":{"b":[nul"#, .truncated, 11),
    ("bad literal", "[tru]", .unexpectedInput, 4),
    ("truncated literal", "[tr", .truncated, 1),
    ("wrong closer", "[1}", .unexpectedInput, 2),
    ("vertical tab is not whitespace", "\u{0B}[1]", .unexpectedInput, 0),
    ("comment", "[1] // no", .unexpectedInput, 4),
  ]

  @Test func namedBreakages() {
    for (name, text, code, offset) in Self.cases {
      expectJSONFailure(Array(text.utf8), code, at: offset, name)
    }
  }

  @Test func everyTruncation() throws {
    let bytes = Array(#"{"a": [1, -2.5e3, "x\"\u00e9\ud83d\ude00", true, false, {"b": []}], "c": 18446744073709551615}"#.utf8)
    _ = try PropertyListValue(decoding: bytes, format: .json)
    for length in 0..<bytes.count {
      do {
        let value = try PropertyListValue(decoding: Array(bytes[..<length]), format: .json)
        // Only a prefix that is itself a number can read.
        #expect(value.integerValue != nil || value.doubleValue != nil, "prefix \(length) read as \(value)")
      } catch {
        #expect(error.format == .json)
      }
    }
  }

  @Test func randomMutations() {
    let good = Array(#"{"a":[1,2.5e-3,"x\n\u00e9",true,null,{"b":[]}],"c":-0}"#.utf8)
    var rng = SplitMix64(seed: 7)
    let alphabet = Array("{}[]:,\"\\0123456789eE+-.tfnul /".utf8) + [0x00, 0x80, 0xC3, 0xFF]
    for round in 0..<3000 {
      var bytes = good
      for _ in 0...Int.random(in: 0...3, using: &rng) {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes[at] = alphabet.randomElement(using: &rng)!
        case 1: bytes.remove(at: at)
        default: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
        }
      }
      do {
        _ = try PropertyListValue(decoding: bytes, format: .json)
      } catch {
        #expect(error.format == .json, "round \(round)")
      }
    }
  }
}
