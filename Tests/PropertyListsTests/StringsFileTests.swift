import Foundation
import PropertyLists
import TestSupport
import Testing

private func stringsFile(_ text: String) throws(PropertyListError) -> PropertyListValue {
  try PropertyListValue(decoding: Array(text.utf8), format: .strings)
}

/// Whether the XML reader has landed (it is written concurrently); `.stringsdict` files are XML.
private let xmlReaderAvailable: Bool = {
  let probe = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><string>x</string></plist>"#
  return (try? PropertyListValue(decoding: Array(probe.utf8))) == .string("x")
}()

@Suite("Strings files: reading")
struct StringsFileReadingTests {
  @Test func entriesCommentsAndShortcuts() throws {
    let text = """
      /* Title of the window */
      "WINDOW_TITLE" = "Préférences";
      // a line comment
      "OK";
      unquoted_key = "value with \\"quotes\\"";
      "multi
      line" = 'single quoted';
      """
    #expect(try stringsFile(text) == [
      "WINDOW_TITLE": "Préférences",
      "OK": "OK",
      "unquoted_key": "value with \"quotes\"",
      "multi\nline": "single quoted",
    ])
  }

  @Test func forcedModeReadsADocumentThatIsNotAStringFirst() throws {
    // Without the flag this would be a key-only entry anyway; with a braced dictionary the forced
    // mode reads it as Apple's general reader would.
    #expect(try stringsFile("{ \"a\" = \"b\"; }") == ["a": "b"])
    #expect(try stringsFile("") == [:])
    #expect(try stringsFile("\n") == [:])
    #expect(try stringsFile("/* nothing */") == [:])
    #expect(try stringsFile("\"a\" = \"b\";") == ["a": "b"])
  }

  @Test func automaticDetectionGivesTheSameResult() throws {
    let text = "\"a\" = \"b\";\n\"c\" = \"d\";\n"
    #expect(try PropertyListValue(decoding: Array(text.utf8)) == stringsFile(text))
    #expect(try PropertyListValue(decoding: Array(text.utf8), format: .openStep) == stringsFile(text))
  }

  @Test func valuesMayBeAnyOpenStepObject() throws {
    #expect(try stringsFile("list = (a, b); blob = <00>; sub = { k = v; };") == [
      "list": ["a", "b"], "blob": .data(Data([0])), "sub": ["k": "v"],
    ])
  }

  @Test func everyEntryNeedsASemicolon() {
    let cases: [(String, String, PropertyListError.Code, Int)] = [
      ("last entry", "\"a\" = \"b\";\n\n\"c\" = \"d\"\n", .truncated, 4),
      ("middle entry", "\"a\" = \"b\"\n\"c\" = \"d\";\n", .unexpectedInput, 2),
      ("key-only entry", "\"a\" = \"b\";\n\"c\"\n", .truncated, 3),
      ("comma instead", "\"a\" = \"b\",\n\"c\" = \"d\";\n", .unexpectedInput, 1),
      ("brace in a body", "\"a\" = \"b\";\n{ }", .unexpectedInput, 2),
      ("array at the top", "( a, b )", .unexpectedInput, 1),
      // The quote before c closes the value "b;\n", so c is where the ';' should be.
      ("unterminated value", "\"a\" = \"b;\n\"c\" = \"d\";", .unexpectedInput, 2),
    ]
    for (name, text, code, line) in cases {
      let error = expectError(PropertyListError.self, code, "\(name)") { try stringsFile(text) }
      if let error {
        #expect(error.position == .line(line), "\(name): \(error)")
        #expect(error.format == .strings, "\(name): \(error)")
      }
    }
  }

  @Test func utf16StringsFiles() throws {
    let text = "/* c */\n\"clé\" = \"値\";\n"
    let expected: PropertyListValue = ["clé": "値"]
    var le: [UInt8] = [0xFF, 0xFE]
    var be: [UInt8] = [0xFE, 0xFF]
    var bomlessLE: [UInt8] = []
    for unit in text.utf16 {
      le += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      be += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
      bomlessLE += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    #expect(try PropertyListValue(decoding: le, format: .strings) == expected)
    #expect(try PropertyListValue(decoding: be, format: .strings) == expected)
    #expect(try PropertyListValue(decoding: bomlessLE, format: .strings) == expected)
    #expect(try PropertyListValue(decoding: le) == expected, "detected")
  }

  @Test func invalidUTF8FailsTheWholeTable() {
    let error = expectError(PropertyListError.self, .badEncoding) {
      try PropertyListValue(decoding: Array("\"a\" = \"b\";\n\"c\" = \"".utf8) + [0xE9] + Array("\";".utf8), format: .strings)
    }
    #expect(error?.position == .line(2))
  }
}

@Suite("Strings files: writing")
struct StringsFileWritingTests {
  @Test func layout() throws {
    let value: PropertyListValue = ["b": "B", "a": "line\nbreak \"q\"", "plain": "x"]
    let text = String(decoding: try value.encodedBytes(as: .strings), as: UTF8.self)
    #expect(text == "\"b\" = \"B\";\n\"a\" = \"line\\nbreak \\\"q\\\"\";\n\"plain\" = \"x\";\n")
  }

  @Test func emptyTable() throws {
    #expect(try PropertyListValue.dictionary([:]).encodedBytes(as: .strings) == [])
    #expect(try PropertyListValue(decoding: [UInt8](), format: .strings) == [:])
  }

