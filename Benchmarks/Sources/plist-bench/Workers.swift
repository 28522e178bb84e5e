// Worker processes: each system's decoders, and separately its encoders, are prepared and timed in
// a process of their own, so that no cell runs on a heap shaped by trees it does not use (a
// Foundation tree of a few hundred MB kept alive for Foundation's encoders made Stasis's 20 MB
// decode about 30% slower in the same process). The parent still interleaves the cells of all systems and sizes, one slice at a time,
// so that the host's load falls on all of them alike; only one worker runs at any moment.
//
// Protocol, one tab-separated line per message:
//   worker → parent, after preparing:  cell INDEX BENCHMARK DATASET LABEL BYTES
//                                      unavailable|failed BENCHMARK DATASET LABEL BYTES MESSAGE
//                                      ready
//   parent → worker:                   run INDEX ROUND
//   worker → parent:                   sample INDEX SECONDS WALL-SECONDS   (one per iteration)
//                                      error INDEX MESSAGE
//                                      done

import BenchSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Tabs and line breaks would break the protocol's lines.
private func field(_ text: String) -> String {
  var scalars = String.UnicodeScalarView()
  for scalar in text.unicodeScalars { scalars.append(scalar == "\t" || scalar == "\n" || scalar == "\r" ? " " : scalar) }
  return String(scalars)
}

private func send(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Reads lines from a file descriptor, blocking.
final class LineReader {
  private let descriptor: Int32
  private var buffer: [UInt8] = []

  init(descriptor: Int32) { self.descriptor = descriptor }

  func next() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer += chunk[..<count]
    }
  }
}

// MARK: - Worker side

/// `plist-bench --worker SYSTEM …`: prepares the system's cells and times them on request.
func runWorker(system: SystemID, options: Options, manifest: [String: (items: Int, categories: Int)]) -> Never {
  var cells: [Cell] = []
  for dataset in options.datasets {
    let source = loadDocument(dataset, .binary, options, manifest)
    // Foundation's reading of the dataset, taken once by the parent (a worker never builds another
    // system's tree before it is timed).
    guard let reference = options.references[dataset] else { fail("worker: no reference fingerprint for \(dataset)") }
    for format in DocumentFormat.allCases where options.benchmarks.contains(where: { $0.format == format }) {
      let document = format == .binary ? source : loadDocument(dataset, format, options, manifest)
      for benchmark in options.benchmarks where benchmark.format == format {
        let description = "\(benchmark.name)\t\(dataset)\t\(document.label)\t\(document.bytes.count)"
        do {
          cells.append(try makeCell(system, benchmark.operation, document, source: source, reference: reference))
          send("cell\t\(cells.count - 1)\t\(description)")
        } catch let error as Unavailable {
          send("unavailable\t\(description)\t\(field(error.description))")
        } catch {
          send("failed\t\(description)\t\(field("\(error)"))")
        }
      }
    }
  }
  send("ready")
  var samples = [Samples](repeating: Samples(), count: cells.count)
  let commands = LineReader(descriptor: STDIN_FILENO)
  while let line = commands.next() {
    let parts = line.split(separator: "\t").map(String.init)
    guard parts.count == 3, parts[0] == "run", let index = Int(parts[1]), cells.indices.contains(index),
      let round = Int(parts[2])
    else { fail("worker: unexpected command \(line.debugDescription)") }
    let before = samples[index].times.count
    do {
      // The first round warms up for --warm-up seconds; later ones run one untimed iteration
      // when an iteration is short (caches and the allocator then start from this cell's state).
      let shortCell = samples[index].times.isEmpty || samples[index].timing.median < 0.05
      try measureRound(
        cells[index], into: &samples[index], clock: options.clock,
        minimumTime: options.minimumTime / Double(options.rounds),
        warmUp: round == 0 ? options.warmUp : (shortCell ? 1e-9 : 0),
        minimumIterations: round == options.rounds - 1 ? Swift.max(1, 3 - samples[index].times.count) : 1)
    } catch {
      send("error\t\(index)\t\(field("\(error)"))")
    }
    var reply = ""
    for iteration in before..<samples[index].times.count {
      reply += "sample\t\(index)\t\(samples[index].times[iteration])\t\(samples[index].wallTimes[iteration])\n"
    }
    FileHandle.standardOutput.write(Data((reply + "done\n").utf8))
  }
  exit(0)
}

// MARK: - Parent side

/// A running worker and the cells it prepared.
final class Worker {
  let system: SystemID
  private let process = Process()
  private let commands = Pipe()
  private let replies: LineReader
  private let replyPipe = Pipe()
  /// The worker's cells: its index for each key.
  private(set) var cells: [(key: CellKey, index: Int, label: String, bytes: Int)] = []
  /// Set once the worker has ended or stopped answering; its remaining cells then fail at once.
  private var endedWith: String?

