import Foundation
package import PropertyLists

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Converting between Foundation values and property-list values, and Apple's conversions for
/// the typed getters.
package enum DefaultsConversion {
  /// The property-list value for a Foundation value, or `nil` when it is not a property-list type.
  ///
  /// Accepted: `PropertyListValue`, `String`/`Substring`/`NSString`, `Bool`, every fixed-width
  /// integer, `Double`, `Float`, `NSNumber`, `Date`, `Data`, and arrays and `String`-keyed
  /// dictionaries of these (`[Any]`, `[String: Any]`, `NSArray`, `NSDictionary`).
  static func propertyList(from value: Any, depth: Int = 0) -> PropertyListValue? {
    guard depth < 512 else { return nil }
    switch value {
    case let value as PropertyListValue: return value
    case let value as String: return .string(value)
    case let value as Substring: return .string(String(value))
    case let value as Bool: return .bool(value)
    case let value as Int: return .integer(value)
    case let value as Int64: return .integer(PropertyListInteger(value))
    case let value as Int32: return .integer(Int(value))
    case let value as Int16: return .integer(Int(value))
    case let value as Int8: return .integer(Int(value))
    case let value as UInt: return .integer(PropertyListInteger(UInt64(value)))
    case let value as UInt64: return .integer(PropertyListInteger(value))
    case let value as UInt32: return .integer(Int(value))
    case let value as UInt16: return .integer(Int(value))
    case let value as UInt8: return .integer(Int(value))
    case let value as Double: return .real(value)
    case let value as Float: return .real(Double(value), width: .single)
    case let value as Date: return .date(value)
    case let value as Data: return .data(value)
    case let value as [String: Any]:
      var keys: [String] = []
      var values: [PropertyListValue] = []
      keys.reserveCapacity(value.count)
      values.reserveCapacity(value.count)
      for key in value.keys.sorted() {
        guard let converted = propertyList(from: value[key]!, depth: depth + 1) else { return nil }
        keys.append(key)
        values.append(converted)
      }
      return .dictionary(PropertyListDictionary(keys: keys, values: values))
    case let value as [Any]:
      var elements: [PropertyListValue] = []
      elements.reserveCapacity(value.count)
      for element in value {
        guard let converted = propertyList(from: element, depth: depth + 1) else { return nil }
        elements.append(converted)
      }
      return .array(elements)
    case let value as NSNumber:
      return number(value)
    case let value as NSString: return .string(value as String)
    case let value as NSDate: return .date(value as Date)
    case let value as NSData: return .data(value as Data)
    default: return nil
    }
  }

  private static func number(_ number: NSNumber) -> PropertyListValue {
    let type = String(cString: number.objCType)
    switch type {
    case "B": return .bool(number.boolValue)
    case "c":
      // A boolean NSNumber reports "c" like a char; 0 and 1 are taken as booleans.
      let integer = number.int64Value
      return integer == 0 || integer == 1 ? .bool(integer == 1) : .integer(Int(integer))
    case "f": return .real(Double(number.floatValue), width: .single)
    case "d": return .real(number.doubleValue)
    case "Q", "L", "I", "S", "C": return .integer(PropertyListInteger(number.uint64Value))
    default: return .integer(PropertyListInteger(number.int64Value))
    }
  }

  /// The Foundation value for a property-list value, as `objectForKey:` returns it: `String`,
  /// `Int` (`UInt64` above `Int.max`), `Double`, `Float`, `Bool`, `Date`, `Data`, `[Any]`,
  /// `[String: Any]`; a keyed-archive UID becomes its `UInt64`.
  static func foundationValue(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let string): return string
    case .integer(let integer):
      if let int = integer.exactly(Int.self) { return int }
      return integer.uint64Value ?? 0
    case .real(let real, let width): return width == .single ? Float(real) as Any : real as Any
    case .bool(let bool): return bool
    case .date(let date): return date
    case .data(let data): return data
    case .array(let array): return array.map(foundationValue)
    case .dictionary(let dictionary):
      var result: [String: Any] = [:]
      result.reserveCapacity(dictionary.count)
      for (key, element) in dictionary { result[key] = foundationValue(element) }
      return result
    case .uid(let uid): return uid
    }
  }

  static func foundationDictionary(_ values: [String: PropertyListValue]) -> [String: Any] {
    var result: [String: Any] = [:]
    result.reserveCapacity(values.count)
    for (key, value) in values { result[key] = foundationValue(value) }
    return result
  }

  // MARK: - Typed getters (Apple's conversions)

  /// `stringForKey:`: a string, or a number's text (`42`, `0.5`, a boolean as `1`/`0`).
  static func string(_ value: PropertyListValue) -> String? {
    switch value {
    case .string(let string): string
    case .integer(let integer): integer.description
    case .real(let real, let width): numberText(real, width: width)
    case .bool(let bool): bool ? "1" : "0"
    default: nil
    }
  }

  /// `integerForKey:`: a number (reals truncated toward zero, booleans 1/0), a string's leading
  /// integer as `-[NSString integerValue]` reads it (`"42"` → 42, `"3.9"` → 3, `"abc"` → 0),
  /// otherwise 0.
  static func integer(_ value: PropertyListValue) -> Int {
    switch value {
    case .integer(let integer):
      if let int = integer.exactly(Int.self) { return int }
      return integer.isNegative ? Int.min : Int.max
    case .real(let real, _): return clampedInteger(real)
    case .bool(let bool): return bool ? 1 : 0
    case .string(let string): return leadingInteger(string)
    default: return 0
    }
  }

  /// `doubleForKey:`: a number, or a string's leading number as `-[NSString doubleValue]` reads it; otherwise 0.
  static func double(_ value: PropertyListValue) -> Double {
    switch value {
    case .real(let real, _): return real
    case .integer(let integer): return integer.doubleValue
    case .bool(let bool): return bool ? 1 : 0
    case .string(let string): return leadingDouble(string)
    default: return 0
    }
  }

  /// `boolForKey:` (CFPreferencesGetAppBooleanValue): a boolean; a number other than 0; a string
  /// equal to `YES` or `true` ignoring case, or whose leading integer is not 0 (`"1"`, `"42"`).
  /// Anything else is `false`.
  static func bool(_ value: PropertyListValue) -> Bool {
    switch value {
    case .bool(let bool): return bool
    case .integer(let integer): return integer != PropertyListInteger(Int64(0))
    case .real(let real, _): return real != 0
    case .string(let string):
      let lowered = string.lowercased()
      if lowered == "yes" || lowered == "true" { return true }
      return leadingInteger(string) != 0
    default: return false
    }
  }

  /// The text `-[NSNumber description]` gives a real: integral values without a fraction (`3`),
  /// others in the shortest form that reads back (`0.5`, `1e+20`).
  package static func numberText(_ real: Double, width: PropertyListValue.RealWidth) -> String {
    if real.isNaN { return "nan" }
    if real.isInfinite { return real < 0 ? "-inf" : "inf" }
    if real == real.rounded(), abs(real) < 1e15 { return String(Int64(real)) }
    return width == .single ? Float(real).description : real.description
  }

  static func clampedInteger(_ real: Double) -> Int {
    if real.isNaN { return 0 }
    if real >= 9.2233720368547758e18 { return Int.max }
    if real <= -9.2233720368547758e18 { return Int.min }
    return Int(real.rounded(.towardZero))
  }

  /// The leading integer of a string: optional spaces, an optional sign, digits (saturating).
  package static func leadingInteger(_ string: String) -> Int {
    var bytes = string.utf8.makeIterator()
    var byte = bytes.next()
    while let current = byte, current == 0x20 || current == 0x09 || current == 0x0A || current == 0x0D { byte = bytes.next() }
    var negative = false
    if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
      negative = byte == UInt8(ascii: "-")
      byte = bytes.next()
    }
    var result = 0
    while let current = byte, current >= 0x30, current <= 0x39 {
      let digit = Int(current - 0x30)
      let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
      if overflow1 || overflow2 { return negative ? Int.min : Int.max }
      result = sum
      byte = bytes.next()
    }
    return result
  }

  /// The leading number of a string, as `strtod` reads it; 0 when there is none.
  package static func leadingDouble(_ string: String) -> Double {
    string.withCString { pointer in strtod(pointer, nil) }
  }
}
