import Foundation
import PropertyLists
import Testing

/// Replays every input the fuzzers ever crashed on (Fuzz/FailCases/<target>/*) through the
/// library, with the checks the fuzz harness makes: the input must either throw a
/// `PropertyListError` or read, and then survive writing back in its own format and in binary
/// unchanged (`==`; JSON may turn an integral real into an integer and cannot write a top-level
/// scalar, as in the harness). A case that still crashes takes the test process down, which
/// fails the run.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  /// `<repo>/Fuzz/FailCases`, found from this file's location.
  static let failCasesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/FailCases")

  /// The format each fuzz target reads; `nil` is format detection (FuzzAnyPlist).
  static let targetFormats: [String: PropertyListFormat?] = [
    "FuzzBinaryPlist": .binary, "FuzzXMLPlist": .xml, "FuzzOpenStepPlist": .openStep,
    "FuzzStringsFile": .strings, "FuzzJSONPlist": .json, "FuzzAnyPlist": nil,
  ]

  /// The limits the fuzz harness reads its input with (Fuzz/Sources/FuzzSupport/FuzzHarness.swift).
  static let inputOptions = PropertyListReadingOptions(
    maximumDepth: 512, maximumObjectCount: 1 << 20, maximumByteCount: 1 << 20)

  /// One saved input and the target that found it.
  struct FailCase: Sendable, CustomTestStringConvertible {
    let target: String
    let file: URL
    var testDescription: String { "\(target)/\(file.lastPathComponent)" }
  }

  /// Targets whose cases another suite replays: FuzzKeyedUnarchiver's are keyed archives,
  /// replayed by Tests/KeyedArchiveTests/KeyedFuzzRegressionTests.swift; FuzzXibDocument's are
  /// Interface Builder documents, replayed by Tests/InterfaceBuilderTests/XibFuzzRegressionTests.swift;
  /// FuzzNibLoader's are compiled nibs, replayed by Tests/NibLoadingTests/NibLoaderFuzzRegressionTests.swift.
  static let replayedElsewhere: Set<String> = ["FuzzKeyedUnarchiver", "FuzzXibDocument", "FuzzNibLoader"]

  /// Target folders under FailCases, by name (without those replayed elsewhere).
  static var targetFolders: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: failCasesFolder.path)) ?? []
    return names.filter { name in
      if replayedElsewhere.contains(name) { return false }
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: failCasesFolder.appendingPathComponent(name).path, isDirectory: &isFolder)
        && isFolder.boolValue
    }.sorted()
  }

  static var allCases: [FailCase] {
    targetFolders.flatMap { target in
      let folder = failCasesFolder.appendingPathComponent(target)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map {
        FailCase(target: target, file: folder.appendingPathComponent($0))
      }
    }
  }

  @Test func failCasesAreFoundAndFiledUnderKnownTargets() {
    #expect(FileManager.default.fileExists(atPath: Self.failCasesFolder.path), "no folder at \(Self.failCasesFolder.path)")
    for target in Self.targetFolders {
      #expect(Self.targetFormats.keys.contains(target), "Fuzz/FailCases/\(target) is not a fuzz target")
    }
    #expect(!Self.allCases.isEmpty, "Fuzz/FailCases holds no cases; the replay test would check nothing")
  }

  @Test(arguments: allCases)
  func replay(_ failCase: FailCase) throws {
    let bytes = try Data(contentsOf: failCase.file)
    guard let format = Self.targetFormats[failCase.target] else {
      Issue.record("unknown target \(failCase.target)")
      return
    }
    let value: PropertyListValue
    let readFormat: PropertyListFormat
    do {
      (value, readFormat) = try bytes.withUnsafeBytes { buffer in
        try PropertyListValue.read(buffer, format: format, options: Self.inputOptions)
      }
    } catch let error as PropertyListError {
      // The right answer to a malformed input; it must still say what was wrong.
      #expect(!error.detail.isEmpty, "\(failCase.testDescription): error without detail")
      return
    }
    if let format { #expect(readFormat == format) }
    var throughFormats = [readFormat]
    if readFormat != .binary { throughFormats.append(.binary) }
    for through in throughFormats {
      // JSON's writer, like plutil's, takes only a dictionary or an array at the top level.
      if through == .json, value.arrayValue == nil, value.dictionaryValue == nil { continue }
      let written = try value.encoded(as: through)
      let back = try PropertyListValue(decoding: written, format: through)
      if through == .json {
        // JSON writes an integral real without a fraction, so it reads back as an integer; the
        // result must then be stable.
        #expect(Self.equalAllowingIntegralReals(value, back), "\(failCase.testDescription): changed when written as JSON")
        #expect(try PropertyListValue(decoding: back.encoded(as: .json), format: .json) == back)
      } else {
        #expect(back == value, "\(failCase.testDescription): read as \(readFormat), changed when written as \(through)")
      }
    }
  }

  /// `==`, except that a real on the left may come back as the integer it holds exactly.
  static func equalAllowingIntegralReals(_ lhs: PropertyListValue, _ rhs: PropertyListValue) -> Bool {
    switch (lhs, rhs) {
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { equalAllowingIntegralReals($0, $1) }
    case (.dictionary(let left), .dictionary(let right)):
      return left.count == right.count
        && left.allSatisfy { key, value in right[key].map { equalAllowingIntegralReals(value, $0) } ?? false }
    case (.real(let real, _), .integer(let integer)):
      if let exact = Int64(exactly: real) { return integer == PropertyListInteger(exact) }
      if let exact = UInt64(exactly: real) { return integer == PropertyListInteger(exact) }
      return false
    default:
      return lhs == rhs
    }
  }
}
