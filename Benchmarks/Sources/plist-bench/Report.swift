import BenchSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One table: an operation on one format.
struct Benchmark: Hashable {
  var operation: Operation
  var format: DocumentFormat

  var name: String { "\(operation.rawValue)-\(format.rawValue)" }
  var title: String { "\(operation == .decode ? "Decode" : "Encode"), \(format.title)" }

  static let all: [Benchmark] = [
    Benchmark(operation: .decode, format: .binary), Benchmark(operation: .decode, format: .xml),
    Benchmark(operation: .encode, format: .binary), Benchmark(operation: .encode, format: .xml),
  ]
}

enum Outcome {
  case measured(Timing, bytes: Int)
  case unavailable(String)
  case failed(String)

  /// Document megabytes (10⁶ bytes) per second.
  var megabytesPerSecond: Double? {
    if case .measured(let measurement, let bytes) = self { return Double(bytes) / 1e6 / measurement.median }
    return nil
  }
}

struct CellKey: Hashable {
  var benchmark: Benchmark
  var dataset: String
  var system: SystemID
}

struct Results {
  var datasets: [String] = []
  var sizes: [String: Int] = [:]  // "plist-small.bplist" → bytes
  var outcomes: [CellKey: Outcome] = [:]
  var memory: [SystemID: Result<MemoryResult, any Error>] = [:]
  var memoryDocument: Document?
  var failures: [String] = []
  var loadAtStart = ""
}

func formatRate(_ value: Double?) -> String {
  guard let value else { return "n/a" }
  return value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
}

func formatRatio(_ numerator: Double?, _ denominator: Double?) -> String {
  guard let numerator, let denominator, denominator > 0 else { return "n/a" }
  return String(format: numerator / denominator >= 10 ? "%.0f×" : "%.2f×", numerator / denominator)
}

func formatSize(_ bytes: Int) -> String {
  if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1e6) }
  return String(format: "%.0f KB", Double(bytes) / 1e3)
}

func cellText(_ outcome: Outcome?) -> String {
  switch outcome {
  case .measured?: formatRate(outcome?.megabytesPerSecond)
  case .unavailable?, nil: "n/a"
  case .failed?: "FAIL"
  }
}

func machineHeader(loadAtStart: String) -> [String] {
  let machine = MachineDescription()
  let date = ISO8601DateFormatter().string(from: Date())
  return [
    "- date: \(date)",
    "- machine: `uname -m` \(machine.architecture) (Linux \(machine.kernelRelease)), nproc \(machine.processors), CPU \(machine.cpuModel)",
    "- load average at start: \(loadAtStart), at end: \(loadAverage()) (2 cores shared with other engineers)",
  ]
}

