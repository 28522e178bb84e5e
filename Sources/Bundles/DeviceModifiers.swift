import StasisSystem
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

  init(_ device: DeviceTraits) {
    platform = device.platform
    product = device.lookupProduct
    recognizedProducts = device.recognizedProducts
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
    // Works on UTF-8 bytes: this runs once per file during the resource scan.
    let bytes = name.utf8
    var baseEnd = bytes.endIndex
    var productMatches: Bool?
    if !recognizedProducts.isEmpty, let tilde = bytes.lastIndex(of: UInt8(ascii: "~")) {
      let suffix = String(name[name.utf8.index(after: tilde)...])
      if recognizedProducts.contains(suffix) {
        productMatches = suffix == product || (suffix == "ipod" && product == "iphone")
        baseEnd = tilde
      }
    }
    var hasPlatform = false
    let platformBytes = platform.utf8
    let platformCount = platformBytes.count
    let baseCount = bytes.distance(from: bytes.startIndex, to: baseEnd)
    if platformCount > 0, baseCount > platformCount + 1 {
      let dash = bytes.index(baseEnd, offsetBy: -(platformCount + 1))
      if bytes[dash] == UInt8(ascii: "-"), bytes[bytes.index(after: dash)..<baseEnd].elementsEqual(platformBytes) {
        hasPlatform = true
        baseEnd = dash
      }
    }
    if baseEnd == bytes.startIndex { return .plain }
    let base = name[..<baseEnd]
    switch (productMatches, hasPlatform) {
    case (nil, false): return .plain
    case (false?, _): return .otherDevice
    case (true?, true): return .variant(base: base, rank: 0)
    case (true?, false): return .variant(base: base, rank: 1)
    case (nil, true): return .variant(base: base, rank: 2)
    }
  }
}
