import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The XML writer's output is the shared ``ByteOutput``; these are the kinds of text CF writes.
typealias XMLPlistOutput = ByteOutput

extension ByteOutput {
  @inline(__always)
  mutating func appendTabs(_ tabs: Int) {
    guard tabs > 0 else { return }
    reserve(tabs)
    (base + count).update(repeating: 0x09, count: tabs)
    count += tabs
  }

  /// `string` as UTF-8 with `<`, `>`, `&` replaced by `&lt;`, `&gt;`, `&amp;`; everything else,
  /// control characters included, as is (CF's `_appendEscapedString`).
  mutating func appendEscaped(_ string: String) {
    // In place (a mutable copy for `withUTF8` would retain and release the string).
    withUTF8Bytes(of: string) { bytes in
      guard let base = bytes.baseAddress else { return }
      let count = bytes.count
      var runStart = 0
      var index = 0
      while index < count {
        // Eight bytes at a time while none of them needs escaping (most text).
        while index &+ 8 <= count, !Self.mayNeedEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
          index &+= 8
        }
        let end = Swift.min(index &+ 8, count)
        while index < end {
          let byte = base[index]
          if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") {
            append(UnsafeBufferPointer(start: base + runStart, count: index &- runStart))
            switch byte {
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            default: append("&amp;")
            }
            runStart = index &+ 1
          }
          index &+= 1
        }
      }
      append(UnsafeBufferPointer(start: base + runStart, count: count &- runStart))
    }
  }

  /// Whether any of eight bytes may be `<`, `>` or `&` (no false negatives; a false positive
  /// only sends the word through the byte-by-byte check). `<` and `>` differ in one bit (0x3C,
  /// 0x3E), so one test covers both.
  @inline(__always)
  static func mayNeedEscaping(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
    return hasZeroByte((word | (ones &* 0x02)) ^ (ones &* 0x3E)) || hasZeroByte(word ^ (ones &* 0x26))
  }


  /// An integer in decimal, as CF's `%@` of a CFNumber prints it.
  mutating func appendDecimal(_ integer: PropertyListInteger) {
    var magnitude = integer.isNegative ? 0 &- integer.bitPattern : integer.bitPattern
    reserve(21)
    if integer.isNegative {
      base[count] = UInt8(ascii: "-")
      count += 1
    }
    var digits = 1
    var probe = magnitude
    while probe >= 10 {
      probe /= 10
      digits += 1
    }
    var index = count + digits
    count = index
    repeat {
      index -= 1
      base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
      magnitude /= 10
    } while magnitude != 0
  }

  /// C's `%0*d`: the sign, then zeros up to `width` characters in all, then the digits.
  mutating func appendPadded(_ value: Int32, width: Int) {
    let magnitude = UInt64(value.magnitude)
    var digits = 1
    var probe = magnitude
    while probe >= 10 {
      probe /= 10
      digits += 1
    }
    if value < 0 { append(UInt8(ascii: "-")) }
    let used = digits + (value < 0 ? 1 : 0)
    if used < width {
      reserve(width - used)
      (base + count).update(repeating: UInt8(ascii: "0"), count: width - used)
      count += width - used
    }
    appendDecimal(PropertyListInteger(magnitude))
  }

  /// CF's `__CFNumberCopyFormattingDescriptionAsFloat64`: `nan`, `+infinity`, `-infinity`, `0.0`
  /// for either zero, otherwise C's `%.17g` (17 significant digits, trailing zeros removed,
  /// exponent form below 1e-4 and from 1e17). Most values are formatted by exact integer
  /// arithmetic here; the rest go through the C library's `vsnprintf`.
  mutating func appendReal(_ value: Double) {
    if value.isNaN {
      append("nan")
    } else if value.isInfinite {
      append(value > 0 ? "+infinity" : "-infinity")
    } else if value == 0 {
      append("0.0")
    } else if let (digits, exponent) = XMLPlistRealFormat.seventeenDigits(value.magnitude) {
      if value < 0 { append(UInt8(ascii: "-")) }
      appendGeneralFormat(digits: digits, exponent: exponent)
    } else {
      appendRealWithCLibrary(value)
    }
  }

  /// `%.17g` of `d.dddddddddddddddd × 10^exponent`, `digits` being the 17 digits.
  private mutating func appendGeneralFormat(digits: UInt64, exponent: Int) {
    // At most 23 characters are written; the 17 digits are first laid out past them.
    reserve(48)
    let scratch = base + count + 28
    var rest = digits
    for index in stride(from: 16, through: 0, by: -1) {
      scratch[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    }
    var significant = 17
    while significant > 1 && scratch[significant - 1] == UInt8(ascii: "0") { significant -= 1 }
    var cursor = base + count
    @inline(__always) func put(_ byte: UInt8) {
      cursor.pointee = byte
      cursor += 1
    }
    @inline(__always) func put(_ start: UnsafeMutablePointer<UInt8>, _ length: Int) {
      cursor.update(from: start, count: length)
      cursor += length
    }
    if exponent < -4 || exponent >= 17 {
      put(scratch[0])
      if significant > 1 {
        put(UInt8(ascii: "."))
        put(scratch + 1, significant - 1)
      }
      put(UInt8(ascii: "e"))
      put(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
      let magnitude = exponent.magnitude
      if magnitude >= 100 { put(UInt8(ascii: "0") + UInt8(magnitude / 100)) }
      put(UInt8(ascii: "0") + UInt8(magnitude / 10 % 10))
      put(UInt8(ascii: "0") + UInt8(magnitude % 10))
    } else if exponent >= 0 {
      let integerDigits = exponent + 1
      put(scratch, integerDigits)
      if significant > integerDigits {
        put(UInt8(ascii: "."))
        put(scratch + integerDigits, significant - integerDigits)
      }
    } else {
      put(UInt8(ascii: "0"))
      put(UInt8(ascii: "."))
      for _ in 0..<(-exponent - 1) { put(UInt8(ascii: "0")) }
      put(scratch, significant)
    }
    count = cursor - base
  }

  /// `%.17g` through the C library (used for magnitudes outside the exact fast path).
  mutating func appendRealWithCLibrary(_ value: Double) {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
      let length = withVaList([value]) { arguments in
        vsnprintf(buffer.baseAddress!, 40, "%.17g", arguments)
      }
      for index in 0..<Int(Swift.max(0, Swift.min(length, 39))) {
        let byte = UInt8(bitPattern: buffer[index])
        // A locale with another decimal separator must not leak into the file.
        let isNumeric = byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
        append(isNumeric ? byte : UInt8(ascii: "."))
      }
    }
  }
}

