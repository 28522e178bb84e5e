/// One argument of a format string, typed, so that a specifier that does not fit its argument is
/// reported instead of reading garbage (what C's `printf` and Foundation's `String(format:)` do).
public enum FormatValue: Sendable, Hashable, CustomStringConvertible {
  /// A signed integer (`%d %i %ld %lld`, also `%u %x %o` which print its bit pattern).
  case int(Int64)
  /// An unsigned integer (`%u %x %X %o`, also `%d` when it fits).
  case uint(UInt64)
  /// A floating-point number (`%f %e %g %a` and their upper-case forms).
  case double(Double)
  /// A string (`%@`, `%s`, `%S`).
  case string(String)
  /// A character (`%c`, `%C`).
  case character(Unicode.Scalar)
  /// An object, printed through its description (`%@`).
  case object(String)
  /// `nil`, printed as `(null)` by `%@`.
  case null

  /// What `%@` prints for the value.
  public var description: String {
    switch self {
    case .int(let value): String(value)
    case .uint(let value): String(value)
    case .double(let value): value == value.rounded(.towardZero) && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    case .string(let value): value
    case .character(let value): String(Character(value))
    case .object(let value): value
    case .null: "(null)"
    }
  }

  var kindName: String {
    switch self {
    case .int, .uint: "an integer"
    case .double: "a floating-point number"
    case .string: "a string"
    case .character: "a character"
    case .object: "an object"
    case .null: "nil"
    }
  }

  /// The plural operands of a numeric value.
  var pluralOperands: PluralOperands? {
    switch self {
    case .int(let value): PluralOperands(Int(value))
    case .uint(let value): PluralOperands(value)
    case .double(let value): PluralOperands(value)
    default: nil
    }
  }
}

/// A Swift value that can be a format argument.
public protocol FormatArgument {
  var formatValue: FormatValue { get }
}

extension FormatValue: FormatArgument { public var formatValue: FormatValue { self } }
extension Int: FormatArgument { public var formatValue: FormatValue { .int(Int64(self)) } }
extension Int8: FormatArgument { public var formatValue: FormatValue { .int(Int64(self)) } }
extension Int16: FormatArgument { public var formatValue: FormatValue { .int(Int64(self)) } }
extension Int32: FormatArgument { public var formatValue: FormatValue { .int(Int64(self)) } }
extension Int64: FormatArgument { public var formatValue: FormatValue { .int(self) } }
extension UInt: FormatArgument { public var formatValue: FormatValue { .uint(UInt64(self)) } }
extension UInt8: FormatArgument { public var formatValue: FormatValue { .uint(UInt64(self)) } }
extension UInt16: FormatArgument { public var formatValue: FormatValue { .uint(UInt64(self)) } }
extension UInt32: FormatArgument { public var formatValue: FormatValue { .uint(UInt64(self)) } }
extension UInt64: FormatArgument { public var formatValue: FormatValue { .uint(self) } }
extension Double: FormatArgument { public var formatValue: FormatValue { .double(self) } }
extension Float: FormatArgument { public var formatValue: FormatValue { .double(Double(self)) } }
extension String: FormatArgument { public var formatValue: FormatValue { .string(self) } }
extension Substring: FormatArgument { public var formatValue: FormatValue { .string(String(self)) } }
extension Character: FormatArgument {
  public var formatValue: FormatValue { unicodeScalars.count == 1 ? .character(unicodeScalars.first!) : .string(String(self)) }
}
extension Unicode.Scalar: FormatArgument { public var formatValue: FormatValue { .character(self) } }
/// `YES`/`NO` are the integers 1 and 0 in Objective-C formats.
extension Bool: FormatArgument { public var formatValue: FormatValue { .int(self ? 1 : 0) } }
extension Optional: FormatArgument where Wrapped: FormatArgument {
  public var formatValue: FormatValue { self?.formatValue ?? .null }
}
