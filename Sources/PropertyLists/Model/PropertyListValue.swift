public import FoundationEssentials

/// One property-list value: the model every reader produces and every writer consumes.
///
/// The cases are the types a property list can hold (`CFPropertyListRef` in CoreFoundation),
/// plus the keyed archiver's UID:
///
/// | case | Apple type | XML element | bplist marker |
/// |---|---|---|---|
/// | `string` | `NSString` | `<string>` | `0x5n` / `0x6n` |
/// | `integer` | `NSNumber` (integer) | `<integer>` | `0x1n` |
/// | `real` | `NSNumber` (float/double) | `<real>` | `0x22` / `0x23` |
/// | `bool` | `NSNumber` (`kCFBoolean`) | `<true/>` `<false/>` | `0x08` / `0x09` |
/// | `date` | `NSDate` | `<date>` | `0x33` |
/// | `data` | `NSData` | `<data>` | `0x4n` |
/// | `array` | `NSArray` | `<array>` | `0xAn` (`0xCn` sets read as arrays) |
/// | `dictionary` | `NSDictionary` | `<dict>` | `0xDn` |
/// | `uid` | `CFKeyedArchiverUID` | `<dict><key>CF$UID</key>…` | `0x8n` |
///
/// Equality treats reals by value (NaN equals NaN; the 32/64-bit width is not compared) and
/// dictionaries without regard to key order.
public enum PropertyListValue: Sendable {
  case string(String)
  case integer(PropertyListInteger)
  /// A real number; `width` records whether the document stored it in 32 or 64 bits.
  case real(Double, width: RealWidth = .double)
  case bool(Bool)
  case date(Date)
  case data(Data)
  case array([PropertyListValue])
  case dictionary(PropertyListDictionary)
  /// A keyed-archiver object reference (`CF$UID`), an index into `$objects`.
  ///
  /// CoreFoundation writes at most 32 bits; readers here accept up to 64 (other writers, such as
  /// go-plist, emit 8-byte UIDs).
  case uid(UInt64)

  /// How many bits a real was stored in.
  public enum RealWidth: Sendable, Hashable {
    /// IEEE-754 binary32 (`0x22` in bplist; `encodeFloat:forKey:`).
    case single
    /// IEEE-754 binary64 (`0x23` in bplist).
    case double
  }
}

// MARK: - Typed access

extension PropertyListValue {
  /// The value's type as `plutil -type` names it: bool, integer, float, string, date, data,
  /// dictionary, array (and uid for keyed-archiver references).
  public var typeName: String {
    switch self {
    case .string: "string"
    case .integer: "integer"
    case .real: "float"
    case .bool: "bool"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dictionary"
    case .uid: "uid"
    }
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }
  public var integerValue: PropertyListInteger? {
    if case .integer(let value) = self { return value }
    return nil
  }
  /// An integer that fits in `Int`.
  public var intValue: Int? {
    if case .integer(let value) = self { return value.exactly(Int.self) }
    return nil
  }
  /// A real, or an integer converted to `Double`.
  public var doubleValue: Double? {
    switch self {
    case .real(let value, _): value
    case .integer(let value): value.doubleValue
    default: nil
    }
  }
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }
  public var dateValue: Date? {
    if case .date(let value) = self { return value }
    return nil
  }
  public var dataValue: Data? {
    if case .data(let value) = self { return value }
    return nil
  }
  public var arrayValue: [PropertyListValue]? {
    if case .array(let value) = self { return value }
    return nil
  }
  public var dictionaryValue: PropertyListDictionary? {
    if case .dictionary(let value) = self { return value }
    return nil
  }
  public var uidValue: UInt64? {
    if case .uid(let value) = self { return value }
    return nil
  }

  /// The value under `key` when this is a dictionary.
  public subscript(key: String) -> PropertyListValue? {
    if case .dictionary(let dictionary) = self { return dictionary[key] }
    return nil
  }

  /// The element at `index` when this is an array and the index is in range.
  public subscript(index: Int) -> PropertyListValue? {
    if case .array(let array) = self, array.indices.contains(index) { return array[index] }
    return nil
  }

  /// Convenience for integers in `Int` range.
  public static func integer(_ value: Int) -> PropertyListValue {
    .integer(PropertyListInteger(Int64(value)))
  }

  /// The number of values in this tree, counting containers and this value.
  public var objectCount: Int {
    switch self {
    case .array(let array): array.reduce(1) { $0 + $1.objectCount }
    case .dictionary(let dictionary): dictionary.values.reduce(1 + dictionary.count) { $0 + $1.objectCount }
    default: 1
    }
  }
}

// MARK: - Equality

extension PropertyListValue: Hashable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.real(let a, _), .real(let b, _)): a == b || (a.isNaN && b.isNaN)
    case (.bool(let a), .bool(let b)): a == b
    case (.date(let a), .date(let b)):
      a.timeIntervalSinceReferenceDate == b.timeIntervalSinceReferenceDate
        || (a.timeIntervalSinceReferenceDate.isNaN && b.timeIntervalSinceReferenceDate.isNaN)
    case (.data(let a), .data(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.dictionary(let a), .dictionary(let b)): a == b
    case (.uid(let a), .uid(let b)): a == b
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .string(let value): hasher.combine(0); hasher.combine(value)
    case .integer(let value): hasher.combine(1); hasher.combine(value)
    case .real(let value, _): hasher.combine(2); hasher.combine(value.isNaN ? .nan : value)
    case .bool(let value): hasher.combine(3); hasher.combine(value)
    case .date(let value):
      hasher.combine(4)
      let interval = value.timeIntervalSinceReferenceDate
      hasher.combine(interval.isNaN ? .nan : interval)
    case .data(let value): hasher.combine(5); hasher.combine(value)
    case .array(let value): hasher.combine(6); hasher.combine(value)
    case .dictionary(let value): hasher.combine(7); hasher.combine(value)
    case .uid(let value): hasher.combine(8); hasher.combine(value)
    }
  }
}

// MARK: - Literals

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .integer(PropertyListInteger(value)) }
  public init(floatLiteral value: Double) { self = .real(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self = .dictionary(PropertyListDictionary(elements))
  }
}
