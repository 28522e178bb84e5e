/// Platform and product suffixes on resource names and Info.plist keys: `name-<platform>~<product>`,
/// `name~<product>`, `name-<platform>` (CF's `_CFBundleSplitFileName` and
/// `_isPlatformAndProductKey`).
///
/// Only the current platform is recognised as a platform suffix (CF's
/// `_CFBundleSupportedPlatformName` does the same), so `my-image` stays a plain name. Products
/// are recognised for the whole device family: on an iPhone, `Icon~ipad.png` is known to be
/// another device's file and is skipped.
struct DeviceModifiers: Sendable {
  let platform: String
  let product: String?
  let recognizedProducts: Set<String>

  init(_ environment: BundleEnvironment) {
    platform = environment.platform
    product = environment.lookupProduct
    recognizedProducts = environment.recognizedProducts
  }

  enum Match: Equatable {
    /// No suffix: the name is plain.
    case plain
    /// A suffix for this device; `base` is the name without it, `rank` 0 (platform and product),
    /// 1 (product) or 2 (platform). Plain names rank 3.
    case variant(base: Substring, rank: UInt8)
    /// A suffix for another device of the family.
    case otherDevice
  }

  func match(_ name: Substring) -> Match {
    var base = name
    var productMatches: Bool?
    if !recognizedProducts.isEmpty, let tilde = name.lastIndex(of: "~") {
      let suffix = name[name.index(after: tilde)...]
      if recognizedProducts.contains(String(suffix)) {
        productMatches = (suffix == (product ?? "")[...]) || (suffix == "ipod" && product == "iphone")
        base = name[..<tilde]
      }
    }
    var hasPlatform = false
    if let dash = base.lastIndex(of: "-"), base[base.index(after: dash)...] == platform[...] {
      hasPlatform = true
      base = base[..<dash]
    }
    if base.isEmpty { return .plain }
    switch (productMatches, hasPlatform) {
    case (nil, false): return .plain
    case (false?, _): return .otherDevice
    case (true?, true): return .variant(base: base, rank: 0)
    case (true?, false): return .variant(base: base, rank: 1)
    case (nil, true): return .variant(base: base, rank: 2)
    }
  }
}
