import StasisSystem
import Foundation
import PlistTool
import PropertyLists

/// An in-memory world for PlistTool: files in a dictionary, captured standard streams, and
/// paths whose writes fail on purpose, handed to the tool as a ``Host/HostEnvironment`` whose file
/// system and streams are this object's.
final class MemoryEnvironment: @unchecked Sendable {
  var files: [String: [UInt8]] = [:]
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
    self.files = files
    self.standardInput = standardInput
  }

  /// The host environment whose file system and streams are this object.
  var host: HostEnvironment {
    HostEnvironment(
      fileSystem: HostFileSystem(
        read: { (path, limit) throws(AtomicFileError) in try self.readFile(atPath: path, byteLimit: limit) },
        writeAtomically: { (data, path) throws(AtomicFileError) in try self.writeFileAtomically(Array(data), toPath: path) }),
      standardStreams: StandardStreams(
        readInput: { (limit) throws(AtomicFileError) in try self.readStandardInput(byteLimit: limit) },
        writeOutput: { bytes in self.standardOutput += bytes },
        writeError: { bytes in self.standardError += bytes }))
  }

  func readFile(atPath path: String, byteLimit: Int) throws(AtomicFileError) -> Data {
    guard let bytes = files[path] else {
      throw AtomicFileError(.notFound, path: path, systemError: ENOENT, detail: "cannot open the file for reading")
    }
    guard bytes.count <= byteLimit else {
      throw AtomicFileError(.tooLarge, path: path, detail: "file of \(bytes.count) bytes is larger than the limit of \(byteLimit)")
    }
    return Data(bytes)
  }

  func readStandardInput(byteLimit: Int) throws(AtomicFileError) -> [UInt8] {
    readStandardInputCount += 1
    guard standardInput.count <= byteLimit else {
      throw AtomicFileError(.tooLarge, path: "<stdin>", detail: "standard input is larger than the limit of \(byteLimit) bytes")
    }
    return standardInput
  }

  func writeFileAtomically(_ bytes: [UInt8], toPath path: String) throws(AtomicFileError) {
    guard !unwritablePaths.contains(path) else {
      throw AtomicFileError(.permissionDenied, path: path, systemError: EACCES, detail: "cannot create a temporary file")
    }
    files[path] = bytes
    writtenPaths.append(path)
  }
}

/// The outcome of one in-process plutil run.
struct ToolRun {
  var status: Int32
  var environment: MemoryEnvironment
  var stdout: String { String(decoding: environment.standardOutput, as: UTF8.self) }
  var stderr: String { String(decoding: environment.standardError, as: UTF8.self) }
  var stdoutBytes: [UInt8] { environment.standardOutput }
  func file(_ path: String) -> [UInt8]? { environment.files[path] }
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
