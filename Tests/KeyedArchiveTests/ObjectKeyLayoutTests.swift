import Foundation
import KeyedArchive
import PropertyLists
import Testing
import TestSupport

/// The archiver starts each object from the keys the last object of its class wrote; whatever an
/// object writes instead — other keys, another order, fewer or more keys, a key twice, more than
/// the 16 keys from which a dictionary keeps an index, another object of the class in between —
/// its dictionary holds exactly its own keys in the order first written, the last value of a
/// repeated key, and `$class` last.
@Suite("KeyedArchiver's objects keep their own keys whatever the objects before them wrote")
struct ObjectKeyLayoutTests {
  /// Writes `script` in order, with `nested` (if any) encoded as an object after the first key.
  final class Scripted: ArchiveEncodable, ArchiveDecodable {
    let script: [(key: String, value: Int)]
    let nested: Scripted?
    init(_ script: [(key: String, value: Int)], nested: Scripted? = nil) {
      self.script = script
      self.nested = nested
    }
    init(coder: ArchiveDecoder) throws {
      script = []
      nested = nil
    }
    func encode(with coder: ArchiveEncoder) throws {
      for (position, entry) in script.enumerated() {
        coder.encode(entry.value, forKey: entry.key)
        if position == 0, let nested { try coder.encode(nested, forKey: "nested") }
      }
    }
  }

  /// The dictionary `PropertyListDictionary` builds from `script`: keys in first-written order
  /// (escaped as the archiver escapes them), the last value of each.
  func expected(_ object: Scripted) -> [(key: String, value: PropertyListValue?)] {
    var keys: [String] = []
    var values: [PropertyListValue?] = []
    func set(_ value: PropertyListValue?, _ key: String) {
      let key = key.hasPrefix("$") ? "$" + key : key
      if let at = keys.firstIndex(of: key) { values[at] = value } else { keys.append(key); values.append(value) }
    }
    for (position, entry) in object.script.enumerated() {
      set(.integer(entry.value), entry.key)
      if position == 0, object.nested != nil { set(nil, "nested") }
    }
    keys.append("$class")
    values.append(nil)
    return zip(keys, values).map { (key: $0, value: $1) }
  }

  func check(_ roots: [Scripted]) throws {
    var registry = ArchiveClassRegistry.foundation
    registry.register(Scripted.self, as: "Scripted")
    let data = try KeyedArchiver.archivedData(withRootObject: roots, registry: registry)
    let typed = KeyedArchiver(registry: registry)
    try typed.encode(objects: roots, forKey: "root")
    #expect(try typed.finishEncoding() == data)
    let objects = try archivedObjects(data)
    let list = try #require(objects[1]["NS.objects"]?.arrayValue)
    func compare(_ object: Scripted, _ uid: UInt64?) throws {
      let number = try #require(uid)
      let dictionary = try #require(objects[Int(number)].dictionaryValue)
      let wanted = expected(object)
      #expect(dictionary.keys == wanted.map(\.key))
      for (key, value) in wanted where value != nil { #expect(dictionary[key] == value, "\(key)") }
      if let nested = object.nested { try compare(nested, dictionary["nested"]?.uidValue) }
    }
    for (object, reference) in zip(roots, list) { try compare(object, reference.uidValue) }
  }

  @Test("Keys in other orders, fewer or more of them, repeated, escaped, canonically equivalent")
  func variedKeys() throws {
    let base = (0..<5).map { (key: "k\($0)", value: $0) }
    try check([
      Scripted(base), Scripted(base),
      Scripted(Array(base.prefix(3))), Scripted(base), Scripted(base + [(key: "extra", value: 9)]),
      Scripted(base.reversed()), Scripted([base[0], base[1], (key: "k0", value: 7), base[2]]),
      Scripted([(key: "$x", value: 1), (key: "x", value: 2)]), Scripted([(key: "$x", value: 3), (key: "$x", value: 4)]),
      Scripted([(key: "\u{E9}", value: 1), (key: "e\u{301}", value: 2)]), Scripted([(key: "e\u{301}", value: 3)]),
      Scripted([]), Scripted(base),
    ])
  }

  @Test("More than 16 keys, and an object of the same class written in the middle of another")
  func wideAndNested() throws {
    let wide = (0..<24).map { (key: "w\($0)", value: $0) }
    let inner = Scripted(Array(wide.prefix(3)) + [(key: "inner", value: 1)])
    var random = SplitMix64(seed: 16)
    try check([
      Scripted(wide), Scripted(wide), Scripted(wide.shuffled(using: &random)),
      Scripted(wide + [(key: "w3", value: 99)]),
      Scripted(wide, nested: inner), Scripted(wide, nested: Scripted(wide)), Scripted(wide),
    ])
  }

  @Test("Random scripts over a small key pool", arguments: 0..<4)
  func randomScripts(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let pool = ["a", "b", "c", "$d", "e", "f"]
    let roots = (0..<60).map { _ in
      Scripted((0..<Int.random(in: 0..<9, using: &random)).map { _ in
        (key: pool.randomElement(using: &random)!, value: Int.random(in: 0..<5, using: &random))
      })
    }
    try check(roots)
  }
}
