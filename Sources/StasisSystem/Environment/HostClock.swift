public import FoundationEssentials

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#endif

/// The clocks a module reads: the wall clock (dates written into files, log headers, archive
/// timestamps) and a monotonic clock (coalescing delays, background-time budgets), which never
/// jumps when the wall clock is set.
public struct HostClock: Sendable {
  /// The current date (`Date()`).
  public var now: @Sendable () -> Date
  /// Nanoseconds on a clock that only moves forward (`CLOCK_MONOTONIC`), from an arbitrary start.
  public var uptimeNanoseconds: @Sendable () -> UInt64

  public init(now: @escaping @Sendable () -> Date, uptimeNanoseconds: @escaping @Sendable () -> UInt64) {
    self.now = now
    self.uptimeNanoseconds = uptimeNanoseconds
  }

  /// The system's clocks.
  public static let system = HostClock(
    now: { Date() },
    uptimeNanoseconds: {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    })

  /// A clock stopped at `date` (monotonic time stopped too): for tests and reproducible output.
  public static func fixed(at date: Date) -> HostClock {
    HostClock(now: { date }, uptimeNanoseconds: { 0 })
  }
}
