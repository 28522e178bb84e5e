public import StasisErrors

/// The one error type of the `Sandbox` module: a container could not be opened, or a path was
/// refused because it would leave the container.
///
/// Match it by ``code`` (`catch SandboxError.Code.escapesContainer`). The `description` is
/// `<path>: <detail>`, followed by the cause (``underlying``) in parentheses when there is one.
public struct SandboxError: StasisError, Equatable {
  /// What kind of failure this is.
  public struct Code: StasisErrorCode {
    public typealias Error = SandboxError
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static func ~= (code: Code, error: any Swift.Error) -> Bool { ErrorChain.contains(code, as: Error.self, in: error) }

    /// The path leads out of the container: `..` above its home, an absolute path, or a symbolic
    /// link whose target is outside (or missing, so it cannot be checked).
    public static let escapesContainer = Code(rawValue: "escapes container")
    /// The path cannot name a file at all: empty, a NUL byte, `~user`, a component or the whole
    /// path too long.
    public static let invalidPath = Code(rawValue: "invalid path")
    /// The bundle identifier or app name is not a safe folder name (reverse-DNS characters only).
    public static let invalidIdentifier = Code(rawValue: "invalid identifier")
    /// A folder of the container could not be created, inspected or purged.
    public static let fileSystem = Code(rawValue: "file system")
  }

  public let code: Code
  /// The path (or identifier) the error is about.
  public let path: String
  /// What was wrong or what failed, in words.
  public let detail: String
  /// The file-system error behind a ``Code/fileSystem`` error, when there is one.
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
