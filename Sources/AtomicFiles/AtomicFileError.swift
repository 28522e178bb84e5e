import FoundationEssentials

import Glibc

/// The one error type of the `AtomicFiles` module: a file could not be read, written or locked.
///
/// Match it by ``code`` (`catch let error where error.code == .noSpace`); ``systemError`` keeps the `errno` the system reported, and ``detail`` says
/// which step failed. The `description` names the path, the step and the system's reason:
///
/// ```text
/// /data/Library/Preferences/com.example.plist: cannot write the temporary file: No space left on device (errno 28)
/// ```
public struct AtomicFileError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What kind of failure this is.
  public enum Code: Equatable, Sendable {
    /// The file system is full or the user's quota is used up (`ENOSPC`, `EDQUOT`).
    case noSpace
    /// The file or its folder may not be written or read (`EACCES`, `EPERM`, `EROFS`).
    case permissionDenied
    /// The file or one of its folders does not exist (`ENOENT`, `ENOTDIR`).
    case notFound
    /// The path names a folder or something else that is not a file (`EISDIR`).
    case notAFile
    /// Any other failure of the system call (`EIO`, …).
    case ioFailure
    /// The advisory lock could not be taken or released.
    case lockFailure
    /// The file is larger than the caller's limit, or than the file system allows (`EFBIG`).
    case tooLarge
  }

  public let code: Code
  /// The file (or folder) the operation was about.
  public let path: String
  /// The `errno` value behind the failure, if a system call failed.
  public let systemError: Int32?
  /// What was being done, e.g. "cannot rename the temporary file over the destination".
  public let detail: String

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
  static func system(_ number: Int32, _ detail: String, path: String) -> AtomicFileError {
    AtomicFileError(code(for: number), path: path, systemError: number, detail: detail)
  }

  /// The code for an `errno` value.
  static func code(for number: Int32) -> Code {
    switch number {
    case ENOSPC, EDQUOT: .noSpace
    case EACCES, EPERM, EROFS: .permissionDenied
    case ENOENT, ENOTDIR: .notFound
    case EISDIR: .notAFile
    case EFBIG: .tooLarge
    default: .ioFailure
    }
  }
}

