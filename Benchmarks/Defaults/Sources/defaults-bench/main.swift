import BenchSupport
@_spi(Testing) import Defaults
import Foundation
import PropertyLists
import Sandbox

#if canImport(Glibc)
  import Glibc
#endif

/// defaults-bench: Stasis's `UserDefaults` (module `Defaults`) beside Foundation's, same keys, same process.
///
///     defaults-bench [--keys 1000] [--reads 2000000] [--burst 10000] [--syncs 200] [--source TEXT]
///
/// Measures reads per second of present and absent keys (`object(forKey:)`), a burst of sets
/// (`set(_:forKey:)` with an Int) with the number of file writes it causes, and the cost of
/// `synchronize()` after one change. Prints a Markdown report.
struct Options {
  var keys = 1000
  var reads = 2_000_000
  var burst = 10_000
  var syncs = 200
  var source = "working tree"

  init(_ arguments: [String]) {
    var index = 1
    while index + 1 < arguments.count {
      let value = arguments[index + 1]
      switch arguments[index] {
      case "--keys": keys = Int(value) ?? keys
      case "--reads": reads = Int(value) ?? reads
      case "--burst": burst = Int(value) ?? burst
      case "--syncs": syncs = Int(value) ?? syncs
      case "--source": source = value
      default: break
      }
      index += 2
    }
  }
}

let options = Options(CommandLine.arguments)
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-bench-\(getpid())").path
try? FileManager.default.removeItem(atPath: scratch)
try FileManager.default.createDirectory(atPath: scratch + "/home", withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }
// Foundation on Linux keeps its preferences in $XDG_CONFIG_HOME (else ~/.config), read when the
// process starts: run.sh points it at a scratch folder, which is watched for writes below.
let foundationFolder = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
  ?? (ProcessInfo.processInfo.environment["HOME"] ?? "/") + "/.config"

