// plist-bench: decode and encode, binary and XML, of the item-store documents, for Stasis,
// Foundation (PropertyListSerialization and Codable) and libplist, plus peak memory while decoding
// the large binary document. Prints Markdown to stdout and progress to stderr.
// The options: `usage` below (printed by --help).

import BenchSupport
import Foundation
import PropertyLists

#if canImport(Glibc)
  import Glibc
#endif

struct Options {
  var dataDirectory = FileManager.default.fileExists(atPath: "data/manifest.tsv") ? "data" : "Benchmarks/data"
  var minimumTime = 1.0
  var warmUp = 0.2
  var datasets = ["plist-small", "plist-medium", "plist-large"]
  var systems = SystemID.allCases
  var benchmarks = Benchmark.all
  var memory = true
  var loop: (SystemID, Benchmark, String)?
  /// Set in worker processes (see Workers.swift).
  var worker: SystemID?
  /// Foundation's fingerprint of each dataset, taken by the parent and handed to the workers.
  var references: [String: Fingerprint] = [:]
  var iterations = 20
  var clock = BenchClock.cpu
  var rounds = 10
  /// Loop mode: where to write the encoder's output once.
  var output: String?
  /// Which library source was built, for the header (run.sh passes it).
  var source: String?
  /// The Rust peer's executable (Benchmarks/RustPeer, RustPeer.swift); its systems are n/a without it.
  var rustPeer: URL? = defaultRustPeer()
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("plist-bench: \(message)\n".utf8))
  exit(2)
}

func progress(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// What --help prints.
let usage = """
  plist-bench [--data DIR] [--min-time S] [--warm-up S] [--datasets small,medium,large]
              [--systems stasis,stasis-codable,foundation-pls,foundation-codable,libplist,rust-plist,rust-serde]
              [--rust-peer PATH]   (Benchmarks/RustPeer's binary; run.sh builds it and passes it)
              [--benchmarks decode-binary,decode-xml,encode-binary,encode-xml] [--no-memory]
              [--clock cpu|wall] [--rounds N]
  plist-bench --loop SYSTEM BENCHMARK DATASET [--iterations N] [--data DIR]   (for profilers)
              [--output PATH]   (an encoder's output, written once before the loop: for comparing
                                 the bytes two builds write)
  plist-bench --memory-child SYSTEM PATH ITEMS WARM-UP-PATH                     (internal)
  plist-bench --worker SYSTEM [options]                                         (internal)
  """

/// Reads command-line arguments one at a time.
struct ArgumentReader {
  var rest: ArraySlice<String>

  mutating func next() -> String? { rest.popFirst() }

  mutating func value(_ flag: String) -> String {
    guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
    return next
  }

  mutating func number<Number: LosslessStringConvertible>(_ flag: String) -> Number {
    let text = value(flag)
    guard let number = Number(text) else { fail("\(flag) takes a number, not \(text)") }
    return number
  }
}

func parseSystem(_ name: String) -> SystemID {
  guard let system = SystemID(rawValue: name) else {
    fail("unknown system \(name); known: \(SystemID.allCases.map(\.rawValue).joined(separator: ", "))")
  }
  return system
}

func parseBenchmark(_ name: String) -> Benchmark {
  guard let benchmark = Benchmark.all.first(where: { $0.name == name }) else {
    fail("unknown benchmark \(name); known: \(Benchmark.all.map(\.name).joined(separator: ", "))")
  }
  return benchmark
}

func parseDataset(_ name: String) -> String { name.hasPrefix("plist-") ? name : "plist-" + name }

func parseList(_ text: String) -> [String] { text.split(separator: ",").map(String.init) }

func parseOptions(_ arguments: [String]) -> Options {
  var options = Options()
  var reader = ArgumentReader(rest: arguments[...])
  while let flag = reader.next() {
    switch flag {
    case "--data": options.dataDirectory = reader.value(flag)
    case "--min-time": options.minimumTime = reader.number(flag)
    case "--warm-up": options.warmUp = reader.number(flag)
    case "--datasets": options.datasets = parseList(reader.value(flag)).map(parseDataset)
    case "--systems": options.systems = parseList(reader.value(flag)).map(parseSystem)
    case "--benchmarks": options.benchmarks = parseList(reader.value(flag)).map(parseBenchmark)
    case "--no-memory": options.memory = false
    case "--source": options.source = reader.value(flag)
    case "--output": options.output = reader.value(flag)
    case "--rust-peer": options.rustPeer = URL(fileURLWithPath: reader.value(flag))
    case "--iterations": options.iterations = reader.number(flag)
    case "--rounds": options.rounds = Swift.max(1, reader.number(flag))
    case "--clock":
      let name = reader.value(flag)
      guard let clock = BenchClock(rawValue: name) else { fail("--clock takes cpu or wall, not \(name)") }
      options.clock = clock
    case "--worker": options.worker = parseSystem(reader.value(flag))
    case "--references":
      let text = reader.value(flag)
      guard let references = try? JSONDecoder().decode([String: Fingerprint].self, from: Data(text.utf8)) else {
        fail("--references takes the JSON the parent writes, not \(text)")
      }
      options.references = references
    case "--loop":
      let system = parseSystem(reader.value(flag))
      let benchmark = parseBenchmark(reader.value(flag))
      options.loop = (system, benchmark, parseDataset(reader.value(flag)))
    case "--help", "-h":
      print(usage)
      exit(0)
    default: fail("unknown argument \(flag)")
    }
  }
  return options
}

/// manifest.tsv: dataset → (items, categories).
func readManifest(_ directory: String) -> [String: (items: Int, categories: Int)] {
  let path = directory + "/manifest.tsv"
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
    fail("cannot read \(path); generate the data with python3 Tests/Fixtures/bench/gen_data.py --out \(directory)")
  }
  var manifest: [String: (items: Int, categories: Int)] = [:]
  for line in text.split(separator: "\n").dropFirst() {
    let fields = line.split(separator: "\t")
    guard fields.count >= 3, let items = Int(fields[1]), let categories = Int(fields[2]) else { continue }
    manifest[String(fields[0])] = (items, categories)
  }
  return manifest
}

