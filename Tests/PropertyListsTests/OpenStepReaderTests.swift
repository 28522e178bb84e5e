import Foundation
import PropertyLists
import TestSupport
import Testing

/// Reads `text` (UTF-8) as an OpenStep property list.
private func openStep(_ text: String, options: PropertyListReadingOptions = .default) throws(PropertyListError) -> PropertyListValue {
  try PropertyListValue(decoding: Array(text.utf8), format: .openStep, options: options)
}

/// Expects reading `bytes` as OpenStep to fail with `code` on `line`.
private func expectOpenStepFailure(
  _ bytes: [UInt8], _ code: PropertyListError.Code, line: Int?, _ name: String,
  format: PropertyListFormat = .openStep, sourceLocation: SourceLocation = #_sourceLocation
) {
  let error = expectError(PropertyListError.self, code, "\(name)", sourceLocation: sourceLocation) {
    try PropertyListValue(decoding: bytes, format: format)
  }
  if let error {
    #expect(error.format == format, "\(name): \(error)", sourceLocation: sourceLocation)
    if let line {
      #expect(error.position == .line(line), "\(name): \(error)", sourceLocation: sourceLocation)
    }
    #expect(!error.detail.isEmpty, sourceLocation: sourceLocation)
  }
}

@Suite("OpenStep reader: grammar")
struct OpenStepGrammarTests {
  @Test func dictionariesArraysAndStrings() throws {
    let value = try openStep(#"{ name = Stasis; "two words" = 'single'; list = (a, "b c", ( ), {}); }"#)
    #expect(value == ["name": "Stasis", "two words": "single", "list": ["a", "b c", [], [:]]])
  }

  @Test func unquotedStringCharacters() throws {
    #expect(try openStep("abcXYZ019_$/:.-") == "abcXYZ019_$/:.-")
    // '+' is not an unquoted-string character, so it ends "a" and is then out of place.
    expectOpenStepFailure(Array("( a+b )".utf8), .unexpectedInput, line: 1, "plus sign")
  }

  @Test func keyOnlyEntriesMeanValueEqualsKey() throws {
    #expect(try openStep("{ a = b; c; \"d e\"; }") == ["a": "b", "c": "c", "d e": "d e"])
  }

  @Test func duplicateKeysLastWins() throws {
    let value = try openStep("{ a = 1; b = 2; a = 3; }")
    #expect(value == ["a": "3", "b": "2"])
    #expect(value.dictionaryValue?.keys == ["a", "b"])
  }

  @Test func keysKeepDocumentOrder() throws {
    let value = try openStep("{ z = 1; a = 2; m = 3; }")
    #expect(value.dictionaryValue?.keys == ["z", "a", "m"])
  }

  @Test func trailingCommaInArrays() throws {
    #expect(try openStep("(a, b,)") == ["a", "b"])
    #expect(try openStep("( a , b , )") == ["a", "b"])
  }

  @Test func emptyDocumentIsAnEmptyDictionary() throws {
    #expect(try openStep("  \n\t ") == [:])
    #expect(try PropertyListValue(decoding: [0xEF, 0xBB, 0xBF], format: .openStep) == [:])
    #expect(try openStep("/* only a comment */ // and another\n") == [:])
  }

  /// Zero bytes are refused, as CoreFoundation refuses them ("Cannot parse a NULL or
  /// zero-length data"); a zero-byte strings file is an empty table.
  @Test func zeroBytes() throws {
    expectOpenStepFailure([], .truncated, line: 1, "zero bytes")
    #expect(try PropertyListValue(decoding: [UInt8](), format: .strings) == [:])
  }

  @Test func numbersAndBooleansAreStrings() throws {
    #expect(try openStep("{ n = 42; r = 1.5; b = YES; neg = -3; }") == ["n": "42", "r": "1.5", "b": "YES", "neg": "-3"])
  }

  @Test func data() throws {
    #expect(try openStep("<0fA1 2b>") == .data(Data([0x0F, 0xA1, 0x2B])))
    #expect(try openStep("<>") == .data(Data()))
    #expect(try openStep("< 00\n01\t02\r03 >") == .data(Data([0, 1, 2, 3])))
    #expect(try openStep("<00\u{2028}01\u{2029}02>") == .data(Data([0, 1, 2])))
    #expect(try openStep("{ d = <DEADbeef>; }") == ["d": .data(Data([0xDE, 0xAD, 0xBE, 0xEF]))])
  }

  @Test func comments() throws {
    let text = """
      // leading line comment
      /* block
         comment */ {
        a = b; // trailing
        /* between */ c /* inside */ = /* more */ d;
        e = "not // a comment";
        f = "not /* one */ either";
        g = a//b;
      }
      """
    #expect(try openStep(text) == ["a": "b", "c": "d", "e": "not // a comment", "f": "not /* one */ either", "g": "a//b"])
  }

  @Test func unterminatedBlockCommentRunsToTheEnd() throws {
    #expect(try openStep("( a ) /* never closed") == ["a"])
  }

  @Test func unicodeWhitespace() throws {
    #expect(try openStep("\u{2028}(\u{2029}a\u{0B},\u{0C}b\r\n)") == ["a", "b"])
  }

  @Test func nonASCIIInsideQuotes() throws {
    #expect(try openStep("{ \"clé\" = \"日本語 😀\"; }") == ["clé": "日本語 😀"])
  }

  @Test func nestedContainers() throws {
    let value = try openStep("{ a = { b = { c = ( ( d ) ); }; }; }")
    #expect(value == ["a": ["b": ["c": [["d"]]]]])
  }
}

@Suite("OpenStep reader: escapes")
struct OpenStepEscapeTests {
  @Test func simpleEscapes() throws {
    #expect(try openStep(#""\a\b\f\n\r\t\v""#) == "\u{07}\u{08}\u{0C}\n\r\t\u{0B}")
    #expect(try openStep(#""\"\\\'""#) == "\"\\'")
    #expect(try openStep(#"'it\'s'"#) == "it's")
    #expect(try openStep("\"a\\\nb\"") == "a\nb")
    #expect(try openStep(#""\q\u""#) == "qu", "unknown escapes stand for the character")
    #expect(try openStep("\"\\é\"") == "é")
  }

