import Interface

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension CocoaNibCompiler {
  // MARK: Colors in a named color space

  /// `<color colorSpace="custom" customColorSpace="sRGB" | "genericGamma22GrayColorSpace">` →
  /// an `NSColor` as Apple's ibtool writes one (HSChooserWindow's table background, the one
  /// sample): the color converted to calibrated RGB (NSColorSpace 1, `NSRGB`) or calibrated
  /// white (3, `NSWhite`), with the color space it was given (`NSCustomColorSpace`, the shared
  /// sRGB or Generic Gray Gamma 2.2 `NSColorSpace`), its own components in that space
  /// (`NSComponents`, alpha always written) and `NSLinearExposure` "1" — the shape of a catalog
  /// color's resolved value.
  ///
  /// The conversion is nominal: sRGB is taken to linear light, to Generic RGB's primaries by
  /// their chromaticities (both D65 white, so no adaptation) and to its 1.8 gamma, negative
  /// components clipped to 0; a gray goes from gamma 2.2 to 1.8. Apple converts through the
  /// ICC profiles, so the last digits differ (HSChooserWindow: 0.0348, 0.3152, 0.8149 here
  /// against Apple's 0.03472566977, 0.3152296245, 0.8149212003), and each color is reported
  /// with ``noteUnverified(_:_:)``.
  mutating func customSpaceColor(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let alpha = element.double("alpha") ?? 1
    let alphaText = alpha != 1 ? " " + Self.colorNumber(alpha) : ""
    switch element["customColorSpace"] {
    case "sRGB":
      guard let red = element.double("red"), let green = element.double("green"), let blue = element.double("blue") else {
        throw invalid(element, "an sRGB color needs red, green and blue")
      }
      let components = [red, green, blue, alpha].map(Self.colorNumber).joined(separator: " ")
      let converted = Self.genericRGB(fromSRGB: (red, green, blue))
      let value = [converted.0, converted.1, converted.2].map(Self.colorNumber).joined(separator: " ") + alphaText
      noteUnverified(element, "<color customColorSpace=\"sRGB\"> converted to calibrated RGB \"\(value)\" by a nominal sRGB to Generic RGB conversion")
      return try resolvedColor(gray: false, value: value, components: components, element: element)
    case "genericGamma22GrayColorSpace":
      guard let white = element.double("white") else { throw invalid(element, "a gray color needs white") }
      let value = Self.colorNumber(Self.gamma18(fromGamma22: white)) + alphaText
      let components = [white, alpha].map(Self.colorNumber).joined(separator: " ")
      noteUnverified(element, "<color customColorSpace=\"genericGamma22GrayColorSpace\"> converted to calibrated white \"\(value)\" by a nominal gamma 2.2 to 1.8 conversion")
      return try resolvedColor(gray: true, value: value, components: components, element: element)
    case let other:
      throw unsupported(element, "<color> in the custom color space \"\(other ?? "(none)")\" is not compiled yet")
    }
  }

  /// sRGB components in Generic RGB (gamma 1.8), clipped to 0…1.
  static func genericRGB(fromSRGB color: (Double, Double, Double)) -> (Double, Double, Double) {
    func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    let r = linear(color.0), g = linear(color.1), b = linear(color.2)
    // sRGB's linear components in Generic RGB's primaries (inverse(Generic) × sRGB, both from
    // their chromaticities and D65 white).
    let out = (
      0.974849505276 * r + 0.027295350214 * g - 0.00214485549 * b,
      -0.020000287401 * r + 1.054209044684 * g - 0.034208757283 * b,
      0.001690749653 * r + 0.001563786839 * g + 0.996745463508 * b
    )
    func encoded(_ c: Double) -> Double { c <= 0 ? 0 : min(1, pow(c, 1 / 1.8)) }
    return (encoded(out.0), encoded(out.1), encoded(out.2))
  }

  /// A gamma 2.2 gray in gamma 1.8.
  static func gamma18(fromGamma22 white: Double) -> Double {
    white <= 0 ? 0 : min(1, pow(white, 2.2 / 1.8))
  }
}
