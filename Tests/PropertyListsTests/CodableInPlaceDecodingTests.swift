import Foundation
import Testing
import TestSupport

@_spi(Testing) @testable import PropertyLists

// The Codable decoder reads binary documents in place (`PlistBinaryObjects`) and every other
// document from a value tree. Both paths must give the same value, or the same error — kind,
// coding path, description and, for an unreadable document, the reader's error — for any
// document and any type. These tests decode each document both ways and compare.

/// The outcome of one decoding, as the two paths must agree on it.
func outcome<T: Decodable & Equatable>(_ body: () throws -> T) -> Result<T, OutcomeError> {
  do {
    return .success(try body())
  } catch let error as DecodingError {
    var summary = decodingErrorSummary(error)
    if case .dataCorrupted(let context) = error, let underlying = context.underlyingError {
      summary += " / \(underlying)"
    }
    return .failure(OutcomeError(summary: summary))
  } catch {
    return .failure(OutcomeError(summary: "\(error)"))
  }
}

struct OutcomeError: Error, Equatable {
  let summary: String
}

/// Decodes `data` in place and through the tree, expecting the same outcome; returns it.
@discardableResult
func expectSameBothWays<T: Codable & Equatable>(
  _ type: T.Type, _ data: Data, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
) -> Result<T, OutcomeError> {
  let inPlace = outcome { try PropertyLists.PropertyListDecoder().decode(type, from: data) }
  let tree = outcome { try PropertyLists.PropertyListDecoder().decodeThroughTree(type, from: data) }
  if inPlace != tree {
    // Values with a NaN are never equal to themselves: compare what they encode to instead.
    let encoder = PropertyLists.PropertyListEncoder()
    encoder.outputFormat = .binary
    let same =
      switch (inPlace, tree) {
      case (.success(let a), .success(let b)): (try? encoder.encode(a)) == (try? encoder.encode(b))
      default: false
      }
    #expect(same, "\(comment): in place \(inPlace), tree \(tree)", sourceLocation: sourceLocation)
  }
  return inPlace
}

/// A `bplist00` document made by hand, object by object (1-byte references, 2-byte offsets),
/// for shapes no writer makes: repeated keys, shared containers.
private func handMade(_ objects: [[UInt8]], top: Int = 0) -> Data {
  handMadeBinaryPlist(objects, top: top, offsetSize: 2, referenceSize: 1)
}

private func ascii(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }

/// Reads every key it is given, in the order given, as optional integers.
struct KeyProbe: Decodable, Equatable {
  static let userInfoKey = CodingUserInfoKey(rawValue: "probe.keys")!
  var found: [Int?]
  var allKeys: [String]

  struct AnyKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    let keys = decoder.userInfo[Self.userInfoKey] as? [String] ?? []
    found = try keys.map { try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: $0)) }
    allKeys = container.allKeys.map(\.stringValue)
  }
}

func probe(_ data: Data, keys: [String]) throws -> (inPlace: KeyProbe, tree: KeyProbe) {
  let decoder = PropertyLists.PropertyListDecoder()
  decoder.userInfo[KeyProbe.userInfoKey] = keys
  return (try decoder.decode(KeyProbe.self, from: data), try decoder.decodeThroughTree(KeyProbe.self, from: data))
}

/// Replaces the `target`-th value of a tree (in depth-first order) with `replacement`.
func replacing(_ value: PropertyListValue, at target: Int, with replacement: PropertyListValue) -> PropertyListValue {
  var counter = 0
  func walk(_ value: PropertyListValue) -> PropertyListValue {
    defer { counter += 1 }
    if counter == target { return replacement }
    switch value {
    case .array(let elements):
      counter += 1
      let result = PropertyListValue.array(elements.map(walk))
      counter -= 1
      return result
    case .dictionary(let entries):
      counter += 1
      let result = PropertyListValue.dictionary(
        PropertyListDictionary(keys: entries.storedKeys, values: entries.storedValues.map(walk)))
      counter -= 1
      return result
    default:
      return value
    }
  }
  return walk(value)
}

func nodeCount(_ value: PropertyListValue) -> Int {
  switch value {
  case .array(let elements): 1 + elements.map(nodeCount).reduce(0, +)
  case .dictionary(let entries): 1 + entries.storedValues.map(nodeCount).reduce(0, +)
  default: 1
  }
}

