internal import Synchronization

#if os(Linux)
  internal import CEventFD
#endif

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The kernel's low-memory sources on Linux (see ``MemoryPressurePort``), in the order they are
/// tried (each becomes UIKit's low-memory warning, `applicationDidReceiveMemoryWarning`):
///
/// 1. cgroup v2: the `high` count of the process's cgroup `memory.events` (the kernel signals
///    the file's change through `poll`; its `high` count rises when usage goes over
///    `memory.high`), then a PSI trigger on the cgroup's `memory.pressure`;
/// 2. cgroup v1, when the cgroup has a memory limit: a usage threshold (80 % of the limit) on
///    `memory.usage_in_bytes` through `cgroup.event_control` and an eventfd — the early warning
///    that comes before the OOM killer when there is nothing to reclaim (no swap, anonymous
///    memory), where `memory.pressure_level` stays silent;
/// 3. cgroup v1: `memory.pressure_level` through `cgroup.event_control` and an eventfd;
/// 4. system-wide PSI: a trigger on `/proc/pressure/memory`;
/// 5. `MemAvailable` in `/proc/meminfo` under a threshold, polled.
///
/// Each watch runs on a thread of its own that blocks the signals the lifecycle hosts handle
/// (they are for the main queue's signal sources).
public struct KernelMemoryPressure: MemoryPressurePort {
  public init() {}

  public func availableSources(level: String = "medium") -> [MemoryPressureSource] {
    var sources: [MemoryPressureSource] = []
    let (v2, v1) = Self.ownCgroups()
    if let v2 {
      if access(v2 + "/memory.events", F_OK) == 0 { sources.append(.cgroupV2HighEvents(path: v2 + "/memory.events")) }
      sources.append(.cgroupV2PSI(path: v2 + "/memory.pressure"))
    }
    if let v1, access(v1 + "/cgroup.event_control", W_OK) == 0 {
      if let limit = Self.readSmallFile(v1 + "/memory.limit_in_bytes").flatMap({ UInt64(Self.trimmed($0)) }), limit < 1 << 60 {
        sources.append(.cgroupV1UsageThreshold(path: v1, bytes: limit / 10 * 8))
      }
      sources.append(.cgroupV1PressureLevel(path: v1, level: level))
    }
    if access("/proc/pressure/memory", W_OK) == 0 { sources.append(.systemPSI(path: "/proc/pressure/memory")) }
    sources.append(.memAvailable(thresholdBytes: 256 << 20, interval: 1))
    return sources
  }

  public func watch(
    _ source: MemoryPressureSource, clock: MonotonicClock, onEvent: @escaping @Sendable (MonotonicInstant) -> Void
  ) throws(AtomicFileError) -> any MemoryPressureWatch {
    var descriptors: [Int32] = []
    switch source {
    case .cgroupV2PSI(let path), .systemPSI(let path):
      // A trigger: 100 ms of "some" stall within any 1 s window.
      let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.failure(path, "cannot open the pressure file") }
      let trigger = "some 100000 1000000"
      guard write(descriptor, trigger, trigger.utf8.count + 1) > 0 else {
        let error = Self.failure(path, "the kernel refused the trigger \"\(trigger)\"")
        close(descriptor)
        throw error
      }
      descriptors = [descriptor]
    case .cgroupV2HighEvents(let path):
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.failure(path, "cannot open memory.events") }
      descriptors = [descriptor]
    case .cgroupV1PressureLevel(let path, let level):
      descriptors = try Self.registerV1Event(cgroup: path, file: "memory.pressure_level", argument: level)
    case .cgroupV1UsageThreshold(let path, let bytes):
      descriptors = try Self.registerV1Event(cgroup: path, file: "memory.usage_in_bytes", argument: "\(bytes)")
    case .memAvailable:
      descriptors = []
    }
    let watcher = KernelMemoryWatch(source: source, descriptors: descriptors, clock: clock, onEvent: onEvent)
    watcher.start()
    return watcher
  }

  /// Registers an eventfd for a cgroup v1 notification (`<eventfd> <file fd> <argument>` written
  /// to `cgroup.event_control`); answers the eventfd, then the file's descriptor.
  private static func registerV1Event(cgroup path: String, file: String, argument: String) throws(AtomicFileError) -> [Int32] {
    let watched = open(path + "/" + file, O_RDONLY | O_CLOEXEC)
    guard watched >= 0 else { throw failure(path + "/" + file, "cannot open the cgroup file") }
    #if os(Linux)
      let event = eventfd(0, Int32(EFD_CLOEXEC))
    #else
      errno = ENOSYS
      let event: Int32 = -1  // cgroups and eventfd(2) are Linux's
    #endif
    guard event >= 0 else {
      let error = failure(path, "cannot make an eventfd")
      close(watched)
      throw error
    }
    let control = open(path + "/cgroup.event_control", O_WRONLY | O_CLOEXEC)
    let line = "\(event) \(watched) \(argument)"
    guard control >= 0, write(control, line, line.utf8.count) > 0 else {
      let error = failure(path + "/cgroup.event_control", "cannot register for \(file) \(argument)")
      if control >= 0 { close(control) }
      close(watched)
      close(event)
      throw error
    }
    close(control)
    return [event, watched]
  }

  private static func failure(_ path: String, _ what: String) -> AtomicFileError {
    let number = errno
    return AtomicFileError(AtomicFileError.code(for: number), path: path, systemError: number, detail: what)
  }

  /// The cgroup folders of this process: (v2 unified path or nil, v1 memory controller path or nil).
  static func ownCgroups() -> (v2: String?, v1Memory: String?) {
    guard let text = readSmallFile("/proc/self/cgroup") else { return (nil, nil) }
    var v2: String?
    var v1: String?
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3 else { continue }
      let path = String(parts[2])
      if parts[0] == "0" && parts[1].isEmpty {
        for root in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] where access(root + path + "/memory.pressure", F_OK) == 0 {
          v2 = root + path
          break
        }
      }
      if parts[1].split(separator: ",").contains("memory") { v1 = "/sys/fs/cgroup/memory" + path }
    }
    return (v2, v1)
  }

  /// A small kernel file (`/proc`, `/sys`) as text, read to its end; `nil` when it cannot be read.
  static func readSmallFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 1 << 20 {
      let count = read(descriptor, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func trimmed(_ text: some StringProtocol) -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    let body = text.drop(while: isSpace)
    return Substring(body.reversed().drop(while: isSpace).reversed())
  }

  /// `MemAvailable` of `/proc/meminfo`, in bytes.
  static func memAvailable() -> UInt64? {
    guard let text = readSmallFile("/proc/meminfo") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
      let number = line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }
      return number.map { $0 * 1024 }
    }
    return nil
  }
}
