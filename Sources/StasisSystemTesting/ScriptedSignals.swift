public import StasisSystem
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Signals that arrive when the test says (a `SignalPort`): ``deliver(_:)`` runs the handler a
/// host registered for the signal on the calling thread; ``raised`` lists what the code under
/// test sent itself (`SIGSTOP`); ``crash(with:)`` marks the armed crash markers as a crashing
/// signal would, without ending the process.
public final class ScriptedSignals: SignalPort {
  private struct State {
    var handlers: [Int32: [@MainActor @Sendable () -> Void]] = [:]
    var blocked: Set<Int32> = []
    var raised: [Int32] = []
    var markers: [Int32] = []
  }
  private let state = Mutex(State())

  public init() {}

  public func block(_ signals: [Int32]) { state.withLock { $0.blocked.formUnion(signals) } }

  public func handle(_ signal: Int32, _ handler: @escaping @MainActor @Sendable () -> Void) {
    state.withLock { state in
      state.blocked.insert(signal)
      state.handlers[signal, default: []].append(handler)
    }
  }

  public func raise(_ signal: Int32) { state.withLock { $0.raised.append(signal) } }

  public func armCrashMarker(descriptor: Int32) { state.withLock { $0.markers.append(descriptor) } }

  public func disarmCrashMarker(descriptor: Int32) {
    state.withLock { state in
      if let index = state.markers.firstIndex(of: descriptor) { state.markers.remove(at: index) }
    }
  }

  /// Delivers `signal`: runs every handler registered for it, in order; false when none is.
  @MainActor @discardableResult public func deliver(_ signal: Int32) -> Bool {
    let handlers = state.withLock { $0.handlers[signal] ?? [] }
    for handler in handlers { handler() }
    return !handlers.isEmpty
  }

  /// The signals a handler is registered for.
  public var handledSignals: Set<Int32> { state.withLock { Set($0.handlers.keys) } }
  /// The signals blocked so far (handled ones included).
  public var blockedSignals: Set<Int32> { state.withLock { $0.blocked } }
  /// The signals the code under test sent itself, in order.
  public var raised: [Int32] { state.withLock { $0.raised } }
  /// The descriptors armed as crash markers now.
  public var armedMarkers: [Int32] { state.withLock { $0.markers } }

  /// Appends `crash NN` and a newline to every armed marker, as the live crash handler does for
  /// a crashing `signal` (the process goes on: the test decides what the crash ends).
  public func crash(with signal: Int32) {
    let line = Array("crash \(signal < 10 ? "0" : "")\(signal)\n".utf8)
    for descriptor in armedMarkers {
      _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
  }
}
