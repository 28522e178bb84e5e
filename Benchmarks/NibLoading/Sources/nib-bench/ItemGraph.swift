// The item-store graph of Tests/Fixtures/bench/GRAPH.md (Store, 50 Categories, N Items, parent ↔
// children cycles every 1,000 items), written here for this benchmark: with N = (the nib's live
// objects) − 51 it has exactly as many class instances as one load of the nib makes. Decoded by
// Stasis's KeyedUnarchiver and by Foundation's NSKeyedUnarchiver (swift-corelibs-foundation), each
// from its own binary archive.
import Foundation
import KeyedArchive
import PropertyLists

/// GRAPH.md's hash: `(i * 2654435761) mod 2^32`.
func itemHash(_ i: Int) -> UInt64 { UInt64(i) &* 2_654_435_761 % (1 << 32) }

/// The values of item `i` (GRAPH.md's table).
struct ItemValues {
  let name: String
  let serial: String
  let value: Int64
  let date: Date
  let category: Int
  init(_ i: Int) {
    let h = itemHash(i)
    name = i % 10 == 7 ? "商品 \(i) 🎁" : "Item \(i)"
    let hex = String(h, radix: 16, uppercase: true)
    serial = String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    value = Int64(h % 100_000) - 5000
    date = Date(timeIntervalSinceReferenceDate: Double(700_000_000 + 37 * i))
    category = Int(h % 50)
  }
}

/// What a decoded item graph must hold, from GRAPH.md's formulas.
struct ItemExpectation {
  let count: Int
  let valueSum: Int64
  let cycleParents: [Int]
  /// Categories the items refer to (all 50 from a few hundred items on).
  let usedCategories: Int
  init(count: Int) {
    self.count = count
    var sum: Int64 = 0
    var used = Set<UInt64>()
    for i in 0..<count {
      sum += ItemValues(i).value
      used.insert(itemHash(i) % 50)
    }
    valueSum = sum
    usedCategories = used.count
    cycleParents = stride(from: 0, to: count, by: 1000).filter { $0 + 2 < count }
  }
  /// Class instances in the graph: the store, 50 categories, the items.
  var objects: Int { 1 + 50 + count }

  func check(name: String, categories: [AnyObject], items: Int, valueSum: Int64, itemCategories: [AnyObject?],
    children: (Int) -> [AnyObject]?, parent: (Int) -> AnyObject?, item: (Int) -> AnyObject, system: String) throws
  {
    func require(_ condition: Bool, _ what: @autoclosure () -> String) throws {
      if !condition { throw CheckFailure("\(system) item graph: \(what())") }
    }
    try require(name == "Store", "store name \(name)")
    try require(items == count, "\(items) items, expected \(count)")
    try require(categories.count == 50, "\(categories.count) categories")
    try require(valueSum == self.valueSum, "sum(valueInDollars) \(valueSum), expected \(self.valueSum)")
    let known = Set(categories.map(ObjectIdentifier.init))
    var used = Set<ObjectIdentifier>()
    for category in itemCategories {
      guard let category else { throw CheckFailure("\(system) item graph: an item without a category") }
      used.insert(ObjectIdentifier(category))
    }
    try require(used.isSubset(of: known) && used.count == usedCategories,
      "the items refer to \(used.count) distinct Category objects (expected \(usedCategories) of the store's shared 50)")
    for i in cycleParents {
      guard let list = children(i), list.count == 2, list[0] === item(i + 1), list[1] === item(i + 2) else {
        throw CheckFailure("\(system) item graph: items[\(i)].children are not items \(i + 1) and \(i + 2)")
      }
      try require(parent(i + 1) === item(i) && parent(i + 2) === item(i), "a child's parent is not its cycle parent")
    }
  }
}

struct CheckFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

// MARK: - Stasis KeyedArchive

final class ArchivedCategory: ArchiveEncodable, ArchiveDecodableInPlace {
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

final class ArchivedItem: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  var serialNumber = ""
  var valueInDollars: Int64 = 0
  var dateCreated = Date(timeIntervalSinceReferenceDate: 0)
  var category: ArchivedCategory?
  weak var parent: ArchivedItem?
  var children: [ArchivedItem]?
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
    category = try coder.decode(ArchivedCategory.self, forKey: "category")
    parent = try coder.decode(ArchivedItem.self, forKey: "parent")
    children = try coder.decode([ArchivedItem].self, forKey: "children")
  }
}

