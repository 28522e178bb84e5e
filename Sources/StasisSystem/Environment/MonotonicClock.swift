internal import Dispatch
internal import Synchronization

/// A moment on a ``MonotonicClock``: nanoseconds since the clock's arbitrary start (for the
/// system's clock, the boot; for a test clock, its creation).
public struct MonotonicInstant: InstantProtocol, Sendable, CustomStringConvertible {
  /// Nanoseconds since the clock's start.
  public var nanoseconds: UInt64

  public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

  public func advanced(by duration: Duration) -> MonotonicInstant {
    let step = duration.inNanoseconds
    if step >= 0 { return MonotonicInstant(nanoseconds: nanoseconds &+ UInt64(step)) }
    let back = UInt64(-step)
    return MonotonicInstant(nanoseconds: nanoseconds >= back ? nanoseconds - back : 0)
  }

  public func duration(to other: MonotonicInstant) -> Duration {
    other.nanoseconds >= nanoseconds
      ? .nanoseconds(Int64(clamping: other.nanoseconds - nanoseconds))
      : .nanoseconds(-Int64(clamping: nanoseconds - other.nanoseconds))
  }

  public static func < (left: MonotonicInstant, right: MonotonicInstant) -> Bool { left.nanoseconds < right.nanoseconds }

  public var description: String { "\(nanoseconds) ns" }
}

extension Duration {
  /// The duration in whole nanoseconds (rounded toward zero, clamped to `Int64`).
  public var inNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (sum, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    return overflow || overflowAgain ? (seconds < 0 ? .min : .max) : sum
  }

  /// The duration in seconds (a `TimeInterval`).
  public var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// What a ``MonotonicClock`` reads and arms: the system's clock (`CLOCK_MONOTONIC` and libdispatch
/// timers, ``SystemMonotonicSource``) or a test's manual clock, which moves only when told.
public protocol MonotonicTimeSource: Sendable {
  /// The current instant.
  func now() -> MonotonicInstant
  /// Runs `action` once, when the clock has reached `deadline` (at once when it already has), on
  /// a thread of the source's choosing — never one the caller must keep free: a timer must fire
  /// while the main thread is stuck (the background-time watchdog).
  func schedule(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void)
  /// Blocks the calling thread until the clock has reached `deadline` (`usleep`, `nanosleep`):
  /// a short pause between retries in synchronous code.
  func wait(until deadline: MonotonicInstant)
}

extension MonotonicTimeSource {
  /// Blocks until a timer armed for `deadline` (``schedule(at:_:)``) has fired: right for a
  /// source whose timers fire on a thread of their own. A source that is moved by the thread
  /// that waits (a test's manual clock) implements it itself.
  public func wait(until deadline: MonotonicInstant) {
    guard deadline > now() else { return }
    let fired = DispatchSemaphore(value: 0)
    schedule(at: deadline) { fired.signal() }
    fired.wait()
  }
}

/// The monotonic side of the environment's clock (``HostClock/monotonic``): a Swift `Clock` that
/// only moves forward and never jumps when the wall clock is set (Foundation's
/// `ProcessInfo.systemUptime`, `DispatchTime.now()`, `CLOCK_MONOTONIC`), with timers
/// (`DispatchQueue.asyncAfter`) that a test clock fires when it is advanced.
public struct MonotonicClock: Clock, Sendable {
  public typealias Instant = MonotonicInstant

  /// Where the time comes from.
  public let source: any MonotonicTimeSource

  public init(source: any MonotonicTimeSource) { self.source = source }

  public var now: MonotonicInstant { source.now() }

  public var minimumResolution: Duration { .nanoseconds(1) }

  /// Runs `action` once `delay` has passed on this clock (see ``MonotonicTimeSource/schedule(at:_:)``).
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
    source.schedule(at: now.advanced(by: max(delay, .zero)), action)
  }

  /// Blocks the calling thread until `duration` has passed on this clock (`usleep`): for a
  /// pause between retries in synchronous code (see ``MonotonicTimeSource/wait(until:)``).
  public func wait(for duration: Duration) {
    guard duration > .zero else { return }
    source.wait(until: now.advanced(by: duration))
  }

  /// Suspends the task until `deadline` (the `Clock` requirement); throws `CancellationError`
  /// when the task is cancelled first.
  public func sleep(until deadline: MonotonicInstant, tolerance: Duration? = nil) async throws {
    let waiter = Waiter()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        waiter.install(continuation)
        source.schedule(at: deadline) { waiter.resume(with: .success(())) }
      }
    } onCancel: {
      waiter.resume(with: .failure(CancellationError()))
    }
  }

  /// One sleeper's continuation, resumed once: by its timer or by cancellation, whichever comes first.
  private final class Waiter: Sendable {
    private struct State {
      var continuation: CheckedContinuation<Void, any Error>?
      var early: Result<Void, any Error>?
    }
    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<Void, any Error>) {
      let early = state.withLock { state -> Result<Void, any Error>? in
        if let early = state.early { return early }
        state.continuation = continuation
        return nil
      }
      if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<Void, any Error>) {
      let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        guard let continuation = state.continuation else {
          if state.early == nil { state.early = result }
          return nil
        }
        state.continuation = nil
        state.early = result
        return continuation
      }
      continuation?.resume(with: result)
    }
  }
}
