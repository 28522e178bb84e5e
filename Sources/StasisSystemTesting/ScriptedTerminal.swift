public import StasisSystem
internal import Synchronization

/// A terminal the test types on (a `TerminalDevice`): it records its modes and everything
/// written; ``type(_:)`` delivers bytes to the reader on the calling thread and ``hangUp()``
/// ends the input.
public final class ScriptedTerminal: TerminalDevice {
  private struct State {
    var raw = false
    var modeChanges: [String] = []
    var output = ""
    var onInput: (@MainActor @Sendable ([UInt8]) -> Void)?
    var onEnd: (@MainActor @Sendable () -> Void)?
  }
  private let state = Mutex(State())
  /// Whether the input is a terminal (false: ``enterRawMode()`` fails, as on a pipe).
  public let isTerminal: Bool

  public init(isTerminal: Bool = true) { self.isTerminal = isTerminal }

  @discardableResult public func enterRawMode() -> Bool {
    guard isTerminal else { return false }
    state.withLock { state in
      state.raw = true
      state.modeChanges.append("raw")
    }
    return true
  }

  public func restoreMode() {
    state.withLock { state in
      guard state.raw else { return }
      state.raw = false
      state.modeChanges.append("restored")
    }
  }

  public func write(_ text: String) { state.withLock { $0.output += text } }

  public func startReading(onInput: @escaping @MainActor @Sendable ([UInt8]) -> Void, onEnd: @escaping @MainActor @Sendable () -> Void) {
    state.withLock { state in
      state.onInput = onInput
      state.onEnd = onEnd
    }
  }

  /// Whether the terminal is in raw mode now.
  public var isRaw: Bool { state.withLock { $0.raw } }
  /// Every mode change, in order: `raw`, `restored`.
  public var modeChanges: [String] { state.withLock { $0.modeChanges } }
  /// Everything written so far.
  public var output: String { state.withLock { $0.output } }

  /// Types `bytes` (a key, a pasted text, an escape sequence); false when nothing reads.
  @MainActor @discardableResult public func type(_ bytes: [UInt8]) -> Bool {
    guard let reader = state.withLock({ $0.onInput }) else { return false }
    reader(bytes)
    return true
  }

  /// The input ends (end of file, hang-up).
  @MainActor public func hangUp() { state.withLock { $0.onEnd }?() }
}
