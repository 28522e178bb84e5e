import FoundationEssentials

// PropertyListValue → Decodable.
//
// Decoding reads the value tree in place. One `PlistValueDecoder` serves a whole top-level call:
// decoding a child swaps the current value and extends the coding path, runs the child's
// `init(from:)` against the same object, and restores both, so no decoder is allocated per value.
// Keyed containers look keys up in the `PropertyListDictionary` they were given, trying first
// the entry after the one last found (synthesized `init(from:)` asks for keys in declaration
// order, which is usually the document's order), so most lookups cost one string comparison.
//
// From a binary document the decoder reads no tree at all (`PlistBinaryObjects`): the current
// value is then an object of the document (`object`), containers read their object references in
// place, and only scalars become values, when asked for. From an XML document it reads the
// document's flat record (`XMLPlistTape`) the same way, `object` being a container's entry.

/// The `Decoder` handed to `init(from:)`; it is also its own single-value container.
///
/// Its three changing properties skip the runtime's exclusivity checks, made at every access to
/// a class's stored property otherwise: one decoding runs on one thread, and every change to
/// them is a save, a set or an append that ends before any other code runs.
final class PlistValueDecoder: Decoder, SingleValueDecodingContainer {
  /// The value being decoded at the current level (for an object of `objects`, its scalar value
  /// or an empty container of its kind).
  @exclusivity(unchecked) var value: PropertyListValue
  /// The object of `objects` being decoded at the current level, or -1 when `value` is all of it.
  @exclusivity(unchecked) var object: Int
  /// The binary document the values are read from in place, if any.
  let objects: PlistBinaryObjects?
  /// The XML document the values are read from in place, if any (then `object` is a
  /// container's entry, or -1).
  let tape: XMLPlistTape?
  @exclusivity(unchecked) var path: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]
  /// `true` when the values came from a text format (XML, OpenStep). Foundation's XML decoder
  /// parses a `<real>` straight into the requested type, so a `Float` takes the nearest value;
  /// its binary decoder requires the stored double to fit exactly. Messages differ the same way.
  let valuesFromText: Bool
  /// Where each open keyed container expects its next key, by nesting level. Only a hint: a
  /// wrong one costs a search, never a wrong answer.
  let cursors: DepthHints
  /// Where keyed containers found their keys, for the next container at the same level.
  let lookups: PlistKeyLookupMemo

  init(
    _ node: PlistDecodingNode, objects: PlistBinaryObjects? = nil, tape: XMLPlistTape? = nil, path: [any CodingKey] = [],
    userInfo: [CodingUserInfoKey: Any], valuesFromText: Bool, hints: (DepthHints, PlistKeyLookupMemo)? = nil
  ) {
    (cursors, lookups) = hints ?? (DepthHints(), PlistKeyLookupMemo())
    value = node.value
    object = node.object
    self.objects = objects
    self.tape = tape
    self.path = path
    self.userInfo = userInfo
    self.valuesFromText = valuesFromText
  }

  var codingPath: [any CodingKey] { path }

  /// The node being decoded at the current level.
  var node: PlistDecodingNode { PlistDecodingNode(value, object: object) }

  /// A decoder for `node` under `path` (a super decoder), sharing this one's document and settings.
  func detached(_ node: PlistDecodingNode, path: [any CodingKey]) -> PlistValueDecoder {
    PlistValueDecoder(
      node, objects: objects, tape: tape, path: path, userInfo: userInfo, valuesFromText: valuesFromText,
      hints: (cursors, lookups))
  }

  // MARK: Decoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try makeKeyedContainer(for: node, depth: path.count, nestedPath: [])
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try makeUnkeyedContainer(for: node, depth: path.count, nestedPath: [])
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func makeKeyedContainer<Key: CodingKey>(
    for node: PlistDecodingNode, depth: Int, nestedPath: [any CodingKey]
  ) throws -> KeyedDecodingContainer<Key> {
    guard case .dictionary(let dictionary) = node.value else {
      throw containerError(
        [String: Any].self, found: node.value, path: Array(path.prefix(depth)) + nestedPath, kind: "keyed")
    }
    if let tape, node.object >= 0 {
      return KeyedDecodingContainer(
        PlistKeyedDecodingContainer<Key, XMLTapeDictionaryEntries>(
          decoder: self, entries: XMLTapeDictionaryEntries(tape, container: node.object), depth: depth, nestedPath: nestedPath))
    }
    return KeyedDecodingContainer(
      PlistKeyedDecodingContainer<Key, PlistDictionaryEntries>(
        decoder: self, entries: PlistDictionaryEntries(dictionary, node: node, objects: objects), depth: depth,
        nestedPath: nestedPath))
  }

  func makeUnkeyedContainer(
    for node: PlistDecodingNode, depth: Int, nestedPath: [any CodingKey]
  ) throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = node.value else {
      throw containerError([Any].self, found: node.value, path: Array(path.prefix(depth)) + nestedPath, kind: "unkeyed")
    }
    if let tape, node.object >= 0 {
      return PlistUnkeyedDecodingContainer(
        decoder: self, elements: XMLTapeArrayElements(tape, container: node.object), depth: depth, nestedPath: nestedPath)
    }
    return PlistUnkeyedDecodingContainer(
      decoder: self, elements: PlistArrayElements(elements, node: node, objects: objects), depth: depth,
      nestedPath: nestedPath)
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
    _ node: PlistDecodingNode, as type: T.Type, nestedPath: [any CodingKey], key: (any CodingKey)?
  ) throws -> T {
    let child = node.value
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
      if let collection = T.self as? any PlistDirectDecodable.Type {
        return try decodeCollection(node, as: collection, resultType: T.self, nestedPath: nestedPath, key: key)
      }
    default:
      break
    }
    return try decodeChild(node, as: type, nestedPath: nestedPath, key: key)
  }

  /// An array or `[String: V]` read directly (see `PlistDirectDecodable`), or when its value is
  /// not of the collection's shape through `init(from:)`, which gives the ordinary error. Apart
  /// from ``unwrap(_:as:nestedPath:key:)`` so that the optional it holds is not in that
  /// function's frame: unspecialized, a frame with a `T?` asks the runtime for `Optional<T>`'s
  /// metadata at every call (3 % of a small document's Codable decoding).
  @inline(never)
  private func decodeCollection<Collection: PlistDirectDecodable, T: Decodable>(
    _ child: PlistDecodingNode, as collection: Collection.Type, resultType: T.Type,
    nestedPath: [any CodingKey], key: (any CodingKey)?
  ) throws -> T {
    let savedDepth = path.count
    if !nestedPath.isEmpty { path.append(contentsOf: nestedPath) }
    if let key { path.append(key) }
    let direct: Collection?
    do {
      direct = try Collection.decodeDirectly(from: child, decoder: self)
    } catch {
      path.removeLast(path.count - savedDepth)
      throw error
    }
    path.removeLast(path.count - savedDepth)
    if let direct { return reinterpretValue(direct, as: T.self) }
    return try decodeChild(child, as: T.self, nestedPath: nestedPath, key: key)
  }

  /// Runs `T.init(from: self)` with `child` as the current value.
  func decodeChild<T: Decodable>(
    _ child: PlistDecodingNode, as type: T.Type, nestedPath: [any CodingKey], key: (any CodingKey)?
  ) throws -> T {
    let savedValue = value
    let savedObject = object
    let savedDepth = path.count
    value = child.value
    object = child.object
    if !nestedPath.isEmpty { path.append(contentsOf: nestedPath) }
    if let key { path.append(key) }
    defer {
      value = savedValue
      object = savedObject
      path.removeLast(path.count - savedDepth)
    }
    return try T(from: self)
  }

  /// The top-level value.
  func decodeTopLevel<T: Decodable>(_ type: T.Type) throws -> T {
    try unwrap(node, as: type, nestedPath: [], key: nil)
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
    try unwrap(node, as: type, nestedPath: [], key: nil)
  }
}
