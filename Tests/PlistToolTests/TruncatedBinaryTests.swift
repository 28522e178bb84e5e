import Foundation
import PropertyLists
import TestSupport
import Testing

@testable import PlistTool

/// A binary property list cut short is diagnosed as cut short — where the file ends and inside
/// what — never as a trailer with an absurd object count read from the wrong bytes.
struct TruncatedBinaryTests {
  /// A generated document: a dictionary of strings, numbers and data (seeded).
  static func document() throws -> [UInt8] {
    var entries: [(String, PropertyListValue)] = []
    var seed: UInt64 = 0x5EED
    for index in 0..<40 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let value: PropertyListValue =
        switch index % 3 {
        case 0: .string("entry \(seed >> 40)")
        case 1: .integer(PropertyListInteger(Int64(bitPattern: seed >> 3)))
        default: .data(Data((0..<Int(seed % 17)).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        }
      entries.append(("key\(index)", value))
    }
    return try PropertyListValue.dictionary(PropertyListDictionary(entries)).encodedBytes(as: .binary)
  }

  static func readingError(_ bytes: [UInt8]) -> PropertyListError? {
    do {
      _ = try PropertyListValue(decoding: bytes)
      return nil
    } catch {
      return error
    }
  }

  /// Every cut of the document, from 41 bytes (the smallest whole document) to one byte short,
  /// is `truncated`, and says at which byte the file ends.
  @Test func everyCutIsDiagnosedAsTruncated() throws {
    let whole = try Self.document()
    #expect(Self.readingError(whole) == nil)
    for length in 41..<whole.count {
      let error = Self.readingError(Array(whole.prefix(length)))
      #expect(error?.code == .truncated, "cut at \(length): \(error.map { "\($0)" } ?? "read")")
      #expect(error?.detail.hasPrefix("the file ends at byte \(length) inside") == true, "cut at \(length): \(error.map { "\($0)" } ?? "read")")
    }
  }

  @Test func aCutInsideTheTrailerSaysSo() throws {
    let whole = try Self.document()
    let error = Self.readingError(Array(whole.dropLast(20)))
    #expect(error?.detail == "the file ends at byte \(whole.count - 20) inside the trailer: a trailer starts at byte \(whole.count - 32) and only 12 of its 32 bytes are there")
  }

  /// plutil -lint on a cut Apple file: the message a user sees.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason)) func lintOfACutAppleFile() throws {
    let whole = try Corpus.file("bplist/Generic_XML_Properties_Binary.plist").bytes()
    #expect(Self.readingError(whole) == nil)
    let cut = Array(whole.prefix(whole.count / 2))
    let run = plutil("-lint", "cut.plist", files: ["cut.plist": cut])
    #expect(run.status == 1)
    let said = run.stdout + run.stderr
    #expect(said.contains("the file ends at byte \(cut.count) inside"), "\(said)")
    #expect(!said.contains("more than the limit"))
  }
}
