public import Foundation
public import InterfaceObjects
public import Sandbox
public import StasisSystem
internal import Synchronization

/// An object that gives memory back when the app is warned (`didReceiveMemoryWarning`): a
/// ``Cache``, the nib cache, an image cache of the app's own (`StasisSystem.Purgeable`).
public typealias Purgeable = StasisSystem.Purgeable

/// What preserves and restores the app's interface state at UIKit's moments (the `Restoration`
/// module's `StateRestoration` adopts it and installs itself as ``ApplicationLifecycle/stateKeeper``).
@MainActor public protocol LifecycleStateKeeper: AnyObject {
  /// During launch, after `willFinishLaunching` and before `didFinishLaunching`.
  func restoreState(during lifecycle: ApplicationLifecycle)
  /// After `didEnterBackground` returned, inside the app's background time.
  func preserveState(of lifecycle: ApplicationLifecycle)
  /// The user quit the app deliberately (``ApplicationLifecycle/quit()``), not the system.
  func userDidQuit(_ lifecycle: ApplicationLifecycle)
}

/// A background task (`UIBackgroundTaskIdentifier`); ``invalid`` when refused.
public struct BackgroundTaskIdentifier: Hashable, Sendable, CustomStringConvertible {
  public let rawValue: Int
  /// `UIBackgroundTaskInvalid`.
  public static let invalid = BackgroundTaskIdentifier(rawValue: 0)
  public var description: String { "task \(rawValue)" }
}

/// The life of an app as UIKit runs it (`UIApplication`, `UIApplicationDelegate`): its state,
/// the transitions and the delegate's callbacks in UIKit's order, each also posted through
/// `NotificationCenter` under UIKit's name; background time with its watchdog; memory warnings to
/// the delegate, the notification centre and every registered ``Purgeable``.
///
/// It lives on the main actor, as `UIApplication` does; hosts
/// (``HeadlessHost``, ``TerminalHost``) turn signals and terminal events into the transitions,
/// and tests drive them directly.
///
/// ```swift
/// let lifecycle = ApplicationLifecycle(delegate: AppDelegate())
/// try lifecycle.launch(options: LaunchOptions(commandLine: Array(CommandLine.arguments.dropFirst())))
/// try lifecycle.enterBackground()        // willResignActive, didEnterBackground
/// try lifecycle.enterForeground()        // willEnterForeground, didBecomeActive
/// ```
@MainActor public final class ApplicationLifecycle {
  /// The limits and the outside world of the lifecycle.
  public struct Configuration: Sendable {
    /// How long `applicationDidEnterBackground` may run before the app is ended (iOS: about 5 s).
    public var backgroundCallbackLimit: Double
    /// The background time: how long tasks may run after the app left the foreground
    /// (`backgroundTimeRemaining` starts here).
    public var backgroundTimeBudget: Double
    /// After the budget, expiration handlers run; tasks still not ended this much later end the app.
    public var expirationGrace: Double
    /// Where watchdog reports go (the container's `Library/Logs`, see
    /// ``init(container:backgroundCallbackLimit:backgroundTimeBudget:environment:)``); none when `nil`.
    public var logsFolder: String?
    /// Ends the process (`exit`); tests replace it.
    @_spi(Testing) public var terminateProcess: @Sendable (Int32) -> Void
    /// The outside world: its clock times background time, the watchdog's limits and the
    /// memory warnings' latency (a test's manual clock moves them without waiting).
    public var environment: HostEnvironment

    public init(
      backgroundCallbackLimit: Double = 5, backgroundTimeBudget: Double = 30, expirationGrace: Double = 1,
      logsFolder: String? = nil, environment: HostEnvironment = .current
    ) {
      self.init(
        backgroundCallbackLimit: backgroundCallbackLimit, backgroundTimeBudget: backgroundTimeBudget,
        expirationGrace: expirationGrace, logsFolder: logsFolder, terminateProcess: { exit($0) }, environment: environment)
    }

    /// A configuration whose watchdog ends the process through `terminateProcess` (tests record it).
    @_spi(Testing) public init(
      backgroundCallbackLimit: Double = 5, backgroundTimeBudget: Double = 30, expirationGrace: Double = 1,
      logsFolder: String? = nil, terminateProcess: @escaping @Sendable (Int32) -> Void,
      environment: HostEnvironment = .current
    ) {
      self.backgroundCallbackLimit = backgroundCallbackLimit
      self.backgroundTimeBudget = backgroundTimeBudget
      self.expirationGrace = expirationGrace
      self.logsFolder = logsFolder
      self.terminateProcess = terminateProcess
      self.environment = environment
    }

    /// The configuration of an app in `container`: watchdog reports in its `Library/Logs`.
    public init(
      container: AppContainer, backgroundCallbackLimit: Double = 5, backgroundTimeBudget: Double = 30,
      environment: HostEnvironment = .current
    ) {
      self.init(
        backgroundCallbackLimit: backgroundCallbackLimit, backgroundTimeBudget: backgroundTimeBudget,
        logsFolder: container.libraryPath + "/Logs", environment: environment)
    }
  }