func loadDocument(_ dataset: String, _ format: DocumentFormat, _ options: Options, _ manifest: [String: (items: Int, categories: Int)]) -> Document {
  guard let expected = manifest[dataset] else { fail("\(dataset) is not in manifest.tsv") }
  let path = "\(options.dataDirectory)/\(dataset).\(format.fileExtension)"
  guard let bytes = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
  return Document(
    dataset: dataset, format: format, path: path, bytes: bytes, expectedItems: expected.items,
    expectedCategories: expected.categories)
}

/// The reference fingerprint of a dataset: Foundation's PropertyListSerialization reading the
/// binary document, checked against the manifest's counts.
func referenceFingerprint(_ document: Document) -> Fingerprint {
  do {
    let reference = try Fingerprint(foundation: try foundationDecode(document.bytes))
    guard reference.items == document.expectedItems, reference.categories == document.expectedCategories else {
      fail("Foundation reads \(reference.items) items in \(document.label), the manifest says \(document.expectedItems)")
    }
    return reference
  } catch {
    fail("Foundation cannot read \(document.label): \(error)")
  }
}

// MARK: - Entry

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--memory-child" {
  guard arguments.count == 5, let system = SystemID(rawValue: arguments[1]), let items = Int(arguments[3]) else {
    fail("usage: --memory-child SYSTEM PATH ITEMS WARM-UP-PATH")
  }
  do {
    try runMemoryChild(system: system, path: arguments[2], expectedItems: items, warmUpPath: arguments[4])
  } catch {
    fail("\(error)")
  }
}

let options = parseOptions(arguments)
let manifest = readManifest(options.dataDirectory)

if let (system, benchmark, dataset) = options.loop {
  // Profiling mode: one cell, a fixed number of iterations, no warm-up table.
  let document = loadDocument(dataset, benchmark.format, options, manifest)
  let source = loadDocument(dataset, .binary, options, manifest)
  // The reference comes from Stasis here when it can (Foundation takes seconds on the large
  // documents and would dominate a profile); the full run takes it from Foundation.
  let reference = (try? Fingerprint(try stasisDecode(source.bytes, .binary))) ?? referenceFingerprint(source)
  verifyEncoders = false
  do {
    let cell = try makeCell(system, benchmark.operation, document, source: source, reference: reference)
    if let output = options.output {
      guard benchmark.operation == .encode else { fail("--output is for encoders") }
      try encodedOutput(system, document: document, source: source)
        .write(to: URL(fileURLWithPath: output))
    }
    let start = wallNow()
    let cpuStart = BenchClock.cpu.now()
    for _ in 0..<options.iterations {
      let result = try cell.run()
      if let expected = cell.expected, result != expected { fail("iteration returned \(result), expected \(expected)") }
    }
    let perIteration = (wallNow() - start) / Double(options.iterations)
    let cpuPerIteration = (BenchClock.cpu.now() - cpuStart) / Double(options.iterations)
    progress(
      "\(system.title) \(benchmark.title) \(document.label): \(options.iterations) iterations, "
        + String(
          format: "CPU %.3f ms each (%.1f MB/s), wall %.3f ms each (%.1f MB/s)", cpuPerIteration * 1e3,
          Double(document.bytes.count) / 1e6 / cpuPerIteration, perIteration * 1e3,
          Double(document.bytes.count) / 1e6 / perIteration))
  } catch {
    fail("\(error)")
  }
  exit(0)
}

if let system = options.worker { runWorker(system: system, options: options, manifest: manifest) }

