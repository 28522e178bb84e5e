import FoundationEssentials

// MARK: - Keyed container

struct PlistKeyedDecodingContainer<Key: CodingKey, Entries: PlistKeyedEntries>: KeyedDecodingContainerProtocol {
  let decoder: PlistValueDecoder
  let entries: Entries
  /// How much of the decoder's path was this container's when it was made.
  let depth: Int
  /// Keys of the nested containers between that point and this container.
  let nestedPath: [any CodingKey]
  /// This container's slot in the decoder's key-cursor hints.
  let slot: Int

  /// Inlined where containers are made: there the entries' type is known, and the
  /// unspecialized initializer asked the runtime for this type's metadata once more per container.
  @inline(__always)
  init(decoder: PlistValueDecoder, entries: Entries, depth: Int, nestedPath: [any CodingKey]) {
    self.decoder = decoder
    self.entries = entries
    self.depth = depth
    self.nestedPath = nestedPath
    slot = depth + nestedPath.count
    decoder.cursors[slot] = 0
    decoder.lookups.begin(level: slot)
  }

  var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) + nestedPath }

  /// Keys in document order.
  var allKeys: [Key] { (0..<entries.count).compactMap { (try? entries.key(at: $0)).flatMap(Key.init(stringValue:)) } }

  func contains(_ key: Key) -> Bool { (try? entries.search(key.stringValue).position) != nil }

  /// The position of `key`: where the previous container at this level found the key it asked
  /// for at this turn (`PlistKeyLookupMemo`), else the entry after the last one found, else
  /// wherever a search finds it.
  @inline(__always) private func position(of key: String) throws -> Int? {
    let entry = decoder.lookups.nextEntry(level: slot)
    if let (learned, keyObject) = decoder.lookups.recall(entry, key: key) {
      if try entries.key(at: learned, is: keyObject, key) {
        decoder.cursors[slot] = learned &+ 1
        return learned
      }
      if let located = entries.locate(keyObject: keyObject) {
        guard let found = located else { return nil }
        decoder.cursors[slot] = found &+ 1
        decoder.lookups.learn(entry, key: key, position: found, keyObject: keyObject)
        return found
      }
    }
    let hint = decoder.cursors[slot]
    let found: Int
    if hint < entries.count, try entries.key(at: hint, equals: key) {
      found = hint
    } else {
      let (searched, keyObject) = try entries.search(key)
      guard let searched else {
        decoder.lookups.learn(entry, key: key, position: -1, keyObject: keyObject)
        return nil
      }
      found = searched
    }
    decoder.cursors[slot] = found &+ 1
    decoder.lookups.learn(entry, key: key, position: found, keyObject: entries.keyObject(at: found))
    return found
  }

  @inline(__always) private func value(for key: Key) throws -> PlistDecodingNode {
    guard let at = try position(of: key.stringValue) else { throw keyNotFound(key) }
    return try entries.value(at: at)
  }

  /// The value for `key`, or `nil` when the key is absent or holds `$null`.
  @inline(__always) private func valueIfPresent(for key: Key) throws -> PlistDecodingNode? {
    guard let at = try position(of: key.stringValue) else { return nil }
    let value = try entries.value(at: at)
    return value.value.isCodableNull ? nil : value
  }

  @inline(never) private func keyNotFound(_ key: Key) -> DecodingError {
    .keyNotFound(
      key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
  }

  private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

  func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).value.isCodableNull }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decoder.unwrapBool(value(for: key).value, path: path(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decoder.unwrapString(value(for: key).value, path: path(key))
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
    try decoder.unwrapInteger(value(for: key).value, path: path(key))
  }
  @inline(__always) private func decodeReal<T: BinaryFloatingPoint>(_ key: Key) throws -> T {
    try decoder.unwrapFloatingPoint(value(for: key).value, path: path(key))
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let value = try valueIfPresent(for: key) else { return nil }
    return try decoder.unwrapBool(value.value, path: path(key))
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let value = try valueIfPresent(for: key) else { return nil }
    return try decoder.unwrapString(value.value, path: path(key))
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
    guard let value = try valueIfPresent(for: key) else { return nil }
    return try decoder.unwrap(value, as: type, nestedPath: nestedPath, key: key)
  }

  @inline(__always) private func decodeIntegerIfPresent<T: FixedWidthInteger>(_ key: Key) throws -> T? {
    guard let value = try valueIfPresent(for: key) else { return nil }
    return try decoder.unwrapInteger(value.value, path: path(key))
  }
  @inline(__always) private func decodeRealIfPresent<T: BinaryFloatingPoint>(_ key: Key) throws -> T? {
    guard let value = try valueIfPresent(for: key) else { return nil }
    return try decoder.unwrapFloatingPoint(value.value, path: path(key))
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
    try makeSuperDecoder(SuperCodingKey(), stringKey: "super")
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try makeSuperDecoder(key, stringKey: key.stringValue)
  }

  /// A decoder for the value under `stringKey`; a missing key decodes as null, as in Foundation.
  private func makeSuperDecoder(_ key: any CodingKey, stringKey: String) throws -> any Decoder {
    let found = try entries.search(stringKey).position.map { try entries.value(at: $0) } ?? PlistDecodingNode(.string(codableNullString))
    return decoder.detached(found, path: codingPath + [key])
  }
}

