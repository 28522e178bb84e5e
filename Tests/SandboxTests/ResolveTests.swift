import Foundation
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

@testable import Sandbox

/// `AppContainer.resolve(_:)` against hostile paths. The container `com.example.app` is set up with
/// links of every kind (see `Fixture`); every row names the path and the error it must get.
@Suite("Resolving paths inside a container")
struct ResolveTests {
  /// Where a fixture is planted: a scratch folder on the real disk, or an in-memory file system
  /// (the same table must hold on both: `resolve` sees the disk only through the `FileSystem`).
  struct Disk: CustomStringConvertible {
    let base: String
    let fileSystem: any FileSystem
    let link: (_ path: String, _ target: String) throws -> Void
    let file: (_ path: String, _ text: String) throws -> Void
    let folder: (_ path: String) throws -> Void
    let remove: () -> Void
    let description: String

    static func make(inMemory: Bool) throws -> Disk {
      if inMemory {
        let disk = InMemoryFileSystem()
        return Disk(
          base: "/scratch", fileSystem: disk, link: { disk.seedSymbolicLink(at: $0, to: $1) },
          file: { disk.seed(Data($1.utf8), atFile: $0) }, folder: { disk.seedFolder($0) }, remove: {}, description: "in memory")
      }
      let scratch = try ScratchFolder("sandbox")
      return Disk(
        base: scratch.path, fileSystem: POSIXFileSystem(), link: symlink(at:to:),
        file: { try Data($1.utf8).write(to: URL(fileURLWithPath: $0)) },
        folder: { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: true) }, remove: scratch.remove,
        description: "on disk")
    }
  }

  /// A container with links planted in Documents, and a sibling container and an outside folder
  /// to escape to.
  struct Fixture {
    let disk: Disk
    let container: AppContainer
    var outside: String { disk.base + "/outside" }

    init(inMemory: Bool) throws {
      disk = try Disk.make(inMemory: inMemory)
      let root = ContainerRoot(path: disk.base + "/Containers", fileSystem: disk.fileSystem)
      container = try root.container(for: "com.example.app")
      _ = try root.container(for: "com.example.other")
      try disk.folder(disk.base + "/outside")
      try disk.file(disk.base + "/outside/secret", "outside")
      let documents = container.documentsPath
      try disk.file(documents + "/notes.txt", "")
      try disk.link(documents + "/root", "/")
      try disk.link(documents + "/etc", "/etc")
      try disk.link(documents + "/up", "../..")  // the container root
      try disk.link(documents + "/chain-a", "chain-b")  // chain-a -> chain-b -> chain-c -> outside
      try disk.link(documents + "/chain-b", "chain-c")
      try disk.link(documents + "/chain-c", disk.base + "/outside")
      try disk.link(documents + "/sibling", "../../com.example.other/Documents")
      try disk.link(documents + "/dangling", "/nonexistent/stasis/target")
      try disk.link(documents + "/loop-a", "loop-b")
      try disk.link(documents + "/loop-b", "loop-a")
      try disk.link(documents + "/to-caches", "../Library/Caches")  // inside: allowed
      try disk.link(documents + "/absolute-inside", container.applicationSupportPath)  // inside: allowed
      try disk.link(documents + "/inner-chain", "to-caches")  // inside via another link: allowed
      try disk.link(container.cachesPath + "/back-out", "../../../../outside")  // reached through to-caches
    }

    func remove() { disk.remove() }
  }

  static let hostile: [(path: String, code: SandboxError.Code)] = [
    ("..", .escapesContainer),
    ("../x", .escapesContainer),
    ("a/../../x", .escapesContainer),
    ("Documents/../../com.example.other", .escapesContainer),
    ("./../x", .escapesContainer),
    ("Documents/./../../../etc/passwd", .escapesContainer),
    ("tmp/missing/../../../x", .escapesContainer),
    ("Library/Preferences/../../..", .escapesContainer),
    ("~/../x", .escapesContainer),
    ("/etc/passwd", .escapesContainer),
    ("/", .escapesContainer),
    ("//Documents", .escapesContainer),
    ("Documents/root/etc/passwd", .escapesContainer),
    ("Documents/etc", .escapesContainer),
    ("Documents/etc/passwd", .escapesContainer),
    ("Documents/up", .escapesContainer),
    ("Documents/up/com.example.app/Documents", .escapesContainer),
    ("Documents/chain-a/secret", .escapesContainer),
    ("Documents/sibling/x", .escapesContainer),
    ("Documents/dangling", .escapesContainer),
    ("Documents/loop-a", .escapesContainer),
    ("Documents/to-caches/back-out/secret", .escapesContainer),
    ("Documents/inner-chain/back-out", .escapesContainer),
    ("Documents/\0/x", .invalidPath),
    ("notes\0.txt", .invalidPath),
    ("\0", .invalidPath),
    ("", .invalidPath),
    ("~root/x", .invalidPath),
    ("~other", .invalidPath),
    ("Documents/" + String(repeating: "n", count: 256), .invalidPath),
    (String(repeating: "a/", count: 2100), .invalidPath),
  ]

  @Test(arguments: [false, true])
  func everyEscapeIsRefused(inMemory: Bool) throws {
    let fixture = try Fixture(inMemory: inMemory)
    defer { fixture.remove() }
    #expect(Self.hostile.count >= 15)
    for (path, code) in Self.hostile {
      let shown = path.count > 60 ? String(path.prefix(60)) + "…" : path
      let error = expectError(SandboxError.self, code, "path \(shown.debugDescription) \(fixture.disk)") {
        _ = try fixture.container.resolve(path)
      }
      if let error {
        #expect(error.path == path.replacingOccurrences(of: "\0", with: "\\0"), "the error does not name the path")
        #expect(error.description.hasPrefix(error.path + ": "))
        #expect(!error.description.contains("\0"))
      }
    }
    // Nothing outside was touched.
    #expect(try fixture.disk.fileSystem.read(contentsOfFile: fixture.outside + "/secret", limit: 64) == Data("outside".utf8))
  }

  @Test(arguments: [false, true])
  func pathsInsideResolve(inMemory: Bool) throws {
    let fixture = try Fixture(inMemory: inMemory)
    defer { fixture.remove() }
    let container = fixture.container
    let home = container.homePath
    let allowed: [(String, String)] = [
      ("Documents/notes.txt", container.documentsPath + "/notes.txt"),
      ("Documents/new/deeper/file", container.documentsPath + "/new/deeper/file"),
      ("Documents/../Library/Caches", container.cachesPath),
      ("./Documents", container.documentsPath),
      ("Documents//double//slash/", container.documentsPath + "/double/slash"),
      ("~/Documents", container.documentsPath),
      ("~", home),
      ("~/", home),
      (".", home),
      ("Documents/..", home),
      ("Documents/...", container.documentsPath + "/..."),
      ("Documents/..hidden", container.documentsPath + "/..hidden"),
      ("tmp/missing/../x", container.temporaryPath + "/x"),
      ("Documents/notes.txt/child", container.documentsPath + "/notes.txt/child"),
      ("Documents/to-caches/x", container.cachesPath + "/x"),
      ("Documents/to-caches/..", container.libraryPath),
      ("Documents/absolute-inside/db.sqlite", container.applicationSupportPath + "/db.sqlite"),
      ("Documents/inner-chain", container.cachesPath),
      ("Library/Preferences/com.example.app.plist", container.preferencesFilePath),
    ]
    for (path, expected) in allowed {
      #expect(try container.resolve(path) == expected, "\(path) \(fixture.disk)")
    }
  }

  /// A container home that cannot be resolved is a `.fileSystem` error naming the path asked for.
  @Test func anUnresolvableHomeIsAFileSystemError() throws {
    let disk = InMemoryFileSystem()
    let container = try ContainerRoot(path: "/Containers", fileSystem: disk).container(for: "com.example.app")
    try disk.removeTree(container.homePath)
    let error = expectError(SandboxError.self, .fileSystem) { _ = try container.resolve("Documents/a") }
    #expect(error?.path == "Documents/a")
    #expect(error?.description.contains("home \(container.homePath) cannot be resolved") == true)
  }

  @Test func searchPathsWithoutTildeExpansionResolveToTheExpandedOnes() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.app")
    for directory in SearchPathDirectory.allCases {
      let expanded = container.searchPaths(for: directory)
      let tilde = container.searchPaths(for: directory, expandTilde: false)
      #expect(tilde.allSatisfy { $0.hasPrefix("~/") }, "\(directory)")
      #expect(try tilde.map { try container.resolve($0) } == expanded, "\(directory)")
    }
  }
}

