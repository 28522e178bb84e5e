import Foundation
import KeyedArchive
import PropertyLists

// The graph with Stasis's own types: classes decoded in place, so the parent ↔ children cycles
// are archived and decoded as they are (`parent` and `children` keys both present).

final class StasisCategory: ArchiveEncodable, ArchiveDecodableInPlace {
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

final class StasisItem: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  var serialNumber = ""
  var valueInDollars: Int64 = 0
  var dateCreated = Date(timeIntervalSinceReferenceDate: 0)
  var category: StasisCategory?
  weak var parent: StasisItem?
  var children: [StasisItem]?
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
    category = try coder.decode(StasisCategory.self, forKey: "category")
    parent = try coder.decode(StasisItem.self, forKey: "parent")
    children = try coder.decode([StasisItem].self, forKey: "children")
  }
}

final class StasisStore: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  var categories: [StasisCategory] = []
  var items: [StasisItem] = []
  init() {}
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    try coder.encode(categories, forKey: "categories")
    try coder.encode(items, forKey: "items")
  }
  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    categories = try coder.decodeRequired([StasisCategory].self, forKey: "categories")
    items = try coder.decodeRequired([StasisItem].self, forKey: "items")
  }

  static func make(count: Int) -> StasisStore {
    let store = StasisStore()
    store.name = "Store"
    store.categories = (0..<50).map { c in
      let category = StasisCategory()
      category.name = categoryName(c)
      category.code = 1000 + c
      return category
    }
    store.items.reserveCapacity(count)
    for i in 0..<count {
      let fields = ItemFields(i)
      let item = StasisItem()
      item.name = fields.name
      item.serialNumber = fields.serialNumber
      item.valueInDollars = fields.valueInDollars
      item.dateCreated = fields.dateCreated
      item.category = store.categories[fields.categoryIndex]
      store.items.append(item)
    }
    for i in cycleParents(count) {
      store.items[i].children = [store.items[i + 1], store.items[i + 2]]
      store.items[i + 1].parent = store.items[i]
      store.items[i + 2].parent = store.items[i]
    }
    return store
  }
}

let stasisRegistry: ArchiveClassRegistry = {
  var registry = ArchiveClassRegistry.foundation
  registry.register(StasisStore.self, as: "Store", supportsSecureCoding: true)
  registry.register(StasisCategory.self, as: "Category", supportsSecureCoding: true)
  registry.register(StasisItem.self, as: "Item", supportsSecureCoding: true)
  return registry
}()

enum StasisSystem {
  /// The library's default limits (4,194,304 objects, 256 MB) are below what the 1,000,000-item
  /// graph needs (about 4.0 M `$objects`, 12.1 M binary-plist objects, 190 MB of XML): the
  /// benchmark raises them for every size alike.
  static let maximumObjectCount = 1 << 26
  static let limits = KeyedUnarchiver.Limits(maximumObjectCount: maximumObjectCount, maximumByteCount: 1 << 31)

  static func archive(_ store: StasisStore, format: PropertyListFormat) throws -> Data {
    try KeyedArchiver.archivedData(
      withRootObject: store, registry: stasisRegistry, format: format, maximumObjectCount: maximumObjectCount)
  }

  static func unarchive(_ data: Data) throws -> StasisStore {
    guard let store = try KeyedUnarchiver.unarchivedObject(ofClass: StasisStore.self, from: data, registry: stasisRegistry, limits: limits)
    else { throw CheckFailure("Stasis: the root object decoded as nil") }
    return store
  }

  static func verify(_ store: StasisStore, _ expected: GraphExpectation) throws {
    var sum = 0
    for item in store.items { sum += Int(item.valueInDollars) }
    let links = store.items.compactMap { item in
      item.children.map { (parent: item as AnyObject, childrensParents: $0.map { $0.parent as AnyObject? }) }
    }
    try verifyGraph(
      expected, storeName: store.name, categories: store.categories, itemCount: store.items.count, valueSum: sum,
      itemCategories: store.items.map { $0.category }, parentLinks: links, system: "Stasis")
    // The children are the store's own items (shared references, not copies).
    for i in cycleParents(expected.itemCount) {
      guard let children = store.items[i].children, children.count == 2,
        children[0] === store.items[i + 1], children[1] === store.items[i + 2]
      else { throw CheckFailure("Stasis: items[\(i)].children are not items \(i + 1) and \(i + 2)") }
    }
  }
}
