import Foundation
import InterfaceObjects
import KeyedArchive
import Lifecycle
import Restoration
import Sandbox
import RestorationSampleApp
import Testing
import TestSupport
import StasisSystem

@MainActor
@Suite("Restoration: snapshots on disk — the previous one kept, bad ones set aside, crashes told from kills, quitting discards")
struct SnapshotSafetyTests {
  let scratch: ScratchFolder
  let folder: SavedStateFolder
  init() throws {
    scratch = try ScratchFolder("restoration-safety")
    folder = SavedStateFolder(path: scratch.file("com.example.sample.savedState"))
  }

  /// Saves the sample app twice, with generations 1 and 2; answers the two descriptions.
  func saveTwice() throws -> (first: [String], second: [String]) {
    try saveSampleTwice(folder, selectingRow: 1)
  }

  @Test("An app container's saved-state folder is Library/Saved Application State/<bundle id>.savedState")
  func containerFolder() throws {
    let root = ContainerRoot(path: scratch.file("containers"))
    let container = try root.container(for: "com.example.Notes")
    let saved = SavedStateFolder(container: container)
    #expect(saved.path == container.libraryPath + "/Saved Application State/com.example.Notes.savedState")
    #expect(saved.currentSnapshotPath.hasSuffix("/Library/Saved Application State/com.example.Notes.savedState/data.archive"))
  }

  @Test("Each save keeps the one before as previous.archive")
  func previousKept() throws {
    _ = try saveTwice()
    let current = try Snapshot(contentsOfFile: folder.currentSnapshotPath)
    let previous = try Snapshot(contentsOfFile: folder.previousSnapshotPath)
    #expect(current.applicationState["generation"] as? Int == 2)
    #expect(previous.applicationState["generation"] as? Int == 1)
    #expect(current.metadata.sequence == previous.metadata.sequence + 1)
  }

  @Test("A torn data.archive is set aside (not deleted) and the previous snapshot restored, saying why", arguments: [0, 1, 40, -1])
  func tornSnapshot(keep: Int) throws {
    let (first, _) = try saveTwice()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.currentSnapshotPath))
    let torn = keep < 0 ? Data(bytes.map { $0 ^ 0x5A }) : bytes.prefix(keep == 40 ? bytes.count - 40 : keep)
    try torn.write(to: URL(fileURLWithPath: folder.currentSnapshotPath))
    let app = try launchSample(folder)
    guard case .recoveredFromPrevious(let why) = app.restoration.outcome else {
      Issue.record("expected a recovery, got \(app.restoration.outcome)")
      return
    }
    #expect(why.contains("data.archive could not be read"))
    #expect(app.delegate.describe() == first)
    let setAside = folder.setAsideSnapshots
    #expect(setAside.count == 1)
    #expect(setAside.first?.hasSuffix("unreadable-data.archive") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: setAside[0])) == torn)
  }

  @Test("A crash while restoring (the marker says crash) sets that snapshot aside and the previous is used; a kill (no crash mark) retries the same one")
  func crashVersusKill() throws {
    let (first, second) = try saveTwice()
    // A kill during restoration: the marker is there, with no crash line.
    try Data("snapshot data.archive\nattempt 1\ncrashes 0\n".utf8).write(to: URL(fileURLWithPath: folder.markerPath))
    let retried = try launchSample(folder)
    #expect(retried.restoration.outcome == .restored)
    #expect(retried.delegate.describe() == second)
    #expect(retried.restoration.lastRestoration?.notes.first?.contains("killed while restoring data.archive") == true)
    #expect(!FileManager.default.fileExists(atPath: folder.markerPath))
    // A crash during restoration.
    try Data("snapshot data.archive\nattempt 1\ncrashes 0\ncrash 04\n".utf8).write(to: URL(fileURLWithPath: folder.markerPath))
    let recovered = try launchSample(folder)
    guard case .recoveredFromPrevious(let why) = recovered.restoration.outcome else {
      Issue.record("expected a recovery, got \(recovered.restoration.outcome)")
      return
    }
    #expect(why.contains("crashed (signal 4) while restoring data.archive"))
    #expect(recovered.delegate.describe() == first)
    #expect(folder.setAsideSnapshots.count == 1)
  }

  @Test("Three launches in a row killed while restoring the same snapshot: it is set aside (not counted as a crash) and the other one restored")
  func interruptedThreeTimes() throws {
    let (first, _) = try saveTwice()
    try Data("snapshot data.archive\nattempt 3\ncrashes 0\n".utf8).write(to: URL(fileURLWithPath: folder.markerPath))
    let app = try launchSample(folder)
    #expect(app.delegate.describe() == first)
    #expect(folder.setAsideSnapshots.first?.contains("interrupted") == true)
  }

  @Test("Two crashes in a row while restoring: start clean, say why, keep both snapshots")
  func crashLoop() throws {
    _ = try saveTwice()
    try Data("snapshot previous.archive\nattempt 1\ncrashes 1\ncrash 06\n".utf8).write(to: URL(fileURLWithPath: folder.markerPath))
    let app = try launchSample(folder)
    guard case .discarded(let why) = app.restoration.outcome else {
      Issue.record("expected a discard, got \(app.restoration.outcome)")
      return
    }
    #expect(why.contains("two launches in a row crashed while restoring"))
    #expect(app.delegate.describe() == ["generation 0", "tab 0", "stack List"])
    #expect(folder.setAsideSnapshots.count == 2)
    #expect(!FileManager.default.fileExists(atPath: folder.currentSnapshotPath))
  }

  @Test("The user quitting (not a kill, not the system) discards the saved state; the next launch says so once")
  func quitDiscards() throws {
    _ = try saveTwice()
    let app = try launchSample(folder)
    #expect(app.restoration.outcome == .restored)
    try app.lifecycle.quit()
    #expect(!FileManager.default.fileExists(atPath: folder.currentSnapshotPath))
    #expect(!FileManager.default.fileExists(atPath: folder.previousSnapshotPath))
    let next = try launchSample(folder)
    #expect(next.restoration.outcome == .discarded("the user quit the app"))
    let after = try launchSample(folder)
    #expect(after.restoration.outcome == .freshLaunch)
  }

  @Test("The system ending the app (terminate, not quit) keeps the state")
  func terminateKeeps() throws {
    _ = try saveTwice()
    let app = try launchSample(folder)
    try app.lifecycle.terminate()
    #expect(try launchSample(folder).restoration.outcome == .restored)
  }

  @Test("A file that is a keyed archive but not a snapshot, and one from a newer format, are refused with the key named")
  func notASnapshot() throws {
    let plain = try KeyedArchiver.archivedData(withRootObject: ["a": 1] as [String: Any])
    let error = expectError(RestorationError.self, .corruptSnapshot) { try Snapshot(data: plain, path: "x.archive") }
    #expect(error?.description.contains("StasisRestorationFormat") == true)
    #expect(error?.description.hasPrefix("x.archive: ") == true)
    let archiver = KeyedArchiver()
    try archiver.encode(99, forKey: "StasisRestorationFormat")
    let newer = try archiver.finishEncoding()
    expectError(RestorationError.self, .unsupportedFormat) { try Snapshot(data: newer) }
  }

  @Test("Random damage to a snapshot never crashes or hangs the reader: it reads or throws a typed error", arguments: 0..<4)
  func damagedSnapshots(seed: UInt64) throws {
    _ = try saveTwice()
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.currentSnapshotPath)))
    var random = SplitMix64(seed: seed)
    for _ in 0..<150 {
      var damaged = bytes
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      // Typed throws: whatever is thrown is a RestorationError, with a description to show.
      do { _ = try Snapshot(data: Data(damaged)) } catch { #expect(!error.description.isEmpty) }
    }
  }
}

