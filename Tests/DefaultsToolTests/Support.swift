import DefaultsTool
import Foundation
import StasisSystem
import TestSupport

/// An in-process environment: a temporary container root, fixed log header, captured streams.
final class CapturingEnvironment: @unchecked Sendable {
  let folder: ScratchFolder
  /// The folder holding `Containers/` (a scratch folder, or a disk the test mounted).
  let root: String
  var input: [UInt8] = []
  var output: [UInt8] = []
  var error: [UInt8] = []
  let currentDirectory: String

  init(root: String? = nil) {
    folder = try! ScratchFolder("defaults-tool")
    self.root = root ?? folder.path
    currentDirectory = folder.path
  }

  var variables: [String: String] { ["STASIS_CONTAINERS_ROOT": root + "/Containers", "HOME": root] }

  /// The tool's world: the variables above, this object's streams, a clock stopped at a fixed
  /// date and process id 100 (so the log header is always the same).
  var host: HostEnvironment {
    HostEnvironment(
      variables: variables, currentDirectory: currentDirectory,
      clock: .fixed(at: Date(timeIntervalSince1970: 1_767_323_045.678)),
      standardStreams: StandardStreams(
        readInput: { limit in Array(self.input.prefix(limit)) }, writeOutput: { bytes in self.output += bytes },
        writeError: { bytes in self.error += bytes }),
      process: ProcessIdentity(id: 100, name: "defaults", arguments: ["defaults"], executablePath: nil))
  }

  func logHeader() -> String { DefaultsTool.logHeader(in: host) }

  /// Runs one command; returns status, stdout and stderr and clears the captured streams.
  @discardableResult
  func run(_ arguments: String...) -> (status: Int32, stdout: String, stderr: String) {
    run(arguments)
  }

  func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
    let status = DefaultsTool(environment: host).run(["defaults"] + arguments)
    defer {
      output = []
      error = []
    }
    return (status, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
  }

  var header: String { logHeader() }
}

/// The `defaults` executable this package built, found next to the test bundle.
enum BuiltDefaults {
  static let path: String? = BuiltExecutables.path(named: "defaults")

  /// Runs the executable with `$STASIS_CONTAINERS_ROOT` set.
  static func run(_ arguments: [String], root: String, input: Data = Data()) throws -> (status: Int32, stdout: String, stderr: String) {
    let scratch = try ScratchFolder("defaults-run")
    defer { scratch.remove() }
    let inURL = scratch.url.appendingPathComponent("in"), outURL = scratch.url.appendingPathComponent("out")
    let errURL = scratch.url.appendingPathComponent("err")
    try input.write(to: inURL)
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path!)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["STASIS_CONTAINERS_ROOT"] = root
    process.environment = environment
    process.standardInput = try FileHandle(forReadingFrom: inURL)
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try process.run()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
      String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
    )
  }
}
