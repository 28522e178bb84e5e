import StasisSystem
import StasisSystemTesting
import Foundation
import PlistTool
import PropertyLists

/// An in-memory world for PlistTool: files on an ``StasisSystemTesting/InMemoryFileSystem``,
/// captured standard streams, and paths whose writes fail on purpose, handed to the tool as a
/// `HostEnvironment` whose file system and streams are this object's.
final class MemoryEnvironment: @unchecked Sendable {
  let disk = InMemoryFileSystem()
  var standardInput: [UInt8] = []
  var standardOutput: [UInt8] = []
  var standardError: [UInt8] = []
  /// Writes to these paths fail, as a full disk or a read-only folder would.
  var unwritablePaths: Set<String> = []
  /// Every path written, in order.
  var writtenPaths: [String] = []
  /// Whether standard input was read.
  var readStandardInputCount = 0

  init(files: [String: [UInt8]] = [:], standardInput: [UInt8] = []) {
    for (path, bytes) in files { disk.seed(Data(bytes), atFile: path) }
    self.standardInput = standardInput
  }

  /// The host environment whose file system and streams are this object.
  var host: HostEnvironment {
    HostEnvironment(
      fileSystem: WatchedFiles(environment: self),
      standardStreams: StandardStreams(
        readInput: { (limit) throws(AtomicFileError) in try self.readStandardInput(byteLimit: limit) },
        writeOutput: { bytes in self.standardOutput += bytes },
        writeError: { bytes in self.standardError += bytes }))
  }

  func readStandardInput(byteLimit: Int) throws(AtomicFileError) -> [UInt8] {
    readStandardInputCount += 1
    guard standardInput.count <= byteLimit else {
      throw AtomicFileError(.tooLarge, path: "<stdin>", detail: "standard input is larger than the limit of \(byteLimit) bytes")
    }
    return standardInput
  }
}

/// The disk of a ``MemoryEnvironment``: its ``MemoryEnvironment/unwritablePaths`` refuse writes,
/// its writes are recorded, everything else is the in-memory file system's.
struct WatchedFiles: FileSystem {
  let environment: MemoryEnvironment
  var disk: InMemoryFileSystem { environment.disk }

  func write(_ data: Data, toFile path: String, permissions: UInt32?) throws(AtomicFileError) {
    try recording(path) { () throws(AtomicFileError) in try disk.write(data, toFile: path, permissions: permissions) }
  }

  func writeUnflushed(_ data: Data, toFile path: String, permissions: UInt32?) throws(AtomicFileError) {
    try recording(path) { () throws(AtomicFileError) in try disk.writeUnflushed(data, toFile: path, permissions: permissions) }
  }

  /// Runs the write of `path` unless the path is unwritable, then records it.
  private func recording(_ path: String, _ write: () throws(AtomicFileError) -> Void) throws(AtomicFileError) {
    guard !environment.unwritablePaths.contains(path) else {
      throw AtomicFileError(.permissionDenied, path: path, systemError: EACCES, detail: "cannot create a temporary file")
    }
    try write()
    environment.writtenPaths.append(path)
  }

  func read(contentsOfFile path: String, limit: Int) throws(AtomicFileError) -> Data { try disk.read(contentsOfFile: path, limit: limit) }
  func replaceFolder(_ path: String, fill: (String) throws -> Void) throws { try disk.replaceFolder(path, fill: fill) }
  func entries(inFolder path: String) throws(AtomicFileError) -> [FolderEntry] { try disk.entries(inFolder: path) }
  func status(of path: String, followingLinks: Bool) throws(AtomicFileError) -> FileStatus {
    try disk.status(of: path, followingLinks: followingLinks)
  }
  func resolvedPath(_ path: String) throws(AtomicFileError) -> String { try disk.resolvedPath(path) }
  func makeFolder(_ path: String, permissions: UInt32) throws(AtomicFileError) { try disk.makeFolder(path, permissions: permissions) }
  func removeItem(_ path: String) throws(AtomicFileError) { try disk.removeItem(path) }
  func moveItem(_ source: String, to destination: String) throws(AtomicFileError) { try disk.moveItem(source, to: destination) }
  func exchangeItems(_ first: String, _ second: String) throws(AtomicFileError) { try disk.exchangeItems(first, second) }
  func makeLink(to existing: String, at newPath: String) throws(AtomicFileError) { try disk.makeLink(to: existing, at: newPath) }
  func synchronize(_ path: String) throws(AtomicFileError) { try disk.synchronize(path) }
  func lock(_ path: String) throws(AtomicFileError) -> any FileSystemLock { try disk.lock(path) }
  func removeDebris(inFolder folder: String, of name: String?) -> Int { disk.removeDebris(inFolder: folder, of: name) }
}

/// The outcome of one in-process plutil run.
struct ToolRun {
  var status: Int32
  var environment: MemoryEnvironment
  var stdout: String { String(decoding: environment.standardOutput, as: UTF8.self) }
  var stderr: String { String(decoding: environment.standardError, as: UTF8.self) }
  var stdoutBytes: [UInt8] { environment.standardOutput }
  func file(_ path: String) -> [UInt8]? { environment.disk.file(path).map { [UInt8]($0) } }
}

/// Runs plutil in-process with `arguments` (without the program name).
func plutil(
  _ arguments: String..., files: [String: [UInt8]] = [:], stdin: [UInt8] = [],
  configure: (MemoryEnvironment) -> Void = { _ in }
) -> ToolRun {
  plutil(arguments, files: files, stdin: stdin, configure: configure)
}

func plutil(
  _ arguments: [String], files: [String: [UInt8]] = [:], stdin: [UInt8] = [],
  configure: (MemoryEnvironment) -> Void = { _ in }
) -> ToolRun {
  let environment = MemoryEnvironment(files: files, standardInput: stdin)
  configure(environment)
  let status = PlistTool(environment: environment.host).run(["plutil"] + arguments)
  return ToolRun(status: status, environment: environment)
}

/// Shared test documents.
enum Samples {
  static let created = Date(timeIntervalSinceReferenceDate: 600_000_000)

  /// A dictionary with every scalar type, a nested container, a dotted key and keys that sort
  /// differently in plutil's order and in code-unit order.
  static let document: PropertyListValue = [
    "name": "Stasis",
    "count": 42,
    "ratio": 1.5,
    "enabled": true,
    "created": .date(created),
    "blob": .data(Data([0x00, 0x01, 0xFE, 0xFF])),
    "items": [1, 2, 3],
    "nested": ["inner": ["a", "b"], "empty": [:]],
    "dot.key": "dotted",
    "Zebra": "capital",
  ]

  /// ``document`` without dates and data, so JSON can hold it.
  static let jsonSafe: PropertyListValue = [
    "name": "Stasis",
    "count": 42,
    "ratio": 1.5,
    "enabled": false,
    "items": [1, "two", 3.25],
    "nested": ["inner": ["a", "b"]],
  ]

  static func bytes(_ value: PropertyListValue, _ format: PropertyListFormat) throws -> [UInt8] {
    try value.encodedBytes(as: format)
  }

  static func decode(_ bytes: [UInt8]?) -> PropertyListValue? {
    guard let bytes else { return nil }
    return try? PropertyListValue(decoding: bytes)
  }
}
