internal import Foundation
internal import StasisSystem
internal import Synchronization

/// Background time and its watchdog, as UIKit enforces it (`applicationDidEnterBackground` gets
/// about five seconds, `beginBackgroundTask` buys more): `applicationDidEnterBackground` must
/// return within the callback limit; background tasks must end within the budget, or when it is
/// spent their expiration handlers run and, after a grace period, the app is ended. The watchdog
/// runs on the environment's clock, whose timers fire off the main queue (so that a main queue
/// stuck in a callback cannot stop it; a test's manual clock fires them as it advances); it writes a
/// report naming what overran, and by how long, before ending the process.
final class Watchdog: @unchecked Sendable {
  private struct Task {
    var name: String
    var expirationHandler: (@Sendable () -> Void)?
  }

  private struct State {
    var tasks: [Int: Task] = [:]
    var nextIdentifier = 1
    var backgroundStart: UInt64?
    var inCallback = false
    var budgetSpent = false
    /// Bumped whenever the app leaves or re-enters the background, so that timers armed for
    /// an earlier stay do nothing.
    var generation = 0
  }

  private let state = Mutex(State())
  private let configuration: ApplicationLifecycle.Configuration
  /// The reports written, by path (tests read them).
  let reports = Mutex<[String]>([])

  init(configuration: ApplicationLifecycle.Configuration) {
    self.configuration = configuration
  }

  private var clock: MonotonicClock { configuration.environment.clock.monotonic }

  private func now() -> UInt64 { clock.now.nanoseconds }

  private static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }

  func enterBackground(lifecycle: ApplicationLifecycle) {
    let (generation, start) = state.withLock { state -> (Int, UInt64) in
      state.generation += 1
      state.backgroundStart = now()
      state.inCallback = true
      state.budgetSpent = false
      return (state.generation, state.backgroundStart!)
    }
    let limit = configuration.backgroundCallbackLimit
    clock.schedule(after: .seconds(limit)) { [self] in
      let overran = state.withLock { $0.generation == generation && $0.inCallback }
      guard overran else { return }
      end(
        because: String(
          format: "applicationDidEnterBackground overran its %.1f s limit (still running after %.1f s)", limit,
          Self.seconds(now() - start)))
    }
    let budget = configuration.backgroundTimeBudget
    clock.schedule(after: .seconds(budget)) { [self] in
      let handlers = state.withLock { state -> [(@Sendable () -> Void)]? in
        guard state.generation == generation, state.backgroundStart != nil else { return nil }
        state.budgetSpent = true
        return state.tasks.values.compactMap(\.expirationHandler)
      }
      guard let handlers else { return }
      DispatchQueue.main.async { for handler in handlers { handler() } }
      clock.schedule(after: .seconds(configuration.expirationGrace)) { [self] in
        let left = state.withLock { state -> [String] in
          guard state.generation == generation else { return [] }
          return state.tasks.keys.sorted().compactMap { state.tasks[$0].map { "\"\($0.name)\"" } }
        }
        guard !left.isEmpty else { return }
        end(
          because: String(
            format: "background task%@ %@ not ended when the %.1f s budget was spent (%.1f s in the background)",
            left.count == 1 ? "" : "s", left.joined(separator: ", "), budget, Self.seconds(now() - start)))
      }
    }
  }

  func callbackReturned() {
    state.withLock { $0.inCallback = false }
  }

  func leaveBackground() {
    state.withLock { state in
      state.generation += 1
      state.backgroundStart = nil
      state.inCallback = false
      state.budgetSpent = false
    }
  }

  func begin(name: String, expirationHandler: (@Sendable () -> Void)?) -> BackgroundTaskIdentifier {
    state.withLock { state in
      if state.budgetSpent { return .invalid }
      let identifier = state.nextIdentifier
      state.nextIdentifier += 1
      state.tasks[identifier] = Task(name: name, expirationHandler: expirationHandler)
      return BackgroundTaskIdentifier(rawValue: identifier)
    }
  }

  func end(_ identifier: BackgroundTaskIdentifier) {
    _ = state.withLock { $0.tasks.removeValue(forKey: identifier.rawValue) }
  }

  func remaining() -> Double {
    state.withLock { state in
      guard let start = state.backgroundStart else { return configuration.backgroundTimeBudget }
      return max(0, configuration.backgroundTimeBudget - Self.seconds(now() - start))
    }
  }

  func isIdle() -> Bool { state.withLock { !$0.inCallback && $0.tasks.isEmpty } }

  func activeTaskNames() -> [String] {
    state.withLock { state in state.tasks.keys.sorted().compactMap { state.tasks[$0]?.name } }
  }

  /// Writes the report to standard error and (when there is a logs folder) to a file, both
  /// through the configuration's environment, and ends the process.
  private func end(because reason: String) {
    let environment = configuration.environment
    let process = environment.process.id
    let text = "Stasis watchdog: \(reason)\nprocess \(process), ended with status \(ApplicationLifecycle.watchdogExitStatus)\n"
    // A lost line on a closed standard error must not stop the process from being ended.
    try? environment.standardStreams.writeError(Array(text.utf8))
    if let folder = configuration.logsFolder {
      let fileSystem = environment.fileSystem
      try? fileSystem.makeFolders(folder, permissions: 0o755)
      let path = folder + "/watchdog-\(process)-\(now()).log"
      if (try? fileSystem.write(Data(text.utf8), toFile: path)) != nil { reports.withLock { $0.append(path) } }
    }
    configuration.terminateProcess(ApplicationLifecycle.watchdogExitStatus)
  }
}
