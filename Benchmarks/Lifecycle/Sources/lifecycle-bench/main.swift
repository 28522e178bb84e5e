// lifecycle-bench: what the application adds to a lifecycle notification — an
// ApplicationLifecycle transition (a state check, the delegate's call and one post) on a
// NotificationCenter with 1,000 block observers, beside Foundation's NotificationCenter posting the
// same names to as many observers alone — and the latency of a memory warning, from the kernel's
// event to the delegate's callback, in the root package's stasis-lifecycle-child under real memory
// pressure in a fresh 160 MiB cgroup, 20 times. Markdown on stdout, progress on stderr.
//
//   lifecycle-bench --child PATH [--observers 1000] [--pairs 100] [--fixed-pairs 10000]
//                   [--min-time 1] [--min-iterations 20] [--warm-up 0.2] [--rounds 5]
//                   [--warning-runs 20] [--limit-mib 160] [--allocate 4] [--child-timeout 30]
//                   [--no-notifications] [--no-warnings] [--source TEXT] [--keep]

import BenchSupport
import Foundation
import Lifecycle

#if canImport(Glibc)
  import Glibc
#endif

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("lifecycle-bench: \(message)\n".utf8))
  exit(2)
}

func progress(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - Options

var childPath: String?
var observerCount = 1000
var pairs = 100
var fixedPairs = 10_000
var minimumTime = 1.0
var minimumIterations = 20
var warmUp = 0.2
var rounds = 5
var warningRuns = 20
var limitMiB = 160
var allocateMiB = 4
var childTimeout = 30.0
var measureNotifications = true
var measureWarnings = true
var source = "the library on disk"
var keep = false

do {
  var arguments = CommandLine.arguments.dropFirst().makeIterator()
  func value(_ option: String) -> String {
    guard let text = arguments.next() else { fail("\(option) needs a value") }
    return text
  }
  func number<Number: LosslessStringConvertible & Comparable>(_ option: String, _ zero: Number) -> Number {
    guard let number = Number(value(option)), number > zero else { fail("\(option) needs a number greater than \(zero)") }
    return number
  }
  while let argument = arguments.next() {
    switch argument {
    case "--child": childPath = value(argument)
    case "--observers": observerCount = number(argument, 0)
    case "--pairs": pairs = number(argument, 0)
    case "--fixed-pairs": fixedPairs = number(argument, 0)
    case "--min-time": minimumTime = number(argument, 0.0)
    case "--min-iterations": minimumIterations = number(argument, 0)
    case "--warm-up": warmUp = number(argument, -1.0)
    case "--rounds": rounds = number(argument, 0)
    case "--warning-runs": warningRuns = number(argument, 0)
    case "--limit-mib": limitMiB = number(argument, 0)
    case "--allocate": allocateMiB = number(argument, 0)
    case "--child-timeout": childTimeout = number(argument, 0.0)
    case "--no-notifications": measureNotifications = false
    case "--no-warnings": measureWarnings = false
    case "--source": source = value(argument)
    case "--keep": keep = true
    default: fail("unknown option \(argument)")
    }
  }
}

let startDate = Date()
let machine = MachineDescription()
let loadAtStart = loadAverage()

// MARK: - 1. Notification cost

var cells: [Cell] = []
if measureNotifications {
  progress("setting up: 2 × \(grouped(observerCount)) block observers on each of 2 centres, and 2 centres without observers")
  do {
    cells = [
      foundationCell(
        key: "foundation", title: "Foundation `NotificationCenter.post` alone, \(grouped(observerCount)) observers",
        observers: observerCount, pairs: pairs),
      try stasisCell(
        key: "stasis", title: "Stasis `resignActive()` / `becomeActive()`, \(grouped(observerCount)) observers",
        observers: observerCount, pairs: pairs),
      foundationCell(
        key: "foundation-0", title: "Foundation `NotificationCenter.post` alone, no observers", observers: 0, pairs: fixedPairs),
      try stasisCell(
        key: "stasis-0", title: "Stasis `resignActive()` / `becomeActive()`, no observers", observers: 0, pairs: fixedPairs),
    ]
  } catch {
    fail("setting up the notification cells: \(error)")
  }
  progress(
    "measuring \(cells.count) cells: \(rounds) rounds, ≥ \(minimumTime) s and ≥ \(minimumIterations) iterations each")
  runCells(cells, minimumTime: minimumTime, minimumIterations: minimumIterations, warmUp: warmUp, rounds: rounds)
  for cell in cells where cell.failure == nil {
    progress(
      String(
        format: "%@: %.0f ns per post (CPU), %.0f ns (wall), %d iterations", cell.key, cell.nanosecondsPerOperation,
        cell.wallNanosecondsPerOperation, cell.times.count))
  }
}

// MARK: - 2. Warning latency

var warningSkipReason: String?
var warnings: [WarningRun] = []
let scratchFolder = FileManager.default.temporaryDirectory.path + "/lifecycle-bench-\(getpid())"
if measureWarnings {
  if childPath == nil {
    warningSkipReason = "no child given (--child PATH to stasis-lifecycle-child)"
  } else if !FileManager.default.isExecutableFile(atPath: childPath!) {
    warningSkipReason = "the child \(childPath!) is not an executable file"
  } else if let reason = MemoryCgroup.unavailableReason() {
    warningSkipReason = reason
  }
  if let warningSkipReason {
    progress("warning latency skipped: \(warningSkipReason)")
  } else if let childPath {
    try? FileManager.default.createDirectory(atPath: scratchFolder, withIntermediateDirectories: true)
    for index in 1...warningRuns {
      let run = warningRun(
        index: index, child: childPath, limitBytes: limitMiB << 20, allocateMiB: allocateMiB, timeout: childTimeout,
        folder: scratchFolder)
      warnings.append(run)
      progress(
        "warning run \(index) of \(warningRuns): exit \(run.status), latency "
          + (run.latency.map { String(format: "%.3f ms", Double($0) / 1e6) } ?? "none")
          + (run.outsideLatency.map { String(format: " (%.3f ms from this process's wake-up)", Double($0) / 1e6) } ?? "")
          + (run.heldMiB.map { ", held \($0) MiB" } ?? "") + (run.failure.map { " — \($0)" } ?? ""))
    }
    if !keep { try? FileManager.default.removeItem(atPath: scratchFolder) }
  }
}

// MARK: - Report

let notificationBar = 1.2
let latencyBarMilliseconds = 50.0

func nanoseconds(_ value: Double) -> String {
  value >= 100_000 ? String(format: "%.1f µs", value / 1000) : value >= 10_000 ? String(format: "%.2f µs", value / 1000)
    : String(format: "%.0f ns", value)
}
func milliseconds(_ nanoseconds: Double) -> String { String(format: "%.3f ms", nanoseconds / 1e6) }
func yesNo(_ met: Bool) -> String { met ? "**met**" : "**not met**" }

let dateFormatter = ISO8601DateFormatter()
print("## Lifecycle — \(dateFormatter.string(from: startDate))\n")
print(
  "Library: \(source). Machine: \(machine.architecture), Linux \(machine.kernelRelease), nproc \(machine.processors), "
    + "\(machine.cpuModel); load average \(loadAtStart) at the start, \(loadAverage()) at the end. Release build.\n")

var verdicts: [String] = []

if measureNotifications {
  print("### Posting a lifecycle notification to \(grouped(observerCount)) observers\n")
  print(
    "Each centre is a fresh `NotificationCenter` with \(grouped(observerCount)) block observers (`addObserver(forName:object: nil, "
      + "queue: nil)`) on each of `UIApplicationWillResignActiveNotification` and `UIApplicationDidBecomeActiveNotification`; "
      + "each block increments its own counter, nothing else. **Foundation**: `center.post(name:object:)` of the two names in "
      + "turn, with an object. **Stasis**: an `ApplicationLifecycle` on its own such centre, with a delegate whose methods "
      + "are all the protocol's empty defaults, launched once (untimed), then `try lifecycle.resignActive(); try "
      + "lifecycle.becomeActive()` in turn — each transition checks the state, calls the delegate and posts one "
      + "notification (with the lifecycle as its object). One iteration is \(grouped(pairs)) pairs (\(grouped(2 * pairs)) posts or "
      + "transitions); the same cells without observers (\(grouped(fixedPairs)) pairs per iteration) show the fixed cost of a post "
      + "and of a transition. CPU-time clock (`CLOCK_PROCESS_CPUTIME_ID`); each cell warmed up for \(warmUp) s, then "
      + "≥ \(minimumTime) s and ≥ \(minimumIterations) iterations spread over \(rounds) rounds that take turns with the "
      + "other cells; the median iteration ÷ its posts. After every iteration, with the clock stopped, every observer's "
      + "counter is checked to equal the posts of its name (and the lifecycle to be active again), then reset.\n")
  print("| cell | per post (CPU, median) | per post (wall, median) | iterations | check |")
  print("|---|---:|---:|---:|---|")
  for cell in cells {
    if let failure = cell.failure {
      print("| \(cell.title) | — | — | \(cell.times.count) | FAILED: \(failure) |")
    } else {
      print(
        "| \(cell.title) | \(nanoseconds(cell.nanosecondsPerOperation)) | \(nanoseconds(cell.wallNanosecondsPerOperation)) "
          + "| \(cell.times.count) | \(cell.checkNote) |")
    }
  }
  print("")
  let byKey = Dictionary(uniqueKeysWithValues: cells.map { ($0.key, $0) })
  if let foundation = byKey["foundation"], let stasis = byKey["stasis"], foundation.failure == nil, stasis.failure == nil {
    let ratio = stasis.nanosecondsPerOperation / foundation.nanosecondsPerOperation
    let wallRatio = stasis.wallNanosecondsPerOperation / foundation.wallNanosecondsPerOperation
    let added = stasis.nanosecondsPerOperation - foundation.nanosecondsPerOperation
    var line = String(
      format: "**Stasis ÷ Foundation, %@ observers: %.3f×** (CPU; wall %.3f×), %@ added per transition. ", grouped(observerCount),
      ratio, wallRatio, added >= 0 ? nanoseconds(added) : "−" + nanoseconds(-added))
    if let foundation0 = byKey["foundation-0"], let stasis0 = byKey["stasis-0"], foundation0.failure == nil,
      stasis0.failure == nil
    {
      line += String(
        format: "Without observers a post costs %@ and a transition %@ (%.2f×): the application's own share is %@ per "
          + "transition, %.2f %% of a post to %@ observers.",
        nanoseconds(foundation0.nanosecondsPerOperation), nanoseconds(stasis0.nanosecondsPerOperation),
        stasis0.nanosecondsPerOperation / foundation0.nanosecondsPerOperation,
        nanoseconds(stasis0.nanosecondsPerOperation - foundation0.nanosecondsPerOperation),
        (stasis0.nanosecondsPerOperation - foundation0.nanosecondsPerOperation) / foundation.nanosecondsPerOperation * 100,
        grouped(observerCount))
    }
    print(line + "\n")
    verdicts.append(
      String(format: "Notification cost: Stasis ÷ Foundation = %.3f× (bar ≤ %.1f×): ", ratio, notificationBar)
        + yesNo(ratio <= notificationBar) + ".")
  } else {
    verdicts.append("Notification cost: a cell failed, **not met**.")
  }
}

if measureWarnings {
  print("### Memory-warning latency\n")
  if let warningSkipReason {
    print("Skipped: \(warningSkipReason).\n")
    verdicts.append("Warning latency: not measured (\(warningSkipReason)).")
  } else {
    // The source each child armed, its cgroup's path left out.
    let sources = Set(warnings.map { run in
      run.source.components(separatedBy: " of /").first ?? run.source
    }).sorted().joined(separator: "; ")
    print(
      "`stasis-lifecycle-child --host headless --cgroup DIR --memory auto --allocate \(allocateMiB)`, built in release in "
        + "the same scratch as this benchmark, run \(warningRuns) times, one at a time, each in a fresh memory cgroup "
        + "under this process's own with a \(limitMiB) MiB limit (removed after the run). The child joins the cgroup, "
        + "arms the best memory-pressure source it finds (here: \(sources) of its cgroup), allocates \(allocateMiB) MiB "
        + "(touched) every 20 ms until warned, then purges its cache and exits 0 a second later (\"survived\"). **Latency** is the child's "
        + "own figure (`warningLatencies`, its log's `latency` line): from the uptime at which its monitor thread's "
        + "`poll` on the kernel's eventfd returned to the start of the delivery on the main queue, just before the "
        + "delegate's `applicationDidReceiveMemoryWarning`. **From outside** checks the start of that interval: this "
        + "process arms its own monitor (Lifecycle's `MemoryPressureMonitor`, same source, same threshold) on the child's "
        + "cgroup, so the kernel wakes it on the same event, and the figure is the child's callback (the uptime in its "
        + "`didReceiveMemoryWarning` line) minus this process's wake-up; it also carries this process's own wake-up delay "
        + "(either way) and the cost of the child's log line. When it is the smaller, this process's thread was woken "
        + "later than the child's (it waited for a core); when it is the larger, the child's monitor thread was. Neither "
        + "sees the kernel's own delay between crossing the threshold and waking the eventfd's waiters.\n")
    print("| run | latency | from outside | held when warned | cgroup peak | OOM kills | exit | survived |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for run in warnings {
      let latency = run.latency.map { milliseconds(Double($0)) } ?? "—"
      let outside = run.outsideLatency.map { milliseconds(Double($0)) } ?? "—"
      let held = run.heldMiB.map { "\($0) MiB" } ?? "—"
      let peak = run.peakBytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "—"
      let oom = run.oomKills.map { "\($0)" } ?? "—"
      let status = run.status == -1 ? "timed out" : "\(run.status)"
      let survived = run.survived ? "yes" : "no" + (run.failure.map { " (\($0))" } ?? "")
      print("| \(run.index) | \(latency) | \(outside) | \(held) | \(peak) | \(oom) | \(status) | \(survived) |")
    }
    print("")
    // (Not `.map(Double.init)`: on UInt64 that picks `Double(bitPattern:)`.)
    let latencies = warnings.compactMap(\.latency).map { Double($0) }
    let outside = warnings.compactMap(\.outsideLatency).map { Double($0) }
    let conservative = warnings.compactMap(\.conservativeLatency)
    let survivors = warnings.filter(\.survived).count
    if latencies.isEmpty {
      print("No run logged a latency.\n")
      verdicts.append("Warning latency: no run was warned, **not met**.")
    } else {
      let middle = median(latencies)
      print(
        "**Latency, median of \(latencies.count): \(milliseconds(middle))** (min \(milliseconds(latencies.min()!)), "
          + "max \(milliseconds(latencies.max()!))); from outside: "
          + (outside.isEmpty
            ? "not observed"
            : "median \(milliseconds(median(outside))), min \(milliseconds(outside.min()!)), max \(milliseconds(outside.max()!))")
          + "; the larger of the two in each run (from the earlier wake-up): median \(milliseconds(median(conservative))), "
          + "max \(milliseconds(conservative.max()!))"
          + ". Survived: \(survivors) of \(warnings.count) runs (exit 0 after purging). Held when warned: median "
          + "\(Int(median(warnings.compactMap(\.heldMiB).map { Double($0) }))) MiB.\n")
      let complete = latencies.count == warningRuns
      let met = complete && middle <= latencyBarMilliseconds * 1e6
      verdicts.append(
        "Warning latency: median \(milliseconds(middle)) of \(latencies.count) warned runs"
          + (complete ? "" : " (\(warningRuns - latencies.count) runs without a warning)")
          + String(format: " (bar ≤ %.0f ms, median of %d): ", latencyBarMilliseconds, warningRuns) + yesNo(met)
          + "; the larger of the two figures in each run, median \(milliseconds(median(conservative))): "
          + yesNo(complete && median(conservative) <= latencyBarMilliseconds * 1e6)
          + "; the child survived \(survivors) of \(warnings.count) runs.")
    }
  }
}

// The figures for Benchmarks/results/lifecycle-bench.json (BENCH_RESULTS, set by run.sh): the cost
// of one post or transition per cell (Stasis's transition beside Foundation's post, with and
// without observers), and the memory-warning latency.
var resultsFile = ResultsFile(harness: "lifecycle-bench", loadAtStart: loadAtStart)
if measureNotifications {
  for cell in cells where cell.failure == nil {
    let system = cell.key.hasPrefix("stasis") ? "Stasis" : "Foundation NotificationCenter"
    let subject = cell.key.hasSuffix("-0") ? "no observers" : "\(grouped(observerCount)) observers"
    resultsFile.add(system: system, subject: subject, operation: "one post", value: cell.nanosecondsPerOperation, unit: "ns")
    resultsFile.add(system: system, subject: subject, operation: "one post", value: cell.wallNanosecondsPerOperation, unit: "ns", clock: "wall")
  }
}
if measureWarnings, warningSkipReason == nil {
  let latencies = warnings.compactMap(\.latency).map { Double($0) }
  if !latencies.isEmpty {
    resultsFile.add(
      system: "Stasis", subject: "\(latencies.count) warned runs", operation: "memory-warning latency, median", value: median(latencies) / 1e6, unit: "ms",
      clock: "wall")
  }
}
resultsFile.writeIfRequested(source: source)

print("### Bars\n")
for verdict in verdicts { print("- \(verdict)") }
