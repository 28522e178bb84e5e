// archive-bench: archive and unarchive the item-store object graph of Tests/Fixtures/bench/GRAPH.md, in
// binary and XML, with Stasis's KeyedArchive and Foundation's NSKeyedArchiver, plus peak memory
// while unarchiving the largest binary archive. Markdown on stdout, progress on stderr.
//
//   archive-bench [--sizes 10000,100000,1000000] [--peer-sizes 10000,100000] [--min-time S] [--warm-up S] [--no-memory] [--source TEXT]
//                 [--gnustep PEER-EXECUTABLE [--gnustep-sizes 10000,100000]]
//   (--peer-sizes: the sizes at which Foundation is measured too, default all; its 1,000,000-item
//   cells take about ten minutes each. --gnustep: GNUstep Base's archiver as a second peer
//   (Benchmarks/GNUstepPeer, GNUstepPeer.swift), at --gnustep-sizes, default the peer sizes)
//   archive-bench --loop stasis|foundation archive|unarchive binary|xml N [--iterations K]   (profilers)
//   archive-bench --phases binary|xml N [--iterations K]   (Stasis archiving: walk and writer apart)
//   archive-bench --memory-child stasis|foundation WARM-UP-PATH PATH N                        (internal)

import BenchSupport
import Foundation
import PropertyLists

#if canImport(Glibc)
  import Glibc
#endif

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("archive-bench: \(message)\n".utf8))
  exit(2)
}

