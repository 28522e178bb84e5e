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

/// Whether `string` is `$null`, checking the length first: comparing a non-ASCII string with
/// `==` takes the standard library's slow, normalizing path.
@inline(__always) func isCodableNullString(_ string: String) -> Bool {
  string.utf8.count == 5 && string == codableNullString
}

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
    if case .string(let string) = self { return isCodableNullString(string) }
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

/// One integer per nesting level, at most `capacity` levels deep (deeper levels read 0 and
/// ignore writes): the decoder's key-cursor hints and the encoder's container-size hints.
/// Values here are only ever hints, so a level shared by two containers costs speed, never
/// correctness. A fixed buffer behind a `let`, so reading it needs no exclusivity checks.
final class DepthHints {
  static let capacity = 64
  private let storage: UnsafeMutablePointer<Int>

  init() {
    storage = .allocate(capacity: Self.capacity)
    storage.initialize(repeating: 0, count: Self.capacity)
  }

  deinit { storage.deallocate() }

  @inline(__always) subscript(level: Int) -> Int {
    get { level >= 0 && level < Self.capacity ? storage[level] : 0 }
    set { if level >= 0 && level < Self.capacity { storage[level] = newValue } }
  }
}

/// Reinterprets a value whose type the caller has already proven to be `Target` (by comparing
/// metatypes), without the cost of a dynamic cast in unspecialized generic code.
@inline(__always)
func reinterpretValue<Source, Target>(_ value: Source, as _: Target.Type) -> Target {
  precondition(Source.self == Target.self, "reinterpretValue between different types")
  return unsafeBitCast(value, to: Target.self)
}

/// Reinterprets an array whose element type the caller has proven to be `Target` (by comparing
/// metatypes). Unlike ``reinterpretValue(_:as:)`` it compares the element types, which costs
/// nothing, not the array types, which makes the runtime look up `Array<Element>`'s metadata
/// in unspecialized code.
@inline(__always)
func reinterpretElements<Element, Target>(_ elements: [Element], as _: Target.Type) -> [Target] {
  precondition(Element.self == Target.self, "reinterpretElements between different types")
  return unsafeBitCast(elements, to: [Target].self)
}

/// Reinterprets a `[String: Value]` whose value type the caller has proven to be `Target`, as
/// ``reinterpretElements(_:as:)`` does for arrays.
@inline(__always)
func reinterpretValues<Value, Target>(_ map: [String: Value], as _: Target.Type) -> [String: Target] {
  precondition(Value.self == Target.self, "reinterpretValues between different types")
  return unsafeBitCast(map, to: [String: Target].self)
}
