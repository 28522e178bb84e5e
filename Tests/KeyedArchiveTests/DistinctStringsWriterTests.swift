import Foundation
import KeyedArchive
import PropertyLists
import Testing
import TestSupport

/// `finishEncoding()` writes a binary archive telling the writer that the strings of `$objects`
/// are already stored once each, so that it does not unique them again; the bytes must be those
/// of the archive value written as any property list, whatever strings meet the archive's own keys,
/// class names and top-level values, before or after them.
@Suite("Keyed archiver: the binary writer's shortcut for $objects strings")
struct DistinctStringsWriterTests {
  /// Names the archive itself writes as keys, class names or values.
  static let archiveNames = [
    "NS.objects", "NS.keys", "$class", "$classes", "$classname", "NSArray", "NSDictionary", "NSMutableString", "NSObject",
    "NSKeyedArchiver", "$top", "root", "$version", "$objects", "$archiver", "NS.string", "NS.time", "NSDate", "plain", "é",
  ]

  /// The archive's bytes through `finishEncoding()` and through its value written generically.
  static func bothWrites(_ root: Any) throws -> (shortcut: Data, generic: Data) {
    let archiver = KeyedArchiver()
    try archiver.encodeRootObject(root)
    let shortcut = try archiver.finishEncoding()
    let generic = try archiver.finishedArchive().encoded(as: .binary)
    return (shortcut, generic)
  }

  @Test func stringsNamedLikeTheArchivesOwnKeysAndClasses() throws {
    // Each name first as a value, then inside dictionaries (keys written after the value)…
    let valuesFirst: [Any] = Self.archiveNames + [Dictionary(uniqueKeysWithValues: Self.archiveNames.map { ($0, 1) })]
    // …and dictionaries first, so that the keys are written before equal values.
    let keysFirst: [Any] = [Dictionary(uniqueKeysWithValues: Self.archiveNames.map { ($0, "v") })] + Self.archiveNames
    for root in [valuesFirst, keysFirst] {
      let (shortcut, generic) = try Self.bothWrites(root)
      #expect(shortcut == generic)
      #expect((try KeyedUnarchiver.unarchiveTopLevelObject(from: shortcut) as? [Any])?.count == root.count)
    }
  }

  @Test(arguments: 0..<40 as Range<UInt64>)
  func generatedGraphs(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    func name() -> String {
      random.next() % 3 == 0 ? "s\(random.next() % 50)" : Self.archiveNames[Int(random.next() % UInt64(Self.archiveNames.count))]
    }
    func value(depth: Int) -> Any {
      switch random.next() % (depth > 2 ? 4 : 6) {
      case 0, 1: return name()
      case 2: return Int(random.next() % 20)
      case 3: return Date(timeIntervalSinceReferenceDate: Double(random.next() % 10))
      case 4: return (0..<Int(random.next() % 6)).map { _ in value(depth: depth + 1) }
      default:
        var dictionary: [String: Any] = [:]
        for _ in 0..<Int(random.next() % 6) { dictionary[name()] = value(depth: depth + 1) }
        return dictionary
      }
    }
    let root = (0..<(5 + Int(random.next() % 30))).map { _ in value(depth: 0) }
    let (shortcut, generic) = try Self.bothWrites(root)
    #expect(shortcut == generic, "seed \(seed)")
  }

  /// An archive finished after an encoding error keeps a `$null` placeholder: written as any
  /// property list (two `$null` strings, one object).
  @Test func anArchiveFinishedAfterAFailedEncode() throws {
    struct Unregistered {}
    let archiver = KeyedArchiver()
    #expect(throws: KeyedArchiveError.self) { try archiver.encode(["a", [Unregistered()]] as [Any], forKey: "broken") }
    try archiver.encode(["$null-looking", "a"], forKey: "fine")
    let shortcut = try archiver.finishEncoding()
    #expect(shortcut == (try archiver.finishedArchive().encoded(as: .binary)))
  }
}
