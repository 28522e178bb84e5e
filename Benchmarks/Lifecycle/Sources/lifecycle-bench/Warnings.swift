// Warning latency: the root package's stasis-lifecycle-child, run again and again in a fresh memory
// cgroup of its own, allocates until its memory-pressure monitor is woken by the kernel, and logs
// the delay from that wake-up to its delegate's didReceiveMemoryWarning. This process watches the
// same cgroup from outside (its own monitor on the same kernel event), which tells whether the
// child's monitor thread was itself woken late.
import BenchSupport
import Foundation
import Lifecycle
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A memory cgroup made for one child run under this process's memory cgroup (cgroup v1's memory
/// controller, else the v2 unified hierarchy), removed after.
struct MemoryCgroup {
  let path: String
  let isV1: Bool

  /// This process's memory cgroup folder and whether it is v1.
  static var parent: (path: String, isV1: Bool)? {
    guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
    let lines = text.split(separator: "\n")
    for line in lines {
      let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      if parts.count == 3, parts[1].split(separator: ",").contains("memory") {
        return ("/sys/fs/cgroup/memory" + parts[2], true)
      }
    }
    for line in lines where line.hasPrefix("0::") {
      let path = "/sys/fs/cgroup" + line.dropFirst(3)
      if FileManager.default.fileExists(atPath: path + "/cgroup.controllers") { return (path, false) }
    }
    return nil
  }

  /// Why no cgroup can be made here, or `nil` when one can.
  static func unavailableReason() -> String? {
    guard let (parent, _) = parent else { return "no memory cgroup in /proc/self/cgroup" }
    let probe = parent + "/stasis-lifecycle-bench-probe-\(getpid())"
    guard mkdir(probe, 0o755) == 0 else {
      return "cannot create a cgroup under \(parent): \(String(cString: strerror(errno)))"
    }
    rmdir(probe)
    return nil
  }

  init(name: String, limitBytes: Int) throws {
    guard let (parent, isV1) = Self.parent else { throw BenchFailure("no memory cgroup") }
    self.isV1 = isV1
    path = parent + "/" + name
    guard mkdir(path, 0o755) == 0 else { throw BenchFailure("cannot create \(path): \(String(cString: strerror(errno)))") }
    let limitFile = isV1 ? "memory.limit_in_bytes" : "memory.max"
    guard Self.write("\(limitBytes)", to: path + "/" + limitFile) else {
      rmdir(path)
      throw BenchFailure("cannot write \(path)/\(limitFile): \(String(cString: strerror(errno)))")
    }
  }

