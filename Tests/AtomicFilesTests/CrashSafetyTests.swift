import AtomicFiles
import Foundation
import PropertyLists
import Testing
import TestSupport

/// Kills `stasis-crash-writer --mode files` at random moments, hundreds of times, and checks that
/// every file it writes is always a complete version — never torn, never empty — and that the
/// temporary files of killed writers are swept.
@Suite("Crash safety of atomic writes", .serialized, .enabled(if: CrashWriter.isAvailable, CrashWriter.missingReason))
struct CrashSafetyTests {
  static let files = ["small.raw", "large.raw", "small.plist", "large.plist"]

  @Test(.timeLimit(.minutes(3)))
  func killedWritersLeaveOnlyCompleteVersions() throws {
    let seed: UInt64 = 0x5EED_0004
    var random = SplitMix64(seed: seed)
    let folder = try ScratchFolder("crash")
    defer { folder.remove() }
    let log = folder.url.appendingPathComponent("writer.log")
    let writerFolder = folder.file("data")
    try FileManager.default.createDirectory(atPath: writerFolder, withIntermediateDirectories: false)

    // Version 1 of every file, written to the end.
    let first = try CrashWriter.start(["--mode", "files", "--folder", writerFolder, "--versions", "1"], log: log)
    first.waitUntilExit()
    try #require(first.terminationStatus == 0, "the writer failed: \(logText(log))")
    var versions = try Dictionary(uniqueKeysWithValues: Self.files.map { ($0, try CrashRecordCheck.version(ofFile: "\(writerFolder)/\($0)")) })

    let rounds = 520
    var killedMidWrite = 0, versionsAdvanced = 0
    var interruptedFiles: [String: Int] = [:]  // which file each interrupted write was replacing
    let started = Date()
    for round in 0..<rounds {
      let writer = try CrashWriter.start(["--mode", "files", "--folder", writerFolder], log: log)
      usleep(UInt32(3_000 + random.next() % 60_000))  // 3–63 ms: start-up, sweeping, and a few versions
      kill(writer.processIdentifier, SIGKILL)
      writer.waitUntilExit()
      let context = "round \(round), seed \(seed)"
      guard writer.terminationReason == .uncaughtSignal else {
        Issue.record("\(context): the writer ended by itself (status \(writer.terminationStatus)): \(logText(log))")
        break
      }
      for name in Self.files {
        let path = "\(writerFolder)/\(name)"
        do {
          let version = try CrashRecordCheck.version(ofFile: path)
          #expect(version >= versions[name]!, "\(context): \(name) went back from version \(versions[name]!) to \(version)")
          if version > versions[name]! { versionsAdvanced += 1 }
          versions[name] = version
        } catch {
          Issue.record("\(context): \(name) is not a complete version: \(error)")
        }
      }
      // What the next start does: sweep the killed writer's temporary files.
      let debris = temporaryNames(in: writerFolder)
      if !debris.isEmpty { killedMidWrite += 1 }
      for name in debris { interruptedFiles[String(name.dropFirst().split(separator: ".stasis-tmp.")[0]), default: 0] += 1 }
      #expect(AtomicFile.removeDebris(inFolder: writerFolder) == debris.count, "\(context): debris \(debris)")
      #expect(temporaryNames(in: writerFolder).isEmpty, "\(context): debris left after the sweep")
      #expect(try FileManager.default.contentsOfDirectory(atPath: writerFolder).sorted() == Self.files.sorted(), "\(context)")
    }
    let seconds = Date().timeIntervalSince(started)
    print("crash safety: \(rounds) kills in \(String(format: "%.1f", seconds)) s; \(killedMidWrite) left a temporary file (killed mid-write: \(interruptedFiles.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); files advanced \(versionsAdvanced) times; last versions \(versions.sorted { $0.key < $1.key })")
    // The kills must land while writing, not only before the writer starts.
    #expect(killedMidWrite >= rounds / 10, "only \(killedMidWrite) of \(rounds) kills interrupted a write: the delays miss the writes")
    #expect(versionsAdvanced >= rounds / 10, "the writer rarely completed a version: the delays are too short")
  }

