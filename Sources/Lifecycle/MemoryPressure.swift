internal import Foundation
internal import Synchronization
internal import CEventFD

#if canImport(Glibc)
  internal import Glibc
#endif

/// Where low-memory signals come from on Linux, in the order they are tried (each becomes UIKit's
/// low-memory warning, `applicationDidReceiveMemoryWarning`):
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
public enum MemoryPressureSource: Sendable, Hashable, CustomStringConvertible {
  case cgroupV2HighEvents(path: String)
  case cgroupV2PSI(path: String)
  case cgroupV1UsageThreshold(path: String, bytes: UInt64)
  case cgroupV1PressureLevel(path: String, level: String)
  case systemPSI(path: String)
  case memAvailable(thresholdBytes: UInt64, interval: Double)

  public var description: String {
    switch self {
    case .cgroupV2HighEvents(let path): "cgroup v2 memory.events high count of \(path)"
    case .cgroupV2PSI(let path): "cgroup v2 PSI trigger on \(path)"
    case .cgroupV1UsageThreshold(let path, let bytes): "cgroup v1 usage threshold \(bytes / 1_048_576) MiB of \(path)"
    case .cgroupV1PressureLevel(let path, let level): "cgroup v1 memory.pressure_level (\(level)) of \(path)"
    case .systemPSI(let path): "system PSI trigger on \(path)"
    case .memAvailable(let threshold, let interval): "MemAvailable under \(threshold / 1_048_576) MiB, every \(interval) s"
    }
  }

  /// The cgroup folders of this process: (v2 unified path or nil, v1 memory controller path or nil).
  static func ownCgroups() -> (v2: String?, v1Memory: String?) {
    guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return (nil, nil) }
    var v2: String?
    var v1: String?
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3 else { continue }
      let path = String(parts[2])
      if parts[0] == "0" && parts[1].isEmpty {
        for root in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] where FileManager.default.fileExists(atPath: root + path + "/memory.pressure") {
          v2 = root + path
          break
        }
      }
      if parts[1].split(separator: ",").contains("memory") { v1 = "/sys/fs/cgroup/memory" + path }
    }
    return (v2, v1)
  }

  /// The sources this machine offers, best first.
  public static func available(level: String = "medium") -> [MemoryPressureSource] {
    var sources: [MemoryPressureSource] = []
    let (v2, v1) = ownCgroups()
    if let v2 {
      if FileManager.default.fileExists(atPath: v2 + "/memory.events") { sources.append(.cgroupV2HighEvents(path: v2 + "/memory.events")) }
      sources.append(.cgroupV2PSI(path: v2 + "/memory.pressure"))
    }
    if let v1, access(v1 + "/cgroup.event_control", W_OK) == 0 {
      if let limit = (try? String(contentsOfFile: v1 + "/memory.limit_in_bytes", encoding: .utf8))
        .flatMap({ UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }), limit < 1 << 60
      {
        sources.append(.cgroupV1UsageThreshold(path: v1, bytes: limit / 10 * 8))
      }
      sources.append(.cgroupV1PressureLevel(path: v1, level: level))
    }
    if access("/proc/pressure/memory", W_OK) == 0 { sources.append(.systemPSI(path: "/proc/pressure/memory")) }
    sources.append(.memAvailable(thresholdBytes: 256 << 20, interval: 1))
    return sources
  }
}

/// Watches one ``MemoryPressureSource`` on a thread of its own and calls `onPressure` with the
/// uptime (nanoseconds) at which the kernel's event was seen, once per episode: events closer
/// than ``episodeGap`` seconds to the previous one belong to the same episode. A usage threshold
/// counts only when the usage is at or above it (the kernel also signals the way back down).
/// The thread ends within a second of ``stop()`` or of the monitor going away.
public final class MemoryPressureMonitor: @unchecked Sendable {
  /// The source in use.
  public let source: MemoryPressureSource
  /// Seconds without an event after which the next event starts a new episode.
  public let episodeGap: Double
  private let watcher: Watcher

