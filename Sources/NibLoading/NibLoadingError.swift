public import StasisSystem

/// The one error type of the `NibLoading` module: a nib or storyboard that cannot be loaded —
/// not found, unreadable, a class the registry lacks (strict mode), an outlet, key or action
/// that does not exist, a missing external object.
///
/// The `description` names the nib, the object id and the key or selector, as the loader found
/// them: `Main.nib: object 12 (ItemsViewController): outlet tableView: this class is not key
/// value coding-compliant for the key tableView`.
public struct NibLoadingError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<NibLoadingError>

  public var code: Code
  /// The nib or storyboard (a path or a name).
  public var nib: String
  /// The object's id in the nib (its object number; a macOS nib's `NSOidsValues` id when it has one).
  public var objectID: Int?
  /// The key, outlet label, key path or selector involved.
  public var key: String?
  /// What was found and what was expected, in words.
  public var detail: String
  /// The error behind this one (the reader's, the unarchiver's, key-value coding's).
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(
    _ code: Code, nib: String, objectID: Int? = nil, key: String? = nil, detail: String, underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.nib = nib
    self.objectID = objectID
    self.key = key
    self.detail = detail
    self.cause = ErrorCause(underlying)
  }

  public var description: String {
    var text = nib + ": "
    if let objectID { text += "object \(objectID): " }
    if let key { text += "\(key): " }
    return text + detail + ErrorChain.suffix(for: underlying)
  }
}

extension ErrorCode<NibLoadingError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch NibLoadingError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// No nib or storyboard of that name in the bundle.
  public static var notFound: Self { Self("not found") }
  /// The file is not a nib, a storyboard or a document the loader can read.
  public static var unreadable: Self { Self("unreadable") }
  /// A class no registered class answers (strict mode), or an object that cannot be decoded.
  public static var unknownClass: Self { Self("unknown class") }
  /// An object could not be made from its archived values.
  public static var invalidObject: Self { Self("invalid object") }
  /// An outlet or runtime attribute names a key the object does not have, or a value of the
  /// wrong type for it (UIKit's "not key value coding-compliant" exception).
  public static var undefinedKey: Self { Self("undefined key") }
  /// An action names a selector its target does not answer.
  public static var unknownAction: Self { Self("unknown action") }
  /// A placeholder names an external object the caller did not pass (`UINibExternalObjects`).
  public static var missingExternalObject: Self { Self("missing external object") }
  /// A storyboard has no scene of that identifier, or no initial view controller.
  public static var unknownIdentifier: Self { Self("unknown identifier") }
}
