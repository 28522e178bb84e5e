import Foundation
import Synchronization
import Testing
import TestSupport

@testable import StasisSystem

@Suite("AtomicFile writes, reads and sweeps")
final class AtomicFileTests {
  let folder: ScratchFolder
  init() throws { folder = try ScratchFolder("atomic") }
  deinit { folder.remove() }

  @Test func writesAndReadsBackWithNoDebris() throws {
    let path = folder.file("a.bin")
    let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try AtomicFile.write(bytes, toFile: path)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 1 << 20) == bytes)
    try AtomicFile.write(Data("second".utf8), toFile: path)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 100) == Data("second".utf8))
    #expect(try folder.contents() == ["a.bin"])
    folder.remove()
  }

  @Test func writesAndReadsEmptyFiles() throws {
    let path = folder.file("empty")
    try AtomicFile.write(Data(), toFile: path)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 0) == Data())
    folder.remove()
  }

  @Test func writesThroughARawBuffer() throws {
    let path = folder.file("raw")
    let bytes: [UInt8] = [1, 2, 3, 0, 255]
    try bytes.withUnsafeBytes { buffer in try AtomicFile.write(buffer, toFile: path) }
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 5) == Data(bytes))
    folder.remove()
  }

  @Test func relativePathsWriteIntoTheCurrentFolder() throws {
    let previous = FileManager.default.currentDirectoryPath
    #expect(FileManager.default.changeCurrentDirectoryPath(folder.path))
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    try AtomicFile.write(Data("here".utf8), toFile: "relative.txt")
    #expect(try AtomicFile.read(contentsOfFile: folder.file("relative.txt"), limit: 10) == Data("here".utf8))
    #expect(try folder.contents() == ["relative.txt"])
    folder.remove()
  }

  @Test func keepsThePermissionsOfTheReplacedFile() throws {
    let path = folder.file("secret")
    try AtomicFile.write(Data("1".utf8), toFile: path)
    chmod(path, 0o600)
    try AtomicFile.write(Data("2".utf8), toFile: path, permissions: 0o644)
    #expect(permissions(of: path) == 0o600)
    folder.remove()
  }

  @Test func newFilesGetTheRequestedPermissionsOrTheDefault() throws {
    try AtomicFile.write(Data(), toFile: folder.file("exact"), permissions: 0o640)
    #expect(permissions(of: folder.file("exact")) == 0o640)
    try AtomicFile.write(Data(), toFile: folder.file("default"))
    let mask = umask(0)
    umask(mask)
    #expect(permissions(of: folder.file("default")) == 0o644 & ~UInt32(mask))
    folder.remove()
  }

  @Test func longNamesStillGetATemporaryFile() throws {
    for name in [String(repeating: "n", count: 255), String(repeating: "\u{E9}", count: 127)] {
      let path = folder.file(name)
      try AtomicFile.write(Data("long".utf8), toFile: path)
      #expect(try AtomicFile.read(contentsOfFile: path, limit: 10) == Data("long".utf8))
    }
    #expect(TemporaryName.shortened("ab\u{E9}cd", toBytes: 3) == "ab")
    #expect(TemporaryName.shortened("ab\u{E9}cd", toBytes: 4) == "ab\u{E9}")
    #expect(temporaryNames(in: folder.path).isEmpty)
    folder.remove()
  }

  @Test func missingFolderIsNotFoundAndNamesThePathAndStep() throws {
    let path = folder.file("missing/deeper.bin")
    let error = expectError(AtomicFileError.self, .notFound) { try AtomicFile.write(Data("x".utf8), toFile: path) }
    #expect(error?.path == path)
    #expect(error?.systemError == ENOENT)
    #expect(error?.description.hasPrefix(path + ": cannot create a temporary file") == true)
    #expect(error?.description.contains("(errno \(ENOENT))") == true)
    folder.remove()
  }

  @Test func aFolderCannotBeReplaced() throws {
    try FileManager.default.createDirectory(atPath: folder.file("dir"), withIntermediateDirectories: false)
    expectError(AtomicFileError.self, .notAFile) { try AtomicFile.write(Data(), toFile: folder.file("dir")) }
    expectError(AtomicFileError.self, .notAFile) { try AtomicFile.write(Data(), toFile: folder.path + "/") }
    expectError(AtomicFileError.self, .notAFile) { try AtomicFile.write(Data(), toFile: folder.path + "/..") }
    #expect(temporaryNames(in: folder.path).isEmpty)
    folder.remove()
  }

  @Test func aFileInPlaceOfAFolderIsNotFound() throws {
    try AtomicFile.write(Data(), toFile: folder.file("plain"))
    let error = expectError(AtomicFileError.self, .notFound) { try AtomicFile.write(Data(), toFile: folder.file("plain/child")) }
    #expect(error?.systemError == ENOTDIR)
    folder.remove()
  }

  @Test func readingAMissingFileIsNotFound() throws {
    let error = expectError(AtomicFileError.self, .notFound) { _ = try AtomicFile.read(contentsOfFile: folder.file("nope"), limit: 10) }
    #expect(error?.description.contains("cannot open the file for reading") == true)
    folder.remove()
  }

  @Test func readingAFolderIsNotAFile() throws {
    expectError(AtomicFileError.self, .notAFile) { _ = try AtomicFile.read(contentsOfFile: folder.path, limit: 10) }
    folder.remove()
  }

  @Test func readLimitIsEnforcedBeforeReading() throws {
    let path = folder.file("ten")
    try AtomicFile.write(Data(count: 10), toFile: path)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 10).count == 10)
    let error = expectError(AtomicFileError.self, .tooLarge) { _ = try AtomicFile.read(contentsOfFile: path, limit: 9) }
    #expect(error?.systemError == nil)
    #expect(error?.description.contains("limit of 9") == true)
    folder.remove()
  }

  @Test func readLimitHoldsForFilesOfUnknownSize() throws {
    // /dev/zero reports size 0 and never ends: the limit must stop the read.
    expectError(AtomicFileError.self, .tooLarge) { _ = try AtomicFile.read(contentsOfFile: "/dev/zero", limit: 100_000) }
    #expect(try AtomicFile.read(contentsOfFile: "/dev/null", limit: 0) == Data())
  }

  @Test(arguments: [
    (ENOSPC, AtomicFileError.Code.noSpace), (EDQUOT, .noSpace), (EACCES, .permissionDenied), (EPERM, .permissionDenied),
    (EROFS, .permissionDenied), (ENOENT, .notFound), (ENOTDIR, .notFound), (EISDIR, .notAFile), (EFBIG, .tooLarge),
    (EIO, .ioFailure), (EMFILE, .ioFailure),
  ])
  func errnoValuesMapToCodes(number: Int32, code: AtomicFileError.Code) {
    #expect(AtomicFileError.code(for: number) == code)
    let error = AtomicFileError.system(number, "doing something", path: "/x")
    #expect(error.code == code && error.systemError == number)
    #expect(error.description == "/x: doing something: \(String(cString: strerror(number))) (errno \(number))")
  }

  @Test func recognisesTemporaryNames() {
    #expect(TemporaryName.writer(of: ".a.plist.stasis-tmp.123.9f3a") == 123)
    #expect(TemporaryName.writer(of: "..stasis-tmp.7.0") == 7)
    for name in ["a.plist", ".a.plist", ".a.stasis-tmp.", ".a.stasis-tmp.12", ".a.stasis-tmp.x.9f", ".a.stasis-tmp.12.zz",
                 "a.stasis-tmp.12.9f", ".a.stasis-tmp.-4.9f", ".a.stasis-tmp.0.9f", ".a.stasis-tmp.12.9f.more"] {
      #expect(TemporaryName.writer(of: name) == nil, "\(name)")
    }
  }

  @Test func sweepsOnlyDebrisOfDeadWriters() throws {
    // A pid that is certainly dead: a child that has exited and been reaped.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let dead = child.processIdentifier
    let names = [
      ".a.plist.stasis-tmp.\(dead).1f",  // dead writer: swept
      ".b.plist.stasis-tmp.\(dead).ab",  // dead writer: swept
      ".c.plist.stasis-tmp.\(getpid()).2",  // this process: kept
      ".d.plist.stasis-tmp.1.3",  // init, alive: kept
      "a.plist", ".hidden", "x.stasis-tmp.\(dead).1",  // not temporary names: kept
    ]
    // Made by plain writes: an atomic write of a.plist would itself sweep a.plist's dead debris.
    for name in names { try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file(name))) }
    // A live pid on a file untouched for longer than staleAge: the pid was reused, so it is debris.
    let reused = ".e.plist.stasis-tmp.1.4"
    try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file(reused)))
    var times = [timespec(tv_sec: time(nil) - AtomicFile.staleAge - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - AtomicFile.staleAge - 60, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, folder.file(reused), &times, 0) == 0)
    #expect(AtomicFile.removeDebris(inFolder: folder.path) == 3)
    #expect(try folder.contents() == names.dropFirst(2).sorted())
    #expect(AtomicFile.removeDebris(inFolder: folder.path) == 0)
    #expect(AtomicFile.removeDebris(inFolder: folder.file("missing")) == 0)
    folder.remove()
  }

  @Test(.timeLimit(.minutes(1)))
  func writeAllSurvivesSignalsAndShortWrites() throws {
    // A pipe that a slow reader drains while another thread signals the writer: blocked writes
    // return short counts or fail with EINTR (the handler does not restart them), and every byte
    // must still arrive once, in order.
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in signalCount.add(1, ordering: .relaxed) }
    action.sa_flags = 0  // no SA_RESTART: a blocked write returns early
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    try #require(sigaction(SIGUSR2, &action, &previous) == 0)
    defer { sigaction(SIGUSR2, &previous, nil) }
    let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
    let (readEnd, writeEnd) = (ends[0], ends[1])
    let state = WriterState()
    let writer = Thread {
      var unblocked = sigset_t()
      sigemptyset(&unblocked)
      sigaddset(&unblocked, SIGUSR2)
      pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
      state.thread.withLock { $0 = pthread_self() }
      bytes.withUnsafeBytes { buffer in
        do throws(AtomicFileError) {
          try AtomicFile.writeAll(buffer, to: writeEnd, path: "pipe", what: "the pipe")
          state.result.withLock { $0 = .success(()) }
        } catch {
          state.result.withLock { $0 = .failure(error) }
        }
      }
      close(writeEnd)
    }
    let before = signalCount.load(ordering: .relaxed)
    writer.start()
    var received = Data()
    var chunk = [UInt8](repeating: 0, count: 7000)
    var reads = 0
    while true {
      if reads % 4 == 0, let thread = state.thread.withLock({ $0 }) { pthread_kill(thread, SIGUSR2) }
      let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      try #require(count >= 0, "read failed: errno \(errno)")
      if count == 0 { break }
      received.append(contentsOf: chunk[..<count])
      reads += 1
      if reads % 16 == 0 { usleep(200) }
    }
    close(readEnd)
    while !writer.isFinished { usleep(1000) }
    let signals = signalCount.load(ordering: .relaxed) - before
    #expect(signals > 10, "only \(signals) signals reached the writer")
    let outcome = state.result.withLock { $0 }
    #expect(throws: Never.self) { try outcome?.get() }
    #expect(outcome != nil, "the writer did not finish")
    #expect(received.count == bytes.count)
    #expect(received == bytes, "bytes were lost, repeated or reordered")
  }

  private func permissions(of path: String) -> UInt32 {
    var status = stat()
    return stat(path, &status) == 0 ? UInt32(status.st_mode & 0o7777) : 0
  }
}

/// Signals handled by `writeAllSurvivesSignalsAndShortWrites` (a C handler cannot capture).
let signalCount = Atomic<Int>(0)

final class WriterState: Sendable {
  let thread = Mutex<pthread_t?>(nil)
  let result = Mutex<Result<Void, AtomicFileError>?>(nil)
}
