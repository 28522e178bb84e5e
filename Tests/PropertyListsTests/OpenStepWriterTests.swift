import Foundation
import PropertyLists
import TestSupport
import Testing

private func openStepText(_ value: PropertyListValue) throws(PropertyListError) -> String {
  String(decoding: try value.encodedBytes(as: .openStep), as: UTF8.self)
}

@Suite("OpenStep writer")
struct OpenStepWriterTests {
  @Test func layout() throws {
    let value: PropertyListValue = [
      "name": "Stasis",
      "tags": ["a", "two words"],
      "blob": .data(Data([0x0F, 0xBD, 0x77, 0x88, 0x1C])),
      "nested": ["inner": ["x"]],
      "empty": [:],
      "none": [],
    ]
    let expected = """
      {
          name = Stasis;
          tags = (
              a,
              "two words"
          );
          blob = <0fbd7788 1c>;
          nested = {
              inner = (
                  x
              );
          };
          empty = {
          };
          none = (
          );
      }

      """
    #expect(try openStepText(value) == expected)
  }

  @Test func topLevelScalarsAndEmptyContainers() throws {
    #expect(try openStepText("word") == "word\n")
    #expect(try openStepText("") == "\"\"\n")
    #expect(try openStepText([:]) == "{\n}\n")
    #expect(try openStepText([]) == "(\n)\n")
    #expect(try openStepText(.data(Data())) == "<>\n")
    #expect(try openStepText(.data(Data(0..<9))) == "<00010203 04050607 08>\n")
  }

  @Test func quoting() throws {
    #expect(try openStepText(["k": "abcXYZ019_$/:.-"]) == "{\n    k = abcXYZ019_$/:.-;\n}\n")
    let quoted = ["a b", "a+b", "é", "a;b", "//x", "", "(", "a=b", "'"]
    for string in quoted {
      let text = try openStepText(.string(string))
      #expect(text.hasPrefix("\""), "\(string) should be quoted")
      #expect(try PropertyListValue(decoding: Array(text.utf8), format: .openStep) == .string(string))
    }
    #expect(try openStepText("a//b") == "a//b\n", "// inside a word does not start a comment")
  }

  @Test func escapes() throws {
    let string = "q\" b\\ \u{7}\u{8}\t\n\u{B}\u{C}\r \u{0}\u{1}\u{1F}\u{7F} é😀\u{2028}"
    let text = try openStepText(.string(string))
    #expect(text == "\"q\\\" b\\\\ \\a\\b\\t\\n\\v\\f\\r \\000\\001\\037\\177 é😀\u{2028}\"\n")
    #expect(try PropertyListValue(decoding: Array(text.utf8), format: .openStep) == .string(string))
  }

  @Test func nonStringScalarsAreUnrepresentable() {
    let cases: [(PropertyListValue, String, String)] = [
      (["a": ["b": [1, .integer(2)]]], "integer", "a.b.0"),
      (["x": [.real(1.5)]], "float", "x.0"),
      (["flag": true], "bool", "flag"),
      (["when": .date(Date(timeIntervalSinceReferenceDate: 0))], "date", "when"),
      (["ref": .uid(3)], "uid", "ref"),
      (["dotted.key": ["in": .bool(false)]], "bool", "dotted\\.key.in"),
    ]
    for (value, type, path) in cases {
      let error = expectError(PropertyListError.self, .unrepresentable, "\(type) should not be writable") {
        try value.encodedBytes(as: .openStep)
      }
      if let error {
        #expect(error.format == .openStep)
        #expect(error.detail.contains(type), "\(error)")
        #expect(error.detail.contains("\"\(path)\""), "\(error)")
      }
    }
    expectError(PropertyListError.self, .unrepresentable) { try PropertyListValue.integer(5).encodedBytes(as: .openStep) }
  }

  /// The format holds strings, data, arrays and dictionaries; generated values of those kinds
  /// must come back equal.
  @Test(arguments: 0..<500 as Range<UInt64>)
  func generatedValuesRoundTrip(seed: UInt64) throws {
    var generator = RandomPropertyList(seed: seed, kinds: .openStep)
    let document = generator.document()
    let bytes = try document.encodedBytes(as: .openStep)
    #expect(try PropertyListValue(decoding: bytes, format: .openStep) == document, "seed \(seed)")
    // Any root (a string, data or an array) round-trips too.
    let value = generator.value()
    let valueBytes = try value.encodedBytes(as: .openStep)
    #expect(try PropertyListValue(decoding: valueBytes, format: .openStep) == value, "seed \(seed) (root value)")
  }

  @Test func deepValuesAreWrittenWithoutRecursion() throws {
    var value: PropertyListValue = "x"
    for _ in 0..<1000 { value = [value] }
    let bytes = try value.encodedBytes(as: .openStep)
    var options = PropertyListReadingOptions()
    options.maximumDepth = 1000
    #expect(try PropertyListValue(decoding: bytes, format: .openStep, options: options) == value)
  }
}
