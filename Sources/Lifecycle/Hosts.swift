internal import Foundation
public import StasisSystem

/// What moves an app between states for real: signals, the terminal, memory pressure. A host
/// owns the process's main run loop (`dispatchMain()`); every transition runs on the main actor
/// (`@MainActor`).
///
/// - ``HeadlessHost``: daemons and tools. `SIGTERM`, `SIGHUP` terminate, `SIGINT` (Ctrl-C) is the
///   user quitting (``ApplicationLifecycle/quit()``); `SIGUSR1` sends
///   the app to the background, `SIGUSR2` (or `SIGCONT`) brings it back.
/// - ``TerminalHost``: terminal apps. Focus reporting (`ESC[?1004h`) makes the app active and
///   inactive, mouse reporting when the app asks for it; `SIGTSTP` (Ctrl-Z) sends it to the
///   background and, once its background work is done, stops the process (suspended); `SIGCONT`
///   (`fg`) brings it back; `SIGTERM`, `SIGHUP` terminate, `SIGINT` and the app's own quit
///   command (``quitAndExit(status:)``) quit. The terminal is restored on every path.
/// - Tests drive ``ApplicationLifecycle`` directly (the test host).
@MainActor open class LifecycleHost {
  /// The lifecycle the host drives.
  public let lifecycle: ApplicationLifecycle
  /// The memory-pressure monitor, when a source could be armed.
  public private(set) var memoryMonitor: MemoryPressureMonitor?
  /// Which source the monitor uses, or why there is none, as a line for logs.
  public private(set) var memorySourceReport = "memory pressure: not watched"
  /// Whether the process stops itself (`SIGSTOP`) once the app is suspended.
  public var stopsWhenSuspended: Bool
  /// The process's signals: the environment's signal port (``ApplicationLifecycle/Configuration/environment``).
  public let signals: any SignalPort

  /// Makes the host and blocks its ``handledSignals`` in the calling thread (and so in every
  /// thread it starts later). The host is `@MainActor`, so that thread is the main one: make the
  /// host before the app starts threads.
  public init(lifecycle: ApplicationLifecycle, stopsWhenSuspended: Bool) {
    self.lifecycle = lifecycle
    self.stopsWhenSuspended = stopsWhenSuspended
    signals = lifecycle.configuration.environment.signals
    signals.block(handledSignals)
  }

  /// The signals `run(options:)` handles: `SIGTERM`, `SIGHUP`, `SIGINT` (subclasses add theirs).
  /// They are blocked from the host's creation on, in the creating thread and the threads it
  /// starts later, so that one sent while the app launches stays pending (see
  /// ``handle(_:_:)``) rather than ending the process by its default action.
  open var handledSignals: [Int32] { [SIGTERM, SIGHUP, SIGINT] }

  /// Routes `signal` to `handler` on the main actor through the signal port; a signal that
  /// comes before the port's source is armed is not lost (see `StasisSystem.POSIXSignals`).
  public func handle(_ signal: Int32, _ handler: @escaping @MainActor @Sendable () -> Void) {
    signals.handle(signal, handler)
  }

  /// Starts watching memory pressure (the best source this machine offers, or `source`); each
  /// episode becomes a memory warning on the main actor.
  public func watchMemoryPressure(source: MemoryPressureSource? = nil, episodeGap: Double = 2) {
    let lifecycle = self.lifecycle
    let environment = lifecycle.configuration.environment
    let deliver: @Sendable (UInt64) -> Void = { seen in
      DispatchQueue.main.async { lifecycle.receiveMemoryWarning(kernelEventUptime: seen) }
    }
    if let source {
      do {
        memoryMonitor = try MemoryPressureMonitor(source: source, episodeGap: episodeGap, environment: environment, onPressure: deliver)
      } catch {
        memorySourceReport = "memory pressure: \(error)"
        return
      }
    } else {
      memoryMonitor = MemoryPressureMonitor.best(episodeGap: episodeGap, environment: environment, onPressure: deliver)
    }
    memorySourceReport = memoryMonitor.map { "memory pressure: \($0.source)" } ?? "memory pressure: no source could be armed"
  }

