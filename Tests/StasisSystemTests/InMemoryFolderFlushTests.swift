import Foundation
import StasisSystem
import StasisSystemTesting
import Testing

/// The in-memory disk's model of a folder built from plain writes: nothing written plainly
/// survives a power cut until the folder's tree is flushed, which the replacement does before
/// the exchange (what `AtomicFolder` does on the real disk).
@Suite struct InMemoryFolderFlushTests {
  static func disk() -> InMemoryFileSystem {
    let disk = InMemoryFileSystem()
    disk.seedFolder("/build")
    return disk
  }

  @Test("A plain write outside a replaced folder is lost by a power cut, kept by a kill")
  func plainWriteIsNotDurable() throws {
    let disk = Self.disk()
    try disk.writeUnflushed(Data("nib".utf8), toFile: "/build/A.nib", permissions: nil)
    #expect(disk.restarted(after: .processKill).file("/build/A.nib") == Data("nib".utf8))
    #expect(disk.restarted(after: .powerCut).file("/build/A.nib") == nil)
  }

  @Test("A replaced folder's plainly written files, nested ones too, survive a power cut once it is in place")
  func replacedFolderIsDurable() throws {
    let disk = Self.disk()
    try disk.replaceFolder("/build/Main.storyboardc") { folder in
      try disk.writeUnflushed(Data("info".utf8), toFile: folder + "/Info.plist", permissions: nil)
      try disk.makeFolder(folder + "/Scene.nib", permissions: 0o755)
      try disk.writeUnflushed(Data("runtime".utf8), toFile: folder + "/Scene.nib/runtime.nib", permissions: nil)
    }
    let after = disk.restarted(after: .powerCut)
    #expect(after.file("/build/Main.storyboardc/Info.plist") == Data("info".utf8))
    #expect(after.file("/build/Main.storyboardc/Scene.nib/runtime.nib") == Data("runtime".utf8))
    #expect(after.temporaryPaths.isEmpty)
  }

  @Test("A failed flush of one file of the new folder fails the replacement, naming the destination, and keeps the old folder")
  func failedFileFlush() throws {
    func setUp() -> InMemoryFileSystem {
      let disk = Self.disk()
      disk.seed(Data("old".utf8), atFile: "/build/Main.storyboardc/Info.plist")
      return disk
    }
    func replace(on disk: InMemoryFileSystem) throws {
      try disk.replaceFolder("/build/Main.storyboardc") { folder in
        try disk.writeUnflushed(Data("new".utf8), toFile: folder + "/Info.plist", permissions: nil)
      }
    }
    // A clean run on the same disk numbers the calls; the flush of the new Info.plist is failed.
    let probe = setUp()
    try replace(on: probe)
    let flush = try #require(probe.callLog.firstIndex { $0.contains("cannot flush Info.plist to disk") })
    let disk = setUp()
    disk.inject(.at(flush + 1, .ioError))
    let error = #expect(throws: AtomicFileError.self) { try replace(on: disk) }
    #expect(error?.description.contains("/build/Main.storyboardc") == true)
    #expect(disk.file("/build/Main.storyboardc/Info.plist") == Data("old".utf8))
    #expect(disk.temporaryPaths.isEmpty)
  }
}
