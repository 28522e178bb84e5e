import FoundationEssentials

// Encodable → PropertyListValue.
//
// One `PlistValueEncoder` serves a whole top-level call. Encoding a child value saves the
// encoder's per-level state (the single value or container requested so far), runs the child's
// `encode(to:)` against the same object, turns what it produced into a `PropertyListValue`, and
// restores the state, so scalars and containers alike cost no encoder allocation. Containers
// write into an `EncodingContainerBox`, a reference type because `nestedContainer`,
// `nestedUnkeyedContainer` and `superEncoder` hand out writers that may be used after later
// siblings; those are kept as pending entries and resolved when the box is turned into a value.

/// Storage for one keyed or unkeyed container while it is being filled.
final class EncodingContainerBox {
  /// An entry whose value is still being written by a nested container or a super encoder.
  struct PendingEntry {
    enum Source {
      case container(EncodingContainerBox)
      case encoder(PlistValueEncoder)
    }
    let position: Int
    let source: Source

    func makeValue() -> PropertyListValue {
      switch source {
      case .container(let box): box.makeValue()
      case .encoder(let encoder): encoder.finishedValue() ?? .dictionary(PropertyListDictionary())
      }
    }
  }

  let isArray: Bool
  /// Keys in the order written (dictionaries only; a repeated key keeps its first place and
  /// takes its last value when the box becomes a value, as Foundation's ordered storage does).
  /// Empty while the keys so far are the first `matched` keys of `template`.
  var keys: [String] = []
  var values: [PropertyListValue] = []
  var pending: [PendingEntry] = []
  /// The keys of the last dictionary finished at this level when no key repeated in it: sibling
  /// values (the elements of an array of structs) write the same keys in the same order, so a box
  /// that follows the template shares its array (no per-key append, no array, no repeat check).
  private var template: [String]
  /// How many keys so far equal the template's first keys; -1 once they have diverged (then
  /// `keys` holds them all).
  private var matched = 0
  /// Where the finished keys are recorded as the next template (nil: not recorded).
  private let templates: KeyTemplates?
  private let level: Int

  init(isArray: Bool, capacity: Int = 0, templates: KeyTemplates? = nil, level: Int = 0) {
    self.isArray = isArray
    self.templates = isArray ? nil : templates
    self.level = level
    template = isArray ? [] : templates?[level, 0] ?? []
    if capacity > 0 {
      values.reserveCapacity(capacity)
    }
  }

  /// The key at `position` (dictionaries only).
  @inline(__always) func key(at position: Int) -> String {
    matched >= 0 ? template[position] : keys[position]
  }

  @inline(__always) private func appendKey(_ key: String) {
    if matched >= 0 {
      if matched < template.count && sameString(template[matched], key) {
        matched &+= 1
        return
      }
      if switchTemplate(forKey: key) { return }
      diverge()
    }
    keys.append(key)
  }

  /// Moves to another of the level's templates that starts with the keys matched so far and
  /// continues with `key` (structs with optional fields have a few shapes).
  @inline(never) private func switchTemplate(forKey key: String) -> Bool {
    guard let other = templates?.template(continuing: template, matched: matched, with: key, level: level) else { return false }
    template = other
    matched &+= 1
    return true
  }

  /// Leaves the template: the keys matched so far become `keys`.
  @inline(never) private func diverge() {
    keys.reserveCapacity(Swift.max(values.count + 1, template.count))
    keys.append(contentsOf: template[..<matched])
    matched = -1
  }

  @inline(__always) func append(_ value: PropertyListValue, forKey key: String) {
    appendKey(key)
    values.append(value)
  }

  @inline(__always) func append(_ value: PropertyListValue) {
    values.append(value)
  }

  /// The box that a nested container for `key` writes into: the one already made for that key
  /// when it is of the same kind (Foundation hands back the existing nested container), else a
  /// new one in a reserved place.
  func nestedBox(forKey key: String, isArray: Bool) -> EncodingContainerBox {
    if let existing = pending.last(where: { self.key(at: $0.position) == key }),
      case .container(let box) = existing.source, box.isArray == isArray
    {
      return box
    }
    let box = EncodingContainerBox(isArray: isArray)
    reserve(forKey: key, source: .container(box))
    return box
  }

  /// Reserves the next place (for `key` in a dictionary) for a value still being written.
  func reserve(forKey key: String?, source: PendingEntry.Source) {
    pending.append(PendingEntry(position: values.count, source: source))
    if let key { appendKey(key) }
    values.append(.dictionary(PropertyListDictionary()))
  }

