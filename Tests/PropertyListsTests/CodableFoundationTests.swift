import Foundation
import Testing
import TestSupport

@testable import PropertyLists

// Side by side with the Foundation on this machine: what one encodes, the other decodes to an
// equal Swift value; both produce the same property-list tree; both throw the same errors.
//
// Foundation's bytes reach Stasis through `FoundationPlistBridge` (Foundation's own
// `PropertyListSerialization` turning bytes into objects, then into a `PropertyListValue`), so
// these comparisons do not depend on Stasis's readers and writers; the tests marked with a codec
// condition also go through Stasis's own bytes.

enum CodableFoundations {
  static func encode<T: Encodable>(_ value: T, xml: Bool) throws -> Data {
    let encoder = FoundationEncoder()
    encoder.outputFormat = xml ? .xml : .binary
    return try encoder.encode(value)
  }
}

/// A value under the key "v".
struct CodableWrapped<T> {
  var v: T
}
extension CodableWrapped: Encodable where T: Encodable {}
extension CodableWrapped: Decodable where T: Decodable {}
extension CodableWrapped: Equatable where T: Equatable {}

@Suite("Codable agreement with Foundation")
struct CodableFoundationTests {
  // MARK: Same tree

  @Test(arguments: 0..<12 as Range<UInt64>)
  func stasisEncodesTheTreeFoundationEncodes(seed: UInt64) throws {
    let store = ItemStore.generate(seed: seed, itemCount: Int(seed % 5) * 4)
    let model = RichModel.random(seed: seed)
    for xml in [false, true] {
      let storeFromFoundation = try FoundationPlistBridge.read(CodableFoundations.encode(store, xml: xml))
      #expect(try StasisEncoder().encodeToValue(store) == storeFromFoundation, "seed \(seed), xml \(xml)")
      let modelFromFoundation = try FoundationPlistBridge.read(CodableFoundations.encode(model, xml: xml))
      #expect(try StasisEncoder().encodeToValue(model) == modelFromFoundation, "seed \(seed), xml \(xml)")
    }
  }

  @Test func treesAgreeOnTypesAndKeyOrder() throws {
    // Binary keeps Float's 32-bit width and the order keys were encoded in; compare both.
    let model = RichModel.random(seed: 7)
    let ours = try StasisEncoder().encodeToValue(model)
    let theirs = try FoundationPlistBridge.read(CodableFoundations.encode(model, xml: false))
    #expect(ours == theirs)
    guard case .real(_, let width)? = ours["float"], case .real(_, let theirWidth)? = theirs["float"] else {
      Issue.record("float is not a real")
      return
    }
    #expect(width == .single && theirWidth == .single)
  }

  // MARK: Decoding what Foundation wrote

  @Test(arguments: 0..<12 as Range<UInt64>)
  func stasisDecodesWhatFoundationEncodes(seed: UInt64) throws {
    let store = ItemStore.generate(seed: seed &+ 100, itemCount: Int(seed) * 3)
    let model = RichModel.random(seed: seed &+ 100)
    for xml in [false, true] {
      let storeValue = try FoundationPlistBridge.read(CodableFoundations.encode(store, xml: xml))
      #expect(try StasisDecoder().decode(ItemStore.self, from: storeValue) == store, "seed \(seed), xml \(xml)")
      let modelValue = try FoundationPlistBridge.read(CodableFoundations.encode(model, xml: xml))
      #expect(try StasisDecoder().decode(RichModel.self, from: modelValue) == model, "seed \(seed), xml \(xml)")
    }
  }

  @Test(.enabled(if: stasisCodecAvailable(.binary), "the Stasis binary codec is not built yet"))
  func stasisDecodesFoundationBinaryBytes() throws { try stasisDecodesFoundationBytes(xml: false) }

  @Test(.enabled(if: stasisCodecAvailable(.xml), "the Stasis XML codec is not built yet"))
  func stasisDecodesFoundationXMLBytes() throws { try stasisDecodesFoundationBytes(xml: true) }

