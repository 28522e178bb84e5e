import Bundles
import FoundationEssentials
import PropertyLists
import TestSupport
import Testing
import StasisSystem

/// Malformed formats, tables and folders must give typed errors (or an answer), never a crash.
@Suite struct HostileInputTests {
  static let alphabet: [String] = [
    "%", "%%", "d", "@", "$", "1", "2", "9", "0", "*", ".", "-", "+", " ", "#", "'", "l", "ll", "h", "hh", "q", "z",
    "f", "e", "g", "x", "o", "c", "s", "p", "u", "a", "#@v@", "%1$", "%2$", "%99999999$", "%*", "%.*", "é", "日", "@",
  ]

  @Test(arguments: 0 ..< 4 as Range<UInt64>)
  func randomFormatsThrowOrFormat(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let values: [FormatValue] = [.int(-7), .uint(42), .double(2.5), .string("s"), .character("c"), .null, .object("o")]
    var formatted = 0
    var rejected = 0
    for _ in 0 ..< 2_000 {
      var format = ""
      for _ in 0 ..< Int.random(in: 1 ... 12, using: &rng) { format += Self.alphabet.randomElement(using: &rng)! }
      let arguments = (0 ..< Int.random(in: 0 ... 4, using: &rng)).map { _ in values.randomElement(using: &rng)! }
      do {
        _ = try StringFormat.format(format, arguments)
        formatted += 1
      } catch let error {
        #expect(error.code == .formatMismatch || error.code == .invalidFormat, "\(format)")
        rejected += 1
      }
      let variables = ["v": LocalizedFormat.Variable(ruleType: "NSStringPluralRuleType", valueType: "d", variants: ["other": format])]
      _ = try? LocalizedFormat(format: format, variables: variables, language: "ru").formatted(arguments)
    }
    #expect(formatted > 0 && rejected > 0)
  }

  @Test func malformedTablesAreTypedErrors() throws {
    let scratch = try ScratchFolder("hostile")
    defer { scratch.remove() }
    let root = scratch.path
    let cases: [(String, [UInt8])] = [
      ("unterminated.strings", Array("\"a\" = \"b".utf8)),
      ("nosemicolon.strings", Array("\"a\" = \"b\"\n\"c\" = \"d\";".utf8)),
      ("badutf8.strings", [0x22, 0x61, 0x22, 0x3D, 0x22, 0xFF, 0xFE, 0x22, 0x3B]),
      ("array.strings", Array("(\"a\", \"b\")".utf8)),
      ("deep.strings", Array(("\"a\" = " + String(repeating: "(", count: 600) + String(repeating: ")", count: 600) + ";").utf8)),
      ("truncated.stringsdict", Array("<?xml version=\"1.0\"?><plist><dict><key>k</key>".utf8)),
      ("noformatkey.stringsdict", try PropertyListValue.dictionary(["k": ["x": "y"]]).encodedBytes(as: .xml)),
      ("binarytruncated.strings", Array("bplist00\u{1}\u{2}".utf8)),
    ]
    for (name, bytes) in cases {
      DemoBundle.write(bytes, to: root + "/" + name)
      let error = expectError(BundleError.self, .invalidTable) {
        name.hasSuffix("dict")
          ? try StringTable.readStringsdict(atPath: root + "/" + name, language: "en").count
          : try StringTable.readStrings(atPath: root + "/" + name).count
      }
      #expect(error?.path == root + "/" + name, "\(name)")
    }
    expectError(BundleError.self, .fileSystem) { try StringTable.readStrings(atPath: root + "/absent.strings") }
    // Empty and whitespace-only tables are empty dictionaries, as in CF.
    DemoBundle.write([], to: root + "/empty.strings")
    #expect(try StringTable.readStrings(atPath: root + "/empty.strings").isEmpty)
    DemoBundle.write(" \n/* nothing */\n", to: root + "/blank.strings")
    #expect(try StringTable.readStrings(atPath: root + "/blank.strings").isEmpty)
  }

  @Test func randomBytesAsTablesNeverCrash() throws {
    let scratch = try ScratchFolder("random")
    defer { scratch.remove() }
    let root = scratch.path
    var rng = SplitMix64(seed: 5)
    let seedText = Array("/* c */ \"key\" = \"value\\n\\U00e9\";\n\"k2\";\nplain = x;\n".utf8)
    for round in 0 ..< 300 {
      var bytes = seedText
      for _ in 0 ..< Int.random(in: 1 ... 6, using: &rng) {
        let index = Int.random(in: 0 ..< bytes.count, using: &rng)
        switch Int.random(in: 0 ..< 3, using: &rng) {
        case 0: bytes[index] = UInt8.random(in: 0 ... 255, using: &rng)
        case 1: bytes.remove(at: index)
        default: bytes.insert(UInt8.random(in: 0 ... 255, using: &rng), at: index)
        }
        if bytes.isEmpty { bytes = [0x22] }
      }
      let path = root + "/r\(round).strings"
      DemoBundle.write(bytes, to: path)
      do { _ = try StringTable.readStrings(atPath: path) } catch { #expect(error.code == .invalidTable) }
    }
  }
}
