import Foundation
import PropertyLists
import TestSupport
import Testing

/// Whether the XML reader has landed (it is written concurrently).
private let xmlReaderLanded: Bool = {
  let probe = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><string>x</string></plist>"#
  return (try? PropertyListValue(decoding: Array(probe.utf8))) == .string("x")
}()

/// Stasis's JSON against the toolchain's own `plutil` (swift-corelibs-foundation's port of
/// Apple's tool, whose JSON is `JSONSerialization`).
@Suite("JSON compatibility with the toolchain's plutil", .enabled(if: ToolchainPlutil.isAvailable, ToolchainPlutil.missingReason))
struct JSONPlutilCompatibilityTests {
  static let seeds = 0..<300 as Range<UInt64>

  static func documents(_ seeds: Range<UInt64>) -> [PropertyListValue] {
    seeds.map { seed in
      var generator = RandomPropertyList(seed: seed, kinds: .json)
      return generator.document()
    }
  }

  /// plutil reads Stasis's JSON (and writes it as a binary property list, which Stasis reads
  /// back to the same values). Two swift-corelibs-foundation JSONSerialization quirks are
  /// tolerated: it parses fractions through `Decimal`, whose conversion to `Double` is not
  /// correctly rounded (`0.8846152064816123` becomes `0.8846152064816121`), so reals are
  /// compared to within a few ulps; and it reads negative integers of 19 digits
  /// (`-1355044747702326136`) as reals, so such an integer may come back as the nearest real.
  @Test func plutilReadsOurJSON() throws {
    let documents = Self.documents(Self.seeds)
    let ours = try PropertyListValue.array(documents).encodedBytes(as: .json)
    let outcome = try ToolchainPlutil.run(["-convert", "binary1", "-o", "-", "-"], input: ours)
    #expect(outcome.status == 0, "plutil: \(outcome.errorOutput)")
    try expectSameDocuments(PropertyListValue(decoding: outcome.output), documents, exactReals: false)
  }

  /// plutil writes JSON from a property list (given to it in binary); Stasis reads that JSON
  /// back to the same values.
  @Test func weReadPlutilsJSON() throws {
    let documents = Self.documents(Self.seeds)
    for options in [["-convert", "json"], ["-convert", "json", "-r"]] {
      let outcome = try ToolchainPlutil.run(options + ["-o", "-", "-"], input: try PropertyListValue.array(documents).encodedBytes(as: .binary))
      #expect(outcome.status == 0, "plutil: \(outcome.errorOutput)")
      try expectSameDocuments(PropertyListValue(decoding: outcome.output, format: .json), documents)
    }
  }

  private func expectSameDocuments(_ read: PropertyListValue, _ documents: [PropertyListValue], exactReals: Bool = true) {
    guard case .array(let values) = read, values.count == documents.count else {
      Issue.record("plutil's output is not an array of \(documents.count) documents")
      return
    }
    for (seed, (document, back)) in zip(Self.seeds, zip(documents, values)) {
      let expected = jsonTripExpectation(document)
      if exactReals {
        #expect(back == expected, "seed \(seed)")
      } else {
        if let difference = Self.firstDifference(back, expected) { Issue.record("seed \(seed): \(difference.debugDescription)") }
      }
    }
  }

  /// Equal, except that reals may differ in their last few bits.
  static func nearlyEqual(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
    firstDifference(a, b) == nil
  }

