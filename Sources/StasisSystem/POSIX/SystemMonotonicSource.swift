internal import Dispatch

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The system's monotonic clock: `CLOCK_MONOTONIC` (`clock_gettime`), and timers on a libdispatch
/// queue of their own (`DispatchQueue.asyncAfter`), so that a timer fires while the main thread is
/// busy.
public struct SystemMonotonicSource: MonotonicTimeSource {
  private static let timers = DispatchQueue(label: "org.stasis.system.timers", attributes: .concurrent)

  public init() {}

  public func now() -> MonotonicInstant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicInstant(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
  }

  public func schedule(at deadline: MonotonicInstant, _ action: @escaping @Sendable () -> Void) {
    let current = now()
    let wait = deadline > current ? deadline.nanoseconds - current.nanoseconds : 0
    Self.timers.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: wait)), execute: action)
  }
}