  /// The finished container.
  func makeValue() -> PropertyListValue {
    for entry in pending { values[entry.position] = entry.makeValue() }
    if isArray { return .array(values) }
    if matched >= 0 {
      // The template's keys, or the first of them (no key repeats): a struct whose last optional
      // fields were nil stops early, and another of the level's templates may be just that.
      if matched == template.count { return .dictionary(PropertyListDictionary(uniqueKeys: template, values: values)) }
      if let shorter = templates?.prefix(of: template, count: matched, level: level) {
        return .dictionary(PropertyListDictionary(uniqueKeys: shorter, values: values))
      }
      let keys = Array(template[..<matched])
      templates?.record(keys, level: level)
      return .dictionary(PropertyListDictionary(uniqueKeys: keys, values: values))
    }
    let dictionary = PropertyListDictionary(keys: keys, values: values)
    if let templates, dictionary.count == keys.count { templates.record(keys, level: level) }
    return .dictionary(dictionary)
  }
}

/// Whether two strings are the same: first by their bits (a key's `stringValue` is usually the
/// same literal every time, or a small string held inline), then by value.
@inline(__always) func sameString(_ a: String, _ b: String) -> Bool {
  if MemoryLayout<String>.size == 16 {
    let x = unsafeBitCast(a, to: (UInt64, UInt64).self)
    let y = unsafeBitCast(b, to: (UInt64, UInt64).self)
    if x == y { return true }
  }
  return a == b
}

/// The key templates of each nesting level (see `EncodingContainerBox`): the last few distinct
/// key lists without a repeated key, newest first, at most `DepthHints.capacity` levels; deeper
/// levels have none. Only ever a guess to compare against.
///
/// The tape encoder keeps one from one document to the next (`PlistTapeScratch`), so a document
/// does not learn its shapes again, and its dictionaries share the keys arrays of the last
/// document's, which the XML writer's key-order cache then recognizes.
final class KeyTemplates {
  static let perLevel = 4
  /// Unchecked: one encoding uses it at a time, and a checked access per container cost more
  /// than the lookup.
  @exclusivity(unchecked) private var storage = [[String]](repeating: [], count: DepthHints.capacity * KeyTemplates.perLevel)

  subscript(level: Int, candidate: Int) -> [String] {
    level >= 0 && level < DepthHints.capacity ? storage[level &* Self.perLevel &+ candidate] : []
  }

  /// A template of the level that is the first `count` keys of `template`, if there is one.
  func prefix(of template: [String], count: Int, level: Int) -> [String]? {
    guard level >= 0 && level < DepthHints.capacity else { return nil }
    for candidate in 0..<Self.perLevel {
      let other = storage[level &* Self.perLevel &+ candidate]
      guard other.count == count else { continue }
      var same = true
      for position in 0..<count where !sameString(other[position], template[position]) {
        same = false
        break
      }
      if same { return other }
    }
    return nil
  }

  /// A template of the level that starts with the first `matched` keys of `current` and
  /// continues with `key` (structs with optional fields have a few shapes).
  func template(continuing current: [String], matched: Int, with key: String, level: Int) -> [String]? {
    guard level >= 0 && level < DepthHints.capacity else { return nil }
    for candidate in 0..<Self.perLevel {
      let other = storage[level &* Self.perLevel &+ candidate]
      guard other.count > matched, sameString(other[matched], key) else { continue }
      var same = true
      for position in 0..<matched where !sameString(other[position], current[position]) {
        same = false
        break
      }
      if same { return other }
    }
    return nil
  }

  /// Makes `keys` the level's newest template.
  func record(_ keys: [String], level: Int) {
    guard level >= 0 && level < DepthHints.capacity else { return }
    let first = level * Self.perLevel
    for candidate in stride(from: Self.perLevel - 1, to: 0, by: -1) {
      storage[first + candidate] = storage[first + candidate - 1]
    }
    storage[first] = keys
  }
}

