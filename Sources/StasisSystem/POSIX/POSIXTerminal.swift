internal import Dispatch
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// A terminal device through its descriptors (see ``TerminalDevice``): `termios` for the modes,
/// `write(2)` for output and a libdispatch read source on the main queue for input.
public final class POSIXTerminal: TerminalDevice {
  private struct State {
    var saved: termios?
    var reader: Reader?
  }
  private let state = Mutex(State())

  /// The input's read source, kept while the terminal lives (libdispatch objects are thread-safe).
  private struct Reader: @unchecked Sendable {
    let source: any DispatchSourceRead
  }
  /// The descriptor read (standard input, 0, by default).
  public let input: Int32
  /// The descriptor written (standard output, 1, by default).
  public let output: Int32

  public init(input: Int32 = 0, output: Int32 = 1) {
    self.input = input
    self.output = output
  }

  /// The process's standard input and output.
  public static let standard = POSIXTerminal()

  @discardableResult public func enterRawMode() -> Bool {
    var attributes = termios()
    guard tcgetattr(input, &attributes) == 0 else { return false }
    state.withLock { $0.saved = attributes }
    var raw = attributes
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    return tcsetattr(input, TCSANOW, &raw) == 0
  }

  public func restoreMode() {
    guard var saved = state.withLock({ $0.saved }) else { return }
    tcsetattr(input, TCSANOW, &saved)
  }

  public func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        systemWrite(output, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  public func startReading(onInput: @escaping @MainActor @Sendable ([UInt8]) -> Void, onEnd: @escaping @MainActor @Sendable () -> Void) {
    let input = self.input
    let source = DispatchSource.makeReadSource(fileDescriptor: input, queue: .main)
    source.setEventHandler {
      var buffer = [UInt8](repeating: 0, count: 1024)
      let count = read(input, &buffer, buffer.count)
      if count < 0, errno == EINTR || errno == EAGAIN { return }
      // The source runs on the main queue, untyped: the callbacks are handed on to the main actor.
      guard count > 0 else {
        DispatchQueue.main.async { onEnd() }
        return
      }
      let bytes = Array(buffer[0..<count])
      DispatchQueue.main.async { onInput(bytes) }
    }
    source.resume()
    let reader = Reader(source: source)
    state.withLock { $0.reader = reader }
  }
}

/// `write(2)` (the method of the same name hides it inside the class).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
