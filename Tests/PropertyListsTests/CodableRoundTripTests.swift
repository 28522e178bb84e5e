import Foundation
import Testing
import TestSupport

@testable import PropertyLists

// Foundation has classes of the same names; these tests use both.
typealias StasisEncoder = PropertyLists.PropertyListEncoder
typealias StasisDecoder = PropertyLists.PropertyListDecoder
typealias FoundationEncoder = Foundation.PropertyListEncoder
typealias FoundationDecoder = Foundation.PropertyListDecoder

// MARK: - Models

/// Every integer type at both of its bounds.
struct IntegerBounds: Codable, Equatable {
  var int8: [Int8] = [.min, .max, 0, -1]
  var int16: [Int16] = [.min, .max]
  var int32: [Int32] = [.min, .max]
  var int64: [Int64] = [.min, .max]
  var int: [Int] = [.min, .max]
  var uint8: [UInt8] = [.min, .max]
  var uint16: [UInt16] = [.min, .max]
  var uint32: [UInt32] = [.min, .max]
  var uint64: [UInt64] = [.min, .max, UInt64(Int64.max) + 1]
  var uint: [UInt] = [.min, .max]
  var scalarInt8 = Int8.min
  var scalarUInt64 = UInt64.max
  var scalarUInt = UInt.max
  var scalarInt16 = Int16.max
}

struct CodableOptionals: Codable, Equatable {
  var present: Int? = 4
  var absent: Int? = nil
  var string: String? = "x"
  var date: Date? = nil
  var nested: CodableOptionals.Inner? = Inner(value: nil)
  var list: [Int?] = [1, nil, 3]
  var strings: [String?] = [nil, "b"]
  var doubleOptional: [Double??] = [1.5, nil]

  struct Inner: Codable, Equatable { var value: Bool? }
}

/// A nil written with `encode` rather than `encodeIfPresent`: Foundation writes "$null".
struct ExplicitNil: Codable, Equatable {
  var value: Int?
  var other: String?
  enum CodingKeys: CodingKey { case value, other }
  init(value: Int?, other: String?) {
    self.value = value
    self.other = other
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(value, forKey: .value)
    try container.encode(other, forKey: .other)
  }
}

indirect enum CodableShape: Codable, Equatable {
  case circle(radius: Double)
  case rectangle(Double, height: Double)
  case empty
  case tagged(label: String?, id: UInt8)
  case group([CodableShape], name: String)
  case optional(CodableShape?)
}

enum CodableSuit: String, Codable, Equatable { case hearts, spades }
enum CodableRank: Int, Codable, Equatable { case ace = 1, king = 13 }

class CodableAnimal: Codable, Equatable {
  var name: String
  var legs: Int
  init(name: String, legs: Int) {
    self.name = name
    self.legs = legs
  }
  static func == (lhs: CodableAnimal, rhs: CodableAnimal) -> Bool {
    type(of: lhs) == type(of: rhs) && lhs.isEqual(to: rhs)
  }
  func isEqual(to other: CodableAnimal) -> Bool { name == other.name && legs == other.legs }
}

/// Encodes its superclass through `superEncoder()` (key "super").
class CodableDog: CodableAnimal {
  var breed: String
  enum CodingKeys: CodingKey { case breed }
  init(name: String, breed: String) {
    self.breed = breed
    super.init(name: name, legs: 4)
  }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    breed = try container.decode(String.self, forKey: .breed)
    try super.init(from: container.superDecoder())
  }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(breed, forKey: .breed)
    try super.encode(to: container.superEncoder())
  }
  override func isEqual(to other: CodableAnimal) -> Bool {
    guard let other = other as? CodableDog else { return false }
    return breed == other.breed && super.isEqual(to: other)
  }
}

