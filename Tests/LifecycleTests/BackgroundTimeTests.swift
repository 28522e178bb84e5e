import Foundation
@_spi(Testing) import Lifecycle
import Sandbox
import StasisSystem
import StasisSystemTesting
import Synchronization
import Testing
import TestSupport

/// Background time in-process on a manual clock (no sleeping: the watchdog's timers fire as the
/// test advances the clock), with the process's end replaced by a recorder.
@MainActor
@Suite struct BackgroundTimeTests {
  final class Ended: Sendable {
    let statuses = Mutex<[Int32]>([])
    var all: [Int32] { statuses.withLock { $0 } }
  }

  static func make(limit: Double = 5, budget: Double = 30, folder: ScratchFolder, ended: Ended, clock: ManualClock)
    -> (ApplicationLifecycle, SlowDelegate)
  {
    let delegate = SlowDelegate(clock: clock)
    var environment = HostEnvironment.current
    environment.clock = clock.hostClock
    let configuration = ApplicationLifecycle.Configuration(
      backgroundCallbackLimit: limit, backgroundTimeBudget: budget, expirationGrace: 0.2, logsFolder: folder.file("Library/Logs"),
      terminateProcess: { status in ended.statuses.withLock { $0.append(status) } }, environment: environment)
    return (ApplicationLifecycle(delegate: delegate, notificationCenter: NotificationCenter(), configuration: configuration), delegate)
  }

  /// A delegate whose `applicationDidEnterBackground` takes `backgroundTime` on the manual clock.
  final class SlowDelegate: ApplicationDelegate, @unchecked Sendable {
    let clock: ManualClock
    var backgroundTime = Duration.zero
    init(clock: ManualClock) { self.clock = clock }
    func applicationDidEnterBackground(_ lifecycle: ApplicationLifecycle) {
      if backgroundTime > .zero { clock.advance(by: backgroundTime) }
    }
  }

