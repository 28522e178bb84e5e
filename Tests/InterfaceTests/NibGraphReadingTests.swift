import Foundation
import Testing
import TestSupport

@testable import Interface

/// `NibGraph(nibArchiveBytes:)`, the loader's one-pass reader, against the two-step path it
/// replaces (`NibGraph(NIBArchive(bytes:))`): the same graph for every Apple nib and for hand-made
/// ones, and for damaged bytes the same graph or the same error.
@Suite("NibGraph read straight from NIBArchive bytes")
struct NibGraphReadingTests {
  /// The two-step path's result: the graph, or the error's description.
  static func reference(_ bytes: [UInt8]) -> Result<NibGraph, InterfaceError> {
    do { return .success(NibGraph(try NIBArchive(bytes: bytes))) } catch { return .failure(error) }
  }

  static func direct(_ bytes: [UInt8]) -> Result<NibGraph, InterfaceError> {
    do { return .success(try NibGraph(nibArchiveBytes: bytes)) } catch { return .failure(error) }
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyAppleNibGivesTheSameGraph() throws {
    #expect(NIBArchiveTests.nibFiles.count >= 150)
    for path in NIBArchiveTests.nibFiles {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(try NibGraph(nibArchiveBytes: bytes) == NibGraph(try NIBArchive(bytes: bytes)), "\(path)")
    }
  }

  @Test func everyValueTypeAndFallbacksRoundTrip() throws {
    let archive = NIBArchive(
      objects: [
        NIBArchive.Object(classIndex: 0, firstValue: 0, valueCount: 10),
        NIBArchive.Object(classIndex: 1, firstValue: 10, valueCount: 1),
        NIBArchive.Object(classIndex: 2, firstValue: 5, valueCount: 3),  // overlapping, out of order
      ],
      keys: ["a", "UINibEncoderEmptyKey", "ключ"],
      values: [
        .init(keyIndex: 0, payload: .int8(-3)), .init(keyIndex: 1, payload: .int16(-300)), .init(keyIndex: 2, payload: .int32(70_000)),
        .init(keyIndex: 0, payload: .int64(-1 << 40)), .init(keyIndex: 1, payload: .bool(false)), .init(keyIndex: 2, payload: .bool(true)),
        .init(keyIndex: 0, payload: .float32(-0.0)), .init(keyIndex: 1, payload: .float64(.pi)),
        .init(keyIndex: 2, payload: .data([0, 1, 2, 255])), .init(keyIndex: 0, payload: .null), .init(keyIndex: 1, payload: .object(2)),
      ],
      classNames: [.init(name: "NSObject"), .init(name: "MyView", fallbacks: [2, 0]), .init(name: "NSView")])
    let bytes = archive.encoded()
    let graph = try NibGraph(nibArchiveBytes: bytes)
    #expect(graph == NibGraph(archive))
    #expect(graph.objects[1].fallbacks == ["NSView", "NSObject"])
    #expect(graph.objects[2].entries.map(\.key) == ["ключ", "a", "UINibEncoderEmptyKey"])
  }

  /// Prefixes and seeded corruptions of Apple's nibs: the one-pass reader accepts exactly what
  /// `NIBArchive(bytes:)` accepts, and throws its error for the rest.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func damagedBytesGiveTheSameGraphOrError() throws {
    var random = SplitMix64(seed: 0x4E49_4247)
    var rejected = 0, accepted = 0
    func compare(_ bytes: [UInt8], _ what: @autoclosure () -> String) {
      switch (Self.direct(bytes), Self.reference(bytes)) {
      case (.success(let direct), .success(let reference)):
        accepted += 1
        #expect(direct == reference, "\(what()): different graphs")
      case (.failure(let direct), .failure(let reference)):
        rejected += 1
        #expect(direct == reference, "\(what()): \(direct) instead of \(reference)")
      case (let direct, let reference):
        Issue.record("\(what()): \(direct) instead of \(reference)")
      }
    }
    for path in NIBArchiveTests.nibFiles.prefix(40) {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      for length in stride(from: 0, to: bytes.count, by: 7) { compare(Array(bytes.prefix(length)), "\(path) cut at \(length)") }
      for round in 0..<50 {
        var damaged = bytes
        for _ in 0...(random.next() % 4) { damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next()) }
        compare(damaged, "\(path) corruption \(round)")
      }
    }
    print("NibGraph(nibArchiveBytes:) on damaged nibs: \(rejected) rejected as before, \(accepted) read as before")
    #expect(rejected > 0 && accepted > 0)
  }

  @Test func limitsAreTheReadersLimits() throws {
    let bytes = NIBArchive(objects: [.init(classIndex: 0, firstValue: 0, valueCount: 0)], classNames: [.init(name: "NSObject")]).encoded()
    let tight = NIBArchive.Limits(maximumByteCount: bytes.count - 1)
    #expect(throws: InterfaceError.self) { try NibGraph(nibArchiveBytes: bytes, limits: tight) }
    #expect(try NibGraph(nibArchiveBytes: bytes).objects.count == 1)
  }

  /// `CompiledNib.contents(of:)`, the loader's way to open a nib file: the graph
  /// `CompiledNib(contentsOf:)` gives, and its errors.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func nibFilesOpenAsCompiledNibOpensThem() throws {
    for path in NIBArchiveTests.nibFiles.prefix(60) {
      guard case .graph(let graph) = try CompiledNib.contents(of: path), case .nibArchive(let archive) = try CompiledNib(contentsOf: path)
      else {
        Issue.record("\(path): not read as a NIBArchive")
        continue
      }
      #expect(graph == NibGraph(archive), "\(path)")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("NibGraphReadingTests-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = folder.appendingPathComponent("damaged.nib").path
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(NIBArchiveTests.nibFiles.first))))
    try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: damaged))
    for path in [damaged, folder.path, folder.appendingPathComponent("missing.nib").path] {
      var expected: InterfaceError?
      var actual: InterfaceError?
      do { _ = try CompiledNib(contentsOf: path) } catch { expected = error }
      do { _ = try CompiledNib.contents(of: path) } catch { actual = error }
      #expect(expected != nil && actual == expected, "\(path): \(String(describing: actual)) instead of \(String(describing: expected))")
    }
  }
}