@MainActor
@Suite("Restoration: scene sessions")
struct SceneSessionTests {
  @Test("Each window's session keeps its own activity, reconnects with it, and is discarded with its state when closed")
  func sessions() throws {
    let scratch = try ScratchFolder("restoration-sessions")
    let store = SceneSessionStore(folder: SavedStateFolder(path: scratch.file("app.savedState")))
    let left = store.makeSession()
    left.stateRestorationActivity = UserActivity(activityType: "com.example.viewItem", title: "Item 7", userInfo: ["item": "item-7", "scroll": 120.5])
    let right = store.makeSession(configurationName: "Inspector")
    right.stateRestorationActivity = UserActivity(activityType: "com.example.inspect", userInfo: ["tab": 2])
    try store.save(left)
    try store.save(right)

    let known = store.knownSessions()
    #expect(Set(known.map(\.persistentIdentifier)) == [left.persistentIdentifier, right.persistentIdentifier])
    let reconnected = try #require(store.session(withIdentifier: left.persistentIdentifier))
    #expect(reconnected.stateRestorationActivity?.activityType == "com.example.viewItem")
    #expect(reconnected.stateRestorationActivity?.title == "Item 7")
    #expect(reconnected.stateRestorationActivity?.userInfo["item"] as? String == "item-7")
    #expect(reconnected.stateRestorationActivity?.userInfo["scroll"] as? Double == 120.5)
    #expect(store.session(withIdentifier: right.persistentIdentifier)?.configurationName == "Inspector")

    store.discard([left])
    #expect(store.knownSessions().map(\.persistentIdentifier) == [right.persistentIdentifier])
    #expect(store.session(withIdentifier: left.persistentIdentifier) == nil)
  }

  @Test("A user info that is not a property list is refused with a typed error, and nothing is written")
  func nonPropertyList() throws {
    final class NotArchivable {}
    let scratch = try ScratchFolder("restoration-sessions")
    let store = SceneSessionStore(folder: SavedStateFolder(path: scratch.file("app.savedState")))
    let session = store.makeSession()
    session.stateRestorationActivity = UserActivity(activityType: "x", userInfo: ["bad": NotArchivable()])
    expectError(RestorationError.self, .encodingFailed) { try store.save(session) }
    #expect(store.knownSessions().isEmpty)
  }
}
