import Foundation
import Synchronization
import Testing
import TestSupport

import KeyedArchive
import PropertyLists

// The attacks on keyed archives, each of which must end in a KeyedArchiveError of the right
// code: never a crash, a hang, an unbounded allocation, or an object of a class nobody allowed.

/// Counts how many instances of the tripwire classes were ever created from archives.
private let tripwires = Atomic<Int>(0)

/// A class the application decodes, which supports secure coding.
class Document: ArchiveEncodable, ArchiveDecodable {
  let title: String
  init(title: String) { self.title = title }
  required init(coder: ArchiveDecoder) throws { title = try coder.decodeRequired(String.self, forKey: "title") }
  func encode(with coder: ArchiveEncoder) throws { try coder.encode(title, forKey: "title") }
}

/// A registered subclass that did not opt in to secure coding itself (CVE-2019-8646's shape: a
/// data-like subclass whose initializer does something dangerous).
final class RemoteDocument: Document {
  required init(coder: ArchiveDecoder) throws {
    tripwires.add(1, ordering: .relaxed)
    try super.init(coder: coder)
  }
  override init(title: String) { super.init(title: title) }
}

/// A registered subclass that did opt in.
final class SignedDocument: Document {}

/// A registered class that is never allowed anywhere below.
final class Launcher: ArchiveEncodable, ArchiveDecodable {
  init() {}
  init(coder: ArchiveDecoder) throws { tripwires.add(1, ordering: .relaxed) }
  func encode(with coder: ArchiveEncoder) throws {}
}

/// Decodes one shared reference under two keys, as two different classes.
final class TwoViews: ArchiveEncodable, ArchiveDecodable {
  let shared: AnyObject
  let first: Category?
  let second: Item?
  init(shared: AnyObject) {
    self.shared = shared
    first = nil
    second = nil
  }
  init(coder: ArchiveDecoder) throws {
    shared = Launcher()
    first = try coder.decode(Category.self, forKey: "first")
    second = try coder.decode(Item.self, forKey: "second")
  }
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(shared, forKey: "first")
    try coder.encode(shared, forKey: "second")
  }
}

/// Two Foundation views of one reference: an array of strings, then an index set.
struct ArrayThenIndexSet: ArchiveValueCodable {
  var array: [String]?
  var indexes: ArchivedIndexSet?
  init() {}
  init(coder: ArchiveDecoder) throws {
    array = try coder.decode([String].self, forKey: "a")
    indexes = try coder.decode(ArchivedIndexSet.self, forKey: "b")
  }
  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(["x"], forKey: "a")
    try coder.encode(["x"], forKey: "b")
  }
}

/// An in-place class with an invariant across its keys, checked once the graph is complete.
final class Ledger: ArchiveEncodable, ArchiveDecodableInPlace, ArchiveDecodingCompletion {
  var declaredCount = 0
  var entries: [Int] = []
  var owner: Ledger?
  init() {}
  func encode(with coder: ArchiveEncoder) throws {
    coder.encode(declaredCount, forKey: "count")
    try coder.encode(entries, forKey: "entries")
    try coder.encode(owner, forKey: "owner")
  }
  func decode(from coder: ArchiveDecoder) throws {
    declaredCount = try coder.decodeInteger(forKey: "count")
    owner = try coder.decode(Ledger.self, forKey: "owner")
    entries = try coder.decode([Int].self, forKey: "entries") ?? []
  }
  func archiveDidFinishDecoding() throws {
    guard entries.count == declaredCount else {
      throw KeyedArchiveError(.corruptArchive, "Ledger declares \(declaredCount) entries but holds \(entries.count)")
    }
  }
}

private let secureRegistry: ArchiveClassRegistry = {
  var registry = testRegistry
  registry.register(Document.self, as: "Document", supportsSecureCoding: true)
  registry.register(RemoteDocument.self, as: "RemoteDocument")
  registry.register(SignedDocument.self, as: "SignedDocument", supportsSecureCoding: true)
  registry.register(Launcher.self, as: "Launcher", supportsSecureCoding: true)
  registry.register(TwoViews.self, as: "TwoViews", supportsSecureCoding: true)
  registry.register(ArrayThenIndexSet.self, as: "ArrayThenIndexSet", supportsSecureCoding: true)
  registry.register(Ledger.self, as: "Ledger", supportsSecureCoding: true)
  return registry
}()