func seconds(_ body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

let identifier = "com.example.bench"
let keys = (0..<options.keys).map { "key.\($0)" }
let absent = (0..<options.keys).map { "absent.\($0)" }
func value(_ index: Int) -> Any {
  switch index % 4 {
  case 0: return index
  case 1: return "value \(index)"
  case 2: return Double(index) / 3
  default: return index % 8 == 3
  }
}

// MARK: - Setup

let root = ContainerRoot(path: scratch + "/Containers")
let stasis = try Defaults.UserDefaults(
  bundleIdentifier: identifier, configuration: .init(containerRoot: root, arguments: ["bench"], languages: [], flushDelay: 0.25))
for (index, key) in keys.enumerated() { stasis.set(value(index), forKey: key) }
_ = stasis.synchronize()

guard let foundation = Foundation.UserDefaults(suiteName: identifier) else { fatalError("UserDefaults(suiteName:) failed") }
for (index, key) in keys.enumerated() { foundation.set(value(index), forKey: key) }
_ = foundation.synchronize()

// MARK: - Reads

func readRate(_ read: (String) -> Any?, _ names: [String]) -> (rate: Double, hits: Int) {
  var hits = 0
  let rounds = max(1, options.reads / names.count)
  // Warm up.
  for name in names where read(name) != nil { hits += 0 }
  let time = seconds {
    for _ in 0..<rounds {
      for name in names where read(name) != nil { hits += 1 }
    }
  }
  return (Double(rounds * names.count) / time, hits)
}

log("reads of present keys…")
let stasisPresent = readRate({ stasis.object(forKey: $0) }, keys)
let foundationPresent = readRate({ foundation.object(forKey: $0) }, keys)
log("reads of absent keys…")
let stasisAbsent = readRate({ stasis.object(forKey: $0) }, absent)
let foundationAbsent = readRate({ foundation.object(forKey: $0) }, absent)
precondition(stasisPresent.hits == foundationPresent.hits && stasisPresent.hits > 0, "present-key reads disagree")
precondition(stasisAbsent.hits == 0 && foundationAbsent.hits == 0, "absent keys were found")

// MARK: - Burst

log("burst of \(options.burst) sets…")
let burstKeys = (0..<options.burst).map { "burst.\($0)" }
let stasisWritesBefore = stasis.applicationDomainWriteCount
let stasisBurst = seconds { for (index, key) in burstKeys.enumerated() { stasis.set(index, forKey: key) } }
// Let the coalescing timer save, then count the writes the burst cost.
let flushDeadline = Date().addingTimeInterval(10)
let stasisFlush = seconds {
  while stasis.hasUnsavedChanges && Date() < flushDeadline { usleep(1000) }
}
usleep(500_000)
let stasisBurstWrites = stasis.applicationDomainWriteCount - stasisWritesBefore
let stasisSaved: Int = {
  guard let data = FileManager.default.contents(atPath: stasis.preferencesFilePath!),
    case .dictionary(let saved)? = try? PropertyListValue(decoding: data)
  else { return 0 }
  return saved.count
}()

// Foundation: look for a preferences file changing during the burst and the same wait.
func foundationFiles() -> [String: Date] {
  var result: [String: Date] = [:]
  let enumerator = FileManager.default.enumerator(atPath: foundationFolder)
  while let path = enumerator?.nextObject() as? String {
    let full = foundationFolder + "/" + path
    if let date = (try? FileManager.default.attributesOfItem(atPath: full))?[.modificationDate] as? Date {
      result[full] = date
    }
  }
  return result
}
let foundationBefore = foundationFiles()
let foundationBurst = seconds { for (index, key) in burstKeys.enumerated() { foundation.set(index, forKey: key) } }
usleep(750_000)
let foundationAfter = foundationFiles()
let foundationChangedFiles = foundationAfter.filter { foundationBefore[$0.key] != $0.value }.count
let foundationBurstSync = seconds { _ = foundation.synchronize() }
let foundationPreferences = foundationAfter.keys.filter { $0.hasSuffix(identifier + ".plist") }.sorted()

// MARK: - synchronize

log("synchronize after one change…")
func syncCost(_ set: (Int) -> Void, _ synchronize: () -> Void) -> Double {
  var total = 0.0
  for round in 0..<options.syncs {
    set(round)
    total += seconds(synchronize)
  }
  return total / Double(options.syncs)
}
let stasisSync = syncCost({ stasis.set($0, forKey: "sync.key") }, { _ = stasis.synchronize() })
let foundationSync = syncCost({ foundation.set($0, forKey: "sync.key") }, { _ = foundation.synchronize() })
let stasisIdleSync = syncCost({ _ in }, { _ = stasis.synchronize() })
let foundationIdleSync = syncCost({ _ in }, { _ = foundation.synchronize() })

// MARK: - Report

func machine() -> String {
  let machine = MachineDescription()
  return "\(machine.cpuModel), \(machine.processors) cores, Linux \(machine.kernelRelease) \(machine.architecture)"
}

func rate(_ value: Double) -> String {
  value >= 1e6 ? String(format: "%.1f M/s", value / 1e6) : String(format: "%.0f k/s", value / 1e3)
}
func milliseconds(_ value: Double) -> String { String(format: "%.2f ms", value * 1e3) }
func microseconds(_ value: Double) -> String { String(format: "%.0f µs", value * 1e6) }
func ratio(_ value: Double) -> String { String(format: "%.1f×", value) }

let formatter = ISO8601DateFormatter()
print("## Defaults benchmark — \(formatter.string(from: Date()))")
print("")
print("Machine: \(machine()). Library: \(options.source). Release build.")
print("\(options.keys) keys in the application domain (Int, String, Double, Bool in turn); \(options.reads) reads per row.")
print("")
print("| measurement | Stasis Defaults | Foundation UserDefaults | Stasis advantage |")
print("|---|---|---|---|")
print("| reads of present keys, `object(forKey:)` | \(rate(stasisPresent.rate)) | \(rate(foundationPresent.rate)) | \(ratio(stasisPresent.rate / foundationPresent.rate)) |")
print("| reads of absent keys, `object(forKey:)` | \(rate(stasisAbsent.rate)) | \(rate(foundationAbsent.rate)) | \(ratio(stasisAbsent.rate / foundationAbsent.rate)) |")
print("| burst of \(options.burst) `set(_:forKey:)` (the sets) | \(milliseconds(stasisBurst)) | \(milliseconds(foundationBurst)) | \(ratio(foundationBurst / stasisBurst)) |")
print("| file writes the burst caused (saved without `synchronize()`) | \(stasisBurstWrites) (timer; \(stasisSaved) keys on disk after \(milliseconds(stasisFlush + 0.5))) | \(foundationChangedFiles) files changed in 0.75 s; nothing saved until `synchronize()` (\(milliseconds(foundationBurstSync))) | — |")
print("| `synchronize()` after one change | \(microseconds(stasisSync)) | \(microseconds(foundationSync)) | \(ratio(foundationSync / stasisSync)) |")
print("| `synchronize()` with nothing changed | \(microseconds(stasisIdleSync)) | \(microseconds(foundationIdleSync)) | \(ratio(foundationIdleSync / stasisIdleSync)) |")
print("")
// The figures for Benchmarks/results/defaults-bench.json (BENCH_RESULTS, set by run.sh); wall clock.
var resultsFile = ResultsFile(harness: "defaults-bench")
let keysSubject = "\(options.keys) keys"
for (system, present, absent, burst, sync, idle) in [
  ("Stasis", stasisPresent.rate, stasisAbsent.rate, stasisBurst, stasisSync, stasisIdleSync),
  ("Foundation UserDefaults", foundationPresent.rate, foundationAbsent.rate, foundationBurst, foundationSync, foundationIdleSync),
] {
  resultsFile.add(system: system, subject: keysSubject, operation: "reads of present keys", value: present, unit: "/s", clock: "wall")
  resultsFile.add(system: system, subject: keysSubject, operation: "reads of absent keys", value: absent, unit: "/s", clock: "wall")
  resultsFile.add(system: system, subject: keysSubject, operation: "burst of \(options.burst) sets", value: burst * 1e3, unit: "ms", clock: "wall")
  resultsFile.add(system: system, subject: keysSubject, operation: "synchronize() after one change", value: sync * 1e6, unit: "µs", clock: "wall")
  resultsFile.add(system: system, subject: keysSubject, operation: "synchronize() with nothing changed", value: idle * 1e6, unit: "µs", clock: "wall")
}
resultsFile.writeIfRequested(source: options.source)
let bar = stasisPresent.rate / foundationPresent.rate >= 5 && stasisAbsent.rate / foundationAbsent.rate >= 5
print("Bar (reads ≥ 5× Foundation, burst ≤ 2 writes): reads \(bar ? "met" : "missed"), burst \(stasisBurstWrites <= 2 ? "met" : "missed").")
print("Foundation's preferences file: \(foundationPreferences.joined(separator: ", ")) (removed after the run).")
for path in foundationPreferences { try? FileManager.default.removeItem(atPath: path) }
