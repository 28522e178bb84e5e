// The parent side of the benchmarks' peak-memory measurement: each system is measured in a fresh
// child process (this same executable, with arguments the benchmark defines), which prints one
// line of `key=value` integers (`before`, `loaded`, `peak`, `reset`).
import Foundation

/// This executable (`/proc/self/exe`), for starting it again as a child or worker.
public func currentExecutableURL() throws -> URL {
  URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
}

/// What a memory child reported, or why it could not.
public enum MemoryChildOutcome: Sendable {
  /// The child exited 0; its `key=value` integers.
  case report([String: Int])
  /// The child failed: its exit status and what it wrote to standard error (trimmed).
  case failed(status: Int32, message: String)
}

/// Runs this executable again (or `executable`, a peer program that reports the same way) with
/// `arguments` and reads its one-line report.
public func spawnMemoryChild(executable: URL? = nil, arguments: [String]) throws -> MemoryChildOutcome {
  let process = Process()
  process.executableURL = try executable ?? currentExecutableURL()
  process.arguments = arguments
  let output = Pipe()
  // Standard error goes to a file, so that a child writing much there cannot block on a full pipe
  // while this process waits for its standard output.
  let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("memory-child-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).err").path
  guard FileManager.default.createFile(atPath: errorPath, contents: nil), let errors = FileHandle(forWritingAtPath: errorPath) else {
    return .failed(status: -1, message: "cannot create \(errorPath) for the child's standard error")
  }
  defer { try? FileManager.default.removeItem(atPath: errorPath) }
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  try? errors.close()
  let errorText = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
  guard process.terminationStatus == 0 else {
    return .failed(status: process.terminationStatus, message: errorText.trimmingCharacters(in: .whitespacesAndNewlines))
  }
  var fields: [String: Int] = [:]
  for pair in text.split(whereSeparator: \.isWhitespace) {
    let parts = pair.split(separator: "=")
    if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
  }
  return .report(fields)
}
