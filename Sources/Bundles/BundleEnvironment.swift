import FoundationEssentials
import Synchronization

/// Everything a bundle reads from outside its folder: the device it is running on, the screen
/// scale, the process environment and the user's language list.
///
/// Apple's `CFBundle` reads these from the OS (`_CFGetPlatformName`, `_CFGetProductName`, the
/// `AppleLanguages` preference). Stasis reads them once, here, so that tests and tools can state
/// them instead.
///
/// **Platform and product names.** Resource names and Info.plist keys may carry a platform
/// (`-iphoneos`, `-macos`) and a product (`~iphone`, `~ipad`) suffix. On Linux, Stasis uses the
/// platform name `linux` — the name swift-corelibs-foundation's CF gives this OS
/// (`_CFBundleLinuxPlatformNameSuffix` is `-linux`) — and no product, because a Linux machine is
/// no particular Apple device. So `Icon-linux.png` and `Key-linux` override `Icon.png` and `Key`
/// here. Set ``platform`` to `iphoneos` and ``product`` to `ipad` to see a bundle as an iPad would.
public struct BundleEnvironment: Sendable {
  /// The platform suffix in use, without its dash (`linux`, `macos`, `iphoneos`…). Default `linux`.
  public var platform: String
  /// The product suffix in use, without its tilde (`iphone`, `ipad`), or `nil` for none.
  /// `ipod` is looked up as `iphone`, as CF does. Default `nil`.
  public var product: String?
  /// The screen scale that `@2x`/`@3x` image lookups prefer. Default 1.
  public var displayScale: Int
  /// The process environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG` are read).
  public var variables: [String: String]
  /// The user's `AppleLanguages` array, when known; consulted before ``variables``. When `nil`,
  /// ``Bundle/appleLanguagesProvider`` is asked instead.
  public var appleLanguages: (@Sendable () -> [String]?)?
  /// The program's main bundle, whose chosen localizations other bundles (frameworks, plug-ins)
  /// follow unless its Info.plist sets `CFBundleAllowMixedLocalizations` (see
  /// ``Bundle/preferredLocalizations``). ``current`` gives ``Bundle/main``; `nil` (the default,
  /// and ``languages(_:platform:product:displayScale:)``) means every bundle matches the user's
  /// languages on its own.
  public var mainBundle: (@Sendable () -> Bundle?)?

  public init(
    platform: String = "linux", product: String? = nil, displayScale: Int = 1,
    variables: [String: String] = [:], appleLanguages: (@Sendable () -> [String]?)? = nil,
    mainBundle: (@Sendable () -> Bundle?)? = nil
  ) {
    self.platform = platform
    self.product = product
    self.displayScale = max(1, displayScale)
    self.variables = variables
    self.appleLanguages = appleLanguages
    self.mainBundle = mainBundle
  }

  /// This process: platform `linux`, no product, scale 1, the real environment variables, and
  /// ``Bundle/main`` as the main bundle.
  public static var current: BundleEnvironment {
    BundleEnvironment(variables: ProcessInfo.processInfo.environment, mainBundle: { Bundle.main })
  }

  /// An environment with a fixed language list and no environment variables (for tests and tools).
  public static func languages(_ languages: [String], platform: String = "linux", product: String? = nil, displayScale: Int = 1)
    -> BundleEnvironment
  {
    BundleEnvironment(
      platform: platform, product: product, displayScale: displayScale, variables: [:],
      appleLanguages: { languages })
  }

  /// The user's preferred languages, best first: ``appleLanguages``, else
  /// ``Bundle/appleLanguagesProvider``, else the POSIX variables (`LANGUAGE`, `LC_ALL`,
  /// `LC_MESSAGES`, `LANG`; `zh_TW.UTF-8` becomes `zh-Hant-TW`, `C`/`POSIX` means none).
  public var preferredLanguages: [String] {
    if let provider = appleLanguages, let list = provider(), !list.isEmpty { return list }
    if let provider = Bundle.appleLanguagesProvider, let list = provider(), !list.isEmpty { return list }
    return LocalizationMatching.preferredLanguages(fromEnvironment: variables)
  }

  /// The product suffix actually used for lookups (`ipod` → `iphone`).
  var lookupProduct: String? {
    guard let product, !product.isEmpty else { return nil }
    return product == "ipod" ? "iphone" : product
  }

  /// Product names recognised as suffixes: the whole family of the current product (an iPhone
  /// knows `~ipad` files exist and skips them), none when there is no product.
  var recognizedProducts: Set<String> {
    switch lookupProduct {
    case nil: []
    case "iphone"?, "ipad"?: ["iphone", "ipad", "ipod"]
    case let other?: [other]
    }
  }
}
