import FoundationEssentials

// The tape encoder's keyed and unkeyed containers, and the loops for arrays and `[String: V]`
// (see `PlistTapeEncoder`). A container takes writes only while it is the innermost open one;
// anything else — and every nested container or super encoder — makes the encoder give up.

// MARK: - Keyed container

struct PlistTapeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  /// The encoder, the container's header and its depth in the path: a class, so that the
  /// encoder can hand this container out again for another dictionary of the same key type
  /// (`PlistTapeKeyedContainerCache`).
  let target: PlistTapeKeyedTarget

  @inline(__always) var encoder: PlistTapeEncoder { target.encoder }

  var codingPath: [any CodingKey] { Array(encoder.path.prefix(target.depth)) }

  /// Writes `key`, whose value the caller appends next.
  @inline(__always) private func begin(_ key: Key) throws {
    let encoder = target.encoder
    guard target.header == encoder.top else { throw encoder.giveUp() }
    let string = key.stringValue
    encoder.noteKey(string)
    encoder.append(.key(string))
  }

  @inline(__always) private func put(_ entry: CodableTapeEntry, _ key: Key) throws {
    try begin(key)
    encoder.append(entry)
  }

  mutating func encodeNil(forKey key: Key) throws { try put(.string(codableNullString), key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { try put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { try put(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try put(.real(value, width: .double), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try put(.real(Double(value), width: .single), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try put(.integer(PropertyListInteger(Int64(value))), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try put(.integer(PropertyListInteger(Int64(value))), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try put(.integer(PropertyListInteger(Int64(value))), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try put(.integer(PropertyListInteger(Int64(value))), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try put(.integer(PropertyListInteger(value)), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try put(.integer(PropertyListInteger(UInt64(value))), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(.integer(PropertyListInteger(UInt64(value))), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(.integer(PropertyListInteger(UInt64(value))), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(.integer(PropertyListInteger(UInt64(value))), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(.integer(PropertyListInteger(value)), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try begin(key)
    try encoder.encodeChild(value, key: key)
  }

  // Nested containers and super encoders may be written after later siblings: the tree's.
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.givenUpKeyedContainer(depth: target.depth)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.givenUpUnkeyedContainer(depth: target.depth)
  }

  mutating func superEncoder() -> any Encoder { encoder.givenUpEncoder() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.givenUpEncoder() }
}

// MARK: - Unkeyed container

struct PlistTapeUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: PlistTapeEncoder
  let header: Int
  let depth: Int

  var codingPath: [any CodingKey] { Array(encoder.path.prefix(depth)) }
  var count: Int { header == encoder.top ? encoder.frames[encoder.frames.count &- 1].count : 0 }

  /// Counts the element the caller appends next, and returns its index.
  @inline(__always) private func begin() throws -> Int {
    guard header == encoder.top else { throw encoder.giveUp() }
    let last = encoder.frames.count &- 1
    let index = encoder.frames[last].count
    encoder.frames[last].count = index &+ 1
    return index
  }

  @inline(__always) private func put(_ entry: CodableTapeEntry) throws {
    _ = try begin()
    encoder.append(entry)
  }

  mutating func encodeNil() throws { try put(.string(codableNullString)) }
  mutating func encode(_ value: Bool) throws { try put(.bool(value)) }
  mutating func encode(_ value: String) throws { try put(.string(value)) }
  mutating func encode(_ value: Double) throws { try put(.real(value, width: .double)) }
  mutating func encode(_ value: Float) throws { try put(.real(Double(value), width: .single)) }
  mutating func encode(_ value: Int) throws { try put(.integer(PropertyListInteger(Int64(value)))) }
  mutating func encode(_ value: Int8) throws { try put(.integer(PropertyListInteger(Int64(value)))) }
  mutating func encode(_ value: Int16) throws { try put(.integer(PropertyListInteger(Int64(value)))) }
  mutating func encode(_ value: Int32) throws { try put(.integer(PropertyListInteger(Int64(value)))) }
  mutating func encode(_ value: Int64) throws { try put(.integer(PropertyListInteger(value))) }
  mutating func encode(_ value: UInt) throws { try put(.integer(PropertyListInteger(UInt64(value)))) }
  mutating func encode(_ value: UInt8) throws { try put(.integer(PropertyListInteger(UInt64(value)))) }
  mutating func encode(_ value: UInt16) throws { try put(.integer(PropertyListInteger(UInt64(value)))) }
  mutating func encode(_ value: UInt32) throws { try put(.integer(PropertyListInteger(UInt64(value)))) }
  mutating func encode(_ value: UInt64) throws { try put(.integer(PropertyListInteger(value))) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = try begin()
    try encoder.encodeChild(value, key: IndexCodingKey(index))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    encoder.givenUpKeyedContainer(depth: depth)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder.givenUpUnkeyedContainer(depth: depth) }

  mutating func superEncoder() -> any Encoder { encoder.givenUpEncoder() }
}

extension PlistTapeEncoder {
  /// A keyed container every write to which gives up (the encoder has given up already).
  func givenUpKeyedContainer<NestedKey: CodingKey>(depth: Int) -> KeyedEncodingContainer<NestedKey> {
    _ = giveUp()
    let target = PlistTapeKeyedTarget(encoder: self, header: Self.noHeader, depth: depth)
    return KeyedEncodingContainer(PlistTapeKeyedContainer<NestedKey>(target: target))
  }

  func givenUpUnkeyedContainer(depth: Int) -> any UnkeyedEncodingContainer {
    _ = giveUp()
    return PlistTapeUnkeyedContainer(encoder: self, header: Self.noHeader, depth: depth)
  }

  func givenUpEncoder() -> any Encoder {
    _ = giveUp()
    return PlistTapeEncoder(userInfo: userInfo, detached: true)
  }
}

// MARK: - Arrays and [String: V]

/// Collections the tape encoder writes as loops over their elements (see `PlistDirectEncodable`).
protocol PlistTapeDirectEncodable {
  func encodeDirectly(to encoder: PlistTapeEncoder) throws
}

extension Array: PlistTapeDirectEncodable where Element: Encodable {
  func encodeDirectly(to encoder: PlistTapeEncoder) throws {
    guard encoder.openContainer(isDictionary: false) >= 0 else { throw encoder.giveUp() }
    if !encoder.appendScalars(self) {
      // Elements lent from the buffer: this loop runs unspecialized, and `self[index]` copied
      // each element (retaining every string in it) to hand it to its `encode(to:)`.
      try withUnsafeBufferPointer { elements in
        for index in elements.indices {
          try encoder.encodeChild(elements[index], key: IndexCodingKey(index))
        }
      }
    }
    encoder.frames[encoder.frames.count &- 1].count = count
    encoder.closeContainer()
  }
}

extension Dictionary: PlistTapeDirectEncodable where Key == String, Value: Encodable {
  /// Keys sorted, as Foundation writes them.
  func encodeDirectly(to encoder: PlistTapeEncoder) throws {
    guard encoder.openContainer(isDictionary: true) >= 0 else { throw encoder.giveUp() }
    let keys: [String]
    if let written = encoder.appendScalarEntries(self) {
      keys = written
    } else {
      keys = self.keys.sorted()
      for key in keys {
        encoder.append(.key(key))
        try encoder.encodeChild(self[key]!, key: StringCodingKey(stringValue: key))
      }
    }
    encoder.frames[encoder.frames.count &- 1].count = keys.count
    encoder.closeContainer(keys: keys)
  }
}

// MARK: - Collections of scalars

// The conformances above run unspecialized (they are reached through a dynamic cast), so every
// element of a `[String]` or entry of a `[String: String]` went through value witnesses,
// generic metadata and, for a dictionary, a hashed lookup per key. Collections of the scalar
// types the tape holds as themselves get loops specialized for their type instead, appending the
// entries `encodeChild` would.
//
// `encodeScalarCollection(_:)` recognizes them by their exact type before any dynamic cast: the
// cast that finds `PlistTapeDirectEncodable` (a conformance lookup and a copy of the value into
// an existential) and the `Array<Element>` or `Dictionary<String, Value>` metadata the generic
// loops then need cost about 1,000 instructions for an item's three-element `tags`.

extension PlistTapeEncoder {
  /// Writes `value` at the current level if it is a `[String]`, `[Int]`, `[Double]`, `[Bool]`,
  /// `[String: String]`, `[String: Int]`, `[String: Double]` or `[String: Bool]` (decided by its
  /// exact type), as the `PlistTapeDirectEncodable` conformances would; `false` for any other type.
  @inline(__always)
  func encodeScalarCollection<T>(_ value: T) throws -> Bool {
    if T.self == [String].self {
      try encodeScalarArray(reinterpretValue(value, as: [String].self)) { .string($0) }
    } else if T.self == [Int].self {
      try encodeScalarArray(reinterpretValue(value, as: [Int].self)) { .integer(PropertyListInteger(Int64($0))) }
    } else if T.self == [Double].self {
      try encodeScalarArray(reinterpretValue(value, as: [Double].self)) { .real($0, width: .double) }
    } else if T.self == [Bool].self {
      try encodeScalarArray(reinterpretValue(value, as: [Bool].self)) { .bool($0) }
    } else if T.self == [String: String].self {
      try encodeScalarMap(reinterpretValue(value, as: [String: String].self)) { .string($0) }
    } else if T.self == [String: Int].self {
      try encodeScalarMap(reinterpretValue(value, as: [String: Int].self)) { .integer(PropertyListInteger(Int64($0))) }
    } else if T.self == [String: Double].self {
      try encodeScalarMap(reinterpretValue(value, as: [String: Double].self)) { .real($0, width: .double) }
    } else if T.self == [String: Bool].self {
      try encodeScalarMap(reinterpretValue(value, as: [String: Bool].self)) { .bool($0) }
    } else {
      return false
    }
    return true
  }

  /// An array of scalars as one container (what `Array.encodeDirectly(to:)` writes).
  @inline(__always)
  private func encodeScalarArray<Element>(_ elements: [Element], _ entry: (Element) -> CodableTapeEntry) throws {
    guard openContainer(isDictionary: false) >= 0 else { throw giveUp() }
    for element in elements { append(entry(element)) }
    frames[frames.count &- 1].count = elements.count
    closeContainer()
  }

  /// A `[String: scalar]` as one container (what `Dictionary.encodeDirectly(to:)` writes).
  @inline(__always)
  private func encodeScalarMap<Value>(_ map: [String: Value], _ entry: (Value) -> CodableTapeEntry) throws {
    guard openContainer(isDictionary: true) >= 0 else { throw giveUp() }
    let keys = appendEntries(map, entry)
    frames[frames.count &- 1].count = keys.count
    closeContainer(keys: keys)
  }

  /// Appends the elements of a `[String]`, `[Int]`, `[Double]` or `[Bool]`; `false` (nothing
  /// appended) for an array of any other element type.
  func appendScalars<Element>(_ elements: [Element]) -> Bool {
    if Element.self == String.self {
      for string in reinterpretElements(elements, as: String.self) { append(.string(string)) }
    } else if Element.self == Int.self {
      for integer in reinterpretElements(elements, as: Int.self) { append(.integer(PropertyListInteger(Int64(integer)))) }
    } else if Element.self == Double.self {
      for number in reinterpretElements(elements, as: Double.self) { append(.real(number, width: .double)) }
    } else if Element.self == Bool.self {
      for flag in reinterpretElements(elements, as: Bool.self) { append(.bool(flag)) }
    } else {
      return false
    }
    return true
  }

  /// Appends the entries of a `[String: String]`, `[String: Int]`, `[String: Double]` or
  /// `[String: Bool]` in key order (Swift's `<`, as the general path sorts them) and returns the
  /// sorted keys; `nil` (nothing appended) for any other value type.
  func appendScalarEntries<Value>(_ map: [String: Value]) -> [String]? {
    if Value.self == String.self {
      return appendEntries(reinterpretValues(map, as: String.self)) { .string($0) }
    } else if Value.self == Int.self {
      return appendEntries(reinterpretValues(map, as: Int.self)) { .integer(PropertyListInteger(Int64($0))) }
    } else if Value.self == Double.self {
      return appendEntries(reinterpretValues(map, as: Double.self)) { .real($0, width: .double) }
    } else if Value.self == Bool.self {
      return appendEntries(reinterpretValues(map, as: Bool.self)) { .bool($0) }
    }
    return nil
  }

  /// Appends a dictionary's entries in key order and returns the sorted keys. The pairs are
  /// sorted in memory on the stack (no array of pairs made and freed per dictionary).
  @inline(__always)
  private func appendEntries<Value>(_ map: [String: Value], _ entry: (Value) -> CodableTapeEntry) -> [String] {
    let count = map.count
    var keys: [String] = []
    keys.reserveCapacity(count)
    withUnsafeTemporaryAllocation(of: (key: String, value: Value).self, capacity: count) { pairs in
      var filled = 0
      for pair in map {
        (pairs.baseAddress! + filled).initialize(to: pair)
        filled &+= 1
      }
      var sorted = UnsafeMutableBufferPointer(rebasing: pairs[..<filled])
      sorted.sort { $0.key < $1.key }
      for index in 0..<filled {
        let (key, value) = (sorted.baseAddress! + index).move()
        keys.append(key)
        append(.key(key))
        append(entry(value))
      }
    }
    return keys
  }
}