func progress(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - Clock and timing (the method of plist-bench, Docs/benchmarks.md)

struct Timing {
  var median: Double
  var wallMedian: Double
  var iterations: Int
}

/// Warm-up (≥ 1 iteration and `warmUp` s), then ≥ `minimumTime` s and ≥ 3 iterations. Only `run`
/// is timed; its result is checked after the clock stops (and freed after the check, untimed).
func measure<Result>(
  minimumTime: Double, warmUp: Double, _ run: () throws -> Result, check: (Result) throws -> Void
) throws -> Timing {
  let warmUpStart = cpuNow()
  repeat { try check(try run()) } while cpuNow() - warmUpStart < warmUp
  var times: [Double] = []
  var wallTimes: [Double] = []
  var total = 0.0
  while times.count < 3 || total < minimumTime {
    let wallStart = wallNow()
    let start = cpuNow()
    let result = try run()
    let elapsed = cpuNow() - start
    wallTimes.append(wallNow() - wallStart)
    try check(result)
    times.append(elapsed)
    total += elapsed
  }
  return Timing(median: median(times), wallMedian: median(wallTimes), iterations: times.count)
}

// MARK: - Cells

enum System: String, CaseIterable {
  case stasis, foundation
  var title: String { self == .stasis ? "Stasis" : "Foundation" }
}

enum ArchiveFormat: String, CaseIterable {
  case binary, xml
  var magic: [UInt8] { self == .binary ? Array("bplist00".utf8) : Array("<?xml".utf8) }
}

enum Operation: String, CaseIterable {
  case archive, unarchive
}

/// One size's graphs and archives, built and checked untimed.
final class Fixture {
  let count: Int
  let expected: GraphExpectation
  let stasisStore: StasisStore
  let foundationStore: FoundationStore
  var archives: [String: Data] = [:]

  init(count: Int, systems: [System] = System.allCases) throws {
    self.count = count
    expected = GraphExpectation(itemCount: count)
    stasisStore = StasisStore.make(count: systems.contains(.stasis) ? count : 0)
    foundationStore = FoundationStore.make(count: systems.contains(.foundation) ? count : 0)
    for system in systems {
      for format in ArchiveFormat.allCases {
        let data = try archive(system, format)
        try checkArchive(data, system, format)
        // The archive must decode, with the same system, to the expected graph.
        try verify(system, try unarchive(system, data))
        archives["\(system.rawValue)-\(format.rawValue)"] = data
      }
    }
  }

  func archive(_ system: System, _ format: ArchiveFormat) throws -> Data {
    switch system {
    case .stasis: try StasisSystem.archive(stasisStore, format: format == .binary ? .binary : .xml)
    case .foundation: try FoundationSystem.archive(foundationStore, xml: format == .xml)
    }
  }

  func unarchive(_ system: System, _ data: Data) throws -> AnyObject {
    switch system {
    case .stasis: try StasisSystem.unarchive(data)
    case .foundation: try FoundationSystem.unarchive(data)
    }
  }

  func verify(_ system: System, _ graph: AnyObject) throws {
    switch system {
    case .stasis: try StasisSystem.verify(graph as! StasisStore, expected)
    case .foundation: try FoundationSystem.verify(graph as! FoundationStore, expected)
    }
  }

  func checkArchive(_ data: Data, _ system: System, _ format: ArchiveFormat) throws {
    guard data.count > 1000, data.starts(with: format.magic) else {
      throw CheckFailure("\(system.title) wrote \(data.count) bytes that do not start with the \(format) magic")
    }
  }

  func archiveData(_ system: System, _ format: ArchiveFormat) -> Data { archives["\(system.rawValue)-\(format.rawValue)"]! }
  func hasArchive(_ system: System, _ format: ArchiveFormat) -> Bool { archives["\(system.rawValue)-\(format.rawValue)"] != nil }

  func time(_ system: System, _ operation: Operation, _ format: ArchiveFormat, minimumTime: Double, warmUp: Double)
    throws -> Timing
  {
    switch operation {
    case .archive:
      return try measure(minimumTime: minimumTime, warmUp: warmUp, { try archive(system, format) }) {
        try checkArchive($0, system, format)
      }
    case .unarchive:
      let data = archiveData(system, format)
      return try measure(minimumTime: minimumTime, warmUp: warmUp, { try unarchive(system, data) }) {
        try verify(system, $0)
      }
    }
  }
}

// MARK: - Peak memory (child process per system)

/// The child: decodes the small archive once (code pages and one-time setup resident), resets the
/// peak, reads the large archive, decodes it, and reports VmHWM with the graph alive.
func runMemoryChild(_ system: System, warmUpPath: String, path: String, count: Int) throws -> Never {
  func decode(_ data: Data) throws -> AnyObject {
    switch system {
    case .stasis: try StasisSystem.unarchive(data)
    case .foundation: try FoundationSystem.unarchive(data)
    }
  }
  do {
    let warm = try decode(try Data(contentsOf: URL(fileURLWithPath: warmUpPath)))
    withExtendedLifetime(warm) {}
  }
  let wasReset = resetPeakResident()
  let before = procStatus("VmRSS") ?? 0
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  let loaded = procStatus("VmRSS") ?? 0
  let graph = try decode(data)
  let peak = procStatus("VmHWM") ?? 0
  let expected = GraphExpectation(itemCount: count)
  switch system {
  case .stasis: try StasisSystem.verify(graph as! StasisStore, expected)
  case .foundation: try FoundationSystem.verify(graph as! FoundationStore, expected)
  }
  print("before=\(before) loaded=\(loaded) peak=\(peak) reset=\(wasReset ? 1 : 0)")
  withExtendedLifetime(graph) {}
  withExtendedLifetime(data) {}
  exit(0)
}

struct MemoryResult {
  var before: Int, loaded: Int, peak: Int, reset: Bool
  var peakExtra: Int { peak - before }
  var decodeExtra: Int { peak - loaded }
}

func measureMemory(_ system: System, warmUpPath: String, path: String, count: Int) throws -> MemoryResult {
  try MemoryResult(
    try spawnMemoryChild(arguments: ["--memory-child", system.rawValue, warmUpPath, path, String(count)]), of: system.title)
}

extension MemoryResult {
  /// What a memory child (this program's or a peer's) reported, or why it could not.
  init(_ outcome: MemoryChildOutcome, of title: String) throws {
    switch outcome {
    case .failed(let status, let message):
      throw CheckFailure("memory child for \(title) failed (\(status)): \(message)")
    case .report(let fields):
      guard let before = fields["before"], let loaded = fields["loaded"], let peak = fields["peak"] else {
        throw CheckFailure("memory child for \(title) printed \(fields)")
      }
      self.init(before: before, loaded: loaded, peak: peak, reset: fields["reset"] == 1)
    }
  }
}

// MARK: - Formatting

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
func milliseconds(_ seconds: Double) -> String {
  let ms = seconds * 1000
  return ms >= 100 ? String(format: "%.0f", ms) : String(format: "%.1f", ms)
}
func rate(_ count: Int, _ seconds: Double) -> String {
  let perSecond = Double(count) / seconds
  return perSecond >= 1e6 ? String(format: "%.2f M", perSecond / 1e6) : String(format: "%.0f k", perSecond / 1e3)
}
func ratio(_ value: Double) -> String { value >= 10 ? String(format: "%.0f×", value) : String(format: "%.2f×", value) }

func machineDescription() -> String {
  let machine = MachineDescription()
  return "\(machine.architecture), nproc \(machine.processors), \(machine.cpuModel)"
}

/// Per-item cost at each size, and its ratio to the per-item cost at the smallest size measured
/// (1.00× is linear; the bar is within 1.15×), for each system, format and operation.
func printScaling(_ rows: [Row]) {
  guard let smallest = rows.map(\.count).min(), Set(rows.map(\.count)).count > 1 else { return }
  print("\nScaling: per-item cost (CPU µs) at each N, and ÷ the per-item cost at N = \(smallest) in this run (1.00× is linear).\n")
  print("| format | operation | N | Stasis µs/item | Stasis ÷ N=\(smallest) | Foundation µs/item | Foundation ÷ N=\(smallest) |")
  print("|---|---|---:|---:|---:|---:|---:|")
  for format in ArchiveFormat.allCases {
    for operation in Operation.allCases {
      let cells = rows.filter { $0.format == format && $0.operation == operation }.sorted { $0.count < $1.count }
      guard let base = cells.first(where: { $0.count == smallest }) else { continue }
      let stasisBase = base.stasis.median / Double(base.count)
      let foundationBase = base.foundation.map { $0.median / Double(base.count) }
      for row in cells {
        let stasisItem = row.stasis.median / Double(row.count)
        let foundationItem = row.foundation.map { $0.median / Double(row.count) }
        let foundationCells = foundationItem.map { item in
          String(format: "%.3f | ", item * 1e6) + (foundationBase.map { String(format: "%.2f×", item / $0) } ?? "—")
        } ?? "— | —"
        print("| \(format) | \(operation) | \(row.count) | " + String(format: "%.3f | %.2f× | ", stasisItem * 1e6, stasisItem / stasisBase)
          + foundationCells + " |")
      }
    }
  }
  let worst = rows.filter { $0.count != smallest }.compactMap { row -> (Row, Double)? in
    guard let base = rows.first(where: { $0.count == smallest && $0.format == row.format && $0.operation == row.operation }) else { return nil }
    return (row, (row.stasis.median / Double(row.count)) / (base.stasis.median / Double(base.count)))
  }.max { $0.1 < $1.1 }
  if let (row, factor) = worst {
    print("\n- Stasis per-item cost within 1.15× of N = \(smallest) at every size: \(factor <= 1.15 ? "PASS" : "FAIL") "
      + "(worst \(String(format: "%.2f×", factor)): \(row.operation) \(row.format) N = \(row.count)).")
  }
}

// MARK: - Main

var arguments = ArraySlice(CommandLine.arguments.dropFirst())
@MainActor func nextValue(_ flag: String) -> String {
  guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
  return value
}

func parse<Number: LosslessStringConvertible>(_ text: some StringProtocol, _ flag: String) -> Number {
  guard let number = Number(String(text)) else { fail("\(flag) takes a number, not \(text)") }
  return number
}

var sizes = [10_000, 100_000, 1_000_000]
var peerSizes: Set<Int>?
var minimumTime = 1.0
var warmUp = 0.2
var memory = true
var source = "the library on disk"
var loop: (System, Operation, ArchiveFormat, Int)?
var phases: (ArchiveFormat, Int)?
var loopIterations = 20
var gnustep: GNUstepPeer?
var gnustepSizes: Set<Int>?

while let argument = arguments.popFirst() {
  switch argument {
  case "--sizes": sizes = nextValue(argument).split(separator: ",").map { parse($0, argument) }
  case "--peer-sizes": peerSizes = Set(nextValue(argument).split(separator: ",").map { parse($0, argument) })
  case "--min-time": minimumTime = parse(nextValue(argument), argument)
  case "--warm-up": warmUp = parse(nextValue(argument), argument)
  case "--no-memory": memory = false
  case "--source": source = nextValue(argument)
  case "--iterations": loopIterations = parse(nextValue(argument), argument)
  case "--gnustep": gnustep = GNUstepPeer(executable: URL(fileURLWithPath: nextValue(argument)))
  case "--gnustep-sizes": gnustepSizes = Set(nextValue(argument).split(separator: ",").map { parse($0, argument) })
  case "--loop":
    guard let system = System(rawValue: nextValue(argument)), let operation = Operation(rawValue: nextValue(argument)),
      let format = ArchiveFormat(rawValue: nextValue(argument)), let count = Int(nextValue(argument))
    else { fail("--loop SYSTEM OPERATION FORMAT N") }
    loop = (system, operation, format, count)
  case "--phases":
    guard let format = ArchiveFormat(rawValue: nextValue(argument)), let count = Int(nextValue(argument))
    else { fail("--phases FORMAT N") }
    phases = (format, count)
  case "--memory-child":
    guard let system = System(rawValue: nextValue(argument)) else { fail("--memory-child SYSTEM …") }
    let warmUpPath = nextValue(argument)
    let path = nextValue(argument)
    let count: Int = parse(nextValue(argument), argument)
    do { try runMemoryChild(system, warmUpPath: warmUpPath, path: path, count: count) } catch { fail("\(error)") }
  default: fail("unknown argument \(argument)")
  }
}

if let (format, count) = phases {
  do { try runPhases(format, count: count, iterations: loopIterations) } catch { fail("\(error)") }
  exit(0)
}

if let (system, operation, format, count) = loop {
  do {
    let fixture = try Fixture(count: count, systems: [system])
    let start = cpuNow()
    for _ in 0..<loopIterations {
      switch operation {
      case .archive: try fixture.checkArchive(try fixture.archive(system, format), system, format)
      case .unarchive: _ = try fixture.unarchive(system, fixture.archiveData(system, format))
      }
    }
    progress(String(format: "%d iterations, %.1f ms each (CPU)", loopIterations, (cpuNow() - start) * 1000 / Double(loopIterations)))
    exit(0)
  } catch { fail("\(error)") }
}

struct Row {
  var count: Int
  var format: ArchiveFormat
  var operation: Operation
  var stasis: Timing
  /// Nil at a size Foundation was not measured at (`--peer-sizes`).
  var foundation: Timing?
  /// Nil where GNUstep was not measured (no peer, another size, or a cell it cannot run).
  var gnustep: Timing?
  var speedup: Double? { foundation.map { $0.median / stasis.median } }
  var gnustepSpeedup: Double? { gnustep.map { $0.median / stasis.median } }
}

let startDate = Date()
let loadBefore = loadAverage()
var rows: [Row] = []
var sizesTable: [(Int, ArchiveFormat, Int, Int?)] = []
var failures: [String] = []
var fixtures: [Int: Fixture] = [:]
var gnustepCells: [Int: GNUstepCells] = [:]
/// GNUstep's archives (removed after the memory measurement).
let workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("archive-bench-gnustep-\(getpid())")
try? FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)

