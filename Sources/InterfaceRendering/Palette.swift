import Foundation
public import InterfaceObjects

/// Light or dark (`NSAppearance.Name.aqua` / `.darkAqua`, `UIUserInterfaceStyle`).
public enum Appearance: String, Sendable, CaseIterable {
  case light, dark
}

/// Turns a document's colours into sRGB for an appearance: plain components as they are (white,
/// RGB, CMYK converted), catalog and system colours by name from a table of AppKit's and UIKit's
/// standard colours in light and dark (values as macOS 14 and iOS 17 give them in sRGB, rounded);
/// a named colour not in the table keeps its archived components (light) or a neutral grey.
public struct Palette: Sendable {
  public var appearance: Appearance

  public init(appearance: Appearance = .light) { self.appearance = appearance }

  /// `color` in sRGB, or `nil` for none.
  public func resolve(_ color: Color?) -> RGBAColor? {
    guard let color else { return nil }
    if let name = color.name, let named = self.named(name) {
      // A catalog colour archived with a different alpha keeps it (a translucent separator).
      return named
    }
    let parts = color.components
    switch (color.colorSpaceCode, parts.count) {
    case (3, 1...), (4, 1...): return RGBAColor(white: parts[0], alpha: parts.count > 1 ? parts[1] : 1)
    case (5, 4...):
      let black = parts[3]
      return RGBAColor(
        red: (1 - parts[0]) * (1 - black), green: (1 - parts[1]) * (1 - black), blue: (1 - parts[2]) * (1 - black),
        alpha: parts.count > 4 ? parts[4] : 1)
    case (_, 3...): return RGBAColor(red: parts[0], green: parts[1], blue: parts[2], alpha: parts.count > 3 ? parts[3] : 1)
    case (_, 1...2): return RGBAColor(white: parts[0], alpha: parts.count > 1 ? parts[1] : 1)
    default: return color.name == nil ? nil : RGBAColor(white: 0.5)
    }
  }

  /// A standard colour by its AppKit or UIKit name (`controlTextColor`, `systemBlueColor`,
  /// `labelColor`), in this appearance; `nil` when the table does not have it.
  public func named(_ name: String) -> RGBAColor? {
    let key = name.hasSuffix("Color") ? String(name.dropLast(5)) : name
    guard let pair = Self.standard[key] else { return nil }
    return appearance == .light ? pair.light : pair.dark
  }

  /// The default text colour (`labelColor`, `controlTextColor`).
  public var text: RGBAColor { named("label")! }
  /// Secondary text (a placeholder).
  public var secondaryText: RGBAColor { named("placeholderText")! }
  /// A window's background (`windowBackgroundColor`).
  public var windowBackground: RGBAColor { named("windowBackground")! }
  /// A UIKit scene's background (`systemBackgroundColor`).
  public var sceneBackground: RGBAColor { named("systemBackground")! }
  /// A control's face (`controlColor`): buttons, fields.
  public var control: RGBAColor { named("control")! }
  /// Borders and separators (`separatorColor`).
  public var separator: RGBAColor { named("separator")! }
  /// The accent (`systemBlueColor`): UIKit's button titles, selected segments.
  public var accent: RGBAColor { named("systemBlue")! }
  /// Bars (`UINavigationBar`'s and `UITabBar`'s default background, a title bar).
  public var bar: RGBAColor { named("bar")! }

  private static func rgb(_ value: UInt32, _ alpha: Double = 1) -> RGBAColor {
    RGBAColor(
      red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255, blue: Double(value & 0xFF) / 255, alpha: alpha)
  }

  /// Light and dark values of the standard colours, by name without the `Color` suffix.
  static let standard: [String: (light: RGBAColor, dark: RGBAColor)] = {
    var table: [String: (light: RGBAColor, dark: RGBAColor)] = [:]
    func add(_ names: [String], _ light: RGBAColor, _ dark: RGBAColor) { for name in names { table[name] = (light, dark) } }
    add(["label", "controlText", "text", "darkText", "headerText", "labelText", "selectedControlText", "selectedText",
      "selectedMenuItemText", "windowFrameText"], rgb(0x000000, 0.85), rgb(0xFFFFFF, 0.85))
    add(["secondaryLabel", "disabledControlText", "secondaryLabelText"], rgb(0x000000, 0.5), rgb(0xFFFFFF, 0.55))
    add(["tertiaryLabel", "placeholderText", "quaternaryLabel"], rgb(0x000000, 0.26), rgb(0xFFFFFF, 0.25))
    add(["windowBackground", "underPageBackground", "groupTableViewBackground", "systemGroupedBackground", "secondarySystemBackground",
      "systemGray6"], rgb(0xECECEC), rgb(0x323232))
    add(["systemBackground", "textBackground", "controlBackground", "white", "secondarySystemGroupedBackground", "tableBackground",
      "alternatingContentBackground", "controlLightHighlight", "highlight", "tertiarySystemBackground"], rgb(0xFFFFFF), rgb(0x1E1E1E))
    add(["control", "gridColor", "controlHighlight", "systemGray5", "tertiarySystemFill", "quaternarySystemFill"], rgb(0xFFFFFF), rgb(0x3C3C3C))
    add(["separator", "grid", "opaqueSeparator", "controlShadow", "systemGray4", "systemFill", "secondarySystemFill"],
      rgb(0x000000, 0.15), rgb(0xFFFFFF, 0.15))
    add(["bar", "scrollBar", "knob", "windowFrame"], rgb(0xF6F6F6), rgb(0x2B2B2B))
    add(["black", "controlDarkShadow", "shadow"], rgb(0x000000), rgb(0x000000))
    add(["clear"], .clear, .clear)
    add(["systemBlue", "link", "keyboardFocusIndicator", "selectedContentBackground", "alternateSelectedControl", "controlAccent",
      "selectedControl", "tint"], rgb(0x007AFF), rgb(0x0A84FF))
    add(["systemRed"], rgb(0xFF3B30), rgb(0xFF453A))
    add(["systemGreen"], rgb(0x34C759), rgb(0x30D158))
    add(["systemOrange"], rgb(0xFF9500), rgb(0xFF9F0A))
    add(["systemYellow"], rgb(0xFFCC00), rgb(0xFFD60A))
    add(["systemPink"], rgb(0xFF2D55), rgb(0xFF375F))
    add(["systemPurple"], rgb(0xAF52DE), rgb(0xBF5AF2))
    add(["systemTeal"], rgb(0x5AC8FA), rgb(0x64D2FF))
    add(["systemIndigo"], rgb(0x5856D6), rgb(0x5E5CE6))
    add(["systemBrown"], rgb(0xA2845E), rgb(0xAC8E68))
    add(["systemGray", "gray", "darkGray"], rgb(0x8E8E93), rgb(0x8E8E93))
    add(["systemGray2", "lightGray"], rgb(0xAEAEB2), rgb(0x636366))
    add(["systemGray3"], rgb(0xC7C7CC), rgb(0x48484A))
    add(["red"], rgb(0xFF0000), rgb(0xFF0000))
    add(["green"], rgb(0x00FF00), rgb(0x00FF00))
    add(["blue"], rgb(0x0000FF), rgb(0x0000FF))
    return table
  }()
}

