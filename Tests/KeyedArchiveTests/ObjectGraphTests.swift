import Foundation
import Testing
import TestSupport

import KeyedArchive
import PropertyLists

/// The item-store graph of the shared benchmark definition (bench/GRAPH.md).
final class Category: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  var code = 0
  init() {}
  init(name: String, code: Int) {
    self.name = name
    self.code = code
  }
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    coder.encode(code, forKey: "code")
  }
  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    code = try coder.decodeInteger(forKey: "code")
  }
}

final class Item: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  var serialNumber = ""
  var valueInDollars = 0
  var dateCreated = Date(timeIntervalSinceReferenceDate: 0)
  var category: Category?
  weak var parent: Item?
  var children: [Item]?
  init() {}
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    try coder.encode(serialNumber, forKey: "serialNumber")
    coder.encode(Int64(valueInDollars), forKey: "valueInDollars")
    try coder.encode(dateCreated, forKey: "dateCreated")
    try coder.encode(category, forKey: "category")
    if let parent { try coder.encode(parent, forKey: "parent") }
    if let children { try coder.encode(children, forKey: "children") }
  }
  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    serialNumber = try coder.decodeRequired(String.self, forKey: "serialNumber")
    valueInDollars = try coder.decodeInteger(forKey: "valueInDollars")
    dateCreated = try coder.decodeRequired(Date.self, forKey: "dateCreated")
    category = try coder.decode(Category.self, forKey: "category")
    parent = try coder.decode(Item.self, forKey: "parent")
    children = try coder.decode([Item].self, forKey: "children")
  }
}

final class Store: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = "Store"
  var categories: [Category] = []
  var items: [Item] = []
  init() {}
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    try coder.encode(categories, forKey: "categories")
    try coder.encode(items, forKey: "items")
  }
  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    categories = try coder.decodeRequired([Category].self, forKey: "categories")
    items = try coder.decodeRequired([Item].self, forKey: "items")
  }

  /// The graph of GRAPH.md with `count` items.
  static func make(count: Int) -> Store {
    let store = Store()
    store.categories = (0..<50).map { Category(name: String(format: "Category-%02d", $0), code: 1000 + $0) }
    for i in 0..<count {
      let h = UInt64(i) &* 2_654_435_761 % (1 << 32)
      let item = Item()
      item.name = i % 10 == 7 ? "商品 \(i) 🎁" : "Item \(i)"
      item.serialNumber = String(format: "%08X", h)
      item.valueInDollars = Int(h % 100_000) - 5000
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
}

/// A class decoded in one step, which therefore cannot sit on a cycle.
final class Node: ArchiveEncodable, ArchiveDecodable {
  let label: String
  var next: Node?
  init(label: String) { self.label = label }
  init(coder: ArchiveDecoder) throws {
    label = try coder.decodeRequired(String.self, forKey: "label")
    next = try coder.decode(Node.self, forKey: "next")
  }
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(label, forKey: "label")
    try coder.encode(next, forKey: "next")
  }
}

let testRegistry: ArchiveClassRegistry = {
  var registry = ArchiveClassRegistry.foundation
  registry.register(Store.self, as: "Store", supportsSecureCoding: true)
  registry.register(Category.self, as: "Category", supportsSecureCoding: true)
  registry.register(Item.self, as: "Item", supportsSecureCoding: true)
  registry.register(Node.self, as: "Node")
  return registry
}()