for count in sizes {
  progress("building and checking the graphs and archives at N = \(count)")
  let fixture: Fixture
  let systems = peerSizes.map { $0.contains(count) } ?? true ? System.allCases : [.stasis]
  do { fixture = try Fixture(count: count, systems: systems) } catch {
    failures.append("N = \(count): \(error)")
    progress("FAIL \(error)")
    continue
  }
  fixtures[count] = fixture
  if let gnustep, gnustepSizes.map({ $0.contains(count) }) ?? peerSizes.map({ $0.contains(count) }) ?? true {
    progress("GNUstep: archiving and unarchiving at N = \(count) in its own process")
    do {
      let cells = try gnustep.cells(count: count, minimumTime: minimumTime, warmUp: warmUp, directory: workDirectory)
      gnustepCells[count] = cells
      for (key, timing) in cells.timings.sorted(by: { $0.key < $1.key }) {
        progress(String(format: "GNUstep %@ N=%d: %.1f ms CPU (wall %.1f ms, %d iterations)", key, count, timing.median * 1000,
          timing.wallMedian * 1000, timing.iterations))
      }
    } catch {
      failures.append("GNUstep N = \(count): \(error)")
      progress("FAIL GNUstep N=\(count): \(error)")
    }
  }
  for format in ArchiveFormat.allCases {
    sizesTable.append((count, format, fixture.archiveData(.stasis, format).count,
      fixture.hasArchive(.foundation, format) ? fixture.archiveData(.foundation, format).count : nil))
    for operation in Operation.allCases {
      var timings: [System: Timing] = [:]
      for system in systems {
        do {
          let timing = try fixture.time(system, operation, format, minimumTime: minimumTime, warmUp: warmUp)
          timings[system] = timing
          progress(String(format: "%@ %@ %@ N=%d: %.1f ms CPU (wall %.1f ms, %d iterations)", system.title, operation.rawValue,
            format.rawValue, count, timing.median * 1000, timing.wallMedian * 1000, timing.iterations))
        } catch {
          failures.append("\(system.title) \(operation) \(format) N = \(count): \(error)")
          progress("FAIL \(system.title) \(operation) \(format) N=\(count): \(error)")
        }
      }
      if let stasis = timings[.stasis], timings[.foundation] != nil || !systems.contains(.foundation) {
        rows.append(Row(count: count, format: format, operation: operation, stasis: stasis, foundation: timings[.foundation],
          gnustep: gnustepCells[count]?.timings[GNUstepCells.key(operation, format)]))
      }
    }
  }
}