  /// Ends the app (`willTerminate` unless suspended) and the process.
  open func terminateAndExit(status: Int32 = 0) -> Never {
    try? lifecycle.terminate()
    memoryMonitor?.stop()
    exit(status)
  }

  /// The user quits the app (``ApplicationLifecycle/quit()``: its saved state is discarded),
  /// then the process ends.
  open func quitAndExit(status: Int32 = 0) -> Never {
    try? lifecycle.quit()
    memoryMonitor?.stop()
    exit(status)
  }

  /// The app's background work is done: when the host stops processes, suspend the app and stop
  /// the process until `SIGCONT`; otherwise the app stays in the background (its code may still
  /// run, so it is not suspended).
  open func suspendIfIdle() {
    guard stopsWhenSuspended, (try? lifecycle.suspend()) != nil else { return }
    signals.raise(SIGSTOP)
  }

  /// Arms the host's signal handlers (and, for a terminal host, the terminal) and launches the
  /// app: everything `run(options:)` does before it runs the main loop. Tests call it with
  /// scripted signals and terminal, then deliver events in-process.
  open func start(options: LaunchOptions) throws(LifecycleError) {
    lifecycle.backgroundWorkDidFinish = { [weak self] in self?.suspendIfIdle() }
    for terminating in [SIGTERM, SIGHUP] {
      handle(terminating) { [weak self] in self?.terminateAndExit() }
    }
    handle(SIGINT) { [weak self] in self?.quitAndExit() }
    try lifecycle.launch(options: options)
  }

  /// Launches the app (``start(options:)``) and runs the main run loop forever.
  public func run(options: LaunchOptions) -> Never {
    do {
      try start(options: options)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      exit(1)
    }
    dispatchMain()
  }
}

/// The host of daemons and tools: signals only (see ``LifecycleHost``).
public final class HeadlessHost: LifecycleHost {
  public override init(lifecycle: ApplicationLifecycle, stopsWhenSuspended: Bool = false) {
    super.init(lifecycle: lifecycle, stopsWhenSuspended: stopsWhenSuspended)
  }

  /// `SIGUSR1`, `SIGUSR2` and `SIGCONT` besides the terminating ones.
  public override var handledSignals: [Int32] { super.handledSignals + [SIGUSR1, SIGUSR2, SIGCONT] }

  public override func start(options: LaunchOptions) throws(LifecycleError) {
    handle(SIGUSR1) { [weak self] in try? self?.lifecycle.enterBackground() }
    handle(SIGUSR2) { [weak self] in try? self?.lifecycle.enterForeground() }
    handle(SIGCONT) { [weak self] in
      if self?.lifecycle.state == .suspended { try? self?.lifecycle.enterForeground() }
    }
    try super.start(options: options)
  }
}

/// The host of terminal apps (see ``LifecycleHost``): raw input with focus reporting (and mouse
/// reporting, when asked), job control.
///
/// An escape at the very end of the input is held until the rest of its sequence comes, or for
/// ``escapeDelay``: a terminal sends a sequence (an arrow key, a mouse click) at once, a person
/// presses Escape alone; so a sequence reaches ``inputHandler`` never split right after its
/// escape, and the Escape key on its own once the delay has passed.
public final class TerminalHost: LifecycleHost {
  /// Bytes typed that are not focus events (keys, pasted text, mouse reports), on the main actor.
  public var inputHandler: (@MainActor ([UInt8]) -> Void)?
  /// Whether the terminal reports mouse clicks: xterm's button reporting (`ESC[?1000h`) with SGR
  /// coordinates (`ESC[?1006h`), so that a press comes as `ESC [ < button ; column ; row M` and a
  /// release with a final `m`. Turned off whenever the terminal is restored (Ctrl-Z, quitting,
  /// ending) and on again on resuming. Set it before `run(options:)`.
  public var reportsMouse = false
  /// How long an escape at the end of the input waits for the rest of its sequence, in seconds.
  public var escapeDelay = 0.05
  /// Counts the input that came: a held escape is passed on once ``escapeDelay`` has passed
  /// with the count unchanged (no more input).
  private var inputGeneration = 0
  private var pending: [UInt8] = []
  /// The terminal: the environment's (``ApplicationLifecycle/Configuration/environment``) unless given.
  public let terminal: any TerminalDevice