  @Test(.timeLimit(.minutes(1)))
  func theNextStartSweepsDebrisOfAKilledWriter() throws {
    var random = SplitMix64(seed: 0x5EED_0005)
    let folder = try ScratchFolder("crash-sweep")
    defer { folder.remove() }
    let log = folder.url.appendingPathComponent("writer.log")
    let writerFolder = folder.file("data")
    try FileManager.default.createDirectory(atPath: writerFolder, withIntermediateDirectories: false)
    // Kill writers until one dies mid-write and leaves a temporary file behind.
    var debris: [String] = []
    for _ in 0..<200 where debris.isEmpty {
      let writer = try CrashWriter.start(["--mode", "files", "--folder", writerFolder], log: log)
      usleep(UInt32(5_000 + random.next() % 30_000))
      kill(writer.processIdentifier, SIGKILL)
      writer.waitUntilExit()
      debris = temporaryNames(in: writerFolder)
    }
    try #require(!debris.isEmpty, "no kill out of 200 left a temporary file")
    // A writer that only starts (zero versions) sweeps it.
    let next = try CrashWriter.start(["--mode", "files", "--folder", writerFolder, "--versions", "0"], log: log)
    next.waitUntilExit()
    #expect(next.terminationStatus == 0, "\(logText(log))")
    #expect(temporaryNames(in: writerFolder).isEmpty, "the next start left \(debris)")
  }

  @Test func theCheckerRejectsTornEmptyAndAlteredFiles() throws {
    let folder = try ScratchFolder("crash-check")
    defer { folder.remove() }
    let writer = try CrashWriter.start(["--mode", "files", "--folder", folder.path, "--versions", "3", "--large", "5000"])
    writer.waitUntilExit()
    try #require(writer.terminationStatus == 0)
    for name in Self.files {
      let path = folder.file(name)
      #expect(try CrashRecordCheck.version(ofFile: path) == 3, "\(name)")
      let good = try Data(contentsOf: URL(fileURLWithPath: path))
      let damaged: [(String, Data)] = [
        ("empty", Data()),
        ("cut in half", good.prefix(good.count / 2)),
        ("one byte short", good.dropLast()),
        ("one byte flipped", { var copy = good; copy[copy.count / 2] ^= 0x01; return copy }()),
        ("old head, new tail", good.prefix(good.count / 2) + Data(repeating: 0, count: good.count - good.count / 2)),
      ]
      for (label, bytes) in damaged {
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self, "\(name) \(label) was accepted") { try CrashRecordCheck.version(ofFile: path) }
      }
    }
  }

  private func logText(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "(no log)" }
}

/// An independent check of the files the crash writer writes: each must be one complete,
/// self-consistent version. Returns the version.
enum CrashRecordCheck {
  static func version(ofFile path: String) throws -> Int {
    let data = try AtomicFile.read(contentsOfFile: path, limit: 4 << 20)
    guard !data.isEmpty else { throw TestFailure("the file is empty") }
    return path.hasSuffix(".plist") ? try plistVersion(data) : try rawVersion(data)
  }

  /// `STASIS-CRASH <version> <count>\n` + count payload bytes + `\nSUM <fnv hex>\n`.
  static func rawVersion(_ data: Data) throws -> Int {
    let bytes = [UInt8](data)
    guard let newline = bytes.firstIndex(of: 0x0A) else { throw TestFailure("no header line") }
    let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
    guard header.count == 3, header[0] == "STASIS-CRASH", let version = Int(header[1]), let count = Int(header[2]) else {
      throw TestFailure("bad header")
    }
    let payloadEnd = newline + 1 + count
    guard payloadEnd <= bytes.count else { throw TestFailure("payload cut short") }
    let trailer = "\nSUM \(fnv1a(bytes[(newline + 1)..<payloadEnd]))\n"
    guard Array(bytes[payloadEnd...]) == Array(trailer.utf8) else { throw TestFailure("checksum trailer does not match the payload") }
    return version
  }

  /// A binary property list `{version, payload, checksum}`.
  static func plistVersion(_ data: Data) throws -> Int {
    guard data.starts(with: Array("bplist00".utf8)) else { throw TestFailure("not a binary property list") }
    let value = try PropertyListValue(decoding: data)
    guard case .dictionary(let dictionary) = value, dictionary.count == 3,
      case .integer(let version)? = dictionary["version"], case .data(let payload)? = dictionary["payload"],
      case .string(let checksum)? = dictionary["checksum"], let number = version.exactly(Int.self)
    else { throw TestFailure("not a crash record dictionary") }
    guard checksum == fnv1a(payload) else { throw TestFailure("checksum does not match the payload") }
    return number
  }

  /// FNV-1a over little-endian 64-bit words, the tail byte by byte (as the writer computes it).
  static func fnv1a(_ bytes: some DataProtocol) -> String {
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