var memoryResults: [System: MemoryResult] = [:]
var memoryCount = 0
var memoryArchiveBytes = 0
var gnustepMemory: MemoryResult?
// Peak memory at the largest size measured with both systems.
let bothSizes = sizes.filter { peerSizes?.contains($0) ?? true }
if memory, let largest = bothSizes.max(), let smallest = bothSizes.min(), let large = fixtures[largest] {
  memoryCount = largest
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archive-bench-\(getpid())")
  do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let small = fixtures[smallest] ?? large
    for system in System.allCases {
      let warmPath = directory.appendingPathComponent("\(system.rawValue)-warm.archive").path
      let path = directory.appendingPathComponent("\(system.rawValue)-\(largest).archive").path
      try small.archiveData(system, .binary).write(to: URL(fileURLWithPath: warmPath))
      try large.archiveData(system, .binary).write(to: URL(fileURLWithPath: path))
      progress("peak memory: \(system.title) unarchiving the N = \(largest) binary archive in a child process")
      do {
        memoryResults[system] = try measureMemory(system, warmUpPath: warmPath, path: path, count: largest)
      } catch {
        failures.append("memory \(system.title): \(error)")
        progress("FAIL \(error)")
      }
    }
    memoryArchiveBytes = large.archiveData(.stasis, .binary).count
  } catch {
    failures.append("memory: \(error)")
  }
  // Only where GNUstep could read its binary archive (it cannot past 65,535 objects: GNUstepPeer/main.m).
  if let gnustep, gnustepCells[largest]?.timings[GNUstepCells.key(.unarchive, .binary)] != nil,
    let largeArchive = gnustepCells[largest]?.binaryArchive,
    let warmArchive = gnustepCells[smallest]?.binaryArchive ?? gnustepCells.values.compactMap(\.binaryArchive).first
  {
    progress("peak memory: GNUstep unarchiving the N = \(largest) binary archive in a child process")
    do { gnustepMemory = try gnustep.memory(warmUpPath: warmArchive, path: largeArchive, count: largest) } catch {
      failures.append("memory GNUstep: \(error)")
      progress("FAIL \(error)")
    }
  }
}
try? FileManager.default.removeItem(at: workDirectory)

