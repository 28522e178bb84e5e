import FoundationEssentials

// PropertyListValue → Decodable.
//
// Decoding reads the value tree in place. One `PlistValueDecoder` serves a whole top-level call:
// decoding a child swaps the current value and extends the coding path, runs the child's
// `init(from:)` against the same object, and restores both, so no decoder is allocated per value.
// Keyed containers look keys up in the `PropertyListDictionary` they were given, trying first
// the entry after the one last found (synthesized `init(from:)` asks for keys in declaration
// order, which is usually the document's order), so most lookups cost one string comparison.

/// The `Decoder` handed to `init(from:)`; it is also its own single-value container.
final class PlistValueDecoder: Decoder, SingleValueDecodingContainer {
  /// The value being decoded at the current level.
  var value: PropertyListValue
  var path: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]
  /// `true` when the values came from a text format (XML, OpenStep). Foundation's XML decoder
  /// parses a `<real>` straight into the requested type, so a `Float` takes the nearest value;
  /// its binary decoder requires the stored double to fit exactly. Messages differ the same way.
  let valuesFromText: Bool
  /// Where each open keyed container expects its next key, by nesting level. Only a hint: a
  /// wrong one costs a search, never a wrong answer.
  let cursors = DepthHints()

  init(value: PropertyListValue, path: [any CodingKey] = [], userInfo: [CodingUserInfoKey: Any], valuesFromText: Bool) {
    self.value = value
    self.path = path
    self.userInfo = userInfo
    self.valuesFromText = valuesFromText
  }

  var codingPath: [any CodingKey] { path }

  // MARK: Decoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try makeKeyedContainer(for: value, depth: path.count, nestedPath: [])
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try makeUnkeyedContainer(for: value, depth: path.count, nestedPath: [])
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func makeKeyedContainer<Key: CodingKey>(
    for value: PropertyListValue, depth: Int, nestedPath: [any CodingKey]
  ) throws -> KeyedDecodingContainer<Key> {
    guard case .dictionary(let dictionary) = value else {
      throw containerError(
        [String: Any].self, found: value, path: Array(path.prefix(depth)) + nestedPath, kind: "keyed")
    }
    return KeyedDecodingContainer(
      PlistKeyedDecodingContainer<Key>(decoder: self, dictionary: dictionary, depth: depth, nestedPath: nestedPath))
  }

  func makeUnkeyedContainer(
    for value: PropertyListValue, depth: Int, nestedPath: [any CodingKey]
  ) throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw containerError([Any].self, found: value, path: Array(path.prefix(depth)) + nestedPath, kind: "unkeyed")
    }
    return PlistUnkeyedDecodingContainer(decoder: self, elements: elements, depth: depth, nestedPath: nestedPath)
  }

  @inline(never)
  private func containerError(
    _ expected: Any.Type, found: PropertyListValue, path: [any CodingKey], kind: String
  ) -> DecodingError {
    if found.isCodableNull {
      return .valueNotFound(
        expected,
        .init(codingPath: path, debugDescription: "Cannot get \(kind) decoding container -- found null value instead"))
    }
    return .typeMismatch(
      expected,
      .init(
        codingPath: path,
        debugDescription: "Expected to decode \(expected) but found \(found.codableKindDescription) instead."))
  }

  // MARK: Children

  /// Decodes a child value. `nestedPath` and `key` extend the coding path while it runs.
  @inline(__always)
  func unwrap<T: Decodable>(
    _ child: PropertyListValue, as type: T.Type, nestedPath: [any CodingKey], key: (any CodingKey)?
  ) throws -> T {
    if T.self == String.self {
      return reinterpretValue(try unwrapString(child, path: childPath(nestedPath, key)), as: T.self)
    }
    if T.self == Int.self {
      let result: Int = try unwrapInteger(child, path: childPath(nestedPath, key))
      return reinterpretValue(result, as: T.self)
    }
    if T.self == Double.self {
      let result: Double = try unwrapFloatingPoint(child, path: childPath(nestedPath, key))
      return reinterpretValue(result, as: T.self)
    }
    if T.self == Bool.self {
      return reinterpretValue(try unwrapBool(child, path: childPath(nestedPath, key)), as: T.self)
    }
    if T.self == Date.self {
      return reinterpretValue(try unwrapCase(child.dateValue, of: child, path: childPath(nestedPath, key)), as: T.self)
    }
    if T.self == Data.self {
      return reinterpretValue(try unwrapCase(child.dataValue, of: child, path: childPath(nestedPath, key)), as: T.self)
    }
    switch child {
    case .array, .dictionary:
      if let collection = T.self as? any PlistDirectDecodable.Type,
        let result = try decodeDirectly(child, as: collection, resultType: T.self, nestedPath: nestedPath, key: key)
      {
        return result
      }
    default:
      break
    }
    return try decodeChild(child, as: type, nestedPath: nestedPath, key: key)
  }

  /// Decodes an array or `[String: V]` element by element (see `PlistDirectDecodable`); `nil`
  /// when the value is not of its shape.
  private func decodeDirectly<Collection: PlistDirectDecodable, T>(
    _ child: PropertyListValue, as collection: Collection.Type, resultType: T.Type,
    nestedPath: [any CodingKey], key: (any CodingKey)?
  ) throws -> T? {
    let savedDepth = path.count
    if !nestedPath.isEmpty { path.append(contentsOf: nestedPath) }
    if let key { path.append(key) }
    defer { path.removeLast(path.count - savedDepth) }
    return try Collection.decodeDirectly(from: child, decoder: self).map { reinterpretValue($0, as: T.self) }
  }

  /// Runs `T.init(from: self)` with `child` as the current value.
  func decodeChild<T: Decodable>(
    _ child: PropertyListValue, as type: T.Type, nestedPath: [any CodingKey], key: (any CodingKey)?
  ) throws -> T {
    let savedValue = value
    let savedDepth = path.count
    value = child
    if !nestedPath.isEmpty { path.append(contentsOf: nestedPath) }
    if let key { path.append(key) }
    defer {
      value = savedValue
      path.removeLast(path.count - savedDepth)
    }
    return try T(from: self)
  }

  /// The top-level value.
  func decodeTopLevel<T: Decodable>(_ type: T.Type) throws -> T {
    try unwrap(value, as: type, nestedPath: [], key: nil)
  }

  func decodeTopLevel<T: DecodableWithConfiguration>(
    _ type: T.Type, configuration: T.DecodingConfiguration
  ) throws -> T {
    try T(from: self, configuration: configuration)
  }

  @inline(__always)
  private func childPath(_ nestedPath: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
    var result = path
    result.append(contentsOf: nestedPath)
    if let key { result.append(key) }
    return result
  }

  // MARK: Scalars
  //
  // Each reads one value as Foundation's PropertyListDecoder does. `path` is only evaluated to
  // build an error. The null check comes after the type test wherever a null (`$null`, a string)
  // cannot pass the test anyway, so it costs nothing on success.

  @inline(__always)
  func unwrapString(_ value: PropertyListValue, path: @autoclosure () -> [any CodingKey]) throws -> String {
    if case .string(let string) = value, !isCodableNullString(string) { return string }
    throw mismatch(String.self, value, path())
  }

  @inline(__always)
  func unwrapBool(_ value: PropertyListValue, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
    try unwrapCase(value.boolValue, of: value, path: path())
  }

  /// `found` (the case of `value` that holds a `T`: `value.dateValue`, …), or the type mismatch of `value`.
  @inline(__always)
  func unwrapCase<T>(_ found: T?, of value: PropertyListValue, path: @autoclosure () -> [any CodingKey]) throws -> T {
    if let found { return found }
    throw mismatch(T.self, value, path())
  }

  /// An integer that fits `T` exactly, or a real with an integral value that does.
  @inline(__always)
  func unwrapInteger<T: FixedWidthInteger>(_ value: PropertyListValue, path: @autoclosure () -> [any CodingKey]) throws -> T {
    switch value {
    case .integer(let integer):
      if let result = integer.exactly(T.self) { return result }
      throw numberDoesNotFit("Parsed property list number <\(integer)>", T.self, path())
    case .real(let real, _):
      if let result = T(exactly: real) { return result }
      throw numberDoesNotFit("\(valuesFromText ? "Parsed property list" : "Property list") number <\(real)>", T.self, path())
    default:
      throw mismatch(T.self, value, path())
    }
  }

  /// A real (exactly, from a binary document; to the nearest value, from a text one), or any
  /// integer converted to the nearest value.
  @inline(__always)
  func unwrapFloatingPoint<T: BinaryFloatingPoint>(_ value: PropertyListValue, path: @autoclosure () -> [any CodingKey]) throws -> T {
    switch value {
    case .real(let real, let width):
      if let result = T(exactly: real) { return result }
      if real.isNaN { return .nan }
      if valuesFromText { return T(real) }
      let shown = width == .single ? "\(Float(real))" : "\(real)"
      throw numberDoesNotFit("Property list number <\(shown)>", T.self, path())
    case .integer(let integer):
      if integer.isNegative { return T(Int64(bitPattern: integer.bitPattern)) }
      return T(integer.bitPattern)
    default:
      throw mismatch(T.self, value, path())
    }
  }

  @inline(never)
  func mismatch(_ expected: Any.Type, _ value: PropertyListValue, _ path: [any CodingKey]) -> DecodingError {
    if value.isCodableNull {
      return .valueNotFound(
        expected, .init(codingPath: path, debugDescription: "Cannot get value of \(expected) -- found null value instead"))
    }
    return .typeMismatch(
      expected,
      .init(
        codingPath: path, debugDescription: "Expected to decode \(expected) but found \(value.codableKindDescription) instead."))
  }

  @inline(never)
  func numberDoesNotFit(_ number: String, _ type: Any.Type, _ path: [any CodingKey]) -> DecodingError {
    .dataCorrupted(.init(codingPath: path, debugDescription: "\(number) does not fit in \(type)."))
  }

  // MARK: SingleValueDecodingContainer

  func decodeNil() -> Bool { value.isCodableNull }
  func decode(_ type: Bool.Type) throws -> Bool { try unwrapBool(value, path: path) }
  func decode(_ type: String.Type) throws -> String { try unwrapString(value, path: path) }
  func decode(_ type: Double.Type) throws -> Double { try unwrapFloatingPoint(value, path: path) }
  func decode(_ type: Float.Type) throws -> Float { try unwrapFloatingPoint(value, path: path) }
  func decode(_ type: Int.Type) throws -> Int { try unwrapInteger(value, path: path) }
  func decode(_ type: Int8.Type) throws -> Int8 { try unwrapInteger(value, path: path) }
  func decode(_ type: Int16.Type) throws -> Int16 { try unwrapInteger(value, path: path) }
  func decode(_ type: Int32.Type) throws -> Int32 { try unwrapInteger(value, path: path) }
  func decode(_ type: Int64.Type) throws -> Int64 { try unwrapInteger(value, path: path) }
  func decode(_ type: UInt.Type) throws -> UInt { try unwrapInteger(value, path: path) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try unwrapInteger(value, path: path) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try unwrapInteger(value, path: path) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try unwrapInteger(value, path: path) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try unwrapInteger(value, path: path) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try unwrap(value, as: type, nestedPath: [], key: nil)
  }
}