var results = Results()
results.loadAtStart = loadAverage()
results.datasets = options.datasets
// Worker processes per system prepare (and check) that system's cells; then every cell of
// every system and size is timed in rounds, a slice of each in turn, so that the host's load,
// which comes and goes over seconds, falls on every system and every document size alike (the
// ratios and the flatness compare cells). See Workers.swift.
// Decoders and encoders of a system run in separate workers, so that a decoder is timed in a
// process holding only the documents, not the trees its system's encoders write.
// Foundation's reading of each dataset, the reference every system's result is checked against.
var workerOptions = options
for dataset in options.datasets {
  workerOptions.references[dataset] = referenceFingerprint(loadDocument(dataset, .binary, options, manifest))
}
// A worker that dies must fail its cells, not take the parent down with a broken pipe.
signal(SIGPIPE, SIG_IGN)
var workers: [Worker] = []
for system in options.systems {
  for operation in [Operation.decode, .encode] {
    var operationOptions = workerOptions
    operationOptions.benchmarks = options.benchmarks.filter { $0.operation == operation }
    guard !operationOptions.benchmarks.isEmpty else { continue }
    progress("preparing \(system.title), \(operation.rawValue)")
    do {
      workers.append(try Worker(system: system, options: operationOptions, results: &results))
    } catch let error as Unavailable {
      progress("\(system.title), \(operation.rawValue): n/a (\(error))")
    } catch {
      results.failures.append("\(system.title), \(operation.rawValue): \(error)")
      progress("\(system.title), \(operation.rawValue): FAILED: \(error)")
    }
  }
}
// Cells in the order of the report: size, then benchmark, then system.
var schedule: [(worker: Worker, key: CellKey, index: Int, label: String, bytes: Int)] = []
for dataset in options.datasets {
  for benchmark in options.benchmarks {
    for worker in workers {
      for cell in worker.cells where cell.key.dataset == dataset && cell.key.benchmark == benchmark {
        schedule.append((worker, cell.key, cell.index, cell.label, cell.bytes))
      }
    }
  }
}
var samples = [Samples](repeating: Samples(), count: schedule.count)
var failed = Set<Int>()
for round in 0..<options.rounds {
  progress("round \(round + 1) of \(options.rounds)")
  for (position, entry) in schedule.enumerated() where !failed.contains(position) {
    do {
      try entry.worker.run(entry.index, round: round, into: &samples[position])
    } catch {
      failed.insert(position)
      results.outcomes[entry.key] = .failed("\(error)")
      results.failures.append("\(entry.key.benchmark.title), \(entry.label), \(entry.key.system.title): \(error)")
      progress("\(entry.key.benchmark.title) \(entry.label) \(entry.key.system.title): FAILED: \(error)")
    }
  }
}
for worker in workers { worker.waitForExit() }
workers.removeAll()
for (position, entry) in schedule.enumerated() where !failed.contains(position) {
  let measurement = samples[position].timing
  results.outcomes[entry.key] = .measured(measurement, bytes: entry.bytes)
  progress(
    "\(entry.key.benchmark.title) \(entry.label) \(entry.key.system.title): "
      + "\(formatRate(results.outcomes[entry.key]?.megabytesPerSecond)) MB/s "
      + String(
        format: "(\(options.clock.rawValue) median %.3f ms over %d iterations, fastest %.3f, slowest %.3f; wall median %.3f)",
        measurement.median * 1e3, measurement.iterations, measurement.fastest * 1e3,
        measurement.slowest * 1e3, measurement.wallMedian * 1e3))
}
schedule.removeAll()

if options.memory {
  let dataset = options.datasets.contains("plist-large") ? "plist-large" : options.datasets.last!
  let document = loadDocument(dataset, .binary, options, manifest)
  results.memoryDocument = document
  // The children warm up on the smallest document (when it is not the measured one).
  let smallest = "\(options.dataDirectory)/plist-small.bplist"
  let warmUpPath = dataset != "plist-small" && FileManager.default.fileExists(atPath: smallest) ? smallest : ""
  for system in options.systems {
    do {
      let memory = try measureMemory(
        system: system, document: document, warmUpPath: warmUpPath, rustPeer: options.rustPeer)
      results.memory[system] = .success(memory)
      progress(
        "memory \(document.label) \(system.title): peak extra \(formatSize(memory.peakExtra)) "
          + String(format: "(%.2f× the document)", Double(memory.peakExtra) / Double(document.bytes.count)))
    } catch {
      results.memory[system] = .failure(error)
      if !(error is Unavailable) { results.failures.append("memory, \(document.label), \(system.title): \(error)") }
      progress("memory \(document.label) \(system.title): \(error)")
    }
  }
}

print(render(results, benchmarks: options.benchmarks, systems: options.systems, options: options))
resultsFile(results, benchmarks: options.benchmarks, systems: options.systems, options: options)
  .writeIfRequested(source: options.source ?? "the library on disk")
exit(results.failures.isEmpty ? 0 : 1)
