import Foundation
import Testing

import KeyedArchive
import PropertyLists

// Cross-reading with swift-corelibs-foundation's NSKeyedArchiver/NSKeyedUnarchiver, in process.
// Foundation on Linux never sees a cyclic graph here: its unarchiver recurses forever on one
// (it registers an object only after init(coder:) returns) and its archiver crashes on NSError
// (unbounded hashing recursion), so neither is fed to it. Its unarchiver also cannot read the
// single-run NSAttributedString form that it (and Apple) write, so that form is only read
// by Stasis here. Its archiver's setClassName(_:for:) has no effect (it files the mapping under
// the metatype's name, "FoundationStore.Type"), so archives it writes carry the Swift names
// (`KeyedArchiveTests.FoundationStore`), which Stasis maps with setClass(_:forClassName:).
// It also uniques objects by value (isEqual), so NSNumber true and 1 share one entry.

// MARK: - The item-store graph as Foundation classes

final class FoundationCategory: NSObject, NSCoding {
  let name: String
  let code: Int
  init(name: String, code: Int) {
    self.name = name
    self.code = code
  }
  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(code, forKey: "code")
  }
  init?(coder: NSCoder) {
    guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
    self.name = name
    code = coder.decodeInteger(forKey: "code")
  }
}

final class FoundationItem: NSObject, NSCoding {
  var name = ""
  var serialNumber = ""
  var valueInDollars: Int64 = 0
  var dateCreated = Date(timeIntervalSinceReferenceDate: 0)
  var category: FoundationCategory?
  var children: [FoundationItem]?
  override init() {}
  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(serialNumber, forKey: "serialNumber")
    coder.encode(valueInDollars, forKey: "valueInDollars")
    coder.encode(dateCreated, forKey: "dateCreated")
    coder.encode(category, forKey: "category")
    if let children { coder.encode(children, forKey: "children") }
  }
  init?(coder: NSCoder) {
    guard let name = coder.decodeObject(forKey: "name") as? String,
      let serialNumber = coder.decodeObject(forKey: "serialNumber") as? String,
      let dateCreated = coder.decodeObject(forKey: "dateCreated") as? Date
    else { return nil }
    self.name = name
    self.serialNumber = serialNumber
    self.dateCreated = dateCreated
    valueInDollars = coder.decodeInt64(forKey: "valueInDollars")
    category = coder.decodeObject(forKey: "category") as? FoundationCategory
    // swift-corelibs-foundation flags a missing key as an error (Apple returns nil): ask first.
    if coder.containsValue(forKey: "children") { children = coder.decodeObject(forKey: "children") as? [FoundationItem] }
  }
}

final class FoundationStore: NSObject, NSCoding {
  var name = "Store"
  var categories: [FoundationCategory] = []
  var items: [FoundationItem] = []
  override init() {}
  func encode(with coder: NSCoder) {
    coder.encode(name, forKey: "name")
    coder.encode(categories, forKey: "categories")
    coder.encode(items, forKey: "items")
  }
  init?(coder: NSCoder) {
    guard let name = coder.decodeObject(forKey: "name") as? String,
      let categories = coder.decodeObject(forKey: "categories") as? [FoundationCategory],
      let items = coder.decodeObject(forKey: "items") as? [FoundationItem]
    else { return nil }
    self.name = name
    self.categories = categories
    self.items = items
  }

  /// GRAPH.md's store with `count` items, parents left out (children only: no cycles).
  static func make(count: Int) -> FoundationStore {
    let reference = Store.make(count: count)
    let store = FoundationStore()
    store.categories = reference.categories.map { FoundationCategory(name: $0.name, code: $0.code) }
    let index = Dictionary(uniqueKeysWithValues: reference.categories.enumerated().map { (ObjectIdentifier($1), $0) })
    store.items = reference.items.map { item in
      let copy = FoundationItem()
      copy.name = item.name
      copy.serialNumber = item.serialNumber
      copy.valueInDollars = Int64(item.valueInDollars)
      copy.dateCreated = item.dateCreated
      copy.category = item.category.map { store.categories[index[ObjectIdentifier($0)]!] }
      return copy
    }
    for (position, item) in reference.items.enumerated() where item.children != nil {
      store.items[position].children = [store.items[position + 1], store.items[position + 2]]
    }
    return store
  }
}