  @Test func octalEscapesUseNeXTSTEP() throws {
    #expect(try openStep(#""\101\102""#) == "AB")
    #expect(try openStep(#""\0""#) == "\u{0}")
    #expect(try openStep(#""\1018""#) == "A8", "at most three octal digits")
    #expect(try openStep(#""\18""#) == "\u{1}8", "stops at the first non-octal digit")
    #expect(try openStep(#""\200""#) == "\u{A0}")
    #expect(try openStep(#""\201\241\244\373\374\375""#) == "À¡⁄ßþÿ")
    #expect(try openStep(#""\376\377""#) == "\u{0}\u{0}", "unassigned in NeXTSTEP: CF yields 0")
    #expect(try openStep(#""\501""#) == "A", "values above 0377 keep their low 8 bits, as in CF")
  }

  @Test func unicodeEscapes() throws {
    #expect(try openStep(#""\U00e9\U4E2D""#) == "é中")
    #expect(try openStep(#""\U41x""#) == "Ax", "stops at the first non-hex character")
    #expect(try openStep(#""\U0041""#) == "A")
    #expect(try openStep(#""\U00411""#) == "A1", "at most four hex digits")
    #expect(try openStep(#""\Ux""#) == "\u{0}x", "no digits is U+0000, as in CF")
    #expect(try openStep(#""\UD83D\UDE00""#) == "😀", "surrogate pairs combine")
    #expect(try openStep(#""\UD83D""#) == "\u{FFFD}")
    #expect(try openStep(#""\UDE00\UD83D x""#) == "\u{FFFD}\u{FFFD} x")
    #expect(try openStep(#""\UD83Dx""#) == "\u{FFFD}x")
  }
}

@Suite("OpenStep reader: strings-file detection")
struct OpenStepStringsModeTests {
  @Test func aLeadingStringFollowedByMoreTextIsAStringsFile() throws {
    #expect(try openStep(#""a" = "b"; "c";"#) == ["a": "b", "c": "c"])
    #expect(try openStep("/* header */\nkey = value;\n") == ["key": "value"])
  }

