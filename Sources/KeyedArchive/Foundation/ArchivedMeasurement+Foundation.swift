public import Foundation

// Foundation's `Measurement`, `Unit` and `Dimension` subclasses for the archived `NSMeasurement`
// and `NSUnit` objects (`ArchivedMeasurement`, `ArchivedUnit`): an archived measurement can be
// decoded as `Measurement<UnitLength>` (or any `Dimension` type, or `Unit`), an archived unit as
// `UnitLength`, `Dimension` or `Unit`, and Foundation's values archive as Apple's classes. The
// keys (`NS.value`, `NS.unit`, `NS.symbol`, `NS.converter` → `NSUnitConverterLinear` with
// `NS.coefficient`/`NS.constant`, `NS.specifier`) are those of the macOS 10.14 archives in the
// corpus (keyedarchive/macOS-10.14/NSMeasurement-*.archive).

extension ArchivedUnit {
  /// Foundation's unit class for each archived `NSDimension` subclass (`NSUnitLength` →
  /// `UnitLength`), made from the archived symbol and linear converter.
  static let dimensionMakers: [String: @Sendable (String, UnitConverter) -> Dimension] = [
    "NSUnitAcceleration": { UnitAcceleration(symbol: $0, converter: $1) },
    "NSUnitAngle": { UnitAngle(symbol: $0, converter: $1) },
    "NSUnitArea": { UnitArea(symbol: $0, converter: $1) },
    "NSUnitConcentrationMass": { UnitConcentrationMass(symbol: $0, converter: $1) },
    "NSUnitDispersion": { UnitDispersion(symbol: $0, converter: $1) },
    "NSUnitDuration": { UnitDuration(symbol: $0, converter: $1) },
    "NSUnitElectricCharge": { UnitElectricCharge(symbol: $0, converter: $1) },
    "NSUnitElectricCurrent": { UnitElectricCurrent(symbol: $0, converter: $1) },
    "NSUnitElectricPotentialDifference": { UnitElectricPotentialDifference(symbol: $0, converter: $1) },
    "NSUnitElectricResistance": { UnitElectricResistance(symbol: $0, converter: $1) },
    "NSUnitEnergy": { UnitEnergy(symbol: $0, converter: $1) },
    "NSUnitFrequency": { UnitFrequency(symbol: $0, converter: $1) },
    "NSUnitFuelEfficiency": { UnitFuelEfficiency(symbol: $0, converter: $1) },
    "NSUnitIlluminance": { UnitIlluminance(symbol: $0, converter: $1) },
    "NSUnitInformationStorage": { UnitInformationStorage(symbol: $0, converter: $1) },
    "NSUnitLength": { UnitLength(symbol: $0, converter: $1) },
    "NSUnitMass": { UnitMass(symbol: $0, converter: $1) },
    "NSUnitPower": { UnitPower(symbol: $0, converter: $1) },
    "NSUnitPressure": { UnitPressure(symbol: $0, converter: $1) },
    "NSUnitSpeed": { UnitSpeed(symbol: $0, converter: $1) },
    "NSUnitTemperature": { UnitTemperature(symbol: $0, converter: $1) },
    "NSUnitVolume": { UnitVolume(symbol: $0, converter: $1) },
    "NSDimension": { Dimension(symbol: $0, converter: $1) },
  ]

  /// Apple's class name for a Foundation unit type: `UnitLength` → `NSUnitLength`,
  /// `Dimension` → `NSDimension`, `Unit` → `NSUnit`.
  static func archivedClassName(of type: Unit.Type) -> String {
    let name = String(describing: type)
    return name.hasPrefix("NS") ? name : "NS" + name
  }

