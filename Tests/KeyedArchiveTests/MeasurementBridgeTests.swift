import Foundation
import Testing
import TestSupport

import KeyedArchive
import PropertyLists

/// Archived `NSMeasurement`s and `NSUnit`s as Foundation's `Measurement<UnitType>` and unit
/// classes: Apple's archives (macOS 10.14, in the corpus) and archives Stasis writes.
struct MeasurementBridgeTests {
  static func archive(_ name: String) throws -> Data {
    Data(try Corpus.file("keyedarchive/macOS-10.14/\(name).archive").bytes())
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason)) func applesAngleAndFrequency() throws {
    let angle = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<UnitAngle>.self, from: Self.archive("NSMeasurement-Angle")))
    #expect(angle.value == 90)
    #expect(angle.unit.symbol == "°")
    #expect(angle.converted(to: .radians).value.isApproximatelyEqual(to: .pi / 2))
    #expect(angle == Measurement(value: 90, unit: UnitAngle.degrees))

    let frequency = try #require(
      try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<UnitFrequency>.self, from: Self.archive("NSMeasurement-Frequency")))
    #expect(frequency.unit.symbol == "MHz")
    #expect(frequency.converted(to: .hertz).value == 1_400_000_000)

    // A plain NSUnit (no converter) is a Measurement<Unit>; asked for as a dimension it is refused.
    let zero = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<Unit>.self, from: Self.archive("NSMeasurement-Zero")))
    #expect(zero.value == 0 && zero.unit.symbol == "")
    #expect(throws: KeyedArchiveError.self) {
      try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<UnitLength>.self, from: Self.archive("NSMeasurement-Angle"))
    }
    // The unit alone, on request.
    let archived = try #require(try KeyedUnarchiver.unarchiveTopLevelObject(from: Self.archive("NSMeasurement-Angle")) as? ArchivedMeasurement)
    #expect(try archived.unit.foundationUnit(as: UnitAngle.self).converter.baseUnitValue(fromValue: 90) == 90)
    #expect(try archived.unit.foundationUnit(as: Dimension.self) is UnitAngle)
    #expect(throws: KeyedArchiveError.self) { try archived.unit.foundationUnit(as: UnitLength.self) }
  }

  /// `Measurement<UnitLength>` and other dimensions round-trip through Apple's classes and keys.
  @Test(arguments: [
    (5.0, UnitLength.kilometers as Dimension, "NSUnitLength"), (-40.0, UnitTemperature.celsius, "NSUnitTemperature"),
    (2.5, UnitMass.pounds, "NSUnitMass"), (1e-3, UnitDuration.milliseconds, "NSUnitDuration"),
  ])
  func roundTrip(value: Double, unit: Dimension, className: String) throws {
    let measurement = Measurement(value: value, unit: unit)
    let data = try KeyedArchiver.archivedData(withRootObject: measurement)
    let plist = try PropertyListValue(decoding: [UInt8](data))
    let objects = try #require(plist.dictionaryValue?["$objects"]?.arrayValue)
    #expect(objects.contains { $0.dictionaryValue?["$classname"] == .string(className) })
    #expect(objects.contains { $0.dictionaryValue?["$classname"] == "NSMeasurement" })
    let unarchiver = try KeyedUnarchiver(data: data)
    let decoded = try #require(try unarchiver.decode(Measurement<Dimension>.self, forKey: "root"))
    #expect(decoded.unit.symbol == unit.symbol)
    #expect(decoded.converted(to: unit).value.isApproximatelyEqual(to: value))
    #expect(type(of: decoded.unit) == type(of: unit))
    let base = measurement.converted(to: type(of: unit).baseUnit()).value
    #expect(decoded.converted(to: type(of: unit).baseUnit()).value.isApproximatelyEqual(to: base))
  }

  @Test func lengthsAsked() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: Measurement(value: 3, unit: UnitLength.feet))
    let length = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<UnitLength>.self, from: data))
    #expect(length.converted(to: .meters).value.isApproximatelyEqual(to: 0.9144))
    #expect(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchivedObject(ofClass: Measurement<UnitMass>.self, from: data) }
  }
}

extension MeasurementBridgeTests {
  /// A unit alone decodes as its Foundation class on request, securely too.
  @Test func unitsOnRequest() throws {
    let data = try KeyedArchiver.archivedData(withRootObject: ArchivedUnit(UnitLength.miles))
    let miles = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: UnitLength.self, from: data))
    #expect(miles.symbol == "mi")
    #expect(miles.converter.baseUnitValue(fromValue: 1) == UnitLength.miles.converter.baseUnitValue(fromValue: 1))
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Dimension.self, from: data) is UnitLength)
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Unit.self, from: data)?.symbol == "mi")
    #expect(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchivedObject(ofClass: UnitMass.self, from: data) }
    let plain = try KeyedArchiver.archivedData(withRootObject: ArchivedUnit(symbol: "widgets"))
    let widgets = try #require(try KeyedUnarchiver.unarchivedObject(ofClass: Unit.self, from: plain))
    #expect(widgets.symbol == "widgets" && !(widgets is Dimension))
  }
}

extension Double {
  func isApproximatelyEqual(to other: Double) -> Bool { abs(self - other) <= 1e-9 * Swift.max(1, abs(self), abs(other)) }
}