/// The `Encoder` handed to `encode(to:)`; it is also its own single-value container.
final class PlistValueEncoder: Encoder, SingleValueEncodingContainer {
  let userInfo: [CodingUserInfoKey: Any]
  /// The coding path of the value being encoded; containers remember how much of it is theirs.
  var path: [any CodingKey]
  /// The scalar (or finished child) encoded at the current level through the single-value
  /// container, if any.
  var single: PropertyListValue?
  /// The container requested at the current level, if any.
  var container: EncodingContainerBox?
  /// How many entries the last container at each level held: sibling values (the elements of
  /// an array of structs) usually have the same shape, so new containers reserve that much.
  let sizeHints = DepthHints()
  /// The last dictionary's keys at each level (see `EncodingContainerBox`).
  let keyTemplates = KeyTemplates()
  init(userInfo: [CodingUserInfoKey: Any], path: [any CodingKey] = []) {
    self.userInfo = userInfo
    self.path = path
  }

  var codingPath: [any CodingKey] { path }

  /// What was encoded at the current level: the container, the single value, or `nil` when
  /// `encode(to:)` wrote nothing.
  func finishedValue() -> PropertyListValue? {
    if let container { return container.makeValue() }
    return single
  }

  // MARK: Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let box: EncodingContainerBox
    if let existing = container {
      precondition(
        !existing.isArray, "Attempt to push new keyed encoding container when already previously encoded at this path.")
      box = existing
    } else {
      precondition(
        single == nil, "Attempt to push new keyed encoding container when already previously encoded at this path.")
      box = EncodingContainerBox(
        isArray: false, capacity: Swift.min(sizeHints[path.count], 64), templates: keyTemplates, level: path.count)
      container = box
    }
    return KeyedEncodingContainer(
      PlistKeyedEncodingContainer<Key>(encoder: self, box: box, depth: path.count, nestedPath: []))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let box: EncodingContainerBox
    if let existing = container {
      precondition(
        existing.isArray, "Attempt to push new unkeyed encoding container when already previously encoded at this path.")
      box = existing
    } else {
      precondition(
        single == nil, "Attempt to push new unkeyed encoding container when already previously encoded at this path.")
      box = EncodingContainerBox(isArray: true, capacity: Swift.min(sizeHints[path.count], 64))
      container = box
    }
    return PlistUnkeyedEncodingContainer(encoder: self, box: box, depth: path.count, nestedPath: [])
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  // MARK: Children

  /// Encodes a child value and returns what it produced; a child that encodes nothing becomes an
  /// empty dictionary, as in Foundation. `nestedPath` and `key` extend the coding path while the
  /// child runs (the keys of nested containers, then the child's own key).
  @inline(__always)
  func wrap<T: Encodable>(_ value: T, nestedPath: [any CodingKey], key: (any CodingKey)?) throws -> PropertyListValue {
    if T.self == String.self { return .string(reinterpretValue(value, as: String.self)) }
    if T.self == Int.self { return .integer(PropertyListInteger(Int64(reinterpretValue(value, as: Int.self)))) }
    if T.self == Double.self { return .real(reinterpretValue(value, as: Double.self), width: .double) }
    if T.self == Bool.self { return .bool(reinterpretValue(value, as: Bool.self)) }
    if T.self == Date.self { return .date(reinterpretValue(value, as: Date.self)) }
    if T.self == Data.self { return .data(reinterpretValue(value, as: Data.self)) }
    if let collection = value as? any PlistDirectEncodable {
      return try encodeDirectly(collection, nestedPath: nestedPath, key: key)
    }
    return try encodeChild(value, nestedPath: nestedPath, key: key) ?? .dictionary(PropertyListDictionary())
  }

  /// Encodes an array or `[String: V]` element by element (see `PlistDirectEncodable`).
  private func encodeDirectly(
    _ collection: any PlistDirectEncodable, nestedPath: [any CodingKey], key: (any CodingKey)?
  ) throws -> PropertyListValue {
    let savedDepth = path.count
    if !nestedPath.isEmpty { path.append(contentsOf: nestedPath) }
    if let key { path.append(key) }
    defer { path.removeLast(path.count - savedDepth) }
    return try collection.encodeDirectly(to: self)
  }

  /// Encodes the top-level value: dates and data are values of their own, as in Foundation;
  /// anything else runs its `encode(to:)`. `nil` when it encoded nothing.
  func encodeTopLevel<T: Encodable>(_ value: T) throws -> PropertyListValue? {
    if T.self == Date.self { return .date(reinterpretValue(value, as: Date.self)) }
    if T.self == Data.self { return .data(reinterpretValue(value, as: Data.self)) }
    if let collection = value as? any PlistDirectEncodable {
      return try encodeDirectly(collection, nestedPath: [], key: nil)
    }
    return try encodeChild(value, nestedPath: [], key: nil)
  }

