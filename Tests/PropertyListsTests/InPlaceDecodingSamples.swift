import Foundation
import TestSupport

@testable import PropertyLists

// Documents for the tests that decode in place and through the tree and compare
// (CodableInPlaceDecodingTests, CodableXMLInPlaceDecodingTests): seeded mutations of an item
// store and seeded damage to a document's bytes.

/// Eight item stores of `seed`, each with one value (in depth-first order) replaced by a random
/// one: `$null`, a number out of every integer type's range, a real, a random value of `kinds`,
/// or (with `uids`) a UID.
func mutatedItemStores(seed: UInt64, kinds: RandomPropertyList.Kinds, uids: Bool) throws -> [PropertyListValue] {
  var rng = SplitMix64(seed: seed)
  var random = RandomPropertyList(seed: seed, kinds: kinds, maximumDepth: 2, maximumWidth: 3)
  let tree = try PropertyLists.PropertyListEncoder().encodeToValue(ItemStore.generate(seed: seed, itemCount: 3))
  let count = nodeCount(tree)
  return (0..<8).map { _ in
    let replacement: PropertyListValue =
      switch Int.random(in: 0..<(uids ? 6 : 5), using: &rng) {
      case 0: .string("$null")
      case 1: .integer(PropertyListInteger(UInt64.max))
      case 2: .real(1.5, width: .double)
      case 3: random.value()
      case 5: .uid(UInt64.random(in: 0...100, using: &rng))
      default: random.scalar()
      }
    return replacing(tree, at: Int.random(in: 0..<count, using: &rng), with: replacement)
  }
}

/// `rounds` damaged copies of `original`: every fourth cut short, the others with one to three
/// bytes at or after `protected` changed to bytes of `alphabet` (any byte when `nil`) or, with
/// an alphabet, every fourth one such byte inserted.
func damagedCopies(of original: [UInt8], seed: UInt64, rounds: Int, protected: Int, alphabet: [UInt8]? = nil) -> [Data] {
  var rng = SplitMix64(seed: seed)
  func pick() -> UInt8 { alphabet?.randomElement(using: &rng) ?? UInt8.random(in: 0...255, using: &rng) }
  return (0..<rounds).map { round in
    var bytes = original
    switch round % 4 {
    case 3:
      bytes.removeLast(Int.random(in: 1..<bytes.count, using: &rng))
    case 2 where alphabet != nil:
      bytes.insert(pick(), at: Int.random(in: protected..<bytes.count, using: &rng))
    default:
      for _ in 0...Int.random(in: 0..<3, using: &rng) {
        bytes[Int.random(in: protected..<bytes.count, using: &rng)] = pick()
      }
    }
    return Data(bytes)
  }
}

/// The item store of `seed` with `itemCount` items, as `PropertyListEncoder` writes it in `format`.
func encodedItemStore(seed: UInt64, itemCount: Int, format: PropertyListFormat) throws -> [UInt8] {
  let encoder = PropertyLists.PropertyListEncoder()
  encoder.outputFormat = format
  return [UInt8](try encoder.encode(ItemStore.generate(seed: seed, itemCount: itemCount)))
}