/// Encodes its superclass through `superEncoder(forKey:)`, and shares the encoder with it
/// (`super.encode(to: encoder)`) one level up.
final class CodablePuppy: CodableDog {
  var ageInWeeks: UInt16
  enum PuppyKeys: CodingKey { case ageInWeeks, parent }
  init(name: String, breed: String, ageInWeeks: UInt16) {
    self.ageInWeeks = ageInWeeks
    super.init(name: name, breed: breed)
  }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: PuppyKeys.self)
    ageInWeeks = try container.decode(UInt16.self, forKey: .ageInWeeks)
    try super.init(from: container.superDecoder(forKey: .parent))
  }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: PuppyKeys.self)
    try container.encode(ageInWeeks, forKey: .ageInWeeks)
    try super.encode(to: container.superEncoder(forKey: .parent))
  }
  override func isEqual(to other: CodableAnimal) -> Bool {
    guard let other = other as? CodablePuppy else { return false }
    return ageInWeeks == other.ageInWeeks && super.isEqual(to: other)
  }
}

/// Writes through nested keyed and unkeyed containers and an unkeyed super encoder, and reads
/// them back the same way.
struct HandWritten: Codable, Equatable {
  var title: String
  var point: (x: Int, y: Int)
  var matrix: [[Float]]
  var extra: String

  enum Keys: String, CodingKey { case title, point, matrix, x, y, trailer }

  init(title: String, point: (x: Int, y: Int), matrix: [[Float]], extra: String) {
    self.title = title
    self.point = point
    self.matrix = matrix
    self.extra = extra
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.point == rhs.point && lhs.matrix == rhs.matrix && lhs.extra == rhs.extra
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(title, forKey: .title)
    var point = container.nestedContainer(keyedBy: Keys.self, forKey: .point)
    var rows = container.nestedUnkeyedContainer(forKey: .matrix)
    for row in matrix {
      var cells = rows.nestedUnkeyedContainer()
      for cell in row { try cells.encode(cell) }
    }
    var trailer = rows.superEncoder().singleValueContainer()
    try trailer.encode(extra)
    // Written after its siblings; must still land under "point".
    try point.encode(self.point.x, forKey: .x)
    try point.encode(self.point.y, forKey: .y)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    title = try container.decode(String.self, forKey: .title)
    let point = try container.nestedContainer(keyedBy: Keys.self, forKey: .point)
    self.point = (try point.decode(Int.self, forKey: .x), try point.decode(Int.self, forKey: .y))
    var rows = try container.nestedUnkeyedContainer(forKey: .matrix)
    var matrix: [[Float]] = []
    while rows.count.map({ rows.currentIndex < $0 - 1 }) ?? false {
      var cells = try rows.nestedUnkeyedContainer()
      var row: [Float] = []
      while !cells.isAtEnd { row.append(try cells.decode(Float.self)) }
      matrix.append(row)
    }
    extra = try rows.superDecoder().singleValueContainer().decode(String.self)
    self.matrix = matrix
  }
}

/// A model with one of everything.
struct RichModel: Codable, Equatable {
  var string: String
  var unicode: String
  var int: Int
  var double: Double
  var float: Float
  var flag: Bool
  var date: Date
  var blob: Data
  var url: URL
  var relativeURL: URL
  var bounds: IntegerBounds
  var optionals: CodableOptionals
  var shapes: [CodableShape]
  var suit: CodableSuit
  var rank: CodableRank
  var byName: [String: Int]
  var byNumber: [Int: String]
  var nested: [String: [String: [Double]]]
  var set: Set<String>
  var empty: Empty
  var emptyList: [Int]
  var explicitNil: ExplicitNil

  struct Empty: Codable, Equatable {}

