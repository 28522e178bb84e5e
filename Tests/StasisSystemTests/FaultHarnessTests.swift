import Foundation
import Testing
import TestSupport

/// Tools/fault-harness.sh at CI scale (`--quick`: a seeded subset of the injection points of every
/// write path and mode); the full run is the script's own, outside the test suite.
@Suite struct FaultHarnessTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tools/fault-harness.sh").path
  static let binFolder = BuiltExecutables.path(named: "plutil").map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
  static let compiler = ["/usr/bin/cc", "/usr/local/bin/cc", "/bin/cc"].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    "Every write path under injected I/O faults and kills (a seeded subset): no violation, no debris left",
    .enabled(if: binFolder != nil && compiler != nil, "the tools or a C compiler (for the shim) are missing"))
  func quickRun() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    let seed = ProcessInfo.processInfo.environment["STASIS_FAULT_SEED"] ?? "1"
    process.arguments = [Self.script, "--quick", "--per", "2", "--seed", seed, "--bin", try #require(Self.binFolder)]
    let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("fault-harness-\(getpid()).log").path
    process.environment = ProcessInfo.processInfo.environment.merging(["FAULT_LOG": logFile]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let details = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(atPath: logFile)
    print(text)
    #expect(process.terminationStatus == 0, "\(text)\n\(details.prefix(4000))")
    #expect(text.contains("violations 0, debris left 0"))
  }
}
