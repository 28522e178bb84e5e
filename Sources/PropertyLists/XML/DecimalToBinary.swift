/// Correctly rounded conversion of `digits × 10^exponent` (at most 19 significant digits) to the
/// nearest `Double`, without `strtod`, by the Eisel–Lemire method (Lemire, "Number Parsing at a
/// Gigabyte per Second", 2021): multiply the normalized digits by a 128-bit approximation of
/// 5^exponent and keep the top 54 bits, giving up (`nil`, so that the caller falls back to
/// `strtod`) whenever the approximation's error could change the rounding.
///
/// The powers are built on first use, exactly, for exponents −27 … 55: 5^q itself (exact within
/// 128 bits up to 5^55) and, for negative q, 2^k / 5^−q rounded up (5^27 < 2^63, so one word
/// divides). Real property lists write values like 1608.6255211435512 (17 digits, exponent −13),
/// which Clinger's exact fast path cannot take; other exponents go to `strtod`.
enum DecimalToBinary {
  static let smallestExponent = -27
  static let largestExponent = 55

  /// The 128-bit approximations of 5^q, most significant bit set: `(high, low)` words.
  static let powersOfFive: [(high: UInt64, low: UInt64)] = (smallestExponent...largestExponent).map(powerOfFive)

  /// 5^q × 2^(127 − ⌊log₂ 5^q⌋): truncated for q ≥ 0 (exact up to q = 55), rounded up for q < 0.
  static func powerOfFive(_ q: Int) -> (high: UInt64, low: UInt64) {
    if q >= 0 {
      // 5^q in two words, then shifted left until bit 127 is set.
      var high: UInt64 = 0
      var low: UInt64 = 1
      for _ in 0..<q {
        let lowProduct = low.multipliedFullWidth(by: 5)
        high = high &* 5 &+ lowProduct.high
        low = lowProduct.low
      }
      let shift = high == 0 ? 64 + low.leadingZeroBitCount : high.leadingZeroBitCount
      if shift >= 64 { return (low << UInt64(shift - 64), 0) }
      if shift == 0 { return (high, low) }
      return (high << UInt64(shift) | low >> UInt64(64 - shift), low << UInt64(shift))
    }
    // d = 5^−q < 2^63; the quotient ⌈2^(127 + bits(d)) / d⌉ has exactly 128 bits.
    var divisor: UInt64 = 1
    for _ in 0..<(-q) { divisor *= 5 }
    let bits = 64 - divisor.leadingZeroBitCount
    // The dividend 2^(127 + bits) as words, most significant first: a one bit, then zeros.
    let totalBits = 127 + bits + 1
    let wordCount = (totalBits + 63) / 64
    var words = [UInt64](repeating: 0, count: wordCount)
    words[0] = 1 << UInt64((127 + bits) % 64)
    var quotient = [UInt64](repeating: 0, count: wordCount)
    var remainder: UInt64 = 0
    for index in 0..<wordCount {
      let (digit, rest) = divisor.dividingFullWidth((remainder, words[index]))
      quotient[index] = digit
      remainder = rest
    }
    var high = quotient[wordCount - 2]
    var low = quotient[wordCount - 1]
    if remainder != 0 {
      low &+= 1
      if low == 0 { high &+= 1 }
    }
    return (high, low)
  }

  /// The double nearest to `digits × 10^exponent` (ties to even), or `nil` when this method cannot
  /// decide it or the result would be subnormal, infinite or outside the table's exponents.
  /// `digits` must not be zero.
  @inline(__always)
  static func nearestDouble(_ digits: UInt64, timesTenToThe exponent: Int) -> Double? {
    guard digits != 0, exponent >= smallestExponent, exponent <= largestExponent else { return nil }
    let power = powersOfFive[exponent - smallestExponent]
    var leadingZeros = digits.leadingZeroBitCount
    let normalized = digits << UInt64(leadingZeros)
    var (upper, lower) = normalized.multipliedFullWidth(by: power.high)
    if upper & 0x1FF == 0x1FF && lower &+ normalized < lower {
      // The truncated part could carry into the bits that decide the rounding: add the second
      // word's product.
      let (middle, bottom) = normalized.multipliedFullWidth(by: power.low)
      let sum = lower &+ middle
      if sum < lower { upper &+= 1 }
      if sum &+ 1 == 0 && upper & 0x1FF == 0x1FF && bottom &+ normalized < bottom { return nil }
      lower = sum
    }
    let upperBit = upper >> 63
    var mantissa = upper >> (upperBit + 9)
    leadingZeros += Int(1 ^ upperBit)
    // Exactly halfway between two doubles as far as these bits show: let strtod decide.
    if lower == 0 && upper & 0x1FF == 0 && mantissa & 3 == 1 { return nil }
    mantissa += mantissa & 1
    mantissa >>= 1
    if mantissa >= 1 << 53 {
      mantissa = 1 << 52
      leadingZeros -= 1
    }
    mantissa &= ~(1 << 52)
    let biasedExponent = ((217_706 * exponent) >> 16) + 1024 + 63 - leadingZeros
    guard biasedExponent >= 1, biasedExponent <= 2046 else { return nil }
    return Double(bitPattern: mantissa | UInt64(biasedExponent) << 52)
  }
}