/// Turns a document's font into families a renderer can find: the document's family first (its
/// PostScript name without the style suffix), then fallbacks of the same kind (the system UI font's
/// names, then Helvetica, Arial, DejaVu Sans/Liberation Sans for the Linux machines that have no
/// Apple fonts; monospace families for Menlo, Monaco, Courier, SF Mono), the weight and slant read
/// from the style suffix (`-Bold`, `-Semibold`, `-Italic`).
public enum FontResolver {
  static let systemFamilies = ["-apple-system", "SF Pro Text", "Helvetica Neue", "Helvetica", "Arial", "Liberation Sans", "DejaVu Sans", "sans-serif"]
  static let monospacedFamilies = ["SF Mono", "Menlo", "Monaco", "Courier New", "Liberation Mono", "DejaVu Sans Mono", "monospace"]
  static let weights: [(suffix: String, weight: Int)] = [
    ("ultralight", 200), ("thin", 100), ("light", 300), ("regular", 400), ("medium", 500), ("semibold", 600), ("demibold", 600),
    ("heavy", 800), ("black", 900), ("bold", 700),
  ]

  /// UIKit's text styles (`UICTFontTextStyleBody`, a font named by its Dynamic Type style) at
  /// the default ("Large") content size: point size and weight.
  static let textStyles: [String: (size: Double, weight: Int)] = [
    "LargeTitle": (34, 400), "Title0": (34, 400), "Title1": (28, 400), "Title2": (22, 400), "Title3": (20, 400), "Headline": (17, 600),
    "Body": (17, 400), "Callout": (16, 400), "Subhead": (15, 400), "Subheadline": (15, 400), "Footnote": (13, 400), "Caption1": (12, 400),
    "Caption2": (11, 400),
  ]

  /// `font` (or the platform's default of `defaultSize` points when `nil` or sizeless).
  public static func resolve(_ font: Font?, defaultSize: Double) -> ResolvedFont {
    guard let font else { return ResolvedFont(families: systemFamilies, size: defaultSize) }
    if let range = font.name.range(of: "TextStyle", options: .backwards) {
      // A text style is the system font at the style's size (the archived size when there is one).
      let style = textStyles[String(font.name[range.upperBound...])] ?? (defaultSize, 400)
      return ResolvedFont(families: systemFamilies, size: font.pointSize > 0 ? font.pointSize : style.size, weight: style.weight)
    }
    let size = font.pointSize > 0 ? font.pointSize : defaultSize
    let name = font.name
    let lowered = name.lowercased()
    var weight = 400
    for entry in weights where lowered.contains(entry.suffix) {
      weight = entry.weight
      break
    }
    let italic = lowered.contains("italic") || lowered.contains("oblique")
    let monospaced = ["menlo", "monaco", "courier", "mono"].contains { lowered.contains($0) }
    let fallbacks = monospaced ? monospacedFamilies : systemFamilies
    if font.isSystemFont || name.isEmpty || name.hasPrefix(".") {
      return ResolvedFont(families: fallbacks, size: size, weight: weight, isItalic: italic, isMonospaced: monospaced)
    }
    let family = name.split(separator: "-").first.map(String.init) ?? name
    // `HelveticaNeue` → "Helvetica Neue": a PostScript family name has no spaces.
    var spaced = ""
    for (index, character) in family.enumerated() {
      if index > 0, character.isUppercase, let last = spaced.last, last.isLowercase { spaced.append(" ") }
      spaced.append(character)
    }
    let families = ([spaced] + (spaced == family ? [] : [family]) + fallbacks)
    return ResolvedFont(families: families, size: size, weight: weight, isItalic: italic, isMonospaced: monospaced)
  }
}