  static func report(_ lifecycle: ApplicationLifecycle) throws -> String {
    let path = try #require(lifecycle.watchdogReports.first)
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test func anAppsReportsGoToItsContainersLibraryLogs() throws {
    let folder = try ScratchFolder("lifecycle-container")
    defer { folder.remove() }
    let container = try ContainerRoot(path: folder.path).container(for: "com.example.notes", appName: "Notes")
    let configuration = ApplicationLifecycle.Configuration(container: container, backgroundCallbackLimit: 3)
    #expect(configuration.logsFolder == container.libraryPath + "/Logs")
    #expect(configuration.backgroundCallbackLimit == 3 && configuration.backgroundTimeBudget == 30)
  }

  @Test func anOverrunningDidEnterBackgroundEndsTheApp() throws {
    let folder = try ScratchFolder("lifecycle-overrun")
    defer { folder.remove() }
    let ended = Ended()
    let clock = ManualClock()
    let (lifecycle, delegate) = Self.make(limit: 0.2, folder: folder, ended: ended, clock: clock)
    delegate.backgroundTime = .milliseconds(600)
    try lifecycle.launch()
    try lifecycle.enterBackground()
    #expect(ended.all == [ApplicationLifecycle.watchdogExitStatus])
    let report = try Self.report(lifecycle)
    #expect(report.contains("applicationDidEnterBackground overran its 0.2 s limit (still running after 0.2 s)"))
  }

  /// Bytes written to a stated standard error.
  final class Recorded: Sendable {
    let bytes = Mutex<[UInt8]>([])
    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
  }

  /// An overrunning app on an in-memory disk, its standard error recorded, its process id 4242.
  static func overrunInMemory(disk: InMemoryFileSystem, standardError: Recorded, ended: Ended) throws -> ApplicationLifecycle {
    let clock = ManualClock()
    var environment = HostEnvironment.current
    environment.clock = clock.hostClock
    environment.fileSystem = disk
    environment.process.id = 4242
    environment.standardStreams = StandardStreams(
      readInput: { _ in [] }, writeOutput: { _ in }, writeError: { bytes in standardError.bytes.withLock { $0 += bytes } })
    let delegate = SlowDelegate(clock: clock)
    delegate.backgroundTime = .milliseconds(600)
    let configuration = ApplicationLifecycle.Configuration(
      backgroundCallbackLimit: 0.2, backgroundTimeBudget: 30, expirationGrace: 0.2, logsFolder: "/c/Library/Logs",
      terminateProcess: { status in ended.statuses.withLock { $0.append(status) } }, environment: environment)
    let lifecycle = ApplicationLifecycle(delegate: delegate, notificationCenter: NotificationCenter(), configuration: configuration)
    try lifecycle.launch()
    try lifecycle.enterBackground()
    return lifecycle
  }

  /// The report goes through the configuration's environment: its standard error, its file
  /// system (the logs folder made on the way) and its process id, none of the real process's.
  @Test func theReportGoesThroughTheEnvironment() throws {
    let disk = InMemoryFileSystem()
    let standardError = Recorded()
    let ended = Ended()
    let lifecycle = try Self.overrunInMemory(disk: disk, standardError: standardError, ended: ended)
    #expect(ended.all == [ApplicationLifecycle.watchdogExitStatus])
    let path = try #require(lifecycle.watchdogReports.first)
    #expect(path.hasPrefix("/c/Library/Logs/watchdog-4242-") && path.hasSuffix(".log"))
    let report = String(decoding: try #require(disk.file(path)), as: UTF8.self)
    #expect(report.contains("applicationDidEnterBackground overran its 0.2 s limit"))
    #expect(report.hasSuffix("process 4242, ended with status \(ApplicationLifecycle.watchdogExitStatus)\n"))
    #expect(standardError.text == report)
  }

  /// A report that cannot be written (a full disk) is no report, but the app is still ended and
  /// standard error still says why.
  @Test func aFullDiskLosesTheReportFileButNotTheEnd() throws {
    let disk = InMemoryFileSystem()
    disk.inject(.from(1, .noSpace))
    let standardError = Recorded()
    let ended = Ended()
    let lifecycle = try Self.overrunInMemory(disk: disk, standardError: standardError, ended: ended)
    #expect(ended.all == [ApplicationLifecycle.watchdogExitStatus])
    #expect(lifecycle.watchdogReports.isEmpty)
    #expect(disk.allPaths.isEmpty, "nothing half-written is left")
    #expect(standardError.text.contains("applicationDidEnterBackground overran its 0.2 s limit"))
  }

  @Test func aCallbackWithinItsLimitIsLeftAlone() throws {
    let folder = try ScratchFolder("lifecycle-within")
    defer { folder.remove() }
    let ended = Ended()
    let clock = ManualClock()
    let (lifecycle, delegate) = Self.make(limit: 5, folder: folder, ended: ended, clock: clock)
    delegate.backgroundTime = .milliseconds(4_999)
    try lifecycle.launch()
    try lifecycle.enterBackground()
    clock.advance(by: .seconds(60))
    #expect(ended.all.isEmpty && lifecycle.watchdogReports.isEmpty)
  }

  @Test func anUnendedTaskEndsTheAppWhenTheBudgetIsSpent() throws {
    let folder = try ScratchFolder("lifecycle-budget")
    defer { folder.remove() }
    let ended = Ended()
    let clock = ManualClock()
    let (lifecycle, _) = Self.make(budget: 0.3, folder: folder, ended: ended, clock: clock)
    try lifecycle.launch()
    let task = lifecycle.beginBackgroundTask(withName: "upload photos")
    try lifecycle.enterBackground()
    #expect(task != .invalid)
    #expect(lifecycle.backgroundTimeRemaining == 0.3)
    #expect(lifecycle.activeBackgroundTasks == ["upload photos"])
    clock.advance(by: .milliseconds(100))
    #expect(abs(lifecycle.backgroundTimeRemaining - 0.2) < 1e-9)
    clock.advance(by: .milliseconds(200))
    #expect(lifecycle.backgroundTimeRemaining == 0)
    #expect(ended.all.isEmpty, "the expiration handlers get the grace period first")
    #expect(lifecycle.beginBackgroundTask(withName: "late") == .invalid, "no new task once the budget is spent")
    clock.advance(by: .milliseconds(199))
    #expect(ended.all.isEmpty)
    clock.advance(by: .milliseconds(1))
    #expect(ended.all == [ApplicationLifecycle.watchdogExitStatus])
    #expect(
      try Self.report(lifecycle).contains(
        "background task \"upload photos\" not ended when the 0.3 s budget was spent (0.5 s in the background)"))
  }

  @Test func aTaskEndedInTheGracePeriodKeepsTheAppAlive() throws {
    let folder = try ScratchFolder("lifecycle-grace")
    defer { folder.remove() }
    let ended = Ended()
    let clock = ManualClock()
    let (lifecycle, _) = Self.make(budget: 1, folder: folder, ended: ended, clock: clock)
    try lifecycle.launch()
    let task = lifecycle.beginBackgroundTask(withName: "sync")
    try lifecycle.enterBackground()
    clock.advance(by: .milliseconds(1_100))
    lifecycle.endBackgroundTask(task)
    clock.advance(by: .seconds(10))
    #expect(ended.all.isEmpty && lifecycle.watchdogReports.isEmpty)
  }

  @Test func anEndedTaskKeepsTheAppAlive() throws {
    let folder = try ScratchFolder("lifecycle-ended")
    defer { folder.remove() }
    let ended = Ended()
    let clock = ManualClock()
    let (lifecycle, _) = Self.make(budget: 0.3, folder: folder, ended: ended, clock: clock)
    try lifecycle.launch()
    var finished = 0
    lifecycle.backgroundWorkDidFinish = { finished += 1 }
    try lifecycle.enterBackground()
    #expect(finished == 1, "no task: the background work is done when the callback returns")
    try lifecycle.enterForeground()
    #expect(lifecycle.backgroundTimeRemaining == .greatestFiniteMagnitude)
    try lifecycle.resignActive()
    let task = lifecycle.beginBackgroundTask(withName: "save")
    try lifecycle.enterBackground()
    #expect(finished == 1, "a task is running")
    lifecycle.endBackgroundTask(task)
    #expect(finished == 2)
    clock.advance(by: .seconds(60))
    #expect(ended.all.isEmpty)
    #expect(lifecycle.watchdogReports.isEmpty)
  }

  @Test func aStayInTheForegroundDisarmsTheEarlierTimers() throws {
    let folder = try ScratchFolder("lifecycle-return")
    defer { folder.remove() }
    let ended = Ended()
    let clock = ManualClock()
    let (lifecycle, _) = Self.make(budget: 1, folder: folder, ended: ended, clock: clock)
    try lifecycle.launch()
    _ = lifecycle.beginBackgroundTask(withName: "long")
    try lifecycle.enterBackground()
    clock.advance(by: .milliseconds(500))
    try lifecycle.enterForeground()
    clock.advance(by: .seconds(5))
    #expect(ended.all.isEmpty, "the timers of a stay that ended do nothing")
  }

  /// The latency of a memory warning is measured on the environment's clock, from the kernel's event.
  @Test func memoryWarningLatencyIsTimedOnTheEnvironmentsClock() throws {
    let folder = try ScratchFolder("lifecycle-latency")
    defer { folder.remove() }
    let clock = ManualClock()
    let (lifecycle, _) = Self.make(folder: folder, ended: Ended(), clock: clock)
    try lifecycle.launch()
    let seen = clock.now().nanoseconds
    clock.advance(by: .milliseconds(3))
    lifecycle.receiveMemoryWarning(kernelEventUptime: seen)
    lifecycle.receiveMemoryWarning(kernelEventUptime: clock.now().nanoseconds + 5)
    #expect(lifecycle.warningLatencies == [3_000_000, 0], "an event stamped after now counts as no delay")
  }
}