private let graphClasses: [(AnyClass, String)] = [
  (FoundationStore.self, "Store"), (FoundationCategory.self, "Category"), (FoundationItem.self, "Item"),
]

/// Decodes `root` with Foundation's unarchiver, failing (not aborting) on damage.
private func foundationDecode(_ data: Data, classes: [(AnyClass, String)] = []) throws -> Any? {
  let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
  unarchiver.requiresSecureCoding = false
  unarchiver.decodingFailurePolicy = .setErrorAndReturn
  for mapping in classes { unarchiver.setClass(mapping.0, forClassName: mapping.1) }
  let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
  if let error = unarchiver.error { throw error }
  unarchiver.finishDecoding()
  return root
}

/// Archives `root` with Foundation's archiver as a binary plist.
private func foundationEncode(_ root: Any) -> Data {
  let archiver = NSKeyedArchiver(requiringSecureCoding: false)
  archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
  archiver.finishEncoding()
  return archiver.encodedData
}

private func stasisArchive(_ root: Any?, format: PropertyListFormat = .binary) throws -> Data {
  try KeyedArchiver.archivedData(withRootObject: root, registry: testRegistry, format: format)
}

@Suite("Interoperation with Foundation's NSKeyedArchiver")
struct FoundationInteropTests {
  // MARK: Stasis writes, Foundation reads

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func foundationReadsPlistTypesAndCollections(format: PropertyListFormat) throws {
    let graph: [String: Any] = [
      "int": 1, "real": 2.5, "bool": true, "float": Float(1.5), "min": Int64.min, "max": UInt64.max,
      "array": [1, "x"] as [Any], "nested": ["k": "v"], "data": Data([1, 2]), "date": Date(timeIntervalSinceReferenceDate: 12.5),
      "null": ArchiveNull(), "url": URL(string: "foo.xml", relativeTo: URL(string: "https://example.com/"))!,
      "uuid": UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")!, "set": Set([1, 2, 3]), "text": "商品 🎁",
    ]
    let root = try #require(try foundationDecode(try stasisArchive(graph, format: format)) as? NSDictionary)
    #expect(root.count == graph.count)
    #expect(root["int"] as? Int == 1)
    #expect(root["real"] as? Double == 2.5)
    #expect(root["bool"] as? Bool == true)
    #expect((root["float"] as? NSNumber)?.floatValue == 1.5)
    #expect((root["min"] as? NSNumber)?.int64Value == .min)
    #expect((root["max"] as? NSNumber)?.uint64Value == .max)
    let array = try #require(root["array"] as? NSArray)
    #expect(array.count == 2 && array[0] as? Int == 1 && array[1] as? String == "x")
    #expect((root["nested"] as? NSDictionary)?["k"] as? String == "v")
    #expect(root["data"] as? Data == Data([1, 2]))
    #expect(root["date"] as? Date == Date(timeIntervalSinceReferenceDate: 12.5))
    #expect(root["null"] is NSNull)
    #expect((root["url"] as? URL)?.absoluteString == "https://example.com/foo.xml")
    #expect(root["uuid"] as? UUID == UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
    #expect(root["set"] as? Set<Int> == [1, 2, 3])
    #expect(root["text"] as? String == "商品 🎁")
  }

