import Foundation
import KeyedArchive
import PropertyLists
import Testing
import TestSupport

/// `finishEncoding()` writes binary and XML archives straight from the archiver's flat `$objects`
/// table (the binary one telling the writer that the strings of `$objects` are already stored once
/// each, so that it does not unique them again); the bytes must be those of the archive value
/// written as any property list, whatever strings meet the archive's own keys, class names and
/// top-level values, before or after them.
@Suite("Keyed archiver: the writers fed from the flat $objects table")
struct DistinctStringsWriterTests {
  /// Names the archive itself writes as keys, class names or values.
  static let archiveNames = [
    "NS.objects", "NS.keys", "$class", "$classes", "$classname", "NSArray", "NSDictionary", "NSMutableString", "NSObject",
    "NSKeyedArchiver", "$top", "root", "$version", "$objects", "$archiver", "NS.string", "NS.time", "NSDate", "plain", "é",
  ]

  static let formats: [PropertyListFormat] = [.binary, .xml]

  /// The archive's bytes through `finishEncoding()` and through its value written generically.
  static func bothWrites(_ root: Any, format: PropertyListFormat = .binary) throws -> (shortcut: Data, generic: Data) {
    let archiver = KeyedArchiver()
    archiver.outputFormat = format
    try archiver.encodeRootObject(root)
    let shortcut = try archiver.finishEncoding()
    let generic = try archiver.finishedArchive().encoded(as: format)
    return (shortcut, generic)
  }

  @Test(arguments: formats)
  func stringsNamedLikeTheArchivesOwnKeysAndClasses(format: PropertyListFormat) throws {
    // Each name first as a value, then inside dictionaries (keys written after the value)…
    let valuesFirst: [Any] = Self.archiveNames + [Dictionary(uniqueKeysWithValues: Self.archiveNames.map { ($0, 1) })]
    // …and dictionaries first, so that the keys are written before equal values.
    let keysFirst: [Any] = [Dictionary(uniqueKeysWithValues: Self.archiveNames.map { ($0, "v") })] + Self.archiveNames
    for root in [valuesFirst, keysFirst] {
      let (shortcut, generic) = try Self.bothWrites(root, format: format)
      #expect(shortcut == generic)
      #expect((try KeyedUnarchiver.unarchiveTopLevelObject(from: shortcut) as? [Any])?.count == root.count)
    }
  }

  @Test(arguments: formats, 0..<40 as Range<UInt64>)
  func generatedGraphs(format: PropertyListFormat, seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    func name() -> String {
      random.next() % 3 == 0 ? "s\(random.next() % 50)" : Self.archiveNames[Int(random.next() % UInt64(Self.archiveNames.count))]
    }
    func value(depth: Int) -> Any {
      switch random.next() % (depth > 2 ? 8 : 10) {
      case 0, 1: return name()
      case 2: return Int(random.next() % 20) - 5
      case 3: return Date(timeIntervalSinceReferenceDate: Double(random.next() % 10))
      case 4:
        let reals: [Any] = [Double(random.next() % 3) - 1, -0.0, Float(random.next() % 3) / 2]
        return reals[Int(random.next() % 3)]
      case 5: return random.next() % 2 == 0
      case 6: return Data((0..<Int(random.next() % 5)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
      case 7: return random.next() % 4 == 0 ? "$null" : name()
      case 8: return (0..<Int(random.next() % 6)).map { _ in value(depth: depth + 1) }
      default:
        var dictionary: [String: Any] = [:]
        for _ in 0..<Int(random.next() % 6) { dictionary[name()] = value(depth: depth + 1) }
        return dictionary
      }
    }
    let root = (0..<(5 + Int(random.next() % 30))).map { _ in value(depth: 0) }
    let (shortcut, generic) = try Self.bothWrites(root, format: format)
    #expect(shortcut == generic, "seed \(seed)")
  }

  /// Objects that write conditional references — to an object encoded later (resolved to its
  /// UID at the end), to one never encoded (`$null`) — and keys in varied orders.
  final class Node: ArchiveEncodable, ArchiveDecodable {
    let name: String
    var peer: Node?
    var extra: Int?
    init(_ name: String) { self.name = name }
    init(coder: ArchiveDecoder) throws { name = try coder.decodeRequired(String.self, forKey: "name") }
    func encode(with coder: ArchiveEncoder) throws {
      if let extra { coder.encode(extra, forKey: "extra") }
      try coder.encode(name, forKey: "name")
      coder.encodeConditionalObject(peer, forKey: "peer")
    }
  }

  @Test(arguments: formats)
  func conditionalReferencesAndVaryingKeys(format: PropertyListFormat) throws {
    var registry = ArchiveClassRegistry.foundation
    registry.register(Node.self, as: "Node")
    let nodes = (0..<6).map { Node("n\($0)") }
    nodes[0].peer = nodes[4]  // encoded later
    nodes[1].peer = Node("never encoded")
    nodes[2].extra = 7
    nodes[3].peer = nodes[0]  // encoded before
    let archiver = KeyedArchiver(registry: registry)
    archiver.outputFormat = format
    try archiver.encode(objects: nodes, forKey: "root")
    let shortcut = try archiver.finishEncoding()
    #expect(shortcut == (try archiver.finishedArchive().encoded(as: format)))
    let objects = try archivedObjects(shortcut)
    let list = try #require(objects[1]["NS.objects"]?.arrayValue)
    let uids = list.compactMap(\.uidValue)
    #expect(objects[Int(uids[0])]["peer"]?.uidValue == uids[4])
    #expect(objects[Int(uids[1])]["peer"]?.uidValue == 0)
    #expect(objects[Int(uids[3])]["peer"]?.uidValue == uids[0])
    // Each object's own keys, in the order written (binary) or CF's sorted order (XML).
    func keys(_ uid: UInt64) -> [String] { objects[Int(uid)].dictionaryValue?.keys ?? [] }
    let (withExtra, plain) = (["extra", "name", "peer", "$class"], ["name", "peer", "$class"])
    #expect(keys(uids[2]) == (format == .binary ? withExtra : withExtra.sorted()))
    #expect(keys(uids[5]) == (format == .binary ? plain : plain.sorted()))
  }

  /// An archive finished after an encoding error keeps a `$null` placeholder: written as any
  /// property list (two `$null` strings, one object).
  @Test(arguments: formats)
  func anArchiveFinishedAfterAFailedEncode(format: PropertyListFormat) throws {
    struct Unregistered {}
    let archiver = KeyedArchiver()
    archiver.outputFormat = format
    #expect(throws: KeyedArchiveError.self) { try archiver.encode(["a", [Unregistered()]] as [Any], forKey: "broken") }
    try archiver.encode(["$null-looking", "a"], forKey: "fine")
    let shortcut = try archiver.finishEncoding()
    #expect(shortcut == (try archiver.finishedArchive().encoded(as: format)))
  }
}
