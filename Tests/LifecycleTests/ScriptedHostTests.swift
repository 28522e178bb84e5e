import Foundation
@_spi(Testing) import Lifecycle
import StasisSystem
import StasisSystemTesting
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The hosts in-process: signals, the terminal and memory pressure come from the scripted ports
/// of `StasisSystemTesting`, delivered by the test on its own thread (the real-process tier,
/// `ProcessLifecycleTests` and `SignalRaceTests`, checks the live ports).
@MainActor
@Suite struct ScriptedHostTests {
  struct World {
    let signals = ScriptedSignals()
    let terminal = ScriptedTerminal()
    let pressure = ScriptedMemoryPressure(
      sources: [.cgroupV2PSI(path: "/sys/fs/cgroup/app/memory.pressure"), .memAvailable(thresholdBytes: 1 << 28, interval: 1)],
      refused: [.cgroupV2PSI(path: "/sys/fs/cgroup/app/memory.pressure")])
    let clock = ManualClock()

    var environment: HostEnvironment {
      var environment = HostEnvironment.current
      environment.signals = signals
      environment.terminal = terminal
      environment.memoryPressure = pressure
      environment.clock = clock.hostClock
      return environment
    }

    @MainActor func lifecycle(_ delegate: RecordingDelegate) -> ApplicationLifecycle {
      ApplicationLifecycle(
        delegate: delegate, notificationCenter: delegate.center,
        configuration: ApplicationLifecycle.Configuration(terminateProcess: { _ in }, environment: environment))
    }
  }

  @Test func aHeadlessHostBlocksItsSignalsFromItsCreationAndRoutesThem() throws {
    let world = World()
    let delegate = RecordingDelegate(center: NotificationCenter())
    let host = HeadlessHost(lifecycle: world.lifecycle(delegate))
    #expect(world.signals.blockedSignals == Set([SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGUSR2, SIGCONT]))
    #expect(world.signals.handledSignals.isEmpty, "handlers come with start, the signals stay pending until then")
    try host.start(options: LaunchOptions())
    #expect(world.signals.handledSignals == Set([SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGUSR2, SIGCONT]))
    #expect(host.lifecycle.state == .active)
    _ = delegate.take()
    world.signals.deliver(SIGUSR1)
    #expect(host.lifecycle.state == .background)
    #expect(delegate.take() == ["willResignActive", "didEnterBackground"])
    #expect(world.signals.raised.isEmpty, "a headless host does not stop the process unless asked")
    world.signals.deliver(SIGUSR2)
    #expect(host.lifecycle.state == .active)
    #expect(delegate.take() == ["willEnterForeground", "didBecomeActive"])
  }

  @Test func aHeadlessHostThatStopsSuspendsOnceTheBackgroundWorkIsDone() throws {
    let world = World()
    let delegate = RecordingDelegate(center: NotificationCenter())
    let host = HeadlessHost(lifecycle: world.lifecycle(delegate), stopsWhenSuspended: true)
    try host.start(options: LaunchOptions())
    let task = host.lifecycle.beginBackgroundTask(withName: "upload")
    world.signals.deliver(SIGUSR1)
    #expect(host.lifecycle.state == .background && world.signals.raised.isEmpty, "a task is running")
    host.lifecycle.endBackgroundTask(task)
    #expect(host.lifecycle.state == .suspended)
    #expect(world.signals.raised == [SIGSTOP])
    world.signals.deliver(SIGCONT)
    #expect(host.lifecycle.state == .active)
  }

  @Test func aTerminalHostTakesTheTerminalReadsFocusAndGivesTheTerminalBackOnCtrlZ() throws {
    let world = World()
    let delegate = RecordingDelegate(center: NotificationCenter())
    let host = TerminalHost(lifecycle: world.lifecycle(delegate))
    let typed = Mutex<[[UInt8]]>([])
    host.inputHandler = { bytes in typed.withLock { $0.append(bytes) } }
    try host.start(options: LaunchOptions())
    #expect(world.terminal.isRaw)
    #expect(world.terminal.output == "\u{1B}[?1004h")
    _ = delegate.take()
    world.terminal.type(Array("\u{1B}[O".utf8))
    #expect(host.lifecycle.state == .inactive)
    world.terminal.type(Array("ab\u{1B}[I".utf8))
    #expect(host.lifecycle.state == .active)
    #expect(delegate.take() == ["willResignActive", "didBecomeActive"])
    #expect(typed.withLock { $0 } == [Array("ab".utf8)])
    world.signals.deliver(SIGTSTP)
    #expect(host.lifecycle.state == .suspended)
    #expect(world.signals.raised == [SIGSTOP])
    #expect(!world.terminal.isRaw && world.terminal.output.hasSuffix("\u{1B}[?1004l"), "the shell gets its terminal back")
    world.signals.deliver(SIGCONT)
    #expect(world.terminal.modeChanges == ["raw", "restored", "raw"])
    #expect(host.lifecycle.state == .active)
  }

  @Test func aTerminalHostReportsTheMouseWhenAsked() throws {
    let world = World()
    let host = TerminalHost(lifecycle: world.lifecycle(RecordingDelegate(center: NotificationCenter())))
    host.reportsMouse = true
    try host.start(options: LaunchOptions())
    #expect(world.terminal.output == "\u{1B}[?1004h\u{1B}[?1000h\u{1B}[?1006h")
    host.restoreTerminal()
    #expect(world.terminal.output.hasSuffix("\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?1004l"))
  }

  @Test func memoryPressureEpisodesAreGroupedOnTheEnvironmentsClock() throws {
    let world = World()
    let warnings = Mutex<[UInt64]>([])
    let monitor = try MemoryPressureMonitor(
      source: .memAvailable(thresholdBytes: 1 << 28, interval: 1), episodeGap: 2, environment: world.environment
    ) { seen in warnings.withLock { $0.append(seen) } }
    world.pressure.signal()
    world.clock.advance(by: .seconds(1))
    world.pressure.signal()
    #expect(warnings.withLock { $0 } == [0], "an event 1 s after the last one is the same episode")
    world.clock.advance(by: .milliseconds(2_001))
    world.pressure.signal()
    #expect(warnings.withLock { $0 } == [0, 3_001_000_000], "an event more than 2 s after the last one starts a new episode")
    monitor.stop()
    world.pressure.signal()
    #expect(warnings.withLock { $0 }.count == 2 && world.pressure.activeWatchCount == 0)
  }

  @Test func aSourceThatCannotBeArmedIsATypedErrorAndTheBestSourceIsTheNextOne() throws {
    let world = World()
    do {
      _ = try MemoryPressureMonitor(source: .cgroupV2PSI(path: "/sys/fs/cgroup/app/memory.pressure"), environment: world.environment) { _ in }
      Issue.record("a refused source was armed")
    } catch {
      #expect(error.code == .memorySourceUnavailable)
      #expect(error.description.contains("/sys/fs/cgroup/app/memory.pressure"))
      #expect(error.cause(AtomicFileError.self)?.code == .permissionDenied)
    }
    let best = try #require(MemoryPressureMonitor.best(environment: world.environment) { _ in })
    #expect(best.source == .memAvailable(thresholdBytes: 1 << 28, interval: 1))
  }
}