  @Test func foundationReadsMutableClasses() throws {
    let string = try foundationDecode(try stasisArchive(ArchiveMutable("abc")))
    #expect(string is NSMutableString && string as? String == "abc")
    let data = try foundationDecode(try stasisArchive(ArchiveMutable(Data([1, 2, 3]))))
    #expect(data is NSMutableData && data as? Data == Data([1, 2, 3]))
    let array = try foundationDecode(try stasisArchive(ArchiveMutable(["a", "b"] as [String])))
    #expect(array is NSMutableArray && array as? [String] == ["a", "b"])
    let dictionary = try foundationDecode(try stasisArchive(ArchiveMutable(["a": 1] as [String: Int])))
    #expect(dictionary is NSMutableDictionary && dictionary as? [String: Int] == ["a": 1])
    let set = try foundationDecode(try stasisArchive(ArchiveMutable(Set(["q"]))))
    #expect(set is NSMutableSet && set as? Set<String> == ["q"])
    let ordered = try foundationDecode(try stasisArchive(ArchiveMutable(ArchivedOrderedSet(["a", "b"]))))
    #expect((ordered as? NSMutableOrderedSet)?.array as? [String] == ["a", "b"])
  }

  @Test func foundationReadsSetsAndValues() throws {
    let ordered = try foundationDecode(try stasisArchive(ArchivedOrderedSet(["a", "b", "c"])))
    #expect((ordered as? NSOrderedSet)?.array as? [String] == ["a", "b", "c"])
    let counted = try #require(try foundationDecode(try stasisArchive(ArchivedCountedSet(["a", "a", "b"]))) as? NSCountedSet)
    #expect(counted.count == 2 && counted.count(for: "a") == 2 && counted.count(for: "b") == 1)

    let point = try foundationDecode(try stasisArchive(ArchivedPoint(x: 1.5, y: -2))) as? NSValue
    #expect(point?.pointValue == NSPoint(x: 1.5, y: -2))
    let size = try foundationDecode(try stasisArchive(ArchivedSize(width: 3, height: 4))) as? NSValue
    #expect(size?.sizeValue == NSSize(width: 3, height: 4))
    let rect = try foundationDecode(try stasisArchive(ArchivedRect(x: 0.1, y: 1e20, width: 200, height: 300.25))) as? NSValue
    #expect(rect?.rectValue == NSRect(x: 0.1, y: 1e20, width: 200, height: 300.25))
    let range = try foundationDecode(try stasisArchive(ArchivedRange(location: 5, length: 6))) as? NSValue
    #expect(range?.rangeValue == NSRange(location: 5, length: 6))
    let insets = try #require(try foundationDecode(try stasisArchive(ArchivedEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))) as? NSValue)
    let edges = insets.edgeInsetsValue
    #expect(edges.top == 1 && edges.left == 2 && edges.bottom == 3 && edges.right == 4)

    let typed = ArchivedTypedValue(objCType: "[3i]", fields: [.array(ArchivedCArray(elementType: UInt8(ascii: "i"), elementSize: 4, elements: [1, 2, -3]))])
    let value = try #require(try foundationDecode(try stasisArchive(typed)) as? NSValue)
    #expect(String(cString: value.objCType) == "[3i]")
    var numbers = [Int32](repeating: 0, count: 3)
    numbers.withUnsafeMutableBytes { value.getValue($0.baseAddress!) }
    #expect(numbers == [1, 2, -3])
  }

