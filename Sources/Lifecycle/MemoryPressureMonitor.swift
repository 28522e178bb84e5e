internal import Synchronization
public import StasisSystem

/// Where low-memory signals come from (the environment's `MemoryPressurePort`:
/// the kernel's sources on Linux, best first).
public typealias MemoryPressureSource = StasisSystem.MemoryPressureSource

/// Watches one ``MemoryPressureSource`` through the environment's memory-pressure port and calls
/// `onPressure` with the uptime (nanoseconds on the environment's clock) at which the kernel's
/// event was seen, once per episode: events closer than ``episodeGap`` seconds to the previous
/// one belong to the same episode. The kernel's watch ends within a second of ``stop()`` or of
/// the monitor going away.
public final class MemoryPressureMonitor: Sendable {
  /// The source in use.
  public let source: MemoryPressureSource
  /// Seconds without an event after which the next event starts a new episode.
  public let episodeGap: Double
  private let watch: any MemoryPressureWatch

  /// Opens and arms `source` through `environment.memoryPressure`.
  ///
  /// - Throws: `LifecycleError.Code.memorySourceUnavailable` naming the file that could not be
  ///   opened or written (caused by the port's `AtomicFileError`).
  public init(
    source: MemoryPressureSource, episodeGap: Double = 2, environment: HostEnvironment = .current,
    onPressure: @escaping @Sendable (UInt64) -> Void
  ) throws(LifecycleError) {
    self.source = source
    self.episodeGap = episodeGap
    let episodes = EpisodeFilter(gap: UInt64(max(0, episodeGap) * 1e9))
    do {
      watch = try environment.memoryPressure.watch(source, clock: environment.clock.monotonic) { seen in
        if episodes.startsEpisode(at: seen.nanoseconds) { onPressure(seen.nanoseconds) }
      }
    } catch {
      throw LifecycleError(.memorySourceUnavailable, detail: error.detail, path: error.path, underlying: error)
    }
  }

  /// The first of the sources the environment offers that can be armed.
  public static func best(
    episodeGap: Double = 2, environment: HostEnvironment = .current, onPressure: @escaping @Sendable (UInt64) -> Void
  ) -> MemoryPressureMonitor? {
    for source in MemoryPressureSource.available(environment: environment) {
      if let monitor = try? MemoryPressureMonitor(source: source, episodeGap: episodeGap, environment: environment, onPressure: onPressure) {
        return monitor
      }
    }
    return nil
  }

  /// Stops watching.
  public func stop() { watch.stop() }

  deinit { stop() }
}

/// Groups the kernel's events into episodes: an event starts one when none came in the `gap`
/// before it.
final class EpisodeFilter: Sendable {
  private let gap: UInt64
  private let lastEvent = Mutex<UInt64?>(nil)

  init(gap: UInt64) { self.gap = gap }

  func startsEpisode(at seen: UInt64) -> Bool {
    lastEvent.withLock { last in
      defer { last = seen }
      guard let previous = last else { return true }
      return seen >= previous && seen - previous > gap
    }
  }
}

extension MemoryPressureSource {
  /// The sources `environment`'s memory-pressure port offers, best first (on Linux, the
  /// process's cgroup's, then the system's PSI, then `MemAvailable`).
  public static func available(level: String = "medium", environment: HostEnvironment = .current) -> [MemoryPressureSource] {
    environment.memoryPressure.availableSources(level: level)
  }
}
