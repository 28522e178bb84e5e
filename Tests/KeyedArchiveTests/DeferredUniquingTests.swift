import Foundation
import KeyedArchive
import PropertyLists
import Testing
import TestSupport

/// Once the archiver has met many distinct scalars it gives each new one a provisional entry of
/// its own and uniques them after the walk, renumbering every UID once. The archive must be the
/// one written when every scalar is looked up at once, byte for byte, whatever the graph holds:
/// strings repeated and distinct, strings equal as Swift strings but not in their bytes
/// (canonically equivalent forms), `-0.0` and `0.0`, floats and doubles of one value, data,
/// shared and conditional references, typed arrays, and `maximumObjectCount` at its edge.
@Suite("Keyed archiver: scalars uniqued after the walk write the same archive")
struct DeferredUniquingTests {
  /// An object with a name, a scalar of any kind, a reference, a conditional reference and
  /// children.
  final class Item: ArchiveEncodable, ArchiveDecodable {
    let name: String
    let scalar: Any
    var friend: Item?
    var peer: Item?
    var children: [Item]?
    init(name: String, scalar: Any) {
      self.name = name
      self.scalar = scalar
    }
    init(coder: ArchiveDecoder) throws {
      name = try coder.decodeRequired(String.self, forKey: "name")
      scalar = 0
    }
    func encode(with coder: ArchiveEncoder) throws {
      try coder.encode(name, forKey: "name")
      try coder.encode(scalar, forKey: "scalar")
      if let friend { try coder.encode(friend, forKey: "friend") }
      coder.encodeConditionalObject(peer, forKey: "peer")
      if let children { try coder.encode(children, forKey: "children") }
    }
  }

  static let registry: ArchiveClassRegistry = {
    var registry = ArchiveClassRegistry.foundation
    registry.register(Item.self, as: "Item")
    return registry
  }()

  static let formats: [PropertyListFormat] = [.binary, .xml]

  /// Strings in canonically equivalent pairs and triples (equal as Swift strings, not in UTF-8),
  /// a few names, and `"$null"`.
  static let pool = [
    "\u{E9}", "e\u{301}", "\u{C5}", "A\u{30A}", "\u{212B}", "\u{1E69}", "s\u{323}\u{307}", "s\u{307}\u{323}",
    "name", "Item", "NSArray", "$class", "", "$null",
  ]

  /// A seeded graph: items with repeated and distinct names and scalars, shared and conditional
  /// references (some to items never encoded), children, and typed top-level arrays.
  struct Graph {
    var items: [Item] = []
    var strings: [String] = []
    var integers: [Int] = []
    var values: [PropertyListValue] = []
    var extra: [Any] = []

