import Foundation
import Testing
import TestSupport

@testable import PropertyLists

// The Codable encoder shares one keys array between sibling dictionaries that write the same keys
// in the same order (its key templates), and the writers remember the key order and key object
// numbers of a shared keys array. These tests mix shapes so that every path is taken: keys that
// follow a template, switch to another template, stop early, diverge, repeat, come from nested
// containers, and are built at run time (equal strings in different storage). The order of each
// dictionary's keys is checked against the order the values wrote them in (the tree's `==`
// ignores order), and the bytes against a tree built by hand with the same keys and values.

private struct ShapeKey: CodingKey {
  let stringValue: String
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
  var intValue: Int? { nil }
}

/// Writes `entries` in order through one keyed container; a key may repeat (the first place
/// keeps the last value, as Foundation's ordered storage does).
private struct ShapedRecord: Encodable {
  var entries: [(key: String, value: Int)]
  /// Where to open a nested keyed container (written into after the later siblings).
  var nestedAt: Int?

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ShapeKey.self)
    var nested: KeyedEncodingContainer<ShapeKey>?
    for (position, entry) in entries.enumerated() {
      if position == nestedAt {
        nested = container.nestedContainer(keyedBy: ShapeKey.self, forKey: ShapeKey(stringValue: "nested"))
      }
      // Copies in fresh storage, so that equal keys do not always share their bits.
      let key = String(decoding: Array(entry.key.utf8), as: UTF8.self)
      try container.encode(entry.value, forKey: ShapeKey(stringValue: key))
    }
    try nested?.encode(1, forKey: ShapeKey(stringValue: "inner"))
  }

  /// The dictionary it must encode to: keys in first-written order, each with its last value.
  var expected: PropertyListValue {
    var keys: [String] = []
    var values: [PropertyListValue] = []
    for (position, entry) in entries.enumerated() {
      if position == nestedAt {
        keys.append("nested")
        values.append(.dictionary(PropertyListDictionary(keys: ["inner"], values: [.integer(1)])))
      }
      if let existing = keys.firstIndex(of: entry.key) {
        values[existing] = .integer(PropertyListInteger(Int64(entry.value)))
      } else {
        keys.append(entry.key)
        values.append(.integer(PropertyListInteger(Int64(entry.value))))
      }
    }
    return .dictionary(PropertyListDictionary(keys: keys, values: values))
  }
}

/// The synthesized conformance with optional fields: a few shapes of one type.
private struct OptionalFields: Codable, Equatable {
  var first: Int
  var second: String?
  var aKeyLongerThanFifteenBytes: Double?
  var last: [Int]
}

private func keyOrders(_ value: PropertyListValue) -> [[String]] {
  switch value {
  case .array(let elements): return elements.flatMap(keyOrders)
  case .dictionary(let dictionary): return [dictionary.keys] + dictionary.values.flatMap(keyOrders)
  default: return []
  }
}

@Suite("Codable encoder key templates")
struct CodableKeyShapeTests {
  /// Seeded records of mixed shapes, all at one level so that they meet each other's templates.
  private func records(seed: UInt64) -> [ShapedRecord] {
    var generator = SplitMix64(seed: seed)
    let names = ["id", "name", "serialNumber", "a-key-of-more-than-fifteen-bytes", "zeta", "alpha", "é", "z"]
    var records: [ShapedRecord] = []
    for _ in 0..<60 {
      let shape = Int(generator.next() % 6)
      var entries: [(String, Int)] = []
      switch shape {
      case 0, 1:  // the common shape, or the common shape cut short
        let count = shape == 0 ? names.count : Int(generator.next() % UInt64(names.count))
        entries = names.prefix(count).map { ($0, Int(generator.next() % 1000)) }
      case 2:  // the common shape without one key
        let skipped = Int(generator.next() % UInt64(names.count))
        entries = names.enumerated().filter { $0.offset != skipped }.map { ($0.element, Int(generator.next() % 1000)) }
      case 3:  // a repeated key
        entries = names.prefix(4).map { ($0, Int(generator.next() % 1000)) }
        entries.append((names[Int(generator.next() % 4)], -1))
      case 4:  // shuffled
        entries = names.map { ($0, Int(generator.next() % 1000)) }
        for index in stride(from: entries.count - 1, to: 0, by: -1) {
          entries.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
      default:  // keys of its own
        entries = (0..<Int(generator.next() % 5)).map { ("own\($0)-\(generator.next() % 3)", $0) }
      }
      let nestedAt = generator.next() % 5 == 0 && !entries.isEmpty ? Int(generator.next() % UInt64(entries.count)) : nil
      records.append(ShapedRecord(entries: entries, nestedAt: nestedAt))
    }
    return records
  }

  @Test(arguments: 0..<16 as Range<UInt64>)
  func mixedShapesKeepTheirKeysAndOrder(seed: UInt64) throws {
    let records = records(seed: seed)
    let encoded = try PropertyLists.PropertyListEncoder().encodeToValue(records)
    let expected = PropertyListValue.array(records.map(\.expected))
    #expect(encoded == expected, "seed \(seed)")
    #expect(keyOrders(encoded) == keyOrders(expected), "seed \(seed)")
  }

  @Test(arguments: 0..<16 as Range<UInt64>)
  func mixedShapesWriteTheBytesOfTheSameTree(seed: UInt64) throws {
    let records = records(seed: seed)
    let expected = PropertyListValue.array(records.map(\.expected))
    for format in [PropertyLists.PropertyListFormat.binary, .xml] {
      let encoder = PropertyLists.PropertyListEncoder()
      encoder.outputFormat = format
      #expect(try encoder.encode(records) == expected.encoded(as: format), "seed \(seed), \(format)")
    }
  }

  @Test func optionalFieldsAlternateBetweenShapes() throws {
    var generator = SplitMix64(seed: 42)
    let values = (0..<50).map { index in
      OptionalFields(
        first: index, second: generator.next() % 2 == 0 ? "s\(index)" : nil,
        aKeyLongerThanFifteenBytes: generator.next() % 3 == 0 ? Double(index) / 4 : nil,
        last: Array(0..<Int(generator.next() % 3)))
    }
    let encoded = try PropertyLists.PropertyListEncoder().encodeToValue(values)
    guard case .array(let elements) = encoded else {
      Issue.record("not an array")
      return
    }
    for (value, element) in zip(values, elements) {
      var keys = ["first"]
      if value.second != nil { keys.append("second") }
      if value.aKeyLongerThanFifteenBytes != nil { keys.append("aKeyLongerThanFifteenBytes") }
      keys.append("last")
      #expect(element.dictionaryValue?.keys == keys)
    }
    for format in [PropertyLists.PropertyListFormat.binary, .xml] {
      let encoder = PropertyLists.PropertyListEncoder()
      encoder.outputFormat = format
      let bytes = try encoder.encode(values)
      #expect(bytes == (try encoded.encoded(as: format)))
      #expect(try PropertyLists.PropertyListDecoder().decode([OptionalFields].self, from: bytes) == values)
    }
  }
}
