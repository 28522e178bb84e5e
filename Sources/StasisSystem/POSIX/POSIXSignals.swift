internal import Dispatch
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// How many signal numbers `handle` accepts (1–64, the real-time ones included).
private let signalSlots = 65

/// The handler a signal has until libdispatch takes it over: it sends the signal to the process
/// again, a millisecond later, so that it is never consumed before libdispatch can read it.
/// `nanosleep` and `kill` are async-signal-safe.
/// (Linux: libdispatch's epoll back end. Darwin's kqueue needs no such handler.)
private func requeueSignal(_ caught: Int32) {
  var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
  _ = nanosleep(&pause, nil)
  _ = kill(getpid(), caught)
}

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
  /// thread in `sigsuspend` with every signal unblocked, and a thread started before the host may
  /// not block it either. So the signal is blocked here (it stays pending while the caller runs)
  /// and, until libdispatch's handler replaces it, handled by one that sends it to the process
  /// again (`requeueSignal`): a signal caught early comes back, pending, until libdispatch reads
  /// it. (A handler that only recorded the signal for the source's registration handler to
  /// replay lost it when the thread was preempted between taking the signal and recording it
  /// while the registration handler ran.)
  public func handle(_ signal: Int32, _ handler: @escaping @MainActor @Sendable () -> Void) {
    precondition(signal > 0 && Int(signal) < signalSlots, "not a signal number: \(signal)")
    block([signal])
    #if canImport(Darwin)
      // kqueue's EVFILT_SIGNAL sees a signal even when it is ignored, and libdispatch never
      // replaces the handler there: Apple's pattern is to ignore it.
      _ = Darwin.signal(signal, SIG_IGN)
    #else
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { requeueSignal($0) }
      action.sa_flags = Int32(truncatingIfNeeded: SA_RESTART)
      sigemptyset(&action.sa_mask)
      sigaction(signal, &action, nil)
    #endif
    let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
    // The source's handler runs on the main queue, but is not typed as the main actor's: the
    // handler is handed on to the main actor from there.
    source.setEventHandler { DispatchQueue.main.async { handler() } }
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
