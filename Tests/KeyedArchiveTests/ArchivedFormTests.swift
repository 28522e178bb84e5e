import Foundation
import KeyedArchive
import PropertyLists
import Testing

/// `KeyedUnarchiver.preservesArchivedForm`: Foundation objects decode to values that remember
/// their mutable class, member order, time-zone rules and instance identity, so that archiving
/// them again writes the graph that was read; default decoding is unchanged.
@Suite("Keyed unarchiver: archived forms kept on request")
struct ArchivedFormTests {
  /// Decodes `root` from `archive`, keeping archived forms or not, and optionally securely.
  static func decode(_ archive: PropertyListValue, preserving: Bool, secureAs types: [Any.Type]? = nil) throws -> Any? {
    let unarchiver = try KeyedUnarchiver(archive: archive)
    unarchiver.preservesArchivedForm = preserving
    if let types {
      unarchiver.requiresSecureCoding = true
      return try unarchiver.decodeObject(of: types, forKey: "root")
    }
    return try unarchiver.decodeObject(forKey: "root")
  }

  static func archive(_ root: Any) throws -> PropertyListValue {
    try PropertyListValue(decoding: KeyedArchiver.archivedData(withRootObject: root))
  }

  /// Decodes `archive` keeping forms, archives the result again, and returns the graph
  /// difference (nil when equal).
  static func reArchivedDifference(_ archive: PropertyListValue) throws -> String? {
    let decoded = try decode(archive, preserving: true)
    return ArchiveGraph.difference(archive, try Self.archive(decoded as Any))
  }

  /// An archive whose root is an object of `className` with `keys`, and `extra` further entries
  /// of `$objects` from index 3 (index 2 is the class entry).
  static func handMade(_ className: String, _ keys: [String: PropertyListValue], extra: [PropertyListValue]) -> PropertyListValue {
    var root = PropertyListDictionary()
    for (key, value) in keys { root[key] = value }
    root["$class"] = .uid(2)
    let classEntry: PropertyListValue = ["$classname": .string(className), "$classes": [.string(className), "NSObject"]]
    return [
      "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
      "$objects": .array(["$null", .dictionary(root), classEntry] + extra),
    ]
  }

  @Test func mutableClassesComeBackMutableAndReArchiveAsSuch() throws {
    let values: [Any] = [
      ArchiveMutable("draft"), ArchiveMutable(Data([1, 2, 3])), ArchiveMutable([1, 2] as [Any]),
      ArchiveMutable(ArchivedSet([7])), ArchiveMutable(ArchivedDictionary([(AnyHashable("k"), "v" as Any)])),
      ArchiveMutable(ArchivedOrderedSet(["a", "b"])), ArchiveMutable(ArchivedIndexSet([1, 5, 9])),
      ArchiveMutable(ArchivedAttributedString(string: "hi", attributes: ["Font": "Times"])),
    ]
    let archive = try Self.archive(values)
    let kept = try #require(try Self.decode(archive, preserving: true) as? [Any])
    #expect(kept[0] as? ArchiveMutable<String> == ArchiveMutable("draft"))
    #expect(kept[1] as? ArchiveMutable<Data> == ArchiveMutable(Data([1, 2, 3])))
    #expect((kept[2] as? ArchiveMutable<[Any]>)?.value.compactMap { $0 as? Int } == [1, 2])
    #expect(kept[3] as? ArchiveMutable<ArchivedSet> == ArchiveMutable(ArchivedSet([7])))
    #expect((kept[4] as? ArchiveMutable<ArchivedDictionary>)?.value["k"] as? String == "v")
    #expect(kept[5] as? ArchiveMutable<ArchivedOrderedSet> == ArchiveMutable(ArchivedOrderedSet(["a", "b"])))
    #expect(kept[6] as? ArchiveMutable<ArchivedIndexSet> == ArchiveMutable(ArchivedIndexSet([1, 5, 9])))
    #expect((kept[7] as? ArchiveMutable<ArchivedAttributedString>)?.value.string == "hi")
    #expect(ArchiveGraph.difference(archive, try Self.archive(kept)) == nil)

    // Default decoding: the plain values, as before.
    let plain = try #require(try Self.decode(archive, preserving: false) as? [Any])
    #expect(plain[0] as? String == "draft")
    #expect(plain[1] as? Data == Data([1, 2, 3]))
    #expect(plain[2] is [Any] && plain[3] is Set<AnyHashable> && plain[4] is [AnyHashable: Any])
    #expect(plain[5] is ArchivedOrderedSet && plain[6] is ArchivedIndexSet && plain[7] is ArchivedAttributedString)
    // The plain values of the kept forms are what default decoding gives.
    let made = try #require(KeyedUnarchiver.plainValue(kept) as? [Any])
    #expect(made[0] as? String == "draft" && made[3] as? Set<AnyHashable> == [7] && made[5] as? ArchivedOrderedSet == ["a", "b"])
  }

