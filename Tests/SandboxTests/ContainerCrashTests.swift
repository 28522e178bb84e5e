import Foundation
import Sandbox
import Testing
import TestSupport

/// Kills `stasis-crash-writer` while it writes into an app container (raw files in Documents,
/// binary property lists in Library/Preferences) and checks that reopening the container finds
/// only complete versions and sweeps the killed writer's temporary files. The 500-kill run on a
/// plain folder is in StasisSystemTests; this one covers the container's own sweep on open.
@Suite("Crash safety inside a container")
struct ContainerCrashTests {
  @Test(.timeLimit(.minutes(2)))
  func reopeningAContainerAfterKillsFindsCompleteFilesAndNoDebris() throws {
    let seed: UInt64 = 0x5EED_0006
    var random = SplitMix64(seed: seed)
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let identifier = "com.example.crash"
    let arguments = ["--mode", "files", "--container-root", scratch.root.path, "--bundle-identifier", identifier, "--large", "262144"]
    let first = try CrashWriter.start(arguments + ["--versions", "1"])
    first.waitUntilExit()
    try #require(first.terminationStatus == 0)
    var container = try scratch.root.container(for: identifier)
    func path(_ name: String) -> String {
      (name.hasSuffix(".plist") ? container.preferencesPath : container.documentsPath) + "/" + name
    }
    var versions = try Dictionary(uniqueKeysWithValues: CrashRecordCheck.files.map { ($0, try CrashRecordCheck.version(ofFile: path($0))) })
    var sweptByOpen = 0
    for round in 0..<120 {
      let writer = try CrashWriter.start(arguments)
      usleep(UInt32(3_000 + random.next() % 40_000))
      kill(writer.processIdentifier, SIGKILL)
      writer.waitUntilExit()
      let context = "round \(round), seed \(seed)"
      #expect(writer.terminationReason == .uncaughtSignal, "\(context): the writer ended by itself")
      let debris = [container.documentsPath, container.preferencesPath].flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".stasis-tmp.") }
      }
      // Opening the container is the next start: it must sweep.
      container = try scratch.root.container(for: identifier)
      if !debris.isEmpty { sweptByOpen += 1 }
      for folder in [container.documentsPath, container.preferencesPath] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!names.contains { $0.contains(".stasis-tmp.") }, "\(context): debris left in \(folder) after reopening: \(names)")
      }
      for name in CrashRecordCheck.files {
        do {
          let version = try CrashRecordCheck.version(ofFile: path(name))
          #expect(version >= versions[name]!, "\(context): \(name) went back")
          versions[name] = version
        } catch {
          Issue.record("\(context): \(name) is not a complete version: \(error)")
        }
      }
    }
    print("container crash safety: 120 kills; \(sweptByOpen) left debris that reopening the container swept; versions \(versions.sorted { $0.key < $1.key })")
    #expect(sweptByOpen >= 10, "too few kills landed mid-write to show the sweep")
  }
}