@Suite struct CodableInPlaceDecodingTests {
  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func generatedModelsDecodeAlikeBothWays(seed: UInt64) throws {
    let model = RichModel.random(seed: seed)
    let encoder = PropertyLists.PropertyListEncoder()
    encoder.outputFormat = .binary
    let data = try encoder.encode(model)
    #expect(PlistBinaryObjects(data, options: PropertyListReadingPolicy.foundationDecoder.limits) != nil, "read in place")
    #expect(expectSameBothWays(RichModel.self, data, "seed \(seed)") == .success(model))
    let store = ItemStore.generate(seed: seed, itemCount: Int(seed) * 2)
    #expect(expectSameBothWays(ItemStore.self, try encoder.encode(store), "store, seed \(seed)") == .success(store))
  }

  /// Documents of the right shape with one value swapped for a random one (wrong kinds, nulls,
  /// numbers out of range, missing containers): the errors' kinds, paths and texts agree.
  @Test(arguments: 1...40 as ClosedRange<UInt64>)
  func mutatedDocumentsFailAlikeBothWays(seed: UInt64) throws {
    for (round, mutated) in try mutatedItemStores(seed: seed, kinds: .binary, uids: false).enumerated() {
      let data = try mutated.encoded(as: .binary)
      expectSameBothWays(ItemStore.self, data, "seed \(seed), round \(round)")
      expectSameBothWays(RichModel.self, data, "seed \(seed), round \(round), as RichModel")
    }
  }

  /// Damaged documents: bytes changed or cut. A document the in-place path accepts must be one
  /// the tree reader reads, and both paths must fail alike on the rest.
  @Test(arguments: 1...30 as ClosedRange<UInt64>)
  func damagedDocumentsFailAlikeBothWays(seed: UInt64) throws {
    let original = try encodedItemStore(seed: seed, itemCount: 2, format: .binary)
    for (round, data) in damagedCopies(of: original, seed: seed, rounds: 20, protected: 8).enumerated() {
      let readable = (try? PropertyListValue.read(data, policy: .foundationDecoder)) != nil
      if PlistBinaryObjects(data, options: PropertyListReadingPolicy.foundationDecoder.limits) != nil {
        #expect(readable, "seed \(seed), round \(round): accepted in place but not readable as a tree")
      }
      expectSameBothWays(ItemStore.self, data, "seed \(seed), round \(round)")
    }
  }

  /// A dictionary that repeats a key keeps the key's first value (CF's binary reader), in a
  /// struct, in `[String: V]` and in `allKeys`.
  @Test func repeatedKeysKeepTheirFirstValue() throws {
    // {a: 1, b: 2, a: 3}
    let data = handMade([[0xD3, 1, 2, 1, 3, 4, 5], ascii("a"), ascii("b"), [0x10, 1], [0x10, 2], [0x10, 3]])
    let both = try probe(data, keys: ["b", "a", "a", "c"])
    #expect(both.inPlace == both.tree)
    #expect(both.inPlace.found == [2, 1, 1, nil])
    #expect(both.inPlace.allKeys == ["a", "b"])
    #expect(expectSameBothWays([String: Int].self, data, "as a dictionary") == .success(["a": 1, "b": 2]))
  }

  /// Keys compare as Swift strings do: canonically equivalent spellings match, whatever the
  /// document's encoding of the key (ASCII or UTF-16) and whatever the coding key's.
  @Test func keysCompareAsStrings() throws {
    let document: PropertyListValue = [
      "caf\u{E9}": 1, "K": 2, "\u{1F600}": 3, "plain": 4, "": 5, "\u{212B}": 6,
    ]
    let data = try document.encoded(as: .binary)
    let keys = ["cafe\u{301}", "\u{212A}", "\u{1F600}", "plain", "", "A\u{30A}", "\u{C5}", "missing", "caf"]
    let both = try probe(data, keys: keys)
    #expect(both.inPlace == both.tree)
    #expect(both.inPlace.found == [1, 2, 3, 4, 5, 6, 6, nil, nil])
  }