// MARK: - Keyed container

struct PlistKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: PlistValueDecoder
  let keys: [String]
  let values: [PropertyListValue]
  let index: [String: Int]?
  /// How much of the decoder's path was this container's when it was made.
  let depth: Int
  /// Keys of the nested containers between that point and this container.
  let nestedPath: [any CodingKey]
  /// This container's slot in the decoder's key-cursor hints.
  let slot: Int

  init(decoder: PlistValueDecoder, dictionary: PropertyListDictionary, depth: Int, nestedPath: [any CodingKey]) {
    self.decoder = decoder
    keys = dictionary.storedKeys
    values = dictionary.storedValues
    index = dictionary.index
    self.depth = depth
    self.nestedPath = nestedPath
    slot = depth + nestedPath.count
    decoder.cursors[slot] = 0
  }

  var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) + nestedPath }

  /// Keys in document order.
  var allKeys: [Key] { keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { search(key.stringValue) != nil }

  /// The position of `key`, trying the entry after the last one found first.
  @inline(__always) private func position(of key: String) -> Int? {
    let hint = decoder.cursors[slot]
    if hint < keys.count && keys[hint] == key {
      decoder.cursors[slot] = hint &+ 1
      return hint
    }
    guard let found = search(key) else { return nil }
    decoder.cursors[slot] = found &+ 1
    return found
  }

  private func search(_ key: String) -> Int? {
    if let index { return index[key] }
    return keys.firstIndex(of: key)
  }

  @inline(__always) private func value(for key: Key) throws -> PropertyListValue {
    guard let at = position(of: key.stringValue) else { throw keyNotFound(key) }
    return values[at]
  }

  /// The value for `key`, or `nil` when the key is absent or holds `$null`.
  @inline(__always) private func valueIfPresent(for key: Key) -> PropertyListValue? {
    guard let at = position(of: key.stringValue) else { return nil }
    let value = values[at]
    return value.isCodableNull ? nil : value
  }

  @inline(never) private func keyNotFound(_ key: Key) -> DecodingError {
    .keyNotFound(
      key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
  }

  private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

  func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isCodableNull }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decoder.unwrapBool(value(for: key), path: path(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decoder.unwrapString(value(for: key), path: path(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeReal(key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeReal(key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeInteger(key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeInteger(key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeInteger(key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeInteger(key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeInteger(key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeInteger(key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeInteger(key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeInteger(key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeInteger(key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeInteger(key) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.unwrap(value(for: key), as: type, nestedPath: nestedPath, key: key)
  }

  @inline(__always) private func decodeInteger<T: FixedWidthInteger>(_ key: Key) throws -> T {
    try decoder.unwrapInteger(value(for: key), path: path(key))
  }
  @inline(__always) private func decodeReal<T: BinaryFloatingPoint>(_ key: Key) throws -> T {
    try decoder.unwrapFloatingPoint(value(for: key), path: path(key))
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let value = valueIfPresent(for: key) else { return nil }
    return try decoder.unwrapBool(value, path: path(key))
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let value = valueIfPresent(for: key) else { return nil }
    return try decoder.unwrapString(value, path: path(key))
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeRealIfPresent(key) }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeRealIfPresent(key) }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIntegerIfPresent(key) }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = valueIfPresent(for: key) else { return nil }
    return try decoder.unwrap(value, as: type, nestedPath: nestedPath, key: key)
  }

  @inline(__always) private func decodeIntegerIfPresent<T: FixedWidthInteger>(_ key: Key) throws -> T? {
    guard let value = valueIfPresent(for: key) else { return nil }
    return try decoder.unwrapInteger(value, path: path(key))
  }
  @inline(__always) private func decodeRealIfPresent<T: BinaryFloatingPoint>(_ key: Key) throws -> T? {
    guard let value = valueIfPresent(for: key) else { return nil }
    return try decoder.unwrapFloatingPoint(value, path: path(key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder.makeKeyedContainer(for: value(for: key), depth: depth, nestedPath: nestedPath + [key])
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.makeUnkeyedContainer(for: value(for: key), depth: depth, nestedPath: nestedPath + [key])
  }

  func superDecoder() throws -> any Decoder {
    makeSuperDecoder(SuperCodingKey(), stringKey: "super")
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    makeSuperDecoder(key, stringKey: key.stringValue)
  }

  /// A decoder for the value under `stringKey`; a missing key decodes as null, as in Foundation.
  private func makeSuperDecoder(_ key: any CodingKey, stringKey: String) -> any Decoder {
    let found = search(stringKey).map { values[$0] } ?? .string(codableNullString)
    return PlistValueDecoder(
      value: found, path: codingPath + [key], userInfo: decoder.userInfo, valuesFromText: decoder.valuesFromText)
  }
}

// MARK: - Unkeyed container

struct PlistUnkeyedDecodingContainer: UnkeyedDecodingContainer {
  let decoder: PlistValueDecoder
  let elements: [PropertyListValue]
  let depth: Int
  let nestedPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(decoder: PlistValueDecoder, elements: [PropertyListValue], depth: Int, nestedPath: [any CodingKey]) {
    self.decoder = decoder
    self.elements = elements
    self.depth = depth
    self.nestedPath = nestedPath
  }

  var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) + nestedPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private var currentPath: [any CodingKey] { codingPath + [IndexCodingKey(currentIndex)] }

  @inline(never) private func atEnd(_ type: Any.Type) -> DecodingError {
    .valueNotFound(type, .init(codingPath: currentPath, debugDescription: "Unkeyed container is at end."))
  }

  @inline(__always) private func next(_ type: Any.Type) throws -> PropertyListValue {
    guard currentIndex < elements.count else { throw atEnd(type) }
    return elements[currentIndex]
  }

  mutating func decodeNil() throws -> Bool {
    guard try next(Never.self).isCodableNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let result = try decoder.unwrapBool(next(type), path: currentPath)
    currentIndex += 1
    return result
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let result = try decoder.unwrapString(next(type), path: currentPath)
    currentIndex += 1
    return result
  }
  mutating func decode(_ type: Double.Type) throws -> Double { try decodeReal() }
  mutating func decode(_ type: Float.Type) throws -> Float { try decodeReal() }
  mutating func decode(_ type: Int.Type) throws -> Int { try decodeInteger() }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger() }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger() }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger() }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger() }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger() }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger() }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger() }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger() }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger() }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let result = try decoder.unwrap(next(type), as: type, nestedPath: nestedPath, key: IndexCodingKey(currentIndex))
    currentIndex += 1
    return result
  }

  @inline(__always) private mutating func decodeInteger<T: FixedWidthInteger>() throws -> T {
    let result: T = try decoder.unwrapInteger(next(T.self), path: currentPath)
    currentIndex += 1
    return result
  }
  @inline(__always) private mutating func decodeReal<T: BinaryFloatingPoint>() throws -> T {
    let result: T = try decoder.unwrapFloatingPoint(next(T.self), path: currentPath)
    currentIndex += 1
    return result
  }

  // Foundation's `decodeIfPresent` returns nil at the end of the container instead of throwing,
  // and consumes a `$null`.

  /// The next element, or `nil` (consuming it) when it is `$null`; `.none` at the end.
  private mutating func nextIfPresent() -> PropertyListValue?? {
    guard currentIndex < elements.count else { return .none }
    let value = elements[currentIndex]
    if value.isCodableNull {
      currentIndex += 1
      return .some(nil)
    }
    return .some(value)
  }

  mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    guard case .some(let value?) = nextIfPresent() else { return nil }
    let result = try decoder.unwrapBool(value, path: currentPath)
    currentIndex += 1
    return result
  }
  mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    guard case .some(let value?) = nextIfPresent() else { return nil }
    let result = try decoder.unwrapString(value, path: currentPath)
    currentIndex += 1
    return result
  }
  mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try decodeRealIfPresent() }
  mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try decodeRealIfPresent() }
  mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try decodeIntegerIfPresent() }
  mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    guard case .some(let value?) = nextIfPresent() else { return nil }
    let result = try decoder.unwrap(value, as: type, nestedPath: nestedPath, key: IndexCodingKey(currentIndex))
    currentIndex += 1
    return result
  }

  private mutating func decodeIntegerIfPresent<T: FixedWidthInteger>() throws -> T? {
    guard case .some(let value?) = nextIfPresent() else { return nil }
    let result: T = try decoder.unwrapInteger(value, path: currentPath)
    currentIndex += 1
    return result
  }
  private mutating func decodeRealIfPresent<T: BinaryFloatingPoint>() throws -> T? {
    guard case .some(let value?) = nextIfPresent() else { return nil }
    let result: T = try decoder.unwrapFloatingPoint(value, path: currentPath)
    currentIndex += 1
    return result
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
    let element = try next(KeyedDecodingContainer<NestedKey>.self)
    let container: KeyedDecodingContainer<NestedKey> = try decoder.makeKeyedContainer(
      for: element, depth: depth, nestedPath: nestedPath + [IndexCodingKey(currentIndex)])
    currentIndex += 1
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let element = try next((any UnkeyedDecodingContainer).self)
    let container = try decoder.makeUnkeyedContainer(
      for: element, depth: depth, nestedPath: nestedPath + [IndexCodingKey(currentIndex)])
    currentIndex += 1
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let element = try next((any UnkeyedDecodingContainer).self)
    let superDecoder = PlistValueDecoder(
      value: element, path: currentPath, userInfo: decoder.userInfo, valuesFromText: decoder.valuesFromText)
    currentIndex += 1
    return superDecoder
  }
}
