import Foundation
import KeyedArchive
import PropertyLists
import Testing
import TestSupport

/// The typed array encoders write exactly what the general `encode(_:forKey:)` writes for the
/// same Swift values, so that a reader cannot tell them apart.
@Suite("KeyedArchiver's typed arrays equal the general path byte for byte")
struct TypedArrayEncodingTests {
  func bytes(_ body: (KeyedArchiver) throws -> Void) throws -> Data {
    let archiver = KeyedArchiver()
    try archiver.encode("before", forKey: "first")
    try body(archiver)
    try archiver.encode(7, forKey: "last")
    return try archiver.finishEncoding()
  }

  @Test("Strings, with repeats, the empty string and \"$null\"", arguments: 0..<4)
  func strings(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let pool = ["a", "", "$null", "before", "é", "e\u{301}", "item 3"]
    let values = (0..<Int.random(in: 0..<40, using: &random)).map { _ in pool.randomElement(using: &random)! }
    #expect(try bytes { try $0.encode(strings: values, forKey: "list") } == bytes { try $0.encode(values, forKey: "list") })
  }

  @Test("Integers, with repeats and extremes")
  func integers() throws {
    let values = [0, 1, -1, 7, 7, Int.max, Int.min, 1 << 40]
    #expect(try bytes { try $0.encode(integers: values, forKey: "list") } == bytes { try $0.encode(values, forKey: "list") })
  }

  @Test("Property-list values: scalars, nested arrays, a dictionary, a date, data, a float", arguments: 0..<4)
  func propertyListValues(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let date = Date(timeIntervalSinceReferenceDate: 12345.5)
    let swiftValues: [Any] = [
      "x", 3, 2.5, true, false, -0.0, 0.0, Float(1.5), 1.5, date, Data([1, 2, 3]), [1.0, 2.0] as [Any], ["k": "v"] as [String: Any],
      [["deep"] as [Any]] as [Any], "$null", 3,
    ]
    let order = swiftValues.indices.shuffled(using: &random)
    let shuffled = order.map { swiftValues[$0] }
    func typed(_ value: Any) -> PropertyListValue {
      switch value {
      case let string as String: .string(string)
      case let flag as Bool: .bool(flag)
      case let number as Int: .integer(PropertyListInteger(Int64(number)))
      case let number as Float: .real(Double(number), width: .single)
      case let number as Double: .real(number)
      case let date as Date: .date(date)
      case let data as Data: .data(data)
      case let list as [Any]: .array(list.map(typed))
      case let dictionary as [String: Any]: .dictionary(PropertyListDictionary(dictionary.map { ($0.key, typed($0.value)) }))
      default: fatalError("unexpected \(value)")
      }
    }
    let typedBytes = try bytes { try $0.encode(propertyListValues: shuffled.map(typed), forKey: "list") }
    let generalBytes = try bytes { try $0.encode(shuffled, forKey: "list") }
    #expect(typedBytes == generalBytes)
  }

  @Test("Registered class instances, with a repeat")
  func objects() throws {
    final class Point: ArchiveEncodable, ArchiveDecodable {
      let x: Int
      init(_ x: Int) { self.x = x }
      init(coder: ArchiveDecoder) throws { x = try coder.decodeInteger(forKey: "x") }
      func encode(with coder: ArchiveEncoder) throws { coder.encode(x, forKey: "x") }
    }
    var registry = ArchiveClassRegistry.foundation
    registry.register(Point.self, as: "Point")
    let shared = Point(3)
    let points = [Point(1), shared, Point(2), shared]
    func bytes(_ body: (KeyedArchiver) throws -> Void) throws -> Data {
      let archiver = KeyedArchiver(registry: registry)
      try body(archiver)
      return try archiver.finishEncoding()
    }
    #expect(try bytes { try $0.encode(objects: points, forKey: "root") } == bytes { try $0.encode(points, forKey: "root") })
  }

  @Test("A date through encode(_: Date, forKey:) equals the general path's NSDate")
  func typedDate() throws {
    final class Stamp: ArchiveEncodable, ArchiveDecodable {
      let date: Date
      let typed: Bool
      init(_ date: Date, typed: Bool) { self.date = date; self.typed = typed }
      init(coder: ArchiveDecoder) throws { date = try coder.decode(Date.self, forKey: "d") ?? Date(); typed = true }
      func encode(with coder: ArchiveEncoder) throws {
        if typed { try coder.encode(date, forKey: "d") } else { try coder.encode(date as Any?, forKey: "d") }
      }
    }
    var registry = ArchiveClassRegistry.foundation
    registry.register(Stamp.self, as: "Stamp")
    let date = Date(timeIntervalSinceReferenceDate: -1234.25)
    let typed = try KeyedArchiver.archivedData(withRootObject: [Stamp(date, typed: true), Stamp(date, typed: true)], registry: registry)
    let general = try KeyedArchiver.archivedData(withRootObject: [Stamp(date, typed: false), Stamp(date, typed: false)], registry: registry)
    #expect(typed == general)
  }

  @Test("A UID is refused")
  func uidRefused() {
    expectError(KeyedArchiveError.self, .invalidValue) { try KeyedArchiver().encode(propertyListValues: [.uid(3)], forKey: "list") }
  }
}