  /// The exit status of a process the watchdog ended (iOS reports 0x8badf00d).
  nonisolated public static let watchdogExitStatus: Int32 = 86

  /// The delegate; the lifecycle keeps it (as `UIApplicationMain` keeps the delegate it makes).
  public let delegate: ApplicationDelegate
  /// The application object: windows, the responder chain's end, sending actions.
  public let application: Application
  /// Where the lifecycle notifications are posted.
  public let notificationCenter: NotificationCenter
  public let configuration: Configuration
  /// The current state (`applicationState`).
  public private(set) var state: ApplicationState = .notRunning
  /// What the app was launched with.
  public private(set) var launchOptions: LaunchOptions?
  /// Called on the main actor when the app is in the background with no work left (the
  /// callback returned, every task ended): a host stops the process here (suspension).
  public var backgroundWorkDidFinish: (() -> Void)?
  /// Every memory warning's delay from the kernel's event to the delegate's callback, in
  /// nanoseconds (simulated warnings are not counted).
  @_spi(Testing) public private(set) var warningLatencies: [UInt64] = []
  /// How many memory warnings were delivered.
  public private(set) var memoryWarningCount = 0

  /// Preserves and restores the interface state; none by default. The lifecycle keeps it (the
  /// keeper refers back to the lifecycle without keeping it).
  public var stateKeeper: (any LifecycleStateKeeper)?
  /// Whether the app ended because the user quit it (``quit()``).
  public private(set) var endedByUser = false

  private var purgeables: [WeakPurgeable] = []
  private let watchdog: Watchdog
  /// The main actor's observers (``addObserver(forName:using:)``), in the order they were added.
  private var observers: [(observation: LifecycleObservation, name: Notification.Name, body: @MainActor (Notification) -> Void)] = []
  private var observationCount = 0

  public init(
    delegate: ApplicationDelegate, application: Application = Application(), notificationCenter: NotificationCenter = .default,
    configuration: Configuration = Configuration()
  ) {
    self.delegate = delegate
    self.application = application
    self.notificationCenter = notificationCenter
    self.configuration = configuration
    self.watchdog = Watchdog(configuration: configuration)
    application.delegate = delegate
  }

  /// The watchdog reports written so far (paths in ``Configuration/logsFolder``).
  @_spi(Testing) public var watchdogReports: [String] { watchdog.reports.withLock { $0 } }

  // MARK: - Transitions

  private func post(_ name: Notification.Name) {
    let notification = Notification(name: name, object: self)
    notificationCenter.post(notification)
    for observer in observers where observer.name == name { observer.body(notification) }
  }

  /// Observes the lifecycle notification `name` on the main actor, where the lifecycle posts it:
  /// `body` runs right after the notification centre's observers (what
  /// `NotificationCenter.addObserver(of:for:using:)` gives a `MainActorMessage` observer on
  /// Apple's platforms). Answers the observation, for ``removeObserver(_:)``.
  @discardableResult
  public func addObserver(forName name: Notification.Name, using body: @escaping @MainActor (Notification) -> Void) -> LifecycleObservation {
    observationCount += 1
    let observation = LifecycleObservation(number: observationCount)
    observers.append((observation, name, body))
    return observation
  }

  /// Ends an observation ``addObserver(forName:using:)`` began.
  public func removeObserver(_ observation: LifecycleObservation) { observers.removeAll { $0.observation == observation } }

  private func require(_ allowed: Set<ApplicationState>, for what: String) throws(LifecycleError) {
    guard allowed.contains(state) else {
      throw LifecycleError(.invalidTransition, detail: "cannot \(what) an app that is \(state.rawValue)")
    }
  }

  /// Launches the app: `willFinishLaunching`, `didFinishLaunching` (posted), then
  /// `didBecomeActive` (posted).
  public func launch(options: LaunchOptions = LaunchOptions()) throws(LifecycleError) {
    try require([.notRunning], for: "launch")
    launchOptions = options
    state = .inactive
    _ = delegate.applicationWillFinishLaunching(self, options: options)
    stateKeeper?.restoreState(during: self)
    _ = delegate.applicationDidFinishLaunching(self, options: options)
    post(.applicationDidFinishLaunching)
    try becomeActive()
  }

  /// An interruption (focus lost, an alert): `willResignActive` (posted); active → inactive.
  public func resignActive() throws(LifecycleError) {
    try require([.active], for: "resign active")
    delegate.applicationWillResignActive(self)
    post(.applicationWillResignActive)
    state = .inactive
  }

  /// The interruption is over: `didBecomeActive` (posted); inactive → active.
  public func becomeActive() throws(LifecycleError) {
    try require([.inactive], for: "make active")
    state = .active
    delegate.applicationDidBecomeActive(self)
    post(.applicationDidBecomeActive)
  }

  /// The app leaves the foreground: `willResignActive` if it was active, then
  /// `didEnterBackground` (posted), watched by the callback limit; the background time starts.
  public func enterBackground() throws(LifecycleError) {
    try require([.active, .inactive], for: "send to the background")
    if state == .active { try resignActive() }
    state = .background
    watchdog.enterBackground(lifecycle: self)
    delegate.applicationDidEnterBackground(self)
    post(.applicationDidEnterBackground)
    watchdog.callbackReturned()
    if let stateKeeper {
      let task = beginBackgroundTask(withName: "state preservation")
      stateKeeper.preserveState(of: self)
      watchdog.end(task)
    }
    checkBackgroundWork()
  }