  static func random(seed: UInt64) -> RichModel {
    var rng = SplitMix64(seed: seed)
    var text = RandomPropertyList(seed: seed, kinds: .binary)
    func number() -> Double { Double.random(in: -1e9...1e9, using: &rng) }
    let shapes: [CodableShape] = (0..<Int.random(in: 0...4, using: &rng)).map { index in
      switch index % 4 {
      case 0: .circle(radius: number())
      case 1: .rectangle(number(), height: number())
      case 2: .tagged(label: Bool.random(using: &rng) ? text.string() : nil, id: .random(in: 0...255, using: &rng))
      default: .group([.empty, .optional(nil), .optional(.circle(radius: 1))], name: text.string())
      }
    }
    var byName: [String: Int] = [:]
    for _ in 0..<Int.random(in: 0...5, using: &rng) { byName[text.string()] = Int.random(in: .min ... .max, using: &rng) }
    var byNumber: [Int: String] = [:]
    for _ in 0..<Int.random(in: 0...5, using: &rng) { byNumber[Int.random(in: -1000...1000, using: &rng)] = text.string() }
    return RichModel(
      string: text.string(), unicode: "é中😀🇯🇵" + text.string(), int: Int.random(in: .min ... .max, using: &rng),
      double: number(), float: Float.random(in: -1e6...1e6, using: &rng), flag: Bool.random(using: &rng),
      date: Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &rng))),
      blob: Data((0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }),
      url: URL(string: "https://example.com/item/\(Int.random(in: 0...9999, using: &rng))?q=1")!,
      relativeURL: URL(string: "b/c.plist", relativeTo: URL(string: "file:///tmp/a/"))!,
      bounds: IntegerBounds(), optionals: CodableOptionals(), shapes: shapes, suit: Bool.random(using: &rng) ? .hearts : .spades,
      rank: .king, byName: byName, byNumber: byNumber,
      nested: ["outer": ["inner": [number(), 0, -0.5]], "none": [:]],
      set: Set((0..<3).map { _ in text.string() }), empty: Empty(), emptyList: [],
      explicitNil: ExplicitNil(value: nil, other: Bool.random(using: &rng) ? "set" : nil))
  }
}

// MARK: - Helpers

/// Whether the Stasis codec for `format` is built yet (the XML one is written in parallel).
func stasisCodecAvailable(_ format: PropertyLists.PropertyListFormat) -> Bool {
  // OpenStep holds only strings, data and containers.
  let probe: PropertyListValue = format == .openStep ? ["k": ["two", .data(Data([1]))]] : ["k": [1, "two", true]]
  guard let bytes = try? probe.encoded(as: format) else { return false }
  return (try? PropertyListValue(decoding: bytes, format: format)) == probe
}

/// Encodes with Stasis to a value and decodes it back.
func valueRoundTrip<T: Codable>(_ value: T) throws -> T {
  try StasisDecoder().decode(T.self, from: StasisEncoder().encodeToValue(value))
}

/// Encodes with Stasis to bytes in `format` and decodes them back, reporting the format seen.
func dataRoundTrip<T: Codable>(_ value: T, _ format: PropertyLists.PropertyListFormat) throws -> T {
  let encoder = StasisEncoder()
  encoder.outputFormat = format
  let bytes = try encoder.encode(value)
  var detected = PropertyLists.PropertyListFormat.json
  let decoded = try StasisDecoder().decode(T.self, from: bytes, format: &detected)
  #expect(detected == format)
  return decoded
}

// MARK: - Tests

@Suite("Codable round trips")
struct CodableRoundTripTests {
  @Test func integerBoundsSurviveEveryWidth() throws {
    let bounds = IntegerBounds()
    #expect(try valueRoundTrip(bounds) == bounds)
    let value = try StasisEncoder().encodeToValue(bounds)
    #expect(value["uint64"]?[1] == .integer(PropertyListInteger(UInt64.max)))
    #expect(value["int64"]?[0] == .integer(PropertyListInteger(Int64.min)))
    #expect(value["scalarUInt"] == .integer(PropertyListInteger(UInt64(UInt.max))))
  }

  @Test func optionalsKeepTheirShape() throws {
    let optionals = CodableOptionals()
    #expect(try valueRoundTrip(optionals) == optionals)
    let value = try StasisEncoder().encodeToValue(optionals)
    // encodeIfPresent leaves absent keys out; nil inside arrays is "$null".
    #expect(value["absent"] == nil)
    #expect(value["date"] == nil)
    #expect(value["list"] == [1, "$null", 3])
    #expect(value["nested"] == .dictionary([:]))
    #expect(value["doubleOptional"] == [.real(1.5), "$null"])
  }

