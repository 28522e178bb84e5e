import StasisSystem
@_spi(Testing) import Defaults
import Foundation
import PropertyLists
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif
import Sandbox

@Suite("Saving: coalescing, exit-time flush, merging")
struct PersistenceTests {
  @Test("A burst of 10,000 sets costs at most 2 file writes, and every value lands on disk")
  func burstCoalesces() async throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults("com.example.burst", flushDelay: 0.2)
    for index in 0..<10_000 { defaults.set(index, forKey: "key\(index)") }
    #expect(defaults.applicationDomainWriteCount == 0, "the burst itself wrote nothing")
    // The timer saves once the sets have been quiet for the delay.
    let deadline = Date().addingTimeInterval(10)
    while defaults.hasUnsavedChanges && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    try await Task.sleep(for: .milliseconds(500))
    #expect(!defaults.hasUnsavedChanges)
    let writes = defaults.applicationDomainWriteCount
    #expect(writes >= 1 && writes <= 2, "\(writes) writes")
    let stored = try #require(try temporary.onDisk("com.example.burst"))
    #expect(stored.count == 10_000)
    #expect(stored["key9999"] == 9999)
  }

  @Test("Without a timer, sets cost no write until synchronize(), which costs exactly one")
  func synchronizeWritesOnce() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults("com.example.sync")
    for index in 0..<1000 { defaults.set("v\(index)", forKey: "k\(index % 10)") }
    #expect(defaults.applicationDomainWriteCount == 0)
    #expect(defaults.synchronize())
    #expect(defaults.applicationDomainWriteCount == 1)
    // Nothing to save: no write.
    #expect(defaults.synchronize())
    #expect(defaults.applicationDomainWriteCount == 1)
  }

  @Test("Unsaved changes are written when the instance goes away")
  func deinitFlush() throws {
    let temporary = TemporaryRoot()
    do {
      let defaults = try temporary.defaults("com.example.deinit")
      defaults.set("kept", forKey: "k")
    }
    #expect(try temporary.onDisk("com.example.deinit") == ["k": "kept"])
  }

  @Test(
    "A process that sets values and exits without synchronize() still saves them (exit hook)",
    .enabled(if: BuiltExecutable.child != nil, "stasis-defaults-child is not built"))
  func exitFlush() throws {
    let temporary = TemporaryRoot()
    let child = try #require(BuiltExecutable.child)
    let outcome = try BuiltExecutable.run(child, ["set-and-exit", temporary.path, "com.example.exit", "50"])
    #expect(outcome.status == 0)
    let stored = try #require(try temporary.onDisk("com.example.exit"))
    #expect(stored.count == 50)
    for index in 0..<50 { #expect(stored["k\(index)"] == .integer(index)) }
  }

  @Test("Two writers in one process merging different keys lose nothing")
  func mergeKeepsOtherKeys() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults("com.example.merge")
    defaults.set("mine", forKey: "a")
    #expect(defaults.synchronize())
    // Another process adds a key and changes one.
    try temporary.file("com.example.merge").update { contents in
      contents?["b"] = "theirs"
      return true
    }
    defaults.set("mine too", forKey: "c")
    #expect(defaults.synchronize())
    #expect(try temporary.onDisk("com.example.merge") == ["a": "mine", "b": "theirs", "c": "mine too"])
    // A removal here removes only that key.
    try temporary.file("com.example.merge").update { contents in
      contents?["d"] = "theirs again"
      return true
    }
    defaults.removeObject(forKey: "a")
    #expect(defaults.synchronize())
    #expect(try temporary.onDisk("com.example.merge") == ["b": "theirs", "c": "mine too", "d": "theirs again"])
  }

  /// Issue 13, finding 3 (library): the damaged file is reported through `lastSaveError`, moved
  /// aside as `<name>.plist.damaged` by the next save, never overwritten.
  @Test("A damaged preferences file reads as empty, is reported, and is kept aside by the next save")
  func damagedFile() throws {
    let temporary = TemporaryRoot()
    let path = try temporary.root.container(for: "com.example.damaged").preferencesFilePath
    let damage = Data("bplist00 this is not a property list".utf8)
    try damage.write(to: URL(fileURLWithPath: path))
    let defaults = try temporary.defaults("com.example.damaged")
    #expect(defaults.object(forKey: "anything") == nil)
    #expect(defaults.lastSaveError?.code == .unreadableFile, "the damage is reported on open")
    defaults.set(1, forKey: "fresh")
    #expect(defaults.synchronize())
    #expect(try temporary.onDisk("com.example.damaged") == ["fresh": 1])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged")) == damage, "the damaged bytes were lost")
    #expect(defaults.lastSaveError?.detail.contains("kept as \(path).damaged") == true)
  }

  @Test("A file damaged by another process after opening is kept aside too, under a new name")
  func damagedLater() throws {
    let temporary = TemporaryRoot()
    let path = try temporary.root.container(for: "com.example.later").preferencesFilePath
    try Data("old damage".utf8).write(to: URL(fileURLWithPath: path + ".damaged"))
    let defaults = try temporary.defaults("com.example.later")
    defaults.set(1, forKey: "a")
    #expect(defaults.synchronize())
    try Data("new damage".utf8).write(to: URL(fileURLWithPath: path))
    defaults.set(2, forKey: "b")
    #expect(defaults.synchronize())
    #expect(try temporary.onDisk("com.example.later") == ["b": 2])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged")) == Data("old damage".utf8))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged.2")) == Data("new damage".utf8))
  }

  @Test(
    "A failed save reports an error, keeps the old file and retries the changes later",
    .enabled(if: getuid() != 0, "root ignores folder permissions"))
  func failedSave() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults("com.example.readonly")
    defaults.set("old", forKey: "k")
    #expect(defaults.synchronize())
    let folder = try temporary.root.container(for: "com.example.readonly").preferencesPath
    chmod(folder, 0o500)
    defer { chmod(folder, 0o700) }
    defaults.set("new", forKey: "k")
    #expect(throws: DefaultsError.self) { try defaults.synchronizeOrThrow() }
    #expect(try temporary.onDisk("com.example.readonly") == ["k": "old"])
    #expect(defaults.hasUnsavedChanges)
    chmod(folder, 0o700)
    #expect(defaults.synchronize())
    #expect(try temporary.onDisk("com.example.readonly") == ["k": "new"])
  }
}

