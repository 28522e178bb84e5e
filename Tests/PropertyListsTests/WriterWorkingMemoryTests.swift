import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  /// glibc's `malloc_usable_size` (declared in `malloc.h`, which the Glibc module does not bring in).
  @_silgen_name("malloc_usable_size")
  private func mallocUsableSize(_ block: UnsafeMutableRawPointer?) -> Int
#endif

@testable import PropertyLists

/// The writers keep working memory and size hints from one document to the next (the binary
/// flattener's arrays and uniquing tables, the XML writer's output length, the writers' caches
/// of keys arrays): nothing of one document may show in the next one's bytes.
@Suite("Writers' working memory")
struct WriterWorkingMemoryTests {
  /// Seeded documents of very different sizes (a large one with many repeated scalars among
  /// small ones), written in one order and again in the reverse order: each gives the same
  /// bytes both times, and a binary one reads back as itself.
  @Test(arguments: 0..<6 as Range<UInt64>)
  func aDocumentGivesTheSameBytesWhateverWasWrittenBefore(seed: UInt64) throws {
    for (format, kinds) in [(PropertyListFormat.binary, RandomPropertyList.Kinds.binary), (.xml, .xml)] {
      var generator = RandomPropertyList(seed: seed, kinds: kinds)
      var documents = (0..<6).map { _ in generator.value() }
      documents.insert(Self.large(&generator.rng, count: 3_000 + Int(seed) * 1_000), at: 2)
      let first = try documents.map { try $0.encodedBytes(as: format) }
      for index in documents.indices.reversed() {
        let again = try documents[index].encodedBytes(as: format)
        #expect(again == first[index], "seed \(seed), document \(index), \(format)")
        if format == .binary {
          #expect(try PropertyListValue(decoding: Data(again)) == documents[index], "seed \(seed), document \(index)")
        }
      }
    }
  }

  /// An array of dictionaries of one shape holding strings, numbers and dates drawn from small
  /// pools, so that most of them repeat and the uniquing tables grow large.
  static func large(_ rng: inout SplitMix64, count: Int) -> PropertyListValue {
    let words = (0..<200).map { "word \($0) " + String(repeating: "é", count: $0 % 5) }
    let keys = ["name", "count", "ratio", "when", "tags"]
    var records: [PropertyListValue] = []
    records.reserveCapacity(count)
    for _ in 0..<count {
      let values: [PropertyListValue] = [
        .string(words[Int(rng.next() % 200)]),
        .integer(PropertyListInteger(Int64(rng.next() % 500))),
        .real(Double(rng.next() % 300) / 7),
        .date(Date(timeIntervalSinceReferenceDate: Double(rng.next() % 100))),
        .array((0..<Int(rng.next() % 4)).map { _ in .string(words[Int(rng.next() % 200)]) }),
      ]
      records.append(.dictionary(PropertyListDictionary(keys: keys, values: values)))
    }
    return .dictionary(PropertyListDictionary(keys: ["records", "total"], values: [.array(records), .integer(PropertyListInteger(Int64(count)))]))
  }

  /// Two new keys arrays met in turn, again and again (an item's keys, then its child's): each
  /// is held after its second meeting, with what was recorded for it.
  @Test func twoNewKeysArraysMetInTurnAreBothKept() {
    var cache = KeyArrayCache<Int>()
    let item = ["id", "name", "dimensions"]
    let dimensions = ["width", "height", "depth"]
    for (keys, payload) in [(item, 1), (dimensions, 2)] {
      #expect(cache.slot(of: keys) == nil)
      cache.insert(keys, payload: payload)
    }
    // The item's keys were pushed out of the waiting slot by the dimensions'.
    #expect(cache.slot(of: item) == nil)
    cache.insert(item, payload: 1)
    #expect(cache.slot(of: dimensions) != nil)
    for _ in 0..<3 {
      for (keys, payload) in [(item, 1), (dimensions, 2)] {
        let slot = cache.slot(of: keys)
        #expect(slot != nil)
        if let slot { #expect(cache.payload(in: slot) == payload) }
      }
    }
  }

  /// One-off keys arrays (a dictionary's own, met once each) do not push out the shapes that
  /// repeat.
  @Test func oneOffKeysArraysDoNotPushOutRepeatedOnes() {
    var cache = KeyArrayCache<Int>()
    let shapes = (0..<4).map { shape in (0..<3).map { "k\(shape)-\($0)" } }
    for (index, keys) in shapes.enumerated() {
      cache.insert(keys, payload: index)
      #expect(cache.slot(of: keys) != nil)
    }
    var oneOffs: [[String]] = []
    for round in 0..<40 {
      let oneOff = ["a\(round)", "b\(round)"]
      oneOffs.append(oneOff)
      #expect(cache.slot(of: oneOff) == nil)
      cache.insert(oneOff, payload: -1)
      for (index, keys) in shapes.enumerated() {
        let slot = cache.slot(of: keys)
        #expect(slot != nil, "round \(round)")
        if let slot { #expect(cache.payload(in: slot) == index) }
      }
    }
  }

  #if canImport(Glibc)
    /// The XML writer sizes its buffer from the last document's length: a small document written
    /// after a large one must not hand its caller a `Data` holding the large one's buffer. The
    /// `malloc` block behind each document's bytes is at most a little larger than they are.
    @Test func aSmallDocumentAfterALargeOneKeepsNoLargeBuffer() throws {
      var rng = SplitMix64(seed: 41)
      let large = Self.large(&rng, count: 20_000)
      let small = PropertyListValue.array((0..<3_000).map { .string("item \($0)") })
      for format in [PropertyListFormat.xml, .binary] {
        let largeBytes = try large.encoded(as: format)
        let smallBytes = try small.encoded(as: format)
        #expect(largeBytes.count > 8 * smallBytes.count)
        let usable = smallBytes.withUnsafeBytes { mallocUsableSize(UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
        #expect(usable < smallBytes.count + smallBytes.count / 4 + (1 << 16), "\(format): \(usable) bytes held for \(smallBytes.count)")
        withExtendedLifetime(largeBytes) {}
      }
    }
  #endif
}