  public init(lifecycle: ApplicationLifecycle, terminal: (any TerminalDevice)? = nil) {
    self.terminal = terminal ?? lifecycle.configuration.environment.terminal
    super.init(lifecycle: lifecycle, stopsWhenSuspended: true)
  }

  /// A host on the terminal of the descriptors `input` and `output`.
  public convenience init(lifecycle: ApplicationLifecycle, input: Int32, output: Int32) {
    self.init(lifecycle: lifecycle, terminal: POSIXTerminal(input: input, output: output))
  }

  /// `SIGTSTP` and `SIGCONT` besides the terminating ones.
  public override var handledSignals: [Int32] { super.handledSignals + [SIGTSTP, SIGCONT] }

  /// Raw input (no echo, no line buffering; Ctrl-C and Ctrl-Z still signal) and focus reporting.
  func takeTerminal() {
    terminal.enterRawMode()
    terminal.write("\u{1B}[?1004h" + (reportsMouse ? "\u{1B}[?1000h\u{1B}[?1006h" : ""))
  }

  /// Focus (and mouse) reporting off and the terminal's modes as they were.
  public func restoreTerminal() {
    terminal.write((reportsMouse ? "\u{1B}[?1006l\u{1B}[?1000l" : "") + "\u{1B}[?1004l")
    terminal.restoreMode()
  }

  public override func terminateAndExit(status: Int32 = 0) -> Never {
    restoreTerminal()
    super.terminateAndExit(status: status)
  }

  public override func quitAndExit(status: Int32 = 0) -> Never {
    restoreTerminal()
    super.quitAndExit(status: status)
  }

  public override func suspendIfIdle() {
    guard (try? lifecycle.suspend()) != nil else { return }
    restoreTerminal()
    signals.raise(SIGSTOP)
  }

  /// Splits `bytes` into focus events (`ESC [ I`, `ESC [ O`) and other input; an escape at the
  /// end is held (see ``TerminalHost``).
  func consume(_ bytes: [UInt8]) {
    inputGeneration += 1
    pending += bytes
    var other: [UInt8] = []
    var index = 0
    while index < pending.count {
      if pending[index] == 0x1B {
        if index + 2 >= pending.count { break }  // wait for the rest of the sequence
        if pending[index + 1] == UInt8(ascii: "["), pending[index + 2] == UInt8(ascii: "I") || pending[index + 2] == UInt8(ascii: "O") {
          if !other.isEmpty { inputHandler?(other); other = [] }
          if pending[index + 2] == UInt8(ascii: "I") {
            if lifecycle.state == .inactive { try? lifecycle.becomeActive() }
          } else if lifecycle.state == .active {
            try? lifecycle.resignActive()
          }
          index += 3
          continue
        }
      }
      other.append(pending[index])
      index += 1
    }
    pending.removeFirst(index)
    if !other.isEmpty { inputHandler?(other) }
    if !pending.isEmpty {
      let generation = inputGeneration
      DispatchQueue.main.asyncAfter(deadline: .now() + escapeDelay) { [weak self] in
        guard let self, inputGeneration == generation, !pending.isEmpty else { return }
        let held = pending
        pending = []
        inputHandler?(held)
      }
    }
  }

  public override func start(options: LaunchOptions) throws(LifecycleError) {
    takeTerminal()
    handle(SIGTSTP) { [weak self] in try? self?.lifecycle.enterBackground() }
    handle(SIGCONT) { [weak self] in
      guard let self, lifecycle.state == .suspended || lifecycle.state == .background else { return }
      takeTerminal()
      try? lifecycle.enterForeground()
    }
    terminal.startReading(
      onInput: { [weak self] bytes in self?.consume(bytes) },
      // The terminal went away (end of input, hang-up).
      onEnd: { [weak self] in self?.terminateAndExit() })
    try super.start(options: options)
  }
}
