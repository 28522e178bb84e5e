public import StasisSystem

/// The one error type of the `KeyedArchive` module.
///
/// Thrown for archives that are not keyed archives or are damaged, for classes that are unknown or
/// not allowed, for cycles that cannot be restored, for values of the wrong type and for limits.
/// Match by ``code``; the `description` names the object (its index in `$objects`), the class and
/// key involved, and what was expected.
public struct KeyedArchiveError: StasisError, Hashable {
  public typealias Code = ErrorCode<KeyedArchiveError>

  public var code: Code
  /// What went wrong, naming the object index, class and key.
  public var detail: String
  /// The error behind a `Code.propertyList` or `Code.corruptArchive` error: the
  /// `PropertyListError` (whose own cause is the file-system error of a failed
  /// read or write), or the error a class's `encode(with:)`/`init(coder:)` threw.
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(_ code: Code, _ detail: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.detail = detail
    self.cause = ErrorCause(underlying)
  }

  public var description: String {
    "keyed archive: " + detail + ErrorChain.suffix(for: underlying)
  }
}

extension ErrorCode<KeyedArchiveError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch KeyedArchiveError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The bytes are not a property list, or not a keyed archive (`$archiver`, `$version`,
  /// `$top`, `$objects` missing or of the wrong type). Apple: `NSCoderReadCorruptError` (4864).
  public static var corruptArchive: Self { Self("corrupt archive") }
  /// A reference (`CF$UID`) or `$class` points outside `$objects` or at the wrong kind of entry.
  public static var badReference: Self { Self("bad reference") }
  /// No class is registered for the archived class name nor for any name in its `$classes`.
  public static var unknownClass: Self { Self("unknown class") }
  /// Secure decoding refused a class: not in the allowed set, or it does not support secure coding.
  public static var classNotAllowed: Self { Self("class not allowed") }
  /// A value has a different type than the caller asked for. Apple: `NSCoderReadCorruptError`.
  public static var typeMismatch: Self { Self("type mismatch") }
  /// A required key or top-level key is missing. Apple: `NSCoderValueNotFoundError` (4865).
  public static var valueNotFound: Self { Self("value not found") }
  /// A cycle reached an object that is decoded in one step (`init(coder:)`) while it was still
  /// being decoded. Adopt ``ArchiveDecodableInPlace`` for classes that take part in cycles.
  public static var cycle: Self { Self("cycle") }
  /// Nesting, object count or size beyond ``KeyedUnarchiver/Limits``.
  public static var limitExceeded: Self { Self("limit exceeded") }
  /// A value that cannot be archived (an unregistered type, or a non-plist value in a plist-only place).
  /// Apple: `NSCoderInvalidValueError` (4866).
  public static var invalidValue: Self { Self("invalid value") }
  /// The archive's property list could not be read or written; ``KeyedArchiveError/underlying`` says why.
  public static var propertyList: Self { Self("property list") }
}