  /// Where `a` and `b` first differ (reals may differ in their last few bits), or `nil`.
  static func firstDifference(_ a: PropertyListValue, _ b: PropertyListValue, path: String = "") -> String? {
    switch (a, b) {
    case (.real(let x, _), .real(let y, _)):
      return x == y || abs(x - y) <= 8 * max(x.ulp, y.ulp) ? nil : "\(path): \(x) vs \(y)"
    case (.real(let x, _), .integer(let y)) where y.isNegative && y.int64Value.map({ $0 <= -1_000_000_000_000_000_000 }) == true:
      return abs(x - y.doubleValue) <= 8 * x.ulp ? nil : "\(path): \(x) vs \(y)"
    case (.array(let x), .array(let y)):
      guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) elements" }
      for (index, (p, q)) in zip(x, y).enumerated() {
        if let difference = firstDifference(p, q, path: "\(path).\(index)") { return difference }
      }
      return nil
    case (.dictionary(let x), .dictionary(let y)):
      guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) keys" }
      for (key, value) in x {
        guard let other = y[key] else { return "\(path): key \(key.debugDescription) missing" }
        if let difference = firstDifference(value, other, path: "\(path).\(key.debugDescription)") { return difference }
      }
      return nil
    default:
      return a == b ? nil : "\(path): \(a) vs \(b)"
    }
  }

  /// Pretty-printed, sorted output is byte-identical to `plutil -convert json -r` of the same
  /// property list, one document per run so a failure names its seed. (plutil is given the
  /// property list in binary: reals it reads from JSON keep their decimal text and print
  /// differently, e.g. `1e-53` as `0.000…01`, a swift-corelibs-foundation peculiarity.)
  @Test(arguments: 0..<120 as Range<UInt64>)
  func prettyOutputIsByteIdentical(seed: UInt64) throws {
    let document = Self.documents(seed..<(seed + 1))[0]
    let outcome = try ToolchainPlutil.run(["-convert", "json", "-r", "-o", "-", "-"], input: try document.encodedBytes(as: .binary))
    #expect(outcome.status == 0, "plutil: \(outcome.errorOutput)")
    let ours = try document.encodedBytes(as: .json, options: .init(prettyPrinted: true, sortedKeys: true))
    if ours != outcome.output {
      Issue.record("seed \(seed): differs from plutil -r\n--- Stasis\n\(String(decoding: ours, as: UTF8.self))\n--- plutil\n\(String(decoding: outcome.output, as: UTF8.self))")
    }
  }

  /// Values chosen to stress number formatting and escapes, compared byte for byte (arrays, so
  /// plutil's unordered dictionaries do not matter).
  @Test func awkwardScalarsAreByteIdentical() throws {
    var rng = SplitMix64(seed: 99)
    var values: [PropertyListValue] = [
      .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64.max)), .real(-0.0), .real(.leastNonzeroMagnitude),
      .real(1.7976931348623157e308), .real(0.1), .real(1e15), .real(1e16), .real(123456789.125), .real(1e-53),
      .string("\u{0}\u{1F}\u{7F}/\\\"\u{2028}\u{FEFF}é😀🇯🇵"), true, false,
    ]
    for _ in 0..<300 {
      let real = Double(bitPattern: rng.next())
      if real.isFinite { values.append(.real(real)) }
      values.append(.real(Double.random(in: -1e7...1e7, using: &rng)))
      values.append(.integer(PropertyListInteger(Int64.random(in: .min ... .max, using: &rng))))
    }
    let value = PropertyListValue.array(values)
    let outcome = try ToolchainPlutil.run(["-convert", "json", "-o", "-", "-"], input: try value.encodedBytes(as: .binary))
    #expect(outcome.status == 0, "plutil: \(outcome.errorOutput)")
    let ours = try value.encodedBytes(as: .json)
    // Compare token by token (the only string holds no comma) so a failure names the value.
    let mine = String(decoding: ours, as: UTF8.self).split(separator: ",")
    let plutils = String(decoding: outcome.output, as: UTF8.self).split(separator: ",")
    #expect(mine.count == plutils.count)
    for (a, b) in zip(mine, plutils) where a != b {
      Issue.record("Stasis wrote \(a), plutil wrote \(b)")
    }
  }

  /// What plutil makes of JSON `bytes` (through binary, which Stasis reads), or `nil` when it
  /// rejects them. Only meaningful for documents starting with `[` or `{`: plutil tries
  /// OpenStep first, which accepts other things.
  static func plutilValue(_ bytes: [UInt8]) throws -> PropertyListValue? {
    let outcome = try ToolchainPlutil.run(["-convert", "binary1", "-o", "-", "-"], input: bytes)
    guard outcome.status == 0 else { return nil }
    return try PropertyListValue(decoding: outcome.output, format: .binary)
  }

  static func startsWithBracket(_ bytes: [UInt8]) -> Bool {
    let first = bytes.first { ![0x20, 0x0A, 0x09, 0x0D].contains($0) }
    return first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
  }

  /// The hand-broken documents of the reader tests are rejected by plutil too.
  @Test func plutilRejectsTheBrokenDocuments() throws {
    for (name, text, _, _) in JSONReaderBrokenInputTests.cases where Self.startsWithBracket(Array(text.utf8)) {
      #expect(try Self.plutilValue(Array(text.utf8)) == nil, "plutil accepts \(name)")
    }
  }

  /// Differential fuzzing: random mutations of a document are accepted by both or rejected by
  /// both, and read the same when accepted (up to the corelibs number quirks described above).
  @Test func mutatedDocumentsAgree() throws {
    let good = Array(#"{"a":[1,2.5e-3,"x\n\u00e9",true,-7,{"b":[]}],"c":-0,"d":"\ud83d\ude00"}"#.utf8)
    var rng = SplitMix64(seed: 77)
    let alphabet = Array("{}[]:,\"\\0123456789eE+-.tfnul /".utf8)
    var compared = 0
    for round in 0..<400 where compared < 150 {
      var bytes = good
      for _ in 0...Int.random(in: 0...2, using: &rng) {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes[at] = alphabet.randomElement(using: &rng)!
        case 1: bytes.remove(at: at)
        default: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
        }
      }
      guard Self.startsWithBracket(bytes) else { continue }
      compared += 1
      let text = String(decoding: bytes, as: UTF8.self)
      let theirs = try Self.plutilValue(bytes)
      let ours = try? PropertyListValue(decoding: bytes, format: .json)
      switch (ours, theirs) {
      case (let ours?, let theirs?):
        if let difference = Self.firstDifference(theirs, ours) { Issue.record("round \(round): \(text): \(difference)") }
      case (.some, nil):
        Issue.record("round \(round): Stasis accepts what plutil rejects: \(text)")
      case (nil, .some):
        Issue.record("round \(round): Stasis rejects what plutil accepts: \(text)")
      case (nil, nil):
        break
      }
    }
    #expect(compared >= 100)
  }

  /// plutil refuses what Stasis refuses.
  @Test func plutilAlsoRejectsNull() throws {
    let outcome = try ToolchainPlutil.run(["-convert", "json", "-o", "-", "-"], input: Array("[1, null]".utf8))
    #expect(outcome.status != 0)
    expectError(PropertyListError.self, .unrepresentable) { try PropertyListValue(decoding: Array("[1, null]".utf8), format: .json) }
  }

  /// plutil converts Stasis's JSON to XML; Stasis reads the XML to the same values.
  @Test(.enabled(if: xmlReaderLanded, "the XML reader has not landed yet"))
  func plutilXMLFromOurJSON() throws {
    let documents = Self.documents(Self.seeds)
    for (seed, document) in zip(Self.seeds, documents) {
      let outcome = try ToolchainPlutil.run(["-convert", "xml1", "-o", "-", "-"], input: try document.encodedBytes(as: .json))
      #expect(outcome.status == 0, "seed \(seed): \(outcome.errorOutput)")
      if let difference = Self.firstDifference(try PropertyListValue(decoding: outcome.output), jsonTripExpectation(document)) {
        Issue.record("seed \(seed): \(difference)")
      }
    }
  }
}