@Suite("Search paths")
struct SearchPathTests {
  @Test func standardFoldersMatchTheContainer() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.app")
    #expect(container.searchPaths(for: .documentDirectory) == [container.documentsPath])
    #expect(container.searchPaths(for: .libraryDirectory) == [container.libraryPath])
    #expect(container.searchPaths(for: .cachesDirectory) == [container.cachesPath])
    #expect(container.searchPaths(for: .applicationSupportDirectory) == [container.applicationSupportPath])
    for directory in [SearchPathDirectory.documentDirectory, .libraryDirectory, .cachesDirectory, .applicationSupportDirectory] {
      #expect(isFolder(container.searchPaths(for: directory)[0]), "\(directory) does not exist")
    }
  }

  @Test(arguments: [
    (SearchPathDirectory.applicationDirectory, ["~/Applications"]),
    (.documentDirectory, ["~/Documents"]),
    (.libraryDirectory, ["~/Library"]),
    (.cachesDirectory, ["~/Library/Caches"]),
    (.applicationSupportDirectory, ["~/Library/Application Support"]),
    (.autosavedInformationDirectory, ["~/Library/Autosave Information"]),
    (.desktopDirectory, ["~/Desktop"]),
    (.downloadsDirectory, ["~/Downloads"]),
    (.moviesDirectory, ["~/Movies"]),
    (.musicDirectory, ["~/Music"]),
    (.picturesDirectory, ["~/Pictures"]),
    (.sharedPublicDirectory, ["~/Public"]),
    (.allLibrariesDirectory, ["~/Library", "~/Developer"]),
  ])
  func userDomainPathsAsApplePrintsThem(directory: SearchPathDirectory, unexpanded: [String]) throws {
    let container = AppContainer(bundleIdentifier: "com.example.app", homePath: "/c/com.example.app", appName: "app")
    #expect(container.searchPaths(for: directory, expandTilde: false) == unexpanded)
    #expect(container.searchPaths(for: directory) == unexpanded.map { "/c/com.example.app" + $0.dropFirst() })
  }
}

