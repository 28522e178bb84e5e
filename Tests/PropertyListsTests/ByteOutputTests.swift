import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// The writers' output buffer, from a small `malloc`ed block through `realloc`s to sizes `malloc`
/// keeps in mappings of their own (glibc: past 128 KB to 32 MB), and its hand-over.
@Suite("ByteOutput: growth and hand-over")
struct ByteOutputTests {
  /// Appends seeded chunks of varied sizes (single bytes, literals, buffers, `extend`) up to
  /// `total` bytes, checking the whole content at the end.
  func fill(_ output: inout ByteOutput, total: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    let pool = (0..<(1 << 17)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    var expected: [UInt8] = []
    expected.reserveCapacity(total + 70_000)
    while expected.count < total {
      switch random.next() % 4 {
      case 0:
        let byte = UInt8(truncatingIfNeeded: random.next())
        output.append(byte)
        expected.append(byte)
      case 1:
        output.append("<key>")
        expected += Array("<key>".utf8)
      case 2:
        let start = Int(random.next() % UInt64(pool.count / 2))
        let chunk = pool[start..<(start + Int(random.next() % UInt64(pool.count / 2)))]
        chunk.withUnsafeBufferPointer { output.append($0) }
        expected += chunk
      default:
        let start = Int(random.next() % UInt64(pool.count / 2))
        let chunk = pool[start..<(start + Int(random.next() % 5_000))]
        let room = output.extend(by: chunk.count)
        chunk.withUnsafeBufferPointer { room.update(from: $0.baseAddress!, count: $0.count) }
        expected += chunk
      }
    }
    return expected
  }

  @Test("stays intact while growing from a small buffer to sizes malloc maps apart",
    arguments: [(100_000, 1), (3 << 20, 2), (40 << 20, 3)] as [(Int, UInt64)])
  func growth(total: Int, seed: UInt64) {
    var output = ByteOutput(capacity: 64)
    let expected = fill(&output, total: total, seed: seed)
    #expect(output.count == expected.count)
    #expect(output.bytes() == expected)
    let data = output.takeData()
    #expect(data.count == expected.count)
    #expect(data.elementsEqual(expected))
  }

  @Test("release and takeArray end a large buffer")
  func endings() {
    var released = ByteOutput(capacity: 64)
    _ = fill(&released, total: 2 << 20, seed: 7)
    released.release()

    var taken = ByteOutput(capacity: 64)
    let expected = fill(&taken, total: 2 << 20, seed: 8)
    #expect(taken.takeArray() == expected)
  }

  @Test("Data over a large buffer outlives copies of it and frees it once")
  func dataLifetime() {
    var output = ByteOutput(capacity: 64)
    let expected = fill(&output, total: 5 << 20, seed: 9)
    var copies: [Data] = []
    do {
      let data = output.takeData()
      copies.append(data)
      copies.append(data[1000..<2000])
    }
    #expect(copies[0].elementsEqual(expected))
    #expect(copies[1].elementsEqual(expected[1000..<2000]))
    copies.removeFirst()
    #expect(copies[0].elementsEqual(expected[1000..<2000]))
  }

  @Test("XML documents of megabytes round-trip and match the small-buffer layout")
  func largeXMLDocument() throws {
    var random = SplitMix64(seed: 11)
    var items: [PropertyListValue] = []
    let words = ["alpha", "bravo", "東京", "kilo", "a&b", "<tag>", "🎧", "zulu"]
    for index in 0..<3_000 {
      let notes = (0..<(20 + Int(random.next() % 100))).map { _ in words[Int(random.next() % 8)] }.joined(separator: " ")
      items.append([
        "id": .integer(PropertyListInteger(Int64(index))), "name": .string("item \(index) — ✓"), "notes": .string(notes),
        "price": .real(Double(random.next() % 1_000_000) / 100), "inStock": .bool(index % 3 == 0),
      ])
    }
    let thumbnail = Data((0..<100_000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    let value: PropertyListValue = ["items": .array(items), "thumbnail": .data(thumbnail)]
    let large = try value.encoded(as: .xml)
    #expect(large.count > 1 << 20, "the document should make the buffer grow many times")
    #expect(try PropertyListValue(decoding: large) == value)
    // The same items one at a time stay in a small buffer; their lines must be the large
    // document's lines, indented one level deeper there.
    let first = try PropertyListValue.array([items[0]]).encoded(as: .xml)
    let firstText = String(decoding: first, as: UTF8.self)
    let largeText = String(decoding: large, as: UTF8.self)
    let body = firstText.split(separator: "\n").dropFirst(4).dropLast(2).map { "\t" + $0 }.joined(separator: "\n")
    #expect(largeText.contains(body))
    #expect(largeText.hasSuffix("</data>\n</dict>\n</plist>\n"))
  }
}