  /// Starts the worker for `system` and waits until it has prepared its cells, recording the
  /// cells it could not prepare in `results`.
  init(system: SystemID, options: Options, results: inout Results) throws {
    self.system = system
    process.arguments = [
      "--references", String(decoding: try JSONEncoder().encode(options.references), as: UTF8.self),
      "--worker", system.rawValue, "--data", options.dataDirectory,
      "--datasets", options.datasets.joined(separator: ","),
      "--benchmarks", options.benchmarks.map(\.name).joined(separator: ","),
      "--min-time", String(options.minimumTime), "--warm-up", String(options.warmUp),
      "--rounds", String(options.rounds), "--clock", options.clock.rawValue,
    ]
    // The Rust peer is a worker of its own (RustPeer.swift); it leaves its encoders' output in a
    // folder for this process to read back.
    var peerOutputs: URL? = nil
    if system.isExternal {
      let (executable, outputs) = try prepareRustPeer(options)
      process.executableURL = executable
      process.arguments! += ["--outputs", outputs.path]
      peerOutputs = outputs
    } else {
      process.executableURL = try currentExecutableURL()
    }
    defer { if let peerOutputs { try? FileManager.default.removeItem(at: peerOutputs) } }
    process.standardInput = commands
    process.standardOutput = replyPipe
    replies = LineReader(descriptor: replyPipe.fileHandleForReading.fileDescriptor)
    try process.run()
    while true {
      guard let line = replies.next() else {
        throw CheckFailure("the \(system.title) worker ended while preparing (status \(waitForExit()))")
      }
      if line == "ready" { break }
      let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard parts.count >= 5, let benchmark = Benchmark.all.first(where: { $0.name == parts[parts[0] == "cell" ? 2 : 1] })
      else { throw CheckFailure("the \(system.title) worker said \(line.debugDescription)") }
      switch parts[0] {
      case "cell":
        guard parts.count == 6, let index = Int(parts[1]), let bytes = Int(parts[5]) else {
          throw CheckFailure("the \(system.title) worker said \(line.debugDescription)")
        }
        let key = CellKey(benchmark: benchmark, dataset: parts[3], system: system)
        results.sizes[parts[4]] = bytes
        if let peerOutputs, benchmark.operation == .encode {
          do {
            try verifyPeerOutput(peerOutputs, cell: index, key: key, label: parts[4], options: options)
          } catch {
            results.outcomes[key] = .failed("\(error)")
            results.failures.append("\(benchmark.title), \(parts[4]), \(system.title): \(error)")
            progress("\(benchmark.title) \(parts[4]) \(system.title): FAILED: \(error)")
            continue
          }
        }
        cells.append((key, index, parts[4], bytes))
      case "unavailable", "failed":
        guard parts.count == 6, let bytes = Int(parts[4]) else {
          throw CheckFailure("the \(system.title) worker said \(line.debugDescription)")
        }
        let key = CellKey(benchmark: benchmark, dataset: parts[2], system: system)
        results.sizes[parts[3]] = bytes
        if parts[0] == "unavailable" {
          results.outcomes[key] = .unavailable(parts[5])
          progress("\(benchmark.title) \(parts[3]) \(system.title): n/a (\(parts[5]))")
        } else {
          results.outcomes[key] = .failed(parts[5])
          results.failures.append("\(benchmark.title), \(parts[3]), \(system.title): \(parts[5])")
          progress("\(benchmark.title) \(parts[3]) \(system.title): FAILED: \(parts[5])")
        }
      default:
        throw CheckFailure("the \(system.title) worker said \(line.debugDescription)")
      }
    }
  }

  /// Runs one round's slice of the worker's cell `index`, adding its iterations to `samples`.
  func run(_ index: Int, round: Int, into samples: inout Samples) throws {
    if let endedWith { throw CheckFailure(endedWith) }
    do {
      try commands.fileHandleForWriting.write(contentsOf: Data("run\t\(index)\t\(round)\n".utf8))
    } catch {
      endedWith = "the \(system.title) worker stopped taking commands (status \(waitForExit()))"
      throw CheckFailure(endedWith!)
    }
    while true {
      guard let line = replies.next() else {
        endedWith = "the \(system.title) worker ended (status \(waitForExit()))"
        throw CheckFailure(endedWith!)
      }
      if line == "done" { return }
      let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      if parts.count == 4, parts[0] == "sample", let time = Double(parts[2]), let wall = Double(parts[3]) {
        samples.times.append(time)
        samples.wallTimes.append(wall)
        samples.total += time
      } else if parts.count == 3, parts[0] == "error" {
        // Read up to "done" so that the next command starts clean, then report.
        while let rest = replies.next(), rest != "done" {}
        throw CheckFailure(parts[2])
      } else {
        throw CheckFailure("the \(system.title) worker said \(line.debugDescription)")
      }
    }
  }

  /// Closes the worker's input (it then exits) and waits for it.
  @discardableResult
  func waitForExit() -> Int32 {
    try? commands.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }
}
