import Foundation
import PlistTool
import PropertyLists

/// The real file system with captured standard output and error, for in-process runs over real
/// files (the comparison suite).
final class CapturingEnvironment: PlistToolEnvironment {
  private let system = SystemEnvironment()
  var standardOutput: [UInt8] = []
  var standardError: [UInt8] = []

  func readFile(atPath path: String, byteLimit: Int) throws(PlistToolError) -> [UInt8] {
    try system.readFile(atPath: path, byteLimit: byteLimit)
  }
  func readStandardInput(byteLimit: Int) throws(PlistToolError) -> [UInt8] { [] }
  func writeFileAtomically(_ bytes: [UInt8], toPath path: String) throws(PlistToolError) {
    try system.writeFileAtomically(bytes, toPath: path)
  }
  func writeStandardOutput(_ bytes: [UInt8]) { standardOutput += bytes }
  func writeStandardError(_ bytes: [UInt8]) { standardError += bytes }

  /// Runs plutil in-process in this environment.
  static func run(_ arguments: [String]) -> (status: Int32, stdout: [UInt8], stderr: String) {
    let environment = CapturingEnvironment()
    let status = PlistTool(environment: environment).run(["plutil"] + arguments)
    return (status, environment.standardOutput, String(decoding: environment.standardError, as: UTF8.self))
  }
}

/// Comparisons that tolerate the differences the formats themselves impose.
enum Agreement {
  /// Equal values, where (with `integralRealsAreIntegers`) a real with an integral value equals
  /// the integer of that value: JSON writes `3.0` as `3`, so reading it back gives an integer.
  static func values(_ lhs: PropertyListValue, _ rhs: PropertyListValue, integralRealsAreIntegers: Bool) -> Bool {
    switch (lhs, rhs) {
    case (.array(let left), .array(let right)):
      return left.count == right.count
        && zip(left, right).allSatisfy { values($0, $1, integralRealsAreIntegers: integralRealsAreIntegers) }
    case (.dictionary(let left), .dictionary(let right)):
      guard left.count == right.count else { return false }
      for (key, value) in left {
        guard let other = right[key], values(value, other, integralRealsAreIntegers: integralRealsAreIntegers) else { return false }
      }
      return true
    case (.real(let real, _), .integer(let integer)), (.integer(let integer), .real(let real, _)):
      guard integralRealsAreIntegers, real.isFinite, real == real.rounded() else { return false }
      if let signed = Int64(exactly: real) { return PropertyListInteger(signed) == integer }
      if let unsigned = UInt64(exactly: real) { return PropertyListInteger(unsigned) == integer }
      return false
    default:
      return lhs == rhs
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