// MARK: - Report

let dateFormatter = ISO8601DateFormatter()
print("Command: `\(ProcessInfo.processInfo.environment["BENCH_COMMAND"] ?? CommandLine.arguments.joined(separator: " "))`\n")
print("Run of \(dateFormatter.string(from: startDate)) (UTC), library: \(source); machine: \(machineDescription()); "
  + "load average \(loadBefore) at the start, \(loadAverage()) at the end. CPU-time clock "
  + "(CLOCK_PROCESS_CPUTIME_ID), median of ≥ 3 iterations and ≥ \(minimumTime) s after a \(warmUp) s warm-up; "
  + "every iteration's result checked.\n")
let withGNUstep = !gnustepCells.isEmpty
print("| N | format | operation | Stasis ms | Foundation ms | Stasis items/s | Foundation items/s | Stasis ÷ Foundation |"
  + (withGNUstep ? " GNUstep ms | Stasis ÷ GNUstep |" : ""))
print("|---:|---|---|---:|---:|---:|---:|---:|" + (withGNUstep ? "---:|---:|" : ""))
for row in rows {
  let gnustepColumns = withGNUstep ? " \(row.gnustep.map { milliseconds($0.median) } ?? "—") | \(row.gnustepSpeedup.map(ratio) ?? "—") |" : ""
  print("| \(row.count) | \(row.format) | \(row.operation) | \(milliseconds(row.stasis.median)) | "
    + "\(row.foundation.map { milliseconds($0.median) } ?? "—") | \(rate(row.count, row.stasis.median)) | "
    + "\(row.foundation.map { rate(row.count, $0.median) } ?? "—") | \(row.speedup.map(ratio) ?? "—") |" + gnustepColumns)
}
// One line per cell GNUstep could not time, with the reason it gave at the smallest size.
var gnustepNotes: [String: String] = [:]
for (_, cells) in gnustepCells.sorted(by: { $0.key > $1.key }) {
  for (key, reason) in cells.unavailable { gnustepNotes[key] = reason }
}
if !gnustepNotes.isEmpty {
  print("\n" + gnustepNotes.sorted { $0.key < $1.key }.map { "- GNUstep \($0.key) not timed: \($0.value) (Benchmarks/GNUstepPeer/main.m)." }
    .joined(separator: "\n"))
}
if withGNUstep {
  print("- GNUstep's binary unarchive cell reads its own XML archive converted to binary by Stasis's property-list codec.")
}
printScaling(rows)
print("\nArchive sizes:\n")
print("| N | format | Stasis | Foundation |" + (withGNUstep ? " GNUstep |" : ""))
print("|---:|---|---:|---:|" + (withGNUstep ? "---:|" : ""))
for (count, format, stasisBytes, foundationBytes) in sizesTable {
  let gnustepColumn = withGNUstep ? " \(gnustepCells[count]?.bytes[format].map(megabytes) ?? "—") |" : ""
  print("| \(count) | \(format) | \(megabytes(stasisBytes)) | \(foundationBytes.map(megabytes) ?? "—") |" + gnustepColumn)
}
if !memoryResults.isEmpty {
  print("\nPeak memory unarchiving the N = \(memoryCount) binary archive (\(megabytes(memoryArchiveBytes)) for Stasis), "
    + "each system in a fresh child process that first unarchived the N = \(sizes.min()!) archive; VmHWM with the "
    + "graph alive, the peak reset through /proc/self/clear_refs first"
    + (memoryResults.values.allSatisfy(\.reset) ? "" : " (the reset FAILED on this kernel: figures include the warm-up)")
    + ". \"decode only\" starts after the archive was read into memory.\n")
  print("| system | peak extra | decode only |")
  print("|---|---:|---:|")
  for system in System.allCases {
    guard let result = memoryResults[system] else { continue }
    print("| \(system.title) | \(megabytes(result.peakExtra)) | \(megabytes(result.decodeExtra)) |")
  }
  if let result = gnustepMemory {
    print("| GNUstep (its XML archive converted to binary) | \(megabytes(result.peakExtra)) | \(megabytes(result.decodeExtra)) |")
  }
}

