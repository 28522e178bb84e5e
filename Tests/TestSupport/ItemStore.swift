public import Foundation

/// The item-store document of the property-list benchmarks, as Codable structs.
///
/// The shape is the one the benchmark generator (`Tests/Fixtures/bench/gen_data.py`) writes with Python's plistlib:
///
/// ```text
/// root = { version, generatedAt,
///          config { appName, build, debug, features{str:bool}, limits{str:int},
///                   servers[{host, port, weights[real], enabled}], localized{str:str},
///                   ratios[real], blob(data), updatedAt(date) },
///          categories [{name, code}],
///          items [{id, name, serialNumber, valueInDollars, price, inStock, dateCreated,
///                  tags[str], notes?, thumbnail(data), dimensions{width, height, depth},
///                  ratings[int], attributes{str:str}, parentID?}] }
/// ```
///
/// Optional members (`notes`, `parentID`) are absent from the document when `nil`, as the
/// synthesized `Codable` conformance and the generator both do. ``generate(seed:itemCount:)``
/// builds seeded instances with the generator's value distributions (every integer width,
/// negative numbers, CJK and emoji text, long notes, binary thumbnails).
public struct ItemStore: Codable, Equatable, Sendable {
  public var version: Int
  public var generatedAt: Date
  public var config: Config
  public var categories: [Category]
  public var items: [Item]

  public init(version: Int, generatedAt: Date, config: Config, categories: [Category], items: [Item]) {
    self.version = version
    self.generatedAt = generatedAt
    self.config = config
    self.categories = categories
    self.items = items
  }

  public struct Config: Codable, Equatable, Sendable {
    public var appName: String
    public var build: String
    public var debug: Bool
    public var features: [String: Bool]
    public var limits: [String: Int]
    public var servers: [Server]
    public var localized: [String: String]
    public var ratios: [Double]
    public var blob: Data
    public var updatedAt: Date

    public init(
      appName: String, build: String, debug: Bool, features: [String: Bool], limits: [String: Int],
      servers: [Server], localized: [String: String], ratios: [Double], blob: Data, updatedAt: Date
    ) {
      self.appName = appName
      self.build = build
      self.debug = debug
      self.features = features
      self.limits = limits
      self.servers = servers
      self.localized = localized
      self.ratios = ratios
      self.blob = blob
      self.updatedAt = updatedAt
    }
  }

  public struct Server: Codable, Equatable, Sendable {
    public var host: String
    public var port: Int
    public var weights: [Double]
    public var enabled: Bool

    public init(host: String, port: Int, weights: [Double], enabled: Bool) {
      self.host = host
      self.port = port
      self.weights = weights
      self.enabled = enabled
    }
  }

  public struct Category: Codable, Equatable, Sendable {
    public var name: String
    public var code: Int

    public init(name: String, code: Int) {
      self.name = name
      self.code = code
    }
  }

  public struct Dimensions: Codable, Equatable, Sendable {
    public var width: Double
    public var height: Double
    public var depth: Double

    public init(width: Double, height: Double, depth: Double) {
      self.width = width
      self.height = height
      self.depth = depth
    }
  }

  public struct Item: Codable, Equatable, Sendable {
    public var id: Int
    public var name: String
    public var serialNumber: String
    public var valueInDollars: Int
    public var price: Double
    public var inStock: Bool
    public var dateCreated: Date
    public var tags: [String]
    public var notes: String?
    public var thumbnail: Data
    public var dimensions: Dimensions
    public var ratings: [Int]
    public var attributes: [String: String]
    public var parentID: Int?

    public init(
      id: Int, name: String, serialNumber: String, valueInDollars: Int, price: Double, inStock: Bool,
      dateCreated: Date, tags: [String], notes: String?, thumbnail: Data, dimensions: Dimensions,
      ratings: [Int], attributes: [String: String], parentID: Int?
    ) {
      self.id = id
      self.name = name
      self.serialNumber = serialNumber
      self.valueInDollars = valueInDollars
      self.price = price
      self.inStock = inStock
      self.dateCreated = dateCreated
      self.tags = tags
      self.notes = notes
      self.thumbnail = thumbnail
      self.dimensions = dimensions
      self.ratings = ratings
      self.attributes = attributes
      self.parentID = parentID
    }
  }
}