  @Test func aLoneStringIsAString() throws {
    #expect(try openStep("  \"just a string\"  \n") == "just a string")
    #expect(try openStep("word") == "word")
  }

  @Test func junkAfterOtherValues() {
    expectOpenStepFailure(Array("( a ) x".utf8), .unexpectedInput, line: 1, "array then junk")
    expectOpenStepFailure(Array("{ a = b; }\n\njunk".utf8), .unexpectedInput, line: 3, "dictionary then junk")
    expectOpenStepFailure(Array("<00> <01>".utf8), .unexpectedInput, line: 1, "data then data")
  }

  @Test func junkAfterAStringsBody() {
    expectOpenStepFailure(Array("\"a\" = \"b\";\n}".utf8), .unexpectedInput, line: 2, "stray brace")
    expectOpenStepFailure(Array("\"a\" = \"b\";\n= \"c\";".utf8), .unexpectedInput, line: 2, "entry without a key")
  }
}

@Suite("OpenStep reader: encodings")
struct OpenStepEncodingTests {
  static let text = "{ \"clé\" = \"日本 😀\"; k = v; }"
  static let expected: PropertyListValue = ["clé": "日本 😀", "k": "v"]

  static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
    var bytes: [UInt8] = []
    let units = (bom ? [0xFEFF] : []) + Array(text.utf16)
    for unit in units {
      let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
      bytes += bigEndian ? pair : pair.reversed()
    }
    return bytes
  }

  static func utf32(_ text: String, bigEndian: Bool) -> [UInt8] {
    var bytes: [UInt8] = []
    for scalar in [Unicode.Scalar(0xFEFF)!] + Array(text.unicodeScalars) {
      let v = scalar.value
      let quad = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
      bytes += bigEndian ? quad : quad.reversed()
    }
    return bytes
  }

  @Test func utf8WithAndWithoutBOM() throws {
    #expect(try PropertyListValue(decoding: Array(Self.text.utf8), format: .openStep) == Self.expected)
    #expect(try PropertyListValue(decoding: [0xEF, 0xBB, 0xBF] + Array(Self.text.utf8), format: .openStep) == Self.expected)
  }

  @Test(arguments: [true, false])
  func utf16WithBOM(bigEndian: Bool) throws {
    let bytes = Self.utf16(Self.text, bigEndian: bigEndian, bom: true)
    #expect(try PropertyListValue(decoding: bytes, format: .openStep) == Self.expected)
    #expect(try PropertyListValue(decoding: bytes) == Self.expected, "detected without a format")
  }

  @Test(arguments: [true, false])
  func utf16WithoutBOMIsGuessedFromTheNulByte(bigEndian: Bool) throws {
    let bytes = Self.utf16(Self.text, bigEndian: bigEndian, bom: false)
    #expect(bigEndian ? bytes[0] == 0 : bytes[1] == 0)
    #expect(try PropertyListValue(decoding: bytes, format: .openStep) == Self.expected)
  }

  @Test(arguments: [true, false])
  func utf32WithBOM(bigEndian: Bool) throws {
    let bytes = Self.utf32(Self.text, bigEndian: bigEndian)
    #expect(try PropertyListValue(decoding: bytes, format: .openStep) == Self.expected)
  }