// The figures for Benchmarks/results/archive-bench.json (BENCH_RESULTS, set by run.sh).
var resultsFile = ResultsFile(harness: "archive-bench", loadAtStart: loadBefore)
for row in rows {
  for (system, timing) in [(System.stasis.title, row.stasis), (System.foundation.title, row.foundation), ("GNUstep", row.gnustep)] {
    guard let timing else { continue }
    resultsFile.add(system: system, subject: "N=\(row.count)", operation: "\(row.operation) \(row.format)", value: timing.median * 1e3, unit: "ms")
  }
}
if let result = gnustepMemory {
  resultsFile.add(
    system: "GNUstep", subject: "N=\(memoryCount)", operation: "peak memory, unarchive binary (decode only)", value: Double(result.decodeExtra) / 1e6,
    unit: "MB", clock: "resident")
}
for system in System.allCases {
  guard let result = memoryResults[system] else { continue }
  resultsFile.add(
    system: system.title, subject: "N=\(memoryCount)", operation: "peak memory, unarchive binary (decode only)", value: Double(result.decodeExtra) / 1e6,
    unit: "MB", clock: "resident")
}
resultsFile.writeIfRequested(source: source)

print("\nThe bar: Stasis ≥ 10× Foundation both ways, peak memory below Foundation's.\n")
let compared = rows.compactMap { row in row.speedup.map { (row, $0) } }
let slow = compared.filter { $0.1 < 10 }
print(slow.isEmpty && !compared.isEmpty
  ? "- ≥ 10× Foundation on every row measured with both: PASS (lowest \(ratio(compared.map(\.1).min()!)))."
  : "- ≥ 10× Foundation on every row measured with both: FAIL — " + slow.map { "\($0.0.operation) \($0.0.format) N = \($0.0.count): \(ratio($0.1))" }.joined(separator: "; ") + ".")
let againstGNUstep = rows.compactMap { row in row.gnustepSpeedup.map { (row, $0) } }
if let lowest = againstGNUstep.min(by: { $0.1 < $1.1 }) {
  print("- Against GNUstep (no bar): Stasis faster on \(againstGNUstep.filter { $0.1 > 1 }.count) of \(againstGNUstep.count) cells; "
    + "lowest \(ratio(lowest.1)) (\(lowest.0.operation) \(lowest.0.format) N = \(lowest.0.count)).")
}
if let stasis = memoryResults[.stasis], let foundation = memoryResults[.foundation] {
  let below = stasis.decodeExtra < foundation.decodeExtra
  print("- Peak memory below Foundation's: \(below ? "PASS" : "FAIL") (decode only \(megabytes(stasis.decodeExtra)) vs \(megabytes(foundation.decodeExtra))).")
}
if !failures.isEmpty {
  print("\nFAILED checks:\n")
  for failure in failures { print("- \(failure)") }
  exit(1)
}