  @Test func explicitNilIsTheNullString() throws {
    let value = try StasisEncoder().encodeToValue(ExplicitNil(value: nil, other: "x"))
    #expect(value == ["value": "$null", "other": "x"])
    #expect(try valueRoundTrip(ExplicitNil(value: nil, other: nil)) == ExplicitNil(value: nil, other: nil))
    #expect(try valueRoundTrip(ExplicitNil(value: 3, other: nil)) == ExplicitNil(value: 3, other: nil))
  }

  @Test func scalarsBecomeTheMatchingValues() throws {
    struct Scalars: Codable, Equatable {
      var date = Date(timeIntervalSinceReferenceDate: 12.25)
      var data = Data([0, 1, 0xFF])
      var float: Float = 0.1
      var double = 0.1
      var flag = true
      var text = "$nul"
    }
    let value = try StasisEncoder().encodeToValue(Scalars())
    #expect(value["date"] == .date(Date(timeIntervalSinceReferenceDate: 12.25)))
    #expect(value["data"] == .data(Data([0, 1, 0xFF])))
    guard case .real(let float, let width)? = value["float"] else {
      Issue.record("float encoded as \(String(describing: value["float"]))")
      return
    }
    #expect(float == Double(Float(0.1)) && width == .single)
    #expect(value["double"] == .real(0.1))
    #expect(value["flag"] == .bool(true))
    #expect(try valueRoundTrip(Scalars()) == Scalars())
  }

  @Test func enumsWithAssociatedValuesRoundTrip() throws {
    let shapes: [CodableShape] = [
      .circle(radius: 2), .rectangle(1, height: -3), .empty, .tagged(label: nil, id: 255),
      .group([.empty, .optional(.circle(radius: 0))], name: "g"), .optional(nil),
    ]
    #expect(try valueRoundTrip(shapes) == shapes)
    let value = try StasisEncoder().encodeToValue(shapes)
    #expect(value[0] == ["circle": ["radius": .real(2)]])
    #expect(value[1] == ["rectangle": ["_0": .real(1), "height": .real(-3)]])
    #expect(value[2] == ["empty": [:]])
    #expect(value[3] == ["tagged": ["id": 255]])
    #expect(try valueRoundTrip([CodableSuit.spades]) == [.spades])
    #expect(try StasisEncoder().encodeToValue([CodableRank.ace]) == [1])
  }

  @Test func classInheritanceUsesSuperEncoders() throws {
    let dog = CodableDog(name: "Rex", breed: "collie")
    let value = try StasisEncoder().encodeToValue(dog)
    #expect(value == ["breed": "collie", "super": ["name": "Rex", "legs": 4]])
    #expect(try valueRoundTrip(dog) == dog)

    let puppy = CodablePuppy(name: "Bit", breed: "pug", ageInWeeks: 9)
    let puppyValue = try StasisEncoder().encodeToValue(puppy)
    #expect(puppyValue == ["ageInWeeks": 9, "parent": ["breed": "pug", "super": ["name": "Bit", "legs": 4]]])
    let decoded = try valueRoundTrip(puppy)
    #expect(decoded == puppy)
  }

  @Test func nestedContainersWrittenOutOfOrder() throws {
    let model = HandWritten(title: "t", point: (3, -4), matrix: [[1, 2.5], [], [-0.25]], extra: "end")
    let value = try StasisEncoder().encodeToValue(model)
    let matrix: PropertyListValue = [
      [.real(1, width: .single), .real(2.5, width: .single)], [], [.real(-0.25, width: .single)], "end",
    ]
    #expect(value == ["title": "t", "point": ["x": 3, "y": -4], "matrix": matrix])
    #expect(value.dictionaryValue?.keys == ["title", "point", "matrix"])
    #expect(try valueRoundTrip(model) == model)
  }

