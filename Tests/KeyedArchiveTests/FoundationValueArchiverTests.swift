import Foundation
import KeyedArchive
import Testing
import TestSupport

/// `FoundationValueArchiver` writes exactly the bytes `KeyedArchiver` writes for the same calls,
/// and refuses what it does not write without leaving a trace in the archive.
@Suite("FoundationValueArchiver equals KeyedArchiver byte for byte")
struct FoundationValueArchiverTests {
  /// One call of the shared encoding API.
  enum Call {
    case value(Any?, String)
    case strings([String], String)
    case integers([Int], String)
    case values([Any], String)
  }

  func fastBytes(_ calls: [Call]) throws -> Data {
    let archiver = FoundationValueArchiver()
    for call in calls {
      switch call {
      case .value(let value, let key): try archiver.encode(value, forKey: key)
      case .strings(let list, let key): try archiver.encode(strings: list, forKey: key)
      case .integers(let list, let key): try archiver.encode(integers: list, forKey: key)
      case .values(let list, let key): try archiver.encode(values: list, forKey: key)
      }
    }
    return try archiver.finishEncoding()
  }

  func keyedArchiverBytes(_ calls: [Call]) throws -> Data {
    let archiver = KeyedArchiver()
    for call in calls {
      switch call {
      case .value(let value, let key): try archiver.encode(value, forKey: key)
      case .strings(let list, let key): try archiver.encode(strings: list, forKey: key)
      case .integers(let list, let key): try archiver.encode(integers: list, forKey: key)
      case .values(let list, let key): try archiver.encode(list, forKey: key)
      }
    }
    return try archiver.finishEncoding()
  }

  /// Seeded Swift values of every kind the writer takes.
  struct Values {
    var random: SplitMix64
    // Strings that collide with the archive's own keys, class names and each other.
    let pool = [
      "", "a", "NS.objects", "$class", "NSArray", "NSObject", "NSKeyedArchiver", "$top", "é", "e\u{301}", "😀", "$version", "k", "key 2",
    ]

    mutating func string() -> String {
      if Bool.random(using: &random) { return pool.randomElement(using: &random)! }
      return String((0..<Int.random(in: 0...9, using: &random)).map { _ in "ab$.é中😀 z".randomElement(using: &random)! })
    }

    mutating func scalar() -> Any {
      switch Int.random(in: 0..<16, using: &random) {
      case 0, 1: return string()
      case 2: return Bool.random(using: &random)
      case 3: return [0, 1, -1, 100_000, Int.max, Int.min, 255, 256].randomElement(using: &random)!
      case 4: return Int.random(in: -1_000...1_000, using: &random)
      case 5: return [0.0, -0.0, 1.5, .infinity, -.infinity, 100_000].randomElement(using: &random)!
      case 6: return Float([1.5, 0.1, -0.0].randomElement(using: &random)!)
      case 7: return Int64.random(in: .min ... .max, using: &random)
      case 8: return Int32(Int.random(in: -5...5, using: &random))
      case 9: return UInt64.max - UInt64.random(in: 0...3, using: &random)
      case 10: return UInt8.random(in: 0...255, using: &random)
      case 11: return Data((0..<Int.random(in: 0...5, using: &random)).map { _ in UInt8.random(in: 0...3, using: &random) })
      case 12: return Date(timeIntervalSinceReferenceDate: [0, 1.5, -1e9, 12345].randomElement(using: &random)!)
      case 13: return Double(Int.random(in: 0...3, using: &random))
      case 14: return Int16(-3)
      default: return UInt(7)
      }
    }

    mutating func value(depth: Int = 0) -> Any {
      guard depth < 4 else { return scalar() }
      switch Int.random(in: 0..<6, using: &random) {
      case 0: return (0..<Int.random(in: 0...5, using: &random)).map { _ in value(depth: depth + 1) }
      case 1:
        var dictionary: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) { dictionary[string()] = value(depth: depth + 1) }
        return dictionary
      default: return scalar()
      }
    }

