
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one error type of the `StasisSystem` module: a file could not be read, written or locked.
///
/// Match it by ``code`` (`catch AtomicFileError.Code.noSpace`, which also matches an error of
/// another module caused by a full disk); ``systemError`` keeps the `errno` the system reported,
/// and ``detail`` says which step failed. The `description` names the path, the step and the system's reason:
///
/// ```text
/// /data/Library/Preferences/com.example.plist: cannot write the temporary file: No space left on device (errno 28)
/// ```
public struct AtomicFileError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<AtomicFileError>

  public let code: Code
  /// The file (or folder) the operation was about.
  public let path: String
  /// The `errno` value behind the failure, if a system call failed.
  public let systemError: Int32?
  /// What was being done, e.g. "cannot rename the temporary file over the destination".
  public let detail: String
  /// Always `nil`: a file-system error is the end of a chain (the `errno` is ``systemError``).
  public var underlying: (any Error & Sendable)? { nil }

  public init(_ code: Code, path: String, systemError: Int32? = nil, detail: String) {
    self.code = code
    self.path = path
    self.systemError = systemError
    self.detail = detail
  }

  public var description: String {
    var text = "\(path): \(detail)"
    if let systemError {
      text += ": \(String(cString: strerror(systemError))) (errno \(systemError))"
    }
    return text
  }

  /// The error for the failed system call whose `errno` is `number`.
  @inline(never)
  public static func system(_ number: Int32, _ detail: String, path: String) -> AtomicFileError {
    AtomicFileError(code(for: number), path: path, systemError: number, detail: detail)
  }

  /// The code for an `errno` value (`ENOSPC` and `EDQUOT` are `Code.noSpace`, …).
  public static func code(for number: Int32) -> Code {
    switch number {
    case ENOSPC, EDQUOT: .noSpace
    case EACCES, EPERM, EROFS: .permissionDenied
    case ENOENT, ENOTDIR: .notFound
    case EISDIR: .notAFile
    case EFBIG: .tooLarge
    case EEXIST: .alreadyExists
    case ENOSYS, ENOTSUP: .notSupported
    default: .ioFailure
    }
  }
}

extension ErrorCode<AtomicFileError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch AtomicFileError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The file system is full or the user's quota is used up (`ENOSPC`, `EDQUOT`).
  public static var noSpace: Self { Self("no space") }
  /// The file or its folder may not be written or read (`EACCES`, `EPERM`, `EROFS`).
  public static var permissionDenied: Self { Self("permission denied") }
  /// The file or one of its folders does not exist (`ENOENT`, `ENOTDIR`).
  public static var notFound: Self { Self("not found") }
  /// The path names a folder or something else that is not a file (`EISDIR`).
  public static var notAFile: Self { Self("not a file") }
  /// Any other failure of the system call (`EIO`, …).
  public static var ioFailure: Self { Self("I/O failure") }
  /// The advisory lock could not be taken or released.
  public static var lockFailure: Self { Self("lock failure") }
  /// The file is larger than the caller's limit, or than the file system allows (`EFBIG`).
  public static var tooLarge: Self { Self("too large") }
  /// Something is already at the path (`EEXIST`).
  public static var alreadyExists: Self { Self("already exists") }
  /// The file system cannot do this (`ENOSYS`, `ENOTSUP`, `EINVAL`), e.g. exchange two names.
  public static var notSupported: Self { Self("not supported") }
}