final class ArchivedStore: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  var categories: [ArchivedCategory] = []
  var items: [ArchivedItem] = []
  init() {}
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    try coder.encode(categories, forKey: "categories")
    try coder.encode(items, forKey: "items")
  }
  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    categories = try coder.decodeRequired([ArchivedCategory].self, forKey: "categories")
    items = try coder.decodeRequired([ArchivedItem].self, forKey: "items")
  }

  static func make(count: Int) -> ArchivedStore {
    let store = ArchivedStore()
    store.name = "Store"
    for c in 0..<50 {
      let category = ArchivedCategory()
      category.name = c < 10 ? "Category-0\(c)" : "Category-\(c)"
      category.code = 1000 + c
      store.categories.append(category)
    }
    for i in 0..<count {
      let values = ItemValues(i)
      let item = ArchivedItem()
      item.name = values.name
      item.serialNumber = values.serial
      item.valueInDollars = values.value
      item.dateCreated = values.date
      item.category = store.categories[values.category]
      store.items.append(item)
    }
    for i in ItemExpectation(count: count).cycleParents {
      store.items[i].children = [store.items[i + 1], store.items[i + 2]]
      store.items[i + 1].parent = store.items[i]
      store.items[i + 2].parent = store.items[i]
    }
    return store
  }
}

let itemRegistry: ArchiveClassRegistry = {
  var registry = ArchiveClassRegistry.foundation
  registry.register(ArchivedStore.self, as: "Store", supportsSecureCoding: true)
  registry.register(ArchivedCategory.self, as: "Category", supportsSecureCoding: true)
  registry.register(ArchivedItem.self, as: "Item", supportsSecureCoding: true)
  return registry
}()

enum StasisItems {
  static func archive(count: Int) throws -> Data {
    try KeyedArchiver.archivedData(withRootObject: ArchivedStore.make(count: count), registry: itemRegistry, format: .binary)
  }

  /// `+unarchivedObjectOfClass:fromData:` — the bytes read as a property list, then decoded.
  static func unarchive(_ data: Data) throws -> ArchivedStore {
    guard let store = try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedStore.self, from: data, registry: itemRegistry) else {
      throw CheckFailure("KeyedArchive: the root decoded as nil")
    }
    return store
  }

  /// The same decode from the archive already read as a property list (the counterpart of
  /// instantiating a nib from its parsed graph).
  static func unarchive(parsed archive: PropertyListValue) throws -> ArchivedStore {
    let unarchiver = try KeyedUnarchiver(archive: archive, registry: itemRegistry)
    unarchiver.requiresSecureCoding = true
    guard let store = try unarchiver.decode(ArchivedStore.self, forKey: "root") else {
      throw CheckFailure("KeyedArchive: the root decoded as nil")
    }
    try unarchiver.finishDecoding()
    return store
  }

  static func check(_ store: ArchivedStore, _ expected: ItemExpectation) throws {
    var sum: Int64 = 0
    for item in store.items { sum += item.valueInDollars }
    try expected.check(
      name: store.name, categories: store.categories, items: store.items.count, valueSum: sum,
      itemCategories: store.items.map { $0.category }, children: { store.items[$0].children },
      parent: { store.items[$0].parent }, item: { store.items[$0] }, system: "KeyedArchive")
  }
}

// MARK: - Foundation's NSKeyedUnarchiver

// swift-corelibs-foundation registers a decoded object only after `init(coder:)` returns, so
// decoding `parent` inside it would recurse forever on a cycle (GRAPH.md): `parent` is archived
// but not decoded, and linked again from `children` after decoding.

final class FoundationCategory: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  var name = ""
  var code = 0
  override init() {}
  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(code, forKey: "code")
  }
  init?(coder: NSCoder) {
    guard let name = coder.decodeObject(of: NSString.self, forKey: "name") as String? else { return nil }
    self.name = name
    code = coder.decodeInteger(forKey: "code")
  }
}

