/// A low-memory source of the kernel (see ``MemoryPressurePort/availableSources(level:)``), as
/// UIKit's `applicationDidReceiveMemoryWarning` stands for it on Linux.
public enum MemoryPressureSource: Sendable, Hashable, CustomStringConvertible {
  /// cgroup v2: rises of the `high` count in the cgroup's `memory.events`.
  case cgroupV2HighEvents(path: String)
  /// cgroup v2: a PSI trigger on the cgroup's `memory.pressure`.
  case cgroupV2PSI(path: String)
  /// cgroup v1: usage crossing `bytes` upwards (`memory.usage_in_bytes`, `cgroup.event_control`).
  case cgroupV1UsageThreshold(path: String, bytes: UInt64)
  /// cgroup v1: `memory.pressure_level` at `level` (`low`, `medium`, `critical`).
  case cgroupV1PressureLevel(path: String, level: String)
  /// The system-wide PSI trigger on `/proc/pressure/memory`.
  case systemPSI(path: String)
  /// `MemAvailable` of `/proc/meminfo` under `thresholdBytes`, read every `interval` seconds.
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
}

/// Where low-memory events come from (``HostEnvironment/memoryPressure``). Live:
/// ``KernelMemoryPressure``; tests use a scripted one that signals on demand.
public protocol MemoryPressurePort: Sendable {
  /// The sources this machine offers, best first.
  func availableSources(level: String) -> [MemoryPressureSource]
  /// Opens and arms `source`; `onEvent` gets the instant (on `clock`) at which each of the
  /// kernel's events was seen — every event: grouping them into episodes is the caller's.
  ///
  /// - Throws: `AtomicFileError` naming the file that could not be opened or written.
  func watch(_ source: MemoryPressureSource, clock: MonotonicClock, onEvent: @escaping @Sendable (MonotonicInstant) -> Void)
    throws(AtomicFileError) -> any MemoryPressureWatch
}

/// A source being watched; ``stop()`` ends it (its thread and descriptors go within a second).
public protocol MemoryPressureWatch: AnyObject, Sendable {
  func stop()
}
