import StasisSystem
import Foundation
import PropertyLists
import Testing
import TestSupport

/// Kills `stasis-crash-writer --mode files` at random moments, hundreds of times, and checks that
/// every file it writes is always a complete version — never torn, never empty — and that the
/// temporary files of killed writers are swept.
@Suite("Crash safety of atomic writes", .serialized)
struct CrashSafetyTests {
  static let files = CrashRecordCheck.files

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

  /// The control: the same kills against a writer that overwrites files in place must leave
  /// torn or empty files that the check catches — otherwise the test above proves nothing.
  @Test(.timeLimit(.minutes(1)))
  func theSameKillsTearFilesWrittenInPlace() throws {
    var random = SplitMix64(seed: 0x5EED_0007)
    let folder = try ScratchFolder("crash-control")
    defer { folder.remove() }
    let arguments = ["--mode", "files", "--folder", folder.path, "--in-place"]
    let first = try CrashWriter.start(arguments + ["--versions", "1"])
    first.waitUntilExit()
    try #require(first.terminationStatus == 0)
    var damaged = 0, rounds = 0
    while damaged < 5 && rounds < 200 {
      rounds += 1
      let writer = try CrashWriter.start(arguments)
      usleep(UInt32(3_000 + random.next() % 30_000))
      kill(writer.processIdentifier, SIGKILL)
      writer.waitUntilExit()
      for name in Self.files where (try? CrashRecordCheck.version(ofFile: folder.file(name))) == nil {
        damaged += 1
        // Start the next round from whole files again.
        let repair = try CrashWriter.start(["--mode", "files", "--folder", folder.path, "--versions", "1"])
        repair.waitUntilExit()
        break
      }
    }
    print("crash safety control: the in-place writer left damaged files after \(damaged) of \(rounds) kills")
    #expect(damaged >= 5, "killing a non-atomic writer \(rounds) times never left a damaged file: the check may be blind")
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
