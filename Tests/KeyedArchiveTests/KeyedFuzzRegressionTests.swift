import Foundation
import Testing

import KeyedArchive
import KeyedArchiveFuzzChecks
import PropertyLists
import TestSupport

/// Replays every input FuzzKeyedUnarchiver ever crashed on (Fuzz/FailCases/FuzzKeyedUnarchiver/*)
/// through the harness's own checks (the KeyedArchiveFuzzChecks library, which the fuzz target
/// links too). A case must give no failure from ``KeyedFuzzChecks/run(_:)``
/// and finish within libFuzzer's timeout as `Fuzz/run.sh` sets it (10 s); a case that still traps
/// takes the test process down, which fails the run.
///
/// Serialized: the checks track the nodes they create in one static list (see ``KeyedFuzzNode``).
@Suite("Keyed archive fuzz regressions", .serialized)
struct KeyedFuzzRegressionTests {
  /// `<repo>/Fuzz`, found from this file's location.
  static let fuzzFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz")
  static let failCasesFolder = fuzzFolder.appendingPathComponent("FailCases/FuzzKeyedUnarchiver")

  /// One saved input.
  struct FailCase: Sendable, CustomTestStringConvertible {
    let file: URL
    var testDescription: String { "FuzzKeyedUnarchiver/\(file.lastPathComponent)" }
  }

  static var allCases: [FailCase] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: failCasesFolder.path)) ?? []
    return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map {
      FailCase(file: failCasesFolder.appendingPathComponent($0))
    }
  }

  /// libFuzzer's `-timeout` in `Fuzz/run.sh`.
  static let timeout = Duration.seconds(10)

  @Test(arguments: allCases)
  func replay(_ failCase: FailCase) throws {
    let bytes = try Data(contentsOf: failCase.file)
    var failure: String?
    let elapsed = ContinuousClock().measure { failure = KeyedFuzzChecks.run(bytes) }
    #expect(failure == nil, "\(failCase.testDescription): \(failure ?? "")")
    #expect(elapsed < Self.timeout, "\(failCase.testDescription): took \(elapsed), past the fuzzer's timeout")
  }

  /// A graph of the harness's classes, archived by Stasis, passes the checks under every mode byte,
  /// and the decode calls that name the root's class really decode it.
  @Test(arguments: [false, true])
  func harnessClassesPassEveryMode(xml: Bool) throws {
    let data = try Self.sampleArchive(format: xml ? .xml : .binary)
    for mode in 0...255 {
      let failure = KeyedFuzzChecks.run(Data([UInt8(mode)]) + data)
      #expect(failure == nil, "mode \(mode): \(failure ?? "")")
    }
    let unarchiver = try KeyedUnarchiver(data: data, registry: KeyedFuzzChecks.registry, limits: KeyedFuzzChecks.limits)
    let root = try #require(try KeyedFuzzChecks.decodeRoot(unarchiver, mode: 1) as? KeyedFuzzNode)
    try unarchiver.finishDecoding()
    #expect(root.name == "root")
    #expect(root.link === root)
    #expect(root.children.count == 2 && root.children[0] === root)
    let leaf = try #require(root.extra as? KeyedFuzzLeaf)
    #expect(leaf.owner === root && leaf.count == -3 && leaf.bytes == Data([0, 1, 2]))
    #expect(leaf.point?.small == 7 && leaf.point?.tag == "tag")
    KeyedFuzzChecks.releaseNodes()
  }

  /// Every Apple archive of the corpus passes the checks with the archived form kept (mode bit
  /// 0x40), plainly and securely, with the general decode call.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func appleArchivesPassWithTheArchivedFormKept() throws {
    let archives = Corpus.files(in: "keyedarchive").filter { !$0.name.hasSuffix("MANIFEST.tsv") }
    #expect(archives.count >= 40)
    for archive in archives {
      let data = try archive.data()
      for mode: UInt8 in [0x40, 0x41] {
        let failure = KeyedFuzzChecks.run(Data([mode]) + data)
        #expect(failure == nil, "\(archive.name) mode \(mode): \(failure ?? "")")
      }
    }
  }

  /// In secure mode the leaf class, registered without secure coding, is refused.
  @Test func secureModeRefusesTheLeaf() throws {
    let data = try Self.sampleArchive(format: .binary)
    let unarchiver = try KeyedUnarchiver(data: data, registry: KeyedFuzzChecks.registry, limits: KeyedFuzzChecks.limits)
    unarchiver.requiresSecureCoding = true
    #expect(throws: KeyedArchiveError.self) { try KeyedFuzzChecks.decodeRoot(unarchiver, mode: 1) }
    KeyedFuzzChecks.releaseNodes()
  }

  /// A node that links to itself, holds itself and another node in `children`, and a leaf as
  /// `extra` whose owner is the node and whose point is a value.
  static func sampleArchive(format: PropertyListFormat) throws -> Data {
    let root = KeyedFuzzNode()
    root.name = "root"
    root.link = root
    let other = KeyedFuzzNode()
    other.name = "other"
    root.children = [root, other]
    let point = KeyedFuzzPoint(x: 1.5, y: 2.5, small: 7, tag: "tag", leaf: nil)
    root.extra = KeyedFuzzLeaf(
      count: -3, flag: true, ratio: 0.25, bytes: Data([0, 1, 2]), label: "leaf", owner: root, point: point)
    defer { KeyedFuzzChecks.releaseNodes() }
    return try KeyedArchiver.archivedData(withRootObject: root, registry: KeyedFuzzChecks.registry, format: format)
  }
}
