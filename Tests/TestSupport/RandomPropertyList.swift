import Foundation
public import PropertyLists

/// Seeded generation of property-list values for round-trip and cross-implementation tests.
public struct RandomPropertyList {
  /// Which kinds of value the target format can hold.
  public struct Kinds: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let integers = Kinds(rawValue: 1)
    public static let reals = Kinds(rawValue: 2)
    public static let bools = Kinds(rawValue: 4)
    public static let dates = Kinds(rawValue: 8)
    public static let data = Kinds(rawValue: 16)
    public static let uids = Kinds(rawValue: 32)
    /// Integers above Int64.max.
    public static let bigUnsigned = Kinds(rawValue: 64)
    /// Dates with fractional seconds (XML truncates them).
    public static let fractionalDates = Kinds(rawValue: 128)
    /// NaN and infinities.
    public static let specialReals = Kinds(rawValue: 256)
    /// Reals stored as 32-bit.
    public static let singleReals = Kinds(rawValue: 512)
    /// Non-ASCII and astral characters in strings.
    public static let unicode = Kinds(rawValue: 1024)
    /// Everything a binary plist holds.
    public static let binary: Kinds = [.integers, .reals, .bools, .dates, .data, .uids, .bigUnsigned, .fractionalDates, .specialReals, .singleReals, .unicode]
    /// Everything an XML plist round-trips exactly.
    public static let xml: Kinds = [.integers, .reals, .bools, .dates, .data, .uids, .bigUnsigned, .specialReals, .unicode]
    /// What JSON holds (plutil's rules).
    public static let json: Kinds = [.integers, .reals, .bools, .unicode]
    /// What OpenStep holds: strings, data, arrays, dictionaries.
    public static let openStep: Kinds = [.data, .unicode]
  }

  public var rng: SplitMix64
  public var kinds: Kinds
  public var maximumDepth: Int
  public var maximumWidth: Int

  public init(seed: UInt64, kinds: Kinds, maximumDepth: Int = 4, maximumWidth: Int = 6) {
    rng = SplitMix64(seed: seed)
    self.kinds = kinds
    self.maximumDepth = maximumDepth
    self.maximumWidth = maximumWidth
  }

  public mutating func string() -> String {
    let length = Int.random(in: 0...12, using: &rng)
    let ascii = Array("abcXYZ019 _-./:$&<>\"'\\\n\t;=,(){}").map { String($0) }
    let unicode = ["é", "ß", "中", "文", "😀", "🇯🇵", "\u{2028}", "Ω", "ñ", "\u{7F}", "\u{1}"]
    var result = ""
    for _ in 0..<length {
      if kinds.contains(.unicode), Int.random(in: 0..<4, using: &rng) == 0 {
        result += unicode.randomElement(using: &rng)!
      } else {
        result += ascii.randomElement(using: &rng)!
      }
    }
    return result
  }

  public mutating func scalar() -> PropertyListValue {
    var choices: [Int] = [0]
    if kinds.contains(.integers) { choices += [1, 1] }
    if kinds.contains(.reals) { choices.append(2) }
    if kinds.contains(.bools) { choices.append(3) }
    if kinds.contains(.dates) { choices.append(4) }
    if kinds.contains(.data) { choices.append(5) }
    if kinds.contains(.uids) { choices.append(6) }
    switch choices.randomElement(using: &rng)! {
    case 1:
      switch Int.random(in: 0..<6, using: &rng) {
      case 0: return .integer(PropertyListInteger(Int64.random(in: -300...300, using: &rng)))
      case 1: return .integer(PropertyListInteger(Int64.random(in: Int64.min...Int64.max, using: &rng)))
      case 2: return .integer(PropertyListInteger([Int64.min, Int64.max, 0, -1, 255, 256, 65535, 65536, 4_294_967_295, 4_294_967_296].randomElement(using: &rng)!))
      case 3 where kinds.contains(.bigUnsigned): return .integer(PropertyListInteger(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &rng)))
      default: return .integer(PropertyListInteger(Int64.random(in: -1 << 40...1 << 40, using: &rng)))
      }
    case 2:
      if kinds.contains(.specialReals), Int.random(in: 0..<10, using: &rng) == 0 {
        return .real([Double.nan, .infinity, -.infinity, 0.0, -0.0].randomElement(using: &rng)!)
      }
      if kinds.contains(.singleReals), Bool.random(using: &rng) {
        return .real(Double(Float.random(in: -1e6...1e6, using: &rng)), width: .single)
      }
      switch Int.random(in: 0..<3, using: &rng) {
      case 0: return .real(Double(Int.random(in: -1000...1000, using: &rng)))
      case 1: return .real(Double.random(in: -1e300...1e300, using: &rng))
      default: return .real(Double.random(in: -1...1, using: &rng))
      }
    case 3: return .bool(Bool.random(using: &rng))
    case 4:
      var seconds = Double(Int64.random(in: -2_000_000_000...2_000_000_000, using: &rng))
      if kinds.contains(.fractionalDates) { seconds += Double.random(in: 0..<1, using: &rng) }
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case 5:
      let count = Int.random(in: 0...40, using: &rng)
      return .data(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }))
    case 6: return .uid(UInt64(UInt32.random(in: 0...UInt32.max, using: &rng)))
    default: return .string(string())
    }
  }

  public mutating func value(depth: Int = 0) -> PropertyListValue {
    let roll = Int.random(in: 0..<10, using: &rng)
    if depth >= maximumDepth || roll < 5 { return scalar() }
    let width = Int.random(in: 0...maximumWidth, using: &rng)
    if roll < 7 {
      return .array((0..<width).map { _ in value(depth: depth + 1) })
    }
    var dictionary = PropertyListDictionary()
    for _ in 0..<width { dictionary[string()] = value(depth: depth + 1) }
    return .dictionary(dictionary)
  }

  /// A value whose root is a container, as the JSON and OpenStep writers expect.
  public mutating func document() -> PropertyListValue {
    var dictionary = PropertyListDictionary()
    for _ in 0...Int.random(in: 0...maximumWidth, using: &rng) { dictionary[string()] = value(depth: 1) }
    return .dictionary(dictionary)
  }
}