// MARK: - Seeded generation

extension ItemStore {
  /// A document with `itemCount` items and 50 categories, the same for the same seed.
  public static func generate(seed: UInt64, itemCount: Int) -> ItemStore {
    var generator = ItemStoreGenerator(seed: seed)
    return generator.store(itemCount: itemCount)
  }
}

/// The value distributions of `gen_data.py`, driven by `SplitMix64`.
struct ItemStoreGenerator {
  var rng: SplitMix64

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  static let asciiWords = """
    alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november \
    oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu widget gadget \
    sprocket gizmo doohickey thingamajig lamp chair table sofa kettle toaster blender \
    camera lens tripod monitor keyboard mouse cable adapter
    """.split(separator: " ").map(String.init)
  static let cjkWords = [
    "商品", "電池", "椅子", "机", "時計", "カメラ", "レンズ", "キーボード", "東京", "北京",
    "上海", "大阪", "한국어", "서울", "書籍", "音楽", "映画", "写真", "花瓶", "茶碗",
  ]
  static let emoji = ["🎁", "📦", "🛒", "💡", "🔋", "📷", "🎧", "⌚", "🍵", "🚀", "✨", "🇯🇵", "👩‍💻", "❤️"]
  static let colors = ["red", "green", "blue", "black", "white", "silver", "gold", "紅", "緑", "青"]
  static let materials = ["steel", "wood", "plastic", "glass", "ceramic", "cotton", "leather", "竹"]
  static let origins = ["Japan", "China", "Korea", "Germany", "USA", "Mexico", "Vietnam", "日本", "中国"]

