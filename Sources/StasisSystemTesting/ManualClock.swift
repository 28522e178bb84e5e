public import FoundationEssentials
public import StasisSystem
internal import Synchronization

/// A clock that moves only when told (``advance(by:)``): put ``hostClock`` in a
/// `HostEnvironment` (or an `ApplicationLifecycle.Configuration`) and every timer armed on it
/// — the background-time watchdog, the defaults' coalescing flush, `sleep(until:)` — fires inside
/// ``advance(by:)``, in deadline order, on the calling thread. Timing tests run in-process,
/// without sleeping and without depending on how loaded the machine is.
///
/// ```swift
/// let clock = ManualClock()
/// var world = HostEnvironment.current
/// world.clock = clock.hostClock
/// // … arm something on world.clock.monotonic …
/// clock.advance(by: .seconds(5))   // its timer has fired when this returns
/// ```
public final class ManualClock: MonotonicTimeSource, Sendable {
  private struct Timer {
    var deadline: MonotonicInstant
    var order: Int
    var action: @Sendable () -> Void
  }

  private struct State {
    var now: MonotonicInstant
    var timers: [Timer] = []
    var armed = 0
  }

  private let state: Mutex<State>
  /// The wall-clock date at the start.
  public let startDate: Date

  /// A clock at `start` (monotonic) showing `startDate` on its wall side.
  public init(start: MonotonicInstant = MonotonicInstant(nanoseconds: 0), startDate: Date = Date(timeIntervalSince1970: 1_000_000_000)) {
    state = Mutex(State(now: start))
    self.startDate = startDate
  }

  public func now() -> MonotonicInstant { state.withLock { $0.now } }

  /// Time since the clock was made, as its wall side shows it.
  private var elapsed: Duration {
    let current = now()
    return MonotonicInstant(nanoseconds: 0).duration(to: current)
  }

  /// The wall-clock date: ``startDate`` plus the time advanced.
  public var date: Date { startDate.addingTimeInterval(elapsed.inSeconds) }

  /// The environment's clock over this one: its wall side moves with it.
  public var hostClock: HostClock {
    HostClock(now: { [self] in date }, monotonic: MonotonicClock(source: self))
  }

  /// Keeps `action` until an ``advance(by:)`` reaches `deadline`; a timer armed for the present
  /// (or the past) fires at the next ``advance(by:)``, even by zero — never inside this call,
  /// where the caller may hold the lock the action takes.
  public func schedule(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void) {
    state.withLock { state in
      state.armed += 1
      state.timers.append(Timer(deadline: deadline, order: state.armed, action: action))
    }
  }

  /// A synchronous wait on a manual clock is the test's ``advance(by:)``: nothing else could move
  /// the clock while the caller is blocked, so the clock moves forward to `deadline` (firing the
  /// timers due on the way, on the calling thread) and the wait returns without sleeping.
  public func wait(until deadline: MonotonicInstant) {
    let current = now()
    guard deadline > current else { return }
    advance(by: current.duration(to: deadline))
  }

  /// How many timers wait for a later instant.
  public var pendingTimerCount: Int { state.withLock { $0.timers.count } }

  /// Moves the clock forward by `duration`, firing every timer whose deadline is passed on the
  /// way, in order of deadline (then of arming), each with the clock at its deadline; a timer
  /// armed by one that fires runs too if it falls due before the end.
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "a monotonic clock does not go back")
    let target = state.withLock { $0.now.advanced(by: duration) }
    while let timer = state.withLock({ state -> Timer? in
      guard let index = state.timers.indices.min(by: { Self.before(state.timers[$0], state.timers[$1]) }),
        state.timers[index].deadline <= target
      else { return nil }
      let timer = state.timers.remove(at: index)
      if timer.deadline > state.now { state.now = timer.deadline }
      return timer
    }) {
      timer.action()
    }
    state.withLock { if target > $0.now { $0.now = target } }
  }

  private static func before(_ left: Timer, _ right: Timer) -> Bool {
    (left.deadline, left.order) < (right.deadline, right.order)
  }
}
