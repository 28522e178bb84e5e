import Foundation
import Lifecycle
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A real app process (Tools/stasis-lifecycle-child) run by a real host, moved between states by
/// real signals and a real pseudo-terminal; its log is read back.
final class ChildApp: @unchecked Sendable {
  nonisolated static let executable = BuiltExecutables.path(named: "stasis-lifecycle-child")
  nonisolated static let missingReason: Comment = "stasis-lifecycle-child was not built next to the tests"

  let folder: ScratchFolder
  let process = Process()
  var logPath: String { folder.file("app.log") }
  /// The pseudo-terminal's master side, for the terminal host.
  private(set) var master: Int32 = -1
  private(set) var slave: Int32 = -1

  init(_ arguments: [String], terminal: Bool = false) throws {
    folder = try ScratchFolder("lifecycle-child")
    process.executableURL = URL(fileURLWithPath: try #require(Self.executable))
    process.arguments = ["--log", folder.file("app.log"), "--logs", folder.file("Logs")] + arguments
    if terminal {
      // A pseudo-terminal pair: /dev/ptmx, unlocked (TIOCSPTLCK = _IOW(T, 0x31, int)), its slave's
      // number (TIOCGPTN = _IOR(T, 0x30, unsigned)); Glibc's module exports neither the macros nor posix_openpt.
      master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      var unlock: CInt = 0
      var number: CUnsignedInt = 0
      guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
        throw TestFailure("no pseudo-terminal")
      }
      slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
      let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
      process.standardInput = handle
      process.standardOutput = handle
    } else {
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
    }
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    if master >= 0 { close(master) }
    if slave >= 0 { close(slave) }
    folder.remove()
  }

  /// The callbacks logged so far (first word of each line).
  var lines: [String] {
    ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }
  var callbacks: [String] { lines.map { String($0.prefix { $0 != " " }) } }

