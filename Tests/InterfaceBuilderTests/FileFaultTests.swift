import Foundation
import IBTool
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

/// `ibtool --compile` of a nib and of a storyboardc folder, in-process, on a disk that fails at
/// each call in turn and crashes after each call: the output is the old compile or the new one,
/// never half, and a failure names the output (see ``FaultSweep``).
@MainActor @Suite struct IBToolFileFaultTests {
  nonisolated static let fixtures = Corpus.repositoryRoot.appendingPathComponent("Tests/Fixtures/fault-harness").path

  /// Compiles `input` to `output` with ibtool on `environment`; throws the tool's report when it fails.
  static func compile(_ input: String, to output: String, environment: HostEnvironment) throws {
    let report = Report()
    var environment = environment
    environment.standardStreams = StandardStreams(
      readInput: { _ in [] }, writeOutput: { report.append($0) }, writeError: { report.append($0) })
    let status = IBTool(environment: environment).run(["ibtool", "--compile", output, input])
    if status != 0 { throw Failure(message: report.text) }
  }

  final class Report: @unchecked Sendable {
    var bytes: [UInt8] = []
    func append(_ more: [UInt8]) { bytes += more }
    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  func sweep(_ fixture: String, old oldFixture: String, output: String) throws -> FaultSweep.Outcome {
    let source = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + fixture))
    let oldSource = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + oldFixture))
    let input = "/project/" + fixture
    let sweep = FaultSweep(
      // A failed read of the input names the input.
      "ibtool \(fixture)", targets: [output], names: [input],
      prepare: { disk in
        // The old output is a real compile of another document.
        disk.seed(oldSource, atFile: "/project/old/" + oldFixture)
        disk.seed(source, atFile: input)
        disk.seedFolder("/build")
        try Self.compile("/project/old/" + oldFixture, to: output, environment: HostEnvironment(fileSystem: disk))
      },
      write: { try Self.compile(input, to: output, environment: $0) })
    return try sweep.run()
  }

  @Test("A storyboardc folder survives every fault and crash: the old folder or the new one")
  func storyboardFolder() throws {
    let outcome = try sweep("basic.storyboard", old: "textview.storyboard", output: "/build/Main.storyboardc")
    #expect(outcome.violations.isEmpty, "\(outcome)")
    #expect(outcome.failedWrites > 0, "\(outcome)")
  }

  @Test("A nib survives every fault and crash")
  func nibFile() throws {
    let outcome = try sweep("window.xib", old: "menu.xib", output: "/build/Window.nib")
    #expect(outcome.violations.isEmpty, "\(outcome)")
    #expect(outcome.failedWrites > 0, "\(outcome)")
  }
}
