import StasisSystem
import Foundation
import KeyedArchive
import PropertyLists
import Testing
import TestSupport

/// A small tmpfs mounted for one test (needs root, or CAP_SYS_ADMIN).
struct SmallFileSystem {
  let folder: ScratchFolder
  var path: String { folder.path }

  /// Whether this process may mount file systems: tried once, on a throwaway folder.
  static let canMount: Bool = {
    guard getuid() == 0, let probe = try? ScratchFolder("mount-probe") else { return false }
    defer { probe.remove() }
    guard mount("tmpfs", probe.path, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount2(probe.path, Int32(MNT_DETACH))
    return true
  }()
  static let cannotMountReason: Comment =
    "cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN): the full-disk and read-only-disk tests are skipped"

  init(size: String) throws {
    folder = try ScratchFolder("tmpfs")
    guard mount("tmpfs", folder.path, "tmpfs", 0, "size=\(size),mode=0755") == 0 else {
      let reason = String(cString: strerror(errno))
      folder.remove()
      throw TestFailure("cannot mount a tmpfs on \(folder.path): \(reason)")
    }
  }

  func remountReadOnly() throws {
    guard mount("tmpfs", path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0 else {
      throw TestFailure("cannot remount \(path) read-only: \(String(cString: strerror(errno)))")
    }
  }

  func unmount() {
    umount2(path, Int32(MNT_DETACH))
    folder.remove()
  }

  /// Fills the file system with a plain file until the system says it is full.
  func fill() throws {
    let descriptor = open(folder.file("filler"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw TestFailure("cannot create the filler file") }
    defer { close(descriptor) }
    let block = [UInt8](repeating: 0xAB, count: 4096)
    while true {
      let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
      if written < 0 && errno == ENOSPC { return }
      if written <= 0 { throw TestFailure("filling the disk stopped with errno \(errno), not ENOSPC") }
    }
  }
}

@Suite("Writes to a full or read-only disk", .serialized, .enabled(if: SmallFileSystem.canMount, SmallFileSystem.cannotMountReason))
struct FullAndReadOnlyDiskTests {
  @Test func aWriteLargerThanTheDiskThrowsNoSpaceAndLeavesTheOldFile() throws {
    let disk = try SmallFileSystem(size: "256k")
    defer { disk.unmount() }
    let path = disk.folder.file("data.bin")
    let old = Data(repeating: 1, count: 1000)
    try AtomicFile.write(old, toFile: path)
    let error = expectError(AtomicFileError.self, .noSpace) {
      try AtomicFile.write(Data(repeating: 2, count: 512 * 1024), toFile: path)
    }
    #expect(error?.systemError == ENOSPC)
    #expect(error?.path == path)
    #expect(error?.description.contains("cannot write the temporary file") == true)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 1 << 20) == old)
    #expect(try disk.folder.contents() == ["data.bin"], "a temporary file was left behind")
  }

  /// A full disk under the keyed archiver surfaces as a full disk: the `KeyedArchiveError` carries
  /// the `PropertyListError`, which carries the `AtomicFileError`, and `catch` on the file
  /// system's code matches through the chain.
  @Test func aFullDiskUnderTheArchiverIsCaughtAsAFullDisk() throws {
    let disk = try SmallFileSystem(size: "256k")
    defer { disk.unmount() }
    let path = disk.folder.file("items.archive")
    try KeyedArchiver.archive(["old"] as [Any], toFile: path)
    let old = try AtomicFile.read(contentsOfFile: path, limit: 1 << 20)
    try disk.fill()
    var caught: (any Error)?
    do {
      try KeyedArchiver.archive([String](repeating: "item", count: 5_000) as [Any], toFile: path)
      Issue.record("archiving to a full disk succeeded")
    } catch let error where AtomicFileError.Code.noSpace ~= error {
      caught = error
    } catch {
      Issue.record("not caught as a full disk: \(error)")
    }
    let archiveError = try #require(caught as? KeyedArchiveError)
    #expect(archiveError.code == .propertyList)
    #expect(archiveError.chain.count == 3)
    #expect(archiveError.cause(PropertyListError.self)?.code == .fileSystem)
    #expect(archiveError.cause(AtomicFileError.self)?.systemError == ENOSPC)
    #expect(archiveError.description.contains("No space left on device"))
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 1 << 20) == old)
  }

  @Test func aWriteToAFullDiskThrowsNoSpaceAndLeavesTheOldFile() throws {
    let disk = try SmallFileSystem(size: "256k")
    defer { disk.unmount() }
    let path = disk.folder.file("prefs.plist")
    let old: PropertyListValue = ["version": 1, "name": "old"]
    try old.write(toFile: path, format: .binary)
    let oldBytes = try AtomicFile.read(contentsOfFile: path, limit: 1 << 20)
    try disk.fill()
    // Raw and through PropertyLists, small and large: each fails whole.
    for size in [1, 5000, 100_000] {
      expectError(AtomicFileError.self, .noSpace, "size \(size)") {
        try AtomicFile.write(Data(repeating: 3, count: size), toFile: path)
      }
    }
    let error = expectError(PropertyListError.self, .fileSystem, "writing a property list to a full disk succeeded") {
      try PropertyListValue.dictionary(["version": 2, "blob": .data(Data(count: 50_000))]).write(toFile: path, format: .binary)
    }
    if let error {
      #expect(error.path == path)
      #expect(error.description.contains("No space left on device"), "\(error)")
    }
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 1 << 20) == oldBytes)
    #expect(try PropertyListValue(contentsOfFile: path) == old)
    #expect(try disk.folder.contents() == ["filler", "prefs.plist"], "a temporary file was left behind")
    // Once space is freed, the same write succeeds.
    unlink(disk.folder.file("filler"))
    try AtomicFile.write(Data(repeating: 3, count: 5000), toFile: path)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 1 << 20) == Data(repeating: 3, count: 5000))
  }

  @Test func aWriteToAReadOnlyDiskThrowsPermissionDeniedAndLeavesTheOldFile() throws {
    let disk = try SmallFileSystem(size: "256k")
    defer { disk.unmount() }
    let path = disk.folder.file("data.bin")
    try AtomicFile.write(Data("old".utf8), toFile: path)
    try disk.remountReadOnly()
    let error = expectError(AtomicFileError.self, .permissionDenied) {
      try AtomicFile.write(Data("new".utf8), toFile: path)
    }
    #expect(error?.systemError == EROFS)
    #expect(error?.description.hasPrefix("\(path): cannot create a temporary file in \(disk.path)") == true)
    expectError(AtomicFileError.self, .permissionDenied) {
      try AtomicFile.write(Data("new".utf8), toFile: disk.folder.file("fresh.bin"))
    }
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 10) == Data("old".utf8))
    #expect(try disk.folder.contents() == ["data.bin"])
    // A lock file can still be taken on a read-only disk when it exists; a new one cannot be made.
    expectError(AtomicFileError.self, .permissionDenied) { _ = try FileLock(path: disk.folder.file("new.lock")) }
    let lock = try FileLock(path: path)
    #expect(try lock.withExclusiveLock { true })
  }
}

