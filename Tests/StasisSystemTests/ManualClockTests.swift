import Foundation
import StasisSystem
import StasisSystemTesting
import Synchronization
import Testing

/// The environment's clock: its monotonic side is a Swift `Clock`; a manual one fires timers as
/// it advances, in deadline order, and never by itself.
@Suite struct ManualClockTests {
  final class Log: Sendable {
    let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  @Test func timersFireInDeadlineOrderAtTheirDeadline() {
    let clock = ManualClock()
    let monotonic = clock.hostClock.monotonic
    let log = Log()
    monotonic.schedule(after: .milliseconds(300)) { log.add("c at \(clock.now().nanoseconds)") }
    monotonic.schedule(after: .milliseconds(100)) { log.add("a at \(clock.now().nanoseconds)") }
    monotonic.schedule(after: .milliseconds(100)) { log.add("b at \(clock.now().nanoseconds)") }
    clock.advance(by: .milliseconds(99))
    #expect(log.all.isEmpty && clock.pendingTimerCount == 3)
    clock.advance(by: .milliseconds(250))
    #expect(log.all == ["a at 100000000", "b at 100000000", "c at 300000000"])
    #expect(clock.now().nanoseconds == 349_000_000 && clock.pendingTimerCount == 0)
  }

  @Test func aTimerArmedByATimerFiresInTheSameAdvanceWhenDue() {
    let clock = ManualClock()
    let monotonic = clock.hostClock.monotonic
    let log = Log()
    monotonic.schedule(after: .seconds(1)) {
      log.add("first")
      monotonic.schedule(after: .seconds(1)) { log.add("second at \(clock.now().nanoseconds / 1_000_000_000) s") }
      monotonic.schedule(after: .seconds(5)) { log.add("late") }
    }
    clock.advance(by: .seconds(3))
    #expect(log.all == ["first", "second at 2 s"])
    #expect(clock.pendingTimerCount == 1)
  }

  @Test func aTimerForThePresentWaitsForTheNextAdvance() {
    let clock = ManualClock()
    let log = Log()
    clock.hostClock.monotonic.schedule(after: .zero) { log.add("now") }
    #expect(log.all.isEmpty, "never inside schedule, where the caller may hold a lock")
    clock.advance(by: .zero)
    #expect(log.all == ["now"])
  }

  @Test func theWallSideMovesWithTheMonotonicSide() {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let clock = ManualClock(startDate: start)
    let host = clock.hostClock
    #expect(host.now() == start && host.uptimeNanoseconds() == 0)
    clock.advance(by: .milliseconds(1500))
    #expect(host.now() == start.addingTimeInterval(1.5))
    #expect(host.uptimeNanoseconds() == 1_500_000_000)
  }

  @Test func sleepingOnTheClockEndsWhenItIsAdvanced() async throws {
    let clock = ManualClock()
    let monotonic = clock.hostClock.monotonic
    let woke = Mutex(false)
    let sleeper = Task {
      try await monotonic.sleep(for: .seconds(10))
      woke.withLock { $0 = true }
    }
    // The sleeper arms its timer when it runs: wait for it without sleeping in real time.
    while clock.pendingTimerCount == 0 { await Task.yield() }
    clock.advance(by: .seconds(9))
    #expect(!woke.withLock { $0 })
    clock.advance(by: .seconds(1))
    try await sleeper.value
    #expect(woke.withLock { $0 })
  }

  @Test func aCancelledSleepThrows() async {
    let clock = ManualClock()
    let monotonic = clock.hostClock.monotonic
    let sleeper = Task { try await monotonic.sleep(for: .seconds(60)) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @Test func instantsAndDurations() {
    let start = MonotonicInstant(nanoseconds: 5_000)
    #expect(start.advanced(by: .microseconds(2)).nanoseconds == 7_000)
    #expect(start.advanced(by: .microseconds(-10)).nanoseconds == 0, "the clock's start is its floor")
    #expect(start.duration(to: MonotonicInstant(nanoseconds: 2_000)) == .nanoseconds(-3_000))
    #expect(Duration.milliseconds(1500).inNanoseconds == 1_500_000_000)
    #expect(Duration.milliseconds(250).inSeconds == 0.25)
  }

  @Test func aWaitOnAManualClockMovesItAndFiresTheTimersOnTheWay() {
    let clock = ManualClock()
    let log = Log()
    clock.hostClock.monotonic.schedule(after: .milliseconds(5)) { log.add("at \(clock.now().nanoseconds)") }
    clock.hostClock.monotonic.schedule(after: .milliseconds(50)) { log.add("later") }
    clock.hostClock.monotonic.wait(for: .milliseconds(20))
    #expect(clock.now().nanoseconds == 20_000_000)
    #expect(log.all == ["at 5000000"] && clock.pendingTimerCount == 1)
    clock.hostClock.monotonic.wait(for: .zero)
    #expect(clock.now().nanoseconds == 20_000_000, "a wait of nothing does not move the clock")
  }

  @Test func aWaitOnTheSystemClockReturnsNoEarlierThanItsDeadline() {
    let monotonic = HostClock.system.monotonic
    let deadline = monotonic.now.advanced(by: .milliseconds(2))
    monotonic.wait(for: .milliseconds(2))
    #expect(monotonic.now >= deadline)
  }

  @Test func aWaitOnAStoppedClockReturnsAtOnce() {
    // A stopped clock never reaches a later instant: waiting for it would never end.
    let monotonic = HostClock.fixed(at: Date(timeIntervalSince1970: 0)).monotonic
    monotonic.wait(for: .seconds(3600))
    #expect(monotonic.now.nanoseconds == 0)
  }

  @Test func theSystemClockMovesForwardAndFiresItsTimers() async {
    let monotonic = HostClock.system.monotonic
    let before = monotonic.now
    await confirmation { fired in
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        monotonic.schedule(after: .milliseconds(1)) {
          fired()
          done.resume()
        }
      }
    }
    #expect(monotonic.now.duration(to: before) <= .zero)
    #expect(monotonic.now >= before.advanced(by: .milliseconds(1)))
  }
}
