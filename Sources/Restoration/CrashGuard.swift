internal import Glibc

/// The descriptor of the restoration marker while restoration runs, for the crash handler.
nonisolated(unsafe) private var markerDescriptor: Int32 = -1
/// The handlers the signals had before (the Swift runtime's backtracer, an app's own).
nonisolated(unsafe) private var previousActions: [Int32: sigaction] = [:]

/// The signals a crash raises: a Swift trap (`SIGILL`, `SIGTRAP`), `abort` (`SIGABRT`), bad
/// memory (`SIGSEGV`, `SIGBUS`), arithmetic (`SIGFPE`).
private let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

/// Writes `crash <signal>` into the marker and lets the signal take its course (the handler is
/// reset on entry, so the faulting instruction or `abort` ends the process as it would have).
/// Only `write(2)` runs here: it is async-signal-safe.
private func recordCrash(_ signal: Int32) {
  let descriptor = markerDescriptor
  guard descriptor >= 0 else { return }
  var line: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
    0x63, 0x72, 0x61, 0x73, 0x68, 0x20, 0x30 + UInt8(truncatingIfNeeded: (signal / 10) % 10), 0x30 + UInt8(truncatingIfNeeded: signal % 10), 0x0A
  )
  _ = withUnsafeBytes(of: &line) { Glibc.write(descriptor, $0.baseAddress, 9) }
}

/// Tells a crash during restoration from a kill: while armed, a crashing signal appends
/// `crash NN` to the marker file before the process dies; `SIGKILL` cannot be caught, so a kill
/// leaves the marker without it.
enum CrashGuard {
  static func arm(markerDescriptor descriptor: Int32) {
    markerDescriptor = descriptor
    for signal in crashSignals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { recordCrash($0) }
      action.sa_flags = Int32(SA_RESETHAND) | Int32(SA_NODEFER)
      sigemptyset(&action.sa_mask)
      var previous = sigaction()
      sigaction(signal, &action, &previous)
      previousActions[signal] = previous
    }
  }

  static func disarm() {
    for signal in crashSignals {
      guard var previous = previousActions[signal] else { continue }
      sigaction(signal, &previous, nil)
    }
    previousActions = [:]
    markerDescriptor = -1
  }
}
