import StasisSystem
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("FileLock between threads and processes")
final class FileLockTests {
  let folder: ScratchFolder
  init() throws { folder = try ScratchFolder("lock") }
  deinit { folder.remove() }

  @Test func createsTheLockFileAndRefusesAMissingFolder() throws {
    _ = try FileLock(path: folder.file("x.lock"))
    #expect(FileManager.default.fileExists(atPath: folder.file("x.lock")))
    let error = expectError(AtomicFileError.self, .notFound) { _ = try FileLock(path: folder.file("missing/x.lock")) }
    #expect(error?.description.contains("lock file") == true)
    folder.remove()
  }

  @Test func exclusiveHoldersRunOneAtATimeAcrossThreads() throws {
    let lock = try FileLock(path: folder.file("threads.lock"))
    let state = SharedState()
    let threads = (0..<8).map { _ in
      Thread {
        for _ in 0..<200 {
          try? lock.withExclusiveLock {
            if state.inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 { state.overlaps.add(1, ordering: .relaxed) }
            state.unguarded += 1  // a plain read-modify-write: only the lock keeps it whole
            state.inside.subtract(1, ordering: .sequentiallyConsistent)
          }
        }
      }
    }
    threads.forEach { $0.start() }
    while threads.contains(where: { !$0.isFinished }) { usleep(1000) }
    let overlapCount = state.overlaps.load(ordering: .relaxed)
    #expect(overlapCount == 0)
    #expect(state.unguarded == 1600)
    folder.remove()
  }

  @Test func sharedHoldersOverlapAndExcludeExclusiveOnes() throws {
    let lock = try FileLock(path: folder.file("shared.lock"))
    let state = SharedState()
    let threads = (0..<2).map { _ in
      Thread {
        try? lock.withSharedLock {
          state.sharedInside.add(1, ordering: .sequentiallyConsistent)
          // Wait (up to 5 s) for the other shared holder: if shared holders excluded each other,
          // it could never arrive.
          let deadline = Date().addingTimeInterval(5)
          while state.sharedInside.load(ordering: .sequentiallyConsistent) < 2 && Date() < deadline { usleep(1000) }
          if state.sharedInside.load(ordering: .sequentiallyConsistent) == 2 { state.bothSeen.add(1, ordering: .relaxed) }
          usleep(20_000)
          state.sharedInside.subtract(1, ordering: .sequentiallyConsistent)
        }
      }
    }
    threads.forEach { $0.start() }
    usleep(5_000)
    try lock.withExclusiveLock {
      if state.sharedInside.load(ordering: .sequentiallyConsistent) != 0 { state.exclusiveSawShared.store(true, ordering: .relaxed) }
    }
    while threads.contains(where: { !$0.isFinished }) { usleep(1000) }
    let together = state.bothSeen.load(ordering: .relaxed), mixed = state.exclusiveSawShared.load(ordering: .relaxed)
    #expect(together == 2, "the two shared holders did not hold the lock together")
    #expect(!mixed, "an exclusive holder ran while shared holders were inside")
    folder.remove()
  }

  @Test func aSecondLockOnTheSameFileWaitsForTheFirst() throws {
    // Two FileLock values on one path in one process exclude each other through flock.
    let first = try FileLock(path: folder.file("twice.lock"))
    let second = try FileLock(path: folder.file("twice.lock"))
    let state = SharedState()
    let waiter = Thread {
      usleep(10_000)
      try? second.withExclusiveLock { state.order.withLock { $0.append("second") } }
    }
    try first.withExclusiveLock {
      waiter.start()
      usleep(80_000)
      state.order.withLock { $0.append("first") }
    }
    while !waiter.isFinished { usleep(1000) }
    #expect(state.order.withLock { $0 } == ["first", "second"])
    folder.remove()
  }

  @Test func bodyErrorsPassThroughAndReleaseTheLock() throws {
    let lock = try FileLock(path: folder.file("errors.lock"))
    #expect(throws: TestFailure.self) { try lock.withExclusiveLock { throw TestFailure("inside") } }
    #expect(throws: TestFailure.self) { try lock.withSharedLock { throw TestFailure("inside") } }
    #expect(try lock.withExclusiveLock { 42 } == 42)
    folder.remove()
  }

  @Test(.timeLimit(.minutes(1)))
  func twoProcessesLoseNoUpdates() throws {
    let count = 150
    let arguments = ["--mode", "lock", "--lock", folder.file("counter.lock"), "--counter", folder.file("counter"),
                     "--count", "\(count)", "--check-shared"]
    let logs = [folder.url.appendingPathComponent("log-a"), folder.url.appendingPathComponent("log-b")]
    let processes = try logs.map { try CrashWriter.start(arguments, log: $0) }
    for (process, log) in zip(processes, logs) {
      process.waitUntilExit()
      let message = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      #expect(process.terminationStatus == 0, "writer failed: \(message)")
    }
    let text = try String(contentsOfFile: folder.file("counter"), encoding: .utf8)
    #expect(text == "\(2 * count)\n", "updates were lost between processes")
    folder.remove()
  }
}

/// Counters shared by the threads of a test; `unguarded` has no synchronisation of its own, so
/// only the lock under test keeps its updates whole.
final class SharedState: @unchecked Sendable {
  let inside = Atomic<Int>(0)
  let overlaps = Atomic<Int>(0)
  var unguarded = 0
  let sharedInside = Atomic<Int>(0)
  let bothSeen = Atomic<Int>(0)
  let exclusiveSawShared = Atomic<Bool>(false)
  let order = Mutex<[String]>([])
}