  @Test func invalidUTF8IsABadEncodingErrorWithItsLine() {
    let cases: [(String, [UInt8])] = [
      ("lone continuation byte", Array("{\n a = \"".utf8) + [0x80] + Array("\"; }".utf8)),
      ("overlong NUL", Array("{\n a = \"".utf8) + [0xC0, 0x80] + Array("\"; }".utf8)),
      ("encoded surrogate", Array("{\n a = \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"; }".utf8)),
      ("above U+10FFFF", Array("{\n a = \"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\"; }".utf8)),
      ("byte 0xFF", Array("{\n a = \"".utf8) + [0xFF] + Array("\"; }".utf8)),
      ("truncated sequence", Array("{\n a = \"".utf8) + [0xE6, 0x97] + Array("\"; }".utf8)),
    ]
    for (name, bytes) in cases {
      expectOpenStepFailure(bytes, .badEncoding, line: 2, name)
    }
    expectOpenStepFailure(Array("\n\n/* ".utf8) + [0xC3] , .badEncoding, line: 3, "bad byte in a comment at the end")
  }

  @Test func invalidUTF16IsABadEncodingError() {
    expectOpenStepFailure([0xFE, 0xFF, 0x00, 0x28, 0xD8, 0x00, 0x00, 0x29], .badEncoding, line: 1, "lone high surrogate")
    expectOpenStepFailure([0xFF, 0xFE, 0x28, 0x00, 0x0A, 0x00, 0x00, 0xDC], .badEncoding, line: 2, "lone low surrogate")
    expectOpenStepFailure([0xFE, 0xFF, 0x00, 0x28, 0x00], .badEncoding, line: 1, "odd byte count")
    expectOpenStepFailure([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x11, 0x00, 0x00], .badEncoding, line: 1, "UTF-32 above U+10FFFF")
  }
}

@Suite("OpenStep reader: limits")
struct OpenStepLimitTests {
  @Test func depthLimit() throws {
    let ok = String(repeating: "(", count: 512) + String(repeating: ")", count: 512)
    _ = try openStep(ok)
    let tooDeep = String(repeating: "(", count: 513) + String(repeating: ")", count: 513)
    expectOpenStepFailure(Array(tooDeep.utf8), .tooDeep, line: 1, "513 nested arrays")
    var options = PropertyListReadingOptions()
    options.maximumDepth = 3
    _ = try openStep("{ a = ( { b = c; } ); }", options: options)
    #expect(throws: PropertyListError.self) { try openStep("{ a = ( { b = (c); } ); }", options: options) }
  }

  @Test func deepNestingDoesNotUseTheCallStack() throws {
    let depth = 5000
    var options = PropertyListReadingOptions()
    options.maximumDepth = depth
    let text = String(repeating: "(", count: depth) + "x" + String(repeating: ")", count: depth)
    var value = try openStep(text, options: options)
    var levels = 0
    while case .array(let inner) = value { value = inner[0]; levels += 1 }
    #expect(levels == depth)
    #expect(value == "x")
  }

