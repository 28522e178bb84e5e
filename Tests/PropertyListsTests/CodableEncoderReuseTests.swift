import Foundation
import Testing
import TestSupport

@testable import PropertyLists

// What the Codable encoder keeps and hands out again, checked against a fresh encoder, the tree
// path (`encodeToValue(_:)` then `encoded(as:)`) and Foundation's own `PropertyListEncoder`:
//
// - keyed containers handed out again for the next struct of the same key type once nothing
//   holds them (`PlistTapeKeyedContainerCache`): nested structs of one key type, and containers a
//   value keeps after its `encode(to:)` returned and writes to later;
// - collections of scalars recognized by their exact type (`encodeScalarCollection`);
// - the key shapes and the XML key orders kept from one document to the next
//   (`PlistTapeScratch`): a small document after a large one, and documents of other types in
//   between, give the bytes a fresh encoder gives.

/// A tree whose every level uses the same key type: containers of that type nest, so the one
/// handed out further in must not be the one still being written further out.
private struct Branch: Codable, Equatable {
  var name: String
  var weight: Int
  var children: [Branch]
  var first: Leaf?

  static func make(_ random: inout SplitMix64, depth: Int) -> Branch {
    let count = depth >= 3 ? 0 : Int(random.next() % 4)
    var children: [Branch] = []
    for _ in 0..<count { children.append(make(&random, depth: depth + 1)) }
    return Branch(
      name: "branch \(random.next() % 1000)", weight: Int(truncatingIfNeeded: random.next()) >> 20,
      children: children,
      first: random.next() % 2 == 0 ? Leaf(label: "leaf", value: Double(random.next() % 100) / 4) : nil)
  }
}

private struct Leaf: Codable, Equatable {
  var label: String
  var value: Double
}

/// The keys of the leaves below that keep their container.
private enum LeakKeys: CodingKey { case label, late }

/// Keeps the keyed container a leaf's `encode(to:)` was given, for a later leaf to write through.
private final class KeptContainer: @unchecked Sendable {
  var container: KeyedEncodingContainer<LeakKeys>?
}

/// A leaf that keeps its container (`writeLate` false), or one that writes through the kept
/// container while its own, of the same key type, is open (`writeLate` true): had the encoder
/// handed the kept container out again for the second leaf, that write would land in the
/// second leaf's dictionary.
private struct LeakyLeaf: Encodable {
  let kept: KeptContainer
  let writeLate: Bool

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: LeakKeys.self)
    if writeLate {
      try container.encode("second", forKey: .label)
      try kept.container?.encode("written late", forKey: .late)
    } else {
      try container.encode("first", forKey: .label)
      kept.container = container
    }
  }
}

private struct LeakyPair: Encodable {
  let kept = KeptContainer()

  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(LeakyLeaf(kept: kept, writeLate: false))
    try container.encode(LeakyLeaf(kept: kept, writeLate: true))
  }
}

/// Every collection of scalars the encoder recognizes by its type, and two it does not.
private struct Scalars: Codable, Equatable {
  var strings: [String]
  var integers: [Int]
  var reals: [Double]
  var flags: [Bool]
  var texts: [String: String]
  var counts: [String: Int]
  var ratios: [String: Double]
  var switches: [String: Bool]
  var floats: [Float]
  var nested: [String: [Int]]

  static let keys = ["a", "B", "zeta", "été", "日本", "😀", "\u{FF5E}", "a key longer than fifteen bytes", "", "$null"]

  static func random(_ random: inout SplitMix64) -> Scalars {
    func count() -> Int { Int(random.next() % 6) }
    func key() -> String { keys[Int(random.next() % UInt64(keys.count))] }
    func map<V>(_ value: () -> V) -> [String: V] {
      var map: [String: V] = [:]
      for _ in 0..<count() { map[key()] = value() }
      return map
    }
    return Scalars(
      strings: (0..<count()).map { _ in key() }, integers: (0..<count()).map { _ in Int(truncatingIfNeeded: random.next()) },
      reals: (0..<count()).map { _ in Double(Int64(truncatingIfNeeded: random.next())) / 1e6 },
      flags: (0..<count()).map { _ in random.next() % 2 == 0 }, texts: map { key() },
      counts: map { Int(truncatingIfNeeded: random.next()) >> 8 }, ratios: map { Double(random.next() % 1000) / 8 },
      switches: map { random.next() % 2 == 0 }, floats: (0..<count()).map { _ in Float(random.next() % 100) / 4 },
      nested: map { (0..<count()).map { _ in Int(random.next() % 50) } })
  }
}

