import Foundation
import PropertyLists
import TestSupport
import Testing

/// The toolchain's `plutil` parses OpenStep with CoreFoundation's own C parser
/// (swift-corelibs-foundation ships CF), so it is Apple's reader. These tests have it convert
/// OpenStep documents to XML and check that Stasis reads the same values from the OpenStep text.
private let xmlReaderIsBuilt: Bool = {
  let probe = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><string>x</string></plist>"#
  return (try? PropertyListValue(decoding: Array(probe.utf8))) == .string("x")
}()

@Suite(
  "OpenStep agreement with CoreFoundation's parser (toolchain plutil)",
  .enabled(if: ToolchainPlutil.isAvailable, ToolchainPlutil.missingReason),
  .enabled(if: xmlReaderIsBuilt, "the XML reader has not landed yet")
)
struct OpenStepPlutilAgreementTests {
  /// What CF makes of `bytes`, or `nil` when it rejects them.
  static func coreFoundationValue(_ bytes: [UInt8]) throws -> PropertyListValue? {
    let outcome = try ToolchainPlutil.run(["-convert", "xml1", "-o", "-", "-"], input: bytes)
    guard outcome.status == 0 else { return nil }
    return try PropertyListValue(decoding: outcome.output, format: .xml)
  }

  static let corpusFiles: [CorpusFile] =
    Corpus.files(in: "openstep").filter { !$0.lastPathComponent.hasSuffix("_expected.plist") }
    + Corpus.files(in: "strings").filter { $0.pathExtension == "strings" }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: corpusFiles)
  func corpusFilesReadAsCoreFoundationReadsThem(_ file: CorpusFile) throws {
    let bytes = try file.bytes()
    guard !bytes.isEmpty else { return }
    guard let expected = try Self.coreFoundationValue(bytes) else {
      Issue.record("\(file.name): plutil rejects it")
      return
    }
    #expect(try PropertyListValue(decoding: bytes, format: file.pathExtension == "strings" ? .strings : .openStep) == expected, "\(file.name)")
  }

  /// Generated documents written by Stasis (quoting, escapes, data, nesting) read the same in CF.
  @Test(arguments: 0..<60 as Range<UInt64>)
  func generatedDocumentsReadTheSame(seed: UInt64) throws {
    var generator = RandomPropertyList(seed: seed, kinds: .openStep)
    let document = generator.document()
    let bytes = try document.encodedBytes(as: .openStep)
    #expect(try Self.coreFoundationValue(bytes) == document, "seed \(seed)")
    let table = try document.encodedBytes(as: .strings)
    if !table.isEmpty {
      #expect(try Self.coreFoundationValue(table) == document, "seed \(seed), strings")
    }
  }

  /// Hand-written documents exercising the grammar's corners.
  @Test func grammarCornersReadTheSame() throws {
    let documents = [
      #"{ a = b; c; "d e" = ( x, 'y', <0f 1e>, ); f = { }; }"#,
      #"( "\a\b\f\n\r\t\v\"\\\'\q", "\101\0\1018\200\373\376", "\U00e9\U41x\UD83D\UDE00\UD83D" )"#,
      "/* c */ // d\n( a // e\n, b /* f */ )",
      "\"a\" = \"b\";\n\"c\";\nd = (e);",
      "{ a = 1; a = 2; }",
      "  \n ",
      "( \u{2028}a\u{2029} )",
      "<00\u{2028}11\t22\n33>",
    ]
    for text in documents {
      let bytes = Array(text.utf8)
      let ours = try PropertyListValue(decoding: bytes, format: .openStep)
      let theirs = try Self.coreFoundationValue(bytes)
      #expect(ours == theirs, "\(text.debugDescription): Stasis \(ours), CF \(String(describing: theirs))")
    }
  }

  /// Differential fuzzing: random mutations of a document. Whatever CF rejects, Stasis rejects;
  /// whatever both accept reads the same. Stasis may reject a document that CF accepts only
  /// when CF read it as a strings file and dropped text after the last entry.
  @Test func mutatedDocumentsAgree() throws {
    let good = Array("{ a = ( \"x y\", <00ff>, z, ); b = { c = d; e; }; \"f\\n\" = '\\U00e9\\101'; }".utf8)
    var rng = SplitMix64(seed: 2024)
    let alphabet = Array("{}()<>;=,\"'\\/*\n 0aZ".utf8)
    for round in 0..<150 {
      var bytes = good
      for _ in 0...Int.random(in: 0...2, using: &rng) {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes[at] = alphabet.randomElement(using: &rng)!
        case 1: bytes.remove(at: at)
        default: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
        }
      }
      let text = String(decoding: bytes, as: UTF8.self).debugDescription
      let theirs = try Self.coreFoundationValue(bytes)
      let ours = try? PropertyListValue(decoding: bytes, format: .openStep)
      switch (ours, theirs) {
      case (let ours?, let theirs?):
        #expect(ours == theirs, "round \(round): \(text)")
      case (.some, nil):
        Issue.record("round \(round): Stasis accepts what CF rejects: \(text)")
      case (nil, .some(let theirs)):
        let first = bytes.first { ![0x20, 0x0A, 0x09].contains($0) }
        let startsWithString = first.map { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || OpenStepPlutilAgreementTests.isWordByte($0) } ?? false
        #expect(startsWithString && theirs.dictionaryValue != nil, "round \(round): Stasis rejects what CF accepts: \(text)")
      case (nil, nil):
        break
      }
    }
  }

  static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
    case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): true
    default: false
    }
  }

  /// Stasis rejects what CF rejects. (Stasis is stricter in one documented place: text after a
  /// strings-file body, which CF silently drops.)
  @Test func brokenDocumentsAreRejectedByBoth() throws {
    let broken = [
      "{ a = b }", "{ a b; }", "( a b )", "(a,,b)", "{ a = \"b; }", "<0fA 12b>", "<0g>", "( a ) x", "{ a = b; } c",
      "\"a\" = \"b\"; \"c\" = \"d\"", "{ = b; }", "{ (a) = b; }", "é", "( a", "{ a = b;", "\"abc\\",
    ]
    for text in broken {
      let bytes = Array(text.utf8)
      #expect(try Self.coreFoundationValue(bytes) == nil, "CF should reject \(text)")
      #expect(throws: PropertyListError.self, "Stasis should reject \(text)") { try PropertyListValue(decoding: bytes, format: .openStep) }
    }
    // The documented difference: CF stops at the first token that cannot start a key.
    let lenient = "\"a\" = \"b\";\n}"
    #expect(try Self.coreFoundationValue(Array(lenient.utf8)) == ["a": "b"])
    #expect(throws: PropertyListError.self) { try PropertyListValue(decoding: Array(lenient.utf8), format: .openStep) }
  }
}
