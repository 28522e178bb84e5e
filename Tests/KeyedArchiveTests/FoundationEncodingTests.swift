import Foundation
import Testing
import TestSupport

import KeyedArchive
import PropertyLists

/// Each Foundation class encoding, both ways: the exact layout Apple writes (keys, inline vs.
/// referenced values, `$classname` and `$classes`), and decoding back to the Swift value.
@Suite("Foundation class encodings")
struct FoundationEncodingTests {
  // MARK: Mutable classes

  @Test func mutableStringIsAnObjectWithInlineNSString() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ArchiveMutable("draft"))
    let (object, entry) = try rootObject(data)
    #expect(object["NS.string"] == "draft")
    #expect(entry?["$classname"] == "NSMutableString")
    #expect(entry?["$classes"] == ["NSMutableString", "NSString", "NSObject"])
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: String.self, from: data) == "draft")
  }

  @Test func mutableDataIsAnObjectWithInlineNSData() throws {
    let bytes = Data([0, 1, 2, 0xFF])
    let data = try KeyedArchiver.archivedData(withRootObject: ArchiveMutable(bytes))
    let (object, entry) = try rootObject(data)
    #expect(object["NS.data"] == .data(bytes))
    #expect(entry?["$classes"] == ["NSMutableData", "NSData", "NSObject"])
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Data.self, from: data) == bytes)
  }

  @Test func mutableCollectionsNameTheirMutableClasses() throws {
    let cases: [(Any, String, [PropertyListValue])] = [
      (ArchiveMutable(["a", "b"] as [String]), "NSMutableArray", ["NSMutableArray", "NSArray", "NSObject"]),
      (ArchiveMutable(["k": 1] as [String: Int]), "NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"]),
      (ArchiveMutable(Set([1, 2])), "NSMutableSet", ["NSMutableSet", "NSSet", "NSObject"]),
      (ArchiveMutable(ArchivedOrderedSet(["x", "y"])), "NSMutableOrderedSet", ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"]),
      (ArchiveMutable(ArchivedIndexSet([1, 2, 5])), "NSMutableIndexSet", ["NSMutableIndexSet", "NSIndexSet", "NSObject"]),
      (ArchiveMutable(ArchivedAttributedString(string: "hi", attributes: ["NSFont": "Times"])), "NSMutableAttributedString",
       ["NSMutableAttributedString", "NSAttributedString", "NSObject"]),
    ]
    for (value, name, classes) in cases {
      let data = try KeyedArchiver.archivedData(withRootObject: value)
      let entry = try rootObject(data).classEntry
      #expect(entry?["$classname"] == .string(name))
      #expect(entry?["$classes"] == .array(classes))
    }
    // They decode to the plain Swift values.
    let array = try KeyedArchiver.archivedData(withRootObject: ArchiveMutable(["a", "b"] as [String]))
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: array) == ["a", "b"])
    let set = try KeyedArchiver.archivedData(withRootObject: ArchiveMutable(Set([1, 2])))
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Set<Int>.self, from: set) == [1, 2])
    let dictionary = try KeyedArchiver.archivedData(withRootObject: ArchiveMutable(["k": 1] as [String: Int]))
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: [String: Int].self, from: dictionary) == ["k": 1])
  }

  // MARK: Ordered and counted sets

  @Test func orderedSetWritesOneKeyPerMember() throws {
    let value = ArchivedOrderedSet(["valgeir", "nico", "puzzle", "nico"])
    #expect(value.count == 3)
    let data = try KeyedArchiver.archivedData(withRootObject: value)
    let (object, entry) = try rootObject(data)
    #expect(entry?["$classes"] == ["NSOrderedSet", "NSObject"])
    #expect(try resolve(object["NS.object.0"], in: data) == "valgeir")
    #expect(try resolve(object["NS.object.2"], in: data) == "puzzle")
    #expect(object["NS.object.3"] == nil)
    #expect(object["NS.count"] == nil)
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedOrderedSet.self, from: data) == value)
    // Empty: nothing but $class.
    let empty = try KeyedArchiver.archivedData(withRootObject: ArchivedOrderedSet())
    #expect(try rootObject(empty).object.dictionaryValue?.keys == ["$class"])
  }

  @Test func countedSetWritesObjectsWithCounts() throws {
    var value = ArchivedCountedSet(["a", "a", "b"])
    value.insert("c", count: 4)
    let data = try KeyedArchiver.archivedData(withRootObject: value)
    let (object, entry) = try rootObject(data)
    #expect(entry?["$classes"] == ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"])
    #expect(object["NS.count"] == 3)
    #expect(try resolve(object["NS.object0"], in: data) == "a")
    #expect(object["NS.count0"] == 2)
    #expect(object["NS.count2"] == 4)
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedCountedSet.self, from: data))
    #expect(decoded == value)
    #expect(decoded.count(for: "c") == 4)
    #expect(decoded.count(for: "z") == 0)
  }

  // MARK: NSValue

  @Test func geometryIsWrittenAsStringsInPercentGStyle() throws {
    let rect = ArchivedRect(x: 400, y: 300, width: 200, height: 300)
    let data = try KeyedArchiver.archivedData(withRootObject: rect)
    let (object, entry) = try rootObject(data)
    #expect(object["NS.special"] == 3)
    #expect(try resolve(object["NS.rectval"], in: data) == "{{400, 300}, {200, 300}}")
    #expect(entry?["$classes"] == ["NSValue", "NSObject"])
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedRect.self, from: data) == rect)

    let point = ArchivedPoint(x: 1.5, y: -2)
    let pointData = try KeyedArchiver.archivedData(withRootObject: point)
    #expect(try rootObject(pointData).object["NS.special"] == 1)
    #expect(try resolve(rootObject(pointData).object["NS.pointval"], in: pointData) == "{1.5, -2}")
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedPoint.self, from: pointData) == point)

    let size = ArchivedSize(width: 0.1, height: 1e20)
    let sizeData = try KeyedArchiver.archivedData(withRootObject: size)
    #expect(try rootObject(sizeData).object["NS.special"] == 2)
    #expect(try resolve(rootObject(sizeData).object["NS.sizeval"], in: sizeData) == "{0.10000000000000001, 1e+20}")
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedSize.self, from: sizeData) == size)
  }

  @Test(arguments: [
    ArchivedRect(x: -0.0, y: 1e-300, width: .greatestFiniteMagnitude, height: 123456789.125),
    ArchivedRect(x: 1.0 / 3, y: -2.5e15, width: 1e15, height: 999999999999999),
  ])
  func geometryStringsReadBackExactly(rect: ArchivedRect) throws {
    let decoded = try stasisRoundTrip(rect) as? ArchivedRect
    #expect(decoded == rect)
    #expect(decoded?.origin.x.sign == rect.origin.x.sign)
  }

  @Test func geometryStringsOfOtherWritersAreRead() throws {
    // swift-corelibs-foundation writes Swift's description ("-2.0", "1e+20").
    for (text, expected) in [("{{0.1, 1e+20}, {200.0, 300.0}}", ArchivedRect(x: 0.1, y: 1e20, width: 200, height: 300)),
                             ("{{ 1 ,2},{3,4 }}", ArchivedRect(x: 1, y: 2, width: 3, height: 4))] {
      let archive = handMadeArchive(["$null", ["NS.special": 3, "NS.rectval": .uid(2), "$class": .uid(3)], .string(text), classEntry("NSValue", "NSObject")])
      #expect(try KeyedUnarchiver(archive: archive).decode(ArchivedRect.self, forKey: "root") == expected, "\(text)")
    }
    for text in ["{1, 2}", "{{1, 2}, {3}}", "{{1, 2}, {3, 4}", "{{1 2}, {3, 4}}", "{{1, 2}, {3, x}}", "{{1, 2},, {3, 4}}", ""] {
      let archive = handMadeArchive(["$null", ["NS.special": 3, "NS.rectval": .uid(2), "$class": .uid(3)], .string(text), classEntry("NSValue", "NSObject")])
      expectError(KeyedArchiveError.self, .corruptArchive, "\(text)") { try KeyedUnarchiver(archive: archive).decodeObject(forKey: "root") }
    }
  }

  @Test func rangeReferencesItsNumbersLengthFirst() throws {
    let range = ArchivedRange(location: 97345, length: 98345)
    let data = try KeyedArchiver.archivedData(withRootObject: range)
    let objects = try archivedObjects(data)
    let object = objects[1]
    #expect(object["NS.special"] == 4)
    // Apple's order: the length is encoded (and numbered) before the location.
    #expect(object["NS.rangeval.length"] == .uid(2))
    #expect(object["NS.rangeval.location"] == .uid(3))
    #expect(objects[2] == 98345 && objects[3] == 97345)
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedRange.self, from: data) == range)
    #expect(range.range == 97345..<195690)
    #expect(ArchivedRange(location: .max, length: 1).range == nil)
  }

  @Test func edgeInsetsAreInlineReals() throws {
    let insets = ArchivedEdgeInsets(top: 1, left: 2, bottom: 3, right: 4.5)
    let data = try KeyedArchiver.archivedData(withRootObject: insets)
    let object = try rootObject(data).object
    #expect(object["NS.special"] == 12)
    #expect(object["NS.edgeval.top"] == .real(1))
    #expect(object["NS.edgeval.right"] == .real(4.5))
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedEdgeInsets.self, from: data) == insets)
  }

  @Test func typedValuesUseGeneratedKeysAndOldStyleArrays() throws {
    let value = ArchivedTypedValue(objCType: "{?=i[2d]}", fields: [
      .scalar(7), .array(ArchivedCArray(elementType: UInt8(ascii: "d"), elementSize: 8, elements: [.real(1.5), .real(-2)])),
    ])
    let data = try KeyedArchiver.archivedData(withRootObject: value)
    let object = try rootObject(data).object
    #expect(try resolve(object["$0"], in: data) == "{?=i[2d]}")
    #expect(object["$1"] == 7)
    let array = try resolve(object["$2"], in: data)
    #expect(array["NS.count"] == 2 && array["NS.size"] == 8 && array["NS.type"] == 100)
    #expect(array["$0"] == .real(1.5))
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedTypedValue.self, from: data) == value)
  }

  @Test func nsValueOfAnotherKindIsNotTheTypeAskedFor() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ArchivedPoint(x: 1, y: 2))
    expectError(KeyedArchiveError.self, .typeMismatch) { try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedRect.self, from: data) }
    // Unknown NS.special kinds are reported, not guessed.
    let archive = handMadeArchive(["$null", ["NS.special": 5, "$class": .uid(2)], classEntry("NSValue", "NSObject")])
    expectError(KeyedArchiveError.self, .unknownClass) { try KeyedUnarchiver(archive: archive).decodeObject(forKey: "root") }
  }

  // MARK: Index sets and paths

  @Test func varintsAreLittleEndianBase128() throws {
    var set = ArchivedIndexSet()
    set.insert(contentsOf: 0..<50)
    set.insert(contentsOf: 100..<105)
    set.insert(300)
    let data = try KeyedArchiver.archivedData(withRootObject: set)
    let object = try rootObject(data).object
    #expect(object["NSRangeCount"] == 3)
    let rangeData = try resolve(object["NSRangeData"], in: data)
    #expect(rangeData["NS.data"] == .data(Data([0x00, 0x32, 0x64, 0x05, 0xAC, 0x02, 0x01])))
    #expect(try resolve(rangeData["$class"], in: data)["$classname"] == "NSMutableData")
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedIndexSet.self, from: data) == set)
  }

  @Test func indexSetsOfZeroAndOneRangeAreInline() throws {
    let empty = try KeyedArchiver.archivedData(withRootObject: ArchivedIndexSet())
    #expect(try rootObject(empty).object["NSRangeCount"] == 0)
    #expect(try rootObject(empty).object["NSLocation"] == nil)
    let one = ArchivedIndexSet(ranges: [3..<7])
    let data = try KeyedArchiver.archivedData(withRootObject: one)
    let object = try rootObject(data).object
    #expect(object["NSRangeCount"] == 1 && object["NSLocation"] == 3 && object["NSLength"] == 4)
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedIndexSet.self, from: data) == one)
  }

  @Test func indexSetsKeepSortedDisjointRanges() {
    var set = ArchivedIndexSet(ranges: [10..<20, 0..<5, 18..<25, 5..<6, 40..<40])
    #expect(set.ranges == [0..<6, 10..<25])
    set.insert(7)
    set.insert(contentsOf: 25..<30)
    #expect(set.ranges == [0..<6, 7..<8, 10..<30])
    #expect(set.contains(7) && set.contains(29) && !set.contains(6) && !set.contains(30))
    #expect(set.count == 6 + 1 + 20)
    #expect(Array(set.prefix(3)) == [0, 1, 2])
    #expect(ArchivedIndexSet([5, 3, 4, 9]).ranges == [3..<6, 9..<10])
  }

  @Test(arguments: [[], [52], [1, 2, 300], [0, 0, 1 << 40]] as [[Int]])
  func indexPaths(indexes: [Int]) throws {
    let path = IndexPath(indexes: indexes)
    let data = try KeyedArchiver.archivedData(withRootObject: path)
    let object = try rootObject(data).object
    #expect(object["NSIndexPathLength"] == .integer(indexes.count))
    switch indexes.count {
    case 0: #expect(object["NSIndexPathValue"] == nil && object["NSIndexPathData"] == nil)
    case 1: #expect(object["NSIndexPathValue"] == .integer(indexes[0]))
    default: #expect(try resolve(object["NSIndexPathData"], in: data)["NS.data"]?.dataValue != nil)
    }
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: IndexPath.self, from: data) == path)
  }

  @Test func indexPathDataHoldsVarints() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: IndexPath(indexes: [1, 2, 300]))
    #expect(try resolve(rootObject(data).object["NSIndexPathData"], in: data)["NS.data"] == .data(Data([1, 2, 0xAC, 0x02])))
    // swift-corelibs-foundation refers to inline data instead of an NSMutableData: read both.
    let archive = handMadeArchive(["$null", ["NSIndexPathLength": 3, "NSIndexPathData": .uid(2), "$class": .uid(3)],
                                   .data(Data([1, 2, 0xAC, 0x02])), classEntry("NSIndexPath", "NSObject")])
    #expect(try KeyedUnarchiver(archive: archive).decode(IndexPath.self, forKey: "root") == [1, 2, 300])
    expectError(KeyedArchiveError.self, .invalidValue) { try KeyedArchiver.archivedData(withRootObject: IndexPath(indexes: [1, -1])) }
  }

  // MARK: Attributed strings

  @Test func attributedStringWithOneRunRefersToItsDictionary() throws {
    let value = ArchivedAttributedString(string: "hello", attributes: ["Font": "Helvetica"])
    let data = try KeyedArchiver.archivedData(withRootObject: value)
    let (object, entry) = try rootObject(data)
    #expect(entry?["$classes"] == ["NSAttributedString", "NSObject"])
    #expect(try resolve(object["NSString"], in: data) == "hello")
    #expect(try resolve(resolve(object["NSAttributes"], in: data)["$class"], in: data)["$classname"] == "NSDictionary")
    #expect(object["NSAttributeInfo"] == nil)
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedAttributedString.self, from: data))
    #expect(archiveEqual(decoded, value))
  }

  @Test func attributedStringRunsShareDistinctDictionaries() throws {
    let helvetica: [String: Any] = ["Font": "Helvetica", "Size": 123]
    let times: [String: Any] = ["Font": "Times", "Size": 456]
    let value = ArchivedAttributedString(string: "0123456789", runs: [
      .init(range: 0..<1, attributes: [:]), .init(range: 1..<2, attributes: helvetica), .init(range: 2..<6, attributes: times),
      .init(range: 6..<8, attributes: helvetica), .init(range: 8..<9, attributes: times), .init(range: 9..<10, attributes: [:]),
    ])
    let data = try KeyedArchiver.archivedData(withRootObject: value)
    let object = try rootObject(data).object
    let list = try resolve(object["NSAttributes"], in: data)
    #expect(list["NS.objects"]?.arrayValue?.count == 3)
    #expect(try resolve(list["$class"], in: data)["$classname"] == "NSMutableArray")
    let info = try resolve(object["NSAttributeInfo"], in: data)
    #expect(info["NS.data"] == .data(Data([1, 0, 1, 1, 4, 2, 2, 1, 1, 2, 1, 0])))
    #expect(try resolve(info["$class"], in: data)["$classname"] == "NSMutableData")
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedAttributedString.self, from: data))
    #expect(archiveEqual(decoded, value))
  }

  @Test func attributedStringRangesCountUTF16() throws {
    let value = ArchivedAttributedString(string: "🎁é", runs: [
      .init(range: 0..<2, attributes: ["k": 1]), .init(range: 2..<3, attributes: ["k": 2]),
    ])
    let decoded = try #require(try stasisRoundTrip(value) as? ArchivedAttributedString)
    #expect(archiveEqual(decoded, value))
    // Runs that do not cover the string cannot be archived.
    let short = ArchivedAttributedString(string: "abc", runs: [.init(range: 0..<2, attributes: [:])])
    expectError(KeyedArchiveError.self, .invalidValue) { try KeyedArchiver.archivedData(withRootObject: short) }
    let empty = try #require(try stasisRoundTrip(ArchivedAttributedString(string: "")) as? ArchivedAttributedString)
    #expect(empty.string == "" && empty.runs.isEmpty)
  }

  // MARK: Errors, locales, time zones

  @Test func errorWritesCodeDomainAndUserInfo() throws {
    let error = ArchivedError(domain: "NSCocoaErrorDomain", code: 4864, userInfo: ["NSDebugDescription": "bad", "n": [1, 2]])
    let data = try KeyedArchiver.archivedData(withRootObject: error)
    let (object, entry) = try rootObject(data)
    #expect(entry?["$classes"] == ["NSError", "NSObject"])
    #expect(object["NSCode"] == 4864)
    #expect(try resolve(object["NSDomain"], in: data) == "NSCocoaErrorDomain")
    #expect(try resolve(object["NSUserInfo"], in: data)["NS.keys"]?.arrayValue?.count == 2)
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedError.self, from: data))
    #expect(archiveEqual(decoded, error))
    // An empty user info is $null, as Apple writes it.
    let bare = try KeyedArchiver.archivedData(withRootObject: ArchivedError(domain: "D", code: -1))
    #expect(try rootObject(bare).object["NSUserInfo"] == .uid(0))
    #expect(try (stasisRoundTrip(ArchivedError(domain: "D", code: -1)) as? ArchivedError)?.code == -1)
  }

  @Test func localeAndTimeZone() throws {
    let locale = Locale(identifier: "ja_JP")
    let data = try KeyedArchiver.archivedData(withRootObject: locale)
    #expect(try resolve(rootObject(data).object["NS.identifier"], in: data) == "ja_JP")
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Locale.self, from: data)?.identifier == "ja_JP")

    for zone in [TimeZone(identifier: "Europe/Paris")!, TimeZone(secondsFromGMT: 3600)!, TimeZone(identifier: "GMT")!] {
      let zoneData = try KeyedArchiver.archivedData(withRootObject: zone)
      let object = try rootObject(zoneData).object
      #expect(try resolve(object["NS.name"], in: zoneData) == .string(zone.identifier))
      #expect(object["NS.data"] == .uid(0))
      #expect(try KeyedUnarchiver.unarchivedObject(ofClass: TimeZone.self, from: zoneData) == zone)
    }
    let unknown = handMadeArchive(["$null", ["NS.name": .uid(2), "NS.data": .uid(0), "$class": .uid(3)], "Mars/Olympus_Mons",
                                   classEntry("NSTimeZone", "NSObject")])
    expectError(KeyedArchiveError.self, .corruptArchive) { try KeyedUnarchiver(archive: unknown).decodeObject(forKey: "root") }
  }

  // MARK: Everything together, both plist formats

  @Test(arguments: [PropertyListFormat.binary, .xml])
  func mixedGraphRoundTrips(format: PropertyListFormat) throws {
    let graph: [String: Any] = [
      "ordered": ArchivedOrderedSet([3, 1, 2]), "counted": ArchivedCountedSet(["x", "x"]),
      "rect": ArchivedRect(x: 1, y: 2, width: 3, height: 4), "range": ArchivedRange(location: 1, length: 2),
      "insets": ArchivedEdgeInsets(top: 0, left: 1, bottom: 2, right: 3), "indexes": ArchivedIndexSet([1, 2, 3, 10]),
      "path": IndexPath(indexes: [4, 5]), "locale": Locale(identifier: "fr_FR"), "zone": TimeZone(identifier: "Asia/Tokyo")!,
      "text": ArchivedAttributedString(string: "ab", runs: [.init(range: 0..<1, attributes: ["b": true]), .init(range: 1..<2, attributes: [:])]),
      "error": ArchivedError(domain: "d", code: 1, userInfo: ["when": Date(timeIntervalSinceReferenceDate: 5)]),
      "null": ArchiveNull(), "uuid": UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")!,
      "mutable": ArchiveMutable("m"),
    ]
    let decoded = try #require(try stasisRoundTrip(graph, format: format) as? [AnyHashable: Any])
    #expect(decoded.count == graph.count)
    for (key, value) in graph where key != "mutable" {
      #expect(archiveEqual(decoded[key], value), "\(key): \(String(describing: decoded[key]))")
    }
    #expect(decoded["mutable"] as? String == "m")
  }
}