  /// Waits until a logged line starts with `prefix`: returns as soon as it is there; `seconds`
  /// only bounds a failure (a loaded machine may take long, a lost event never comes).
  @discardableResult
  func waitFor(_ prefix: String, count: Int = 1, seconds: Double = 60) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if lines.filter({ $0.hasPrefix(prefix) }).count >= count { return true }
      usleep(20_000)
    }
    return false
  }

  func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  /// The process's state letter in /proc (R, S, T for stopped, Z).
  var processState: Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(close, offsetBy: 2)]
  }

  func waitForProcessState(_ state: Character, seconds: Double = 60) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if processState == state { return true }
      usleep(20_000)
    }
    return false
  }

  /// How the process stands, for failure messages: running (with its /proc state letter), or
  /// ended with a status or by a signal.
  var outcome: String {
    if process.isRunning { return "running (state \(processState.map(String.init) ?? "?"))" }
    let how = process.terminationReason == .uncaughtSignal ? "killed by signal" : "exited with status"
    return "\(how) \(process.terminationStatus)"
  }

  func waitForExit(seconds: Double = 60) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    guard !process.isRunning else { return nil }
    return process.terminationStatus
  }

  /// Writes `bytes` to the terminal as if typed (or sent by the terminal emulator).
  func type(_ text: String) {
    _ = text.withCString { write(master, $0, strlen($0)) }
  }

  /// Everything the app wrote to the terminal so far.
  func terminalOutput() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let flags = fcntl(master, F_GETFL)
    _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)
    while true {
      let count = read(master, &buffer, buffer.count)
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

@MainActor
@Suite(.serialized, .tags(.integration)) struct ProcessLifecycleTests {
  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason))
  func headlessHostFollowsTheSignals() throws {
    let app = try ChildApp(["--host", "headless", "--url", "myapp://open/7"])
    #expect(app.waitFor("didBecomeActive"))
    #expect(app.lines.contains("url myapp://open/7"))
    app.signal(SIGUSR1)
    #expect(app.waitFor("returned didEnterBackground"))
    app.signal(SIGUSR2)
    #expect(app.waitFor("didBecomeActive", count: 2))
    app.signal(SIGTERM)
    #expect(app.waitForExit() == 0)
    #expect(
      app.callbacks == [
        "memory", "willFinishLaunching", "didFinishLaunching", "url", "didBecomeActive", "willResignActive", "didEnterBackground",
        "returned", "willEnterForeground", "didBecomeActive", "willResignActive", "willTerminate",
      ])
  }

  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason), arguments: [SIGTERM, SIGINT, SIGHUP])
  func terminatingSignalsFromTheBackgroundCallWillTerminate(signal: Int32) throws {
    let app = try ChildApp(["--host", "headless"])
    #expect(app.waitFor("didBecomeActive"))
    app.signal(SIGUSR1)
    #expect(app.waitFor("returned didEnterBackground"))
    app.signal(signal)
    #expect(app.waitForExit() == 0)
    #expect(app.callbacks.suffix(1) == ["willTerminate"])
  }

  /// The terminal host: focus events make the app inactive and active; Ctrl-Z's SIGTSTP sends it
  /// to the background and, its work done, stops the process; SIGCONT brings it back; a
  /// suspended app killed ends without a word; the terminal is restored.
  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason))
  func terminalHostFocusJobControlAndRestore() throws {
    let app = try ChildApp(["--host", "terminal", "--task", "flush:0.3"], terminal: true)
    #expect(app.waitFor("didBecomeActive"))
    app.type("\u{1B}[O")
    #expect(app.waitFor("willResignActive"))
    app.type("\u{1B}[Ihello")
    #expect(app.waitFor("didBecomeActive", count: 2))
    #expect(app.waitFor("input hello"))
    app.signal(SIGTSTP)
    #expect(app.waitFor("ended flush"))
    #expect(app.waitForProcessState("T"), "the process stops itself once its background work is done")
    let output = app.terminalOutput()
    #expect(output.contains("\u{1B}[?1004h") && output.contains("\u{1B}[?1004l"), "focus reporting on, then off before stopping")
    var attributes = termios()
    tcgetattr(app.slave, &attributes)
    #expect(attributes.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO), "the terminal's modes restored while stopped")
    app.signal(SIGCONT)
    #expect(app.waitFor("didBecomeActive", count: 3))
    #expect(app.terminalOutput().contains("\u{1B}[?1004h"), "focus reporting back on")
    app.signal(SIGTSTP)
    #expect(app.waitForProcessState("T"))
    app.signal(SIGKILL)
    #expect(app.waitForExit() != 0)
    let callbacks = app.callbacks.filter { !["memory", "began", "ended", "returned", "input", "url"].contains($0) }
    #expect(
      callbacks == [
        "willFinishLaunching", "didFinishLaunching", "didBecomeActive", "willResignActive", "didBecomeActive", "willResignActive",
        "didEnterBackground", "willEnterForeground", "didBecomeActive", "willResignActive", "didEnterBackground",
      ], "no willTerminate for a suspended app")
  }

  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason))
  func terminalHostRestoresTheTerminalOnTermination() throws {
    let app = try ChildApp(["--host", "terminal"], terminal: true)
    #expect(app.waitFor("didBecomeActive"))
    app.signal(SIGTERM)
    #expect(app.waitForExit() == 0)
    #expect(app.terminalOutput().hasSuffix("\u{1B}[?1004l"))
    var attributes = termios()
    tcgetattr(app.slave, &attributes)
    #expect(attributes.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
    #expect(app.callbacks.suffix(2) == ["willResignActive", "willTerminate"])
  }

  /// Terminated while inactive (focus lost): `willTerminate` without another `willResignActive`.
  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason))
  func terminatingAnInactiveAppCallsOnlyWillTerminate() throws {
    let app = try ChildApp(["--host", "terminal"], terminal: true)
    #expect(app.waitFor("didBecomeActive"))
    app.type("\u{1B}[O")
    #expect(app.waitFor("willResignActive"))
    app.signal(SIGHUP)
    #expect(app.waitForExit() == 0)
    #expect(app.callbacks.suffix(3) == ["didBecomeActive", "willResignActive", "willTerminate"])
  }

  /// The watchdog in a real process: an overrunning didEnterBackground, and a task never ended.
  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason))
  func watchdogEndsAnOverrunningCallback() throws {
    let app = try ChildApp(["--host", "headless", "--callback-seconds", "3", "--limit", "0.5"])
    #expect(app.waitFor("didBecomeActive"))
    app.signal(SIGUSR1)
    #expect(app.waitForExit() == ApplicationLifecycle.watchdogExitStatus)
    #expect(!app.callbacks.contains("returned"))
    let reports = (try? FileManager.default.contentsOfDirectory(atPath: app.folder.file("Logs"))) ?? []
    let report = try String(contentsOfFile: app.folder.file("Logs/" + (try #require(reports.first))), encoding: .utf8)
    #expect(report.contains("applicationDidEnterBackground overran its 0.5 s limit"))
  }

  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason))
  func watchdogEndsAnUnendedTaskAfterItsExpirationHandler() throws {
    // The quick task ends at once (queued on the main queue right after the callback) and the
    // grace after the expiration handlers is long, so a loaded machine cannot reorder the events.
    let app = try ChildApp(["--host", "headless", "--task", "sync:-1", "--task", "quick:0", "--budget", "0.6", "--grace", "3"])
    #expect(app.waitFor("didBecomeActive"))
    app.signal(SIGUSR1)
    #expect(app.waitForExit() == ApplicationLifecycle.watchdogExitStatus)
    #expect(app.lines.contains("expired sync"), "the expiration handler ran on the main queue")
    #expect(app.lines.contains("ended quick"))
    let reports = (try? FileManager.default.contentsOfDirectory(atPath: app.folder.file("Logs"))) ?? []
    let report = try String(contentsOfFile: app.folder.file("Logs/" + (try #require(reports.first))), encoding: .utf8)
    #expect(report.contains("background task \"sync\" not ended when the 0.6 s budget was spent"))
  }

  @Test(.enabled(if: ChildApp.executable != nil, ChildApp.missingReason))
  func anEndedTaskKeepsTheProcessAlive() throws {
    let app = try ChildApp(["--host", "headless", "--task", "save:0.2", "--budget", "0.6", "--grace", "0.2"])
    #expect(app.waitFor("didBecomeActive"))
    app.signal(SIGUSR1)
    #expect(app.waitFor("ended save"))
    usleep(1_200_000)
    #expect(app.process.isRunning)
    app.signal(SIGTERM)
    #expect(app.waitForExit() == 0)
  }
}