  @Test func dictionariesSortStringKeysAndStringifyIntegerKeys() throws {
    let byName = ["zeta": 1, "alpha": 2, "Mid": 3, "é": 4]
    let value = try StasisEncoder().encodeToValue(byName)
    #expect(value.dictionaryValue?.keys == ["Mid", "alpha", "zeta", "é"])
    #expect(try valueRoundTrip(byName) == byName)

    let byNumber = [3: "c", -1: "m", 10: "x"]
    let numberValue = try StasisEncoder().encodeToValue(byNumber)
    #expect(numberValue == ["3": "c", "-1": "m", "10": "x"])
    #expect(try valueRoundTrip(byNumber) == byNumber)
  }

  @Test func urlsEncodeAsTheirOwnDictionaries() throws {
    let absolute = URL(string: "https://example.com/a?b=c")!
    let relative = URL(string: "c/d", relativeTo: URL(string: "https://example.com/x/"))!
    let value = try StasisEncoder().encodeToValue([absolute, relative])
    #expect(value[0] == ["relative": "https://example.com/a?b=c"])
    #expect(value[1] == ["relative": "c/d", "base": ["relative": "https://example.com/x/"]])
    let decoded = try valueRoundTrip([absolute, relative])
    #expect(decoded.map(\.absoluteString) == [absolute.absoluteString, relative.absoluteString])
  }

  @Test func topLevelValues() throws {
    // Data and containers may be documents; every Stasis value may be a PropertyListValue root.
    #expect(try StasisEncoder().encodeToValue(Data([1])) == .data(Data([1])))
    #expect(try StasisEncoder().encodeToValue(5) == 5)
    #expect(try StasisDecoder().decode(Int.self, from: 5) == 5)
    #expect(try StasisDecoder().decode(Date.self, from: .date(Date(timeIntervalSinceReferenceDate: 1))) == Date(timeIntervalSinceReferenceDate: 1))
    #expect(try StasisDecoder().decode(Int?.self, from: "$null") == nil)
    #expect(try StasisEncoder().encodeToValue(RichModel.Empty()) == .dictionary([:]))
  }

  @Test func numbersConvertAsFoundationAllows() throws {
    let decoder = StasisDecoder()
    #expect(try decoder.decode(Double.self, from: 3) == 3)
    #expect(try decoder.decode(Float.self, from: .integer(PropertyListInteger(UInt64.max))) == Float(UInt64.max))
    #expect(try decoder.decode(Int.self, from: .real(-3)) == -3)
    #expect(try decoder.decode(UInt8.self, from: .real(255, width: .single)) == 255)
    #expect(try decoder.decode(Float.self, from: .real(0.5)) == 0.5)
    #expect(try decoder.decode(Float.self, from: .real(.infinity)) == .infinity)
    #expect(try decoder.decode(Float.self, from: .real(.nan)).isNaN)
    #expect(try decoder.decode(Double.self, from: .real(Double(Float(0.1)), width: .single)) == Double(Float(0.1)))
  }

  @Test func userInfoReachesTheCoders() throws {
    struct Probe: Codable {
      static let key = CodingUserInfoKey(rawValue: "stasis.test")!
      init() {}
      init(from decoder: any Decoder) throws {
        #expect(decoder.userInfo[Self.key] as? String == "decoding")
        _ = try decoder.singleValueContainer().decode([Int].self)
      }
      func encode(to encoder: any Encoder) throws {
        #expect(encoder.userInfo[Self.key] as? String == "encoding")
        var container = encoder.singleValueContainer()
        try container.encode([1])
      }
    }
    let encoder = StasisEncoder()
    encoder.userInfo[Probe.key] = "encoding"
    let decoder = StasisDecoder()
    decoder.userInfo[Probe.key] = "decoding"
    _ = try decoder.decode(Probe.self, from: encoder.encodeToValue(Probe()))
  }