@Suite("Object graphs")
struct ObjectGraphTests {
  @Test(arguments: [PropertyListFormat.binary, .xml])
  func itemStoreRoundTripsWithIdentity(format: PropertyListFormat) throws {
    let store = Store.make(count: 3000)
    let data = try KeyedArchiver.archivedData(withRootObject: store, registry: testRegistry, format: format)
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Store.self, from: data, registry: testRegistry))
    #expect(decoded.items.count == 3000)
    #expect(decoded.categories.count == 50)
    #expect(decoded.items.map(\.valueInDollars).reduce(0, +) == store.items.map(\.valueInDollars).reduce(0, +))
    // Shared references come back shared: 50 distinct categories, the same instances as the store's.
    let distinct = Set(decoded.items.compactMap { $0.category.map(ObjectIdentifier.init) })
    #expect(distinct.count == 50)
    #expect(distinct.isSubset(of: Set(decoded.categories.map(ObjectIdentifier.init))))
    // Cycles: every child's parent is the very parent that lists it.
    for parent in decoded.items where parent.children != nil {
      for child in parent.children! { #expect(child.parent === parent) }
    }
    #expect(decoded.items[7].name == "商品 7 🎁")
  }

  @Test func layoutIsApples() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ["baa", "baa", "black"] as [String])
    let archive = try PropertyListValue(decoding: data)
    #expect(archive["$archiver"] == "NSKeyedArchiver")
    #expect(archive["$version"] == 100000)
    #expect(archive["$top"]?["root"] == .uid(1))
    let objects = try #require(archive["$objects"]?.arrayValue)
    #expect(objects[0] == "$null")
    #expect(objects[1]["NS.objects"] == [.uid(2), .uid(2), .uid(3)])
    #expect(objects[2] == "baa" && objects[3] == "black")
    #expect(objects[4]["$classname"] == "NSArray")
    #expect(objects[4]["$classes"] == ["NSArray", "NSObject"])
    #expect(objects[1]["$class"] == .uid(4))
  }

  @Test func selfReferenceAndTwoCycle() throws {
    let a = Item()
    a.name = "a"
    a.serialNumber = "1"
    a.children = [a]
    let data = try KeyedArchiver.archivedData(withRootObject: a, registry: testRegistry)
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Item.self, from: data, registry: testRegistry))
    #expect(decoded.children?.first === decoded)
  }

  @Test func cycleThroughAnInitializerIsAnError() throws {
    let first = Node(label: "first")
    let second = Node(label: "second")
    first.next = second
    second.next = first
    defer { second.next = nil }
    let data = try KeyedArchiver.archivedData(withRootObject: first, registry: testRegistry)
    let error = expectError(KeyedArchiveError.self, .cycle) {
      try KeyedUnarchiver.unarchiveTopLevelObject(from: data, registry: testRegistry)
    }
    #expect(error?.description.contains("Node") == true)
  }

  @Test func acyclicInitializerChainsDecode() throws {
    let head = Node(label: "0")
    var tail = head
    for i in 1..<100 {
      let node = Node(label: "\(i)")
      tail.next = node
      tail = node
    }
    let data = try KeyedArchiver.archivedData(withRootObject: head, registry: testRegistry)
    var node = try KeyedUnarchiver.unarchiveTopLevelObject(from: data, registry: testRegistry) as? Node
    var count = 0
    while let current = node {
      #expect(current.label == "\(count)")
      count += 1
      node = current.next
    }
    #expect(count == 100)
  }

  @Test func secureDecodingRefusesClassesNotAsked() throws {
    let store = Store.make(count: 10)
    let data = try KeyedArchiver.archivedData(withRootObject: store, registry: testRegistry)
    // Asking for a Category where a Store is archived: refused before instantiation.
    #expect(throws: KeyedArchiveError.self) {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: Category.self, from: data, registry: testRegistry)
    }
    // Node is registered but not for secure coding.
    let node = try KeyedArchiver.archivedData(withRootObject: Node(label: "x"), registry: testRegistry)
    expectError(KeyedArchiveError.self, .classNotAllowed, "a class without secure coding was decoded securely") {
      try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: node, registry: testRegistry)
    }
  }

  @Test func unknownClassesFallBackToRegisteredAncestors() throws {
    // An archive whose class is "PrivateCategory" with $classes [PrivateCategory, Category, NSObject].
    let data = try KeyedArchiver.archivedData(withRootObject: Category(name: "x", code: 1), registry: testRegistry)
    var archive = try PropertyListValue(decoding: data)
    guard case .dictionary(var root) = archive, case .array(var objects)? = root["$objects"] else { return }
    for (index, object) in objects.enumerated() where object["$classname"] == "Category" {
      objects[index] = ["$classname": "PrivateCategory", "$classes": ["PrivateCategory", "Category", "NSObject"]]
    }
    root["$objects"] = .array(objects)
    archive = .dictionary(root)
    let decoded = try KeyedUnarchiver(archive: archive, registry: testRegistry).decode(Category.self, forKey: "root")
    #expect(decoded?.name == "x")
    var bare = ArchiveClassRegistry.foundation
    bare.register(Store.self, as: "Store")
    let error = expectError(KeyedArchiveError.self, .unknownClass, "an unknown class was decoded") {
      try KeyedUnarchiver(archive: archive, registry: bare).decodeObject(forKey: "root")
    }
    #expect(error?.description.contains("PrivateCategory") == true)
  }
}

@Suite("Archive dump")
struct ArchiveDumpTests {
  @Test func marksSharedObjectsAndCycles() throws {
    let store = Store.make(count: 3)
    store.items[0].children = [store.items[1]]
    store.items[1].parent = store.items[0]
    let data = try KeyedArchiver.archivedData(withRootObject: store, registry: testRegistry)
    let dump = try ArchiveDump.render(PropertyListValue(decoding: data))
    #expect(dump.contains("root = #1 Store (Store, NSObject)"))
    #expect(dump.contains("↺ cycle"))
    #expect(dump.contains("(shared, shown above)"))
    #expect(dump.contains("name = \"Item 2\""))
  }

  @Test func refusesWhatIsNotAnArchive() {
    #expect(throws: KeyedArchiveError.self) { try ArchiveDump.render(["a": 1]) }
  }
}