    init(seed: UInt64, size: Int) {
      var random = SplitMix64(seed: seed)
      func string() -> String {
        switch random.next() % 4 {
        case 0: return DeferredUniquingTests.pool[Int(random.next() % UInt64(DeferredUniquingTests.pool.count))]
        case 1: return "s\(random.next() % 8)"
        default: return "u\(seed)-\(random.next())"
        }
      }
      func scalar() -> Any {
        switch random.next() % 9 {
        case 0: return string()
        case 1: return Int(random.next() % 7) - 3
        case 2: return [0.0, -0.0, 1.5][Int(random.next() % 3)]
        case 3: return Float([0, 1.5][Int(random.next() % 2)])
        case 4: return random.next() % 2 == 0
        case 5: return Data((0..<Int(random.next() % 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 6: return UInt64.max - random.next() % 2
        case 7: return Date(timeIntervalSinceReferenceDate: Double(random.next() % 4))
        default: return [string(), string()]
        }
      }
      items = (0..<size).map { _ in Item(name: string(), scalar: scalar()) }
      let outsiders = (0..<3).map { _ in Item(name: string(), scalar: scalar()) }
      for item in items {
        switch random.next() % 5 {
        case 0: item.friend = items[Int(random.next() % UInt64(size))]
        case 1: item.peer = items[Int(random.next() % UInt64(size))]
        case 2: item.peer = outsiders[Int(random.next() % 3)]
        case 3: item.children = (0..<Int(random.next() % 4)).map { _ in items[Int(random.next() % UInt64(size))] }
        default: break
        }
      }
      strings = (0..<Int(random.next() % 20)).map { _ in string() }
      integers = (0..<Int(random.next() % 20)).map { _ in Int(random.next() % 9) - 4 }
      values = (0..<Int(random.next() % 10)).map { _ in
        switch random.next() % 4 {
        case 0: .string(string())
        case 1: .real(-0.0)
        case 2: .array([.string(string()), .integer(Int(random.next() % 3))])
        default: .data(Data([UInt8(truncatingIfNeeded: random.next())]))
        }
      }
      extra = (0..<Int(random.next() % 10)).map { _ in scalar() }
    }

    /// Encodes the graph under several top-level keys.
    func encode(into archiver: KeyedArchiver) throws {
      try archiver.encode(strings: strings, forKey: "strings")
      try archiver.encode(objects: items, forKey: "items")
      try archiver.encode(integers: integers, forKey: "integers")
      try archiver.encode(propertyListValues: values, forKey: "values")
      try archiver.encode(extra, forKey: "extra")
      try archiver.encode(strings.reversed() as [String], forKey: "$reversed")
    }
  }

  /// The archive of `graph`, its scalars uniqued from `threshold` distinct scalars on.
  static func archive(
    _ graph: Graph, threshold: Int, format: PropertyListFormat, limit: Int = 1 << 22
  ) throws -> (data: Data, value: PropertyListValue) {
    let archiver = KeyedArchiver(registry: registry)
    archiver.outputFormat = format
    archiver.maximumObjectCount = limit
    archiver.scalarDeferringThreshold = threshold
    try graph.encode(into: archiver)
    let data = try archiver.finishEncoding()
    return (data, archiver.finishedArchive())
  }

  @Test(arguments: formats, 0..<40 as Range<UInt64>)
  func generatedGraphs(format: PropertyListFormat, seed: UInt64) throws {
    let graph = Graph(seed: seed, size: 5 + Int(seed % 7) * 9)
    let atOnce = try Self.archive(graph, threshold: .max, format: format)
    for threshold in [0, 1, 3 + Int(seed % 20)] {
      let later = try Self.archive(graph, threshold: threshold, format: format)
      #expect(later.data == atOnce.data, "seed \(seed), threshold \(threshold)")
      #expect(later.value == atOnce.value, "seed \(seed), threshold \(threshold)")
    }
    // What `finishEncoding()` wrote is the archive value written as any property list.
    #expect(try atOnce.value.encoded(as: format) == atOnce.data, "seed \(seed)")
  }

  /// Each canonically equivalent form is stored once, as its own entry, and read back in its own
  /// bytes.
  @Test(arguments: [0, Int.max])
  func equivalentFormsStayApartAndRepeatsAreStoredOnce(threshold: Int) throws {
    let strings = Self.pool + Self.pool.reversed() + Self.pool
    let archiver = KeyedArchiver()
    archiver.scalarDeferringThreshold = threshold
    try archiver.encode(strings: strings, forKey: "root")
    let data = try archiver.finishEncoding()
    let stored = try archivedObjects(data).compactMap(\.stringValue).map { Array($0.utf8) }
    // Entry 0 is `$null`; "$null" itself is an NSMutableString object, not an inline string.
    let distinct = Set(Self.pool.filter { $0 != "$null" }.map { Array($0.utf8) })
    #expect(stored.count == distinct.count + 1 && Set(stored.dropFirst()) == distinct)
    let back = try #require(try KeyedUnarchiver.unarchiveTopLevelObject(from: data) as? [String])
    #expect(back.map { Array($0.utf8) } == strings.map { Array($0.utf8) })
  }

  /// `maximumObjectCount` counts the entries as uniqued: a graph of many repeated strings, whose
  /// provisional entries pass the limit long before its real entries do, fails and succeeds at
  /// exactly the limits where looking each scalar up at once does.
  @Test(arguments: formats, 0..<12 as Range<UInt64>)
  func maximumObjectCountAtTheEdge(format: PropertyListFormat, seed: UInt64) throws {
    var graph = Graph(seed: seed, size: 40)
    // Many repeats: the typed arrays' scalars from small sets.
    graph.strings = (0..<300).map { "r\($0 % 5)" }
    graph.integers = (0..<300).map { $0 % 7 }
    func fits(_ limit: Int, threshold: Int) -> Bool {
      (try? Self.archive(graph, threshold: threshold, format: format, limit: limit)) != nil
    }
    // The smallest limit that holds the archive when every scalar is looked up at once (a larger
    // limit never fails where a smaller one succeeded).
    var (low, high) = (1, 1 << 10)
    #expect(fits(high, threshold: .max))
    while low < high {
      let middle = (low + high) / 2
      if fits(middle, threshold: .max) { high = middle } else { low = middle + 1 }
    }
    // A typed array's members are counted before they are written, as entries they might take:
    // the edge is the integers' check, which deferring meets with 295 provisional entries of
    // repeated strings beyond the limit, to be uniqued before the count is known.
    let count = try archivedObjects(Self.archive(graph, threshold: .max, format: format).data).count
    #expect(low > count, "seed \(seed): \(count) objects need a limit of \(low)")
    for limit in (low - 2)...(low + 2) {
      for threshold in [0, 2, 40] {
        let outcome = Result { try Self.archive(graph, threshold: threshold, format: format, limit: limit).data }
        switch outcome {
        case .success(let data):
          #expect(limit >= low, "seed \(seed), threshold \(threshold): limit \(limit) held an archive that needs \(low)")
          #expect(data == (try Self.archive(graph, threshold: .max, format: format, limit: limit).data), "seed \(seed), limit \(limit)")
        case .failure(let error):
          #expect(limit < low, "seed \(seed), threshold \(threshold): limit \(limit) failed, \(low) is enough at once: \(error)")
          #expect((error as? KeyedArchiveError)?.code == .limitExceeded, "\(error)")
        }
      }
    }
  }

  /// An archive finished after an encoding error (the caller goes on) is the same either way.
  @Test(arguments: formats)
  func anArchiveFinishedAfterAFailedEncode(format: PropertyListFormat) throws {
    struct Unregistered {}
    func archive(threshold: Int) throws -> Data {
      let archiver = KeyedArchiver()
      archiver.outputFormat = format
      archiver.scalarDeferringThreshold = threshold
      try archiver.encode(strings: ["a", "b", "a"], forKey: "before")
      #expect(throws: KeyedArchiveError.self) { try archiver.encode(["a", "c", [Unregistered()]] as [Any], forKey: "broken") }
      try archiver.encode(["c", "a", "d"], forKey: "after")
      return try archiver.finishEncoding()
    }
    #expect(try archive(threshold: 0) == archive(threshold: .max))
  }
}