  /// A dictionary too large for the tree's linear search, read in an order of its own, with
  /// keys it lacks.
  @Test func largeDictionariesAnswerInAnyOrder() throws {
    var entries = PropertyListDictionary()
    for index in 0..<40 { entries["key\(index)"] = .integer(PropertyListInteger(Int64(index * 7))) }
    let data = try PropertyListValue.dictionary(entries).encoded(as: .binary)
    let keys = (0..<45).reversed().map { "key\($0)" } + ["key3", "key3"]
    let both = try probe(data, keys: keys)
    #expect(both.inPlace == both.tree)
    #expect(both.inPlace.found.compactMap { $0 }.count == 42)
  }

  /// A container reached through two references is decoded twice; one nested inside itself,
  /// or shared so often that building it would explode, is the reader's error either way.
  @Test func sharedAndCyclicContainers() throws {
    // [[1, 2], [1, 2]] with the inner array stored once.
    let shared = handMade([[0xA2, 1, 1], [0xA2, 2, 3], [0x10, 1], [0x10, 2]])
    #expect(expectSameBothWays([[Int]].self, shared, "shared") == .success([[1, 2], [1, 2]]))
    // An array that contains itself.
    let cycle = handMade([[0xA1, 0]])
    guard case .failure = expectSameBothWays([[Int]].self, cycle, "cycle") else {
      Issue.record("a cycle decoded")
      return
    }
    // 40 levels, each holding the next twice: 2^40 values if expanded.
    var levels: [[UInt8]] = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
    levels.append([0x10, 7])
    guard case .failure = expectSameBothWays(Deep.self, handMade(levels), "explosion") else {
      Issue.record("an exponential document decoded")
      return
    }
  }

  /// Arrays of dictionaries whose keys come and go and change order from one to the next: the
  /// lookups remembered from one dictionary must never answer wrongly for the next.
  @Test(arguments: 1...10 as ClosedRange<UInt64>)
  func keyLookupsFollowChangingShapes(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
    var expected: [Sparse] = []
    var documents: [PropertyListValue] = []
    for _ in 0..<30 {
      var entries = PropertyListDictionary()
      var values = [Int?](repeating: nil, count: names.count)
      for index in names.indices.shuffled(using: &rng) where Bool.random(using: &rng) {
        let number = Int.random(in: -100...100, using: &rng)
        entries[names[index]] = .integer(PropertyListInteger(Int64(number)))
        values[index] = number
      }
      documents.append(.dictionary(entries))
      expected.append(Sparse(values))
    }
    let data = try PropertyListValue.array(documents).encoded(as: .binary)
    #expect(expectSameBothWays([Sparse].self, data, "seed \(seed)") == .success(expected))
    let xml = try PropertyListValue.array(documents).encoded(as: .xml)
    #expect(try PropertyLists.PropertyListDecoder().decode([Sparse].self, from: xml) == expected)
  }

  /// Sets are read as arrays, integer keys as their decimal text, UTF-16 strings as strings.
  @Test func setsIntegerKeysAndUTF16Strings() throws {
    // {1: ["x", "é"]} with the array stored as a set and the key an integer.
    let data = handMade([[0xD1, 1, 2], [0x10, 1], [0xC2, 3, 4], ascii("x"), [0x61, 0x00, 0xE9]])
    #expect(expectSameBothWays([String: [String]].self, data, "set") == .success(["1": ["x", "\u{E9}"]]))
    #expect(expectSameBothWays([Int: [String]].self, data, "int keys") == .success([1: ["x", "\u{E9}"]]))
  }
}

/// Any depth of nested arrays ending in an integer.
private indirect enum Deep: Codable, Equatable {
  case leaf(Int)
  case list([Deep])

  init(from decoder: any Decoder) throws {
    if let number = try? decoder.singleValueContainer().decode(Int.self) {
      self = .leaf(number)
    } else {
      self = .list(try decoder.singleValueContainer().decode([Deep].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .leaf(let number): try container.encode(number)
    case .list(let elements): try container.encode(elements)
    }
  }
}

/// Ten optional integers, `a` to `j`.
private struct Sparse: Codable, Equatable {
  var a, b, c, d, e, f, g, h, i, j: Int?

  init(_ values: [Int?]) {
    (a, b, c, d, e) = (values[0], values[1], values[2], values[3], values[4])
    (f, g, h, i, j) = (values[5], values[6], values[7], values[8], values[9])
  }
}
