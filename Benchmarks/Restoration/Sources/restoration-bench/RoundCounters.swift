// What the kernel and the C library say about one timed round (restoration-bench --per-round):
// the process's user and system CPU time, its minor page faults and involuntary context switches
// (getrusage), the machine's steal time (/proc/stat), where the heap ends (sbrk(0)) and the
// resident set (/proc/self/statm), so that a slow round can be told apart from a fast one.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The counters read before or after a round.
struct RoundCounters {
  var userSeconds = 0.0
  var systemSeconds = 0.0
  var minorFaults = 0
  var involuntarySwitches = 0
  /// The machine's steal time in clock ticks (all processors), 0 when /proc/stat has none.
  var stealTicks = 0
  /// The end of the heap (`sbrk(0)`).
  var heapTop = 0
  /// The resident set in bytes (/proc/self/statm's second number, in pages).
  var resident = 0

  static func now() -> RoundCounters {
    var counters = RoundCounters()
    #if canImport(Glibc)
      var usage = rusage()
      getrusage(RUSAGE_SELF.rawValue, &usage)
      counters.userSeconds = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
      counters.systemSeconds = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
      counters.minorFaults = Int(usage.ru_minflt)
      counters.involuntarySwitches = Int(usage.ru_nivcsw)
      counters.heapTop = Int(bitPattern: sbrk(0))
      counters.resident = (Self.numbers(in: "/proc/self/statm", 2).last ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    #endif
    let cpu = Self.numbers(in: "/proc/stat", 9)
    counters.stealTicks = cpu.count == 9 ? cpu[8] : 0
    return counters
  }

  /// The first `count` fields of the file's first line, as numbers (0 for a field that is not
  /// one: /proc/stat's `cpu  user nice system idle iowait irq softirq steal` has its label
  /// first, so steal is field 9).
  private static func numbers(in path: String, _ count: Int) -> [Int] {
    guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 256), let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first
    else { return [] }
    return line.split(separator: " ").prefix(count).map { Int($0) ?? 0 }
  }
}

/// One timed round: its clocks and the counters' changes across it.
struct RoundRecord {
  var cpuMilliseconds: Double
  var wallMilliseconds: Double
  var before: RoundCounters
  var after: RoundCounters

  /// A table row: CPU, wall, user, system, faults, involuntary switches, steal ticks, the heap's
  /// top before the round and its change, the resident set before the round and its change.
  func row(_ label: String) -> String {
    String(
      format: "| %@ | %.2f | %.2f | %.2f | %.2f | %d | %d | %d | %@ | %+.0f | %.0f | %+.0f |", label, cpuMilliseconds, wallMilliseconds,
      (after.userSeconds - before.userSeconds) * 1_000, (after.systemSeconds - before.systemSeconds) * 1_000, after.minorFaults - before.minorFaults,
      after.involuntarySwitches - before.involuntarySwitches, after.stealTicks - before.stealTicks, String(before.heapTop, radix: 16),
      Double(after.heapTop - before.heapTop) / 1_024, Double(before.resident) / 1_024, Double(after.resident - before.resident) / 1_024)
  }

  static let header =
    "| round | CPU ms | wall ms | user ms | sys ms | minor faults | invol. switches | steal ticks | heap top before | top moved KB | resident KB before | resident moved KB |\n|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
}
