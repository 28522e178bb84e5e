import Foundation
import Lifecycle
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Signals sent the moment the app is active — before the host's dispatch sources may be armed —
/// are never lost: the host blocks them from its creation, so the kernel keeps them pending.
/// (Before, the host set each signal to "ignore" until its source was armed, and the kernel
/// discarded what came in between: about 1 in 10 on a quiet machine.)
@Suite(.serialized, .tags(.integration)) struct SignalRaceTests {
  /// How many launches: `STASIS_SIGNAL_LAUNCHES` (1,000 for the full check), 40 by default.
  static let launches = ProcessInfo.processInfo.environment["STASIS_SIGNAL_LAUNCHES"].flatMap(Int.init) ?? 40

  /// One launch: waits (polling every 0.2 ms) for `didBecomeActive`, sends `signal` at once and
  /// answers what went wrong, if anything. A lost signal is only declared after 30 s.
  static func launchAndSignal(_ signal: Int32) -> String? {
    let app: ChildApp
    do { app = try ChildApp(["--host", "headless"]) } catch { return "the child did not start: \(error)" }
    let started = Date()
    while !app.lines.contains(where: { $0.hasPrefix("didBecomeActive") }) {
      guard app.process.isRunning, Date().timeIntervalSince(started) < 60 else {
        return "the child never became active (\(app.outcome), \(app.callbacks))"
      }
      usleep(200)
    }
    let signalled = Date()
    app.signal(signal)
    /// What the child did, for a failure message: its log, how it ended, how long after the signal.
    func story(_ what: String) -> String {
      "\(what) \(String(format: "%.1f", Date().timeIntervalSince(signalled))) s after the signal; \(app.outcome); log \(app.lines)"
    }
    if signal == SIGTERM {
      guard let status = app.waitForExit(seconds: 30) else { return story("SIGTERM lost: still running") }
      guard status == 0, app.callbacks.last == "willTerminate" else { return story("SIGTERM: not a clean end") }
    } else {
      guard app.waitFor("didEnterBackground", seconds: 30) else { return story("SIGUSR1 lost: no didEnterBackground") }
      app.signal(SIGTERM)
      guard app.waitForExit(seconds: 30) == 0 else { return story("SIGTERM after SIGUSR1: no clean exit") }
    }
    return nil
  }

  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason))
  func signalsSentRightAfterLaunchAreNeverLost() {
    let failures = Mutex<[String]>([])
    // Four launches at a time: the machine is busy, as when the loss was seen most.
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for index in stride(from: worker, to: Self.launches, by: 4) {
        if let failure = Self.launchAndSignal(index % 2 == 0 ? SIGTERM : SIGUSR1) {
          failures.withLock { $0.append("launch \(index): \(failure)") }
        }
      }
    }
    let found = failures.withLock { $0 }
    #expect(found.isEmpty, "\(found.count) of \(Self.launches) launches lost their signal: \(found.prefix(5))")
  }
}
