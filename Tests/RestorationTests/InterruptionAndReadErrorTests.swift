import StasisSystem
import StasisSystemTesting
import Foundation
import InterfaceObjects
import Lifecycle
import Restoration
import RestorationSampleApp
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

@MainActor
@Suite("Restoration: kills counted apart from crashes, read errors told from damage")
struct InterruptionAndReadErrorTests {
  let scratch: ScratchFolder
  let folder: SavedStateFolder
  init() throws {
    scratch = try ScratchFolder("restoration-interrupted")
    folder = SavedStateFolder(path: scratch.file("com.example.sample.savedState"))
  }

  /// Saves generations 1 and 2; answers the two descriptions.
  func saveTwice() throws -> (first: [String], second: [String]) {
    try saveSampleTwice(folder)
  }

  /// A launch killed while restoring: restoration is extended and never completed, so the
  /// marker the launch wrote stays exactly as a SIGKILL at that moment would leave it.
  func launchKilledWhileRestoring() throws {
    _ = try launchSample(folder, before: { $0.restoration.extendStateRestoration() })
  }

  @Test("Six launches killed (not crashed) while restoring: the seventh restores saved state, never a crash-loop discard")
  func killsNeverDiscardIntactState() throws {
    let (first, _) = try saveTwice()
    for _ in 0..<6 { try launchKilledWhileRestoring() }
    let marker = try String(contentsOfFile: folder.markerPath, encoding: .utf8)
    #expect(marker.contains("crashes 0"), "kills are not crashes: \(marker)")
    let app = try launchSample(folder)
    guard case .recoveredFromPrevious(let why) = app.restoration.outcome else {
      Issue.record("expected the previous snapshot restored, got \(app.restoration.outcome)")
      return
    }
    #expect(!why.contains("crashed"), "\(why)")
    #expect(app.delegate.describe() == first)
    #expect(FileManager.default.fileExists(atPath: folder.previousSnapshotPath), "the last snapshot left is never set aside for kills")
    #expect(folder.setAsideSnapshots.count == 1, "data.archive set aside once, after three kills, whole")
    #expect(folder.setAsideSnapshots.first?.contains("interrupted") == true)
  }

  @Test("Killed while restoring the only snapshot: it is retried at every launch, never set aside")
  func lastSnapshotRetried() throws {
    _ = try saveTwice()
    unlink(folder.previousSnapshotPath)
    for _ in 0..<5 { try launchKilledWhileRestoring() }
    let app = try launchSample(folder)
    #expect(app.restoration.outcome == .restored)
    #expect(folder.setAsideSnapshots.isEmpty)
  }

  /// A reader that fails with `errno` the first `failures` times it reads `data.archive`.
  static func failingReader(errno number: Int32, failures: Int) -> @Sendable (String) throws -> Data {
    let count = Mutex(0)
    return { path in
      if path.hasSuffix("/data.archive") {
        let seen = count.withLock { value in
          value += 1
          return value
        }
        if seen <= failures {
          throw AtomicFileError(AtomicFileError.code(for: number), path: path, systemError: number, detail: "cannot read the file")
        }
      }
      return try AtomicFile.read(contentsOfFile: path, limit: 1 << 28)
    }
  }

  @Test("A transient read error (EIO, EACCES) on data.archive is retried: the latest state is restored and nothing set aside", arguments: [EIO, EACCES])
  func transientReadErrorRetried(errno number: Int32) throws {
    let (_, second) = try saveTwice()
    let app = try launchSample(folder, configure: { $0.readFile = Self.failingReader(errno: number, failures: 2) })
    #expect(app.restoration.outcome == .restored)
    #expect(app.delegate.describe() == second)
    #expect(folder.setAsideSnapshots.isEmpty)
  }

  /// The same folder in an environment whose clock is a new `ManualClock`.
  func folderOnManualClock() -> (ManualClock, SavedStateFolder) {
    let clock = ManualClock()
    var world = HostEnvironment.current
    world.clock = clock.hostClock
    return (clock, SavedStateFolder(path: folder.path, environment: world))
  }

