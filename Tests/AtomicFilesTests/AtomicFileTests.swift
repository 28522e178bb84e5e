import Foundation
import Testing

@testable import AtomicFiles

@Suite("AtomicFile writes, reads and sweeps")
struct AtomicFileTests {
  let folder: ScratchFolder
  init() throws { folder = try ScratchFolder("atomic") }

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

  @Test func missingFolderIsNotFoundAndNamesThePathAndStep() throws {
    let path = folder.file("missing/deeper.bin")
    let error = expectAtomicFileError(.notFound) { () throws(AtomicFileError) in try AtomicFile.write(Data("x".utf8), toFile: path) }
    #expect(error?.path == path)
    #expect(error?.systemError == ENOENT)
    #expect(error?.description.hasPrefix(path + ": cannot create a temporary file") == true)
    #expect(error?.description.contains("(errno \(ENOENT))") == true)
    folder.remove()
  }

  @Test func aFolderCannotBeReplaced() throws {
    try FileManager.default.createDirectory(atPath: folder.file("dir"), withIntermediateDirectories: false)
    expectAtomicFileError(.notAFile) { () throws(AtomicFileError) in try AtomicFile.write(Data(), toFile: folder.file("dir")) }
    expectAtomicFileError(.notAFile) { () throws(AtomicFileError) in try AtomicFile.write(Data(), toFile: folder.path + "/") }
    expectAtomicFileError(.notAFile) { () throws(AtomicFileError) in try AtomicFile.write(Data(), toFile: folder.path + "/..") }
    #expect(temporaryNames(in: folder.path).isEmpty)
    folder.remove()
  }

  @Test func aFileInPlaceOfAFolderIsNotFound() throws {
    try AtomicFile.write(Data(), toFile: folder.file("plain"))
    let error = expectAtomicFileError(.notFound) { () throws(AtomicFileError) in try AtomicFile.write(Data(), toFile: folder.file("plain/child")) }
    #expect(error?.systemError == ENOTDIR)
    folder.remove()
  }

  @Test func readingAMissingFileIsNotFound() throws {
    let error = expectAtomicFileError(.notFound) { () throws(AtomicFileError) in _ = try AtomicFile.read(contentsOfFile: folder.file("nope"), limit: 10) }
    #expect(error?.description.contains("cannot open the file for reading") == true)
    folder.remove()
  }

  @Test func readingAFolderIsNotAFile() throws {
    expectAtomicFileError(.notAFile) { () throws(AtomicFileError) in _ = try AtomicFile.read(contentsOfFile: folder.path, limit: 10) }
    folder.remove()
  }

  @Test func readLimitIsEnforcedBeforeReading() throws {
    let path = folder.file("ten")
    try AtomicFile.write(Data(count: 10), toFile: path)
    #expect(try AtomicFile.read(contentsOfFile: path, limit: 10).count == 10)
    let error = expectAtomicFileError(.tooLarge) { () throws(AtomicFileError) in _ = try AtomicFile.read(contentsOfFile: path, limit: 9) }
    #expect(error?.systemError == nil)
    #expect(error?.description.contains("limit of 9") == true)
    folder.remove()
  }

  @Test func readLimitHoldsForFilesOfUnknownSize() throws {
    // /dev/zero reports size 0 and never ends: the limit must stop the read.
    expectAtomicFileError(.tooLarge) { () throws(AtomicFileError) in _ = try AtomicFile.read(contentsOfFile: "/dev/zero", limit: 100_000) }
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
    #expect(AtomicFile.writerProcess(ofTemporaryName: ".a.plist.stasis-tmp.123.9f3a") == 123)
    #expect(AtomicFile.writerProcess(ofTemporaryName: "..stasis-tmp.7.0") == 7)
    for name in ["a.plist", ".a.plist", ".a.stasis-tmp.", ".a.stasis-tmp.12", ".a.stasis-tmp.x.9f", ".a.stasis-tmp.12.zz",
                 "a.stasis-tmp.12.9f", ".a.stasis-tmp.-4.9f", ".a.stasis-tmp.0.9f", ".a.stasis-tmp.12.9f.more"] {
      #expect(AtomicFile.writerProcess(ofTemporaryName: name) == nil, "\(name)")
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
    for name in names { try AtomicFile.write(Data("x".utf8), toFile: folder.file(name)) }
    #expect(AtomicFile.removeDebris(inFolder: folder.path) == 2)
    #expect(try folder.contents() == names.dropFirst(2).sorted())
    #expect(AtomicFile.removeDebris(inFolder: folder.path) == 0)
    #expect(AtomicFile.removeDebris(inFolder: folder.file("missing")) == 0)
    folder.remove()
  }

  private func permissions(of path: String) -> UInt32 {
    var status = stat()
    return stat(path, &status) == 0 ? UInt32(status.st_mode & 0o7777) : 0
  }
}
