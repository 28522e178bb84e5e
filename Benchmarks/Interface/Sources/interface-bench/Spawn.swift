// Whole-process runs of a tool: posix_spawn, then wait4 for the exit status and the child's
// resource usage, with the monotonic clock read around the two.
import StasisSystem
import BenchSupport
import PropertyLists

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One process run from spawn to reaped.
struct ProcessRun {
  /// The exit code, or 128 + the signal for a child killed by one.
  var status: Int32
  /// Seconds of wall time (`CLOCK_MONOTONIC`) from before `posix_spawn` to after `wait4`.
  var wall: Double
  /// Seconds of the child's CPU time (user + system, from `wait4`'s rusage).
  var cpu: Double
  /// The child's peak resident set in bytes: rusage's `ru_maxrss`, which Linux takes from the same
  /// high-water mark as /proc/PID/status's `VmHWM` (read at exit).
  var peakResident: Int
  var succeeded: Bool { status == 0 }
}

/// Runs `arguments[0]` (a path, or a name looked up in PATH) with the rest as its arguments, standard input from /dev/null and
/// standard output and error into `outputPath` (both, /dev/null by default), and waits for it.
func runProcess(_ arguments: [String], outputPath: String = "/dev/null") -> ProcessRun {
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
  let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
  guard spawned == 0 else { fail("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 {
    guard errno == EINTR else { fail("wait4 failed: \(String(cString: strerror(errno)))") }
  }
  let wall = wallNow() - start
  let cpu =
    Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6 + Double(usage.ru_stime.tv_sec)
    + Double(usage.ru_stime.tv_usec) * 1e-6
  // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
  let exitCode: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  return ProcessRun(status: exitCode, wall: wall, cpu: cpu, peakResident: Int(usage.ru_maxrss) * 1024)
}

/// The first error description in ibtool's report (its property list on standard output), or
/// the first line of what it printed.
func firstErrorDescription(inFile path: String) -> String {
  guard let bytes = readFileBytes(path), !bytes.isEmpty else { return "(nothing printed)" }
  if let report = try? PropertyListValue(decoding: bytes),
    let description = report["com.apple.ibtool.errors"]?.arrayValue?.first?["description"]?.stringValue
  {
    return description
  }
  return String(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? "")
}

/// A whole file, or `nil` (through the project's own bounded reader).
func readFileBytes(_ path: String) -> [UInt8]? {
  (try? AtomicFile.read(contentsOfFile: path, limit: 1 << 30)).map { [UInt8]($0) }
}