  @Test func objectCountLimit() throws {
    var options = PropertyListReadingOptions()
    options.maximumObjectCount = 4
    _ = try openStep("(a, b, c)", options: options)
    expectError(PropertyListError.self, .limitExceeded) { try openStep("(a, b, c, d)", options: options) }
    // Keys count as values: { a = b; } is a dictionary, a key and a value.
    options.maximumObjectCount = 3
    _ = try openStep("{ a = b; }", options: options)
    #expect(throws: PropertyListError.self) { try openStep("{ a = b; c; }", options: options) }
  }
}

@Suite("OpenStep reader: broken inputs")
struct OpenStepBrokenInputTests {
  /// One good document broken in many named ways; each must fail with a typed error on the
  /// line where the damage is.
  static let cases: [(name: String, text: String, code: PropertyListError.Code, line: Int)] = [
    ("missing semicolon", "{\n  a = b;\n  c = d\n  e = f;\n}", .unexpectedInput, 4),
    ("missing semicolon before brace", "{\n  a = b\n}", .unexpectedInput, 3),
    ("missing equals", "{\n  a b;\n}", .unexpectedInput, 2),
    ("missing value", "{\n  a = ;\n}", .unexpectedInput, 2),
    ("non-string key", "{\n  (a) = b;\n}", .unexpectedInput, 2),
    ("unterminated dictionary", "{\n  a = b;\n", .truncated, 3),
    ("unterminated array", "(\n  a,\n  b\n", .truncated, 4),
    ("array without commas", "(\n  a\n  b\n)", .unexpectedInput, 3),
    ("double comma", "(a,,b)", .unexpectedInput, 1),
    ("lone comma", "( , )", .unexpectedInput, 1),
    ("unterminated string", "{\n  a = \"abc;\n}\n", .truncated, 2),
    ("unterminated single-quoted string", "(\n'abc)", .truncated, 2),
    ("backslash at the end", "\n\"abc\\", .truncated, 2),
    ("odd hex digits", "{\n  d = <0fA 12b>;\n}", .invalidValue, 2),
    ("non-hex in data", "{\n\n  d = <0fxx>;\n}", .unexpectedInput, 3),
    ("unterminated data", "<00 11", .truncated, 1),
    ("odd digit at end of data", "<0", .truncated, 1),
    ("closing bracket first", "\n)", .unexpectedInput, 2),
    ("closing brace first", "}", .unexpectedInput, 1),
    ("equals at the top", "= a;", .unexpectedInput, 1),
    ("semicolon at the top", ";", .unexpectedInput, 1),
    ("non-ASCII unquoted", "{ a = é; }", .unexpectedInput, 1),
    ("hash character", "{ a = #b; }", .unexpectedInput, 1),
    ("key then end", "{\n  a", .truncated, 2),
    ("key equals end", "{\n  a =", .truncated, 2),
    ("value then end", "{\n  a = b", .truncated, 2),
    ("strings file missing last semicolon", "\"a\" = \"b\";\n\"c\" = \"d\"", .truncated, 2),
    ("strings file missing semicolon mid-file", "\"a\" = \"b\";\n\"c\" = \"d\"\n\"e\" = \"f\";", .unexpectedInput, 3),
    ("strings file value without key", "\"a\" = \"b\";\n\n\"c\" = ;", .unexpectedInput, 3),
    ("CRLF line counting", "{\r\n a = b;\r\n c = d\r\n e = f;\r\n}", .unexpectedInput, 4),
    ("CR line counting", "{\r a = b;\r c = d\r e = f;\r}", .unexpectedInput, 4),
    ("comment does not hide damage", "{\n /* ok */ a = b;\n // fine\n c d;\n}", .unexpectedInput, 4),
    ("nested error line", "{\n a = {\n  b = (\n   c,\n   d e\n  );\n };\n}", .unexpectedInput, 5),
  ]

  @Test func namedBreakages() {
    for (name, text, code, line) in Self.cases {
      expectOpenStepFailure(Array(text.utf8), code, line: line, name)
    }
  }

  /// Every prefix of a valid document either reads or throws a typed error (no crash, no hang).
  @Test func everyTruncationOfARichDocument() throws {
    let text = """
      // !$*UTF8*$!
      { a = "quoted \\"escape\\" \\U00e9 \\101"; 'b' = ( x, y, <0001 0203>, { c; }, ); d = { }; e = (); }
      """
    let bytes = Array(text.utf8)
    _ = try PropertyListValue(decoding: bytes, format: .openStep)
    for length in 0..<bytes.count {
      do {
        _ = try PropertyListValue(decoding: Array(bytes[..<length]), format: .openStep)
      } catch {
        #expect(error.format == .openStep)
        guard case .line = error.position else {
          Issue.record("prefix \(length): no line number in \(error)")
          continue
        }
      }
    }
  }

  /// Random byte mutations of a valid document: any outcome but a crash is acceptable, and
  /// errors must be typed.
  @Test func randomMutations() {
    let good = Array("{ a = ( \"x y\", <00ff>, z ); b = { c = d; }; \"e\\n\" = '\\U00e9'; }".utf8)
    var rng = SplitMix64(seed: 0x05E_57E9)
    let alphabet = Array("{}()<>;=,\"'\\/*\n 0aZ".utf8) + [0x00, 0x80, 0xE2, 0xFF]
    for round in 0..<2000 {
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
        _ = try PropertyListValue(decoding: bytes, format: .openStep)
      } catch {
        #expect(error.format == .openStep, "round \(round)")
      }
    }
  }
}