  /// Runs `value.encode(to: self)` with fresh per-level state and returns what it produced, or
  /// `nil` if it encoded nothing.
  func encodeChild<T: Encodable>(_ value: T, nestedPath: [any CodingKey], key: (any CodingKey)?) throws -> PropertyListValue? {
    let savedSingle = single
    let savedContainer = container
    let savedDepth = path.count
    single = nil
    container = nil
    if !nestedPath.isEmpty { path.append(contentsOf: nestedPath) }
    if let key { path.append(key) }
    defer {
      single = savedSingle
      container = savedContainer
      path.removeLast(path.count - savedDepth)
    }
    try value.encode(to: self)
    if let container { sizeHints[path.count] = container.values.count }
    return finishedValue()
  }

  /// Same as `encodeChild` for a value that encodes itself with a configuration.
  func encodeChild<T: EncodableWithConfiguration>(
    _ value: T, configuration: T.EncodingConfiguration
  ) throws -> PropertyListValue? {
    let savedSingle = single
    let savedContainer = container
    single = nil
    container = nil
    defer {
      single = savedSingle
      container = savedContainer
    }
    try value.encode(to: self, configuration: configuration)
    return finishedValue()
  }

  // MARK: SingleValueEncodingContainer

  @inline(__always) private func setSingle(_ value: PropertyListValue) {
    precondition(
      single == nil && container == nil,
      "Attempt to encode value through single value container when previously value already encoded.")
    single = value
  }

  func encodeNil() throws { setSingle(.string(codableNullString)) }
  func encode(_ value: Bool) throws { setSingle(.bool(value)) }
  func encode(_ value: String) throws { setSingle(.string(value)) }
  func encode(_ value: Double) throws { setSingle(.real(value, width: .double)) }
  func encode(_ value: Float) throws { setSingle(.real(Double(value), width: .single)) }
  func encode(_ value: Int) throws { setSingle(.integer(PropertyListInteger(Int64(value)))) }
  func encode(_ value: Int8) throws { setSingle(.integer(PropertyListInteger(Int64(value)))) }
  func encode(_ value: Int16) throws { setSingle(.integer(PropertyListInteger(Int64(value)))) }
  func encode(_ value: Int32) throws { setSingle(.integer(PropertyListInteger(Int64(value)))) }
  func encode(_ value: Int64) throws { setSingle(.integer(PropertyListInteger(value))) }
  func encode(_ value: UInt) throws { setSingle(.integer(PropertyListInteger(UInt64(value)))) }
  func encode(_ value: UInt8) throws { setSingle(.integer(PropertyListInteger(UInt64(value)))) }
  func encode(_ value: UInt16) throws { setSingle(.integer(PropertyListInteger(UInt64(value)))) }
  func encode(_ value: UInt32) throws { setSingle(.integer(PropertyListInteger(UInt64(value)))) }
  func encode(_ value: UInt64) throws { setSingle(.integer(PropertyListInteger(value))) }

  func encode<T: Encodable>(_ value: T) throws {
    precondition(
      single == nil && container == nil,
      "Attempt to encode value through single value container when previously value already encoded.")
    single = try wrap(value, nestedPath: [], key: nil)
  }
}

// MARK: - Keyed container

