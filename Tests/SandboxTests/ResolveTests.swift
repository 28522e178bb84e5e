import Foundation
import Testing
import TestSupport

@testable import Sandbox

/// `AppContainer.resolve(_:)` against hostile paths. The container `com.example.app` is set up with
/// links of every kind (see `Fixture`); every row names the path and the error it must get.
@Suite("Resolving paths inside a container")
struct ResolveTests {
  /// A container with links planted in Documents, and a sibling container and an outside folder
  /// to escape to.
  struct Fixture {
    let scratch: ScratchRoot
    let container: AppContainer

    init() throws {
      scratch = try ScratchRoot()
      container = try scratch.root.container(for: "com.example.app")
      _ = try scratch.root.container(for: "com.example.other")
      try FileManager.default.createDirectory(atPath: scratch.outside, withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: scratch.outside + "/secret", contents: Data("outside".utf8))
      let documents = container.documentsPath
      _ = FileManager.default.createFile(atPath: documents + "/notes.txt", contents: Data())
      try symlink(at: documents + "/root", to: "/")
      try symlink(at: documents + "/etc", to: "/etc")
      try symlink(at: documents + "/up", to: "../..")  // the container root
      try symlink(at: documents + "/chain-a", to: "chain-b")  // chain-a -> chain-b -> chain-c -> outside
      try symlink(at: documents + "/chain-b", to: "chain-c")
      try symlink(at: documents + "/chain-c", to: scratch.outside)
      try symlink(at: documents + "/sibling", to: "../../com.example.other/Documents")
      try symlink(at: documents + "/dangling", to: "/nonexistent/stasis/target")
      try symlink(at: documents + "/loop-a", to: "loop-b")
      try symlink(at: documents + "/loop-b", to: "loop-a")
      try symlink(at: documents + "/to-caches", to: "../Library/Caches")  // inside: allowed
      try symlink(at: documents + "/absolute-inside", to: container.applicationSupportPath)  // inside: allowed
      try symlink(at: documents + "/inner-chain", to: "to-caches")  // inside via another link: allowed
      try symlink(at: container.cachesPath + "/back-out", to: "../../../../outside")  // reached through to-caches
    }
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

  @Test func everyEscapeIsRefused() throws {
    let fixture = try Fixture()
    defer { fixture.scratch.remove() }
    #expect(Self.hostile.count >= 15)
    for (path, code) in Self.hostile {
      let shown = path.count > 60 ? String(path.prefix(60)) + "…" : path
      let error = expectError(SandboxError.self, code, "path \(shown.debugDescription)") {
        _ = try fixture.container.resolve(path)
      }
      if let error {
        #expect(error.path == path.replacingOccurrences(of: "\0", with: "\\0"), "the error does not name the path")
        #expect(error.description.hasPrefix(error.path + ": "))
        #expect(!error.description.contains("\0"))
      }
    }
    // Nothing outside was touched.
    #expect(try String(contentsOfFile: fixture.scratch.outside + "/secret", encoding: .utf8) == "outside")
  }

  @Test func pathsInsideResolve() throws {
    let fixture = try Fixture()
    defer { fixture.scratch.remove() }
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
      #expect(try container.resolve(path) == expected, "\(path)")
    }
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
