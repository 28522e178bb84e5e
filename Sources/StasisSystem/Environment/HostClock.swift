public import FoundationEssentials

/// The one clock of the environment (``HostEnvironment/clock``), both sides of it: the wall clock
/// (dates written into files, log headers, archive timestamps, `Date()`) and a monotonic Swift
/// `Clock` (coalescing delays, background-time budgets, memory-warning latency, timers), which never
/// jumps when the wall clock is set. No module reads the time on its own: tests put a manual clock
/// here (`StasisSystemTesting.ManualClock`) and move it with `advance(by:)`.
public struct HostClock: Sendable {
  /// The current date (`Date()`).
  public var now: @Sendable () -> Date
  /// The monotonic clock (`CLOCK_MONOTONIC`, `DispatchTime.now()`) and its timers.
  public var monotonic: MonotonicClock

  public init(now: @escaping @Sendable () -> Date, monotonic: MonotonicClock) {
    self.now = now
    self.monotonic = monotonic
  }

  /// Nanoseconds on the monotonic clock, from its arbitrary start (`DispatchTime.uptimeNanoseconds`).
  public func uptimeNanoseconds() -> UInt64 { monotonic.now.nanoseconds }

  /// The system's clocks: `Date()` and ``SystemMonotonicSource``.
  public static let system = HostClock(now: { Date() }, monotonic: MonotonicClock(source: SystemMonotonicSource()))

  /// A clock stopped at `date`, its monotonic side stopped at 0 (its timers never fire, a wait
  /// on it returns at once): for reproducible output.
  public static func fixed(at date: Date) -> HostClock {
    HostClock(now: { date }, monotonic: MonotonicClock(source: StoppedMonotonicSource()))
  }
}

/// A monotonic source that stays at 0 and never fires a timer (``HostClock/fixed(at:)``).
struct StoppedMonotonicSource: MonotonicTimeSource {
  func now() -> MonotonicInstant { MonotonicInstant(nanoseconds: 0) }
  func schedule(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void) {}
  /// Returns at once: a stopped clock never reaches a later instant, and waiting for it would
  /// never end.
  func wait(until deadline: MonotonicInstant) {}
}
