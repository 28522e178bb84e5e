import StasisSystem
import FoundationEssentials
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import PropertyLists
import Sandbox

/// `--mode files --folder DIR [--large BYTES] [--versions N]`: sweeps debris in DIR, then writes
/// version 1, 2, 3 … of four files, each complete version recognisable and self-checking.
/// With `--container-root ROOT --bundle-identifier ID` instead of `--folder`, it opens that app
/// container (which sweeps its debris) and writes the raw files to its `Documents` and the
/// property lists to its `Library/Preferences`.
///
/// - `small.raw`, `large.raw` through `AtomicFile.write`: a header line
///   `STASIS-CRASH <version> <payload length>`, the payload, and `SUM <FNV-1a 64 of the payload, hex>`.
/// - `small.plist`, `large.plist` through `PropertyListValue.write(toFile:format: .binary)`:
///   `{version, payload, checksum}`.
///
/// The payload of a version is a pure function of the version and the file's size class
/// (`CrashRecord.payload`), so a reader can check every byte. Runs until killed, or for
/// `--versions` versions.
///
/// `--in-place` is the control experiment: it overwrites each file directly (truncate, then
/// write in 64 KB pieces) instead of atomically, so the tests can show that their check does catch
/// the torn and empty files a killed non-atomic writer leaves.
enum FilesMode: CrashWriterMode {
  static let name = "files"

  static func run(_ arguments: WriterArguments) throws {
    let rawFolder: String, plistFolder: String
    if let root = arguments["--container-root"] {
      let container = try ContainerRoot(path: root).container(for: try arguments.required("--bundle-identifier"))
      (rawFolder, plistFolder) = (container.documentsPath, container.preferencesPath)
    } else {
      rawFolder = try arguments.required("--folder")
      plistFolder = rawFolder
      AtomicFile.removeDebris(inFolder: rawFolder)
    }
    let large = try arguments.integer("--large", default: 1 << 20)
    let versions = try arguments.integer("--versions", default: Int.max)
    let inPlace = arguments["--in-place"] != nil
    var version = try nextVersion(in: rawFolder)
    for _ in 0..<versions {
      for (name, size) in [("small", 48 + version % 64), ("large", large + version % 4096)] {
        let payload = CrashRecord.payload(version: version, count: size)
        let raw = CrashRecord.raw(version: version, payload: payload), rawPath = "\(rawFolder)/\(name).raw"
        if inPlace { try writeInPlace(raw, toFile: rawPath) } else { try AtomicFile.write(raw, toFile: rawPath) }
        let plist: PropertyListValue = [
          "version": .integer(PropertyListInteger(Int64(version))),
          "payload": .data(payload),
          "checksum": .string(CrashRecord.checksum(payload)),
        ]
        let plistPath = "\(plistFolder)/\(name).plist"
        if inPlace { try writeInPlace(try plist.encoded(as: .binary), toFile: plistPath) } else { try plist.write(toFile: plistPath, format: .binary) }
      }
      version += 1
    }
  }

  /// The non-atomic way: `open(O_TRUNC)` and write, no temporary file, no fsync.
  static func writeInPlace(_ data: Data, toFile path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw WriterFailure("cannot open \(path)") }
    defer { close(descriptor) }
    try data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = write(descriptor, buffer.baseAddress! + offset, min(65536, buffer.count - offset))
        guard count > 0 else { throw WriterFailure("cannot write \(path)") }
        offset += count
      }
    }
  }

  /// One past the version already in `small.raw`, so versions only grow across restarts.
  static func nextVersion(in folder: String) throws -> Int {
    guard let data = try? AtomicFile.read(contentsOfFile: "\(folder)/small.raw", limit: 1 << 16) else { return 1 }
    guard let line = data.split(separator: UInt8(ascii: "\n")).first,
      let field = line.split(separator: UInt8(ascii: " ")).dropFirst().first,
      let version = Int(String(decoding: field, as: UTF8.self))
    else { throw WriterFailure("small.raw is not a crash record") }
    return version + 1
  }
}

/// The self-checking content of the files `FilesMode` writes.
enum CrashRecord {
  /// `count` bytes: a 4 KB block of xorshift output seeded by the version, repeated, so that
  /// two versions differ in every block (a torn file fails the checksum) and a megabyte is quick
  /// to make even in a debug build.
  static func payload(version: Int, count: Int) -> Data {
    var state = UInt64(truncatingIfNeeded: version) &* 0x9E37_79B9_7F4A_7C15 | 1
    var block = [UInt8](repeating: 0, count: 4096)
    for index in block.indices {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      block[index] = UInt8(truncatingIfNeeded: state)
    }
    var data = Data(capacity: count)
    while data.count < count { data.append(contentsOf: block.prefix(count - data.count)) }
    return data
  }

  /// FNV-1a over the bytes taken as little-endian 64-bit words (the tail byte by byte), in hex.
  static func checksum(_ bytes: Data) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    bytes.withUnsafeBytes { buffer in
      let words = buffer.count / 8
      for index in 0..<words {
        hash = (hash ^ UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))) &* 0x100_0000_01B3
      }
      for index in (words * 8)..<buffer.count {
        hash = (hash ^ UInt64(buffer[index])) &* 0x100_0000_01B3
      }
    }
    return String(hash, radix: 16)
  }

  static func raw(version: Int, payload: Data) -> Data {
    var data = Data("STASIS-CRASH \(version) \(payload.count)\n".utf8)
    data.append(payload)
    data.append(contentsOf: "\nSUM \(checksum(payload))\n".utf8)
    return data
  }
}
