/// The process's signals, owned in one place (``HostEnvironment/signals``): the lifecycle hosts'
/// handled signals (`SIGTERM`, `SIGINT`, `SIGTSTP` …, delivered on the main queue) and the crash
/// guard of state restoration (a crashing signal marks the restoration markers before the
/// process dies). Live: ``POSIXSignals``; tests use a scripted one that delivers on demand.
public protocol SignalPort: Sendable {
  /// Blocks `signals` in the calling thread (threads it starts later inherit the mask), so that
  /// one sent before its handler is armed stays pending instead of ending the process.
  func block(_ signals: [Int32])
  /// Routes `signal` to `handler` on the main queue (`DispatchSource.makeSignalSource`); a signal
  /// that comes before the handler is armed is not lost. Call it on the main thread.
  func handle(_ signal: Int32, _ handler: @escaping @MainActor @Sendable () -> Void)
  /// Sends `signal` to this process (`raise`): `SIGSTOP` once a suspended app's work is done.
  func raise(_ signal: Int32)
  /// While armed, a crashing signal (`SIGILL`, `SIGTRAP`, `SIGABRT`, `SIGSEGV`, `SIGBUS`,
  /// `SIGFPE`) appends `crash NN` (the signal number, two digits) and a newline to the open file
  /// `descriptor` before the process dies; a kill (`SIGKILL`) leaves it untouched.
  func armCrashMarker(descriptor: Int32)
  /// Stops marking `descriptor`; the signals' earlier handlers come back when none is armed.
  func disarmCrashMarker(descriptor: Int32)
}
