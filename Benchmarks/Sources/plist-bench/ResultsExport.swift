import BenchSupport

/// The run's figures for Benchmarks/results/plist-bench.json: every measured cell in MB/s (subject
/// `DOCUMENT, SIZE`, operation `decode binary`, `encode XML`, …) and each system's peak memory
/// decoding the memory document (MB, operation `peak memory, decode`).
func resultsFile(_ results: Results, benchmarks: [Benchmark], systems: [SystemID], options: Options) -> ResultsFile {
  var file = ResultsFile(harness: "plist-bench", loadAtStart: results.loadAtStart)
  let clock = options.clock == .cpu ? "cpu" : "wall"
  for benchmark in benchmarks {
    for dataset in results.datasets {
      let label = "\(dataset).\(benchmark.format.fileExtension)"
      let subject = "\(label), \(results.sizes[label].map(formatSize) ?? "?")"
      for system in systems {
        guard let rate = results.outcomes[CellKey(benchmark: benchmark, dataset: dataset, system: system)]?.megabytesPerSecond else { continue }
        file.add(system: system.title, subject: subject, operation: "\(benchmark.operation.rawValue) \(benchmark.format.title)", value: rate, unit: "MB/s", clock: clock)
      }
    }
  }
  if let document = results.memoryDocument {
    for system in systems {
      guard case .success(let memory)? = results.memory[system] else { continue }
      file.add(
        system: system.title, subject: "\(document.label), \(formatSize(document.bytes.count))", operation: "peak memory, decode",
        value: Double(memory.peakExtra) / 1e6, unit: "MB", clock: "resident")
    }
  }
  return file
}