/// Replaces `$objects` of an archive.
private func withObjects(_ data: Data, _ edit: (inout [PropertyListValue]) -> Void) throws -> PropertyListValue {
  guard case .dictionary(var root) = try PropertyListValue(decoding: data), case .array(var objects)? = root["$objects"] else {
    throw KeyedArchiveError(.corruptArchive, "test archive is not a keyed archive")
  }
  edit(&objects)
  root["$objects"] = .array(objects)
  return .dictionary(root)
}

private func index(ofClass name: String, in objects: [PropertyListValue]) -> Int? {
  objects.firstIndex { $0["$classname"] == .string(name) }
}

@Suite("Secure decoding and hostile archives", .serialized)
struct SecureDecodingTests {
  // MARK: 1. Object substitution

  @Test func registeredButNotAllowedClassesAreRefusedBeforeInstantiation() throws {
    let before = tripwires.load(ordering: .relaxed)
    let launcher = try KeyedArchiver.archivedData(withRootObject: Launcher(), registry: secureRegistry)
    expectError(KeyedArchiveError.self, .classNotAllowed) { try KeyedUnarchiver.unarchivedObject(ofClass: Document.self, from: launcher, registry: secureRegistry) }
    expectError(KeyedArchiveError.self, .classNotAllowed) {
      try KeyedUnarchiver.unarchivedObject(ofClasses: [String.self, [Any].self, Category.self], from: launcher, registry: secureRegistry)
    }
    // decodeObject(forKey:) names no class: in secure mode only inline values pass.
    let unarchiver = try KeyedUnarchiver(data: launcher, registry: secureRegistry)
    unarchiver.requiresSecureCoding = true
    unarchiver.requiresSecureCoding = false  // cannot be turned off again
    #expect(unarchiver.requiresSecureCoding)
    expectError(KeyedArchiveError.self, .classNotAllowed) { try unarchiver.decodeObject(forKey: "root") }
    #expect(tripwires.load(ordering: .relaxed) == before, "a refused class was instantiated")
  }

  @Test func substitutedMembersOfCollectionsAreRefused() throws {
    // A Store whose categories list holds an Item instead of a Category.
    let data = try KeyedArchiver.archivedData(withRootObject: Store.make(count: 3), registry: secureRegistry)
    let archive = try withObjects(data) { objects in
      let item = objects.firstIndex { $0["serialNumber"] != nil }!
      let list = objects.firstIndex { ($0["NS.objects"]?.arrayValue?.count ?? 0) == 50 }!
      guard case .dictionary(var dictionary) = objects[list], case .array(var categories)? = dictionary["NS.objects"] else { return }
      categories[0] = .uid(UInt64(item))
      dictionary["NS.objects"] = .array(categories)
      objects[list] = .dictionary(dictionary)
    }
    let secure = try KeyedUnarchiver(archive: archive, registry: secureRegistry)
    secure.requiresSecureCoding = true
    expectError(KeyedArchiveError.self, .classNotAllowed) { try secure.decode(Store.self, forKey: "root") }
    // Without secure coding the class is instantiated but the typed request still fails.
    expectError(KeyedArchiveError.self, .typeMismatch) { try KeyedUnarchiver(archive: archive, registry: secureRegistry).decode(Store.self, forKey: "root") }
  }

  @Test func unregisteredClassesAreNeverLookedUpGlobally() throws {
    let archive = handMadeArchive(["$null", ["$class": .uid(2)], classEntry("NSTask", "NSObject")])
    expectError(KeyedArchiveError.self, .unknownClass) { try KeyedUnarchiver(archive: archive, registry: secureRegistry).decodeObject(forKey: "root") }
  }

  // MARK: 2. Subclass smuggling