struct PlistKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: PlistValueEncoder
  let box: EncodingContainerBox
  /// How much of the encoder's path was this container's when it was made.
  let depth: Int
  /// Keys of the nested containers between that point and this container.
  let nestedPath: [any CodingKey]

  var codingPath: [any CodingKey] { Array(encoder.path.prefix(depth)) + nestedPath }

  mutating func encodeNil(forKey key: Key) throws { box.append(.string(codableNullString), forKey: key.stringValue) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { box.append(.bool(value), forKey: key.stringValue) }
  mutating func encode(_ value: String, forKey key: Key) throws { box.append(.string(value), forKey: key.stringValue) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    box.append(.real(value, width: .double), forKey: key.stringValue)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    box.append(.real(Double(value), width: .single), forKey: key.stringValue)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { appendSigned(Int64(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { appendSigned(Int64(value), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { appendSigned(Int64(value), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { appendSigned(Int64(value), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { appendSigned(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { appendUnsigned(UInt64(value), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { appendUnsigned(UInt64(value), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { appendUnsigned(UInt64(value), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { appendUnsigned(UInt64(value), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { appendUnsigned(value, key) }

  @inline(__always) private func appendSigned(_ value: Int64, _ key: Key) {
    box.append(.integer(PropertyListInteger(value)), forKey: key.stringValue)
  }
  @inline(__always) private func appendUnsigned(_ value: UInt64, _ key: Key) {
    box.append(.integer(PropertyListInteger(value)), forKey: key.stringValue)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    let encoded = try encoder.wrap(value, nestedPath: nestedPath, key: key)
    box.append(encoded, forKey: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = box.nestedBox(forKey: key.stringValue, isArray: false)
    return KeyedEncodingContainer(
      PlistKeyedEncodingContainer<NestedKey>(encoder: encoder, box: nested, depth: depth, nestedPath: nestedPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = box.nestedBox(forKey: key.stringValue, isArray: true)
    return PlistUnkeyedEncodingContainer(encoder: encoder, box: nested, depth: depth, nestedPath: nestedPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    makeSuperEncoder(SuperCodingKey(), stringKey: "super")
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    makeSuperEncoder(key, stringKey: key.stringValue)
  }

  private func makeSuperEncoder(_ key: any CodingKey, stringKey: String) -> any Encoder {
    let superEncoder = PlistValueEncoder(userInfo: encoder.userInfo, path: codingPath + [key])
    box.reserve(forKey: stringKey, source: .encoder(superEncoder))
    return superEncoder
  }
}

// MARK: - Unkeyed container

struct PlistUnkeyedEncodingContainer: UnkeyedEncodingContainer {
  let encoder: PlistValueEncoder
  let box: EncodingContainerBox
  let depth: Int
  let nestedPath: [any CodingKey]

  var codingPath: [any CodingKey] { Array(encoder.path.prefix(depth)) + nestedPath }
  var count: Int { box.values.count }

  mutating func encodeNil() throws { box.append(.string(codableNullString)) }
  mutating func encode(_ value: Bool) throws { box.append(.bool(value)) }
  mutating func encode(_ value: String) throws { box.append(.string(value)) }
  mutating func encode(_ value: Double) throws { box.append(.real(value, width: .double)) }
  mutating func encode(_ value: Float) throws { box.append(.real(Double(value), width: .single)) }
  mutating func encode(_ value: Int) throws { box.append(.integer(PropertyListInteger(Int64(value)))) }
  mutating func encode(_ value: Int8) throws { box.append(.integer(PropertyListInteger(Int64(value)))) }
  mutating func encode(_ value: Int16) throws { box.append(.integer(PropertyListInteger(Int64(value)))) }
  mutating func encode(_ value: Int32) throws { box.append(.integer(PropertyListInteger(Int64(value)))) }
  mutating func encode(_ value: Int64) throws { box.append(.integer(PropertyListInteger(value))) }
  mutating func encode(_ value: UInt) throws { box.append(.integer(PropertyListInteger(UInt64(value)))) }
  mutating func encode(_ value: UInt8) throws { box.append(.integer(PropertyListInteger(UInt64(value)))) }
  mutating func encode(_ value: UInt16) throws { box.append(.integer(PropertyListInteger(UInt64(value)))) }
  mutating func encode(_ value: UInt32) throws { box.append(.integer(PropertyListInteger(UInt64(value)))) }
  mutating func encode(_ value: UInt64) throws { box.append(.integer(PropertyListInteger(value))) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let encoded = try encoder.wrap(value, nestedPath: nestedPath, key: IndexCodingKey(box.values.count))
    box.append(encoded)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let key = IndexCodingKey(box.values.count)
    let nested = EncodingContainerBox(isArray: false)
    box.reserve(forKey: nil, source: .container(nested))
    return KeyedEncodingContainer(
      PlistKeyedEncodingContainer<NestedKey>(encoder: encoder, box: nested, depth: depth, nestedPath: nestedPath + [key]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let key = IndexCodingKey(box.values.count)
    let nested = EncodingContainerBox(isArray: true)
    box.reserve(forKey: nil, source: .container(nested))
    return PlistUnkeyedEncodingContainer(encoder: encoder, box: nested, depth: depth, nestedPath: nestedPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let superEncoder = PlistValueEncoder(userInfo: encoder.userInfo, path: codingPath + [IndexCodingKey(box.values.count)])
    box.reserve(forKey: nil, source: .encoder(superEncoder))
    return superEncoder
  }
}