// MARK: - Unkeyed container

struct PlistUnkeyedDecodingContainer<Elements: PlistIndexedElements>: UnkeyedDecodingContainer {
  let decoder: PlistValueDecoder
  let elements: Elements
  let depth: Int
  let nestedPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(decoder: PlistValueDecoder, elements: Elements, depth: Int, nestedPath: [any CodingKey]) {
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

  @inline(__always) private func next(_ type: Any.Type) throws -> PlistDecodingNode {
    guard currentIndex < elements.count else { throw atEnd(type) }
    return try elements.node(at: currentIndex)
  }

  mutating func decodeNil() throws -> Bool {
    guard try next(Never.self).value.isCodableNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let result = try decoder.unwrapBool(next(type).value, path: currentPath)
    currentIndex += 1
    return result
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let result = try decoder.unwrapString(next(type).value, path: currentPath)
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
    let result: T = try decoder.unwrapInteger(next(T.self).value, path: currentPath)
    currentIndex += 1
    return result
  }
  @inline(__always) private mutating func decodeReal<T: BinaryFloatingPoint>() throws -> T {
    let result: T = try decoder.unwrapFloatingPoint(next(T.self).value, path: currentPath)
    currentIndex += 1
    return result
  }

  // Foundation's `decodeIfPresent` returns nil at the end of the container instead of throwing,
  // and consumes a `$null`.

  /// The next element, or `nil` (consuming it) when it is `$null`; `.none` at the end.
  private mutating func nextIfPresent() throws -> PlistDecodingNode?? {
    guard currentIndex < elements.count else { return .none }
    let value = try elements.node(at: currentIndex)
    if value.value.isCodableNull {
      currentIndex += 1
      return .some(nil)
    }
    return .some(value)
  }

  mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    guard case .some(let value?) = try nextIfPresent() else { return nil }
    let result = try decoder.unwrapBool(value.value, path: currentPath)
    currentIndex += 1
    return result
  }
  mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    guard case .some(let value?) = try nextIfPresent() else { return nil }
    let result = try decoder.unwrapString(value.value, path: currentPath)
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
    guard case .some(let value?) = try nextIfPresent() else { return nil }
    let result = try decoder.unwrap(value, as: type, nestedPath: nestedPath, key: IndexCodingKey(currentIndex))
    currentIndex += 1
    return result
  }

  private mutating func decodeIntegerIfPresent<T: FixedWidthInteger>() throws -> T? {
    guard case .some(let value?) = try nextIfPresent() else { return nil }
    let result: T = try decoder.unwrapInteger(value.value, path: currentPath)
    currentIndex += 1
    return result
  }
  private mutating func decodeRealIfPresent<T: BinaryFloatingPoint>() throws -> T? {
    guard case .some(let value?) = try nextIfPresent() else { return nil }
    let result: T = try decoder.unwrapFloatingPoint(value.value, path: currentPath)
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
    let superDecoder = decoder.detached(element, path: currentPath)
    currentIndex += 1
    return superDecoder
  }
}
