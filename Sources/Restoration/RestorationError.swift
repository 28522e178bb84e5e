public import StasisSystem

/// The one error type of the `Restoration` module: a snapshot that cannot be read or written, a
/// saved-state folder that cannot be used.
///
/// `path` is the snapshot file or folder involved, when there is one. The `description` is
/// `path: detail (cause)`; a cause about the same file is not named again:
/// `…/data.archive: cannot write the snapshot: cannot create a temporary file in …: Read-only file system`.
public typealias RestorationError = ModuleError<RestorationErrorDomain>

/// The domain of ``RestorationError`` (see `ModuleErrorDomain`).
public enum RestorationErrorDomain: ModuleErrorDomain {
  /// `true`: a cause about the same file (the file system's error) does not name it again.
  public static var namesPathOnce: Bool { true }
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
