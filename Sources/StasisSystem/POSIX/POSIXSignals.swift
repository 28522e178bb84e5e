internal import Dispatch
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// How many signal numbers the tables below cover (1–64, the real-time ones included).
private let signalSlots = 65
/// Signals caught before libdispatch took them over (index: the signal number), written by the
/// handler (one aligned store: async-signal-safe) and read on the main queue.
nonisolated(unsafe) private let caughtBeforeArming: UnsafeMutablePointer<Int32> = {
  let flags = UnsafeMutablePointer<Int32>.allocate(capacity: signalSlots)
  flags.initialize(repeating: 0, count: signalSlots)
  return flags
}()

/// The descriptors the crash handler marks (one per restoration running in this process; tests
/// run several at once): a fixed table the handler reads without locking or allocating.
private let markerSlotCount = 64
nonisolated(unsafe) private let markerSlots: UnsafeMutablePointer<Int32> = {
  let slots = UnsafeMutablePointer<Int32>.allocate(capacity: markerSlotCount)
  slots.initialize(repeating: -1, count: markerSlotCount)
  return slots
}()

/// The signals a crash raises: a Swift trap (`SIGILL`, `SIGTRAP`), `abort` (`SIGABRT`), bad
/// memory (`SIGSEGV`, `SIGBUS`), arithmetic (`SIGFPE`).
private let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

/// Appends `crash NN` to every armed descriptor and lets the signal take its course (the handler
/// is reset on entry, so the faulting instruction or `abort` ends the process as it would have).
/// Only `write(2)` runs here: it is async-signal-safe.
private func recordCrash(_ signal: Int32) {
  var line: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
    0x63, 0x72, 0x61, 0x73, 0x68, 0x20, 0x30 + UInt8(truncatingIfNeeded: (signal / 10) % 10),
    0x30 + UInt8(truncatingIfNeeded: signal % 10), 0x0A
  )
  for index in 0..<markerSlotCount {
    let descriptor = markerSlots[index]
    if descriptor >= 0 { _ = withUnsafeBytes(of: &line) { write(descriptor, $0.baseAddress, 9) } }
  }
}

/// The process's one signal owner (see ``SignalPort``): `sigaction`, `pthread_sigmask` and
/// libdispatch's signal sources. Signals belong to the process, so every value shares one state.
public struct POSIXSignals: SignalPort {
  private struct State {
    var sources: [ArmedSource] = []
    var armedMarkers = 0
    var previousCrashActions: [Int32: sigaction] = [:]
  }
  private static let state = Mutex(State())

  /// A signal source kept alive for the life of the process (libdispatch objects are thread-safe).
  private struct ArmedSource: @unchecked Sendable {
    let source: any DispatchSourceSignal
  }

  public init() {}

  public func block(_ signals: [Int32]) {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// libdispatch reads a signal source's signals with `signalfd` once its manager thread has
  /// armed it, some time after `resume()`, and installs its own handler then. Until that moment
  /// a signal would be lost: blocking it is not enough, because `dispatchMain()` parks the main
  /// thread in `sigsuspend` with every signal unblocked. So the signal is blocked here (it stays
  /// pending while the caller runs) and caught by a handler that only records it; when the
  /// source is registered (its registration handler, on the main queue, after libdispatch took
  /// the signal over), a recorded signal runs `handler` once.
  public func handle(_ signal: Int32, _ handler: @escaping @MainActor @Sendable () -> Void) {
    precondition(signal > 0 && Int(signal) < signalSlots, "not a signal number: \(signal)")
    block([signal])
    caughtBeforeArming[Int(signal)] = 0
    var action = sigaction()
    #if canImport(Darwin)
      action.__sigaction_u.__sa_handler = { caught in caughtBeforeArming[Int(caught)] = 1 }
    #else
      action.__sigaction_handler.sa_handler = { caught in caughtBeforeArming[Int(caught)] = 1 }
    #endif
    action.sa_flags = Int32(truncatingIfNeeded: SA_RESTART)
    sigemptyset(&action.sa_mask)
    sigaction(signal, &action, nil)
    let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
    // The source's handlers run on the main queue, but are not typed as the main actor's: the
    // handler is handed on to the main actor from there.
    source.setEventHandler { DispatchQueue.main.async { handler() } }
    source.setRegistrationHandler {
      if caughtBeforeArming[Int(signal)] != 0 {
        caughtBeforeArming[Int(signal)] = 0
        DispatchQueue.main.async { handler() }
      }
    }
    source.resume()
    let armed = ArmedSource(source: source)
    Self.state.withLock { $0.sources.append(armed) }
  }

  public func raise(_ signal: Int32) {
    #if canImport(Glibc)
      _ = Glibc.raise(signal)
    #elseif canImport(Musl)
      _ = Musl.raise(signal)
    #elseif canImport(Darwin)
      _ = Darwin.raise(signal)
    #endif
  }

  public func armCrashMarker(descriptor: Int32) {
    Self.state.withLock { state in
      guard let slot = (0..<markerSlotCount).first(where: { markerSlots[$0] < 0 }) else { return }
      markerSlots[slot] = descriptor
      state.armedMarkers += 1
      guard state.armedMarkers == 1 else { return }
      for signal in crashSignals {
        var action = sigaction()
        #if canImport(Darwin)
          action.__sigaction_u.__sa_handler = { recordCrash($0) }
        #else
          action.__sigaction_handler.sa_handler = { recordCrash($0) }
        #endif
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND) | Int32(truncatingIfNeeded: SA_NODEFER)
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        sigaction(signal, &action, &previous)
        state.previousCrashActions[signal] = previous
      }
    }
  }

  public func disarmCrashMarker(descriptor: Int32) {
    Self.state.withLock { state in
      guard let slot = (0..<markerSlotCount).first(where: { markerSlots[$0] == descriptor }) else { return }
      markerSlots[slot] = -1
      state.armedMarkers -= 1
      guard state.armedMarkers == 0 else { return }
      for signal in crashSignals {
        guard var previous = state.previousCrashActions[signal] else { continue }
        sigaction(signal, &previous, nil)
      }
      state.previousCrashActions = [:]
    }
  }
}
