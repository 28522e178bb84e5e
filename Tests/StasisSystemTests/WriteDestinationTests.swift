import Foundation
import Testing
import TestSupport

@testable import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 13, finding 1: a write never replaces what is not a regular file. Device nodes are made
/// with mknod(2) inside a scratch folder (root only), so a regression replaces a scratch node, not
/// the machine's `/dev/null`.
@Suite("AtomicFile writes onto links, devices, FIFOs and descriptors")
struct WriteDestinationTests {
  static var isRoot: Bool { geteuid() == 0 }

  static func makeDevice(_ path: String, major: UInt32, minor: UInt32) throws {
    let device = dev_t(major) << 8 | dev_t(minor)
    guard mknod(path, S_IFCHR | 0o666, device) == 0 else { throw TestFailure("mknod \(path): errno \(errno)") }
  }

  @Test(.enabled(if: isRoot, "mknod needs root"))
  func aNullDeviceIsWrittenThroughAndKept() throws {
    try withScratchFolder("destination") { (folder) throws in
      let null = folder.file("null")
      try Self.makeDevice(null, major: 1, minor: 3)
      try AtomicFile.write(Data("hello".utf8), toFile: null)
      #expect(fileKind(null) == S_IFCHR, "the device node was replaced")
      #expect(try folder.contents() == ["null"], "a temporary file was left beside the node")
    }
  }

  @Test(.enabled(if: isRoot, "mknod needs root"))
  func aFullDeviceIsAFullDiskErrorAndKept() throws {
    try withScratchFolder("destination") { (folder) throws in
      let full = folder.file("full")
      try Self.makeDevice(full, major: 1, minor: 7)
      expectError(AtomicFileError.self, .noSpace) { try AtomicFile.write(Data("x".utf8), toFile: full) }
      #expect(fileKind(full) == S_IFCHR, "the device node was replaced")
    }
  }

  @Test func theMachinesNullDeviceStaysADevice() throws {
    try AtomicFile.write(Data("discarded".utf8), toFile: "/dev/null")
    #expect(fileKind("/dev/null") == S_IFCHR)
  }

  @Test func aSymbolicLinkIsFollowedAndKept() throws {
    try withScratchFolder("destination") { (folder) throws in
      try folder.write(Array("old".utf8), to: "target.plist")
      #expect(symlink("target.plist", folder.file("link.plist")) == 0)
      try AtomicFile.write(Data("new".utf8), toFile: folder.file("link.plist"))
      #expect(fileKind(folder.file("link.plist")) == S_IFLNK, "the link was replaced")
      #expect(try folder.read("target.plist") == Array("new".utf8))
      // A dangling link gets its target created, as the shell's `>` does.
      #expect(symlink("sub/../later.plist", folder.file("dangling")) == 0)
      #expect(mkdir(folder.file("sub"), 0o755) == 0)
      try AtomicFile.write(Data("made".utf8), toFile: folder.file("dangling"))
      #expect(fileKind(folder.file("dangling")) == S_IFLNK)
      #expect(try folder.read("later.plist") == Array("made".utf8))
      #expect(try folder.contents().sorted() == ["dangling", "later.plist", "link.plist", "sub", "target.plist"])
    }
  }

  @Test func aLinkCycleIsAnErrorThatCreatesNothing() throws {
    try withScratchFolder("destination") { (folder) throws in
      #expect(symlink("b", folder.file("a")) == 0)
      #expect(symlink("a", folder.file("b")) == 0)
      expectError(AtomicFileError.self, .ioFailure) { try AtomicFile.write(Data("x".utf8), toFile: folder.file("a")) }
      #expect(try folder.contents().sorted() == ["a", "b"])
    }
  }

  /// A pipe's write end reached through `/dev/fd/N`, `/proc/self/fd/N` or a link to one of them.
  @Test(arguments: ["/dev/fd/", "/proc/self/fd/", "link"])
  func aDescriptorNameWritesToThatDescriptor(_ form: String) throws {
    try withScratchFolder("destination") { (folder) throws in
      var ends: [Int32] = [0, 0]
      #expect(pipe(&ends) == 0)
      defer { close(ends[0]) }
      var path = form + String(ends[1])
      if form == "link" {
        #expect(symlink("/proc/self/fd/\(ends[1])", folder.file("out")) == 0)
        path = folder.file("out")
      }
      try AtomicFile.write(Data("through the pipe".utf8), toFile: path)
      close(ends[1])
      var buffer = [UInt8](repeating: 0, count: 64)
      let count = read(ends[0], &buffer, buffer.count)
      #expect(count >= 0 && Array(buffer[..<max(count, 0)]) == Array("through the pipe".utf8))
      if form == "link" { #expect(fileKind(folder.file("out")) == S_IFLNK) }
    }
  }

  @Test func aFIFOIsWrittenInPlaceForItsReader() throws {
    try withScratchFolder("destination") { (folder) throws in
      let fifo = folder.file("fifo")
      #expect(mkfifo(fifo, 0o600) == 0)
      let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })  // more than a pipe holds
      let reader = FIFOReader(path: fifo)
      try AtomicFile.write(payload, toFile: fifo)
      #expect(reader.wait() == payload)
      #expect(fileKind(fifo) == S_IFIFO, "the FIFO was replaced")
    }
  }

  @Test func aFIFOWithoutAReaderIsAnErrorNotAHang() throws {
    try withScratchFolder("destination") { (folder) throws in
      let fifo = folder.file("fifo")
      #expect(mkfifo(fifo, 0o600) == 0)
      let started = ContinuousClock.now
      expectError(AtomicFileError.self, .ioFailure) {
        try [UInt8]("x".utf8).withUnsafeBytes { bytes in
          try AtomicFile.writeInPlace(bytes, toNode: fifo, path: fifo, readerWait: 200)
        }
      }
      #expect(ContinuousClock.now - started < .seconds(5))
      #expect(fileKind(fifo) == S_IFIFO)
    }
  }

  @Test func aSocketIsRefusedAndKept() throws {
    try withScratchFolder("destination") { (folder) throws in
      let path = folder.file("socket")
      let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      defer { close(descriptor) }
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { raw in
        let bytes = Array(path.utf8.prefix(raw.count - 1))
        raw.copyBytes(from: bytes)
      }
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
      }
      try #require(bound == 0, "bind failed (errno \(errno)); the path may be too long for a socket")
      expectError(AtomicFileError.self, .notAFile) { try AtomicFile.write(Data("x".utf8), toFile: path) }
      #expect(fileKind(path) == S_IFSOCK)
    }
  }

  @Test func descriptorNames() {
    #expect(WriteDestination.descriptorNumber(named: "/dev/stdout") == 1)
    #expect(WriteDestination.descriptorNumber(named: "/dev/stderr") == 2)
    #expect(WriteDestination.descriptorNumber(named: "/dev/fd/63") == 63)
    #expect(WriteDestination.descriptorNumber(named: "/proc/self/fd/7") == 7)
    #expect(WriteDestination.descriptorNumber(named: "/dev/fd/") == nil)
    #expect(WriteDestination.descriptorNumber(named: "/dev/fd/1x") == nil)
    #expect(WriteDestination.descriptorNumber(named: "/dev/stdin2") == nil)
  }
}