@Suite("Writes to a folder without write permission")
struct UnwritableFolderTests {
  @Test(.enabled(if: getuid() != 0, "running as root, which ignores permission bits: the read-only tmpfs test covers this instead"))
  func aWriteToAnUnwritableFolderThrowsPermissionDenied() throws {
    let folder = try ScratchFolder("unwritable")
    defer { chmod(folder.path, 0o755); folder.remove() }
    let path = folder.file("data.bin")
    try AtomicFile.write(Data("old".utf8), toFile: path)
    chmod(folder.path, 0o555)
    let error = expectError(AtomicFileError.self, .permissionDenied) { try AtomicFile.write(Data("new".utf8), toFile: path) }
    #expect(error?.systemError == EACCES)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 10) == Data("old".utf8))
    #expect(try folder.contents() == ["data.bin"])
  }

  @Test(.enabled(if: ImmutableFlag.isUsable, "needs root and chattr to make a folder immutable"))
  func aWriteToAnImmutableFolderThrowsPermissionDenied() throws {
    let folder = try ScratchFolder("immutable")
    let path = folder.file("data.bin")
    try AtomicFile.write(Data("old".utf8), toFile: path)
    guard ImmutableFlag.set(true, on: folder.path) else {
      folder.remove()
      throw TestFailure("chattr +i failed on \(folder.path) (file system without the immutable flag?)")
    }
    defer { ImmutableFlag.set(false, on: folder.path); folder.remove() }
    let error = expectError(AtomicFileError.self, .permissionDenied) { try AtomicFile.write(Data("new".utf8), toFile: path) }
    #expect(error?.systemError == EPERM)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 10) == Data("old".utf8))
    #expect(try folder.contents() == ["data.bin"])
  }
}
