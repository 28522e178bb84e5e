import Foundation
import Testing
import TestSupport

/// The outcome of running an executable.
struct ProcessOutcome {
  var status: Int32
  var stdout: Data
  var stderr: Data
  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs executables with standard streams redirected through files (no pipe can fill up and
/// block), in a given folder.
enum ProcessRunner {
  static func run(
    _ executable: String, _ arguments: [String], standardInput: Data = Data(), in folder: URL? = nil
  ) throws -> ProcessOutcome {
    let scratch = try ScratchFolder("plutil-run")
    defer { scratch.remove() }
    let inputURL = scratch.url.appendingPathComponent("stdin")
    let outputURL = scratch.url.appendingPathComponent("stdout")
    let errorURL = scratch.url.appendingPathComponent("stderr")
    try standardInput.write(to: inputURL)
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let input = try FileHandle(forReadingFrom: inputURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    defer {
      try? input.close()
      try? output.close()
      try? error.close()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    if let folder { process.currentDirectoryURL = folder }
    try process.run()
    process.waitUntilExit()
    return ProcessOutcome(
      status: process.terminationStatus, stdout: try Data(contentsOf: outputURL), stderr: try Data(contentsOf: errorURL))
  }
}

/// The `plutil` this package built, found next to the test bundle.
enum BuiltTool {
  static let path: String? = {
    let bundle = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    var folder = bundle.deletingLastPathComponent()
    // On Linux the test runner is `<bin>/<Package>PackageTests.xctest`; on Darwin it is inside
    // the bundle, three levels down.
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("plutil").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }()

  static var isAvailable: Bool { path != nil }
  static var missingReason: Comment {
    "the built plutil was not found next to the test bundle (run `swift build` before `swift test`)"
  }

  static func run(_ arguments: [String], standardInput: Data = Data(), in folder: URL? = nil) throws -> ProcessOutcome {
    try ProcessRunner.run(try #require(path), arguments, standardInput: standardInput, in: folder)
  }
}

/// Apple's plutil as shipped with the Swift toolchain (`STASIS_TOOLCHAIN_PLUTIL` overrides the
/// location), the reference for the comparison suite.
enum ToolchainPlutil {
  static let path: String? = {
    if let override = ProcessInfo.processInfo.environment["STASIS_TOOLCHAIN_PLUTIL"], !override.isEmpty {
      return FileManager.default.isExecutableFile(atPath: override) ? override : nil
    }
    for candidate in ["/opt/swift/usr/bin/plutil", "/usr/bin/plutil"] where FileManager.default.isExecutableFile(atPath: candidate) {
      // Only the toolchain's port, which says so in its help; GNUstep's plutil is another tool.
      if let outcome = try? ProcessRunner.run(candidate, ["-help"]), outcome.stdoutText.contains("Running in Swift mode") {
        return candidate
      }
    }
    return nil
  }()

  static var isAvailable: Bool { path != nil }
  static var missingReason: Comment {
    "the Swift toolchain's plutil was not found at /opt/swift/usr/bin/plutil (set STASIS_TOOLCHAIN_PLUTIL); comparison tests skipped"
  }

  static func run(_ arguments: [String], standardInput: Data = Data(), in folder: URL? = nil) throws -> ProcessOutcome {
    try ProcessRunner.run(try #require(path), arguments, standardInput: standardInput, in: folder)
  }
}
