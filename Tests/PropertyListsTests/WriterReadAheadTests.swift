import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// The binary writer's read-ahead over large arrays: it reads containers' members in place
/// (`ContainerStorage`, from the values' bits) and prefetches, and it must change no byte; it
/// runs only while a document has filled tables larger than the caches.
@Suite("Binary writer's read-ahead")
struct WriterReadAheadTests {
  /// The layout is found on this platform (else the read-ahead would look at scalar elements
  /// only), and it reads back every container's members exactly: arrays and dictionaries,
  /// empty, small and large, nested, seeded.
  @Test func containerStorageReadsEveryContainersMembers() throws {
    let layout = try #require(BinaryPlistWriter.ContainerStorage.layout)
    var generator = RandomPropertyList(seed: 12, kinds: .binary)
    var values: [PropertyListValue] = (0..<300).map { _ in generator.value() }
    values.append(.array([]))
    values.append(.dictionary(PropertyListDictionary()))
    values.append(.array((0..<1_000).map { .integer(PropertyListInteger(Int64($0))) }))
    for value in values { try Self.check(value, layout, depth: 0) }
  }

  private static func check(_ value: PropertyListValue, _ layout: BinaryPlistWriter.ContainerStorage, depth: Int) throws {
    let expected: [PropertyListValue]?
    switch value {
    case .array(let elements): expected = elements
    case .dictionary(let dictionary): expected = dictionary.values
    default: expected = nil
    }
    let read = withUnsafePointer(to: value) { layout.members(of: $0).map { Array($0) } }
    #expect(read == expected, "depth \(depth)")
    for member in expected ?? [] { try check(member, layout, depth: depth + 1) }
  }

  /// A document large enough for the read-ahead (some 170,000 numbers and 60,000 strings and data,
  /// in items holding a nested dictionary and array each): the same bytes with it and without
  /// it, and they read back as the document.
  @Test func theReadAheadChangesNoByte() throws {
    let document = Self.items(seed: 5, count: 30_000)
    var reading = BinaryPlistWriter.Flattener()
    try reading.flatten(document, depth: 0)
    #expect(reading.memory.uniques.outgrowsCaches)
    let read = reading.emit().takeArray()
    var plain = BinaryPlistWriter.Flattener()
    plain.readsAhead = false
    try plain.flatten(document, depth: 0)
    let written = plain.emit().takeArray()
    #expect(read == written)
    #expect(try PropertyListValue(decoding: Data(read)) == document)
  }

  /// After a large document, the tables are emptied at its size; a small document written next
  /// does not read ahead (it did, every time, while the measure was the memory the tables keep).
  @Test func aSmallDocumentAfterALargeOneDoesNotReadAhead() {
    var table = UniquingTable()
    for value in 0..<100_000 { _ = table.insertNumber(.integer(PropertyListInteger(Int64(value))), number: value) }
    #expect(table.outgrowsCaches)
    table.removeAllForNextDocument()
    for value in 0..<200 { _ = table.insertNumber(.integer(PropertyListInteger(Int64(value))), number: value) }
    #expect(!table.outgrowsCaches)
    table.removeAllForNextDocument()
    for value in 0..<200 { _ = table.insertNumber(.integer(PropertyListInteger(Int64(value))), number: value) }
    #expect(!table.outgrowsCaches)
  }

  /// The benchmark's shape: items with unique ids, names, reals and data, a nested dictionary of
  /// reals, an array of small integers and strings from a small pool.
  static func items(seed: UInt64, count: Int) -> PropertyListValue {
    var rng = SplitMix64(seed: seed)
    let words = (0..<50).map { "word\($0)" + String(repeating: "ü", count: $0 % 3) }
    let keys = ["dimensions", "id", "name", "price", "ratings", "tags", "thumbnail", "when"]
    var items: [PropertyListValue] = []
    items.reserveCapacity(count)
    for index in 0..<count {
      let dimensions = PropertyListDictionary(
        keys: ["depth", "height", "width"], values: (0..<3).map { _ in .real(Double(rng.next() % 1_000_000) / 8) })
      let values: [PropertyListValue] = [
        .dictionary(dimensions),
        .integer(PropertyListInteger(Int64(index))),
        .string("an item's name, long enough to be stored apart \(rng.next() % 1_000_000)"),
        .real(Double(rng.next() % 100_000) / 100),
        .array((0..<Int(rng.next() % 6)).map { _ in .integer(PropertyListInteger(Int64(rng.next() % 8))) }),
        .array((0..<Int(rng.next() % 4)).map { _ in .string(words[Int(rng.next() % 50)]) }),
        .data(Data((0..<(16 + Int(rng.next() % 40))).map { _ in UInt8(truncatingIfNeeded: rng.next()) })),
        .date(Date(timeIntervalSinceReferenceDate: Double(rng.next() % 800_000_000))),
      ]
      items.append(.dictionary(PropertyListDictionary(keys: keys, values: values)))
    }
    return .dictionary(PropertyListDictionary(keys: ["items"], values: [.array(items)]))
  }
}
