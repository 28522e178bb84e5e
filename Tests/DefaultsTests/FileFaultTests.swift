import Foundation
@testable import Defaults
import PropertyLists
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

/// A defaults domain saved (`PreferencesFile.update`: the lock, the read of the file, the atomic
/// write) on a disk that fails at each call in turn and crashes after each call (see
/// ``FaultSweep``).
@Suite struct DefaultsFileFaultTests {
  @Test("A defaults domain survives every fault and crash while it is saved")
  func domainSave() throws {
    var generator = RandomPropertyList(seed: 0x5eed_0034, kinds: .binary)
    var oldValues: [String: PropertyListValue] = [:]
    for index in 0..<6 { oldValues["key\(index)"] = generator.value() }
    let old = try PreferencesFile.encode(oldValues)
    let changed = generator.value()
    let path = "/containers/com.example.app/Library/Preferences/com.example.app.plist"
    let sweep = FaultSweep(
      // A lock file that cannot be opened is named.
      "defaults domain", targets: [path], names: [PreferencesFile(path: path).lockPath + ":"], prepare: { $0.seed(old, atFile: path, permissions: 0o600) },
      write: { environment in
        try PreferencesFile(path: path, fileSystem: environment.fileSystem).update(domain: "com.example.app") { contents in
          contents?["key2"] = changed
          contents?["added"] = .string("new")
          return true
        }
      })
    let outcome = try sweep.run()
    #expect(outcome.violations.isEmpty, "\(outcome)")
    #expect(outcome.failedWrites > 0, "\(outcome)")
  }

  @Test("A lock file that cannot be opened or locked is named once, with the system's reason", arguments: ["cannot open or create the lock file", "cannot take the exclusive lock"])
  func lockFailureNamesThePathOnce(step: String) throws {
    let path = "/containers/com.example.app/Library/Preferences/com.example.app.plist"
    let file = { (disk: InMemoryFileSystem) in PreferencesFile(path: path, fileSystem: disk) }
    let clean = InMemoryFileSystem()
    try file(clean).withLock(domain: "com.example.app") {}
    let lockCall = try #require(clean.callLog.firstIndex { $0.contains(step) }, "\(clean.callLog)") + 1
    let disk = InMemoryFileSystem()
    disk.inject(.at(lockCall, .permissionDenied))
    let error = try #require(throws: DefaultsError.self) { try file(disk).withLock(domain: "com.example.app") {} }
    let message = error.description
    let lockPath = file(disk).lockPath
    #expect(message.components(separatedBy: lockPath).count == 2, "the lock file named once: \(message)")
    #expect(message.contains(step) && message.contains(String(cString: strerror(EACCES))), "\(message)")
    #expect(message.components(separatedBy: step).count == 2, "the step said once: \(message)")
  }
}
