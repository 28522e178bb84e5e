import Foundation
import PropertyLists
import KeyedArchive
import Testing
import TestSupport

/// The binary archive written in one pass from the flat table (`ArchiveBinaryDirectWriter`) must be
/// byte for byte the one the general writer (`ArchiveBinaryWriter`, through the property-list
/// module's builder) writes, and the archive value written as any binary property list: on seeded
/// graphs of every kind of value, and on graphs whose object counts cross each reference width
/// (255/256 and 65,535/65,536 objects), where the writer must decline when it cannot know the
/// width in advance.
@Suite("Keyed archiver: the binary archive written in one pass")
struct BinaryDirectWriterTests {
  /// A registered object with a name, an integer from a small set (numbers repeat, so the object
  /// count is not known until they are uniqued), a Boolean, and references to its peers.
  final class Node: ArchiveEncodable, ArchiveDecodable {
    let name: String
    var number: Int
    var flag: Bool?
    var peer: Node?
    var conditionalPeer: Node?
    var children: [Node] = []
    init(_ name: String, number: Int) {
      self.name = name
      self.number = number
    }
    init(coder: ArchiveDecoder) throws {
      name = try coder.decodeRequired(String.self, forKey: "name")
      number = try coder.decodeInteger(forKey: "number")
    }
    func encode(with coder: ArchiveEncoder) throws {
      try coder.encode(name, forKey: "name")
      coder.encode(number, forKey: "number")
      if let flag { coder.encode(flag, forKey: "flag") }
      if let peer { try coder.encode(peer, forKey: "peer") }
      coder.encodeConditionalObject(conditionalPeer, forKey: "conditional")
      if !children.isEmpty { try coder.encode(children, forKey: "children") }
    }
  }

  static var registry: ArchiveClassRegistry {
    var registry = ArchiveClassRegistry.foundation
    registry.register(Node.self, as: "Node")
    return registry
  }

  /// The same archive three ways: in one pass, through the general writer, and as a value.
  struct Writes {
    var direct: Data
    var general: Data
    var generic: Data
    /// Whether the one-pass writer wrote it (rather than declining).
    var wasDirect: Bool
  }

  static func writes(_ encode: (KeyedArchiver) throws -> Void) throws -> Writes {
    func archiver(direct: Bool) throws -> KeyedArchiver {
      let archiver = KeyedArchiver(registry: registry)
      archiver.writesBinaryDirectly = direct
      try encode(archiver)
      return archiver
    }
    let first = try archiver(direct: true)
    let direct = try first.finishEncoding()
    let second = try archiver(direct: false)
    let general = try second.finishEncoding()
    #expect(!second.wroteBinaryDirectly)
    return Writes(
      direct: direct, general: general, generic: try first.finishedArchive().encoded(as: .binary),
      wasDirect: first.wroteBinaryDirectly)
  }

  /// Whether two archives are the same bytes, and if not, where they first differ (Swift
  /// Testing's own report of two unequal `Data` of megabytes takes minutes).
  static func same(_ one: Data, _ other: Data) -> Bool {
    guard one != other else { return true }
    let first = zip(one, other).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? Swift.min(one.count, other.count)
    Issue.record("\(one.count) and \(other.count) bytes, first difference at byte \(first)")
    return false
  }

  /// Names the archive itself writes as keys and class names, which `$objects` strings may equal.
  static let archiveNames = [
    "name", "number", "flag", "peer", "conditional", "children", "NS.objects", "NS.keys", "$class", "$classes", "$classname",
    "Node", "NSArray", "NSDictionary", "NSObject", "NSKeyedArchiver", "$top", "root", "$version", "$objects", "$archiver",
    "NS.time", "NSDate", "é", "e\u{301}", "日本",
  ]