  @Test func foundationReadsIndexesTextErrorsLocalesAndZones() throws {
    for ranges in [[], [3..<7], [0..<50, 100..<105, 300..<301, (Int.max - 50)..<Int.max]] as [[Range<Int>]] {
      let decoded = try foundationDecode(try stasisArchive(ArchivedIndexSet(ranges: ranges))) as? IndexSet
      #expect(decoded.map { Array($0.rangeView) } == ranges)
    }
    let mutable = try foundationDecode(try stasisArchive(ArchiveMutable(ArchivedIndexSet([1, 2, 9]))))
    #expect(mutable is NSMutableIndexSet && (mutable as? IndexSet).map { Array($0) } == [1, 2, 9])
    for indexes in [[], [52], [1, 2, 300]] as [[Int]] {
      #expect(try foundationDecode(try stasisArchive(IndexPath(indexes: indexes))) as? IndexPath == IndexPath(indexes: indexes))
    }

    let text = ArchivedAttributedString(string: "hello wörld", runs: [
      .init(range: 0..<5, attributes: ["Font": "Times", "Size": 12]), .init(range: 5..<11, attributes: [:]),
    ])
    let attributed = try #require(try foundationDecode(try stasisArchive(text)) as? NSAttributedString)
    #expect(attributed.string == "hello wörld")
    var effective = NSRange()
    let first = attributed.attributes(at: 0, effectiveRange: &effective)
    #expect(effective == NSRange(location: 0, length: 5))
    #expect(first[NSAttributedString.Key("Font")] as? String == "Times" && first[NSAttributedString.Key("Size")] as? Int == 12)
    #expect(attributed.attributes(at: 7, effectiveRange: &effective).isEmpty && effective == NSRange(location: 5, length: 6))
    #expect(try foundationDecode(try stasisArchive(ArchiveMutable(text))) is NSMutableAttributedString)

    let error = try #require(try foundationDecode(try stasisArchive(ArchivedError(domain: "MyDomain", code: 42, userInfo: ["k": "v"]))) as? NSError)
    #expect(error.domain == "MyDomain" && error.code == 42 && error.userInfo["k"] as? String == "v")

    #expect((try foundationDecode(try stasisArchive(Locale(identifier: "fr_FR"))) as? NSLocale)?.object(forKey: .identifier) as? String == "fr_FR")
    for zone in [TimeZone(identifier: "Europe/Paris")!, TimeZone(secondsFromGMT: 3600)!] {
      #expect((try foundationDecode(try stasisArchive(zone)) as? NSTimeZone)?.name == zone.identifier)
    }
  }