  /// Opens and arms `source`.
  ///
  /// - Throws: `LifecycleError.Code.memorySourceUnavailable` naming the file that could not be
  ///   opened or written.
  public init(source: MemoryPressureSource, episodeGap: Double = 2, onPressure: @escaping @Sendable (UInt64) -> Void) throws(LifecycleError) {
    self.source = source
    self.episodeGap = episodeGap
    var descriptors: [Int32] = []
    switch source {
    case .cgroupV2PSI(let path), .systemPSI(let path):
      // A trigger: 100 ms of "some" stall within any 1 s window.
      let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.unavailable(path, "cannot open") }
      let trigger = "some 100000 1000000"
      guard write(descriptor, trigger, trigger.utf8.count + 1) > 0 else {
        close(descriptor)
        throw Self.unavailable(path, "the kernel refused the trigger \"\(trigger)\"")
      }
      descriptors = [descriptor]
    case .cgroupV2HighEvents(let path):
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw Self.unavailable(path, "cannot open") }
      descriptors = [descriptor]
    case .cgroupV1PressureLevel(let path, let level):
      descriptors = try Self.registerV1Event(cgroup: path, file: "memory.pressure_level", argument: level)
    case .cgroupV1UsageThreshold(let path, let bytes):
      descriptors = try Self.registerV1Event(cgroup: path, file: "memory.usage_in_bytes", argument: "\(bytes)")
    case .memAvailable:
      descriptors = []
    }
    // The thread holds the watcher, not the monitor, so that dropping the monitor stops it.
    watcher = Watcher(source: source, descriptors: descriptors, gap: UInt64(episodeGap * 1e9), onPressure: onPressure)
    let watcher = self.watcher
    let thread = Thread { watcher.run() }
    thread.name = "org.stasis.lifecycle.memory-pressure"
    thread.start()
  }

  /// The first source of ``MemoryPressureSource/available(level:)`` that can be armed.
  public static func best(episodeGap: Double = 2, onPressure: @escaping @Sendable (UInt64) -> Void) -> MemoryPressureMonitor? {
    for source in MemoryPressureSource.available() {
      if let monitor = try? MemoryPressureMonitor(source: source, episodeGap: episodeGap, onPressure: onPressure) { return monitor }
    }
    return nil
  }

  /// Registers an eventfd for a cgroup v1 notification (`<eventfd> <file fd> <argument>` written
  /// to `cgroup.event_control`); answers the eventfd, then the file's descriptor.
  private static func registerV1Event(cgroup path: String, file: String, argument: String) throws(LifecycleError) -> [Int32] {
    let watched = open(path + "/" + file, O_RDONLY | O_CLOEXEC)
    guard watched >= 0 else { throw unavailable(path + "/" + file, "cannot open") }
    let event = eventfd(0, Int32(EFD_CLOEXEC))
    guard event >= 0 else {
      close(watched)
      throw unavailable(path, "cannot make an eventfd")
    }
    let control = open(path + "/cgroup.event_control", O_WRONLY | O_CLOEXEC)
    let line = "\(event) \(watched) \(argument)"
    guard control >= 0, write(control, line, line.utf8.count) > 0 else {
      if control >= 0 { close(control) }
      close(watched)
      close(event)
      throw unavailable(path + "/cgroup.event_control", "cannot register for \(file) \(argument)")
    }
    close(control)
    return [event, watched]
  }

  private static func unavailable(_ path: String, _ what: String) -> LifecycleError {
    LifecycleError(.memorySourceUnavailable, detail: "\(what): \(String(cString: strerror(errno)))", path: path)
  }

  /// Stops watching (the thread ends within a second and closes the descriptors).
  public func stop() { watcher.stopping.store(true, ordering: .relaxed) }

  deinit { stop() }

  /// The thread's side: the descriptors, the stop flag and the wait for events.
  final class Watcher: Sendable {
    let source: MemoryPressureSource
    let descriptors: [Int32]
    let gap: UInt64
    let onPressure: @Sendable (UInt64) -> Void
    let stopping = Atomic<Bool>(false)

    init(source: MemoryPressureSource, descriptors: [Int32], gap: UInt64, onPressure: @escaping @Sendable (UInt64) -> Void) {
      self.source = source
      self.descriptors = descriptors
      self.gap = gap
      self.onPressure = onPressure
    }

    /// The last `high` count read from a cgroup v2 `memory.events`.
    private let highCount = Atomic<Int>(-1)
    /// Whether a cgroup v1 usage is above its threshold: the kernel signals every crossing, up
    /// and down, and the eventfd's count says how many there were since the last read.
    private let aboveThreshold = Atomic<Bool>(false)

    func run() {
      // The hosts' signals are for the main queue's dispatch sources: this thread never takes
      // one (a signal delivered here before a source is armed would be lost).
      var hostSignals = sigset_t()
      sigemptyset(&hostSignals)
      for signal in [SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGUSR2, SIGCONT, SIGTSTP] { sigaddset(&hostSignals, signal) }
      pthread_sigmask(SIG_BLOCK, &hostSignals, nil)
      if case .cgroupV2HighEvents = source { highCount.store(Self.highEvents(descriptors[0]) ?? 0, ordering: .relaxed) }
      if case .cgroupV1UsageThreshold(_, let threshold) = source {
        aboveThreshold.store((Self.usage(descriptors[1]) ?? 0) >= threshold, ordering: .relaxed)
      }
      var lastEvent: UInt64 = 0
      defer { for descriptor in descriptors { close(descriptor) } }
      while !stopping.load(ordering: .relaxed) {
        guard let seen = waitForEvent() else { continue }
        if lastEvent == 0 || seen - lastEvent > gap { onPressure(seen) }
        lastEvent = seen
      }
    }

    /// Waits up to a second for the source's next event; the uptime at which it was seen.
    private func waitForEvent() -> UInt64? {
      switch source {
      case .cgroupV2PSI, .systemPSI:
        var poller = pollfd(fd: descriptors[0], events: Int16(POLLPRI), revents: 0)
        guard poll(&poller, 1, 1000) > 0 else { return nil }
        if poller.revents & Int16(POLLERR) != 0 {
          stopping.store(true, ordering: .relaxed)
          return nil
        }
        return poller.revents & Int16(POLLPRI) != 0 ? DispatchTime.now().uptimeNanoseconds : nil
      case .cgroupV2HighEvents:
        // The file's change is signalled as POLLPRI|POLLERR; only a rise of `high` is pressure.
        var poller = pollfd(fd: descriptors[0], events: Int16(POLLPRI), revents: 0)
        guard poll(&poller, 1, 1000) > 0 else { return nil }
        let seen = DispatchTime.now().uptimeNanoseconds
        guard let count = Self.highEvents(descriptors[0]) else { return nil }
        let previous = highCount.exchange(count, ordering: .relaxed)
        return count > previous ? seen : nil
      case .cgroupV1PressureLevel, .cgroupV1UsageThreshold:
        var poller = pollfd(fd: descriptors[0], events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) > 0 else { return nil }
        let seen = DispatchTime.now().uptimeNanoseconds
        var count: UInt64 = 0
        _ = read(descriptors[0], &count, 8)
        if case .cgroupV1UsageThreshold = source {
          // Crossings alternate, up and down: pressure is a crossing up from below (reading the
          // usage instead would be racy — it may already read just under the threshold).
          let wasAbove = aboveThreshold.load(ordering: .relaxed)
          if count % 2 == 1 { aboveThreshold.store(!wasAbove, ordering: .relaxed) }
          guard !wasAbove, count >= 1 else { return nil }
        }
        return seen
      case .memAvailable(let threshold, let interval):
        usleep(UInt32(max(0.01, min(interval, 1)) * 1e6))
        guard let available = MemoryPressureMonitor.memAvailable(), available < threshold else { return nil }
        return DispatchTime.now().uptimeNanoseconds
      }
    }

    /// The `high` line of a cgroup v2 `memory.events`, read again from its start.
    static func highEvents(_ descriptor: Int32) -> Int? {
      var buffer = [UInt8](repeating: 0, count: 512)
      let count = pread(descriptor, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") where line.hasPrefix("high ") {
        return Int(line.dropFirst(5))
      }
      return nil
    }

    /// The number in a cgroup file (`memory.usage_in_bytes`), read again from its start.
    static func usage(_ descriptor: Int32) -> UInt64? {
      var buffer = [UInt8](repeating: 0, count: 32)
      let count = pread(descriptor, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      return UInt64(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }

  /// `MemAvailable` of `/proc/meminfo`, in bytes.
  static func memAvailable() -> UInt64? {
    guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
      let number = line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }
      return number.map { $0 * 1024 }
    }
    return nil
  }
}