  static func write(_ text: String, to file: String) -> Bool {
    let descriptor = open(file, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return Glibc.write(descriptor, text, text.utf8.count) == text.utf8.count
  }

  /// A number in one of the cgroup's files (the first field of the line starting with `key` when given).
  func number(_ file: String, key: String? = nil) -> UInt64? {
    guard let text = try? String(contentsOfFile: path + "/" + file, encoding: .utf8) else { return nil }
    guard let key else { return UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
    for line in text.split(separator: "\n") where line.hasPrefix(key + " ") {
      return line.split(separator: " ").last.flatMap { UInt64($0) }
    }
    return nil
  }

  /// The most memory the cgroup was charged (v1 `memory.max_usage_in_bytes`, v2 `memory.peak`).
  var peakBytes: UInt64? { isV1 ? number("memory.max_usage_in_bytes") : number("memory.peak") }
  /// How many processes the kernel's OOM killer ended in the cgroup, when it says.
  var oomKills: UInt64? { isV1 ? number("memory.oom_control", key: "oom_kill") : number("memory.events", key: "oom_kill") }

  /// Removes the folder (a cgroup whose last process just exited can be busy for a moment).
  @discardableResult
  func remove() -> Bool {
    for _ in 0..<100 {
      if rmdir(path) == 0 || errno == ENOENT { return true }
      usleep(50_000)
    }
    return false
  }
}

/// What one child run showed.
struct WarningRun {
  var index: Int
  /// The exit code, 128 + the signal for a child ended by one, -1 when it was killed at the time-out.
  var status: Int32
  var survived: Bool
  /// The child's own figure: its monitor's wake-up to the delegate's callback, in nanoseconds.
  var latency: UInt64?
  /// The uptime at which the child's delegate was called (its log line), in nanoseconds.
  var callbackUptime: UInt64?
  /// The uptime at which this process's own monitor on the same cgroup was woken.
  var outsideWake: UInt64?
  var heldMiB: Int?
  var peakBytes: UInt64?
  var oomKills: UInt64?
  var source: String
  var wall: Double
  var failure: String?

  /// From this process's wake-up on the same kernel event to the child's callback, in nanoseconds.
  var outsideLatency: Int64? {
    guard let callbackUptime, let outsideWake else { return nil }
    return Int64(bitPattern: callbackUptime &- outsideWake)
  }

  /// The larger of the two figures: from the earlier of the two wake-ups on the kernel's event (the
  /// child's monitor or this process's) to the callback, near enough (the child's figure ends
  /// where delivery starts, a few microseconds before its log line's uptime).
  var conservativeLatency: Double? {
    guard let latency else { return nil }
    return max(Double(latency), outsideLatency.map { Double($0) } ?? 0)
  }
}

/// Runs `arguments` with standard input from /dev/null and output into `outputPath`, waits at most
/// `timeout` seconds (then kills it); the exit code (128 + signal; -1 at the time-out) and wall time.
func runChild(_ arguments: [String], outputPath: String, timeout: Double) throws -> (status: Int32, wall: Double) {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_adddup2(&actions, 1, 2)
  let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  let start = wallNow()
  let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
  guard spawned == 0 else { throw BenchFailure("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
  var status: Int32 = 0
  var timedOut = false
  while true {
    let reaped = waitpid(pid, &status, WNOHANG)
    if reaped == pid { break }
    if reaped < 0 && errno != EINTR { throw BenchFailure("waitpid failed: \(String(cString: strerror(errno)))") }
    if !timedOut && wallNow() - start > timeout {
      timedOut = true
      kill(pid, SIGKILL)
    }
    usleep(20_000)
  }
  let wall = wallNow() - start
  if timedOut { return (-1, wall) }
  // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
  return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), wall)
}

/// One run: a fresh cgroup of `limitBytes`, this process's monitor armed on it, the child started in
/// it (`--host headless --cgroup DIR --memory auto --allocate STEP`), its log read back.
func warningRun(
  index: Int, child: String, limitBytes: Int, allocateMiB: Int, timeout: Double, folder: String
) -> WarningRun {
  var run = WarningRun(index: index, status: -2, survived: false, source: "?", wall: 0)
  let cgroup: MemoryCgroup
  do {
    cgroup = try MemoryCgroup(name: "stasis-lifecycle-bench-\(getpid())-\(index)", limitBytes: limitBytes)
  } catch {
    run.failure = "\(error)"
    return run
  }
  defer {
    if !cgroup.remove() { progress("warning: could not remove \(cgroup.path)") }
  }
  // The same event the child will arm (`MemoryPressureSource.available()` in the child: the v1
  // usage threshold at 80 % of the limit, or the v2 PSI trigger), watched from this process.
  let outsideSource: MemoryPressureSource =
    cgroup.isV1
    ? .cgroupV1UsageThreshold(path: cgroup.path, bytes: UInt64(limitBytes) / 10 * 8)
    : .cgroupV2PSI(path: cgroup.path + "/memory.pressure")
  let outsideWake = Mutex<UInt64?>(nil)
  let monitor = try? MemoryPressureMonitor(source: outsideSource, episodeGap: 60) { seen in
    outsideWake.withLock { if $0 == nil { $0 = seen } }
  }
  let log = folder + "/run-\(index).log"
  unlink(log)
  do {
    let result = try runChild(
      [child, "--log", log, "--host", "headless", "--cgroup", cgroup.path, "--memory", "auto", "--allocate", "\(allocateMiB)"],
      outputPath: folder + "/run-\(index).out", timeout: timeout)
    run.status = result.status
    run.wall = result.wall
  } catch {
    run.failure = "\(error)"
  }
  monitor?.stop()
  run.outsideWake = outsideWake.withLock { $0 }
  run.peakBytes = cgroup.peakBytes
  run.oomKills = cgroup.oomKills
  let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  run.source = lines.first { $0.hasPrefix("memory pressure:") }.map { String($0.dropFirst("memory pressure: ".count)) } ?? "?"
  if let line = lines.first(where: { $0.hasPrefix("latency ") }) {
    let fields = line.split(separator: " ")
    run.latency = fields.count > 1 ? UInt64(fields[1]) : nil
    run.heldMiB = fields.count > 3 ? Int(fields[3]) : nil
  }
  if let line = lines.first(where: { $0.hasPrefix("didReceiveMemoryWarning ") }) {
    run.callbackUptime = line.split(separator: " ").last.flatMap { UInt64($0) }
  }
  run.survived = run.status == 0 && lines.contains("survived")
  if run.failure == nil {
    if run.status == -1 {
      run.failure = "timed out after \(timeout) s"
    } else if run.latency == nil {
      run.failure = "no latency line (exit \(run.status)); log: \(lines.suffix(3).joined(separator: " | "))"
    }
  }
  return run
}
