import Defaults
import Foundation
import PropertyLists
import Sandbox
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif


@Suite(
  "Saving to a full or read-only disk", .serialized,
  .enabled(if: SmallDisk.canMount, "cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)"))
struct FullDiskTests {
  @Test("ENOSPC: synchronize reports fileSystem, the old file stays, the changes are saved once there is room")
  func fullDisk() throws {
    let disk = try SmallDisk(size: "256k")
    let root = ContainerRoot(path: disk.path + "/Containers")
    let configuration = UserDefaults.Configuration(containerRoot: root, arguments: [], languages: [], flushDelay: nil)
    let defaults = try UserDefaults(bundleIdentifier: "com.example.full", configuration: configuration)
    defaults.set("old", forKey: "version")
    try defaults.synchronizeOrThrow()
    let path = try #require(defaults.preferencesFilePath)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))

    try disk.fill()
    defaults.set("new", forKey: "version")
    defaults.setPropertyList(.data(Data(repeating: 7, count: 64 * 1024)), forKey: "blob")
    let error = expectError(DefaultsError.self, .fileSystem, "a save to a full disk succeeded") {
      try defaults.synchronizeOrThrow()
    }
    #expect(error?.description.contains("com.example.full") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the old file changed")
    #expect(defaults.hasUnsavedChanges)
    #expect(defaults.string(forKey: "version") == "new", "this process keeps seeing its change")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
      .filter { $0.contains("stasis-tmp") }
    #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")

    disk.emptyFiller()
    try defaults.synchronizeOrThrow()
    let saved = try PropertyListValue(decoding: Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(saved["version"] == "new")
    #expect(saved["blob"]?.dataValue?.count == 64 * 1024)
  }

  @Test("A timed save that fails is reported through lastSaveError and retried until it succeeds")
  func timedSaveRetries() async throws {
    let disk = try SmallDisk(size: "256k")
    let root = ContainerRoot(path: disk.path + "/Containers")
    let configuration = UserDefaults.Configuration(containerRoot: root, arguments: [], languages: [], flushDelay: 0.05)
    let defaults = try UserDefaults(bundleIdentifier: "com.example.retry", configuration: configuration)
    defaults.set("old", forKey: "version")
    #expect(defaults.synchronize())
    try disk.fill()
    defaults.set("new", forKey: "version")
    defaults.setPropertyList(.data(Data(repeating: 7, count: 64 * 1024)), forKey: "blob")
    try await Task.sleep(for: .milliseconds(400))
    #expect(defaults.lastSaveError?.code == .fileSystem)
    #expect(defaults.hasUnsavedChanges)
    disk.emptyFiller()
    let deadline = Date().addingTimeInterval(5)
    while defaults.hasUnsavedChanges && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
    #expect(!defaults.hasUnsavedChanges, "the failed timed save was not retried")
    #expect(defaults.lastSaveError == nil)
    let path = try #require(defaults.preferencesFilePath)
    #expect(try PropertyListValue(decoding: Data(contentsOf: URL(fileURLWithPath: path)))["version"] == "new")
  }

  @Test(
    "EROFS: a read-only disk refuses the save and keeps the old file",
    .enabled(if: BuiltExecutable.child != nil, "stasis-defaults-child is not built"))
  func readOnlyDisk() throws {
    let disk = try SmallDisk(size: "256k")
    let root = ContainerRoot(path: disk.path + "/Containers")
    // The old version comes from another process, so that no file of this one stays open for
    // writing on the disk (a tmpfs cannot be remounted read-only while one is).
    let child = try #require(BuiltExecutable.child)
    #expect(try BuiltExecutable.run(child, ["writer", root.path, "com.example.readonly", "0", "1"]).status == 0)
    try disk.remountReadOnly(true)
    defer { try? disk.remountReadOnly(false) }
    let configuration = UserDefaults.Configuration(containerRoot: root, arguments: [], languages: [], flushDelay: nil)
    let defaults = try UserDefaults(bundleIdentifier: "com.example.readonly", configuration: configuration)
    #expect(defaults.integer(forKey: "w0.k0") == 0)
    defaults.set(2, forKey: "k")
    expectError(DefaultsError.self, .fileSystem, "a save to a read-only disk succeeded") { try defaults.synchronizeOrThrow() }
    #expect(!defaults.synchronize())
    let path = try #require(defaults.preferencesFilePath)
    #expect(try PropertyListValue(decoding: Data(contentsOf: URL(fileURLWithPath: path))) == ["w0.k0": 0])
    try disk.remountReadOnly(false)
    #expect(defaults.synchronize())
    #expect(try PropertyListValue(decoding: Data(contentsOf: URL(fileURLWithPath: path))) == ["w0.k0": 0, "k": 2])
  }
}