  @Test func setAndDictionaryMembersKeepTheirArchivedOrder() throws {
    // Written in an order no Swift Set or Dictionary is bound to give back.
    let members: [AnyHashable] = [30, 1, 20, 4, 10, 2, 40, 3]
    let keys = ["zeta", "alpha", "mu", "beta", "omega", "kappa"]
    let root: [Any] = [ArchivedSet(members), ArchivedDictionary(keys.enumerated().map { (AnyHashable($1), $0 as Any) })]
    let archive = try Self.archive(root)
    let kept = try #require(try Self.decode(archive, preserving: true) as? [Any])
    #expect((kept[0] as? ArchivedSet)?.members == members)
    #expect((kept[1] as? ArchivedDictionary)?.keys == keys.map { AnyHashable($0) })
    #expect((kept[1] as? ArchivedDictionary)?.values.compactMap { $0 as? Int } == Array(0..<keys.count))
    // Archived again: NS.objects and NS.keys in the order read.
    #expect(try Self.reArchivedDifference(archive) == nil)
    // Equality is not about order.
    #expect(ArchivedSet(members.reversed()) == ArchivedSet(members))
    // Asked for as plain types, they convert.
    let unarchiver = try KeyedUnarchiver(archive: archive)
    unarchiver.preservesArchivedForm = true
    let typed = try #require(try unarchiver.decode([Any].self, forKey: "root"))
    #expect(typed.count == 2)
    let plainSet = try #require(KeyedUnarchiver.plainValue(typed[0]) as? Set<Int>)
    #expect(plainSet == Set(members.compactMap { $0 as? Int }))
  }

  @Test func timeZoneRulesAreKept() throws {
    let rules = Data("TZif2 not really".utf8)
    let archive = try Self.archive([ArchivedTimeZone(identifier: "GMT", data: rules), TimeZone(secondsFromGMT: 3600)!] as [Any])
    let kept = try #require(try Self.decode(archive, preserving: true) as? [Any])
    let zone = try #require(kept[0] as? ArchivedTimeZone)
    #expect(zone.identifier == "GMT" && zone.data == rules)
    #expect(zone.timeZone?.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: 0)) == 0)
    #expect((kept[1] as? ArchivedTimeZone)?.data == nil)
    #expect(try Self.reArchivedDifference(archive) == nil)
    // The rules are an NSMutableData object, as Apple writes them.
    let objects = try #require(archive["$objects"]?.arrayValue)
    #expect(objects.contains { $0["$classname"]?.stringValue == "NSMutableData" })

    // Default decoding: TimeZone, the rules dropped, written back as $null.
    let plain = try #require(try Self.decode(archive, preserving: false) as? [Any])
    #expect((plain[0] as? TimeZone)?.identifier == "GMT")
    // Asked for by type, in either mode.
    let single = try Self.archive(ArchivedTimeZone(identifier: "GMT", data: rules))
    let unarchiver = try KeyedUnarchiver(archive: single)
    #expect(try unarchiver.decode(ArchivedTimeZone.self, forKey: "root")?.data == nil)
    let keeping = try KeyedUnarchiver(archive: single)
    keeping.preservesArchivedForm = true
    #expect(try keeping.decode(ArchivedTimeZone.self, forKey: "root")?.data == rules)
    #expect(try keeping.decode(TimeZone.self, forKey: "root")?.identifier == "GMT")
  }

  @Test func equalInstancesStayApartAndSharedOnesShared() throws {
    // Two NSLocale objects with one identifier, two string entries of one value, and one zone
    // referenced twice: Apple's archiver writes instances, not values.
    let archive = Self.handMade(
      "NSArray", ["NS.objects": [.uid(3), .uid(6), .uid(7), .uid(8), .uid(9), .uid(9)]],
      extra: [
        ["NS.identifier": .uid(4), "$class": .uid(5)], "ja-JP", ["$classname": "NSLocale", "$classes": ["NSLocale", "NSObject"]],
        ["NS.identifier": .uid(4), "$class": .uid(5)], "ja-JP", "x",
        ["NS.name": .uid(10), "NS.data": .uid(0), "$class": .uid(11)], "GMT",
        ["$classname": "NSTimeZone", "$classes": ["NSTimeZone", "NSObject"]],
      ])
    let kept = try #require(try Self.decode(archive, preserving: true) as? [Any])
    #expect(kept[0] is ArchivedLocale && kept[2] is ArchivedString && kept[4] is ArchivedTimeZone)
    #expect(try Self.reArchivedDifference(archive) == nil)
    // By default: values, merged when equal (the difference the option exists for).
    let plain = try #require(try Self.decode(archive, preserving: false) as? [Any])
    #expect(plain[0] is Locale && plain[2] as? String == "ja-JP")
    #expect(ArchiveGraph.difference(archive, try Self.archive(plain)) != nil)
  }

