public import StasisSystem

/// The one error type of the `Sandbox` module: a container could not be opened, or a path was
/// refused because it would leave the container.
///
/// Match it by ``code`` (`catch SandboxError.Code.escapesContainer`). The `description` is
/// `<path>: <detail>`, followed by the cause (``underlying``) in parentheses when there is one.
public struct SandboxError: StasisError, Equatable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<SandboxError>

  public let code: Code
  /// The path (or identifier) the error is about.
  public let path: String
  /// What was wrong or what failed, in words.
  public let detail: String
  /// The file-system error behind a `Code.fileSystem` error, when there is one.
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(_ code: Code, path: String, detail: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.path = path
    self.detail = detail
    self.cause = ErrorCause(underlying)
  }

  public var description: String { "\(path): \(detail)" + ErrorChain.suffix(for: underlying) }
}

extension ErrorCode<SandboxError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch SandboxError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The path leads out of the container: `..` above its home, an absolute path, or a symbolic
  /// link whose target is outside (or missing, so it cannot be checked).
  public static var escapesContainer: Self { Self("escapes container") }
  /// The path cannot name a file at all: empty, a NUL byte, `~user`, a component or the whole
  /// path too long.
  public static var invalidPath: Self { Self("invalid path") }
  /// The bundle identifier or app name is not a safe folder name (reverse-DNS characters only).
  public static var invalidIdentifier: Self { Self("invalid identifier") }
  /// A folder of the container could not be created, inspected or purged.
  public static var fileSystem: Self { Self("file system") }
}
