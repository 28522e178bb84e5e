import Foundation
import Synchronization
import Testing
import TestSupport

@testable import StasisSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of files replaced in one step (renameat2's RENAME_EXCHANGE), its fallback, its debris.
@Suite struct AtomicFolderTests {
  let scratch: ScratchFolder
  init() throws { scratch = try ScratchFolder("atomic-folder") }

  func fill(_ files: [String: String]) -> (String) throws -> Void {
    { folder in
      // As the folder's writers do: plain writes, flushed with the folder.
      for (name, text) in files { try AtomicFile.writeUnflushed(Data(text.utf8), toFile: folder + "/" + name) }
    }
  }

  func contents(_ folder: String) -> [String: String] {
    var result: [String: String] = [:]
    for name in AtomicFile.entryNames(inFolder: folder) ?? [] {
      result[name] = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "?"
    }
    return result
  }

  @Test("A folder replaces the old one whole; nothing else is left beside it")
  func replacesWhole() throws {
    let path = scratch.file("Main.storyboardc")
    try AtomicFolder.replace(path, fill: fill(["Info.plist": "1", "A.nib": "a1", "Old.nib": "o"]))
    try AtomicFolder.replace(path, fill: fill(["Info.plist": "2", "A.nib": "a2", "New.nib": "n"]))
    #expect(contents(path) == ["Info.plist": "2", "A.nib": "a2", "New.nib": "n"])
    #expect(AtomicFile.entryNames(inFolder: scratch.path) == ["Main.storyboardc"])
  }

  @Test("A file at the destination is replaced by the folder; a missing destination is created")
  func fileOrNothingReplaced() throws {
    let path = scratch.file("Out.storyboardc")
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: path))
    try AtomicFolder.replace(path, fill: fill(["Info.plist": "x"]))
    #expect(contents(path) == ["Info.plist": "x"])
    try AtomicFolder.replace(scratch.file("Fresh.storyboardc/"), fill: fill(["Info.plist": "y"]))
    #expect(contents(scratch.file("Fresh.storyboardc")) == ["Info.plist": "y"])
  }

  @Test("While a folder is replaced again and again, a reader never finds it missing")
  func neverMissing() throws {
    let path = scratch.file("Watched.storyboardc")
    try AtomicFolder.replace(path, fill: fill(["Info.plist": "0"]))
    let done = Atomic(false)
    let missing = Atomic(0)
    let reader = Thread {
      while !done.load(ordering: .relaxed) {
        if access(path, F_OK) != 0 { missing.add(1, ordering: .relaxed) }
      }
    }
    reader.start()
    for round in 1...200 { try AtomicFolder.replace(path, fill: fill(["Info.plist": "\(round)", "A.nib": "\(round)"])) }
    done.store(true, ordering: .relaxed)
    usleep(10_000)
    #expect(missing.load(ordering: .relaxed) == 0)
    #expect(contents(path) == ["Info.plist": "200", "A.nib": "200"])
  }

  @Test("A plain write creates or truncates the file, sets exact permissions when given, and names the file when it fails")
  func plainWrite() throws {
    let path = scratch.file("plain.nib")
    try AtomicFile.writeUnflushed(Data("longer contents".utf8), toFile: path, permissions: 0o600)
    try AtomicFile.writeUnflushed(Data("short".utf8), toFile: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "short")
    var status = stat()
    #expect(stat(path, &status) == 0 && status.st_mode & 0o7777 == 0o600)
    let error = #expect(throws: AtomicFileError.self) {
      try AtomicFile.writeUnflushed(Data(), toFile: scratch.file("missing/plain.nib"))
    }
    #expect(error?.code == .notFound)
    #expect(error?.description.contains("missing/plain.nib") == true)
  }

  @Test("The tree flush reaches nested folders and passes over symbolic links; a failure names the destination")
  func treeFlush() throws {
    let path = scratch.file("Nested.storyboardc")
    try AtomicFolder.replace(path) { folder in
      try fill(["Info.plist": "1"])(folder)
      #expect(mkdir(folder + "/Scene.nib", 0o755) == 0)
      try fill(["runtime.nib": "r", "objects-11.0+.nib": "o"])(folder + "/Scene.nib")
      #expect(symlink("Scene.nib", folder + "/Alias.nib") == 0)
    }
    #expect(contents(path + "/Scene.nib") == ["runtime.nib": "r", "objects-11.0+.nib": "o"])
    try AtomicFolder.flushTree(path, reportedAs: path)
    let error = #expect(throws: AtomicFileError.self) {
      try AtomicFolder.flushTree(scratch.file("Absent.storyboardc"), reportedAs: "Out.storyboardc")
    }
    #expect(error?.description.contains("Out.storyboardc") == true)
    #expect(error?.description.contains("flush") == true)
  }

  @Test("A failure while filling leaves the old folder untouched and no temporary folder")
  func failedFillKeepsTheOld() throws {
    let path = scratch.file("Kept.storyboardc")
    try AtomicFolder.replace(path, fill: fill(["Info.plist": "old"]))
    struct Refused: Error {}
    #expect(throws: Refused.self) { try AtomicFolder.replace(path) { _ in throw Refused() } }
    #expect(contents(path) == ["Info.plist": "old"])
    #expect(AtomicFile.entryNames(inFolder: scratch.path) == ["Kept.storyboardc"])
  }

  @Test("The fallback (no exchange): files renamed over the old ones one by one, the others removed")
  func fallbackMerges() throws {
    let path = scratch.file("Merged.storyboardc")
    try AtomicFolder.replace(path, fill: fill(["Info.plist": "1", "Gone.nib": "g", "Kept.nib": "k1"]))
    let temporary = try AtomicFolder.makeTemporaryFolder(in: scratch.path, for: "Merged.storyboardc", reportedAs: path)
    try fill(["Info.plist": "2", "Kept.nib": "k2", "New.nib": "n"])(temporary)
    try AtomicFolder.mergeInPlace(from: temporary, into: path)
    #expect(contents(path) == ["Info.plist": "2", "Kept.nib": "k2", "New.nib": "n"])
    #expect(AtomicFile.entryNames(inFolder: scratch.path) == ["Merged.storyboardc"])
  }

  @Test("A dead writer's temporary folder is swept by the next replacement; a live one's is not")
  func deadWritersFolderSwept() throws {
    let dead = try deadProcessIdentifier()
    let debris = scratch.file(".Main.storyboardc\(TemporaryName.marker)\(dead).1f")
    let live = scratch.file(".Main.storyboardc\(TemporaryName.marker)\(getppid()).2e")
    for folder in [debris, live] {
      mkdir(folder, 0o755)
      try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/A.nib"))
    }
    try AtomicFolder.replace(scratch.file("Main.storyboardc"), fill: fill(["Info.plist": "1"]))
    #expect(access(debris, F_OK) != 0)
    #expect(access(live, F_OK) == 0)
  }

  /// The pid of a process that has ended (a `true` run and waited for).
  func deadProcessIdentifier() throws -> pid_t {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }
}

/// Every writer sweeps its own dead temporary files (plutil's, ibtool's, restoration's).
@Suite struct OwnDebrisTests {
  @Test("A write of NAME removes a dead writer's .NAME.stasis-tmp.PID.HEX, not a live one's nor another file's")
  func writeSweepsItsOwnDebris() throws {
    let scratch = try ScratchFolder("own-debris")
    defer { scratch.remove() }
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let dead = ended.processIdentifier
    let own = scratch.file(".Info.plist\(TemporaryName.marker)\(dead).ab")
    let live = scratch.file(".Info.plist\(TemporaryName.marker)\(getppid()).cd")
    let other = scratch.file(".Other.plist\(TemporaryName.marker)\(dead).ef")
    for path in [own, live, other] { try Data("half".utf8).write(to: URL(fileURLWithPath: path)) }
    try AtomicFile.write(Data("whole".utf8), toFile: scratch.file("Info.plist"))
    #expect(access(own, F_OK) != 0)
    #expect(access(live, F_OK) == 0)
    #expect(access(other, F_OK) == 0)
  }
}
