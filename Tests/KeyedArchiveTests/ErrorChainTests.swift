import StasisSystem
import Foundation
import KeyedArchive
import PropertyLists
import Testing

/// Errors that chain (Docs/architecture.md, decision 4): each module's error keeps the typed cause,
/// and a code matches through the chain.
@Suite("Error chains through the archiver")
struct ErrorChainTests {
  @Test func aMissingFolderIsCaughtByTheFileSystemsCode() throws {
    let path = "/nonexistent-\(UUID().uuidString)/items.archive"
    do {
      try KeyedArchiver.archive(["a"] as [Any], toFile: path)
      Issue.record("archiving into a missing folder succeeded")
    } catch let error where AtomicFileError.Code.notFound ~= error {
      let archiveError = try #require(error as? KeyedArchiveError)
      #expect(archiveError.code == .propertyList)
      #expect(archiveError.chain.map { String(describing: type(of: $0)) } == ["KeyedArchiveError", "PropertyListError", "AtomicFileError"])
      #expect(archiveError.cause(AtomicFileError.self)?.path == path)
      #expect(archiveError.description.hasPrefix("keyed archive: the archive could not be written ("))
    } catch {
      Issue.record("not caught as a missing folder: \(error)")
    }
  }

  @Test func aDamagedArchiveIsCaughtByThePropertyListCode() throws {
    var bytes = try KeyedArchiver.archivedData(withRootObject: ["a", "b"] as [Any])
    bytes = bytes.prefix(bytes.count - 10)
    do {
      _ = try KeyedUnarchiver(data: bytes)
      Issue.record("a truncated archive opened")
    } catch let error where PropertyListError.Code.truncated ~= error {
      // The last 10 bytes of the trailer are gone: the reader says the file ends inside it.
      #expect((error as? KeyedArchiveError)?.code == .corruptArchive)
      #expect((error as? KeyedArchiveError)?.cause(PropertyListError.self)?.detail.contains("inside the trailer") == true)
    } catch {
      Issue.record("not caught as a truncated property list: \(error) \(String(describing: (error as? KeyedArchiveError)?.cause(PropertyListError.self)?.code))")
    }
  }

  @Test func codesOfOtherErrorsDoNotMatch() {
    let plain = PropertyListError(.truncated, format: .binary, detail: "x")
    #expect(!(AtomicFileError.Code.noSpace ~= plain))
    #expect(PropertyListError.Code.truncated ~= plain)
    let wrapped = KeyedArchiveError(.corruptArchive, "y", underlying: plain)
    #expect(PropertyListError.Code.truncated ~= wrapped)
    #expect(!(PropertyListError.Code.cycle ~= wrapped))
    #expect(wrapped.chain.count == 2)
    #expect(wrapped == KeyedArchiveError(.corruptArchive, "y", underlying: plain))
    #expect(wrapped != KeyedArchiveError(.corruptArchive, "y"))
  }
}
