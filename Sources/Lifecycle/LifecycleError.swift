public import StasisSystem

/// The one error type of the `Lifecycle` module: a transition the current state does not allow,
/// a memory-pressure source that cannot be opened, a host that cannot take the terminal.
public struct LifecycleError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<LifecycleError>

  public var code: Code
  /// What was found and what was expected, in words.
  public var detail: String
  /// The file involved (a cgroup or PSI file, the terminal), when there is one.
  public var path: String?
  /// The error behind this one.
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(_ code: Code, detail: String, path: String? = nil, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.detail = detail
    self.path = path
    self.cause = ErrorCause(underlying)
  }

  public var description: String { (path.map { $0 + ": " } ?? "") + detail + ErrorChain.suffix(for: underlying) }
}

extension ErrorCode<LifecycleError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch LifecycleError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The transition is not possible from the current state (launching twice, entering the
  /// foreground of an app that is not in the background).
  public static var invalidTransition: Self { Self("invalid transition") }
  /// A memory-pressure source could not be opened or armed (no such file, no permission, an old
  /// kernel without PSI triggers).
  public static var memorySourceUnavailable: Self { Self("memory source unavailable") }
  /// The terminal could not be put in raw mode or read.
  public static var terminal: Self { Self("terminal") }
}