@Suite("Purging caches and temporary files")
struct PurgeTests {
  @Test func purgeEmptiesTheFolderButKeepsItAndNeverFollowsLinks() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.app")
    try FileManager.default.createDirectory(atPath: scratch.outside + "/kept", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: scratch.outside + "/kept/file", contents: Data("keep".utf8))
    for folder in [container.cachesPath, container.temporaryPath] {
      try FileManager.default.createDirectory(atPath: folder + "/sub/deeper", withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: folder + "/sub/deeper/f", contents: Data("x".utf8))
      _ = FileManager.default.createFile(atPath: folder + "/top", contents: Data("x".utf8))
      _ = FileManager.default.createFile(atPath: folder + "/.hidden", contents: Data("x".utf8))
      try symlink(at: folder + "/link-out", to: scratch.outside + "/kept")
    }
    _ = FileManager.default.createFile(atPath: container.documentsPath + "/doc", contents: Data("x".utf8))
    try container.purgeCaches()
    #expect(try FileManager.default.contentsOfDirectory(atPath: container.cachesPath) == [])
    #expect(try FileManager.default.contentsOfDirectory(atPath: container.temporaryPath).count == 4, "purgeCaches touched tmp")
    try container.purgeTemporaryFiles()
    #expect(try FileManager.default.contentsOfDirectory(atPath: container.temporaryPath) == [])
    #expect(isFolder(container.cachesPath) && isFolder(container.temporaryPath))
    #expect(FileManager.default.fileExists(atPath: container.documentsPath + "/doc"))
    #expect(try String(contentsOfFile: scratch.outside + "/kept/file", encoding: .utf8) == "keep", "a purge followed a link out")
    // Purging an empty or missing folder is fine.
    try container.purgeCaches()
    try FileManager.default.removeItem(atPath: container.temporaryPath)
    try container.purgeTemporaryFiles()
  }

  @Test func aCachesFolderReplacedByALinkIsNotPurged() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.app")
    try FileManager.default.createDirectory(atPath: scratch.outside, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: scratch.outside + "/precious", contents: Data("keep".utf8))
    try FileManager.default.removeItem(atPath: container.cachesPath)
    try symlink(at: container.cachesPath, to: scratch.outside)
    let error = expectError(SandboxError.self, .fileSystem) { try container.purgeCaches() }
    #expect(error?.path == container.cachesPath)
    #expect(FileManager.default.fileExists(atPath: scratch.outside + "/precious"))
  }

  @Test(.enabled(if: getuid() != 0, "running as root, which ignores permission bits"))
  func anUnremovableItemIsAFileSystemError() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.app")
    try FileManager.default.createDirectory(atPath: container.cachesPath + "/locked", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: container.cachesPath + "/locked/f", contents: Data())
    chmod(container.cachesPath + "/locked", 0o555)
    defer { chmod(container.cachesPath + "/locked", 0o755) }
    let error = expectError(SandboxError.self, .fileSystem) { try container.purgeCaches() }
    #expect(error?.path == container.cachesPath + "/locked/f")
  }

  @Test(.enabled(if: ImmutableFlag.isUsable, "needs root and chattr to make a folder immutable"))
  func anItemInAnImmutableFolderIsAFileSystemError() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.app")
    try FileManager.default.createDirectory(atPath: container.temporaryPath + "/locked", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: container.temporaryPath + "/locked/f", contents: Data())
    try #require(ImmutableFlag.set(true, on: container.temporaryPath + "/locked"))
    defer { ImmutableFlag.set(false, on: container.temporaryPath + "/locked") }
    let error = expectError(SandboxError.self, .fileSystem) { try container.purgeTemporaryFiles() }
    #expect(error?.path == container.temporaryPath + "/locked/f")
    #expect(error?.description.contains("cannot remove the file: Operation not permitted") == true)
  }
}
