public import StasisSystem

/// The one error type of the `InterfaceObjects` module: an object of a nib graph that cannot be
/// made into a live object — a class nobody registered (in strict mode), a value of the wrong type
/// for an archived key, a graph too large for the limits.
///
/// The `description` names the object (its index in the graph, which is its object id in a
/// NIBArchive), its archived class and, when there is one, the key.
public struct InterfaceObjectsError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<InterfaceObjectsError>

  public var code: Code
  /// The object's index in the nib graph (a NIBArchive's object number), when one is involved.
  public var objectIndex: Int?
  /// The object's archived class name (`NSButton`, `UILabel`, an app's custom class).
  public var className: String?
  /// The archived key involved, when there is one.
  public var key: String?
  /// What was found and what was expected, in words.
  public var detail: String
  /// The error behind this one (a key-value-coding error of the object model).
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(
    _ code: Code, objectIndex: Int? = nil, className: String? = nil, key: String? = nil, detail: String,
    underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.objectIndex = objectIndex
    self.className = className
    self.key = key
    self.detail = detail
    self.cause = ErrorCause(underlying)
  }

  public var description: String {
    var text = ""
    if let objectIndex { text += "object #\(objectIndex) " }
    if let className { text += "(\(className)) " }
    if let key { text += "key \(key): " } else if !text.isEmpty { text = String(text.dropLast()) + ": " }
    return text + detail + ErrorChain.suffix(for: underlying)
  }
}

extension ErrorCode<InterfaceObjectsError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch InterfaceObjectsError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// No class is registered under the archived name, its custom class, nor any fallback (strict
  /// mode; lenient mode makes a ``GenericObject`` instead).
  public static var unknownClass: Self { Self("unknown class") }
  /// An archived value has the wrong type for its key (a reference where a number belongs, a
  /// frame string that does not parse).
  public static var invalidValue: Self { Self("invalid value") }
  /// A reference points outside the graph, or the graph is larger than the unarchiver's limits.
  public static var invalidGraph: Self { Self("invalid graph") }
}