@Suite("Processes sharing a domain", .serialized)
struct MultiProcessTests {
  @Test(
    "4 processes × 200 updates of their own keys: zero lost updates; a reader never sees a torn file",
    .enabled(if: BuiltExecutable.child != nil, "stasis-defaults-child is not built"))
  func concurrentWriters() throws {
    let temporary = TemporaryRoot()
    let child = try #require(BuiltExecutable.child)
    let identifier = "com.example.shared"
    let processes = 4
    let updates = 200
    // Start the file so the reader has something to read from the beginning.
    try temporary.file(identifier).update { contents in
      contents = ["seed": true]
      return true
    }
    let scratch = try ScratchFolder("reader")
    defer { scratch.remove() }
    let readerOutput = scratch.url.appendingPathComponent("output")
    let reader = try BuiltExecutable.start(child, ["reader", temporary.path, identifier, "4000"], output: readerOutput)
    let writers = try (0..<processes).map { writer in
      try BuiltExecutable.start(child, ["writer", temporary.path, identifier, String(writer), String(updates)])
    }
    for writer in writers { writer.waitUntilExit() }
    reader.waitUntilExit()
    for writer in writers { #expect(writer.terminationStatus == 0) }

    let stored = try #require(try temporary.onDisk(identifier))
    var lost: [String] = []
    for writer in 0..<processes {
      for index in 0..<updates where stored["w\(writer).k\(index)"] != .integer(index) { lost.append("w\(writer).k\(index)") }
    }
    #expect(lost.isEmpty, "lost \(lost.count) updates, first \(lost.prefix(5))")
    #expect(stored.count == processes * updates + 1)

    let report = (try? String(contentsOf: readerOutput, encoding: .utf8)) ?? ""
    #expect(reader.terminationStatus == 0, "reader: \(report)")
    #expect(report.hasPrefix("reads="), "reader printed \(report)")
    let reads = Int(report.dropFirst(6).prefix { $0.isNumber }) ?? 0
    #expect(reads > 50, "the reader read \(reads) times")
  }


  @Test(
    "SIGKILL at 500 random points of a set + synchronize loop: the file is always a complete version",
    .enabled(if: BuiltExecutable.child != nil, "stasis-defaults-child is not built"))
  func crashSafety() throws {
    let temporary = TemporaryRoot()
    let child = try #require(BuiltExecutable.child)
    let identifier = "com.example.crash"
    let file = try temporary.file(identifier)
    var generator = SystemRandomNumberGenerator()
    var lastCounter = 0
    var versionsSeen = Set<Int>()
    var problems: [String] = []
    let rounds = 500
    for round in 0..<rounds {
      let process = try BuiltExecutable.start(child, ["crash-loop", temporary.path, identifier])
      // Event, not time: the kill waits until this writer has stored a version newer than the
      // last round's, so every round kills a writer in the middle of its loop however loaded the
      // machine is; then a random few milliseconds more, so kills land at every step of a write.
      let progressDeadline = ContinuousClock.now + .seconds(60)
      while Self.storedCounter(in: file) <= lastCounter && ContinuousClock.now < progressDeadline { usleep(500) }
      if Self.storedCounter(in: file) <= lastCounter {
        problems.append("round \(round): the writer stored no new version within 60 s")
      }
      usleep(UInt32.random(in: 0...8_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      guard file.exists else {
        if lastCounter != 0 { problems.append("round \(round): the file disappeared") }
        continue
      }
      let contents: PropertyListDictionary
      do {
        guard let read = try file.read() else { continue }
        contents = read
      } catch {
        problems.append("round \(round): \(error)")
        continue
      }
      guard case .integer(let stored)? = contents["counter"], let counter = stored.exactly(Int.self) else {
        problems.append("round \(round): no counter in \(contents.keys)")
        continue
      }
      let expected = PropertyListValue.array((0..<64).map { .string("value \(counter) #\($0)") })
      if contents["payload"] != expected { problems.append("round \(round): payload does not match counter \(counter)") }
      if counter < lastCounter { problems.append("round \(round): counter went back from \(lastCounter) to \(counter)") }
      lastCounter = counter
      versionsSeen.insert(counter)
      if problems.count > 10 { break }
    }
    #expect(problems.isEmpty, "\(problems)")
    // Each round waited for a newer version before its kill, so each one observed its own.
    #expect(versionsSeen.count == rounds, "only \(versionsSeen.count) distinct versions in \(rounds) rounds")
    // Temporary files of killed writers are swept up.
    let folder = file.folder
    AtomicFile.removeDebris(inFolder: folder)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(left == [".\(identifier).plist.lock", "\(identifier).plist"], "\(left)")
  }

  /// The `counter` of the version on disk, or 0 while there is none (or it cannot be read).
  private static func storedCounter(in file: PreferencesFile) -> Int {
    guard file.exists, case .integer(let stored)? = (try? file.read())??["counter"] else { return 0 }
    return stored.exactly(Int.self) ?? 0
  }
}

@Suite("Threads")
struct ThreadTests {
  @Test("8 threads setting and reading their own keys while the timer saves: every value ends up in memory and on disk")
  func concurrentThreads() async throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults("com.example.threads", flushDelay: 0.01)
    let threads = 8
    let updates = 500
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<threads {
        group.addTask {
          for index in 0..<updates {
            defaults.set(index, forKey: "t\(thread).k\(index % 50)")
            _ = defaults.integer(forKey: "t\((thread + 1) % threads).k\(index % 50)")
            if index % 100 == 0 { _ = defaults.synchronize() }
          }
        }
      }
    }
    #expect(defaults.synchronize())
    let stored = try #require(try temporary.onDisk("com.example.threads"))
    #expect(stored.count == threads * 50)
    for thread in 0..<threads {
      for slot in 0..<50 {
        let expected = PropertyListValue.integer(updates - 50 + slot)
        #expect(defaults.propertyList(forKey: "t\(thread).k\(slot)") == expected)
        #expect(stored["t\(thread).k\(slot)"] == expected)
      }
    }
  }
}