  @Test func foundationReadsSecurelyWithNamedClasses() throws {
    let data = try stasisArchive(["a": [1, 2], "b": [3]] as [String: [Int]])
    let root = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self], from: data)
    #expect(root as? [String: [Int]] == ["a": [1, 2], "b": [3]])
  }

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func foundationReadsTheItemStoreWithoutCycles(format: PropertyListFormat) throws {
    let store = Store.make(count: 2500)
    for item in store.items { item.parent = nil }
    let decoded = try #require(try foundationDecode(try stasisArchive(store, format: format), classes: graphClasses) as? FoundationStore)
    #expect(decoded.name == "Store")
    #expect(decoded.items.count == 2500 && decoded.categories.count == 50)
    #expect(decoded.items.map(\.valueInDollars).reduce(0, +) == Int64(store.items.map(\.valueInDollars).reduce(0, +)))
    #expect(decoded.items[7].name == "商品 7 🎁" && decoded.items[3].serialNumber == store.items[3].serialNumber)
    #expect(decoded.items[9].dateCreated == store.items[9].dateCreated)
    let distinct = Set(decoded.items.compactMap { $0.category.map(ObjectIdentifier.init) })
    #expect(distinct.count == 50 && distinct == Set(decoded.categories.map(ObjectIdentifier.init)))
    // Shared references stay shared: children are the very items of the store's list.
    for base in [0, 1000, 2000] {
      let children = try #require(decoded.items[base].children)
      #expect(children.count == 2 && children[0] === decoded.items[base + 1] && children[1] === decoded.items[base + 2])
    }
  }

  // MARK: Foundation writes, Stasis reads

  @Test func stasisReadsFoundationPlistTypesAndCollections() throws {
    let graph: NSDictionary = [
      "int": 7, "real": 2.5, "bool": true, "max": NSNumber(value: UInt64.max), "array": [5, "x"] as NSArray,
      "nested": ["k": "v"] as NSDictionary, "data": NSData(bytes: [1, 2] as [UInt8], length: 2),
      "date": NSDate(timeIntervalSinceReferenceDate: 12.5), "null": NSNull(),
      "url": NSURL(string: "foo.xml", relativeTo: URL(string: "https://example.com/"))!,
      "uuid": NSUUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")!, "set": NSSet(array: [4, 5, 6]), "text": "商品 🎁",
    ]
    // No other member equals NSNumber(true) (1): swift-corelibs-foundation would merge them.
    let root = try #require(try KeyedUnarchiver.unarchiveTopLevelObject(from: foundationEncode(graph)) as? [AnyHashable: Any])
    #expect(root.count == graph.count)
    #expect(root["int"] as? Int == 7 && root["real"] as? Double == 2.5 && root["bool"] as? Bool == true)
    #expect(root["max"] as? UInt64 == .max)
    #expect(archiveEqual(root["array"], [5, "x"] as [Any]))
    #expect(archiveEqual(root["nested"], ["k": "v"] as [AnyHashable: Any]))
    #expect(root["data"] as? Data == Data([1, 2]))
    #expect(root["date"] as? Date == Date(timeIntervalSinceReferenceDate: 12.5))
    #expect(root["null"] is ArchiveNull)
    #expect((root["url"] as? URL)?.absoluteString == "https://example.com/foo.xml")
    #expect(root["uuid"] as? UUID == UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
    #expect(root["set"] as? Set<AnyHashable> == [4, 5, 6])
    #expect(root["text"] as? String == "商品 🎁")
  }

  @Test func stasisReadsFoundationSetsValuesAndMutableClasses() throws {
    func read<T>(_ object: Any, as type: T.Type) throws -> T? {
      try KeyedUnarchiver.unarchivedObject(ofClass: type, from: foundationEncode(object))
    }
    #expect(try read(NSMutableString(string: "abc"), as: String.self) == "abc")
    #expect(try read(NSMutableData(bytes: [1, 2, 3] as [UInt8], length: 3), as: Data.self) == Data([1, 2, 3]))
    #expect(try read(NSMutableArray(array: ["a", "b"]), as: [String].self) == ["a", "b"])
    #expect(try read(NSMutableDictionary(dictionary: ["a": 1]), as: [String: Int].self) == ["a": 1])
    #expect(try read(NSMutableSet(array: ["q"]), as: Set<String>.self) == ["q"])
    #expect(try read(NSOrderedSet(array: ["a", "b", "c"]), as: ArchivedOrderedSet.self) == ["a", "b", "c"])
    #expect(try read(NSMutableOrderedSet(array: [3, 1]), as: ArchivedOrderedSet.self) == [3, 1])
    #expect(try read(NSCountedSet(array: ["a", "a", "b"]), as: ArchivedCountedSet.self) == ArchivedCountedSet(["a", "a", "b"]))
    #expect(try read(NSValue(point: NSPoint(x: 1.5, y: -2)), as: ArchivedPoint.self) == ArchivedPoint(x: 1.5, y: -2))
    #expect(try read(NSValue(size: NSSize(width: 3, height: 4)), as: ArchivedSize.self) == ArchivedSize(width: 3, height: 4))
    #expect(try read(NSValue(rect: NSRect(x: 0.1, y: 1e20, width: 200, height: 300)), as: ArchivedRect.self)
      == ArchivedRect(x: 0.1, y: 1e20, width: 200, height: 300))
    #expect(try read(NSValue(range: NSRange(location: 5, length: 6)), as: ArchivedRange.self) == ArchivedRange(location: 5, length: 6))
    #expect(try read(NSValue(edgeInsets: NSEdgeInsets(top: 1, left: 2, bottom: 3, right: 4)), as: ArchivedEdgeInsets.self)
      == ArchivedEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    let numbers: [Int32] = [1, 2, -3]
    let typed = numbers.withUnsafeBytes { NSValue(bytes: $0.baseAddress!, objCType: "[3i]") }
    #expect(try read(typed, as: ArchivedTypedValue.self) == ArchivedTypedValue(objCType: "[3i]", fields: [
      .array(ArchivedCArray(elementType: UInt8(ascii: "i"), elementSize: 4, elements: [1, 2, -3])),
    ]))
  }

  @Test func stasisReadsFoundationIndexesTextLocalesAndZones() throws {
    func read<T>(_ object: Any, as type: T.Type) throws -> T? {
      try KeyedUnarchiver.unarchivedObject(ofClass: type, from: foundationEncode(object))
    }
    let many = NSMutableIndexSet()
    many.add(in: NSRange(location: 0, length: 50))
    many.add(in: NSRange(location: 100, length: 5))
    many.add(300)
    #expect(try read(many, as: ArchivedIndexSet.self)?.ranges == [0..<50, 100..<105, 300..<301])
    #expect(try read(NSIndexSet(indexesIn: NSRange(location: 3, length: 4)), as: ArchivedIndexSet.self)?.ranges == [3..<7])
    #expect(try read(NSIndexSet(), as: ArchivedIndexSet.self)?.ranges == [])
    for indexes in [[], [52], [1, 2, 300]] as [[Int]] {
      #expect(try read(NSIndexPath(indexes: indexes, length: indexes.count), as: IndexPath.self) == IndexPath(indexes: indexes))
    }

    let multi = NSMutableAttributedString(string: "hello wörld")
    multi.addAttribute(NSAttributedString.Key("Font"), value: "Times", range: NSRange(location: 0, length: 5))
    let text = try #require(try read(multi, as: ArchivedAttributedString.self))
    #expect(text.string == "hello wörld")
    #expect(text.runs.map(\.range) == [0..<5, 5..<11])
    #expect(archiveEqual(text.runs[0].attributes, ["Font": "Times"]) && text.runs[1].attributes.isEmpty)
    let single = try #require(try read(NSAttributedString(string: "hi", attributes: [NSAttributedString.Key("B"): 1]), as: ArchivedAttributedString.self))
    #expect(single.runs.count == 1 && single.runs[0].range == 0..<2 && single.runs[0].attributes["B"] as? Int == 1)

    #expect(try read(NSLocale(localeIdentifier: "fr_FR"), as: Locale.self)?.identifier == "fr_FR")
    #expect(try read(NSTimeZone(name: "Europe/Paris")!, as: TimeZone.self)?.identifier == "Europe/Paris")
    #expect(try read(NSTimeZone(forSecondsFromGMT: 3600), as: TimeZone.self)?.secondsFromGMT() == 3600)
  }

  @Test func stasisReadsFoundationsItemStore() throws {
    let data = foundationEncode(FoundationStore.make(count: 2500))
    let unarchiver = try KeyedUnarchiver(data: data, registry: testRegistry)
    unarchiver.requiresSecureCoding = true
    let mappings: [(foundation: AnyClass, stasis: Any.Type)] = [
      (FoundationStore.self, Store.self), (FoundationCategory.self, Category.self), (FoundationItem.self, Item.self),
    ]
    for mapping in mappings { unarchiver.setClass(mapping.stasis, forClassName: NSStringFromClass(mapping.foundation)) }
    let store = try #require(try unarchiver.decode(Store.self, forKey: "root"))
    try unarchiver.finishDecoding()
    let reference = Store.make(count: 2500)
    #expect(store.items.count == 2500 && store.categories.count == 50)
    #expect(store.items.map(\.valueInDollars).reduce(0, +) == reference.items.map(\.valueInDollars).reduce(0, +))
    #expect(store.items.map(\.name) == reference.items.map(\.name))
    #expect(store.items.map(\.dateCreated) == reference.items.map(\.dateCreated))
    #expect(store.categories.map(\.code) == Array(1000..<1050))
    let distinct = Set(store.items.compactMap { $0.category.map(ObjectIdentifier.init) })
    #expect(distinct == Set(store.categories.map(ObjectIdentifier.init)))
    for base in [0, 1000, 2000] {
      let children = try #require(store.items[base].children)
      #expect(children[0] === store.items[base + 1] && children[1] === store.items[base + 2])
    }
  }

  @Test func stasisArchivesReadByFoundationComeBackTheSame() throws {
    // Stasis → Foundation → Stasis: what Foundation writes back decodes to the original values.
    let original: [String: Any] = ["list": [1, 2, 3], "when": Date(timeIntervalSinceReferenceDate: 99), "name": "x"]
    let throughFoundation = try #require(try foundationDecode(try stasisArchive(original)))
    let back = try KeyedUnarchiver.unarchiveTopLevelObject(from: foundationEncode(throughFoundation))
    #expect(archiveEqual(back, original))
  }
}