/// A cache whose entries go when memory runs low (`NSCache`'s role): a total-cost limit (the
/// least recently used entries go first when it is exceeded) and ``purge()`` on a memory
/// warning. Register it with ``ApplicationLifecycle/registerPurgeable(_:)``.
public final class Cache<Key: Hashable & Sendable, Value>: Purgeable, @unchecked Sendable {
  private struct Entry {
    var value: Value
    var cost: Int
    var lastUse: UInt64
  }
  private let lock = Mutex<Void>(())
  private var entries: [Key: Entry] = [:]
  private var clock: UInt64 = 0
  /// The total cost the cache holds at most (0: no limit).
  public var totalCostLimit: Int
  /// The cost of what the cache holds now.
  public private(set) var totalCost = 0
  /// How many times the cache was purged.
  public private(set) var purgeCount = 0

  public init(totalCostLimit: Int = 0) {
    self.totalCostLimit = totalCostLimit
  }

  /// The value for `key`, if the cache still holds it.
  public func value(forKey key: Key) -> Value? {
    lock.withLock { _ in
      clock += 1
      entries[key]?.lastUse = clock
      return entries[key]?.value
    }
  }

  /// Keeps `value` for `key` at `cost` (`setObject:forKey:cost:`), evicting the least recently
  /// used entries while the total cost is over the limit.
  public func setValue(_ value: Value, forKey key: Key, cost: Int = 0) {
    lock.withLock { _ in
      clock += 1
      if let old = entries[key] { totalCost -= old.cost }
      entries[key] = Entry(value: value, cost: cost, lastUse: clock)
      totalCost += cost
      while totalCostLimit > 0, totalCost > totalCostLimit, entries.count > 1,
        let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
      {
        totalCost -= entries.removeValue(forKey: oldest)?.cost ?? 0
      }
    }
  }

  /// Drops `key`.
  public func removeValue(forKey key: Key) {
    lock.withLock { _ in totalCost -= entries.removeValue(forKey: key)?.cost ?? 0 }
  }

  /// How many entries the cache holds.
  public var count: Int { lock.withLock { _ in entries.count } }

  /// Drops everything (the memory warning).
  public func purge() {
    lock.withLock { _ in
      entries.removeAll()
      totalCost = 0
      purgeCount += 1
    }
  }
}
