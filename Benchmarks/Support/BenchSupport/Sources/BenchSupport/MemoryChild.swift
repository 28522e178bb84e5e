// The parent side of the benchmarks' peak-memory measurement: each system is measured in a fresh
// child process (this same executable, with arguments the benchmark defines), which prints one
// line of `key=value` integers (`before`, `loaded`, `peak`, `reset`).
import Foundation

/// What a memory child reported, or why it could not.
public enum MemoryChildOutcome: Sendable {
  /// The child exited 0; its `key=value` integers.
  case report([String: Int])
  /// The child failed: its exit status and what it wrote to standard error (trimmed).
  case failed(status: Int32, message: String)
}

/// Runs this executable again with `arguments` and reads its one-line report.
public func spawnMemoryChild(arguments: [String]) throws -> MemoryChildOutcome {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
  process.arguments = arguments
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
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