  @Test func onlyDictionariesOfWritableValues() {
    expectError(PropertyListError.self, .unrepresentable) { try PropertyListValue.array(["a"]).encodedBytes(as: .strings) }
    expectError(PropertyListError.self, .unrepresentable) { try PropertyListValue.string("a").encodedBytes(as: .strings) }
    let number: PropertyListValue = ["n": 1]
    expectError(PropertyListError.self, .unrepresentable) { try number.encodedBytes(as: .strings) }
    let nested: PropertyListValue = ["k": ["x": [true]]]
    let error = #expect(throws: PropertyListError.self, "a bool should not be writable") {
      try nested.encodedBytes(as: .strings)
    }
    if let error {
      #expect(error.format == .strings)
      #expect(error.detail.contains("\"k.x.0\""), "\(error)")
    }
  }

  @Test func nestedValuesAreIndented() throws {
    let value: PropertyListValue = ["k": ["a", ["b": "c"]]]
    let text = String(decoding: try value.encodedBytes(as: .strings), as: UTF8.self)
    #expect(text == "\"k\" = (\n    a,\n    {\n        b = c;\n    }\n);\n")
    #expect(try PropertyListValue(decoding: Array(text.utf8), format: .strings) == value)
  }

  /// Tables of strings (what `.strings` files hold) and of any OpenStep value round-trip, both
  /// through the forced mode and through detection.
  @Test(arguments: 0..<500 as Range<UInt64>)
  func generatedTablesRoundTrip(seed: UInt64) throws {
    var generator = RandomPropertyList(seed: seed, kinds: [.unicode])
    var table = PropertyListDictionary()
    for _ in 0..<Int.random(in: 0...12, using: &generator.rng) { table[generator.string()] = .string(generator.string()) }
    let value = PropertyListValue.dictionary(table)
    let bytes = try value.encodedBytes(as: .strings)
    #expect(try PropertyListValue(decoding: bytes, format: .strings) == value, "seed \(seed)")
    if !table.isEmpty {
      #expect(try PropertyListValue(decoding: bytes) == value, "seed \(seed), detected")
    }
    var rich = RandomPropertyList(seed: seed, kinds: .openStep)
    let document = rich.document()
    #expect(try PropertyListValue(decoding: document.encodedBytes(as: .strings), format: .strings) == document, "seed \(seed), rich")
  }
}

@Suite("Strings files: corpus", .enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct StringsFileCorpusTests {
  static let stringsFiles = Corpus.files(in: "strings").filter { $0.pathExtension == "strings" }
  static let stringsdictFiles = Corpus.files(in: "strings").filter { $0.pathExtension == "stringsdict" }

  /// The per-file tests below have one case per file; this keeps a missing or emptied folder
  /// from passing with no cases.
  @Test func corpusHoldsTheTables() {
    #expect(Self.stringsFiles.count >= 50)
    #expect(Self.stringsdictFiles.count >= 10)
  }

  @Test(arguments: stringsFiles)
  func everyStringsFileReads(_ file: CorpusFile) throws {
    let bytes = try file.data()
    do {
      let forced = try PropertyListValue(decoding: bytes, format: .strings)
      guard case .dictionary(let table) = forced else {
        Issue.record("\(file.name): not a dictionary")
        return
      }
      for (key, value) in table where value.stringValue == nil {
        Issue.record("\(file.name): value for \(key) is not a string")
      }
      // Detection (as Bundle's loader does it) agrees (zero-byte files are refused by the
      // general reader, as by CoreFoundation), and our writer round-trips the table.
      if !bytes.isEmpty {
        #expect(try PropertyListValue(decoding: bytes) == forced, "\(file.name)")
      }
      #expect(try PropertyListValue(decoding: forced.encodedBytes(as: .strings), format: .strings) == forced, "\(file.name)")
    } catch {
      Issue.record("\(file.name): \(error)")
    }
  }

  @Test func knownEntries() throws {
    func table(_ path: String) throws -> PropertyListValue {
      try PropertyListValue(decoding: try Data(contentsOf: Corpus.root.appendingPathComponent(path)), format: .strings)
    }
    #expect(try table("strings/kraftstoff/de.lproj/MainStoryboard.strings")["6xE-Uc-v14.title"] == "Fahrzeuge")
    // As with the OpenStep pair, the GNUstep UTF-8 file holds doubly encoded text.
    #expect(try table("strings/gnustep/non_ascii_utf16.strings")["Quoted non-ascii åäö"] == "åäö")
    #expect(try table("strings/gnustep/non_ascii_utf8.strings")["Quoted non-ascii Ã¥Ã¤Ã¶"] == "Ã¥Ã¤Ã¶")
    #expect(try table("strings/datetools_tests/es.lproj/Main.strings") == [:])
    let utf16 = try table("strings/kraftstoff/de.lproj/Localizable.strings")
    #expect((utf16.dictionaryValue?.count ?? 0) > 10)
  }

  @Test(.enabled(if: xmlReaderAvailable, "the XML reader has not landed yet; .stringsdict files are XML"), arguments: stringsdictFiles)
  func stringsdictFilesReadAsXML(_ file: CorpusFile) throws {
    let value = try PropertyListValue(decoding: try file.data())
    guard case .dictionary(let root) = value else {
      Issue.record("\(file.name): root is not a dictionary")
      return
    }
    for (key, rule) in root where rule["NSStringLocalizedFormatKey"]?.stringValue == nil {
      Issue.record("\(file.name): \(key) has no NSStringLocalizedFormatKey")
    }
  }
}