  @Test func codingPathsSeenDuringEncodingAndDecoding() throws {
    struct PathRecorder: Codable {
      static let seen = CodablePathLog()
      init() {}
      func encode(to encoder: any Encoder) throws {
        Self.seen.append("E " + encoder.codingPath.map(\.stringValue).joined(separator: "/"))
        var container = encoder.singleValueContainer()
        try container.encode(1)
      }
      init(from decoder: any Decoder) throws {
        Self.seen.append("D " + decoder.codingPath.map(\.stringValue).joined(separator: "/"))
        _ = try decoder.singleValueContainer().decode(Int.self)
      }
    }
    struct Outer: Codable { var list: [[String: PathRecorder]] }
    let value = try StasisEncoder().encodeToValue(Outer(list: [["k": PathRecorder()]]))
    _ = try StasisDecoder().decode(Outer.self, from: value)
    #expect(PathRecorder.seen.entries == ["E list/Index 0/k", "D list/Index 0/k"])
  }

  @Test(arguments: 0..<40 as Range<UInt64>)
  func generatedRichModelsRoundTripThroughValues(seed: UInt64) throws {
    let model = RichModel.random(seed: seed)
    #expect(try valueRoundTrip(model) == model, "seed \(seed)")
  }

  @Test(arguments: 0..<8 as Range<UInt64>)
  func generatedItemStoresRoundTripThroughValues(seed: UInt64) throws {
    let store = ItemStore.generate(seed: seed, itemCount: Int(seed) * 7)
    #expect(try valueRoundTrip(store) == store, "seed \(seed)")
  }

  @Test(.enabled(if: stasisCodecAvailable(.binary), "the Stasis binary codec is not built yet"))
  func itemStoresRoundTripThroughBinary() throws { try itemStoresRoundTripThroughBytes(.binary) }

  @Test(.enabled(if: stasisCodecAvailable(.xml), "the Stasis XML codec is not built yet"))
  func itemStoresRoundTripThroughXML() throws { try itemStoresRoundTripThroughBytes(.xml) }

  @Test(.enabled(if: stasisCodecAvailable(.binary), "the Stasis binary codec is not built yet"))
  func richModelsRoundTripThroughBinary() throws { try richModelsRoundTripThroughBytes(.binary) }

  @Test(.enabled(if: stasisCodecAvailable(.xml), "the Stasis XML codec is not built yet"))
  func richModelsRoundTripThroughXML() throws { try richModelsRoundTripThroughBytes(.xml) }

  private func itemStoresRoundTripThroughBytes(_ format: PropertyLists.PropertyListFormat) throws {
    for seed in 0..<6 as Range<UInt64> {
      let store = ItemStore.generate(seed: seed, itemCount: 25)
      #expect(try dataRoundTrip(store, format) == store, "seed \(seed), \(format)")
    }
  }

  private func richModelsRoundTripThroughBytes(_ format: PropertyLists.PropertyListFormat) throws {
    for seed in 0..<30 as Range<UInt64> {
      let model = RichModel.random(seed: seed)
      #expect(try dataRoundTrip(model, format) == model, "seed \(seed), \(format)")
    }
    let puppy = CodablePuppy(name: "a", breed: "b", ageInWeeks: 1)
    #expect(try dataRoundTrip([puppy], format) == [puppy])
  }

  @Test func optionsAreSharedSafely() async throws {
    let encoder = StasisEncoder()
    let decoder = StasisDecoder()
    let store = ItemStore.generate(seed: 99, itemCount: 3)
    let value = try encoder.encodeToValue(store)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<8 {
        group.addTask { () async throws in
          encoder.outputFormat = index.isMultiple(of: 2) ? .xml : .binary
          #expect(try decoder.decode(ItemStore.self, from: encoder.encodeToValue(store)) == store)
        }
      }
      try await group.waitForAll()
    }
    #expect(try decoder.decode(ItemStore.self, from: value) == store)
  }
}

/// A thread-safe list of strings for tests that record what coders saw.
final class CodablePathLog: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []
  func append(_ entry: String) { lock.withLock { stored.append(entry) } }
  var entries: [String] { lock.withLock { stored } }
}