  /// The app comes back: `willEnterForeground` (posted), then `didBecomeActive`.
  public func enterForeground() throws(LifecycleError) {
    try require([.background, .suspended], for: "bring to the foreground")
    watchdog.leaveBackground()
    state = .inactive
    delegate.applicationWillEnterForeground(self)
    post(.applicationWillEnterForeground)
    try becomeActive()
  }

  /// The app stops running code (the host stops the process next); no callback.
  public func suspend() throws(LifecycleError) {
    try require([.background], for: "suspend")
    state = .suspended
  }

  /// The app ends: from the foreground `willResignActive` (if active) then `willTerminate`
  /// (posted); from the background `willTerminate`; a suspended app ends without a word.
  public func terminate() throws(LifecycleError) {
    try require([.active, .inactive, .background, .suspended], for: "terminate")
    let wasSuspended = state == .suspended
    if state == .active { try resignActive() }
    watchdog.leaveBackground()
    if !wasSuspended {
      delegate.applicationWillTerminate(self)
      post(.applicationWillTerminate)
    }
    state = .terminated
  }

  /// The user quits the app deliberately (a terminal app's quit command, Ctrl-C to a headless
  /// host; the app switcher's swipe on iOS): the state keeper is told — UIKit then discards the
  /// saved interface state — and the app ends as ``terminate()`` ends it.
  public func quit() throws(LifecycleError) {
    try require([.active, .inactive, .background, .suspended], for: "quit")
    endedByUser = true
    stateKeeper?.userDidQuit(self)
    try terminate()
  }

  // MARK: - Background time

  /// Asks for more background time (`beginBackgroundTaskWithName:expirationHandler:`): the
  /// handler runs on the main queue when the budget is spent, and must end the task. Refused
  /// (``BackgroundTaskIdentifier/invalid``) once the budget is spent or the app has ended.
  public func beginBackgroundTask(withName name: String? = nil, expirationHandler: (@Sendable () -> Void)? = nil)
    -> BackgroundTaskIdentifier
  {
    guard state != .terminated, state != .notRunning else { return .invalid }
    return watchdog.begin(name: name ?? "unnamed", expirationHandler: expirationHandler)
  }

  /// Ends a background task (`endBackgroundTask:`); the app may be suspended once none is left.
  public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
    watchdog.end(identifier)
    checkBackgroundWork()
  }

  /// `backgroundTimeRemaining`: the budget left in the background, `Double.greatestFiniteMagnitude`
  /// in the foreground (as UIKit's `DBL_MAX`).
  public var backgroundTimeRemaining: Double {
    state == .background ? watchdog.remaining() : .greatestFiniteMagnitude
  }

  /// The names of the background tasks not yet ended.
  public var activeBackgroundTasks: [String] { watchdog.activeTaskNames() }

  private func checkBackgroundWork() {
    guard state == .background, watchdog.isIdle() else { return }
    backgroundWorkDidFinish?()
  }

  // MARK: - Memory

  /// Registers `purgeable` to be purged on every memory warning (held weakly).
  public func registerPurgeable(_ purgeable: Purgeable) {
    purgeables.removeAll { $0.object == nil || $0.object === purgeable }
    purgeables.append(WeakPurgeable(object: purgeable))
  }

  /// Delivers a memory warning: the delegate's `didReceiveMemoryWarning`, the notification, every
  /// view controller of the application's windows (`didReceiveMemoryWarning`), then every
  /// registered purgeable and those of the process's `PurgeableRegistry` (the nib cache). `kernelEventUptime` is when the kernel signalled pressure (the
  /// latency is recorded from it).
  public func receiveMemoryWarning(kernelEventUptime: UInt64? = nil) {
    guard state != .terminated, state != .notRunning else { return }
    if let kernelEventUptime {
      let now = configuration.environment.clock.uptimeNanoseconds()
      warningLatencies.append(now >= kernelEventUptime ? now - kernelEventUptime : 0)
    }
    memoryWarningCount += 1
    delegate.applicationDidReceiveMemoryWarning(self)
    post(.applicationDidReceiveMemoryWarning)
    for window in application.windows {
      for controller in window.rootViewController?.controllerTree ?? [] { controller.didReceiveMemoryWarning() }
    }
    for purgeable in purgeables { purgeable.object?.purge() }
    purgeables.removeAll { $0.object == nil }
    PurgeableRegistry.shared.purgeAll()
  }

  /// A memory warning without memory pressure, for tests and debugging (Xcode's "Simulate
  /// Memory Warning").
  public func simulateMemoryWarning() { receiveMemoryWarning() }
}

/// One observation of ``ApplicationLifecycle/addObserver(forName:using:)``.
public struct LifecycleObservation: Hashable, Sendable {
  let number: Int
}

struct WeakPurgeable {
  weak var object: Purgeable?
}