  private func stasisDecodesFoundationBytes(xml: Bool) throws {
    for seed in 0..<10 as Range<UInt64> {
      let store = ItemStore.generate(seed: seed &+ 200, itemCount: 20)
      let model = RichModel.random(seed: seed &+ 200)
      var format = PropertyLists.PropertyListFormat.json
      #expect(
        try StasisDecoder().decode(ItemStore.self, from: CodableFoundations.encode(store, xml: xml), format: &format) == store,
        "seed \(seed)")
      #expect(format == (xml ? .xml : .binary))
      #expect(try StasisDecoder().decode(RichModel.self, from: CodableFoundations.encode(model, xml: xml)) == model, "seed \(seed)")
      let animals = [CodablePuppy(name: "p\(seed)", breed: "b", ageInWeeks: UInt16(seed))]
      #expect(try StasisDecoder().decode([CodablePuppy].self, from: CodableFoundations.encode(animals, xml: xml)) == animals)
    }
  }

  // MARK: Foundation decoding what Stasis wrote

  @Test(arguments: 0..<12 as Range<UInt64>)
  func foundationDecodesWhatStasisEncodes(seed: UInt64) throws {
    let store = ItemStore.generate(seed: seed &+ 300, itemCount: Int(seed) * 3)
    let model = RichModel.random(seed: seed &+ 300)
    for xml in [false, true] {
      let storeBytes = try FoundationPlistBridge.write(StasisEncoder().encodeToValue(store), xml: xml)
      #expect(try FoundationDecoder().decode(ItemStore.self, from: storeBytes) == store, "seed \(seed), xml \(xml)")
      let modelBytes = try FoundationPlistBridge.write(StasisEncoder().encodeToValue(model), xml: xml)
      #expect(try FoundationDecoder().decode(RichModel.self, from: modelBytes) == model, "seed \(seed), xml \(xml)")
    }
  }

  @Test(.enabled(if: stasisCodecAvailable(.binary), "the Stasis binary codec is not built yet"))
  func foundationDecodesStasisBinaryBytes() throws { try foundationDecodesStasisBytes(.binary) }

  @Test(.enabled(if: stasisCodecAvailable(.xml), "the Stasis XML codec is not built yet"))
  func foundationDecodesStasisXMLBytes() throws { try foundationDecodesStasisBytes(.xml) }

  private func foundationDecodesStasisBytes(_ format: PropertyLists.PropertyListFormat) throws {
    let encoder = StasisEncoder()
    encoder.outputFormat = format
    for seed in 0..<10 as Range<UInt64> {
      let store = ItemStore.generate(seed: seed &+ 400, itemCount: 20)
      let model = RichModel.random(seed: seed &+ 400)
      var detected = FoundationDecoder.PropertyListFormat.openStep
      #expect(try FoundationDecoder().decode(ItemStore.self, from: encoder.encode(store), format: &detected) == store, "seed \(seed)")
      #expect(detected == (format == .xml ? .xml : .binary))
      #expect(try FoundationDecoder().decode(RichModel.self, from: encoder.encode(model)) == model, "seed \(seed)")
    }
  }

  // MARK: Python's plistlib, read by both

  /// The benchmark's own generator writes a small data set; Foundation and Stasis must decode it
  /// to the same `ItemStore`.
  @Test(.enabled(if: PythonDataSet.isAvailable, "python3 or Tests/Fixtures/bench/gen_data.py not found"))
  func benchmarkDataSetDecodesLikeFoundation() throws {
    let scratch = try PythonDataSet.generateSmall()
    defer { scratch.remove() }
    let folder = scratch.url
    for name in ["plist-small.bplist", "plist-small.xml"] {
      let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
      let expected = try FoundationDecoder().decode(ItemStore.self, from: bytes)
      #expect(expected.items.count > 20, "\(name) holds \(expected.items.count) items")
      let value = try FoundationPlistBridge.read(bytes)
      #expect(try StasisDecoder().decode(ItemStore.self, from: value) == expected, "\(name)")
    }
  }

  @Test(
    .enabled(if: PythonDataSet.isAvailable, "python3 or Tests/Fixtures/bench/gen_data.py not found"),
    .enabled(if: stasisCodecAvailable(.binary), "the Stasis binary codec is not built yet"))
  func benchmarkBinaryDataSetDecodesFromBytes() throws { try benchmarkDataSetDecodesFromBytes("plist-small.bplist") }

  @Test(
    .enabled(if: PythonDataSet.isAvailable, "python3 or Tests/Fixtures/bench/gen_data.py not found"),
    .enabled(if: stasisCodecAvailable(.xml), "the Stasis XML codec is not built yet"))
  func benchmarkXMLDataSetDecodesFromBytes() throws { try benchmarkDataSetDecodesFromBytes("plist-small.xml") }

  private func benchmarkDataSetDecodesFromBytes(_ name: String) throws {
    let scratch = try PythonDataSet.generateSmall()
    defer { scratch.remove() }
    let folder = scratch.url
    let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
    let expected = try FoundationDecoder().decode(ItemStore.self, from: bytes)
    #expect(try StasisDecoder().decode(ItemStore.self, from: bytes) == expected, "\(name)")
  }
}

/// Runs the benchmark's data generator (`Tests/Fixtures/bench/gen_data.py --only small`, a copy of
/// the script the benchmark figures are measured on) into a temporary folder.
enum PythonDataSet {
  static var script: URL {
    Corpus.repositoryRoot.appendingPathComponent("Tests/Fixtures/bench/gen_data.py")
  }

  static var python: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
    return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static var isAvailable: Bool {
    python != nil && FileManager.default.fileExists(atPath: script.path)
  }

  static func generateSmall() throws -> ScratchFolder {
    let folder = try ScratchFolder("codable")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python!)
    process.arguments = [script.path, "--only", "small", "--out", folder.path]
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "gen_data.py exited with \(process.terminationStatus)")
    return folder
  }
}