  @Test("The pauses between read attempts are waits on the folder's clock: 10 + 20 ms of a manual clock, no real sleep")
  func readRetriesWaitOnTheEnvironmentClock() throws {
    let (clock, timed) = folderOnManualClock()
    let (_, second) = try saveSampleTwice(timed)
    let before = clock.now()
    let app = try launchSample(timed, configure: { $0.readFile = Self.failingReader(errno: EIO, failures: 2) })
    #expect(app.restoration.outcome == .restored)
    #expect(app.delegate.describe() == second)
    // A real sleep would leave the manual clock where it was.
    #expect(before.duration(to: clock.now()) == .milliseconds(30), "waited \(before.duration(to: clock.now()))")
  }

  @Test("Read attempts given up: three failures wait 10 + 20 ms on the folder's clock, none after the last")
  func readRetriesStopAfterTheLastAttempt() throws {
    let (clock, timed) = folderOnManualClock()
    let (first, _) = try saveSampleTwice(timed)
    let before = clock.now()
    let app = try launchSample(timed, configure: { $0.readFile = Self.failingReader(errno: EIO, failures: .max) })
    guard case .recoveredFromPrevious = app.restoration.outcome else {
      Issue.record("expected a recovery, got \(app.restoration.outcome)")
      return
    }
    #expect(app.delegate.describe() == first)
    #expect(before.duration(to: clock.now()) == .milliseconds(30), "waited \(before.duration(to: clock.now()))")
  }

  @Test("A persistent read error on data.archive: reported, both files kept in place, the previous restored")
  func persistentReadErrorKeepsBoth() throws {
    let (first, _) = try saveTwice()
    let before = try Data(contentsOf: URL(fileURLWithPath: folder.currentSnapshotPath))
    let app = try launchSample(folder, configure: { $0.readFile = Self.failingReader(errno: EIO, failures: .max) })
    guard case .recoveredFromPrevious(let why) = app.restoration.outcome else {
      Issue.record("expected a recovery, got \(app.restoration.outcome)")
      return
    }
    #expect(why.contains("data.archive could not be read"))
    #expect(app.delegate.describe() == first)
    #expect(folder.setAsideSnapshots.isEmpty, "a snapshot that could not be read is not known to be damaged")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.currentSnapshotPath)) == before)
    let note = app.restoration.lastRestoration?.notes.first ?? ""
    #expect(note.contains("Input/output error") && note.contains("kept in place"), "\(note)")
  }

  @Test("A save after a failed one (previous.archive already is data.archive) leaves no .previous.archive.link; the launch sweeps dead writers' files")
  func noStrayLinkAndDebrisSwept() throws {
    _ = try saveTwice()
    let debris = folder.path + "/.data.archive.stasis-tmp.999999999.ab"
    try Data("half".utf8).write(to: URL(fileURLWithPath: debris))
    try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/.previous.archive.link"))
    let app = try launchSample(folder)
    #expect(access(debris, F_OK) != 0)
    #expect(access(folder.path + "/.previous.archive.link", F_OK) != 0)
    unlink(folder.previousSnapshotPath)
    link(folder.currentSnapshotPath, folder.previousSnapshotPath)
    app.delegate.generation = 9
    try app.lifecycle.enterBackground()
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
    #expect(names.isEmpty, "\(names)")
  }

  @Test("A failed write names the snapshot once, the step, and the system's words (no errno number alone)")
  func writeFailureNamedOnce() throws {
    let blocker = scratch.file("blocker")
    try Data("a file".utf8).write(to: URL(fileURLWithPath: blocker))
    let broken = SavedStateFolder(path: blocker + "/com.example.savedState")
    do {
      try broken.writeSnapshot(Data("x".utf8))
      Issue.record("the write should fail")
    } catch {
      #expect(error.description == blocker + "/com.example.savedState: cannot make the folder: Not a directory", "\(error)")
    }
    let path = folder.currentSnapshotPath
    let cause = AtomicFileError(.permissionDenied, path: path, systemError: EROFS, detail: "cannot create a temporary file in x")
    let error = RestorationError(.fileSystem, detail: "cannot write the snapshot", path: path, underlying: cause)
    #expect(error.description.components(separatedBy: path).count == 2, "\(error)")
    #expect(error.description.hasPrefix(path + ": cannot write the snapshot: cannot create a temporary file in x: Read-only file system"))
  }
}
