// stasis-lifecycle-child: an app run by a real Lifecycle host, for the lifecycle tests. It logs
// every callback, one line each ("<callback> <state> <uptime ns>"), to --log, and does what its
// flags say in the background and under memory pressure.
//
//   stasis-lifecycle-child --log PATH [--host headless|terminal] [--callback-seconds S]
//     [--task NAME:SECONDS ...] [--limit S] [--budget S] [--grace S] [--logs DIR]
//     [--memory auto|cgroup-v1|cgroup-v1-threshold|system-psi|none] [--cgroup DIR] [--allocate MIB]
//     [--hold SECONDS]   (after the warning and the purge, before exiting; 1 by default)
import Foundation
@_spi(Testing) import Lifecycle
import StasisSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The command line and the log, shared by the delegate, the timers and the watchdog's queue.
enum Child {
  static let arguments = Array(CommandLine.arguments.dropFirst())
  static func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
  }
  static func options(_ name: String) -> [String] {
    arguments.indices.filter { arguments[$0] == name && $0 + 1 < arguments.count }.map { arguments[$0 + 1] }
  }
  static let logDescriptor: Int32 = {
    guard let path = option("--log") else {
      FileHandle.standardError.write(Data("usage: stasis-lifecycle-child --log PATH [options]\n".utf8))
      exit(64)
    }
    return open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
  }()
  /// Memory the app holds and can give back: 1 MiB blocks, touched so that they are resident.
  static let cache = Cache<Int, [UInt8]>()
}

/// Appends one line to the log (a single write, so lines from the watchdog's queue stay whole).
@Sendable func log(_ line: String) {
  let text = line + "\n"
  _ = text.withCString { write(Child.logDescriptor, $0, strlen($0)) }
}
func option(_ name: String) -> String? { Child.option(name) }
let cache = Child.cache
_ = Child.logDescriptor

final class ChildDelegate: ApplicationDelegate {
  func record(_ callback: String, _ lifecycle: ApplicationLifecycle) {
    log("\(callback) \(lifecycle.state.rawValue) \(DispatchTime.now().uptimeNanoseconds)")
  }
  func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    record("willFinishLaunching", lifecycle)
    return true
  }
  func applicationDidFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    record("didFinishLaunching", lifecycle)
    if let url = options.url { log("url \(url.absoluteString)") }
    return true
  }
  func applicationDidBecomeActive(_ lifecycle: ApplicationLifecycle) { record("didBecomeActive", lifecycle) }
  func applicationWillResignActive(_ lifecycle: ApplicationLifecycle) { record("willResignActive", lifecycle) }
  func applicationDidEnterBackground(_ lifecycle: ApplicationLifecycle) {
    record("didEnterBackground", lifecycle)
    for spec in Child.options("--task") {
      let parts = spec.split(separator: ":")
      let name = String(parts.first ?? "task")
      let seconds = parts.count > 1 ? Double(parts[1]) ?? 0 : 0
      let identifier = lifecycle.beginBackgroundTask(withName: name) { log("expired \(name)") }
      log("began \(name) \(identifier.rawValue)")
      if seconds >= 0 {
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
          log("ended \(name)")
          lifecycle.endBackgroundTask(identifier)
        }
      }
    }
    if let seconds = Child.option("--callback-seconds").flatMap(Double.init) { usleep(UInt32(seconds * 1e6)) }
    log("returned didEnterBackground")
  }
  func applicationWillEnterForeground(_ lifecycle: ApplicationLifecycle) { record("willEnterForeground", lifecycle) }
  func applicationWillTerminate(_ lifecycle: ApplicationLifecycle) { record("willTerminate", lifecycle) }
  func applicationDidReceiveMemoryWarning(_ lifecycle: ApplicationLifecycle) {
    let held = Child.cache.totalCost >> 20
    record("didReceiveMemoryWarning", lifecycle)
    log("latency \(lifecycle.warningLatencies.last ?? 0) held \(held)")
  }
}

// Join a memory cgroup first, so that the pressure watched is this process's own.
if let cgroup = option("--cgroup") {
  let pid = "\(getpid())"
  let descriptor = open(cgroup + "/cgroup.procs", O_WRONLY)
  guard descriptor >= 0, write(descriptor, pid, pid.utf8.count) > 0 else {
    log("error cannot join \(cgroup)")
    exit(3)
  }
  close(descriptor)
}

var configuration = ApplicationLifecycle.Configuration()
if let limit = option("--limit").flatMap(Double.init) { configuration.backgroundCallbackLimit = limit }
if let budget = option("--budget").flatMap(Double.init) { configuration.backgroundTimeBudget = budget }
if let grace = option("--grace").flatMap(Double.init) { configuration.expirationGrace = grace }
configuration.logsFolder = option("--logs")
let lifecycle = ApplicationLifecycle(delegate: ChildDelegate(), configuration: configuration)
lifecycle.registerPurgeable(cache)

let host: LifecycleHost = option("--host") == "terminal" ? TerminalHost(lifecycle: lifecycle) : HeadlessHost(lifecycle: lifecycle)
if let terminal = host as? TerminalHost {
  terminal.inputHandler = { bytes in log("input \(String(decoding: bytes, as: UTF8.self))") }
}
switch option("--memory") ?? "none" {
case "none": break
case "auto": host.watchMemoryPressure()
case "cgroup-v1":
  host.watchMemoryPressure(source: .cgroupV1PressureLevel(path: option("--cgroup") ?? "/sys/fs/cgroup/memory", level: option("--level") ?? "medium"))
case "cgroup-v1-threshold":
  let megabytes = option("--threshold-mib").flatMap(UInt64.init) ?? 100
  host.watchMemoryPressure(source: .cgroupV1UsageThreshold(path: option("--cgroup") ?? "/sys/fs/cgroup/memory", bytes: megabytes << 20))
case "system-psi": host.watchMemoryPressure(source: .systemPSI(path: "/proc/pressure/memory"))
case let other:
  log("error unknown memory source \(other)")
  exit(64)
}
log(host.memorySourceReport)

if let step = option("--allocate").flatMap(Int.init) {
  // Allocate `step` MiB every 20 ms while no warning has come; after the warning, hold on for a
  // second (surviving is the point) and exit.
  var next = 0
  let timer = DispatchSource.makeTimerSource(queue: .main)
  timer.schedule(deadline: .now() + 0.2, repeating: 0.02)
  timer.setEventHandler {
    if lifecycle.memoryWarningCount > 0 {
      timer.cancel()
      log("purged, holding \(cache.totalCost >> 20) MiB")
      DispatchQueue.main.asyncAfter(deadline: .now() + (option("--hold").flatMap(Double.init) ?? 1)) {
        log("survived")
        exit(0)
      }
      return
    }
    for _ in 0..<step {
      var block = [UInt8](repeating: 0, count: 1 << 20)
      for page in stride(from: 0, to: block.count, by: 4096) { block[page] = UInt8(truncatingIfNeeded: next &+ page) }
      cache.setValue(block, forKey: next, cost: block.count)
      next += 1
    }
  }
  timer.resume()
}

host.run(options: LaunchOptions(commandLine: Child.arguments))
