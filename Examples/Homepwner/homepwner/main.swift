// Homepwner in a terminal: the books' reference app on Stasis — the item store archived
// as BNRItem objects, photos with a purgeable cache, the lifecycle driven by the terminal
// (Ctrl-Z suspends, fg resumes, focus changes make it inactive), keys and mouse clicks, and every
// screen restored after the process is killed in the background.
//
//   swift run homepwner          (containers under $STASIS_CONTAINERS_ROOT, else ~/.stasis/containers)
import Foundation
import Bundles
import Defaults
import HomepwnerKit
import InterfaceRendering
import Lifecycle
import Sandbox

#if canImport(Glibc)
  import Glibc
#endif

// (The start-up benchmark runs it without a terminal, to its first frame only.)
if ProcessInfo.processInfo.environment["HOMEPWNER_EXIT_AFTER_FIRST_FRAME"] != "1", isatty(STDIN_FILENO) != 1 || isatty(STDOUT_FILENO) != 1 {
  FileHandle.standardError.write(Data("homepwner: needs a terminal (run it in one, or in tmux)\n".utf8))
  exit(1)
}
let container: AppContainer
do {
  container = try ContainerRoot.standard().container(for: "com.bignerdranch.Homepwner", appName: "Homepwner")
} catch {
  FileHandle.standardError.write(Data("homepwner: \(error)\n".utf8))
  exit(1)
}
// The app's bundle (Info.plist, Base.lproj and en/de/fr/ja), beside this source file unless
// $HOMEPWNER_BUNDLE says otherwise; its defaults domain, whose AppleLanguages picks the language.
let bundlePath =
  ProcessInfo.processInfo.environment["HOMEPWNER_BUNDLE"].flatMap { $0.isEmpty ? nil : $0 }
  ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Homepwner.app").path
let preferences: Preferences
do {
  let defaults = try Defaults.UserDefaults(bundleIdentifier: "com.bignerdranch.Homepwner")
  defaults.provideAppleLanguagesToBundles()
  preferences = Preferences(defaults: defaults, bundle: try Bundles.Bundle(path: bundlePath))
} catch {
  FileHandle.standardError.write(Data("homepwner: \(error)\n".utf8))
  exit(1)
}
let app: HomepwnerApp
do {
  app = try HomepwnerApp(container: container, preferences: preferences)
} catch {
  FileHandle.standardError.write(Data("homepwner: \(error)\n".utf8))
  exit(1)
}
let (lifecycle, restoration) = app.makeLifecycle()
let terminal = HomepwnerTerminal(app: app)
let host = TerminalHost(lifecycle: lifecycle)
// Clicks and the wheel come as xterm's SGR mouse reports (the host turns them off with the rest
// of the terminal's modes on Ctrl-Z and on quitting).
host.reportsMouse = true

nonisolated func write(_ text: String) {
  let bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes[offset...].withUnsafeBytes { systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
    if written <= 0 { return }
    offset += written
  }
}

@MainActor func terminalSize() -> (width: Int, height: Int) {
  var size = winsize()
  if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 { return (Int(size.ws_col), Int(size.ws_row)) }
  return (80, 24)
}

/// `HOMEPWNER_EXIT_AFTER_FIRST_FRAME=1`: draw once and exit (the start-up benchmark).
let exitsAfterFirstFrame = ProcessInfo.processInfo.environment["HOMEPWNER_EXIT_AFTER_FIRST_FRAME"] == "1"

@MainActor func redraw() {
  guard lifecycle.state == .active || lifecycle.state == .inactive else { return }
  let size = terminalSize()
  write("\u{1B}[?1049h" + terminal.render(width: size.width, height: size.height).ansiFrame())
  if exitsAfterFirstFrame {
    write("\u{1B}[?1049l")
    exit(0)
  }
}

// The lifecycle posts on the main actor; its observers run there.
for name in [Notification.Name.applicationDidBecomeActive, .applicationWillResignActive] {
  lifecycle.addObserver(forName: name) { _ in redraw() }
}
// After a memory warning has reached every purgeable (the notification comes before them).
lifecycle.addObserver(forName: .applicationDidReceiveMemoryWarning) { _ in
  DispatchQueue.main.async { redraw() }
}
// Coming back: settings another process changed (`defaults write`) apply now — a new
// `AppleLanguages` too, whole: every label, number and date at once (Preferences.applyLanguageChange).
lifecycle.addObserver(forName: .applicationWillEnterForeground) { _ in
  _ = preferences.defaults.synchronize()
  preferences.applyLanguageChange()
}
// Leaving: back to the normal screen before the host restores the terminal and stops the process.
lifecycle.addObserver(forName: .applicationDidEnterBackground) { _ in write("\u{1B}[?1049l\u{1B}[?25h") }
lifecycle.addObserver(forName: .applicationWillTerminate) { _ in write("\u{1B}[?1049l\u{1B}[?25h") }

// The host calls these on the main actor.
host.inputHandler = { bytes in
  switch terminal.handle(bytes) {
  case .quit: host.quitAndExit()
  case .redraw: redraw()
  case .none: break
  }
}
host.handle(SIGWINCH) { redraw() }
// `kill -USR1`: a memory warning without memory pressure (Xcode's "Simulate Memory Warning").
host.handle(SIGUSR1) { lifecycle.simulateMemoryWarning() }
host.watchMemoryPressure()
_ = restoration
host.run(options: LaunchOptions(commandLine: Array(CommandLine.arguments.dropFirst())))

/// `write(2)`, unqualified so that the app builds with Glibc, Musl and Darwin.
func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, bytes, count) }
