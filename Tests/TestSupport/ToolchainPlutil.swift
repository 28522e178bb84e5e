import Foundation
public import Testing

/// Runs the toolchain's `plutil` (Apple's own port in swift-corelibs-foundation, at
/// `/opt/swift/usr/bin/plutil` on the build machine) so that tests can compare Stasis with it.
///
/// Tests that use it declare `.enabled(if: ToolchainPlutil.isAvailable, ToolchainPlutil.missingReason)`
/// so that a machine without the tool shows a skip with its reason.
public enum ToolchainPlutil {
  /// `STASIS_PLUTIL` if set, else `/opt/swift/usr/bin/plutil`, else `plutil` beside `swift` on `PATH`.
  public static let path: String? = {
    let fileManager = FileManager.default
    if let override = ProcessInfo.processInfo.environment["STASIS_PLUTIL"], !override.isEmpty {
      return fileManager.isExecutableFile(atPath: override) ? override : nil
    }
    if fileManager.isExecutableFile(atPath: "/opt/swift/usr/bin/plutil") { return "/opt/swift/usr/bin/plutil" }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(directory)/plutil"
      if fileManager.isExecutableFile(atPath: candidate), fileManager.isExecutableFile(atPath: "\(directory)/swift") {
        return candidate
      }
    }
    return nil
  }()

  public static var isAvailable: Bool { path != nil }

  public static var missingReason: Comment {
    "the toolchain's plutil was not found (looked at $STASIS_PLUTIL, /opt/swift/usr/bin/plutil and beside swift on PATH)"
  }

  public struct Outcome: Sendable {
    public var status: Int32
    public var output: [UInt8]
    public var errorOutput: String
  }

  /// Runs plutil with `arguments`, feeding `input` on standard input (pass `-` as the file).
  public static func run(_ arguments: [String], input: [UInt8]) throws -> Outcome {
    guard let path else { throw CocoaError(.fileNoSuchFile) }
    let scratch = try ScratchFolder("plutil-input")
    defer { scratch.remove() }
    let inputURL = scratch.url.appendingPathComponent("input")
    try Data(input).write(to: inputURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardInput = try FileHandle(forReadingFrom: inputURL)
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, output: [UInt8](outputData),
      errorOutput: String(decoding: errorData, as: UTF8.self))
  }
}
