public import StasisSystem

/// The one error type of the `Restoration` module: a snapshot that cannot be read or written, a
/// saved-state folder that cannot be used.
public struct RestorationError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<RestorationError>

  public var code: Code
  /// What was found and what was expected, in words.
  public var detail: String
  /// The snapshot file or folder involved, when there is one.
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

  /// `path: detail (cause)`; a cause about the same file is not named again:
  /// `…/data.archive: cannot write the snapshot: cannot create a temporary file in …: Read-only file system`.
  public var description: String {
    if let path, let underlying {
      let cause = String(describing: underlying)
      if cause.hasPrefix(path + ": ") { return path + ": " + detail + ": " + cause.dropFirst(path.count + 2) }
    }
    return (path.map { $0 + ": " } ?? "") + detail + ErrorChain.suffix(for: underlying)
  }
}

extension ErrorCode<RestorationError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch RestorationError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The file is not a snapshot: not a keyed archive, a torn or truncated one, or one whose
  /// nodes do not hold together (the detail says which key and what was expected).
  public static var corruptSnapshot: Self { Self("corrupt snapshot") }
  /// The snapshot was written by a newer format of Stasis's restoration.
  public static var unsupportedFormat: Self { Self("unsupported format") }
  /// The snapshot or the saved-state folder could not be read or written (permissions, a full
  /// disk, a missing folder).
  public static var fileSystem: Self { Self("file system") }
  /// The state could not be encoded (a value that cannot be archived).
  public static var encodingFailed: Self { Self("encoding failed") }
}
