import Foundation
import StasisSystem
import PlistTool
import PropertyLists

/// The real file system with captured standard output and error, for in-process runs over real
/// files (the comparison suite).
final class CapturingEnvironment: @unchecked Sendable {
  var standardOutput: [UInt8] = []
  var standardError: [UInt8] = []

  /// The real file system, empty standard input, and this object's output streams.
  var host: HostEnvironment {
    HostEnvironment(
      standardStreams: StandardStreams(
        readInput: { _ in [] }, writeOutput: { bytes in self.standardOutput += bytes },
        writeError: { bytes in self.standardError += bytes }))
  }

  /// Runs plutil in-process in this environment.
  static func run(_ arguments: [String]) -> (status: Int32, stdout: [UInt8], stderr: String) {
    let environment = CapturingEnvironment()
    let status = PlistTool(environment: environment.host).run(["plutil"] + arguments)
    return (status, environment.standardOutput, String(decoding: environment.standardError, as: UTF8.self))
  }
}

/// Comparisons that tolerate the differences the formats themselves impose.
enum Agreement {
  /// Differences a comparison lets pass.
  struct Tolerance: OptionSet {
    let rawValue: Int
    /// A real with an integral value equals the integer of that value: JSON writes `3.0` as `3`,
    /// so reading it back gives an integer.
    static let integralRealsAsIntegers = Tolerance(rawValue: 1)
    /// Dates are compared in whole seconds, rounded down: XML drops fractional seconds.
    static let wholeSecondDates = Tolerance(rawValue: 2)
    /// The toolchain's JSON reader (swift-corelibs-foundation's `JSONSerialization`) turns some
    /// decimal reals into a nearby `Double` (seen up to 6 units in the last place away; allowed:
    /// a relative error of 1e-14) and reads integers of 19 or more digits as such inexact reals.
    /// Apple's reader on macOS does neither.
    static let toolchainJSONNumbers = Tolerance(rawValue: 4)
  }

  /// Whether the values agree under `tolerance`.
  static func values(_ lhs: PropertyListValue, _ rhs: PropertyListValue, _ tolerance: Tolerance = []) -> Bool {
    difference(lhs, rhs, tolerance) == nil
  }

  /// Where the values first disagree (a key path and both values), or `nil` when they agree.
  static func difference(
    _ lhs: PropertyListValue, _ rhs: PropertyListValue, _ tolerance: Tolerance = [], at path: String = "root"
  ) -> String? {
    switch (lhs, rhs) {
    case (.array(let left), .array(let right)):
      guard left.count == right.count else { return "\(path): \(left.count) elements vs \(right.count)" }
      for (index, (l, r)) in zip(left, right).enumerated() {
        if let found = difference(l, r, tolerance, at: "\(path).\(index)") { return found }
      }
      return nil
    case (.dictionary(let left), .dictionary(let right)):
      guard left.count == right.count else { return "\(path): \(left.keys) vs \(right.keys)" }
      for (key, value) in left {
        guard let other = right[key] else { return "\(path): key \(key.debugDescription) missing" }
        if let found = difference(value, other, tolerance, at: "\(path).\(key)") { return found }
      }
      return nil
    case (.real(let real, _), .integer(let integer)), (.integer(let integer), .real(let real, _)):
      if tolerance.contains(.integralRealsAsIntegers), real.isFinite, real == real.rounded() {
        if let signed = Int64(exactly: real), PropertyListInteger(signed) == integer { return nil }
        if let unsigned = UInt64(exactly: real), PropertyListInteger(unsigned) == integer { return nil }
      }
      if tolerance.contains(.toolchainJSONNumbers), integer.description.filter(\.isNumber).count >= 19,
        abs(integer.doubleValue - real) <= 1e-14 * abs(real)
      {
        return nil
      }
      return "\(path): \(lhs) vs \(rhs)"
    case (.real(let left, _), .real(let right, _)):
      if lhs == rhs { return nil }
      if tolerance.contains(.toolchainJSONNumbers), left.sign == right.sign,
        abs(left - right) <= 1e-14 * max(abs(left), abs(right))
      {
        return nil
      }
      return "\(path): \(left) vs \(right)"
    case (.date(let left), .date(let right)):
      if lhs == rhs { return nil }
      if tolerance.contains(.wholeSecondDates),
        left.timeIntervalSinceReferenceDate.rounded(.down) == right.timeIntervalSinceReferenceDate.rounded(.down)
      {
        return nil
      }
      return "\(path): \(left.timeIntervalSinceReferenceDate) vs \(right.timeIntervalSinceReferenceDate)"
    default:
      return lhs == rhs ? nil : "\(path): \(lhs) vs \(rhs)"
    }
  }

  /// `value` with every date moved to its whole second toward 1970 (the toolchain's
  /// `Date.description` truncates seconds since 1970 toward zero).
  static func datesRoundedTowardZero(_ value: PropertyListValue) -> PropertyListValue {
    switch value {
    case .date(let date): .date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.towardZero)))
    case .array(let array): .array(array.map(datesRoundedTowardZero))
    case .dictionary(let dictionary): .dictionary(PropertyListDictionary(keys: dictionary.keys, values: dictionary.values.map(datesRoundedTowardZero)))
    default: value
    }
  }

  /// A `plutil -p` listing with data bytes elided: the toolchain's port prints bytes without
  /// zero padding and skips every other byte of long data, so only `length` is compared.
  static func listingWithoutDataBytes(_ listing: String) -> String {
    listing.replacingOccurrences(of: "bytes = 0x[^}]*\\}", with: "bytes = …}", options: .regularExpression)
  }

  static func containsUID(_ value: PropertyListValue) -> Bool {
    switch value {
    case .uid: true
    case .array(let array): array.contains(where: containsUID)
    case .dictionary(let dictionary): dictionary.values.contains(where: containsUID)
    default: false
    }
  }
}
