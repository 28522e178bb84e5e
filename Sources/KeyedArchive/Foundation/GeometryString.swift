import PropertyLists

/// The text form of points, sizes and rects inside `NSValue` archives (`NS.pointval`,
/// `NS.sizeval`, `NS.rectval`): `{x, y}`, `{w, h}` and `{{x, y}, {w, h}}`, as Foundation's
/// `NSStringFromPoint`/`NSStringFromRect` write them.
enum GeometryString {
  /// A number in C's `%g` style with 17 significant digits, enough to read back the same
  /// `Double`: `400`, `-2`, `0.5`, `1e+20`, `0.10000000000000001`.
  static func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 {
      // Whole numbers print as integers in %g style; skip the C call for the common case.
      return value == 0 ? (value.sign == .minus ? "-0" : "0") : String(Int64(value))
    }
    let text = CPrintf.format(value, specifier: "%.17g")
    return text.isEmpty ? String(value) : String(decoding: text, as: UTF8.self)
  }

  static func point(_ x: Double, _ y: Double) -> String { "{\(format(x)), \(format(y))}" }

  static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> String {
    "{\(point(x, y)), \(point(width, height))}"
  }

  /// The numbers of a `{a, b}` (`count` 2) or `{{a, b}, {c, d}}` (`count` 4) string, or nil when
  /// the braces, commas and numbers are not in exactly that shape or a number does not parse.
  /// Whitespace is free; numbers may be in any form `Double` reads (`-2.0`, `1e+20`, `400`).
  static func numbers(in text: String, count: Int) -> [Double]? {
    let expectedShape: [UInt8] = Array((count == 2 ? "{n,n}" : "{{n,n},{n,n}}").utf8)
    var shape: [UInt8] = []
    var numbers: [Double] = []
    var token: [UInt8] = []
    func finishToken() -> Bool {
      guard !token.isEmpty else { return true }
      guard let number = Double(String(decoding: token, as: UTF8.self)), shape.count < expectedShape.count else { return false }
      numbers.append(number)
      shape.append(UInt8(ascii: "n"))
      token.removeAll(keepingCapacity: true)
      return true
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ","):
        guard finishToken(), shape.count < expectedShape.count else { return nil }
        shape.append(byte)
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        guard finishToken() else { return nil }
      default:
        guard token.count < 64 else { return nil }
        token.append(byte)
      }
    }
    guard finishToken(), shape == expectedShape else { return nil }
    return numbers
  }
}
