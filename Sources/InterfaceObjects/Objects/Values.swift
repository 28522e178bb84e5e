public import Bundles
internal import Interface

/// A colour as a nib archives it (`NSColor` / `UIColor`): a named catalog colour (AppKit's
/// `NSCatalogName` + `NSColorName`, UIKit's `UISystemColorName`) and its components, or plain
/// components in a colour space.
///
/// Catalog colours keep the name and take their components from the resolved colour archived
/// with them (`NSColor` inside the catalog colour); colours named in an asset catalog keep only
/// the name, since `Assets.car` is compiled by Apple's tools and not read here.
public struct Color: Hashable, Sendable, CustomStringConvertible {
  /// AppKit's `NSColorSpace` number: 1 calibrated RGB, 2 device RGB, 3 calibrated white,
  /// 4 device white, 5 CMYK, 6 catalog, 7 pattern, 10 component-based; UIKit colours are 2 (RGB)
  /// or 4 (white).
  public var colorSpaceCode: Int
  /// The components: red, green, blue, alpha; white, alpha; or cyan, magenta, yellow, black, alpha.
  public var components: [Double]
  /// The catalog (`System`) of a named colour.
  public var catalogName: String?
  /// The colour's name in its catalog (`controlTextColor`, `systemBlueColor`).
  public var name: String?

  public init(colorSpaceCode: Int, components: [Double], catalogName: String? = nil, name: String? = nil) {
    self.colorSpaceCode = colorSpaceCode
    self.components = components
    self.catalogName = catalogName
    self.name = name
  }

  public var description: String {
    let parts = components.map { String($0) }.joined(separator: " ")
    if let name { return "\(catalogName.map { $0 + "." } ?? "")\(name) [\(parts)]" }
    return "color(space \(colorSpaceCode)) [\(parts)]"
  }

  @MainActor init(_ object: NibGraph.Object, at index: Int, in unarchiver: NibUnarchiver) throws(InterfaceObjectsError) {
    let graph = unarchiver.graph
    func text(_ key: String) -> String? { graph.text(of: object, forKey: key) }
    func double(_ key: String) -> Double? {
      switch object[key] {
      case .float32(let value)?: Double(value)
      case .float64(let value)?: value
      case .int8(let value)?: Double(value)
      case .int16(let value)?: Double(value)
      case .int32(let value)?: Double(value)
      case .int64(let value)?: Double(value)
      default: nil
      }
    }
    if object.className == "UIColor" {
      name = text("UISystemColorName")
      catalogName = name == nil ? nil : "UIKit"
      if let white = double("UIWhite") {
        colorSpaceCode = 4
        components = [white, double("UIAlpha") ?? 1]
      } else {
        colorSpaceCode = 2
        components = [double("UIRed") ?? 0, double("UIGreen") ?? 0, double("UIBlue") ?? 0, double("UIAlpha") ?? 1]
      }
      return
    }
    colorSpaceCode = double("NSColorSpace").map { Int($0) } ?? 0
    catalogName = text("NSCatalogName")
    name = text("NSColorName")
    components = []
    for key in ["NSRGB", "NSWhite", "NSCMYK", "NSComponents"] {
      if case .data(let bytes)? = object[key] {
        components = Self.asciiNumbers(bytes)
        break
      }
    }
    if components.isEmpty, case .object(let resolved)? = object["NSColor"], resolved != index,
      let inner = try unarchiver.value(at: resolved, depth: 1) as? Color
    {
      components = inner.components
    }
  }

  /// The numbers of AppKit's component text (`"0.5 0.25 1"`, NUL-terminated).
  static func asciiNumbers(_ bytes: [UInt8]) -> [Double] {
    let text = String(decoding: bytes.prefix(while: { $0 != 0 }).prefix(256), as: UTF8.self)
    return text.split(separator: " ").prefix(8).compactMap { Double($0) }.filter(\.isFinite)
  }
}

/// A font as a nib archives it (`NSFont`: `NSName`, `NSSize`; `UIFont`: `UIFontName`,
/// `UIFontPointSize`).
public struct Font: Hashable, Sendable, CustomStringConvertible {
  /// The PostScript name (`.AppleSystemUIFont`, `Helvetica-Bold`).
  public var name: String
  /// The point size.
  public var pointSize: Double

  public init(name: String, pointSize: Double) {
    self.name = name
    self.pointSize = pointSize
  }

  /// Whether this is the system font in one of its weights (`.AppleSystemUIFont…`, `.SFUI…`).
  public var isSystemFont: Bool { name.hasPrefix(".AppleSystemUIFont") || name.hasPrefix(".SFUI") || name.hasPrefix(".SFNS") }

  public var description: String { "\(name) \(pointSize)" }

  init(_ object: NibGraph.Object, in graph: NibGraph) {
    func text(_ key: String) -> String? { graph.text(of: object, forKey: key) }
    name = text("NSName") ?? text("UIFontName") ?? ""
    switch object["NSSize"] ?? object["UIFontPointSize"] {
    case .float64(let size)?: pointSize = size
    case .float32(let size)?: pointSize = Double(size)
    case .int8(let size)?: pointSize = Double(size)
    case .int16(let size)?: pointSize = Double(size)
    case .int32(let size)?: pointSize = Double(size)
    default: pointSize = 0
    }
  }
}

/// An image referred to by name (`NSCustomResource` with `NSResourceName`, UIKit's
/// `UIImageNibPlaceholder` with `UIResourceName`): resolved in a bundle when asked, with the
/// bundle's `@2x`/`@3x` and `~device` variants (`+[NSImage imageNamed:]`, `+[UIImage
/// imageNamed:inBundle:]`).
public struct Image: Hashable, Sendable, CustomStringConvertible {
  /// The image's name (`NSAddTemplate`, `photo`, `logo.png`).
  public var name: String

  public init(name: String) { self.name = name }

  /// Whether the name is one of AppKit's system images (`NSAddTemplate`, `NSActionTemplate`),
  /// which no bundle holds.
  public var isSystemImage: Bool { name.hasPrefix("NS") && !name.contains(".") }

  /// The file the image is in: the best variant for the bundle's device and scale, or `nil`.
  public func path(in bundle: Bundles.Bundle) -> String? { bundle.path(forImageResource: name) }

  public var description: String { "image \(name)" }

  init(_ object: NibGraph.Object, in graph: NibGraph) {
    name = graph.text(of: object, forKey: "NSResourceName") ?? graph.text(of: object, forKey: "UIResourceName") ?? ""
  }
}

/// A text alignment (`NSTextAlignment`): UIKit numbers it left 0, center 1, right 2, justified 3,
/// natural 4; AppKit's cells keep left 0, right 1, center 2, justified 3, natural 4 in
/// `NSCellFlags2`.
public enum TextAlignment: Sendable, Hashable {
  case left, center, right, justified, natural

  /// UIKit's number (`UITextAlignment`); an unknown one is natural.
  public init(uiKitValue: Int) {
    self = [0: .left, 1: .center, 2: .right, 3: .justified][uiKitValue] ?? .natural
  }

  /// AppKit's number (`NSCellFlags2` bits 26–28); an unknown one is natural.
  public init(appKitValue: Int) {
    self = [0: .left, 1: .right, 2: .center, 3: .justified][appKitValue] ?? .natural
  }
}
