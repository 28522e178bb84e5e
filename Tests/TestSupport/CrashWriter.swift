public import Foundation
import PropertyLists

/// The `stasis-crash-writer` this package built, found next to the test bundle. The crash and
/// locking tests fail (they do not skip) when it is missing: ``start(_:log:)`` throws a message
/// saying so.
public enum CrashWriter {
  public static let path: String? = BuiltExecutables.path(named: "stasis-crash-writer")

  public static var isAvailable: Bool { path != nil }

  /// Starts the writer with `arguments`; its standard error goes to `log`.
  public static func start(_ arguments: [String], log: URL? = nil) throws -> Process {
    guard let path else {
      throw CrashCheckFailure(
        "the built stasis-crash-writer was not found next to the test bundle (\(CommandLine.arguments[0])); run `swift build` before `swift test`")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    if let log {
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: log)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    return process
  }
}

/// An independent check of the files the crash writer writes: each must be one complete,
/// self-consistent version. Returns the version.
public enum CrashRecordCheck {
  /// The files `--mode files` writes.
  public static let files = ["small.raw", "large.raw", "small.plist", "large.plist"]

  public static func version(ofFile path: String) throws -> Int {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard !data.isEmpty else { throw CrashCheckFailure("the file is empty") }
    return path.hasSuffix(".plist") ? try plistVersion(data) : try rawVersion(data)
  }

  /// `STASIS-CRASH <version> <count>\n` + count payload bytes + `\nSUM <fnv hex>\n`.
  public static func rawVersion(_ data: Data) throws -> Int {
    let bytes = [UInt8](data)
    guard let newline = bytes.firstIndex(of: 0x0A) else { throw CrashCheckFailure("no header line") }
    let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
    guard header.count == 3, header[0] == "STASIS-CRASH", let version = Int(header[1]), let count = Int(header[2]) else {
      throw CrashCheckFailure("bad header")
    }
    let payloadEnd = newline + 1 + count
    guard payloadEnd <= bytes.count else { throw CrashCheckFailure("payload cut short") }
    let trailer = "\nSUM \(fnv1a(bytes[(newline + 1)..<payloadEnd]))\n"
    guard Array(bytes[payloadEnd...]) == Array(trailer.utf8) else { throw CrashCheckFailure("checksum trailer does not match the payload") }
    return version
  }

  /// A binary property list `{version, payload, checksum}`.
  public static func plistVersion(_ data: Data) throws -> Int {
    guard data.starts(with: Array("bplist00".utf8)) else { throw CrashCheckFailure("not a binary property list") }
    let value = try PropertyListValue(decoding: data)
    guard case .dictionary(let dictionary) = value, dictionary.count == 3,
      case .integer(let version)? = dictionary["version"], case .data(let payload)? = dictionary["payload"],
      case .string(let checksum)? = dictionary["checksum"], let number = version.exactly(Int.self)
    else { throw CrashCheckFailure("not a crash record dictionary") }
    guard checksum == fnv1a(payload) else { throw CrashCheckFailure("checksum does not match the payload") }
    return number
  }

  /// FNV-1a over little-endian 64-bit words, the tail byte by byte (as the writer computes it).
  public static func fnv1a(_ bytes: some DataProtocol) -> String {
    let contiguous = [UInt8](bytes)
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    contiguous.withUnsafeBytes { buffer in
      let words = buffer.count / 8
      for index in 0..<words {
        hash = (hash ^ UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))) &* 0x100_0000_01B3
      }
      for index in (words * 8)..<buffer.count { hash = (hash ^ UInt64(buffer[index])) &* 0x100_0000_01B3 }
    }
    return String(hash, radix: 16)
  }
}

/// Why a file is not a complete crash record, or why the writer could not be started.
public struct CrashCheckFailure: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
