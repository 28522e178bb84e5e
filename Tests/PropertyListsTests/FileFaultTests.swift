import Foundation
import PropertyLists
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

/// `PropertyListValue.write(toFile:format:)` on a disk that fails at each call in turn and
/// crashes after each call: the file is the old one or the new one, never torn, and a failure
/// names it (see ``FaultSweep``).
@Suite struct PropertyListFileFaultTests {
  @Test("A property-list file survives every fault and crash", arguments: [PropertyListFormat.binary, .xml])
  func plistFile(format: PropertyListFormat) throws {
    var generator = RandomPropertyList(seed: 0x5eed_0031, kinds: format == .binary ? .binary : .xml)
    let old = try generator.document().encoded(as: format)
    let new = generator.document()
    let path = "/data/Library/Preferences/com.example.plist"
    let sweep = FaultSweep(
      "plist \(format)", targets: [path], prepare: { $0.seed(old, atFile: path) },
      write: { try new.write(toFile: path, format: format, environment: $0) })
    let outcome = try sweep.run()
    #expect(outcome.violations.isEmpty, "\(outcome)")
    #expect(outcome.calls >= 6 && outcome.failedWrites > 0, "\(outcome)")
  }

  @Test("Writing a file where none was: absent or whole")
  func newFile() throws {
    var generator = RandomPropertyList(seed: 0x5eed_0032, kinds: .binary)
    let new = generator.document()
    let path = "/data/new.plist"
    let sweep = FaultSweep(
      "new plist", targets: [path], prepare: { $0.seedFolder("/data") },
      write: { try new.write(toFile: path, format: .binary, environment: $0) })
    let outcome = try sweep.run()
    #expect(outcome.violations.isEmpty, "\(outcome)")
  }
}
