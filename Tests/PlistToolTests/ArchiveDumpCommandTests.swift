import Foundation
import PropertyLists
import Testing
import TestSupport

@testable import PlistTool

@Suite("plutil -archive")
struct ArchiveDumpCommandTests {
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func dumpsAnAppleArchive() throws {
    let url = Corpus.root.appendingPathComponent("keyedarchive/macOS-10.14/NSOrderedSet-Numbers.archive")
    let run = plutil("-archive", "a.archive", files: ["a.archive": [UInt8](try Data(contentsOf: url))])
    #expect(run.status == 0)
    #expect(run.stdout.contains("root = #1 NSOrderedSet (NSOrderedSet, NSObject)"))
    #expect(run.stdout.contains("NS.object.0 = 1"))
    #expect(run.stderr == "")
  }

  @Test func refusesAPlistThatIsNotAnArchive() throws {
    let bytes = try PropertyListValue.dictionary(["a": 1]).encodedBytes(as: .binary)
    let run = plutil("-archive", "plain.plist", files: ["plain.plist": bytes])
    #expect(run.status == 1)
    #expect(run.stderr.contains("not a keyed archive"))
  }

  @Test func refusesAnOutputPath() {
    let run = plutil("-archive", "-o", "x", "a.plist")
    #expect(run.status == 1)
    #expect(run.stderr.contains("-o is not used with -archive."))
  }
}