/// Exact decimal digits of doubles for `%.17g`.
enum XMLPlistRealFormat {
  private static let powersOfTen: [UInt128] = {
    var powers: [UInt128] = [1]
    for _ in 1...38 { powers.append(powers[powers.count - 1] * 10) }
    return powers
  }()

  /// The 17 significant digits of `value` (finite, positive), rounded half-even on its exact
  /// binary value as glibc's `printf` rounds them, and the decimal exponent of the first digit.
  /// `nil` when the intermediate products do not fit 128 bits (magnitudes below about 1e-6 or
  /// above about 1e38); the caller then uses the C library.
  static func seventeenDigits(_ value: Double) -> (digits: UInt64, exponent: Int)? {
    let bits = value.bitPattern
    let biased = Int(bits >> 52 & 0x7FF)
    var significand = bits & (1 << 52 - 1)
    let binaryExponent: Int
    if biased == 0 {
      binaryExponent = -1074
    } else {
      significand |= 1 << 52
      binaryExponent = biased - 1075
    }
    var exponent = decimalExponent(value)
    for _ in 0..<3 {
      guard let digits = rounded(significand, binaryExponent, scale: 16 - exponent) else { return nil }
      if digits >= 100_000_000_000_000_000 {
        exponent += 1
      } else if digits < 10_000_000_000_000_000 {
        exponent -= 1
      } else if digits == 10_000_000_000_000_000 {
        // log10 may round up just below a power of ten, and the rounding of the digits may then
        // hide it; the value's own exponent is one less if it has 17 digits there.
        guard let lower = rounded(significand, binaryExponent, scale: 17 - exponent) else { return nil }
        return lower < 100_000_000_000_000_000 ? (lower, exponent - 1) : (digits, exponent)
      } else {
        return (digits, exponent)
      }
    }
    return nil
  }

  /// Powers of ten that doubles hold exactly (10^0 … 10^22).
  private static let exactPowersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { product, _ in product * 10 } }

  /// ⌊log10(value)⌋ of a finite positive `value` from its binary exponent, without the C
  /// library's `log10` (a fifth of the time of formatting a real): ⌊e × log10 2⌋ for value in
  /// [2^e, 2^(e+1)) is ⌊log10(value)⌋ or one less, and one comparison with the next power of ten
  /// settles it where that power is exact. Elsewhere it may stay one less, which
  /// ``seventeenDigits(_:)`` corrects (it checks the digits it gets, as it did after `log10`).
  static func decimalExponent(_ value: Double) -> Int {
    // 78913 / 2^18 is log10 2 to within 2 × 10^-7: exact over the exponents of doubles.
    let estimate = (Int(value.exponent) &* 78913) >> 18
    let next = estimate + 1
    if next >= 0 && next < exactPowersOfTen.count && value >= exactPowersOfTen[next] { return next }
    return estimate
  }

  /// `significand × 2^binaryExponent × 10^scale` rounded half-even to an integer, if every
  /// intermediate fits 128 bits and the result fits 64.
  private static func rounded(_ significand: UInt64, _ binaryExponent: Int, scale: Int) -> UInt64? {
    let quotient: UInt128
    let remainder: UInt128
    let divisor: UInt128
    if scale >= 0 {
      guard scale <= 38 else { return nil }
      let (product, overflow) = UInt128(significand).multipliedReportingOverflow(by: powersOfTen[scale])
      guard !overflow else { return nil }
      if binaryExponent >= 0 {
        guard binaryExponent < 128, product.leadingZeroBitCount > binaryExponent else { return nil }
        return UInt64(exactly: product << binaryExponent)
      }
      let shift = -binaryExponent
      guard shift < 127 else { return nil }
      divisor = UInt128(1) << shift
      quotient = product >> shift
      remainder = product & (divisor - 1)
    } else {
      guard -scale <= 38 else { return nil }
      let power = powersOfTen[-scale]
      if binaryExponent >= 0 {
        guard binaryExponent < 128, UInt128(significand).leadingZeroBitCount > binaryExponent else { return nil }
        let numerator = UInt128(significand) << binaryExponent
        divisor = power
        (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: power)
      } else {
        let shift = -binaryExponent
        guard shift < 128, power.leadingZeroBitCount > shift else { return nil }
        divisor = power << shift
        (quotient, remainder) = UInt128(significand).quotientAndRemainder(dividingBy: divisor)
      }
    }
    let other = divisor - remainder
    var result = quotient
    if remainder > other || (remainder == other && quotient & 1 == 1) { result += 1 }
    return UInt64(exactly: result)
  }
}
