import Foundation
import PropertyLists
import Testing
import TestSupport

/// The built `plutil` executable: exit codes, standard streams, files on disk.
@Suite("plutil executable", .enabled(if: BuiltTool.isAvailable, BuiltTool.missingReason))
struct EndToEndTests {
  /// The snapshot of `plutil -help`, kept beside this file.
  static let helpSnapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots/help.txt")

  @Test func helpMatchesTheSnapshot() throws {
    let outcome = try BuiltTool.run(["-help"])
    #expect(outcome.status == 0)
    #expect(outcome.stderr.isEmpty)
    let snapshot = try String(contentsOf: Self.helpSnapshot, encoding: .utf8)
    #expect(outcome.stdoutText == snapshot, "plutil -help differs from Snapshots/help.txt")
  }

  @Test func noArgumentsIsAUsageError() throws {
    let outcome = try BuiltTool.run([])
    #expect(outcome.status == 1)
    #expect(outcome.stdout.isEmpty)
    #expect(outcome.stderrText == "No files specified.\n")
  }

  @Test func lintExitCodesAndStreams() throws {
    let folder = try ScratchFolder("plutil")
    defer { folder.remove() }
    try folder.write(try Samples.bytes(Samples.document, .binary), to: "good.plist")
    try folder.write(Array("(1, 2".utf8), to: "bad.plist")
    let good = try BuiltTool.run(["-lint", "good.plist"], in: folder.url)
    #expect(good.status == 0)
    #expect(good.stdoutText == "good.plist: OK\n")
    #expect(good.stderr.isEmpty)
    let mixed = try BuiltTool.run(["good.plist", "bad.plist", "missing.plist"], in: folder.url)
    #expect(mixed.status == 1)
    #expect(mixed.stdoutText == "good.plist: OK\n")
    let errors = mixed.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(errors.count == 3)
    #expect(errors[0].hasPrefix("bad.plist: (OpenStep property list: "))
    #expect(errors[1] == "missing.plist: (cannot open the file for reading: No such file or directory)")
    #expect(errors[2] == "")
  }

  @Test func convertReplacesTheFileAtomicallyAndKeepsItsPermissions() throws {
    let folder = try ScratchFolder("plutil")
    defer { folder.remove() }
    try folder.write(try Samples.bytes(Samples.document, .binary), to: "doc.plist")
    #expect(chmod(folder.file("doc.plist"), 0o640) == 0)
    let outcome = try BuiltTool.run(["-convert", "xml1", "doc.plist"], in: folder.url)
    #expect(outcome.status == 0)
    #expect(outcome.stdout.isEmpty && outcome.stderr.isEmpty)
    #expect(try folder.read("doc.plist") == (try Samples.bytes(Samples.document, .xml)))
    #expect(try folder.contents() == ["doc.plist"], "no temporary file is left behind")
    let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("doc.plist"))
    #expect((attributes[.posixPermissions] as? Int) == 0o640)
  }

  @Test func failedWriteLeavesNothingBehind() throws {
    let folder = try ScratchFolder("plutil")
    defer { folder.remove() }
    try folder.write(try Samples.bytes(Samples.document, .binary), to: "doc.plist")
    let outcome = try BuiltTool.run(["-convert", "xml1", "-o", "no/such/folder/out.plist", "doc.plist"], in: folder.url)
    #expect(outcome.status == 1)
    #expect(outcome.stderrText.hasPrefix("doc.plist: (no/such/folder/out.plist: cannot create a temporary file in no/such/folder: "))
    #expect(try folder.contents() == ["doc.plist"])
  }

  @Test func standardInputToStandardOutput() throws {
    let input = Data(try Samples.bytes(Samples.document, .binary))
    let outcome = try BuiltTool.run(["-convert", "xml1", "-o", "-", "-"], standardInput: input)
    #expect(outcome.status == 0)
    #expect([UInt8](outcome.stdout) == (try Samples.bytes(Samples.document, .xml)))
    let listing = try BuiltTool.run(["-p", "-"], standardInput: input)
    #expect(listing.stdoutText == PrintTests.expectedListing)
    let empty = try BuiltTool.run(["-p", "-"])
    #expect(empty.status == 1)
    #expect(empty.stderrText.hasPrefix("<stdin>: Property List error: the input is empty (zero bytes) / JSON error: "))
  }

  @Test func extractRawForShellInterpolation() throws {
    let folder = try ScratchFolder("plutil")
    defer { folder.remove() }
    try folder.write(try Samples.bytes(Samples.document, .binary), to: "doc.plist")
    let outcome = try BuiltTool.run(["-extract", "name", "raw", "-n", "doc.plist"], in: folder.url)
    #expect(outcome.status == 0)
    #expect(outcome.stdoutText == "Stasis")
    let type = try BuiltTool.run(["-type", "items", "doc.plist"], in: folder.url)
    #expect(type.stdoutText == "array\n")
    let mismatch = try BuiltTool.run(["-type", "items", "-expect", "dictionary", "doc.plist"], in: folder.url)
    #expect(mismatch.status == 1)
    #expect(mismatch.stdout.isEmpty)
    #expect(mismatch.stderrText == "doc.plist: Value at [items] expected to be dictionary but is array\n")
  }

  @Test func editInPlace() throws {
    let folder = try ScratchFolder("plutil")
    defer { folder.remove() }
    try folder.write(try Samples.bytes(Samples.jsonSafe, .json), to: "doc.json")
    let outcome = try BuiltTool.run(["-insert", "items.0", "-integer", "-7", "doc.json"], in: folder.url)
    #expect(outcome.status == 0, "\(outcome.stderrText)")
    let value = try PropertyListValue(decoding: Data(try folder.read("doc.json")), format: .json)
    #expect(value["items"]?[0] == -7)
    let remove = try BuiltTool.run(["-remove", "items.9", "doc.json"], in: folder.url)
    #expect(remove.status == 1)
    #expect(remove.stderrText == "doc.json: No value to remove at key path items.9\n")
  }
}
