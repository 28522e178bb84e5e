import Foundation
import Testing
import TestSupport

@testable import PropertyLists

@Suite("Reading and writing files")
struct FileAccessTests {
  let scratch: ScratchFolder
  var folder: URL { scratch.url }

  init() throws {
    scratch = try ScratchFolder("file")
  }

  @Test func writesAtomicallyAndReadsBack() throws {
    let path = folder.appendingPathComponent("Info.plist").path
    let value: PropertyListValue = ["CFBundleIdentifier": "com.example.app", "Count": 3]
    try value.write(toFile: path, format: .binary)
    #expect(try PropertyListValue(contentsOfFile: path) == value)
    let (_, format) = try PropertyListValue.read(contentsOfFile: path)
    #expect(format == .binary)
    // Only the file itself is left: no temporary debris.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Info.plist"])
  }

  @Test func keepsPermissionBitsOfTheFileItReplaces() throws {
    let path = folder.appendingPathComponent("secret.plist").path
    try PropertyListValue.dictionary([:]).write(toFile: path, format: .binary)
    chmod(path, 0o600)
    try PropertyListValue.dictionary(["k": "v"]).write(toFile: path, format: .binary)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test(.enabled(if: getuid() != 0, "running as root: a read-only folder does not stop root from writing"))
  func failedWriteLeavesTheOldFileIntact() throws {
    let path = folder.appendingPathComponent("keep.plist").path
    let old: PropertyListValue = ["version": 1]
    try old.write(toFile: path, format: .binary)
    chmod(folder.path, 0o500)
    defer { chmod(folder.path, 0o700) }
    expectError(PropertyListError.self, .fileSystem) { try PropertyListValue.dictionary(["version": 2]).write(toFile: path, format: .binary) }
    #expect(try PropertyListValue(contentsOfFile: path) == old)
  }

  @Test func failedWriteIntoAMissingFolderNamesThePath() throws {
    let path = folder.appendingPathComponent("missing/deeper.plist").path
    let error = expectError(PropertyListError.self, .fileSystem, "write into a missing folder succeeded") {
      try PropertyListValue.dictionary([:]).write(toFile: path, format: .binary)
    }
    if let error {
      #expect(error.path == path)
      #expect(error.description.hasPrefix(path))
    }
  }

  @Test func unreadableInputNamesTheFileAndPosition() throws {
    let path = folder.appendingPathComponent("broken.plist").path
    var bytes = try PropertyListValue.array(["a", "b"]).encodedBytes(as: .binary)
    bytes[bytes.count - 25] = 0xFF  // object count in the trailer, now absurd
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: PropertyListError.self, "corrupt file was accepted") {
      try PropertyListValue(contentsOfFile: path)
    }
    if let error {
      #expect(error.path == path)
      #expect(error.format == .binary)
      #expect(error.position != nil)
      #expect(error.description.contains(path) && error.description.contains("binary property list"))
    }
  }

  @Test func sizeLimitIsEnforcedBeforeReading() throws {
    let path = folder.appendingPathComponent("big.plist").path
    try PropertyListValue.data(Data(count: 10_000)).write(toFile: path, format: .binary)
    var options = PropertyListReadingOptions()
    options.maximumByteCount = 1000
    expectError(PropertyListError.self, .limitExceeded) { try PropertyListValue(contentsOfFile: path, options: options) }
  }

  @Test func missingFileIsAFileSystemError() {
    expectError(PropertyListError.self, .fileSystem) { try PropertyListValue(contentsOfFile: folder.appendingPathComponent("nope").path) }
  }
}

@Suite("Format detection")
struct FormatDetectionTests {
  @Test func openStepDataIsNotMistakenForXML() throws {
    let (value, format) = try PropertyListValue.decodeWithFormat(Data("<0fbd 12>".utf8))
    #expect(value == .data(Data([0x0F, 0xBD, 0x12])))
    #expect(format == .openStep)
  }

  @Test func brokenXMLStillReportsTheXMLError() {
    let error = #expect(throws: PropertyListError.self, "accepted") {
      try PropertyListValue(decoding: Data("<plist><dict><key>a</key></dict></plist>".utf8))
    }
    if let error {
      #expect(error.format == .xml)
    }
  }

  @Test func jsonIsReadWhenOpenStepFails() throws {
    let (value, format) = try PropertyListValue.decodeWithFormat(Data(#"{"a": [1, 2.5, true]}"#.utf8))
    #expect(format == .json)
    #expect(value == ["a": [1, 2.5, true]])
  }
}
