import Foundation
import Testing

import KeyedArchive
import PropertyLists

/// GRAPH.md's keyed-archive benchmark graph at N = 100,000 (karchive-100k), with its cycles:
/// archived and decoded securely, every reference must come back to the object it pointed at.
@Suite("100k-object graphs")
struct LargeGraphTests {
  /// bench/gen_data.py's `graph_checksums(100_000)`, the figures of graph-manifest.tsv.
  static let expectedValueSum = 4_499_752_528
  static let expectedChildrenWithParent = 200

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func itemStoreOf100kRoundTripsWithIdentity(format: PropertyListFormat) throws {
    let count = 100_000
    let store = Store.make(count: count)
    let data = try KeyedArchiver.archivedData(withRootObject: store, registry: testRegistry, format: format)
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Store.self, from: data, registry: testRegistry))

    #expect(decoded.name == "Store")
    #expect(decoded.items.count == count && decoded.categories.count == 50)
    #expect(decoded.items.reduce(0) { $0 + $1.valueInDollars } == Self.expectedValueSum)

    // Where the original had one object, the copy has one object, and only there.
    let originalItem = Dictionary(uniqueKeysWithValues: store.items.enumerated().map { (ObjectIdentifier($1), $0) })
    let originalCategory = Dictionary(uniqueKeysWithValues: store.categories.enumerated().map { (ObjectIdentifier($1), $0) })
    #expect(Set(decoded.items.map(ObjectIdentifier.init)).count == count, "every item decoded once, as its own object")
    #expect(Set(decoded.categories.map(ObjectIdentifier.init)).count == 50)
    var mismatches = 0
    var childrenWithParent = 0
    for (index, (original, copy)) in zip(store.items, decoded.items).enumerated() {
      var same = original.name == copy.name && original.serialNumber == copy.serialNumber
        && original.valueInDollars == copy.valueInDollars && original.dateCreated == copy.dateCreated
      if let category = original.category {
        same = same && copy.category === decoded.categories[originalCategory[ObjectIdentifier(category)]!]
      } else {
        same = same && copy.category == nil
      }
      if let parent = original.parent {
        same = same && copy.parent === decoded.items[originalItem[ObjectIdentifier(parent)]!]
      } else {
        same = same && copy.parent == nil
      }
      if let children = original.children {
        let copies = copy.children ?? []
        same = same && copies.count == children.count
          && zip(children, copies).allSatisfy { $1 === decoded.items[originalItem[ObjectIdentifier($0)]!] }
        // The cycle: each child's parent is the very object that lists it.
        for child in copies where child.parent === copy { childrenWithParent += 1 }
      } else {
        same = same && copy.children == nil
      }
      if !same {
        mismatches += 1
        if mismatches <= 5 { Issue.record("item \(index) differs after the round trip (\(format))") }
      }
    }
    #expect(mismatches == 0)
    #expect(childrenWithParent == Self.expectedChildrenWithParent)
    #expect(decoded.items[7].name == "商品 7 🎁")
  }
}