func render(_ results: Results, benchmarks: [Benchmark], systems: [SystemID], options: Options) -> String {
  var lines: [String] = ["# Property-list benchmark", ""]
  lines += machineHeader(loadAtStart: results.loadAtStart)
  if let source = options.source { lines.append("- Stasis built from: \(source), `swift build -c release`") }
  lines += [
    "- clock: \(options.clock == .cpu ? "process CPU time (user + system; the machine is shared, so wall time would mostly measure waiting for a core; every system measured is single-threaded)" : "wall clock (monotonic)")",
    "- method: MB/s = document bytes (10⁶) / median time of one iteration; each cell warms up for "
      + "\(options.warmUp) s, then runs ≥ \(options.minimumTime) s and ≥ 3 iterations in all, spread over "
      + "\(options.rounds) rounds, each of which runs a slice of every cell of every system and document size "
      + "in turn (the median is taken over all iterations of all rounds, so the host's load, which comes and "
      + "goes over seconds, falls on every system and size alike instead of on one cell). Each system's decoders "
      + "and its encoders run in worker processes of their own (one at a time), so that no cell is timed on a "
      + "heap shaped by another system's trees, and decoders not beside their own system's encode trees. "
      + "A decode iteration "
      + "reads the whole document into the system's own tree and frees it; an encode iteration writes the "
      + "system's own tree (decoded beforehand, untimed) and frees the output. Encode MB/s use the input "
      + "document's size. Every iteration's item count is checked against manifest.tsv, and every system's "
      + "result is fingerprinted once (ids, tags, notes, thumbnails, names); encoders' output is read back by "
      + "Foundation and fingerprinted.",
    "- Stasis: `PropertyListValue(decoding:)` / `value.encoded(as:)`; Stasis Codable and Foundation Codable: "
      + "`PropertyListDecoder`/`PropertyListEncoder` with the item-store structs; Foundation PLS: "
      + "`PropertyListSerialization`; libplist: `plist_from_bin`/`plist_from_xml`/`plist_to_bin`/`plist_to_xml` "
      + "(Debian libplist-dev \(libplistVersion())); Rust plist and Rust plist serde: the `plist` crate "
      + "\(rustPlistVersion(options.rustPeer)) (Debian librust-plist-dev), `Value::from_reader`/`to_writer_binary`/"
      + "`to_writer_xml` and `plist::from_reader`/`to_writer_*` with the same item-store structs, in Benchmarks/RustPeer, "
      + "a worker process of its own that times the codec in-process on the same clock (release, LTO). "
      + "\"best peer\" is the fastest system other than Stasis's two in that row.",
    "",
  ]

  for benchmark in benchmarks {
    lines += ["## \(benchmark.title)", ""]
    var header = "| document | size |"
    var rule = "|---|---:|"
    for system in systems {
      header += " \(system.title) MB/s |"
      rule += "---:|"
    }
    let ratios = ratioColumns(systems)
    for ratio in ratios {
      header += " \(ratio.0.title) / \(ratio.1.title) |"
      rule += "---:|"
    }
    let bestPeerColumn = systems.contains(.stasis) && systems.contains(where: \.isPeer)
    if bestPeerColumn {
      header += " Stasis / best peer |"
      rule += "---:|"
    }
    lines += [header, rule]
    for dataset in results.datasets {
      let label = "\(dataset).\(benchmark.format.fileExtension)"
      var row = "| \(label) | \(results.sizes[label].map(formatSize) ?? "?") |"
      for system in systems {
        row += " \(cellText(results.outcomes[CellKey(benchmark: benchmark, dataset: dataset, system: system)])) |"
      }
      for (left, right) in ratios {
        let l = results.outcomes[CellKey(benchmark: benchmark, dataset: dataset, system: left)]?.megabytesPerSecond
        let r = results.outcomes[CellKey(benchmark: benchmark, dataset: dataset, system: right)]?.megabytesPerSecond
        row += " \(formatRatio(l, r)) |"
      }
      if bestPeerColumn {
        let best = bestPeer(results, benchmark, dataset, systems)
        let stasis = results.outcomes[CellKey(benchmark: benchmark, dataset: dataset, system: .stasis)]?.megabytesPerSecond
        row += " \(formatRatio(stasis, best?.rate))\(best.map { " (\($0.system.title))" } ?? "") |"
      }
      lines.append(row)
    }
    lines.append("")
  }

  lines += renderFlatness(results, benchmarks: benchmarks, systems: systems)
  lines += renderMemory(results)
  lines += renderBar(results, benchmarks: benchmarks)
  if !results.failures.isEmpty {
    lines += ["## Failures", ""]
    lines += results.failures.map { "- \($0)" }
    lines.append("")
  }
  return lines.joined(separator: "\n")
}

func ratioColumns(_ systems: [SystemID]) -> [(SystemID, SystemID)] {
  let wanted: [(SystemID, SystemID)] = [
    (.stasis, .foundationPLS), (.stasis, .libplist), (.stasisCodable, .foundationCodable),
  ]
  return wanted.filter { systems.contains($0.0) && systems.contains($0.1) }
}

/// The fastest peer (any system but Stasis's two) measured on one row.
func bestPeer(_ results: Results, _ benchmark: Benchmark, _ dataset: String, _ systems: [SystemID]) -> (system: SystemID, rate: Double)? {
  var best: (system: SystemID, rate: Double)?
  for system in systems where system.isPeer {
    guard let rate = results.outcomes[CellKey(benchmark: benchmark, dataset: dataset, system: system)]?.megabytesPerSecond
    else { continue }
    if rate > (best?.rate ?? 0) { best = (system, rate) }
  }
  return best
}

/// Slowest-to-fastest spread of each system's MB/s across the documents of one table.
func spread(_ results: Results, _ benchmark: Benchmark, _ system: SystemID) -> Double? {
  let rates = results.datasets.compactMap {
    results.outcomes[CellKey(benchmark: benchmark, dataset: $0, system: system)]?.megabytesPerSecond
  }
  guard rates.count == results.datasets.count, rates.count >= 2, let low = rates.min(), let high = rates.max()
  else { return nil }
  return high / low
}

func renderFlatness(_ results: Results, benchmarks: [Benchmark], systems: [SystemID]) -> [String] {
  guard results.datasets.count >= 2 else { return [] }
  var lines = [
    "## Flatness (fastest ÷ slowest MB/s over the \(results.datasets.count) sizes)", "",
    "| table |" + systems.map { " \($0.title) |" }.joined(),
    "|---|" + String(repeating: "---:|", count: systems.count),
  ]
  for benchmark in benchmarks {
    lines.append(
      "| \(benchmark.title) |"
        + systems.map { system in
          " \(spread(results, benchmark, system).map { String(format: "%.2f×", $0) } ?? "n/a") |"
        }.joined())
  }
  lines.append("")
  return lines
}

