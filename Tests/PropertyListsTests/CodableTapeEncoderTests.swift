import Foundation
import Testing
import TestSupport

@testable import PropertyLists

// The Codable encoder writes bytes straight from a flat tape of entries when a value writes each
// container in one go, and otherwise encodes again through its tree. Seeded random Codable values
// check that the tape gives exactly the bytes of the tree path (`encodeToValue(_:)` then
// `encoded(as:)`) in both formats, that it is taken for every value it can serve, and that it
// gives up — leaving the tree to decide — on nested containers, super encoders and repeated keys.

private struct NodeKey: CodingKey {
  let stringValue: String
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
  var intValue: Int? { nil }
}

/// A random Codable value, written through every kind of container and overload.
private indirect enum Node: Encodable {
  case string(String)
  case int(Int)
  case int8(Int8)
  case int64(Int64)
  case uint64(UInt64)
  case uint16(UInt16)
  case double(Double)
  case float(Float)
  case bool(Bool)
  case date(Date)
  case data(Data)
  case null
  /// Writes nothing: an empty dictionary.
  case nothing
  /// Entries through one keyed container; `generic` sends scalars through the generic overload.
  case keyed([(String, Node)], generic: Bool)
  /// Elements through one unkeyed container.
  case unkeyed([Node], generic: Bool)
  /// A Swift array and dictionary (the encoders' direct paths).
  case array([Node])
  case map([String: Node])
  case integers([Int])
  case strings([String])
  /// `Node?` through the single-value container.
  case optional(Node?)
  /// A keyed container with a nested container written after a later sibling.
  case nested([(String, Node)])
  /// A keyed container that hands out a super encoder.
  case superEncoded(Node)

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .keyed(let entries, let generic):
      var container = encoder.container(keyedBy: NodeKey.self)
      for (key, value) in entries {
        let codingKey = NodeKey(stringValue: key)
        if generic {
          try Self.putGeneric(value, into: &container, key: codingKey)
        } else {
          try Self.put(value, into: &container, key: codingKey)
        }
      }
    case .unkeyed(let elements, let generic):
      var container = encoder.unkeyedContainer()
      for element in elements {
        if generic, let scalar = element.scalar {
          try Self.appendGeneric(scalar, to: &container)
        } else {
          try Self.append(element, to: &container)
        }
      }
    case .array(let elements): try elements.encode(to: encoder)
    case .map(let entries): try entries.encode(to: encoder)
    case .integers(let values):
      var container = encoder.singleValueContainer()
      try container.encode(values)
    case .strings(let values): try values.encode(to: encoder)
    case .optional(let wrapped):
      var container = encoder.singleValueContainer()
      try container.encode(wrapped)
    case .nested(let entries):
      var container = encoder.container(keyedBy: NodeKey.self)
      var nested = container.nestedContainer(keyedBy: NodeKey.self, forKey: NodeKey(stringValue: "nested"))
      for (key, value) in entries { try container.encode(value, forKey: NodeKey(stringValue: key)) }
      try nested.encode(1, forKey: NodeKey(stringValue: "inner"))
    case .superEncoded(let value):
      var container = encoder.container(keyedBy: NodeKey.self)
      try value.encode(to: container.superEncoder())
    case .nothing:
      break
    default:
      var container = encoder.singleValueContainer()
      try Self.putSingle(self, into: &container)
    }
  }

  /// The value as a plain Swift scalar, for the generic overloads.
  var scalar: (any Encodable)? {
    switch self {
    case .string(let value): value
    case .int(let value): value
    case .int8(let value): value
    case .int64(let value): value
    case .uint64(let value): value
    case .uint16(let value): value
    case .double(let value): value
    case .float(let value): value
    case .bool(let value): value
    case .date(let value): value
    case .data(let value): value
    default: nil
    }
  }

  private static func putSingle(_ node: Node, into container: inout any SingleValueEncodingContainer) throws {
    switch node {
    case .string(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .int8(let value): try container.encode(value)
    case .int64(let value): try container.encode(value)
    case .uint64(let value): try container.encode(value)
    case .uint16(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .float(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .date(let value): try container.encode(value)
    case .data(let value): try container.encode(value)
    case .null: try container.encodeNil()
    default: try container.encode(node)
    }
  }

  /// Scalars through their own overloads of the keyed container.
  private static func put(_ node: Node, into container: inout KeyedEncodingContainer<NodeKey>, key: NodeKey) throws {
    switch node {
    case .string(let value): try container.encode(value, forKey: key)
    case .int(let value): try container.encode(value, forKey: key)
    case .int8(let value): try container.encode(value, forKey: key)
    case .int64(let value): try container.encode(value, forKey: key)
    case .uint64(let value): try container.encode(value, forKey: key)
    case .uint16(let value): try container.encode(value, forKey: key)
    case .double(let value): try container.encode(value, forKey: key)
    case .float(let value): try container.encode(value, forKey: key)
    case .bool(let value): try container.encode(value, forKey: key)
    case .null: try container.encodeNil(forKey: key)
    default: try container.encode(node, forKey: key)
    }
  }

  /// Scalars through the generic overload (the encoders' exact-type fast paths).
  private static func putGeneric(_ node: Node, into container: inout KeyedEncodingContainer<NodeKey>, key: NodeKey) throws {
    func put<T: Encodable>(_ value: T) throws { try container.encode(value, forKey: key) }
    if let scalar = node.scalar { try put(scalar) } else { try put(node) }
  }

  private static func append(_ node: Node, to container: inout any UnkeyedEncodingContainer) throws {
    switch node {
    case .string(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .int8(let value): try container.encode(value)
    case .int64(let value): try container.encode(value)
    case .uint64(let value): try container.encode(value)
    case .uint16(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .float(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .null: try container.encodeNil()
    default: try container.encode(node)
    }
  }

  private static func appendGeneric(_ value: any Encodable, to container: inout any UnkeyedEncodingContainer) throws {
    func append<T: Encodable>(_ value: T) throws { try container.encode(value) }
    try append(value)
  }
}

/// Seeded random nodes, and whether the tape can serve them (no nested container, super encoder
/// or repeated key anywhere).
private struct NodeGenerator {
  var random: SplitMix64
  var servedByTape = true

  /// Keys of a few shapes (so that sibling dictionaries share, switch and leave key templates),
  /// with non-ASCII keys, keys that equal string values, and a pair equal under Swift's `==`
  /// only (precomposed and decomposed é).
  static let shapes: [[String]] = [
    ["id", "name", "serialNumber", "valueInDollars", "a key longer than fifteen bytes", "notes", "z"],
    ["host", "port", "weights", "enabled"],
    ["é", "ключ", "&<key>", "$null", "name"],
  ]
  static let strings = [
    "", "name", "id", "plain text", "a <tag> & more", "été", "e\u{301}t\u{E9}", "日本語", "😀 emoji", "$null",
    "a string longer than fifteen bytes", "host",
  ]

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

  mutating func scalar() -> Node {
    switch below(13) {
    case 0: return .string(Self.strings[below(Self.strings.count)])
    case 1: return .int(Int(truncatingIfNeeded: random.next()) >> below(64))
    case 2: return .int8(Int8(truncatingIfNeeded: random.next()))
    case 3: return .int64(-Int64(below(300)))
    case 4: return .uint64(below(2) == 0 ? UInt64.max - UInt64(below(5)) : UInt64(below(70000)))
    case 5: return .uint16(UInt16(truncatingIfNeeded: random.next()))
    case 6: return .double([0.0, -0.0, 1.5, .pi, 1e300, -2.5e-8, .infinity, Double(below(100))][below(8)])
    case 7: return .float([0, 1.5, -3.25, .greatestFiniteMagnitude][below(4)])
    case 8: return .bool(below(2) == 0)
    case 9: return .date(Date(timeIntervalSinceReferenceDate: Double(below(2_000_000_000)) - 1e9 + [0, 0.5, 0.999][below(3)]))
    case 10: return .data(Data((0..<below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
    case 11: return .null
    default: return .int(below(5))
    }
  }

  mutating func keys() -> [String] {
    var keys = Self.shapes[below(Self.shapes.count)]
    switch below(6) {
    case 0: keys = Array(keys.prefix(below(keys.count + 1)))
    case 1: keys.remove(at: below(keys.count))
    case 2: keys.shuffle(using: &random)
    case 3:
      // A repeated key, or the decomposed é beside the precomposed one: equal under `==`.
      keys.append(below(2) == 0 ? keys[below(keys.count)] : "e\u{301}")
      if Set(keys).count != keys.count { servedByTape = false }
    case 4: keys = (0..<below(4)).map { "own\($0)-\(below(3))" }
    default: break
    }
    return keys
  }

  mutating func node(depth: Int) -> Node {
    if depth >= 4 { return scalar() }
    switch below(16) {
    case 0, 1, 2: return .keyed(keys().map { ($0, node(depth: depth + 1)) }, generic: below(2) == 0)
    case 3, 4: return .unkeyed((0..<below(6)).map { _ in node(depth: depth + 1) }, generic: below(2) == 0)
    case 5: return .array((0..<below(6)).map { _ in node(depth: depth + 1) })
    case 6:
      var entries: [String: Node] = [:]
      for _ in 0..<below(6) { entries[Self.strings[below(Self.strings.count)]] = node(depth: depth + 1) }
      return .map(entries)
    case 7: return .integers((0..<below(5)).map { _ in below(1000) - 10 })
    case 8: return .strings((0..<below(5)).map { _ in Self.strings[below(Self.strings.count)] })
    case 9: return .optional(below(2) == 0 ? nil : node(depth: depth + 1))
    case 10: return .nothing
    case 11 where below(4) == 0:
      servedByTape = false
      return .nested(keys().map { ($0, scalar()) })
    case 12 where below(4) == 0:
      servedByTape = false
      return .superEncoded(scalar())
    default: return scalar()
    }
  }

  /// A document root: a keyed or unkeyed container.
  mutating func root() -> Node {
    below(2) == 0
      ? .keyed(keys().map { ($0, node(depth: 1)) }, generic: below(2) == 0)
      : .array((0..<below(8)).map { _ in node(depth: 1) })
  }
}

/// An array of records of a few shapes at one level (an item store's items).
private func records(_ generator: inout NodeGenerator, count: Int) -> Node {
  .array((0..<count).map { _ in .keyed(generator.keys().map { ($0, generator.scalar()) }, generic: false) })
}

@Suite("Codable encoder straight to bytes")
struct CodableTapeEncoderTests {
  private func check(_ value: Node, servedByTape: Bool, seed: UInt64) throws {
    for format in [PropertyLists.PropertyListFormat.binary, .xml] {
      let encoder = PropertyLists.PropertyListEncoder()
      encoder.outputFormat = format
      let tape = PlistTapeEncoder.encode(value, format: format, userInfo: [:])
      #expect((tape != nil) == servedByTape, "seed \(seed), \(format): served by the tape")
      let tree = Result { try encoder.encodeToValue(value).encoded(as: format) }
      switch tree {
      case .success(let expected):
        if let tape { #expect(tape == expected, "seed \(seed), \(format): the tape's bytes") }
        #expect(try encoder.encode(value) == expected, "seed \(seed), \(format): the encoder's bytes")
      case .failure:
        #expect(tape == nil, "seed \(seed), \(format): a value the writer refuses")
        #expect(throws: EncodingError.self) { try encoder.encode(value) }
      }
    }
  }

  @Test(arguments: 0..<200 as Range<UInt64>)
  func randomValuesGiveTheTreeBytes(seed: UInt64) throws {
    var generator = NodeGenerator(seed: seed)
    let value = generator.root()
    try check(value, servedByTape: generator.servedByTape, seed: seed)
  }

  @Test(arguments: 0..<20 as Range<UInt64>)
  func recordsOfFewShapesGiveTheTreeBytes(seed: UInt64) throws {
    var generator = NodeGenerator(seed: seed)
    let value = records(&generator, count: 40)
    try check(value, servedByTape: generator.servedByTape, seed: seed)
  }

  @Test func theBenchmarkStoreGoesStraightToBytes() throws {
    let store = ItemStore.generate(seed: 7, itemCount: 60)
    for format in [PropertyLists.PropertyListFormat.binary, .xml] {
      let tape = try #require(PlistTapeEncoder.encode(store, format: format, userInfo: [:]))
      #expect(tape == (try PropertyLists.PropertyListEncoder().encodeToValue(store).encoded(as: format)))
    }
  }

  /// One encoder used for document after document (its tape and flattener arrays reused, see
  /// `PlistTapeScratch`) writes each as a fresh encoder does: larger and smaller documents, ones
  /// the tape gives up on and ones the writer refuses in between.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func anEncoderUsedAgainWritesWhatAFreshOneWrites(seed: UInt64) throws {
    var generator = NodeGenerator(seed: seed)
    for format in [PropertyLists.PropertyListFormat.binary, .xml] {
      let reused = PropertyLists.PropertyListEncoder()
      reused.outputFormat = format
      for round in 0..<12 {
        let value = round % 3 == 0 ? records(&generator, count: 5 + generator.below(80)) : generator.root()
        let fresh = PropertyLists.PropertyListEncoder()
        fresh.outputFormat = format
        let expected = Result { try fresh.encode(value) }
        switch expected {
        case .success(let bytes): #expect(try reused.encode(value) == bytes, "seed \(seed), round \(round), \(format)")
        case .failure: #expect(throws: EncodingError.self) { try reused.encode(value) }
        }
      }
    }
  }

  @Test func topLevelFragmentsAndNothingTakeTheTreesErrors() {
    for format in [PropertyLists.PropertyListFormat.binary, .xml] {
      #expect(PlistTapeEncoder.encode(3, format: format, userInfo: [:]) == nil)
      #expect(PlistTapeEncoder.encode(Node.nothing, format: format, userInfo: [:]) == nil)
      #expect(PlistTapeEncoder.encode(Date(timeIntervalSinceReferenceDate: 0), format: format, userInfo: [:]) == nil)
      #expect(PlistTapeEncoder.encode(Data([1, 2]), format: format, userInfo: [:]) != nil)
    }
    let far = Node.keyed([("date", .date(Date(timeIntervalSinceReferenceDate: 1e300)))], generic: false)
    #expect(PlistTapeEncoder.encode(far, format: .xml, userInfo: [:]) == nil)
    #expect(PlistTapeEncoder.encode(far, format: .binary, userInfo: [:]) != nil)
  }
}
