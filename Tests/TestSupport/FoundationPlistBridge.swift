public import Foundation
public import PropertyLists

/// Converts between Stasis's `PropertyListValue` and the objects Foundation's
/// `PropertyListSerialization` reads and writes, so tests can compare Stasis with the Foundation
/// on the machine without going through Stasis's own readers and writers.
///
/// Foundation hands numbers back as `NSNumber`; its `objCType` tells them apart: `c` is a
/// boolean (a `CFBoolean`), `f` and `d` are 32- and 64-bit reals, `Q` an unsigned 64-bit integer
/// above `Int64.max`, anything else a signed integer.
public enum FoundationPlistBridge {
  public struct UnsupportedObject: Error, CustomStringConvertible {
    public let description: String
  }

  /// The value Foundation's object tree stands for.
  public static func value(from object: Any) throws -> PropertyListValue {
    switch object {
    case let string as String:
      return .string(string)
    case let number as NSNumber:
      switch String(cString: number.objCType) {
      case "c": return .bool(number.boolValue)
      case "f": return .real(Double(number.floatValue), width: .single)
      case "d": return .real(number.doubleValue, width: .double)
      case "Q": return .integer(PropertyListInteger(number.uint64Value))
      default: return .integer(PropertyListInteger(number.int64Value))
      }
    case let date as Date:
      return .date(date)
    case let data as Data:
      return .data(data)
    case let array as [Any]:
      return .array(try array.map { try value(from: $0) })
    case let dictionary as [String: Any]:
      return .dictionary(PropertyListDictionary(try dictionary.map { ($0.key, try value(from: $0.value)) }))
    default:
      throw UnsupportedObject(description: "cannot bridge \(type(of: object))")
    }
  }

  /// Foundation objects for `value` (UIDs are not supported).
  public static func object(from value: PropertyListValue) throws -> Any {
    switch value {
    case .string(let string): return string
    case .integer(let integer):
      if let signed = integer.int64Value { return NSNumber(value: signed) }
      return NSNumber(value: integer.bitPattern)
    case .real(let real, let width):
      return width == .single ? NSNumber(value: Float(real)) : NSNumber(value: real)
    case .bool(let bool): return NSNumber(value: bool)
    case .date(let date): return date
    case .data(let data): return data
    case .array(let array): return try array.map { try object(from: $0) }
    case .dictionary(let dictionary):
      var result: [String: Any] = [:]
      for (key, element) in dictionary { result[key] = try object(from: element) }
      return result
    case .uid: throw UnsupportedObject(description: "cannot bridge a UID")
    }
  }

  /// Reads bytes with `PropertyListSerialization`.
  public static func read(_ data: Data) throws -> PropertyListValue {
    try value(from: PropertyListSerialization.propertyList(from: data, options: [], format: nil))
  }

  /// Writes a value with `PropertyListSerialization` (`binary` or `xml`).
  public static func write(_ value: PropertyListValue, xml: Bool) throws -> Data {
    try PropertyListSerialization.data(
      fromPropertyList: object(from: value), format: xml ? .xml : .binary, options: 0)
  }
}
