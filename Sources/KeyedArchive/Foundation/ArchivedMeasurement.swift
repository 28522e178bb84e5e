import FoundationEssentials
import PropertyLists

/// `NSMeasurement`: a value in a unit, archived as `{NS.value: real, NS.unit: UID → unit}`.
/// (FoundationEssentials has no `Measurement`, so the archive's content is kept as it is.)
public struct ArchivedMeasurement: Hashable, Sendable, CustomStringConvertible {
  /// `NS.value`.
  public var value: Double
  /// `NS.unit`.
  public var unit: ArchivedUnit

  public init(value: Double, unit: ArchivedUnit) {
    self.value = value
    self.unit = unit
  }

  public var description: String { "\(value) \(unit.symbol)" }
}

/// `NSUnit` or one of its `NSDimension` subclasses (`NSUnitLength`, `NSUnitAngle`, …):
/// `{NS.symbol}` for a plain unit; a dimension adds `NS.converter` (its `NSUnitConverterLinear`
/// to the base unit) and, for Foundation's predefined units, `NS.specifier` (Apple's private index
/// of the unit, kept as read so that re-archiving writes it back).
public struct ArchivedUnit: Hashable, Sendable {
  /// The archived class: `NSUnit`, `NSDimension` or an `NSDimension` subclass.
  public var className: String
  /// `NS.symbol`.
  public var symbol: String
  /// `NS.converter`, for dimensions.
  public var converter: ArchivedUnitConverter?
  /// `NS.specifier`, for Foundation's predefined dimensions.
  public var specifier: Int?

  public init(className: String = "NSUnit", symbol: String, converter: ArchivedUnitConverter? = nil, specifier: Int? = nil) {
    self.className = className
    self.symbol = symbol
    self.converter = converter
    self.specifier = specifier
  }

  /// Foundation's `NSDimension` subclasses (macOS 10.12 / iOS 10 and later).
  public static let dimensionClassNames = [
    "NSUnitAcceleration", "NSUnitAngle", "NSUnitArea", "NSUnitConcentrationMass", "NSUnitDispersion", "NSUnitDuration",
    "NSUnitElectricCharge", "NSUnitElectricCurrent", "NSUnitElectricPotentialDifference", "NSUnitElectricResistance",
    "NSUnitEnergy", "NSUnitFrequency", "NSUnitFuelEfficiency", "NSUnitIlluminance", "NSUnitInformationStorage",
    "NSUnitLength", "NSUnitMass", "NSUnitPower", "NSUnitPressure", "NSUnitSpeed", "NSUnitTemperature", "NSUnitVolume",
  ]

  /// Every class an `ArchivedUnit` reads and writes.
  public static let classNames = ["NSUnit", "NSDimension"] + dimensionClassNames

  /// The class chain written to `$classes` for `className`.
  static func chain(of className: String) -> [String] {
    switch className {
    case "NSUnit": ["NSUnit", "NSObject"]
    case "NSDimension": ["NSDimension", "NSUnit", "NSObject"]
    default: [className, "NSDimension", "NSUnit", "NSObject"]
    }
  }
}

/// `NSUnitConverterLinear`: `base = value × NS.coefficient + NS.constant`.
public struct ArchivedUnitConverter: Hashable, Sendable {
  /// `NS.coefficient`.
  public var coefficient: Double
  /// `NS.constant`.
  public var constant: Double

  public init(coefficient: Double, constant: Double = 0) {
    self.coefficient = coefficient
    self.constant = constant
  }
}

extension ArchivedMeasurement: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSMeasurement", ["NSMeasurement", "NSObject"]) }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.real(value), forKey: "NS.value")
    coder.encodeRaw(.uid(try coder.reference(to: unit)), forKey: "NS.unit")
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    let className = "NSMeasurement"
    guard let value = try coder.storedReal("NS.value", of: className) else { throw coder.corrupt(className, "has no NS.value number") }
    guard let unit = try coder.decodeObject(forKey: "NS.unit", including: [ArchivedUnit.self]) as? ArchivedUnit else {
      throw coder.corrupt(className, "has no NS.unit unit")
    }
    self.init(value: value, unit: unit)
  }
}

extension ArchivedUnit: ArchiveFoundationValue, ArchiveFoundationAliased {
  static var archivedClassNames: [String] { classNames }

  public var archiveClass: (name: String, classes: [String]) { (className, Self.chain(of: className)) }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.uid(try coder.reference(to: symbol)), forKey: "NS.symbol")
    if let converter { coder.encodeRaw(.uid(try coder.reference(to: converter)), forKey: "NS.converter") }
    if let specifier { coder.encodeRaw(.integer(specifier), forKey: "NS.specifier") }
  }

  init(archivedBy coder: ArchiveDecoder, className: String) throws {
    guard let symbol = try coder.decode(String.self, forKey: "NS.symbol") else { throw coder.corrupt(className, "has no NS.symbol string") }
    var converter: ArchivedUnitConverter?
    if coder.storedValue(forKey: "NS.converter") != nil {
      guard let decoded = try coder.decodeObject(forKey: "NS.converter", including: [ArchivedUnitConverter.self]) as? ArchivedUnitConverter
      else { throw coder.corrupt(className, "has an NS.converter that is not an NSUnitConverterLinear") }
      converter = decoded
    }
    self.init(className: className, symbol: symbol, converter: converter, specifier: try coder.storedInteger("NS.specifier", of: className))
  }
}

extension ArchivedUnitConverter: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) {
    ("NSUnitConverterLinear", ["NSUnitConverterLinear", "NSUnitConverter", "NSObject"])
  }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.real(coefficient), forKey: "NS.coefficient")
    coder.encodeRaw(.real(constant), forKey: "NS.constant")
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    let className = "NSUnitConverterLinear"
    guard let coefficient = try coder.storedReal("NS.coefficient", of: className) else {
      throw coder.corrupt(className, "has no NS.coefficient number")
    }
    self.init(coefficient: coefficient, constant: try coder.storedReal("NS.constant", of: className) ?? 0)
  }
}

extension ArchiveClassRegistry {
  mutating func registerMeasurementClasses() {
    registerFoundation("NSMeasurement", classes: ["NSMeasurement", "NSObject"], type: ArchivedMeasurement.self) {
      try ArchivedMeasurement(archivedBy: $0)
    }
    registerFoundation(
      "NSUnitConverterLinear", classes: ["NSUnitConverterLinear", "NSUnitConverter", "NSObject"], type: ArchivedUnitConverter.self
    ) {
      try ArchivedUnitConverter(archivedBy: $0)
    }
    for name in ArchivedUnit.classNames {
      registerFoundation(name, classes: ArchivedUnit.chain(of: name), type: ArchivedUnit.self) {
        try ArchivedUnit(archivedBy: $0, className: name)
      }
    }
  }
}
