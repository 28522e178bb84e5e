import Foundation
import KeyedArchive
import PropertyLists
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

/// `KeyedArchiver.archive(_:toFile:)` on a disk that fails at each call in turn and crashes
/// after each call (see ``FaultSweep``).
@Suite struct KeyedArchiveFileFaultTests {
  @Test("A keyed archive file survives every fault and crash")
  func archiveFile() throws {
    var generator = SplitMix64(seed: 0x5eed_0033)
    func root() -> [String: Any] {
      ["items": (0..<8).map { _ in "item \(generator.next() % 1000)" }, "count": Int(generator.next() % 100)]
    }
    let old = try KeyedArchiver.archivedData(withRootObject: root())
    let new = root()
    let path = "/app/Documents/items.archive"
    let sweep = FaultSweep(
      "keyed archive", targets: [path], prepare: { $0.seed(old, atFile: path) },
      write: { try KeyedArchiver.archive(new, toFile: path, environment: $0) })
    let outcome = try sweep.run()
    #expect(outcome.violations.isEmpty, "\(outcome)")
    #expect(outcome.failedWrites > 0, "\(outcome)")
  }
}
