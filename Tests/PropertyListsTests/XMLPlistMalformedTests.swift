import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// A good XML property list broken in many named ways: every break must throw a typed
/// ``PropertyListError`` naming the XML format, the right code and the line of the damage.
@Suite("XML property lists: malformed documents")
struct XMLPlistMalformedTests {
  static let good = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>name</key>
    \t<string>A &amp; B</string>
    \t<key>count</key>
    \t<integer>42</integer>
    \t<key>ratio</key>
    \t<real>0.5</real>
    \t<key>when</key>
    \t<date>2020-01-02T03:04:05Z</date>
    \t<key>blob</key>
    \t<data>
    \tAAEC
    \t</data>
    \t<key>list</key>
    \t<array>
    \t\t<true/>
    \t\t<false/>
    \t</array>
    </dict>
    </plist>

    """

  static let goodValue: PropertyListValue = [
    "name": "A & B", "count": 42, "ratio": 0.5,
    "when": .date(Date(timeIntervalSinceReferenceDate: 599_627_045)),
    "blob": .data(Data([0, 1, 2])), "list": [true, false],
  ]

  /// One way to break the document: replace the only occurrence of `find` by `replacement`.
  struct Breakage: Sendable, CustomTestStringConvertible {
    let name: String
    let find: String
    let replacement: [UInt8]
    let code: PropertyListError.Code
    /// The line the error must name.
    let line: Int

    init(_ name: String, _ find: String, _ replacement: String, _ code: PropertyListError.Code, line: Int) {
      self.init(name, find, bytes: Array(replacement.utf8), code, line: line)
    }

    init(_ name: String, _ find: String, bytes replacement: [UInt8], _ code: PropertyListError.Code, line: Int) {
      self.name = name
      self.find = find
      self.replacement = replacement
      self.code = code
      self.line = line
    }

    var testDescription: String { name }

    func apply(to text: String) -> [UInt8] {
      let bytes = Array(text.utf8)
      let needle = Array(find.utf8)
      let starts = (0...(bytes.count - needle.count)).filter { Array(bytes[$0..<($0 + needle.count)]) == needle }
      precondition(starts.count == 1, "\(name): '\(find)' occurs \(starts.count) times")
      return Array(bytes[..<starts[0]]) + replacement + Array(bytes[(starts[0] + needle.count)...])
    }
  }

  static let breakages: [Breakage] = [
    // Prolog and markup
    Breakage("text before the first element", "<?xml", "hello <?xml", .unexpectedInput, line: 1),
    Breakage("unknown encoding", "UTF-8", "EBCDIC-US", .badEncoding, line: 1),
    Breakage("misspelled DOCTYPE", "<!DOCTYPE", "<!DOCTYP", .unexpectedInput, line: 2),
    Breakage("junk in the DOCTYPE's internal subset", "<!DOCTYPE plist", "<!DOCTYPE plist [ <!ENTITY x 'y'>", .unexpectedInput, line: 2),
    Breakage("close tag at the top level", "<plist version=\"1.0\">", "</plist>", .unexpectedInput, line: 3),
    Breakage("empty <plist/>", "<plist version=\"1.0\">", "<plist version=\"1.0\"/>", .unexpectedInput, line: 3),
    Breakage("unterminated comment", "<dict>", "<!-- never closed\n<dict>", .truncated, line: 4),
    Breakage("tag name in the wrong case", "<dict>", "<Dict>", .unexpectedInput, line: 4),
    Breakage("<! that is not a comment", "<dict>", "<!dict>", .unexpectedInput, line: 4),
    // Text
    Breakage("unknown entity", "&amp;", "&nbsp;", .unexpectedInput, line: 6),
    Breakage("entity without its semicolon", "&amp; B", "&amp B", .unexpectedInput, line: 6),
    Breakage("character reference beyond Unicode", "&amp;", "&#x110000;", .invalidValue, line: 6),
    Breakage("character reference to a surrogate", "&amp;", "&#55296;", .invalidValue, line: 6),
    Breakage("character reference with a bad digit", "&amp;", "&#12z;", .invalidValue, line: 6),
    Breakage("comment inside a string", "A &amp; B", "A <!-- c --> B", .unexpectedInput, line: 6),
    Breakage("unterminated CDATA", "A &amp; B", "<![CDATA[A B", .truncated, line: 6),
    Breakage("element inside a string", "A &amp; B", "A<b>B</b>", .unexpectedInput, line: 6),
    Breakage("misspelled close tag", "</string>", "</strng>", .unexpectedInput, line: 6),
    Breakage("close tag of another element", "</string>", "</key>", .unexpectedInput, line: 6),
    Breakage("invalid UTF-8 in a key", "name", bytes: [0x6E, 0xFF, 0x65], .badEncoding, line: 5),
    Breakage("truncated UTF-8 sequence in a string", "A &amp; B", bytes: [0x41, 0xE2, 0x82], .badEncoding, line: 6),
    // Numbers, dates, data
    Breakage("unknown tag", "<integer>42</integer>", "<int>42</int>", .unexpectedInput, line: 8),
    Breakage("integer with a trailing space", "42</integer>", "42 </integer>", .invalidValue, line: 8),
    Breakage("integer with a letter", "42", "4z", .invalidValue, line: 8),
    Breakage("integer with a hex digit but no 0x", "42", "4a", .invalidValue, line: 8),
    Breakage("integer above 2^64-1", "42", "18446744073709551616", .invalidValue, line: 8),
    Breakage("integer below -2^63", "42", "-9223372036854775809", .invalidValue, line: 8),
    Breakage("empty integer", "<integer>42</integer>", "<integer></integer>", .invalidValue, line: 8),
    Breakage("integer that is only a sign", "42", "-", .invalidValue, line: 8),
    Breakage("real with a unit", "0.5", "0.5 kg", .invalidValue, line: 10),
    Breakage("hexadecimal real", "0.5", "0x1p-1", .invalidValue, line: 10),
    Breakage("empty real", "<real>0.5</real>", "<real/>", .invalidValue, line: 10),
    Breakage("date without Z", "05Z", "05", .invalidValue, line: 12),
    Breakage("date with fractional seconds", "05Z", "05.5Z", .invalidValue, line: 12),
    Breakage("date with a one-digit month", "2020-01-02", "2020-1-02", .invalidValue, line: 12),
    Breakage("date with a time-zone offset", "05Z", "05+01:00", .invalidValue, line: 12),
    Breakage("non-ASCII byte in data", "AAEC", "AAÉC", .invalidValue, line: 15),
    Breakage("empty data element", "<data>\n\tAAEC\n\t</data>", "<data/>", .invalidValue, line: 14),
    Breakage("non-empty <true>", "<true/>", "<true>yes</true>", .unexpectedInput, line: 19),
    Breakage("tag without a name", "<true/>", "< true/>", .unexpectedInput, line: 19),
    // Structure
    Breakage("value where a key belongs", "<key>count</key>", "<string>count</string>", .unexpectedInput, line: 7),
    Breakage("text inside a dictionary", "\t<key>count</key>", "\tstray <key>count</key>", .unexpectedInput, line: 7),
    Breakage("key without a value", "\t<key>list</key>\n\t<array>\n\t\t<true/>\n\t\t<false/>\n\t</array>\n", "\t<key>list</key>\n", .unexpectedInput, line: 18),
    Breakage("text inside an array", "\t\t<false/>", "\t\t<false/> x", .unexpectedInput, line: 20),
    Breakage("junk in a close tag", "</array>", "</array x>", .unexpectedInput, line: 21),
    Breakage("unclosed array", "\t</array>\n", "", .unexpectedInput, line: 21),
    Breakage("unclosed dictionary", "</dict>\n", "", .unexpectedInput, line: 22),
    Breakage("two values in <plist>", "</dict>\n</plist>", "</dict>\n<string>extra</string>\n</plist>", .unexpectedInput, line: 23),
    Breakage("missing </plist>", "</plist>\n", "", .truncated, line: 23),
    Breakage("start tag never closed", "</plist>\n", "</plist", .truncated, line: 23),
  ]

  @Test func theGoodDocumentReads() throws {
    #expect(try PropertyListValue(decoding: Array(Self.good.utf8)) == Self.goodValue)
  }

  @Test(arguments: breakages)
  func brokenDocumentThrowsATypedErrorWithItsLine(_ breakage: Breakage) {
    let bytes = breakage.apply(to: Self.good)
    let error = expectError(PropertyListError.self, breakage.code, "\(breakage.name)") {
      try PropertyListValue(decoding: bytes, format: .xml)
    }
    if let error {
      #expect(error.format == .xml, "\(breakage.name): \(error)")
      #expect(error.position == .line(breakage.line), "\(breakage.name): \(error)")
      #expect(!error.detail.isEmpty)
    }
  }

  /// The document is over when `</plist>` is: every shorter prefix must fail, in UTF-8 and in
  /// UTF-16, and never crash.
  @Test func everyTruncationFails() {
    let utf8 = Array(Self.good.utf8)
    let end = utf8.count - 1  // the final newline is not needed
    for length in 0..<end {
      #expect(throws: PropertyListError.self, "cut to \(length) bytes") {
        try PropertyListValue(decoding: Array(utf8[..<length]), format: .xml)
      }
    }
    #expect(throws: Never.self) { try PropertyListValue(decoding: Array(utf8[..<end]), format: .xml) }
    let utf16: [UInt8] = [0xFF, 0xFE] + Self.good.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    for length in stride(from: 0, to: utf16.count - 2, by: 7) {
      #expect(throws: PropertyListError.self, "UTF-16 cut to \(length) bytes") {
        try PropertyListValue(decoding: Array(utf16[..<length]), format: .xml)
      }
    }
  }

  /// Random damage (bytes changed, removed, inserted, with a bias towards markup characters):
  /// the reader either throws a ``PropertyListError`` or returns a value that can be written
  /// and read back.
  @Test func randomDamageNeverCrashes() throws {
    let original = Array(Self.good.utf8)
    let interesting = Array("<>/&;!?-[]\"'=#x0 \n\u{0}".utf8) + [0xFF, 0xC3, 0xE2]
    var generator = SplitMix64(seed: 2024)
    var accepted = 0
    for round in 0..<3000 {
      var bytes = original
      for _ in 0...Int.random(in: 0...2, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        let byte = Bool.random(using: &generator) ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[index] = byte
        case 1: bytes.remove(at: index)
        default: bytes.insert(byte, at: index)
        }
      }
      do {
        let value = try PropertyListValue(decoding: bytes, format: .xml)
        accepted += 1
        let again = try PropertyListValue(decoding: value.encodedBytes(as: .xml))
        #expect(again == value, "round \(round)")
      } catch {
        #expect(error.format == .xml, "round \(round): \(error)")
      }
    }
    print("random damage: \(accepted) of 3000 damaged documents were still readable")
  }
}
