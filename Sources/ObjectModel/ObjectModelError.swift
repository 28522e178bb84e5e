public import StasisSystem

/// The one error type of the `ObjectModel` module: a class name the registry does not know, a
/// key an object is not key-value-coding compliant for, a value of the wrong type for a key, an
/// action an object does not answer.
///
/// ```swift
/// do { try view.setValue("Title", forKey: "titel") }
/// catch ObjectModelError.Code.undefinedKey { … }
/// ```
///
/// The `description` names the class and the key, action or class name involved, as Apple's
/// `NSUnknownKeyException` does ("this class is not key value coding-compliant for the key titel"),
/// but never the value being set.
public struct ObjectModelError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<ObjectModelError>

  public var code: Code
  /// The class involved: the object's class for keys and actions, the name looked up for classes.
  public var className: String
  /// The key, key path, action or class name involved.
  public var name: String
  /// What was found and what was expected, in words.
  public var detail: String
  /// The error behind this one, when a key's accessor or an action threw.
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(
    _ code: Code, className: String, name: String, detail: String, underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.className = className
    self.name = name
    self.detail = detail
    self.cause = ErrorCause(underlying)
  }

  public var description: String { "\(className): \(detail)" + ErrorChain.suffix(for: underlying) }

  /// `Code.undefinedKey`: "this class is not key value coding-compliant for the key `key`",
  /// naming `object`'s class — what the default ``KeyValueCoding/setValue(_:forUndefinedKey:)``
  /// throws, for a class that implements the handler itself.
  @inline(never)
  public static func undefinedKey(_ key: String, of object: AnyObject) -> ObjectModelError {
    ObjectModelError(
      .undefinedKey, className: typeName(of: object), name: key,
      detail: "this class is not key value coding-compliant for the key \(key)")
  }

  static func typeName(of object: AnyObject) -> String { String(describing: type(of: object)) }
}

extension ErrorCode<ObjectModelError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch ObjectModelError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The object has no key of that name (`valueForUndefinedKey:` / `setValue:forUndefinedKey:`,
  /// which raise `NSUnknownKeyException` on Apple).
  public static var undefinedKey: Self { Self("undefined key") }
  /// The key exists but cannot be set (a read-only property).
  public static var readOnlyKey: Self { Self("read-only key") }
  /// The value is not of the key's type, nor convertible to it as `NSNumber` converts numbers.
  public static var typeMismatch: Self { Self("type mismatch") }
  /// `nil` for a key whose type is not optional (`setNilValueForKey:`, which raises
  /// `NSInvalidArgumentException` on Apple).
  public static var nilForNonOptional: Self { Self("nil for non-optional") }
  /// A key path is empty, has an empty part, or passes through a value that has no keys.
  public static var invalidKeyPath: Self { Self("invalid key path") }
  /// No class is registered under the name, nor under any of its fallbacks.
  public static var unknownClass: Self { Self("unknown class") }
  /// The class is registered but cannot make instances (it has no factory).
  public static var notInstantiable: Self { Self("not instantiable") }
  /// The object has no action of that name (`doesNotRecognizeSelector:` on Apple).
  public static var unknownAction: Self { Self("unknown action") }
}
