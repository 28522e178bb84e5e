import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// The XML writer's decimal exponent of a real (`%.17g`'s), worked out from the binary exponent
/// instead of the C library's `log10`.
@Suite("XML reals' decimal exponent")
struct XMLRealExponentTests {
  /// ⌊log10 v⌋ by comparisons with the powers of ten doubles hold exactly, for 1 ≤ v < 10^23.
  static func exactExponent(_ value: Double) -> Int {
    var power = 1.0
    var exponent = 0
    while exponent < 22 && value >= power * 10 {
      power *= 10
      exponent += 1
    }
    return exponent
  }

  /// Exact from 1 to 10^23 (where the powers of ten are exact doubles), at the powers of ten
  /// themselves and just below them, and for seeded values between.
  @Test func exactWherePowersOfTenAreExact() {
    var rng = SplitMix64(seed: 23)
    var values: [Double] = []
    var power = 1.0
    for _ in 0...22 {
      values += [power, power.nextDown, power.nextUp, power * 3]
      power *= 10
    }
    for _ in 0..<20_000 {
      // Spread over the binary exponents 0…76 (1 … 1.5 × 10^23).
      let exponent = UInt64(1023 + rng.next() % 77)
      values.append(Double(bitPattern: exponent << 52 | rng.next() >> 12))
    }
    for value in values where value >= 1 && value < 1e23 {
      #expect(XMLPlistRealFormat.decimalExponent(value) == Self.exactExponent(value), "\(value)")
    }
  }

  /// Everywhere else (tiny, subnormal and huge values) at most one less than ⌊log10 v⌋, which
  /// the digit loop corrects; the digits of such values still match the C library's `%.17g`.
  @Test func atMostOneLessElsewhere() {
    var rng = SplitMix64(seed: 24)
    for _ in 0..<20_000 {
      let value = Double(bitPattern: (rng.next() >> 1) % 0x7FF0_0000_0000_0000 + 1)
      let estimate = XMLPlistRealFormat.decimalExponent(value)
      let reference = Int(log10(value).rounded(.down))
      // log10 itself may round across an integer next to a power of ten.
      #expect(estimate >= reference - 2 && estimate <= reference, "\(value)")
      var output = ByteOutput(capacity: 64)
      output.appendReal(value)
      let printed = output.bytes()
      output.release()
      var expected = [CChar](repeating: 0, count: 40)
      let length = withVaList([value]) { vsnprintf(&expected, 40, "%.17g", $0) }
      let text = String(decoding: expected.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      #expect(String(decoding: printed, as: UTF8.self) == text, "\(value)")
    }
  }
}