  @Test func subclassesMustOptInThemselves() throws {
    let before = tripwires.load(ordering: .relaxed)
    let remote = try KeyedArchiver.archivedData(withRootObject: RemoteDocument(title: "x"), registry: secureRegistry)
    let error = expectError(KeyedArchiveError.self, .classNotAllowed) {
      try KeyedUnarchiver.unarchivedObject(ofClass: Document.self, from: remote, registry: secureRegistry)
    }
    #expect(error?.description.contains("secure coding") == true)
    #expect(tripwires.load(ordering: .relaxed) == before)
    // The same subclass inside an allowed collection is refused too.
    let list = try KeyedArchiver.archivedData(withRootObject: [Document(title: "a"), RemoteDocument(title: "b")], registry: secureRegistry)
    expectError(KeyedArchiveError.self, .classNotAllowed) { try KeyedUnarchiver.unarchivedObject(ofClass: [Document].self, from: list, registry: secureRegistry) }
    #expect(tripwires.load(ordering: .relaxed) == before)
    // A subclass that opted in is a kind of the allowed class.
    let signed = try KeyedArchiver.archivedData(withRootObject: SignedDocument(title: "s"), registry: secureRegistry)
    let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: Document.self, from: signed, registry: secureRegistry)
    #expect(decoded is SignedDocument && decoded?.title == "s")
  }

  @Test func unknownSubclassNamesFallBackToTheRegisteredAncestorOnly() throws {
    // "PrivateDocument" claims Document as its superclass: only Document's initializer runs.
    let archive = handMadeArchive(["$null", ["title": .uid(2), "$class": .uid(3)], "t",
                                   classEntry("PrivateDocument", "Document", "NSObject")])
    let unarchiver = try KeyedUnarchiver(archive: archive, registry: secureRegistry)
    unarchiver.requiresSecureCoding = true
    let decoded = try unarchiver.decode(Document.self, forKey: "root")
    #expect(decoded.map { type(of: $0) == Document.self } == true)
  }

  // MARK: 3. Partially initialised objects through cycles

  @Test func cyclesIntoOneStepInitializersAreRefused() throws {
    // Node decodes in init(coder:): a reference back to it cannot be served.
    let archive = handMadeArchive([
      "$null", ["label": .uid(3), "next": .uid(2), "$class": .uid(4)], ["label": .uid(3), "next": .uid(1), "$class": .uid(4)], "n",
      classEntry("Node", "NSObject"),
    ])
    expectError(KeyedArchiveError.self, .cycle) { try KeyedUnarchiver(archive: archive, registry: secureRegistry).decodeObject(forKey: "root") }
  }

  @Test func valuesThatContainThemselvesAreRefused() throws {
    let cases: [(String, PropertyLists.PropertyListValue, PropertyListValue)] = [
      ("NSArray", ["NS.objects": [.uid(1)], "$class": .uid(2)], classEntry("NSArray", "NSObject")),
      ("NSDictionary", ["NS.keys": [.uid(3)], "NS.objects": [.uid(1)], "$class": .uid(2)], classEntry("NSDictionary", "NSObject")),
      ("NSSet", ["NS.objects": [.uid(1)], "$class": .uid(2)], classEntry("NSSet", "NSObject")),
      ("NSOrderedSet", ["NS.object.0": .uid(1), "$class": .uid(2)], classEntry("NSOrderedSet", "NSObject")),
      ("NSURL", ["NS.base": .uid(1), "NS.relative": .uid(3), "$class": .uid(2)], classEntry("NSURL", "NSObject")),
      ("NSAttributedString", ["NSString": .uid(3), "NSAttributes": .uid(1), "$class": .uid(2)], classEntry("NSAttributedString", "NSObject")),
      ("NSCountedSet", ["NS.count": 1, "NS.object0": .uid(1), "NS.count0": 1, "$class": .uid(2)], classEntry("NSCountedSet", "NSObject")),
    ]
    for (name, object, entry) in cases {
      let archive = handMadeArchive(["$null", object, entry, "k"])
      expectError(KeyedArchiveError.self, .cycle, "\(name)") { try KeyedUnarchiver(archive: archive, registry: secureRegistry).decodeObject(forKey: "root") }
    }
  }

  @Test func inPlaceObjectsOnCyclesAreCheckedOnceComplete() throws {
    let ledger = Ledger()
    ledger.declaredCount = 2
    ledger.entries = [1, 2]
    ledger.owner = ledger
    let good = try KeyedArchiver.archivedData(withRootObject: ledger, registry: secureRegistry)
    let decoded = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Ledger.self, from: good, registry: secureRegistry))
    #expect(decoded.owner === decoded && decoded.entries == [1, 2])
    // A hostile count that the entries do not back is caught after decoding, not trusted.
    let archive = try withObjects(good) { objects in
      guard case .dictionary(var dictionary) = objects[1] else { return }
      dictionary["count"] = 1_000_000
      objects[1] = .dictionary(dictionary)
    }
    let unarchiver = try KeyedUnarchiver(archive: archive, registry: secureRegistry)
    unarchiver.requiresSecureCoding = true
    _ = try unarchiver.decode(Ledger.self, forKey: "root")
    expectError(KeyedArchiveError.self, .corruptArchive) { try unarchiver.finishDecoding() }
  }

  // MARK: 4. Type confusion on cached objects

  @Test func cachedObjectsAreRecheckedForEveryKey() throws {
    let category = Category(name: "c", code: 1)
    let data = try KeyedArchiver.archivedData(withRootObject: TwoViews(shared: category), registry: secureRegistry)
    let root = try rootObject(data).object
    #expect(root["first"] == root["second"], "the archive shares one UID under both keys")
    // Secure: the second key asks for Item; the cached Category must not slip through.
    expectError(KeyedArchiveError.self, .classNotAllowed) { try KeyedUnarchiver.unarchivedObject(ofClass: TwoViews.self, from: data, registry: secureRegistry) }
    // Not secure: the typed request still refuses the cached object.
    expectError(KeyedArchiveError.self, .typeMismatch) { try KeyedUnarchiver.unarchiveTopLevelObject(from: data, registry: secureRegistry) }

    let foundation = try KeyedArchiver.archivedData(withRootObject: ArrayThenIndexSet(), registry: secureRegistry)
    let shared = try withObjects(foundation) { objects in
      guard case .dictionary(var dictionary) = objects[1] else { return }
      dictionary["b"] = dictionary["a"]
      objects[1] = .dictionary(dictionary)
    }
    let unarchiver = try KeyedUnarchiver(archive: shared, registry: secureRegistry)
    unarchiver.requiresSecureCoding = true
    expectError(KeyedArchiveError.self, .classNotAllowed) { try unarchiver.decode(ArrayThenIndexSet.self, forKey: "root") }
  }

  @Test func cachedObjectsUnderConstructionAreRechecked() throws {
    // An Item whose category key refers back to the Item itself, still being decoded: the
    // in-progress object must be checked against Category at the back reference.
    let archive = handMadeArchive([
      "$null", ["name": .uid(3), "serialNumber": .uid(3), "dateCreated": .uid(4), "category": .uid(1), "$class": .uid(2)],
      classEntry("Item", "NSObject"), "i", ["NS.time": 0.0, "$class": .uid(5)], classEntry("NSDate", "NSObject"),
    ])
    let unarchiver = try KeyedUnarchiver(archive: archive, registry: secureRegistry)
    unarchiver.requiresSecureCoding = true
    expectError(KeyedArchiveError.self, .classNotAllowed) { try unarchiver.decode(Item.self, forKey: "root") }
    expectError(KeyedArchiveError.self, .typeMismatch) { try KeyedUnarchiver(archive: archive, registry: secureRegistry).decode(Item.self, forKey: "root") }
  }

  // MARK: 5. Structural garbage

  static let garbage: [(String, PropertyListValue, KeyedArchiveError.Code)] = [
    ("root reference past $objects", handMadeArchive(["$null"], top: ["root": .uid(7)]), .badReference),
    ("member reference past $objects", handMadeArchive(["$null", ["NS.objects": [.uid(99)], "$class": .uid(2)], classEntry("NSArray", "NSObject")]), .badReference),
    ("huge UID", handMadeArchive(["$null"], top: ["root": .uid(UInt64.max)]), .badReference),
    ("$class missing", handMadeArchive(["$null", ["NS.objects": []]]), .corruptArchive),
    ("$class is a string", handMadeArchive(["$null", ["NS.objects": [], "$class": "NSArray"]]), .corruptArchive),
    ("$class is an integer", handMadeArchive(["$null", ["NS.objects": [], "$class": 2], classEntry("NSArray", "NSObject")]), .corruptArchive),
    ("$class points at a string", handMadeArchive(["$null", ["$class": .uid(2)], "NSArray"]), .badReference),
    ("$class points at $null", handMadeArchive(["$null", ["$class": .uid(0)]]), .badReference),
    ("$class points past $objects", handMadeArchive(["$null", ["$class": .uid(5)]]), .badReference),
    ("$classname missing", handMadeArchive(["$null", ["$class": .uid(2)], ["$classes": ["NSArray"]]]), .corruptArchive),
    ("$classname not a string", handMadeArchive(["$null", ["$class": .uid(2)], ["$classname": 7, "$classes": ["NSArray"]]]), .corruptArchive),
    ("$class points at an object", handMadeArchive(["$null", ["$class": .uid(1)]]), .corruptArchive),
    ("NS.keys / NS.objects lengths differ",
     handMadeArchive(["$null", ["NS.keys": [.uid(3), .uid(3)], "NS.objects": [.uid(3)], "$class": .uid(2)], classEntry("NSDictionary", "NSObject"), "k"]),
     .corruptArchive),
    ("NS.objects not an array", handMadeArchive(["$null", ["NS.objects": "x", "$class": .uid(2)], classEntry("NSArray", "NSObject")]), .typeMismatch),
    ("NS.objects holds a non-reference", handMadeArchive(["$null", ["NS.objects": [1], "$class": .uid(2)], classEntry("NSArray", "NSObject")]), .typeMismatch),
    ("$null member", handMadeArchive(["$null", ["NS.objects": [.uid(0)], "$class": .uid(2)], classEntry("NSArray", "NSObject")]), .corruptArchive),
    ("\"$null\" string elsewhere", handMadeArchive(["$null", ["NS.objects": [.uid(3)], "$class": .uid(2)], classEntry("NSArray", "NSObject"), "$null"]), .corruptArchive),
    ("integer where a string is required",
     handMadeArchive(["$null", ["name": .uid(3), "code": 1, "$class": .uid(2)], classEntry("Category", "NSObject"), 5]), .typeMismatch),
    ("string where an integer is required",
     handMadeArchive(["$null", ["name": .uid(3), "code": "one", "$class": .uid(2)], classEntry("Category", "NSObject"), "n"]), .typeMismatch),
    ("count beyond Int.max",
     handMadeArchive(["$null", ["NS.count": .integer(PropertyListInteger(UInt64.max)), "$class": .uid(2)], classEntry("NSCountedSet", "NSObject")]), .corruptArchive),
    ("NSDate without NS.time", handMadeArchive(["$null", ["NS.time": "soon", "$class": .uid(2)], classEntry("NSDate", "NSObject")]), .corruptArchive),
    ("NSUUID of 15 bytes", handMadeArchive(["$null", ["NS.uuidbytes": .data(Data(count: 15)), "$class": .uid(2)], classEntry("NSUUID", "NSObject")]), .corruptArchive),
    ("NSRangeCount a string", handMadeArchive(["$null", ["NSRangeCount": "2", "$class": .uid(2)], classEntry("NSIndexSet", "NSObject")]), .typeMismatch),
    ("NSRangeData cut mid-varint",
     handMadeArchive(["$null", ["NSRangeCount": 2, "NSRangeData": .uid(3), "$class": .uid(2)], classEntry("NSIndexSet", "NSObject"), .data(Data([1, 2, 3, 0x80]))]),
     .corruptArchive),
    ("NSRangeData varint over 64 bits",
     handMadeArchive(["$null", ["NSRangeCount": 2, "NSRangeData": .uid(3), "$class": .uid(2)], classEntry("NSIndexSet", "NSObject"),
                      .data(Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 1, 1, 1]))]), .corruptArchive),
    ("index-set range past Int.max",
     handMadeArchive(["$null", ["NSRangeCount": 1, "NSLocation": .integer(Int.max), "NSLength": 2, "$class": .uid(2)], classEntry("NSIndexSet", "NSObject")]),
     .corruptArchive),
    ("attribute run past the string",
     handMadeArchive(["$null", ["NSString": .uid(3), "NSAttributes": .uid(4), "NSAttributeInfo": .uid(6), "$class": .uid(2)],
                      classEntry("NSAttributedString", "NSObject"), "abc", ["NS.objects": [.uid(7)], "$class": .uid(5)], classEntry("NSArray", "NSObject"),
                      .data(Data([9, 0])), ["NS.keys": [], "NS.objects": [], "$class": .uid(8)], classEntry("NSDictionary", "NSObject")]),
     .corruptArchive),
    ("attribute run naming a missing dictionary",
     handMadeArchive(["$null", ["NSString": .uid(3), "NSAttributes": .uid(4), "NSAttributeInfo": .uid(6), "$class": .uid(2)],
                      classEntry("NSAttributedString", "NSObject"), "abc", ["NS.objects": [.uid(7)], "$class": .uid(5)], classEntry("NSArray", "NSObject"),
                      .data(Data([3, 1])), ["NS.keys": [], "NS.objects": [], "$class": .uid(8)], classEntry("NSDictionary", "NSObject")]),
     .corruptArchive),
    ("$objects holds a date", handMadeArchive(["$null", .date(Date())]), .corruptArchive),
    ("$objects holds a bare UID", handMadeArchive(["$null", .uid(1)]), .corruptArchive),
    ("NSValue special kind a string", handMadeArchive(["$null", ["NS.special": "3", "$class": .uid(2)], classEntry("NSValue", "NSObject")]), .typeMismatch),
    ("NSValue rect without its string", handMadeArchive(["$null", ["NS.special": 3, "$class": .uid(2)], classEntry("NSValue", "NSObject")]), .corruptArchive),
  ]

  @Test func structuralGarbageFailsWithItsCode() {
    for (name, archive, code) in Self.garbage {
      expectError(KeyedArchiveError.self, code, "\(name)") {
        try KeyedUnarchiver(archive: archive, registry: secureRegistry).decodeObject(forKey: "root")
      }
    }
  }

  @Test func containersThatAreNotKeyedArchivesAreCorrupt() {
    let notArchives: [(String, PropertyListValue)] = [
      ("an array", ["$null"]),
      ("no $archiver", ["$version": 100000, "$top": ["root": .uid(1)], "$objects": ["$null"]]),
      ("another $archiver", ["$archiver": "NSArchiver", "$version": 100000, "$top": ["root": .uid(1)], "$objects": ["$null"]]),
      ("another $version", ["$archiver": "NSKeyedArchiver", "$version": 99999, "$top": ["root": .uid(1)], "$objects": ["$null"]]),
      ("$top not a dictionary", ["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": [.uid(1)], "$objects": ["$null"]]),
      ("$objects not an array", ["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": ["root": .uid(1)], "$objects": ["a": 1]]),
      ("$objects[0] not $null", handMadeArchive(["null"])),
      ("$objects empty", handMadeArchive([])),
    ]
    for (name, archive) in notArchives {
      expectError(KeyedArchiveError.self, .corruptArchive, "\(name)") { try KeyedUnarchiver(archive: archive) }
    }
    expectError(KeyedArchiveError.self, .corruptArchive) { try KeyedUnarchiver(data: Data("not a plist".utf8)) }
  }

  @Test func theStringDollarNullRoundTripsAsAnObject() throws {
    // Written inline it would read back as nil; Stasis writes it as {NS.string: "$null"}.
    let data = try KeyedArchiver.archivedData(withRootObject: ["$null", "x"] as [String])
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: [String].self, from: data) == ["$null", "x"])
    #expect(try archivedObjects(data).dropFirst().contains("$null") == false)
  }

  @Test func everyTruncationOfABinaryArchiveFailsCleanly() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: Store.make(count: 3), registry: secureRegistry)
    for length in 0..<data.count {
      // Corrupt, or over the limits when the cut leaves a trailer claiming absurd counts.
      let error = #expect(throws: KeyedArchiveError.self, "cut to \(length) bytes, the archive still decoded") {
        try KeyedUnarchiver.unarchivedObject(ofClass: Store.self, from: data.prefix(length), registry: secureRegistry)
      }
      if let error {
        #expect(error.code == .corruptArchive || error.code == .limitExceeded, "cut to \(length) bytes: \(error)")
      }
    }
  }

  /// Random damage to real archives: any outcome but a crash or a non-KeyedArchiveError.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func randomDamageNeverCrashes(batch: UInt64) throws {
    var sources: [Data] = [
      try KeyedArchiver.archivedData(withRootObject: Store.make(count: 4), registry: secureRegistry),
      try KeyedArchiver.archivedData(withRootObject: [
        "o": ArchivedOrderedSet([1, 2]), "r": ArchivedRect(x: 1, y: 2, width: 3, height: 4), "i": ArchivedIndexSet([1, 5, 6, 300]),
        "t": ArchivedAttributedString(string: "ab", runs: [.init(range: 0..<1, attributes: ["k": 1]), .init(range: 1..<2, attributes: [:])]),
        "p": IndexPath(indexes: [1, 2, 3]), "c": ArchivedCountedSet([1, 1]), "e": ArchivedError(domain: "d", code: 1, userInfo: ["u": URL(string: "https://a.b")!]),
        "z": TimeZone(secondsFromGMT: 60)!, "v": ArchivedTypedValue(objCType: "[1i]", fields: [.array(ArchivedCArray(elementType: 105, elementSize: 4, elements: [1]))]),
      ] as [String: Any]),
    ]
    if Corpus.isAvailable {
      sources += Corpus.files(in: "keyedarchive").compactMap { try? $0.data() }
    }
    let replacements: [PropertyListValue] = [
      .uid(0), .uid(1), .uid(2), .uid(9999), "$null", "x", 0, -1, .integer(PropertyListInteger(UInt64.max)), .real(.nan), true,
      .data(Data([0xFF, 0xFF])), [], [.uid(1)], ["$class": .uid(1)], ["NS.objects": [.uid(1), .uid(1)]], .date(Date()),
    ]
    for step in 0..<250 as Range<UInt64> {
      let seed = batch * 1000 + step
      var rng = SplitMix64(seed: seed)
      let source = sources[Int(rng.next() % UInt64(sources.count))]
      let archive = try withObjects(source) { objects in
        for _ in 0..<(1 + rng.next() % 3) {
          let index = Int(rng.next() % UInt64(objects.count))
          let replacement = replacements[Int(rng.next() % UInt64(replacements.count))]
          if case .dictionary(var dictionary) = objects[index], !dictionary.isEmpty, rng.next() % 2 == 0 {
            let key = dictionary.keys[Int(rng.next() % UInt64(dictionary.count))]
            dictionary[key] = replacement
            objects[index] = .dictionary(dictionary)
          } else {
            objects[index] = replacement
          }
        }
      }
      for secure in [false, true] {
        do {
          let unarchiver = try KeyedUnarchiver(archive: archive, registry: corpusRegistryWithSecure)
          unarchiver.requiresSecureCoding = secure
          _ = try unarchiver.decodeObject(of: [Store.self, [String: Any].self, [Any].self, ArchivedMeasurement.self, TextCheckingResultArchive.self,
                                               DateIntervalFormatterArchive.self, ArchivedAttributedString.self, ArchivedIndexSet.self], forKey: "root")
          try unarchiver.finishDecoding()
        } catch is KeyedArchiveError {
        } catch {
          Issue.record("seed \(seed): \(type(of: error)) \(error)")
        }
      }
    }
  }

  // MARK: 6. Resource exhaustion

  @Test func deepNestingHitsTheDepthLimit() throws {
    // 5000 arrays, each holding the next.
    func nested(_ levels: Int) -> PropertyListValue {
      var objects: [PropertyListValue] = ["$null", classEntry("NSArray", "NSObject")]
      for level in 0..<levels { objects.append(["NS.objects": [.uid(UInt64(level + 3))], "$class": .uid(1)]) }
      objects.append("bottom")
      return handMadeArchive(objects, top: ["root": .uid(2)])
    }
    let error = expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedUnarchiver(archive: nested(5000)).decodeObject(forKey: "root") }
    #expect(error?.description.contains("512") == true)
    // Within a raised limit a deeper archive decodes (decoding recurses per level, so limits
    // far above the default need a large stack).
    var limits = KeyedUnarchiver.Limits()
    limits.maximumDepth = 800
    var value = try KeyedUnarchiver(archive: nested(700), limits: limits).decodeObject(forKey: "root")
    var depth = 0
    while let array = value as? [Any] {
      value = array.first
      depth += 1
    }
    #expect(depth == 700 && value as? String == "bottom")
  }

  @Test func deepGraphsHitTheArchiversDepthLimit() throws {
    var value: [Any] = ["leaf"]
    for _ in 0..<600 { value = [value] }
    expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedArchiver.archivedData(withRootObject: value) }
    let head = Node(label: "0")
    var tail = head
    for index in 1..<600 {
      let next = Node(label: "\(index)")
      tail.next = next
      tail = next
    }
    expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedArchiver.archivedData(withRootObject: head, registry: secureRegistry) }
  }

  @Test func deepChainsOfOneStepObjectsHitTheDepthLimit() throws {
    var objects: [PropertyListValue] = ["$null", classEntry("Node", "NSObject"), "n"]
    for level in 0..<3000 { objects.append(["label": .uid(2), "next": .uid(UInt64(level + 4)), "$class": .uid(1)]) }
    objects.append(["label": .uid(2), "next": .uid(0), "$class": .uid(1)])
    let archive = handMadeArchive(objects, top: ["root": .uid(3)])
    expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedUnarchiver(archive: archive, registry: secureRegistry).decodeObject(forKey: "root") }
  }

  @Test(.timeLimit(.minutes(1)))
  func exponentialFanOutIsMemoised() throws {
    // Each array holds the next one twice: 2^200 paths, 200 objects.
    var objects: [PropertyListValue] = ["$null", classEntry("NSArray", "NSObject")]
    for level in 0..<200 {
      let next = PropertyListValue.uid(UInt64(level + 3))
      objects.append(["NS.objects": [next, next], "$class": .uid(1)])
    }
    objects.append(["NS.keys": [.uid(1 + 203)], "NS.objects": [.uid(1 + 203)], "$class": .uid(203)])
    objects.append(classEntry("NSDictionary", "NSObject"))
    objects.append("leaf")
    let archive = handMadeArchive(objects, top: ["root": .uid(2)])
    var value = try KeyedUnarchiver(archive: archive).decodeObject(forKey: "root")
    var depth = 0
    while let array = value as? [Any] {
      #expect(array.count == 2)
      value = array[1]
      depth += 1
    }
    #expect(depth == 200 && (value as? [AnyHashable: Any])?["leaf"] as? String == "leaf")
    // Secure decoding re-checks each shared reference without re-decoding it.
    let unarchiver = try KeyedUnarchiver(archive: archive)
    unarchiver.requiresSecureCoding = true
    #expect(try unarchiver.decodeObject(of: [[Any].self, [String: String].self], forKey: "root") != nil)
  }

  @Test func hugeCountsAreCheckedAgainstWhatTheArchiveHolds() {
    let cases: [(String, PropertyListValue)] = [
      ("NSCountedSet count", handMadeArchive(["$null", ["NS.count": .integer(1 << 40), "$class": .uid(2)], classEntry("NSCountedSet", "NSObject")])),
      ("NSRangeCount", handMadeArchive(["$null", ["NSRangeCount": .integer(1 << 50), "NSRangeData": .uid(3), "$class": .uid(2)],
                                        classEntry("NSIndexSet", "NSObject"), .data(Data([0, 1, 2, 1]))])),
      ("NSIndexPathLength", handMadeArchive(["$null", ["NSIndexPathLength": .integer(1 << 50), "NSIndexPathData": .uid(3), "$class": .uid(2)],
                                             classEntry("NSIndexPath", "NSObject"), .data(Data([0, 1]))])),
      ("old-style array count", handMadeArchive(["$null", ["NS.count": .integer(1 << 40), "NS.size": 4, "NS.type": 105, "$class": .uid(2)],
                                                 classEntry("_NSKeyedCoderOldStyleArray", "NSObject")])),
      ("negative NSRangeCount", handMadeArchive(["$null", ["NSRangeCount": -5, "$class": .uid(2)], classEntry("NSIndexSet", "NSObject")])),
    ]
    for (name, archive) in cases {
      expectError(KeyedArchiveError.self, .corruptArchive, "\(name)") { try KeyedUnarchiver(archive: archive).decodeObject(forKey: "root") }
    }
  }

  @Test func objectCountAndByteLimitsApply() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: (0..<1000).map { "s\($0)" })
    var limits = KeyedUnarchiver.Limits()
    limits.maximumObjectCount = 500
    expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedUnarchiver(archive: PropertyListValue(decoding: data), limits: limits) }
    expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedUnarchiver(data: data, limits: limits) }  // the plist reader stops first
    limits = KeyedUnarchiver.Limits()
    limits.maximumByteCount = data.count - 1
    expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedUnarchiver(data: data, limits: limits) }
  }

  @Test func giantDataIsRefusedByTheByteLimit() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: Data(count: 4 << 20))
    var limits = KeyedUnarchiver.Limits()
    limits.maximumByteCount = 1 << 20
    expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedUnarchiver.unarchivedObject(ofClass: Data.self, from: data, limits: limits) }
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Data.self, from: data)?.count == 4 << 20)
  }
}

/// The corpus registry with the secure-test classes added.
private let corpusRegistryWithSecure: ArchiveClassRegistry = {
  var registry = corpusRegistry
  registry.register(Store.self, as: "Store", supportsSecureCoding: true)
  registry.register(Category.self, as: "Category", supportsSecureCoding: true)
  registry.register(Item.self, as: "Item", supportsSecureCoding: true)
  registry.register(Node.self, as: "Node")
  return registry
}()

