internal import Glibc
internal import Synchronization

/// The descriptors of the restoration markers open now (one per restoration running in this
/// process; tests run several at once), for the crash handler: a fixed table the handler reads
/// without locking or allocating.
private let markerSlotCount = 64
nonisolated(unsafe) private let markerSlots: UnsafeMutablePointer<Int32> = {
  let slots = UnsafeMutablePointer<Int32>.allocate(capacity: markerSlotCount)
  slots.initialize(repeating: -1, count: markerSlotCount)
  return slots
}()

/// The signals a crash raises: a Swift trap (`SIGILL`, `SIGTRAP`), `abort` (`SIGABRT`), bad
/// memory (`SIGSEGV`, `SIGBUS`), arithmetic (`SIGFPE`).
private let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

/// Appends `crash NN` to every open marker and lets the signal take its course (the handler is
/// reset on entry, so the faulting instruction or `abort` ends the process as it would have).
/// Only `write(2)` runs here: it is async-signal-safe.
private func recordCrash(_ signal: Int32) {
  var line: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
    0x63, 0x72, 0x61, 0x73, 0x68, 0x20, 0x30 + UInt8(truncatingIfNeeded: (signal / 10) % 10),
    0x30 + UInt8(truncatingIfNeeded: signal % 10), 0x0A
  )
  for index in 0..<markerSlotCount {
    let descriptor = markerSlots[index]
    if descriptor >= 0 { _ = withUnsafeBytes(of: &line) { Glibc.write(descriptor, $0.baseAddress, 9) } }
  }
}

/// Tells a crash during restoration from a kill: while armed, a crashing signal appends
/// `crash NN` to the marker file before the process dies; `SIGKILL` cannot be caught, so a kill
/// leaves the marker without it. The handlers the signals had before (the Swift runtime's
/// backtracer, an app's own) come back when the last restoration disarms.
enum CrashGuard {
  private struct State {
    var armed = 0
    var previous: [Int32: sigaction] = [:]
  }
  private static let state = Mutex(State())

  static func arm(markerDescriptor descriptor: Int32) {
    state.withLock { state in
      guard let slot = (0..<markerSlotCount).first(where: { markerSlots[$0] < 0 }) else { return }
      markerSlots[slot] = descriptor
      state.armed += 1
      guard state.armed == 1 else { return }
      for signal in crashSignals {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { recordCrash($0) }
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND) | Int32(truncatingIfNeeded: SA_NODEFER)
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        sigaction(signal, &action, &previous)
        state.previous[signal] = previous
      }
    }
  }

  static func disarm(markerDescriptor descriptor: Int32) {
    state.withLock { state in
      guard let slot = (0..<markerSlotCount).first(where: { markerSlots[$0] == descriptor }) else { return }
      markerSlots[slot] = -1
      state.armed -= 1
      guard state.armed == 0 else { return }
      for signal in crashSignals {
        guard var previous = state.previous[signal] else { continue }
        sigaction(signal, &previous, nil)
      }
      state.previous = [:]
    }
  }
}
