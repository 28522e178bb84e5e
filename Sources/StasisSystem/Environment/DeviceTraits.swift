/// The device a program presents itself as: what resource and Info.plist lookups call the
/// platform (`-iphoneos`, `-macos`) and the product (`~iphone`, `~ipad`), and the screen scale
/// that `@2x`/`@3x` image lookups prefer (`UIDevice.userInterfaceIdiom`, `UIScreen.scale`).
///
/// On Linux, Stasis uses the platform name `linux` — the name swift-corelibs-foundation's CF gives
/// this OS (`_CFBundleLinuxPlatformNameSuffix` is `-linux`) — and no product, because a Linux
/// machine is no particular Apple device. Set ``platform`` to `iphoneos` and ``product`` to `ipad`
/// to see bundles and interface files as an iPad would.
public struct DeviceTraits: Sendable, Hashable {
  /// The platform suffix, without its dash (`linux`, `macos`, `iphoneos`…).
  public var platform: String
  /// The product suffix, without its tilde (`iphone`, `ipad`), or `nil` for none. `ipod` is
  /// looked up as `iphone`, as CF does.
  public var product: String?
  /// The screen scale, 1 or more.
  public var displayScale: Int

  public init(platform: String = "linux", product: String? = nil, displayScale: Int = 1) {
    self.platform = platform
    self.product = product
    self.displayScale = max(1, displayScale)
  }

  /// Platform `linux`, no product, scale 1.
  public static let linux = DeviceTraits()
}
