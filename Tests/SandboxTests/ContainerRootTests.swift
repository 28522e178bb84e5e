import StasisSystem
import Foundation
import Testing
import TestSupport

@testable import Sandbox

@Suite("Container roots and opening containers")
struct ContainerRootTests {
  @Test func standardRootFollowsTheEnvironment() {
    #expect(ContainerRoot.standard(environment: ["STASIS_CONTAINERS_ROOT": "/data/c/", "XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/data/c")
    #expect(ContainerRoot.standard(environment: ["STASIS_CONTAINERS_ROOT": "", "XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/x/stasis/Containers")
    // The XDG specification says relative values are invalid and must be ignored.
    #expect(ContainerRoot.standard(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).path == "/h/.local/share/stasis/Containers")
    #expect(ContainerRoot.standard(environment: ["HOME": "/home/u"]).path == "/home/u/.local/share/stasis/Containers")
    let fromPasswordFile = ContainerRoot.standard(environment: [:]).path
    #expect(fromPasswordFile.hasPrefix("/") && fromPasswordFile.hasSuffix("/.local/share/stasis/Containers"))
    #expect(ContainerRoot(path: "/a/b///").path == "/a/b")
    #expect(ContainerRoot(path: "/").path == "/")
  }

  @Test func globalPreferencesLiveBesideTheContainers() {
    #expect(ContainerRoot(path: "/r").globalPreferencesPath == "/r/.GlobalPreferences/.GlobalPreferences.plist")
  }

  @Test func preferencesPathWithoutCreatingAnything() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let path = try scratch.root.preferencesFilePath(for: "com.example.Notes")
    #expect(!isFolder(scratch.root.path + "/com.example.Notes"), "looking created the container")
    #expect(path == (try scratch.root.container(for: "com.example.Notes").preferencesFilePath))
    #expect(throws: SandboxError.self) { try scratch.root.preferencesFilePath(for: "../escape") }
  }

  @Test func openingCreatesTheLayout() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.Notes")
    let home = scratch.root.path + "/com.example.Notes"
    #expect(container.bundleIdentifier == "com.example.Notes")
    #expect(container.homePath == home)
    #expect(container.bundlePath == home + "/Notes.app")
    #expect(container.documentsPath == home + "/Documents")
    #expect(container.libraryPath == home + "/Library")
    #expect(container.preferencesPath == home + "/Library/Preferences")
    #expect(container.cachesPath == home + "/Library/Caches")
    #expect(container.applicationSupportPath == home + "/Library/Application Support")
    #expect(container.temporaryPath == home + "/tmp")
    #expect(container.temporaryDirectory() == home + "/tmp/")
    #expect(container.preferencesFilePath == home + "/Library/Preferences/com.example.Notes.plist")
    for folder in container.standardFolders { #expect(isFolder(folder), "\(folder)") }
    #expect(isFolder(scratch.root.path + "/.GlobalPreferences"))
    // Preferences can be written atomically right away, app and global.
    try AtomicFile.write(Data("x".utf8), toFile: container.preferencesFilePath)
    try AtomicFile.write(Data("y".utf8), toFile: scratch.root.globalPreferencesPath)
    // Opening again finds everything in place and changes nothing.
    let again = try scratch.root.container(for: "com.example.Notes")
    #expect(again.homePath == container.homePath)
    #expect(try AtomicFile.read(contentsOfFile: again.preferencesFilePath, limit: 10) == Data("x".utf8))
  }

  @Test func appNameNamesTheBundleFolder() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "org.example.text-edit", appName: "Text Edit")
    #expect(container.bundlePath.hasSuffix("/org.example.text-edit/Text Edit.app"))
    #expect(isFolder(container.bundlePath))
    for bad in ["", ".", "..", "a/b", "x\0y", String(repeating: "n", count: 252)] {
      expectError(SandboxError.self, .invalidIdentifier, "app name \(bad.debugDescription)") {
        _ = try scratch.root.container(for: "org.example.app", appName: bad)
      }
    }
  }

  @Test func listsTheContainersPresent() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    #expect(scratch.root.bundleIdentifiers() == [])
    _ = try scratch.root.container(for: "com.b.app")
    _ = try scratch.root.container(for: "com.a.app")
    _ = FileManager.default.createFile(atPath: scratch.root.path + "/com.file.not-a-folder", contents: Data())
    try FileManager.default.createDirectory(atPath: scratch.root.path + "/not valid", withIntermediateDirectories: false)
    try symlink(at: scratch.root.path + "/com.link.app", to: scratch.root.path + "/com.a.app")
    #expect(scratch.root.bundleIdentifiers() == ["com.a.app", "com.b.app"])
  }

  @Test func aStandardFolderReplacedByALinkIsRefused() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.app")
    try FileManager.default.createDirectory(atPath: scratch.outside, withIntermediateDirectories: true)
    try FileManager.default.removeItem(atPath: container.preferencesPath)
    try symlink(at: container.preferencesPath, to: scratch.outside)
    let error = expectError(SandboxError.self, .fileSystem) { _ = try scratch.root.container(for: "com.example.app") }
    #expect(error?.path == container.preferencesPath)
    #expect(error?.description.contains("symbolic link") == true)
  }

  @Test func aRootThatIsAFileIsRefused() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    _ = FileManager.default.createFile(atPath: scratch.root.path, contents: Data())
    let error = expectError(SandboxError.self, .fileSystem) { _ = try scratch.root.container(for: "com.example.app") }
    #expect(error?.path == scratch.root.path)
  }

  @Test(.enabled(if: getuid() != 0, "running as root, which ignores permission bits"))
  func anUnwritableRootIsAFileSystemError() throws {
    let scratch = try ScratchRoot()
    defer { chmod(scratch.folder.path, 0o755); scratch.remove() }
    chmod(scratch.folder.path, 0o555)
    let error = expectError(SandboxError.self, .fileSystem) { _ = try scratch.root.container(for: "com.example.app") }
    #expect(error?.description.contains("Permission denied") == true)
  }

  @Test(.enabled(if: ImmutableFlag.isUsable, "needs root and chattr to make a folder immutable"))
  func aRootWhereNothingCanBeCreatedIsAFileSystemError() throws {
    let scratch = try ScratchRoot()
    try #require(ImmutableFlag.set(true, on: scratch.folder.path), "chattr +i failed on \(scratch.folder.path)")
    defer { ImmutableFlag.set(false, on: scratch.folder.path); scratch.remove() }
    let error = expectError(SandboxError.self, .fileSystem) { _ = try scratch.root.container(for: "com.example.app") }
    #expect(error?.path == scratch.root.path)
    #expect(error?.description.contains("cannot create the folder: Operation not permitted") == true, "\(String(describing: error))")
  }

  @Test func openingSweepsDebrisOfKilledWriters() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    let container = try scratch.root.container(for: "com.example.app")
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let dead = child.processIdentifier
    let debris = [
      container.preferencesPath + "/.com.example.app.plist.stasis-tmp.\(dead).1a",
      container.documentsPath + "/.notes.txt.stasis-tmp.\(dead).2b",
      container.applicationSupportPath + "/.db.stasis-tmp.\(dead).3c",
      container.homePath + "/.x.stasis-tmp.\(dead).4d",
      scratch.root.path + "/.GlobalPreferences/..GlobalPreferences.plist.stasis-tmp.\(dead).5e",
    ]
    let alive = container.documentsPath + "/.live.stasis-tmp.\(getpid()).6f"
    for path in debris + [alive] { _ = FileManager.default.createFile(atPath: path, contents: Data("partial".utf8)) }
    _ = try scratch.root.container(for: "com.example.app")
    for path in debris { #expect(!FileManager.default.fileExists(atPath: path), "\(path) was not swept") }
    #expect(FileManager.default.fileExists(atPath: alive), "a live writer's temporary file was removed")
  }
}