func renderMemory(_ results: Results) -> [String] {
  guard let document = results.memoryDocument, !results.memory.isEmpty else { return [] }
  let size = document.bytes.count
  var lines = [
    "## Peak memory decoding \(document.label) (\(formatSize(size)))", "",
    "Measured in a fresh child process per system, after it read and decoded plist-small.bplist once (so "
      + "that code pages and one-time setup are resident): VmHWM after reading the file and decoding it (result "
      + "alive) minus VmRSS before reading it; the peak is reset first through /proc/self/clear_refs. "
      + "\"× doc\" counts the document's own bytes too; \"decode only\" starts after the file was read.",
    "",
    "| system | peak extra | × doc | decode only × doc |",
    "|---|---:|---:|---:|",
  ]
  for system in SystemID.allCases {
    guard let result = results.memory[system] else { continue }
    switch result {
    case .success(let memory):
      lines.append(
        "| \(system.title) | \(formatSize(memory.peakExtra)) | "
          + String(format: "%.2f× | %.2f× |", Double(memory.peakExtra) / Double(size), Double(memory.decodeExtra) / Double(size))
          + (memory.peakWasReset ? "" : " (peak not reset)"))
    case .failure(let error as Unavailable):
      lines.append("| \(system.title) | n/a (\(error)) | | |")
    case .failure(let error):
      lines.append("| \(system.title) | FAIL: \(error) | | |")
    }
  }
  lines.append("")
  return lines
}

/// The project's bar, judged from this run.
func renderBar(_ results: Results, benchmarks: [Benchmark]) -> [String] {
  var lines = ["## The bar", ""]
  func verdict(_ ok: Bool?) -> String { ok == nil ? "NOT MEASURED" : ok! ? "PASS" : "FAIL" }

  var behindLibplist: [String] = []
  var belowTenTimes: [String] = []
  var measuredAgainstLibplist = false
  var measuredAgainstPLS = false
  var missingStasis: [String] = []
  for benchmark in benchmarks {
    for dataset in results.datasets {
      let label = "\(benchmark.title) \(dataset)"
      func rate(_ system: SystemID) -> Double? {
        results.outcomes[CellKey(benchmark: benchmark, dataset: dataset, system: system)]?.megabytesPerSecond
      }
      guard let stasis = rate(.stasis) else {
        missingStasis.append(label)
        continue
      }
      if let libplist = rate(.libplist) {
        measuredAgainstLibplist = true
        if stasis <= libplist { behindLibplist.append("\(label) (\(String(format: "%.2f×", stasis / libplist)))") }
      }
      if let pls = rate(.foundationPLS) {
        measuredAgainstPLS = true
        if stasis < 10 * pls { belowTenTimes.append("\(label) (\(String(format: "%.1f×", stasis / pls)))") }
      }
    }
  }
  let missingNote = missingStasis.isEmpty ? "" : " Stasis not measured: \(missingStasis.joined(separator: ", "))."
  lines.append(
    "- Stasis ahead of libplist on every row: \(verdict(measuredAgainstLibplist ? behindLibplist.isEmpty : nil))"
      + (behindLibplist.isEmpty ? "" : " — behind on \(behindLibplist.joined(separator: ", "))") + "." + missingNote)
  lines.append(
    "- Stasis ≥ 10× Foundation PropertyListSerialization: \(verdict(measuredAgainstPLS ? belowTenTimes.isEmpty : nil))"
      + (belowTenTimes.isEmpty ? "" : " — below on \(belowTenTimes.joined(separator: ", "))") + ".")

  var unflat: [String] = []
  var flatMeasured = false
  for benchmark in benchmarks {
    if let value = spread(results, benchmark, .stasis) {
      flatMeasured = true
      if value > 1.5 { unflat.append("\(benchmark.title) (\(String(format: "%.2f×", value)))") }
    }
  }
  lines.append(
    "- Stasis MB/s flat within 1.5× from 100 KB to 20 MB: \(verdict(flatMeasured ? unflat.isEmpty : nil))"
      + (unflat.isEmpty ? "" : " — spread on \(unflat.joined(separator: ", "))") + ".")

  if let document = results.memoryDocument, case .success(let memory)? = results.memory[.stasis] {
    let multiple = Double(memory.peakExtra) / Double(document.bytes.count)
    lines.append(
      "- Peak memory decoding \(document.label) ≤ 3× its size: \(verdict(multiple <= 3)) (\(String(format: "%.2f×", multiple)) including the document's bytes).")
  } else {
    lines.append("- Peak memory decoding the large binary document ≤ 3× its size: NOT MEASURED.")
  }
  lines.append("")
  return lines
}

func libplistVersion() -> String {
  var name = utsname()
  uname(&name)
  let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  let file = "/usr/lib/\(machine == "arm64" ? "aarch64" : machine)-linux-gnu/pkgconfig/libplist-2.0.pc"
  let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
  return text.split(separator: "\n").first { $0.hasPrefix("Version:") }.map {
    $0.dropFirst("Version:".count).trimmingCharacters(in: .whitespaces)
  } ?? "version unknown"
}
