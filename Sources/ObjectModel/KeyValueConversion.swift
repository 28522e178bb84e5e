/// How a value given to `setValue(_:forKey:)` becomes the key's type: as is when it already has
/// that type, through `NSNumber`'s rules between numeric types and `Bool` (a `Double` set on an
/// `Int` key is truncated toward zero, as `-[NSNumber integerValue]` does; any non-zero number is
/// `true`), and `nil` only for optional keys.
public enum KeyValueConversion {
  /// `value` as a `Value`, or a typed error naming the object's class and the key.
  static func convert<Value>(_ value: Any?, to type: Value.Type, key: String, of object: AnyObject) throws(ObjectModelError)
    -> Value
  {
    // The common case first — an object, string or number given to a key of its own type —
    // without `flatten`'s cast to a protocol (a conformance lookup up the class hierarchy,
    // profiled at a tenth of a nib's outlets and runtime attributes). For a value that is no
    // optional, `flatten` answers the value itself, so this is the cast below.
    if let value, isCertainlyNotOptional(value), let exact = value as? Value { return exact }
    let unwrapped = flatten(value)
    if let unwrapped {
      if let exact = unwrapped as? Value { return exact }
      if let number = numeric(unwrapped), let converted = fromNumber(number, as: Value.self) { return converted }
      throw ObjectModelError(
        .typeMismatch, className: ObjectModelError.typeName(of: object), name: key,
        detail: "the key \(key) holds \(Value.self), not \(Swift.type(of: unwrapped))")
    }
    if let none = Optional<Any>.none as? Value { return none }
    if let optionalType = Value.self as? any ExpressibleByNilLiteral.Type, let none = optionalType.init(nilLiteral: ()) as? Value {
      return none
    }
    throw ObjectModelError(
      .nilForNonOptional, className: ObjectModelError.typeName(of: object), name: key,
      detail: "the key \(key) holds a non-optional \(Value.self) and cannot be set to nil")
  }

  /// Unwraps nested optionals in an `Any?`: `Optional(Optional<Int>.none)` is `nil`.
  static func flatten(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if isCertainlyNotOptional(value) { return value }
    if let optional = value as? any OptionalProtocol { return optional.wrappedAny }
    return value
  }

  /// Whether `value`'s dynamic type is one that cannot be an `Optional`: a class, or the value
  /// types nibs and archives give most (`String`, `Int`, `Double`, `Bool`). Metadata checks, no
  /// conformance lookup; `false` only means "look closer".
  @inline(__always)
  static func isCertainlyNotOptional(_ value: Any) -> Bool {
    let type = Swift.type(of: value)
    return type is AnyClass || type == String.self || type == Int.self || type == Double.self || type == Bool.self
  }

  /// A number as `NSNumber` would hold it.
  enum Number {
    case signed(Int64), unsigned(UInt64), floating(Double), boolean(Bool)
  }

  static func numeric(_ value: Any) -> Number? {
    switch value {
    case let value as Int: .signed(Int64(value))
    case let value as Int8: .signed(Int64(value))
    case let value as Int16: .signed(Int64(value))
    case let value as Int32: .signed(Int64(value))
    case let value as Int64: .signed(value)
    case let value as UInt: .unsigned(UInt64(value))
    case let value as UInt8: .unsigned(UInt64(value))
    case let value as UInt16: .unsigned(UInt64(value))
    case let value as UInt32: .unsigned(UInt64(value))
    case let value as UInt64: .unsigned(value)
    case let value as Double: .floating(value)
    case let value as Float: .floating(Double(value))
    case let value as Bool: .boolean(value)
    default: nil
    }
  }

  /// The number as `Value` when `Value` is a numeric type or `Bool` (optional or not), by
  /// `NSNumber`'s accessor rules: truncation toward zero, wrapping to the width as C casts do.
  static func fromNumber<Value>(_ number: Number, as type: Value.Type) -> Value? {
    let asInt64: Int64
    let asUInt64: UInt64
    let asDouble: Double
    switch number {
    case .signed(let value): (asInt64, asUInt64, asDouble) = (value, UInt64(bitPattern: value), Double(value))
    case .unsigned(let value): (asInt64, asUInt64, asDouble) = (Int64(bitPattern: value), value, Double(value))
    case .floating(let value):
      let truncated = value.isFinite && abs(value) < 9.2e18 ? Int64(value) : 0
      (asInt64, asUInt64, asDouble) = (truncated, UInt64(bitPattern: truncated), value)
    case .boolean(let value): (asInt64, asUInt64, asDouble) = (value ? 1 : 0, value ? 1 : 0, value ? 1 : 0)
    }
    let candidates: [Any] = [
      Int(truncatingIfNeeded: asInt64), Int8(truncatingIfNeeded: asInt64), Int16(truncatingIfNeeded: asInt64),
      Int32(truncatingIfNeeded: asInt64), asInt64, UInt(truncatingIfNeeded: asUInt64), UInt8(truncatingIfNeeded: asUInt64),
      UInt16(truncatingIfNeeded: asUInt64), UInt32(truncatingIfNeeded: asUInt64), asUInt64, asDouble, Float(asDouble),
      asDouble != 0,
    ]
    for candidate in candidates { if let match = candidate as? Value { return match } }
    return nil
  }
}

/// Lets a value of unknown optional type be unwrapped.
protocol OptionalProtocol {
  var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
  var wrappedAny: Any? {
    switch self {
    case .some(let value): KeyValueConversion.flatten(value)
    case .none: nil
    }
  }
}
