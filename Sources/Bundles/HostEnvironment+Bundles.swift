public import StasisSystem

extension HostEnvironment {
  /// The user's preferred languages, best first (`NSLocale.preferredLanguages`):
  /// `HostEnvironment.appleLanguages` when it answers a non-empty list; when this
  /// environment has no such source, the process-wide one (`HostEnvironment.current`'s,
  /// which `Defaults.provideAppleLanguagesToBundles()` sets); else the POSIX variables
  /// (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`; `zh_TW.UTF-8` becomes `zh-Hant-TW`, `C`/`POSIX`
  /// means none) as ``Bundle/preferredLanguages(fromPOSIXEnvironment:)`` reads them.
  public var preferredLanguages: [String] {
    if let source = appleLanguages ?? HostEnvironment.current.appleLanguages, let list = source(), !list.isEmpty {
      return list
    }
    return LocalizationMatching.preferredLanguages(fromEnvironment: variables)
  }
}

extension DeviceTraits {
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
