public import Foundation
public import Testing

/// What a tool process did: its exit status and what it wrote.
public struct ToolOutcome: Sendable {
  public var status: Int32
  /// Standard output when it was captured (empty when it went to a path).
  public var stdout: [UInt8]
  public var stderr: String
  public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs a built tool as a script would: standard output captured or sent to a given path
/// (`/dev/full`, a FIFO), optionally as the unprivileged user `nobody` through `setpriv`, so that
/// tests see exit statuses and the nodes a tool must not replace.
public enum ToolProcess {
  /// Where the tool's standard output goes.
  public enum Output: Sendable {
    /// A file the test reads back.
    case captured
    /// This path, opened for writing by the test (`/dev/full`).
    case path(String)
  }

  /// Whether tests can run a tool as `nobody` (root and `setpriv` are needed).
  public static var canRunAsNobody: Bool {
    geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
  }

  public static let nobodyMissingReason: Comment = "needs root and /usr/bin/setpriv to run the tool as nobody"

  /// Runs `executable` with `arguments` in `folder`.
  public static func run(
    _ executable: String, _ arguments: [String], in folder: String? = nil, environment: [String: String] = [:],
    stdout: Output = .captured, asNobody: Bool = false
  ) throws -> ToolOutcome {
    let scratch = try ScratchFolder("tool-process")
    defer { scratch.remove() }
    let outPath = scratch.file("out"), errPath = scratch.file("err")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let process = Process()
    if asNobody {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", executable] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    switch stdout {
    case .captured: process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    case .path(let path):
      guard let handle = FileHandle(forWritingAtPath: path) else { throw TestFailure("cannot open \(path) for writing") }
      process.standardOutput = handle
    }
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    try process.run()
    process.waitUntilExit()
    return ToolOutcome(
      status: process.terminationStatus, stdout: Array(try Data(contentsOf: URL(fileURLWithPath: outPath))),
      stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self))
  }
}

/// Reads a FIFO to its end on a thread of its own, with a blocking `open(2)` (as `cat fifo`
/// does), so that a writer finds a reader waiting.
public final class FIFOReader: @unchecked Sendable {
  private var bytes: Data?
  private let done = DispatchSemaphore(value: 0)

  public init(path: String) {
    Thread {
      defer { self.done.signal() }
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return }
      defer { close(descriptor) }
      var result = Data()
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        result.append(contentsOf: buffer[..<count])
      }
      self.bytes = result
    }.start()
  }

  /// What was read, or nil when nothing arrived within 20 seconds.
  public func wait() -> Data? { done.wait(timeout: .now() + 20) == .success ? bytes : nil }
}
