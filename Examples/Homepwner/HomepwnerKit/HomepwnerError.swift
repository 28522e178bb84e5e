public import StasisSystem

/// The one error type of Homepwner's model: a store that cannot be read or written (`path`
/// is the file involved). The shared struct of Stasis's modules (`ModuleError`), in a domain of
/// its own.
public typealias HomepwnerError = ModuleError<HomepwnerErrorDomain>

/// The domain of ``HomepwnerError``.
public enum HomepwnerErrorDomain: ModuleErrorDomain {}

extension ErrorCode<HomepwnerError> {
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }
  /// The items archive or an image could not be read (it is kept aside, never deleted).
  public static var unreadable: Self { Self("unreadable") }
  /// The store could not be written (the previous file is intact).
  public static var writeFailed: Self { Self("write failed") }
}