  mutating func unit() -> Double { Double.random(in: 0..<1, using: &rng) }
  mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &rng)! }
  mutating func bytes(_ count: Int) -> Data { Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }) }

  /// Integers of every encoded width, negatives included, always within `Int64`.
  mutating func integer() -> Int {
    let roll = unit()
    if roll < 0.30 { return Int.random(in: 0..<256, using: &rng) }
    if roll < 0.50 { return Int.random(in: 256..<65536, using: &rng) }
    if roll < 0.65 { return Int.random(in: 65536..<(1 << 31), using: &rng) }
    if roll < 0.75 { return Int.random(in: (1 << 32)..<(1 << 62), using: &rng) }
    if roll < 0.80 { return pick([Int.max, Int(Int32.max), 1 << 32, 1 << 16, 255, 0]) }
    if roll < 0.95 { return -Int.random(in: 1..<(1 << 31), using: &rng) }
    return pick([Int.min, -1, -128, -32768])
  }

  mutating func words(_ count: Int) -> String {
    (0..<count).map { _ in pick(Self.asciiWords) }.joined(separator: " ")
  }

  mutating func itemName(_ index: Int) -> String {
    let roll = unit()
    if roll < 0.6 { return "\(words(2).capitalized) \(index)" }
    if roll < 0.85 { return "\(pick(Self.cjkWords))\(pick(Self.cjkWords)) \(index)" }
    return "\(pick(Self.emoji)) \(words(1)) \(pick(Self.cjkWords)) \(index)"
  }

  mutating func longText() -> String {
    let count = Int.random(in: 30..<300, using: &rng)
    var parts: [String] = []
    for _ in 0..<count {
      let roll = unit()
      parts.append(roll < 0.85 ? pick(Self.asciiWords) : roll < 0.97 ? pick(Self.cjkWords) : pick(Self.emoji))
    }
    return parts.joined(separator: " ") + "."
  }

  /// Whole seconds after 2001-01-01, as plistlib writes them.
  mutating func date() -> Date {
    Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<800_000_000, using: &rng)))
  }

  mutating func price() -> Double {
    let value = Double.random(in: 0.01...10000, using: &rng)
    let digits = pick([2, 2, 2, 6, 15])
    let scale = pow(10.0, Double(digits))
    return (value * scale).rounded() / scale
  }

  mutating func item(_ index: Int) -> ItemStore.Item {
    let name = itemName(index)
    let serial = "SN-" + String(UInt64.random(in: 0..<(1 << 40), using: &rng), radix: 16, uppercase: true)
      .leftPadded(to: 10)
    let valueInDollars = integer()
    let price = price()
    let inStock = unit() < 0.7
    let dateCreated = date()
    let tags = (0..<Int.random(in: 0..<6, using: &rng)).map { _ in pick(Self.asciiWords + Self.cjkWords) }
    let notes = unit() < 0.35 ? longText() : nil
    let thumbnail = bytes(Int.random(in: 16..<257, using: &rng))
    let dimensions = ItemStore.Dimensions(
      width: Double.random(in: 0..<500, using: &rng), height: Double.random(in: 0..<500, using: &rng),
      depth: Double.random(in: -1e-3..<1e6, using: &rng))
    let ratings = (0..<Int.random(in: 0..<8, using: &rng)).map { _ in Int.random(in: 1..<6, using: &rng) } + [integer()]
    let attributes = ["color": pick(Self.colors), "material": pick(Self.materials), "origin": pick(Self.origins)]
    let parentID = index > 0 && unit() < 0.1 ? Int.random(in: 0..<index, using: &rng) : nil
    return ItemStore.Item(
      id: index, name: name, serialNumber: serial, valueInDollars: valueInDollars, price: price, inStock: inStock,
      dateCreated: dateCreated, tags: tags, notes: notes, thumbnail: thumbnail, dimensions: dimensions,
      ratings: ratings, attributes: attributes, parentID: parentID)
  }

  mutating func config() -> ItemStore.Config {
    var features: [String: Bool] = [:]
    for index in 0..<40 { features["feature" + String(index).leftPadded(to: 2)] = unit() < 0.5 }
    let limits: [String: Int] = [
      "int8max": 127, "int8min": -128, "int16max": 32767, "int16min": -32768,
      "int32max": Int(Int32.max), "int32min": Int(Int32.min), "uint32max": Int(UInt32.max),
      "int64max": Int.max, "int64min": Int.min, "zero": 0, "negOne": -1,
    ]
    var servers: [ItemStore.Server] = []
    for index in 0..<8 {
      servers.append(
        ItemStore.Server(
          host: "srv\(index).example.invalid", port: 1024 + index * 17, weights: (0..<5).map { _ in unit() },
          enabled: index % 3 != 0))
    }
    let localized = [
      "en": "Welcome to the store", "ja": "ストアへようこそ", "zh": "欢迎光临本店",
      "ko": "상점에 오신 것을 환영합니다", "emoji": "🛒✨🎁👩‍💻❤️", "mixed": "Ünïcödé café naïve",
    ]
    let ratios = [0.1, 0.5, 1.0 / 3.0, 1e-300, 1.7976931348623157e308, -2.5e-10, 123456789.125, 0.0]
    return ItemStore.Config(
      appName: "BenchStore", build: "6.3.1 (a1b2c3d)", debug: false, features: features, limits: limits,
      servers: servers, localized: localized, ratios: ratios, blob: bytes(1024), updatedAt: date())
  }

  mutating func store(itemCount: Int) -> ItemStore {
    let config = config()
    let categories = (0..<50).map {
      ItemStore.Category(name: "Category-" + String($0).leftPadded(to: 2), code: 1000 + $0)
    }
    return ItemStore(
      version: 3, generatedAt: Date(timeIntervalSinceReferenceDate: 700_000_000), config: config,
      categories: categories, items: (0..<itemCount).map { item($0) })
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
