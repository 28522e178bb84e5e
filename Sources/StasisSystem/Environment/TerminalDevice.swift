/// The terminal a terminal app runs on (``HostEnvironment/terminal``): its modes (`termios`), its
/// output and its input. Live: ``POSIXTerminal``; tests use a scripted one that types on demand.
public protocol TerminalDevice: AnyObject, Sendable {
  /// Saves the terminal's modes and sets raw input: no echo, no line buffering, one byte at a
  /// time; Ctrl-C and Ctrl-Z still signal (`tcgetattr`, `tcsetattr`). False when the input is
  /// not a terminal.
  @discardableResult func enterRawMode() -> Bool
  /// Puts the saved modes back (nothing when ``enterRawMode()`` saved none).
  func restoreMode()
  /// Writes `text` to the output as it is (escape sequences included).
  func write(_ text: String)
  /// Delivers what is typed to `onInput` on the main queue, and calls `onEnd` when the input
  /// ends (end of file, hang-up). Call once.
  func startReading(onInput: @escaping @MainActor @Sendable ([UInt8]) -> Void, onEnd: @escaping @MainActor @Sendable () -> Void)
}