final class FoundationItem: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  var name = ""
  var serialNumber = ""
  var valueInDollars: Int64 = 0
  var dateCreated = Date(timeIntervalSinceReferenceDate: 0)
  var category: FoundationCategory?
  weak var parent: FoundationItem?
  var children: [FoundationItem]?
  override init() {}
  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(serialNumber, forKey: "serialNumber")
    coder.encode(valueInDollars, forKey: "valueInDollars")
    coder.encode(dateCreated as NSDate, forKey: "dateCreated")
    coder.encode(category, forKey: "category")
    if let parent { coder.encode(parent, forKey: "parent") }
    if let children { coder.encode(children as NSArray, forKey: "children") }
  }
  init?(coder: NSCoder) {
    guard let name = coder.decodeObject(of: NSString.self, forKey: "name") as String?,
      let serial = coder.decodeObject(of: NSString.self, forKey: "serialNumber") as String?,
      let date = coder.decodeObject(of: NSDate.self, forKey: "dateCreated") as Date?
    else { return nil }
    self.name = name
    serialNumber = serial
    valueInDollars = coder.decodeInt64(forKey: "valueInDollars")
    dateCreated = date
    category = coder.decodeObject(of: FoundationCategory.self, forKey: "category")
    if coder.containsValue(forKey: "children") {
      children = coder.decodeObject(of: [NSArray.self, FoundationItem.self], forKey: "children") as? [FoundationItem]
    }
  }
}

final class FoundationStore: NSObject, NSSecureCoding {
  static var supportsSecureCoding: Bool { true }
  var name = ""
  var categories: [FoundationCategory] = []
  var items: [FoundationItem] = []
  override init() {}
  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(categories as NSArray, forKey: "categories")
    coder.encode(items as NSArray, forKey: "items")
  }
  init?(coder: NSCoder) {
    guard let name = coder.decodeObject(of: NSString.self, forKey: "name") as String?,
      let categories = coder.decodeObject(of: [NSArray.self, FoundationCategory.self], forKey: "categories") as? [FoundationCategory],
      let items = coder.decodeObject(of: [NSArray.self, FoundationItem.self], forKey: "items") as? [FoundationItem]
    else { return nil }
    self.name = name
    self.categories = categories
    self.items = items
  }
}

enum FoundationItems {
  static let names: [(AnyClass, String)] = [
    (FoundationStore.self, "Store"), (FoundationCategory.self, "Category"), (FoundationItem.self, "Item"),
  ]

  static func archive(count: Int) -> Data {
    let store = FoundationStore()
    store.name = "Store"
    for c in 0..<50 {
      let category = FoundationCategory()
      category.name = c < 10 ? "Category-0\(c)" : "Category-\(c)"
      category.code = 1000 + c
      store.categories.append(category)
    }
    for i in 0..<count {
      let values = ItemValues(i)
      let item = FoundationItem()
      item.name = values.name
      item.serialNumber = values.serial
      item.valueInDollars = values.value
      item.dateCreated = values.date
      item.category = store.categories[values.category]
      store.items.append(item)
    }
    for i in ItemExpectation(count: count).cycleParents {
      store.items[i].children = [store.items[i + 1], store.items[i + 2]]
      store.items[i + 1].parent = store.items[i]
      store.items[i + 2].parent = store.items[i]
    }
    let archiver = NSKeyedArchiver(requiringSecureCoding: true)
    for (type, name): (AnyClass, String) in names { archiver.setClassName(name, for: type) }
    archiver.encode(store, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return archiver.encodedData
  }

  static func unarchive(_ data: Data) throws -> FoundationStore {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = true
    for (type, name): (AnyClass, String) in names { unarchiver.setClass(type, forClassName: name) }
    guard let store = unarchiver.decodeObject(of: FoundationStore.self, forKey: NSKeyedArchiveRootObjectKey) else {
      throw CheckFailure("Foundation: the root decoded as nil (\(unarchiver.error.map { "\($0)" } ?? "no error"))")
    }
    unarchiver.finishDecoding()
    for item in store.items {
      for child in item.children ?? [] { child.parent = item }
    }
    return store
  }

  static func check(_ store: FoundationStore, _ expected: ItemExpectation) throws {
    var sum: Int64 = 0
    for item in store.items { sum += item.valueInDollars }
    try expected.check(
      name: store.name, categories: store.categories, items: store.items.count, valueSum: sum,
      itemCategories: store.items.map { $0.category }, children: { store.items[$0].children },
      parent: { store.items[$0].parent }, item: { store.items[$0] }, system: "Foundation")
  }
}