@Suite("Bundle identifiers")
struct BundleIdentifierTests {
  @Test(arguments: ["com.example.Notes", "org.example.text-edit", "a", "NSGlobalDomain", "com.apple.security_common", "x.y1.Z-2_3",
                    String(repeating: "a", count: 255)])
  func acceptsReverseDNSNames(_ identifier: String) throws {
    try BundleIdentifier.validate(identifier)
  }

  @Test(arguments: [
    "", ".", "..", "a..b", ".hidden", "trailing.", "../etc", "a/b", "/", "com.example/..", "x\0y", "\0", "has space",
    "tab\there", "new\nline", "caf\u{E9}", "emoji\u{1F600}", "back\\slash", "colon:name", "~user", "star*", "quote\"",
    String(repeating: "a", count: 256),
  ])
  func refusesEverythingElse(_ identifier: String) {
    let error = expectError(SandboxError.self, .invalidIdentifier, "\(identifier.debugDescription)") {
      try BundleIdentifier.validate(identifier)
    }
    #expect(error?.description.contains("\0") == false, "a NUL byte reached the message")
  }

  @Test func containersRefuseBadIdentifiersBeforeTouchingTheDisk() throws {
    let scratch = try ScratchRoot()
    defer { scratch.remove() }
    for identifier in ["..", "../escape", "a/b", "", "x\0"] {
      expectError(SandboxError.self, .invalidIdentifier) { _ = try scratch.root.container(for: identifier) }
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.root.path))
    #expect(!FileManager.default.fileExists(atPath: scratch.folder.path + "/escape"))
  }
}