@Suite("Codable encoder: what it keeps and hands out again")
struct CodableEncoderReuseTests {
  private static let formats: [PropertyLists.PropertyListFormat] = [.binary, .xml]

  /// The encoder's bytes for `value` equal the tree path's, and the tree equals Foundation's.
  private func expectAgreement<T: Encodable>(_ value: T, _ note: String) throws {
    let tree = try StasisEncoder().encodeToValue(value)
    for format in Self.formats {
      let encoder = StasisEncoder()
      encoder.outputFormat = format
      #expect(try encoder.encode(value) == tree.encoded(as: format), "\(note), \(format)")
      let foundation = try FoundationPlistBridge.read(CodableFoundations.encode(value, xml: format == .xml))
      #expect(tree == foundation, "\(note), \(format): Foundation's tree")
    }
  }

  @Test(arguments: 0..<30 as Range<UInt64>)
  func nestedContainersOfOneKeyTypeKeepTheirOwnDictionaries(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let tree = Branch.make(&random, depth: 0)
    try expectAgreement(tree, "seed \(seed)")
    try expectAgreement([tree, Branch.make(&random, depth: 1)], "seed \(seed), two trees")
  }

  @Test func aContainerKeptAfterItsValueIsNotHandedOutAgain() throws {
    // The tape gives the value up (the late write comes through a container that is not the
    // innermost one), and the bytes are the tree path's. Had the second leaf been handed the
    // kept container, the late key would have landed in the second leaf's dictionary and the
    // tape would not have given up. (Foundation writes the late key into the first leaf's
    // dictionary; the tree path drops it: a difference of the tree encoder's, older than the
    // tape, noted in Docs/performance-notes.md.)
    for format in Self.formats {
      #expect(PlistTapeEncoder.encode(LeakyPair(), format: format, userInfo: [:]) == nil)
      let encoder = StasisEncoder()
      encoder.outputFormat = format
      #expect(try encoder.encode(LeakyPair()) == StasisEncoder().encodeToValue(LeakyPair()).encoded(as: format))
    }
    let leaves = try #require(try StasisEncoder().encodeToValue(LeakyPair()).arrayValue)
    #expect(leaves.count == 2)
    #expect(leaves.last?["late"] == nil && leaves.last?["label"] == .string("second"))
  }

  @Test(arguments: 0..<40 as Range<UInt64>)
  func collectionsOfScalarsGiveTheTreeBytes(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let value = Scalars.random(&random)
    for format in Self.formats {
      #expect(PlistTapeEncoder.encode(value, format: format, userInfo: [:]) != nil, "seed \(seed), \(format): served by the tape")
    }
    try expectAgreement(value, "seed \(seed)")
    // The same collections at the top level and inside an array.
    try expectAgreement(value.texts, "seed \(seed), top-level [String: String]")
    try expectAgreement([value.integers, value.integers], "seed \(seed), [[Int]]")
  }

  /// One encoder, documents of several sizes and types in a seeded order: each gives the bytes
  /// of a fresh encoder, whatever came before it (a small store right after a large one, a
  /// store after values of other types, the other way round).
  @Test(arguments: 0..<3 as Range<UInt64>)
  func aDocumentGivesAFreshEncodersBytesWhateverCameBefore(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for format in Self.formats {
      let reused = StasisEncoder()
      reused.outputFormat = format
      for round in 0..<10 {
        let bytes: Data
        let expected: Data
        let fresh = StasisEncoder()
        fresh.outputFormat = format
        switch random.next() % 4 {
        case 0:
          let store = ItemStore.generate(seed: random.next() % 100, itemCount: round % 2 == 0 ? 400 : 3)
          (bytes, expected) = (try reused.encode(store), try fresh.encode(store))
        case 1:
          let tree = Branch.make(&random, depth: 0)
          (bytes, expected) = (try reused.encode(tree), try fresh.encode(tree))
        case 2:
          let value = Scalars.random(&random)
          (bytes, expected) = (try reused.encode(value), try fresh.encode(value))
        default:
          let value = ["only": Leaf(label: "one", value: 2)]
          (bytes, expected) = (try reused.encode(value), try fresh.encode(value))
        }
        #expect(bytes == expected, "seed \(seed), round \(round), \(format)")
      }
    }
  }
}