@Suite("OpenStep reader: corpus", .enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct OpenStepCorpusTests {
  static let plainFiles: [CorpusFile] =
    Corpus.files(in: "openstep").filter { !$0.lastPathComponent.hasSuffix("_expected.plist") }

  static let xcodeProjects: [CorpusFile] = Corpus.files(in: "openstep").filter { $0.lastPathComponent.hasSuffix(".pbxproj") }

  /// The per-file test below has one case per file; this keeps a missing or emptied folder from
  /// passing with no cases.
  @Test func corpusHoldsTheOpenStepFiles() {
    #expect(Self.plainFiles.count >= 7)
  }

  @Test(arguments: plainFiles)
  func everyOpenStepFileReads(_ file: CorpusFile) throws {
    let bytes = try file.data()
    do {
      let value = try PropertyListValue(decoding: bytes, format: .openStep)
      #expect(value.objectCount > 1, "\(file.name)")
    } catch {
      Issue.record("\(file.name): \(error)")
    }
  }

  @Test(arguments: xcodeProjects)
  func xcodeProjectsHaveTheirStructure(_ file: CorpusFile) throws {
    let value = try PropertyListValue(decoding: try file.data(), format: .openStep)
    #expect(value["archiveVersion"] == "1", "\(file.name)")
    #expect(value["objectVersion"]?.stringValue != nil, "\(file.name)")
    guard let root = value["rootObject"]?.stringValue, let objects = value["objects"]?.dictionaryValue else {
      Issue.record("\(file.name): no rootObject/objects")
      return
    }
    #expect(objects[root]?["isa"] == "PBXProject", "\(file.name)")
    #expect(objects.count > 20)
    // Detection without a format gives the same result.
    #expect(try PropertyListValue(decoding: try file.data()) == value)
  }

  @Test func gnustepNonASCIIFilesAgreeAcrossEncodings() throws {
    let utf8 = try PropertyListValue(decoding: try Data(contentsOf: Corpus.root.appendingPathComponent("openstep/gnustep/non_ascii_utf8.plist")), format: .openStep)
    let utf16 = try PropertyListValue(decoding: try Data(contentsOf: Corpus.root.appendingPathComponent("openstep/gnustep/non_ascii_utf16.plist")), format: .openStep)
    // The UTF-8 file really holds doubly encoded text ("Ã¥" for "å", bytes C3 83 C2 A5); the
    // UTF-16 file holds the intended characters. Both must read as what their bytes say.
    #expect(utf8["ascii"] == "ascii")
    #expect(utf16["ascii"] == "ascii")
    #expect(utf16["Quoted non-ascii åäö"] == "åäö")
    #expect(utf16["NågotMindreAscii"] == "foo")
    #expect(utf8["Quoted non-ascii Ã¥Ã¤Ã¶"] == "Ã¥Ã¤Ã¶")
    #expect(utf8.dictionaryValue?.count == utf16.dictionaryValue?.count)
  }

  /// swift-foundation's escape fixtures: reading the OpenStep file must give the value in the
  /// matching `_expected` binary property list (produced by Apple's parser).
  @Test(arguments: ["octal", "unicode"])
  func escapeFixturesMatchTheirExpectedValues(_ kind: String) throws {
    let source = Corpus.root.appendingPathComponent("openstep/test_oldStylePlist_getSlashedChars_\(kind).plist")
    let expectedURL = Corpus.root.appendingPathComponent("openstep/test_oldStylePlist_getSlashedChars_\(kind)_expected.plist")
    let value = try PropertyListValue(decoding: try Data(contentsOf: source), format: .openStep)
    let expected = try PropertyListValue(decoding: try Data(contentsOf: expectedURL))
    guard case .array(let got) = value, case .array(let want) = expected else {
      Issue.record("both files should hold arrays")
      return
    }
    #expect(got.count == want.count)
    for (index, (a, b)) in zip(got, want).enumerated() where a != b {
      Issue.record("\(kind) element \(index): read \(a), expected \(b)")
      break
    }
  }
}
