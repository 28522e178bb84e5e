import Foundation

// The graph with Foundation's NSKeyedArchiver: NSObject subclasses adopting NSSecureCoding, with
// the same keys and archived class names as Stasis's. swift-corelibs-foundation registers an object
// only after `init(coder:)` returns, so decoding `parent` would recurse forever on the cycles: the
// archive carries `parent` and `children` like Stasis's, but `init(coder:)` does not decode `parent`,
// and `parent` is re-linked from `children` after decoding (GRAPH.md).

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
    guard let name = coder.decodeObject(of: [NSString.self], forKey: "name") as? String else { return nil }
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
    guard let name = coder.decodeObject(of: [NSString.self], forKey: "name") as? String,
      let serialNumber = coder.decodeObject(of: [NSString.self], forKey: "serialNumber") as? String,
      let date = coder.decodeObject(of: [NSDate.self], forKey: "dateCreated") as? Date
    else { return nil }
    self.name = name
    self.serialNumber = serialNumber
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
    guard let name = coder.decodeObject(of: [NSString.self], forKey: "name") as? String,
      let categories = coder.decodeObject(of: [NSArray.self, FoundationCategory.self], forKey: "categories")
        as? [FoundationCategory],
      let items = coder.decodeObject(of: [NSArray.self, FoundationItem.self], forKey: "items") as? [FoundationItem]
    else { return nil }
    self.name = name
    self.categories = categories
    self.items = items
  }

  static func make(count: Int) -> FoundationStore {
    let store = FoundationStore()
    store.name = "Store"
    store.categories = (0..<50).map { c in
      let category = FoundationCategory()
      category.name = categoryName(c)
      category.code = 1000 + c
      return category
    }
    store.items.reserveCapacity(count)
    for i in 0..<count {
      let fields = ItemFields(i)
      let item = FoundationItem()
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

enum FoundationSystem {
  static let classNames: [(AnyClass, String)] = [
    (FoundationStore.self, "Store"), (FoundationCategory.self, "Category"), (FoundationItem.self, "Item"),
  ]

  static func archive(_ store: FoundationStore, xml: Bool) throws -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: true)
    if xml { archiver.outputFormat = .xml }
    for entry in classNames { archiver.setClassName(entry.1, for: entry.0) }
    archiver.encode(store, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return archiver.encodedData
  }

  static func unarchive(_ data: Data) throws -> FoundationStore {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = true
    for entry in classNames { unarchiver.setClass(entry.0, forClassName: entry.1) }
    guard let store = unarchiver.decodeObject(of: FoundationStore.self, forKey: NSKeyedArchiveRootObjectKey) else {
      throw CheckFailure("Foundation: the root object decoded as nil (\(unarchiver.error.map { "\($0)" } ?? "no error"))")
    }
    unarchiver.finishDecoding()
    // Re-link `parent` from `children` (the decoder does not read `parent`, see above).
    for item in store.items {
      if let children = item.children { for child in children { child.parent = item } }
    }
    return store
  }

  static func verify(_ store: FoundationStore, _ expected: GraphExpectation) throws {
    var sum = 0
    for item in store.items { sum += Int(item.valueInDollars) }
    let links = store.items.compactMap { item in
      item.children.map { (parent: item as AnyObject, childrensParents: $0.map { $0.parent as AnyObject? }) }
    }
    try verifyGraph(
      expected, storeName: store.name, categories: store.categories, itemCount: store.items.count, valueSum: sum,
      itemCategories: store.items.map { $0.category }, parentLinks: links, system: "Foundation")
    for i in cycleParents(expected.itemCount) {
      guard let children = store.items[i].children, children.count == 2,
        children[0] === store.items[i + 1], children[1] === store.items[i + 2]
      else { throw CheckFailure("Foundation: items[\(i)].children are not items \(i + 1) and \(i + 2)") }
    }
  }
}