  /// The unit as Foundation's class (`NSUnitLength` → a `UnitLength` with the archived symbol and
  /// converter; `NSUnit` → a `Unit` with the symbol).
  ///
  /// - Throws: `KeyedArchiveError.Code.corruptArchive` for a dimension without a converter.
  public func foundationUnit() throws -> Unit {
    guard className != "NSUnit" else { return Unit(symbol: symbol) }
    guard let converter else {
      throw KeyedArchiveError(.corruptArchive, "\(className) \"\(symbol)\" has no NS.converter; a dimension needs one")
    }
    let linear = UnitConverterLinear(coefficient: converter.coefficient, constant: converter.constant)
    guard let make = Self.dimensionMakers[className] else {
      throw KeyedArchiveError(.typeMismatch, "\(className) is not a unit class Foundation has")
    }
    return make(symbol, linear)
  }

  /// The unit as `type` (`UnitLength`, `Dimension`, `Unit`).
  ///
  /// - Throws: `KeyedArchiveError.Code.typeMismatch` when the archived class is not `type` or a
  ///   subclass of it (an `NSUnitAngle` asked for as `UnitLength`).
  public func foundationUnit<UnitType: Unit>(as type: UnitType.Type) throws -> UnitType {
    guard let unit = try foundationUnit() as? UnitType else {
      throw KeyedArchiveError(.typeMismatch, "the archived unit \"\(symbol)\" is an \(className), not an \(Self.archivedClassName(of: type))")
    }
    return unit
  }

  /// The archived form of a Foundation unit: its class's Apple name, its symbol and, for a
  /// dimension with a linear converter, the converter. `NS.specifier` (Apple's private index of
  /// a predefined unit) is not known for Foundation's units and is left out, as for a custom unit.
  public init(_ unit: Unit) {
    var converter: ArchivedUnitConverter?
    if let dimension = unit as? Dimension, let linear = dimension.converter as? UnitConverterLinear {
      converter = ArchivedUnitConverter(coefficient: linear.coefficient, constant: linear.constant)
    }
    self.init(className: Self.archivedClassName(of: type(of: unit)), symbol: unit.symbol, converter: converter)
  }
}

extension ArchivedMeasurement {
  /// The measurement as Foundation's `Measurement<UnitType>` (`Measurement<UnitLength>`,
  /// `Measurement<Unit>` for a plain `NSUnit`).
  ///
  /// - Throws: `KeyedArchiveError.Code.typeMismatch` when the unit is not a `UnitType`.
  public func foundationMeasurement<UnitType: Unit>(as type: UnitType.Type = UnitType.self) throws -> Measurement<UnitType> {
    Measurement(value: value, unit: try unit.foundationUnit(as: type))
  }

  /// The archived form of a Foundation measurement.
  public init<UnitType: Unit>(_ measurement: Measurement<UnitType>) {
    self.init(value: measurement.value, unit: ArchivedUnit(measurement.unit))
  }
}

// Decoding `Measurement<UnitType>` and `Unit` types directly (`decode(Measurement<UnitLength>.self,
// forKey:)`): in secure mode they admit NSMeasurement and the unit classes; the decoded archived
// value is converted (lifted) to the type asked for.

extension Measurement: ArchiveContainerType, ArchivePreservedFormLiftable {
  static var archiveFoundationNames: [String] { ["NSMeasurement", "NSUnitConverterLinear"] + ArchivedUnit.classNames }
  static var archiveElementTypes: [Any.Type] { [ArchivedMeasurement.self] }

  static func lifted(from plainValue: Any) -> Any? {
    guard let archived = plainValue as? ArchivedMeasurement else { return nil }
    return try? archived.foundationMeasurement(as: UnitType.self)
  }
}

extension Unit: ArchiveContainerType, ArchivePreservedFormLiftable {
  static var archiveFoundationNames: [String] { ["NSUnitConverterLinear"] + ArchivedUnit.classNames }
  static var archiveElementTypes: [Any.Type] { [ArchivedUnit.self] }

  static func lifted(from plainValue: Any) -> Any? {
    guard let archived = plainValue as? ArchivedUnit else { return nil }
    return try? archived.foundationUnit()
  }
}

extension Measurement: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSMeasurement", ["NSMeasurement", "NSObject"]) }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    try ArchivedMeasurement(self).encodeArchiveContents(with: coder)
  }
}
