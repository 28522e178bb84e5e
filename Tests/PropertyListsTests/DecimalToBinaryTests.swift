import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// The Eisel–Lemire conversion the XML reader uses for reals Clinger's fast path cannot take,
/// against `Double(String)` (the C library's `strtod`): every answer it gives must be the
/// correctly rounded one, and it must give up rather than guess near halfway points.
@Suite("DecimalToBinary: Eisel–Lemire against strtod")
struct DecimalToBinaryTests {
  /// Checks `digits × 10^exponent`: an answer, when there is one, must equal strtod's bit for bit.
  /// Returns whether there was an answer.
  @discardableResult
  func check(_ digits: UInt64, _ exponent: Int, _ note: String) -> Bool {
    let text = "\(digits)e\(exponent)"
    guard let expected = Double(text) else {
      Issue.record("Double(\(text)) failed")
      return false
    }
    guard let value = DecimalToBinary.nearestDouble(digits, timesTenToThe: exponent) else { return false }
    #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) but strtod gives \(expected) (\(note))")
    return true
  }

  @Test("the powers of five are exact or correctly rounded up")
  func powersOfFive() {
    // 5^q for q ≥ 0 is exact: 5^q shifted left until its top bit is set.
    var power: UInt128 = 1
    for q in 0...DecimalToBinary.largestExponent {
      let (high, low) = DecimalToBinary.powerOfFive(q)
      let normalized = power << UInt128(power.leadingZeroBitCount)
      #expect(high == UInt64(normalized >> 64) && low == UInt64(truncatingIfNeeded: normalized), "5^\(q)")
      power = power &* 5
    }
    // For q < 0, ⌈2^k / 5^−q⌉ times 5^−q is just above 2^k: the product's top word is 2^(k−128)…
    var divisor: UInt64 = 5
    for q in stride(from: -1, through: DecimalToBinary.smallestExponent, by: -1) {
      let (high, low) = DecimalToBinary.powerOfFive(q)
      #expect(high >> 63 == 1, "5^\(q) is not normalized")
      // (high·2^64 + low) · d = 2^(127 + bits(d)) + ε with 0 < ε < d.
      let product = (UInt128(high) << 64 | UInt128(low)).multipliedFullWidth(by: UInt128(divisor))
      let bits = 64 - divisor.leadingZeroBitCount
      #expect(product.high == UInt128(1) << UInt128(bits - 1), "5^\(q): product is not just above 2^k")
      #expect(product.low > 0 && product.low < UInt128(divisor), "5^\(q): remainder \(product.low)")
      divisor = divisor &* 5
    }
  }

  @Test("the shortest decimals of seeded doubles convert exactly", arguments: [UInt64(21), 22, 23])
  func shortestDecimals(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var answered = 0
    for _ in 0..<40_000 {
      // Magnitudes from 1e-9 to 1e20, the range the table covers with 17 digits.
      let magnitude = Double(bitPattern: 0x3E00_0000_0000_0000 &+ random.next() % 0x0860_0000_0000_0000)
      let text = "\(magnitude)"
      guard let (digits, exponent) = Self.decimal(text) else { continue }
      if check(digits, exponent, "shortest form of \(text)") { answered += 1 }
    }
    // The method must answer nearly always on such input, or it is not doing its job.
    #expect(answered > 39_000, "only \(answered) of 40000 answered")
  }

  @Test("19-digit decimals convert exactly", arguments: [UInt64(31), 32])
  func longDecimals(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var answered = 0
    for _ in 0..<40_000 {
      let digits = 1_000_000_000_000_000_000 + random.next() % 8_999_999_999_999_999_999
      let exponent = Int(random.next() % 83) - 27
      if check(digits, exponent, "19 digits") { answered += 1 }
    }
    #expect(answered > 38_000, "only \(answered) of 40000 answered")
  }

  @Test("decimals at and next to the halfway points between doubles", arguments: [UInt64(41), 42])
  func halfwayPoints(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var answered = 0
    for _ in 0..<20_000 {
      // The midpoint between a double m·2^−k and its successor is (2m+1)·5^(k+1) / 10^(k+1).
      let m = (1 << 52) | random.next() % (1 << 52)
      let k = Int(random.next() % 20)
      var five: UInt64 = 1
      for _ in 0...k { five *= 5 }
      let exact = UInt128(2 * m + 1) * UInt128(five)
      let text = String(exact)
      let scale = -(k + 1)
      if text.count <= 19 {
        // An exact tie: either the tie-to-even answer or none.
        check(UInt64(text)!, scale, "exact halfway")
      }
      // Cut to 19 digits (just below the tie), and one unit above that (just above it).
      let kept = text.count > 19 ? 19 : text.count
      let head = UInt64(text.prefix(kept))!
      let exponent = scale + (text.count - kept)
      if check(head, exponent, "below halfway") { answered += 1 }
      if check(head + 1, exponent, "above halfway") { answered += 1 }
    }
    // Near a tie the method may give up; it must still answer most of these.
    #expect(answered > 20_000, "only \(answered) of 40000 near-halfway decimals answered")
  }

  @Test("edges: zero, one, powers of ten, the table's ends, and outside them")
  func edges() {
    #expect(DecimalToBinary.nearestDouble(0, timesTenToThe: 5) == nil)
    #expect(DecimalToBinary.nearestDouble(1, timesTenToThe: DecimalToBinary.smallestExponent - 1) == nil)
    #expect(DecimalToBinary.nearestDouble(1, timesTenToThe: DecimalToBinary.largestExponent + 1) == nil)
    for exponent in DecimalToBinary.smallestExponent...DecimalToBinary.largestExponent {
      for digits: UInt64 in [1, 9, 10, 99_999_999_999_999_999, 18_446_744_073_709_551_615, 9_007_199_254_740_993] {
        check(digits, exponent, "edge")
      }
    }
  }

  /// "1.2345e-05" → (12345, −9); nil for forms `Double.description` writes that are not plain.
  static func decimal(_ text: String) -> (UInt64, Int)? {
    var digits: UInt64 = 0
    var exponent = 0
    var seenPoint = false
    var rest = Substring(text)
    if let e = rest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      guard let value = Int(rest[rest.index(after: e)...]) else { return nil }
      exponent = value
      rest = rest[..<e]
    }
    for character in rest {
      if character == "." {
        seenPoint = true
      } else if let digit = character.wholeNumberValue {
        guard digits < UInt64.max / 10 else { return nil }
        digits = digits * 10 + UInt64(digit)
        if seenPoint { exponent -= 1 }
      } else {
        return nil
      }
    }
    return digits == 0 ? nil : (digits, exponent)
  }
}
