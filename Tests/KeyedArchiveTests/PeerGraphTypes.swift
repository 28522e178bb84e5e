import Foundation
import KeyedArchive

// The item-store graph of GRAPH.md (Tests/Fixtures/bench and Benchmarks/KeyedArchive) as Stasis
// classes, for the interoperability tests with GNUstep's NSKeyedArchiver (GNUstepInteropTests):
// archived class names Store, Category, Item and the keys archive-bench uses.

final class PeerGraphCategory: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  var code = 0
  init() {}
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    coder.encode(code, forKey: "code")
  }
  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    code = try coder.decodeInteger(forKey: "code")
  }
}

final class PeerGraphItem: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = "", serialNumber = ""
  var valueInDollars: Int64 = 0
  var dateCreated = Date(timeIntervalSinceReferenceDate: 0)
  var category: PeerGraphCategory?
  weak var parent: PeerGraphItem?
  var children: [PeerGraphItem]?
  init() {}
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    try coder.encode(serialNumber, forKey: "serialNumber")
    coder.encode(valueInDollars, forKey: "valueInDollars")
    try coder.encode(dateCreated, forKey: "dateCreated")
    try coder.encode(category, forKey: "category")
    if let parent { try coder.encode(parent, forKey: "parent") }
    if let children { try coder.encode(children, forKey: "children") }
  }
  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    serialNumber = try coder.decodeRequired(String.self, forKey: "serialNumber")
    valueInDollars = try coder.decodeInteger(Int64.self, forKey: "valueInDollars")
    dateCreated = try coder.decodeRequired(Date.self, forKey: "dateCreated")
    category = try coder.decode(PeerGraphCategory.self, forKey: "category")
    parent = try coder.decode(PeerGraphItem.self, forKey: "parent")
    children = try coder.decode([PeerGraphItem].self, forKey: "children")
  }
}

final class PeerGraphStore: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  var categories: [PeerGraphCategory] = []
  var items: [PeerGraphItem] = []
  init() {}
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    try coder.encode(categories, forKey: "categories")
    try coder.encode(items, forKey: "items")
  }
  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    categories = try coder.decodeRequired([PeerGraphCategory].self, forKey: "categories")
    items = try coder.decodeRequired([PeerGraphItem].self, forKey: "items")
  }

  /// GRAPH.md's formulas, `h = (i * 2654435761) mod 2^32`.
  static func make(count: Int) -> PeerGraphStore {
    let store = PeerGraphStore()
    store.name = "Store"
    store.categories = (0..<50).map { c in
      let category = PeerGraphCategory()
      category.name = c < 10 ? "Category-0\(c)" : "Category-\(c)"
      category.code = 1000 + c
      return category
    }
    for i in 0..<count {
      let h = UInt64(i) &* 2_654_435_761 % (1 << 32)
      let item = PeerGraphItem()
      item.name = i % 10 == 7 ? "商品 \(i) 🎁" : "Item \(i)"
      let hex = String(h, radix: 16, uppercase: true)
      item.serialNumber = String(repeating: "0", count: max(0, 8 - hex.count)) + hex
      item.valueInDollars = Int64(h % 100_000) - 5000
      item.dateCreated = Date(timeIntervalSinceReferenceDate: Double(700_000_000 + 37 * i))
      item.category = store.categories[Int(h % 50)]
      store.items.append(item)
    }
    for i in stride(from: 0, to: count, by: 1000) where i + 2 < count {
      store.items[i].children = [store.items[i + 1], store.items[i + 2]]
      store.items[i + 1].parent = store.items[i]
      store.items[i + 2].parent = store.items[i]
    }
    return store
  }

  /// The registry under the given archived names for Store, Category and Item.
  static func registry(store: String = "Store", category: String = "Category", item: String = "Item") -> ArchiveClassRegistry {
    var registry = ArchiveClassRegistry.foundation
    registry.register(PeerGraphStore.self, as: store, supportsSecureCoding: true)
    registry.register(PeerGraphCategory.self, as: category, supportsSecureCoding: true)
    registry.register(PeerGraphItem.self, as: item, supportsSecureCoding: true)
    return registry
  }

  /// The canonical dump the GNUstep peer prints (Benchmarks/GNUstepPeer/graph.m, `dumpGraph`):
  /// objects by index, shared references and cycles by the index of the object referred to.
  var dump: String {
    var categoryIndex: [ObjectIdentifier: Int] = [:], itemIndex: [ObjectIdentifier: Int] = [:]
    for (index, category) in categories.enumerated() { categoryIndex[ObjectIdentifier(category)] = index }
    for (index, item) in items.enumerated() { itemIndex[ObjectIdentifier(item)] = index }
    var lines = ["store \(name) \(categories.count) \(items.count)"]
    for (index, category) in categories.enumerated() { lines.append("category \(index) \(category.name) \(category.code)") }
    for (index, item) in items.enumerated() {
      let category = item.category.flatMap { categoryIndex[ObjectIdentifier($0)] } ?? -1
      let parent = item.parent.flatMap { itemIndex[ObjectIdentifier($0)] }.map(String.init) ?? "-"
      let children = item.children.map { $0.map { String(itemIndex[ObjectIdentifier($0)] ?? -1) }.joined(separator: ",") } ?? "-"
      let seconds = String(format: "%.0f", item.dateCreated.timeIntervalSinceReferenceDate)
      lines.append("item \(index) \(item.name) \(item.serialNumber) \(item.valueInDollars) \(seconds) \(category) \(parent) \(children)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