  @Test(arguments: 0..<40 as Range<UInt64>)
  func seededGraphs(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    func name() -> String {
      pick(3) == 0 ? Self.archiveNames[pick(Self.archiveNames.count)] : "s\(pick(40))-\(seed)"
    }
    func value(depth: Int) -> Any {
      switch pick(depth > 2 ? 9 : 11) {
      case 0, 1: return name()
      case 2: return pick(20) - 5
      case 3: return [Int.min, Int.max, 255, 256, 65_535, 65_536, 1 << 40][pick(7)]
      case 4: return Date(timeIntervalSinceReferenceDate: Double(pick(10)))
      case 5: return ([Double(pick(3)) - 1, -0.0, 0.0, Float(pick(3)) / 2] as [Any])[pick(4)]
      case 6: return pick(2) == 0
      case 7: return Data((0..<pick(20)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
      case 8: return pick(4) == 0 ? "$null" : String(repeating: name(), count: 1 + pick(8))
      case 9: return (0..<pick(6)).map { _ in value(depth: depth + 1) }
      default:
        var dictionary: [String: Any] = [:]
        for _ in 0..<pick(6) { dictionary[name()] = value(depth: depth + 1) }
        return dictionary
      }
    }
    let nodes = (0..<(1 + pick(60))).map { _ in Node(name(), number: pick(12)) }
    for node in nodes {
      if pick(3) == 0 { node.flag = pick(2) == 0 }
      if pick(3) == 0 { node.peer = nodes[pick(nodes.count)] }
      if pick(3) == 0 { node.conditionalPeer = pick(4) == 0 ? Node("never encoded", number: 1) : nodes[pick(nodes.count)] }
      if pick(4) == 0 { node.children = (0..<pick(4)).map { _ in nodes[pick(nodes.count)] } }
    }
    let values = (0..<(pick(40))).map { _ in value(depth: 0) }
    let strings = (0..<pick(30)).map { _ in name() }
    let integers = (0..<pick(30)).map { _ in pick(9) }
    let result = try Self.writes { archiver in
      try archiver.encode(objects: nodes, forKey: "nodes")
      try archiver.encode(values, forKey: "values")
      try archiver.encode(strings: strings, forKey: "strings")
      try archiver.encode(integers: integers, forKey: "integers")
    }
    #expect(result.direct == result.general, "seed \(seed)")
    #expect(result.direct == result.generic, "seed \(seed)")
  }

  /// Most seeded graphs are written in one pass (the rest, of some 40 to 400 objects, decline
  /// near 256: 28 of these 40 were written in one pass when this was written), so the suite
  /// above tests that writer, not only the general one.
  @Test func seededGraphsAreMostlyWrittenInOnePass() throws {
    var direct = 0
    for seed in 0..<40 as Range<UInt64> {
      var random = SplitMix64(seed: seed)
      let nodes = (0..<(1 + Int(random.next() % 60))).map { Node("n\($0)", number: Int(random.next() % 12)) }
      if try Self.writes({ try $0.encode(objects: nodes, forKey: "nodes") }).wasDirect { direct += 1 }
    }
    #expect(direct >= 20)
  }

  /// Arrays of nodes whose object counts cross 256 and 65,536: every archive is the general
  /// writer's, the one-pass writer writes those whose width is certain, and declines on both
  /// sides of each boundary where it is not.
  @Test(arguments: [(20, 60, 1), (9_000, 11_200, 100)])
  func objectCountsAcrossAWidth(range: (start: Int, end: Int, step: Int)) throws {
    var directWidths = Set<UInt8>()
    var declined = 0
    var count = range.start
    while count <= range.end {
      let nodes = (0..<count).map { Node("n\($0)", number: $0 % 7) }
      let result = try Self.writes { try $0.encode(objects: nodes, forKey: "nodes") }
      #expect(Self.same(result.direct, result.general), "\(count) nodes")
      if count % 3 == 0 { #expect(Self.same(result.direct, result.generic), "\(count) nodes") }
      if result.wasDirect {
        directWidths.insert(result.direct[result.direct.count - 25])
      } else {
        declined += 1
      }
      count += range.step
    }
    // Written directly with the narrower and the wider reference width, and declined between.
    #expect(directWidths.count == 2)
    #expect(declined > 0)
  }

  /// Strings of `$objects` equal to keys and class names met before and after them, and data
  /// equal across `$objects` and other values, share their objects as in the general writer.
  @Test func stringsAndDataSharedAcrossTheDocument() throws {
    let names = Self.archiveNames
    let data = Data([1, 2, 3])
    let result = try Self.writes { archiver in
      try archiver.encode(strings: names, forKey: "before")
      // Enough nodes for some 300 objects: the reference width is then certain.
      try archiver.encode(objects: (names + names + names).map { Node($0, number: 1) }, forKey: "nodes")
      try archiver.encode([data, ["d": data], Array(names.reversed())] as [Any], forKey: "after")
    }
    #expect(result.wasDirect)
    #expect(result.direct == result.general)
    #expect(result.direct == result.generic)
  }

  /// Data of 4 MB in a document first sized for a few hundred bytes: the buffer grows under
  /// the containers whose references are still to be filled in.
  @Test func aBufferThatGrowsUnderOpenContainers() throws {
    let result = try Self.writes { archiver in
      try archiver.encode([Data(count: 4 << 20), "after", [Data(repeating: 7, count: 1 << 20)]] as [Any], forKey: "root")
    }
    #expect(result.wasDirect)
    #expect(Self.same(result.direct, result.general))
    #expect(Self.same(result.direct, result.generic))
  }

  /// An archive whose strings are not all distinct (a string decoded as kept apart, or a
  /// failed encode's `$null` placeholder) is left to the general writer.
  @Test func archivesWithRepeatedStringsTakeTheGeneralWriter() throws {
    struct Unregistered {}
    let result = try Self.writes { archiver in
      #expect(throws: KeyedArchiveError.self) { try archiver.encode(["a", [Unregistered()]] as [Any], forKey: "broken") }
      try archiver.encode(["b"], forKey: "fine")
    }
    #expect(!result.wasDirect)
    #expect(result.direct == result.generic)
  }
}
