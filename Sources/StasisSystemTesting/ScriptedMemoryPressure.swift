public import StasisSystem
internal import Synchronization

/// Memory pressure when the test says (a `MemoryPressurePort`): it offers the sources it was
/// given, arms every one (or refuses those listed in ``refused``), and ``signal()`` sends an
/// event to every watch not stopped, stamped with the watch's clock.
public final class ScriptedMemoryPressure: MemoryPressurePort {
  private final class Watch: MemoryPressureWatch {
    let clock: MonotonicClock
    let onEvent: @Sendable (MonotonicInstant) -> Void
    let stopped = Atomic<Bool>(false)
    init(clock: MonotonicClock, onEvent: @escaping @Sendable (MonotonicInstant) -> Void) {
      self.clock = clock
      self.onEvent = onEvent
    }
    func stop() { stopped.store(true, ordering: .relaxed) }
  }

  private let watches = Mutex<[Watch]>([])
  /// What ``availableSources(level:)`` answers.
  public let sources: [MemoryPressureSource]
  /// Sources that fail to arm, with a permission error naming their file.
  public let refused: Set<MemoryPressureSource>

  public init(
    sources: [MemoryPressureSource] = [.memAvailable(thresholdBytes: 256 << 20, interval: 1)],
    refused: Set<MemoryPressureSource> = []
  ) {
    self.sources = sources
    self.refused = refused
  }

  public func availableSources(level: String) -> [MemoryPressureSource] { sources }

  public func watch(
    _ source: MemoryPressureSource, clock: MonotonicClock, onEvent: @escaping @Sendable (MonotonicInstant) -> Void
  ) throws(AtomicFileError) -> any MemoryPressureWatch {
    if refused.contains(source) {
      throw AtomicFileError(.permissionDenied, path: "\(source)", systemError: nil, detail: "the source refused to arm (scripted)")
    }
    let watch = Watch(clock: clock, onEvent: onEvent)
    watches.withLock { $0.append(watch) }
    return watch
  }

  /// How many watches are armed and not stopped.
  public var activeWatchCount: Int { watches.withLock { $0.filter { !$0.stopped.load(ordering: .relaxed) }.count } }

  /// One kernel event, now (on each watch's clock), to every watch not stopped, on the calling thread.
  public func signal() {
    let active = watches.withLock { $0.filter { !$0.stopped.load(ordering: .relaxed) } }
    for watch in active { watch.onEvent(watch.clock.now) }
  }
}
