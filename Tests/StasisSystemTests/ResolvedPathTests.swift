import Foundation
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `FileSystem.resolvedPath(_:)` (`realpath(3)`) and `status(of:followingLinks: false)` (`lstat`):
/// the in-memory file system answers as the kernel does, on the same tree of links planted on both.
@Suite struct ResolvedPathTests {
  /// The tree, relative to the base: folders, one file, and links of every kind (relative,
  /// absolute to the base, chained, dangling, looping, through `..`).
  static let folders = ["a", "a/b", "c"]
  static let file = "a/b/f.txt"
  static let links: [(at: String, to: String)] = [
    ("a/up", ".."), ("a/to-b", "b"), ("c/to-file", "../a/b/f.txt"), ("c/chain", "to-b-abs"), ("c/to-b-abs", "<base>/a/b"),
    ("c/dangling", "missing/x"), ("c/loop-1", "loop-2"), ("c/loop-2", "loop-1"), ("a/b/back", "../../c"),
  ]

  /// Each path, relative to the base, and what it resolves to (relative to the base) or the code of the failure.
  enum Expected {
    case resolves(String)
    case fails(AtomicFileError.Code)
  }

  static let cases: [(path: String, expected: Expected)] = [
    ("", .resolves("")),
    ("a", .resolves("/a")),
    ("a/./b//", .resolves("/a/b")),
    ("a/b/..", .resolves("/a")),
    ("a/up/c", .resolves("/c")),
    ("a/to-b/f.txt", .resolves("/a/b/f.txt")),
    ("c/to-file", .resolves("/a/b/f.txt")),
    ("c/chain", .resolves("/a/b")),
    ("c/chain/back/to-file", .resolves("/a/b/f.txt")),
    ("a/to-b/../to-b", .resolves("/a/b")),
    ("a/b/back/../a", .resolves("/a")),
    ("missing", .fails(.notFound)),
    ("a/missing/..", .fails(.notFound)),
    ("c/dangling", .fails(.notFound)),
    ("a/b/f.txt/x", .fails(.notFound)),
    ("c/to-file/..", .fails(.notFound)),
    ("c/loop-1", .fails(.ioFailure)),
  ]

  static func plant(_ fileSystem: any FileSystem, base: String, link: (String, String) throws -> Void) throws {
    try fileSystem.makeFolders(base, permissions: 0o755)
    for folder in folders { try fileSystem.makeFolder(base + "/" + folder, permissions: 0o755) }
    try fileSystem.write(Data("file".utf8), toFile: base + "/" + file)
    for (at, target) in links { try link(base + "/" + at, target.replacingOccurrences(of: "<base>", with: base)) }
  }

  static func check(_ fileSystem: any FileSystem, base: String, _ label: String) {
    for (path, expected) in cases {
      let asked = base + (path.isEmpty ? "" : "/" + path)
      switch expected {
      case .resolves(let relative):
        #expect((try? fileSystem.resolvedPath(asked)) == base + relative, "\(label): \(path)")
      case .fails(let code):
        let error = expectError(AtomicFileError.self, code, "\(label): \(path)") { _ = try fileSystem.resolvedPath(asked) }
        #expect(error?.path == asked, "\(label): the error names the path asked for")
      }
    }
    // lstat sees the link itself, stat its target.
    #expect((try? fileSystem.status(of: base + "/c/to-file", followingLinks: false))?.kind == .symbolicLink, "\(label)")
    #expect((try? fileSystem.status(of: base + "/c/to-file", followingLinks: true))?.kind == .file, "\(label)")
    #expect((try? fileSystem.status(of: base + "/c/dangling", followingLinks: false))?.kind == .symbolicLink, "\(label)")
    #expect(fileSystem.status(of: base + "/c/dangling") == nil, "\(label)")
  }

  @Test func theRealFileSystemResolvesAsRealpathDoes() throws {
    try withScratchFolder("resolved-path") { scratch in
      // The scratch folder itself may sit behind a link (/tmp on some systems): compare physical paths.
      let base = try POSIXFileSystem().resolvedPath(scratch.path)
      try Self.plant(POSIXFileSystem(), base: base) { path, target in
        guard symlink(target, path) == 0 else { throw TestFailure("cannot link \(path): errno \(errno)") }
      }
      Self.check(POSIXFileSystem(), base: base, "POSIX")
    }
  }

  @Test func theInMemoryFileSystemResolvesAsTheKernelDoes() throws {
    let disk = InMemoryFileSystem()
    try Self.plant(disk, base: "/base") { disk.seedSymbolicLink(at: $0, to: $1) }
    Self.check(disk, base: "/base", "in memory")
    #expect(try disk.resolvedPath("/") == "/")
    #expect(try disk.resolvedPath("/base/../..") == "/")
  }

  @Test func aResolutionIsOneCallThatAFaultFails() throws {
    let disk = InMemoryFileSystem()
    disk.seedFolder("/base/a")
    disk.inject(.at(1, .ioError))
    let error = expectError(AtomicFileError.self, .ioFailure) { _ = try disk.resolvedPath("/base/a") }
    #expect(error?.path == "/base/a")
    #expect(disk.callLog == ["1 cannot resolve the path /base/a"])
  }
}
