import Foundation
import Restoration
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

/// A restoration snapshot saved (`SavedStateFolder.writeSnapshot`: the link of `data.archive` to
/// `previous.archive`, the atomic write) on a disk that fails at each call in turn and crashes
/// after each call: each snapshot file is the old or the new one (see ``FaultSweep``).
@MainActor
@Suite struct RestorationFileFaultTests {
  @Test("The snapshots survive every fault and crash while one is saved")
  func snapshotSave() throws {
    var generator = SplitMix64(seed: 0x5eed_0035)
    func bytes(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }) }
    let previous = bytes(300), current = bytes(500), new = bytes(700)
    let folder = "/app/Library/Saved Application State/com.example.app.savedState"
    let sweep = FaultSweep(
      "restoration snapshot", targets: [folder + "/data.archive", folder + "/previous.archive"],
      rerunTargets: [folder + "/data.archive"],
      prepare: { disk in
        disk.seed(previous, atFile: folder + "/previous.archive")
        disk.seed(current, atFile: folder + "/data.archive")
      },
      write: { environment in try SavedStateFolder(path: folder, environment: environment).writeSnapshot(new) })
    let outcome = try sweep.run()
    #expect(outcome.violations.isEmpty, "\(outcome)")
    #expect(outcome.failedWrites > 0, "\(outcome)")
  }
}
