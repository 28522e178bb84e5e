// The keyed-archive peer that is not Foundation: GNUstep Base's NSKeyedArchiver and
// NSKeyedUnarchiver on the same graph, as a separate Objective-C program
// (Benchmarks/GNUstepPeer/main.m, built by Benchmarks/GNUstepPeer/build.sh). The program times its
// own cells with this harness's method (CPU clock, warm-up, ≥ 3 iterations and ≥ MIN-TIME s, every
// result checked after the clock stops) and prints one tab-separated line per cell.
import BenchSupport
import Foundation
import PropertyLists

/// One size's GNUstep cells: timings by "operation format", and why a cell was not timed.
struct GNUstepCells {
  var timings: [String: Timing] = [:]
  var unavailable: [String: String] = [:]
  /// Archive sizes GNUstep wrote (XML) or read (binary: its XML archive converted), by format.
  var bytes: [ArchiveFormat: Int] = [:]
  /// The binary archive the unarchive cell read, kept for the memory measurement.
  var binaryArchive: URL?

  static func key(_ operation: Operation, _ format: ArchiveFormat) -> String { "\(operation.rawValue) \(format.rawValue)" }
}

struct GNUstepPeer {
  let executable: URL

  /// Runs the peer and returns its standard output; its standard error passes through as progress.
  private func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CheckFailure("GNUstep peer \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus): \(text)")
    }
    return text
  }

  /// GNUstep's binary writer is quadratic, so the binary unarchive cell reads the graph's XML
  /// archive written by GNUstep and converted to binary by Stasis's property-list codec (the same
  /// objects, keys and UIDs; only the container format changes).
  private func binaryArchive(count: Int, directory: URL) throws -> (url: URL, xmlBytes: Int, binaryBytes: Int) {
    let xml = directory.appendingPathComponent("gnustep-\(count).xml")
    _ = try run(["write", "xml", String(count), xml.path, "objc-names"])
    let xmlData = try Data(contentsOf: xml)
    let binary = try PropertyListValue(decoding: xmlData).encoded(as: .binary)
    let url = directory.appendingPathComponent("gnustep-\(count).bplist")
    try binary.write(to: url)
    try? FileManager.default.removeItem(at: xml)
    return (url, xmlData.count, binary.count)
  }

  func cells(count: Int, minimumTime: Double, warmUp: Double, directory: URL) throws -> GNUstepCells {
    var cells = GNUstepCells()
    let archive = try binaryArchive(count: count, directory: directory)
    cells.binaryArchive = archive.url
    cells.bytes[.binary] = archive.binaryBytes
    let output = try run(["bench", String(count), String(minimumTime), String(warmUp), archive.url.path])
    for line in output.split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 5, let operation = Operation(rawValue: fields[1]), let format = ArchiveFormat(rawValue: fields[2]),
        Int(fields[3]) == count
      else { throw CheckFailure("GNUstep peer printed an unexpected line: \(line)") }
      let key = GNUstepCells.key(operation, format)
      switch fields[0] {
      case "cell":
        guard fields.count == 8, let cpu = Double(fields[4]), let wall = Double(fields[5]), let iterations = Int(fields[6]),
          let bytes = Int(fields[7])
        else { throw CheckFailure("GNUstep peer printed a malformed cell: \(line)") }
        cells.timings[key] = Timing(median: cpu, wallMedian: wall, iterations: iterations)
        if format == .xml { cells.bytes[.xml] = bytes }
      case "unavailable": cells.unavailable[key] = fields[4]
      case "failed": throw CheckFailure("GNUstep \(key) N = \(count): \(fields[4])")
      default: throw CheckFailure("GNUstep peer printed an unexpected line: \(line)")
      }
    }
    return cells
  }

  /// Peak memory unarchiving `path` (binary), in the peer's own fresh process, which first
  /// unarchives `warmUpPath` — what `--memory-child` does for Stasis and Foundation.
  func memory(warmUpPath: URL, path: URL, count: Int) throws -> MemoryResult {
    try MemoryResult(
      try spawnMemoryChild(executable: executable, arguments: ["memory", warmUpPath.path, path.path, String(count)]), of: "GNUstep")
  }
}
