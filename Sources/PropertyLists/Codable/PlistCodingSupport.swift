import FoundationEssentials

// Pieces shared by the Codable encoder and decoder: the coding keys they add to paths, the
// `$null` convention, and the words Foundation uses for each kind of value in its messages.

/// The coding-path key for an element of an unkeyed container, spelled as Foundation spells it
/// (`stringValue` "Index 3", `intValue` 3). A single `Int`, so it fits an existential inline.
struct IndexCodingKey: CodingKey {
  let index: Int
  init(_ index: Int) { self.index = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { index = intValue }
  var stringValue: String { "Index \(index)" }
  var intValue: Int? { index }
}

/// The key `superEncoder()` and `superDecoder()` use: "super".
struct SuperCodingKey: CodingKey {
  init() {}
  init?(stringValue: String) {
    guard stringValue == "super" else { return nil }
  }
  init?(intValue: Int) { nil }
  var stringValue: String { "super" }
  var intValue: Int? { nil }
}

/// The string that stands for `nil`: Foundation's `PropertyListEncoder` writes it for
/// `encodeNil()` (the same marker `NSKeyedArchiver` uses), and its decoder reads it as null.
let codableNullString = "$null"

extension PropertyListValue {
  /// The value's kind as Foundation names it in "Expected to decode Int but found a string
  /// instead."
  var codableKindDescription: String {
    switch self {
    case .string: "a string"
    case .integer: "an integer"
    case .real: "a real number"
    case .bool: "a boolean"
    case .date: "a date"
    case .data: "a data value"
    case .array: "an array"
    case .dictionary: "a dictionary"
    case .uid: "an NSKeyedArchiver UID"
    }
  }

  /// `true` for the `$null` string that stands for `nil`.
  @inline(__always) var isCodableNull: Bool {
    if case .string(let string) = self { return string == codableNullString }
    return false
  }

  /// How a top-level value that is not a container is named in Foundation's "Top-level Int
  /// encoded as number property list fragment." error, or `nil` when it may be a document root.
  var fragmentKindDescription: String? {
    switch self {
    case .bool: "boolean"
    case .integer, .real: "number"
    case .string: "string"
    case .date: "date"
    case .data, .array, .dictionary, .uid: nil
    }
  }
}

/// Reinterprets a value whose type the caller has already proven to be `Target` (by comparing
/// metatypes), without the cost of a dynamic cast in unspecialized generic code.
@inline(__always)
func reinterpretValue<Source, Target>(_ value: Source, as _: Target.Type) -> Target {
  precondition(Source.self == Target.self, "reinterpretValue between different types")
  return unsafeBitCast(value, to: Target.self)
}