  @Test func attributedStringsKeepTheirDictionaryOrder() throws {
    // Two runs whose attribute dictionaries list their keys in opposite orders.
    let archive = Self.handMade(
      "NSAttributedString", ["NSString": .uid(3), "NSAttributes": .uid(4), "NSAttributeInfo": .uid(11)],
      extra: [
        "ab", ["NS.objects": [.uid(5), .uid(10)], "$class": .uid(13)],
        ["NS.keys": [.uid(6), .uid(7)], "NS.objects": [.uid(8), .uid(9)], "$class": .uid(14)], "Font", "Size", "Times", 12,
        ["NS.keys": [.uid(7), .uid(6)], "NS.objects": [.uid(9), .uid(8)], "$class": .uid(14)],
        ["NS.data": .data(Data([1, 0, 1, 1])), "$class": .uid(12)],
        ["$classname": "NSMutableData", "$classes": ["NSMutableData", "NSData", "NSObject"]],
        ["$classname": "NSMutableArray", "$classes": ["NSMutableArray", "NSArray", "NSObject"]],
        ["$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]],
      ])
    let text = try #require(try Self.decode(archive, preserving: true) as? ArchivedAttributedString)
    #expect(text.runs.count == 2 && text.runs[1].attributes["Size"] as? Int == 12)
    let again = try Self.archive(text)
    #expect(ArchiveGraph.difference(archive, again) == nil)
    // Changed attributes are written from the change, not from the kept form.
    var changed = text
    changed.runs[1].attributes["Size"] = 13
    let rewritten = try #require(try Self.decode(try Self.archive(changed), preserving: false) as? ArchivedAttributedString)
    #expect(rewritten.runs[1].attributes["Size"] as? Int == 13)
  }

  @Test func secureDecodingStillChecksTheArchivedClasses() throws {
    let archive = try Self.archive([ArchiveMutable([Date(timeIntervalSinceReferenceDate: 0)] as [Any]), ArchiveMutable(ArchivedSet([1, 2]))] as [Any])
    // An NSDate inside, where only strings are asked for: refused, with or without the option.
    for preserving in [false, true] {
      #expect(throws: KeyedArchiveError.self) { try Self.decode(archive, preserving: preserving, secureAs: [[[String]].self]) }
    }
    // Asked for by their plain types: the classes admitted, the values converted.
    let unarchiver = try KeyedUnarchiver(archive: archive)
    unarchiver.preservesArchivedForm = true
    unarchiver.requiresSecureCoding = true
    let decoded = try #require(try unarchiver.decodeObject(of: [[Any].self, [Date].self, Set<Int>.self], forKey: "root") as? [Any])
    #expect((decoded[0] as? ArchiveMutable<[Any]>)?.value.first as? Date == Date(timeIntervalSinceReferenceDate: 0))
    #expect((decoded[1] as? ArchiveMutable<ArchivedSet>)?.value == ArchivedSet([1, 2]))
    // A time zone where none is allowed is refused; asked for as ArchivedTimeZone it is allowed.
    let zone = try Self.archive(ArchivedTimeZone(identifier: "GMT", data: Data([1])))
    #expect(throws: KeyedArchiveError.self) { try Self.decode(zone, preserving: true, secureAs: [String.self]) }
    #expect((try Self.decode(zone, preserving: true, secureAs: [ArchivedTimeZone.self]) as? ArchivedTimeZone)?.data == Data([1]))
    // Unregistered or unsupported classes stay refused: a custom class name is unknown.
    let custom = Self.handMade("Unknown", [:], extra: [])
    #expect(throws: KeyedArchiveError.self) { try Self.decode(custom, preserving: true, secureAs: [[Any].self]) }
  }

  @Test func defaultDecodingIsUnchanged() throws {
    let root: [Any] = [
      ArchiveMutable("s"), ArchiveMutable([1] as [Any]), Set([1, 2]), ["a": 1], ArchiveMutable(ArchivedSet([3])),
      TimeZone(identifier: "GMT")!, Locale(identifier: "en_001"),
    ]
    let decoded = try #require(try KeyedUnarchiver.unarchiveTopLevelObject(from: KeyedArchiver.archivedData(withRootObject: root)) as? [Any])
    #expect(decoded[0] as? String == "s")
    #expect(decoded[1] is [Any] && !(decoded[1] is ArchiveMutable<[Any]>))
    #expect(decoded[2] as? Set<AnyHashable> == [1, 2])
    #expect(decoded[3] as? [AnyHashable: Int] == ["a": 1])
    #expect(decoded[4] as? Set<AnyHashable> == [3])
    #expect(decoded[5] is TimeZone && decoded[6] is Locale)
    #expect(!decoded.contains { $0 is any ArchivePreservedForm })
  }
}