    mutating func calls() -> [Call] {
      var calls: [Call] = []
      let keys = ["format", "$top", "$x", "names", "NS.objects", "values", "format", "é", "e\u{301}"]
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        let key = keys.randomElement(using: &random)!
        switch Int.random(in: 0..<5, using: &random) {
        case 0: calls.append(.value(Bool.random(using: &random) ? value() : nil, key))
        case 1: calls.append(.strings((0..<Int.random(in: 0...30, using: &random)).map { _ in string() }, key))
        case 2: calls.append(.integers((0..<Int.random(in: 0...30, using: &random)).map { _ in Int.random(in: -3...300, using: &random) }, key))
        default: calls.append(.values((0..<Int.random(in: 0...20, using: &random)).map { _ in value() }, key))
        }
      }
      return calls
    }
  }

  @Test("Seeded calls of every kind give KeyedArchiver's bytes", arguments: 0..<200)
  func seededCallsMatch(seed: UInt64) throws {
    var values = Values(random: SplitMix64(seed: seed))
    let calls = values.calls()
    let fast = try fastBytes(calls)
    let general = try keyedArchiverBytes(calls)
    #expect(fast == general, "seed \(seed): \(fast.count) bytes against \(general.count)")
  }

  @Test("A table of 20,000 nodes' columns gives KeyedArchiver's bytes (four-byte references)")
  func largeTablesMatch() throws {
    var values = Values(random: SplitMix64(seed: 99))
    let count = 20_000
    let calls: [Call] = [
      .value(1, "format"), .value(Date(timeIntervalSinceReferenceDate: 5), "time"),
      .strings((0..<count).map { "Item\($0 % 400)" }, "identifiers"),
      .integers((0..<count).map { $0 - 1 }, "parents"),
      .values((0..<count).map { _ in values.value() }, "values"),
    ]
    #expect(try fastBytes(calls) == keyedArchiverBytes(calls))
  }

  @Test("What it does not write is refused before anything is written", arguments: [
    "the string $null", "nil in an array", "a class instance", "a set", "a dictionary of another type", "$null among strings",
  ])
  func refusals(what: String) throws {
    final class Box {}
    let refused: Call =
      switch what {
      case "the string $null": .value("$null", "bad")
      case "nil in an array": .values([1, Optional<Int>.none as Any, 2], "bad")
      case "a class instance": .value(["x", Box()] as [Any], "bad")
      case "a set": .value(Set([1, 2]), "bad")
      case "a dictionary of another type": .value(["a": 1] as [String: Int], "bad")
      default: .strings(["a", "$null"], "bad")
      }
    let archiver = FoundationValueArchiver()
    try archiver.encode(["a", 1, 2.5] as [Any], forKey: "before")
    let error = #expect(throws: KeyedArchiveError.self) {
      switch refused {
      case .value(let value, let key): try archiver.encode(value, forKey: key)
      case .strings(let list, let key): try archiver.encode(strings: list, forKey: key)
      case .integers(let list, let key): try archiver.encode(integers: list, forKey: key)
      case .values(let list, let key): try archiver.encode(values: list, forKey: key)
      }
    }
    #expect(error?.code == .invalidValue)
    // The refused call left nothing behind: the rest of the archive is KeyedArchiver's.
    try archiver.encode(["a", 2, "z"] as [Any], forKey: "after")
    let expected = try keyedArchiverBytes([.value(["a", 1, 2.5] as [Any], "before"), .value(["a", 2, "z"] as [Any], "after")])
    #expect(try archiver.finishEncoding() == expected)
  }

  @Test("Its archives read back through KeyedUnarchiver")
  func readsBack() throws {
    let archiver = FoundationValueArchiver()
    try archiver.encode(strings: ["x", "y", "x"], forKey: "names")
    try archiver.encode(["k": [1, 2] as [Any], "d": Date(timeIntervalSinceReferenceDate: 3)] as [String: Any], forKey: "table")
    let unarchiver = try KeyedUnarchiver(data: try archiver.finishEncoding())
    #expect(try unarchiver.decodeStrings(forKey: "names") == ["x", "y", "x"])
    let table = try #require(try unarchiver.decodeObject(forKey: "table") as? [AnyHashable: Any])
    #expect((table["k"] as? [Any])?.compactMap { $0 as? Int } == [1, 2])
    #expect(table["d"] as? Date == Date(timeIntervalSinceReferenceDate: 3))
  }
}
