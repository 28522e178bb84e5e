extension ColorProfiles {
  /// The profiles' file names in `ColorProfiles/` (the source of ``genericGrayGamma22Bytes`` and
  /// ``sRGBBytes``).
  static let grayFileName = "GenericGrayGamma2.2.icc"
  static let sRGBFileName = "sRGB.icc"

  /// The two profiles Apple's ibtool writes, shipped with this module inside its code (extracted
  /// from an Apple-compiled nib of the test corpus; `ColorProfiles/README.md` says which and why).
  public static let shipped: ColorProfiles? = ColorProfiles(genericGray: genericGrayGamma22Bytes, sRGB: sRGBBytes)
}
