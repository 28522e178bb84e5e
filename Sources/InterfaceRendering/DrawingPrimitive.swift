public import Foundation
public import InterfaceObjects

/// One thing to draw, in the scene's coordinates (points, origin at the top left, y down): what
/// ``SceneLayout`` makes of a view tree, and what each back end (``SVGRenderer``,
/// ``TerminalRenderer``) draws, in list order (back to front).
public struct DrawingPrimitive {
  /// Where: the frame in scene coordinates.
  public var frame: CGRect
  /// The part of the scene it may paint: its ancestors' bounds (`clipsToBounds`, AppKit's
  /// clipping to the superview), or `nil` for no clipping.
  public var clip: CGRect?
  /// What.
  public var content: Content
  /// The view it was made from (for hit testing), `nil` for scene chrome.
  public var view: View?

  public init(frame: CGRect, clip: CGRect? = nil, content: Content, view: View? = nil) {
    self.frame = frame
    self.clip = clip
    self.content = content
    self.view = view
  }

  /// What a primitive draws. Plain shapes (fill, stroke, text, image, line) and the controls each
  /// back end shows its own way (a terminal as brackets, SVG as vector shapes).
  public enum Content {
    /// A filled rectangle (`backgroundColor`), rounded by `cornerRadius`.
    case fill(RGBAColor, cornerRadius: Double)
    /// A rectangle's border (`NSBox`, a bordered field).
    case stroke(RGBAColor, lineWidth: Double, cornerRadius: Double)
    /// Text in the frame (`UILabel`, a non-editable `NSTextField`, a box's title).
    case text(TextRun)
    /// An image by name (`UIImageView`, `NSImageView`, a button's image).
    case image(ImageReference)
    /// A straight line (a table's separators, a split view's divider).
    case line(from: CGPoint, to: CGPoint, RGBAColor, width: Double)
    /// A text-entry box (`UITextField`, an editable `NSTextField`).
    case textField(TextFieldContent)
    /// A push button (`UIButton`, `NSButton`).
    case button(ButtonContent)
    /// An on/off control (`UISwitch`, `NSSwitch`).
    case toggle(isOn: Bool, focused: Bool)
    /// AppKit's check box or radio button (`NSButtonType` switch or radio) with its title.
    case checkBox(title: String, isOn: Bool, isRadio: Bool, run: TextRun)
    /// A segmented control's titles and its selected segment.
    case segments(titles: [String], selected: Int, focused: Bool)
    /// A slider's or stepper's value in its range.
    case value(ValueContent)
    /// A date picker's date as text, and its wheels when the app supplies them.
    case date(DateContent)
    /// A table's column titles and rows.
    case rows(RowsContent)
    /// A navigation bar (`UINavigationBar`).
    case navigationBar(NavigationBarContent)
    /// A tab bar (`UITabBar`) or a tab view's tabs (`NSTabView`).
    case tabBar(TabBarContent)
    /// A window's title bar (`NSWindow`'s frame, with its title).
    case titleBar(title: String)
    /// A labelled arrow between two scenes (a storyboard segue on a contact sheet).
    case arrow(from: CGPoint, to: CGPoint, label: String)
  }
}

/// A colour in sRGB with alpha, each component 0…1.
public struct RGBAColor: Hashable, Sendable {
  public var red, green, blue, alpha: Double

  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    func clamped(_ value: Double) -> Double { value.isFinite ? min(1, max(0, value)) : 0 }
    self.red = clamped(red)
    self.green = clamped(green)
    self.blue = clamped(blue)
    self.alpha = clamped(alpha)
  }

  /// A grey of `white` (0 black … 1 white).
  public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

  /// `#rrggbb`, alpha aside.
  public var hex: String {
    func byte(_ value: Double) -> String {
      let text = String(Int((value * 255).rounded()), radix: 16)
      return text.count == 1 ? "0" + text : text
    }
    return "#" + byte(red) + byte(green) + byte(blue)
  }

  /// The colour with its alpha multiplied by `factor` (a view's `alpha`).
  public func fading(_ factor: Double) -> RGBAColor { RGBAColor(red: red, green: green, blue: blue, alpha: alpha * factor) }

  public static let black = RGBAColor(white: 0)
  public static let white = RGBAColor(white: 1)
  public static let clear = RGBAColor(white: 0, alpha: 0)
}

/// A font as a back end asks for it: families to try in order (the document's font first, then
/// system fallbacks), the size in points, the weight (100…900, CSS's) and slant.
public struct ResolvedFont: Hashable, Sendable {
  public var families: [String]
  public var size: Double
  public var weight: Int
  public var isItalic: Bool
  public var isMonospaced: Bool

  public init(families: [String], size: Double, weight: Int = 400, isItalic: Bool = false, isMonospaced: Bool = false) {
    self.families = families
    self.size = size
    self.weight = weight
    self.isItalic = isItalic
    self.isMonospaced = isMonospaced
  }

  /// The width `text` is estimated to take in this font (no font metrics here: 0.52 em per
  /// character, 0.28 em a space, a full em for wide ones, 0.6 em in a monospaced font; 6 % more
  /// from semibold up). Used to wrap and truncate, and to lay out a menu bar's titles.
  public func estimatedWidth(of text: Substring) -> Double {
    var ems = 0.0
    for character in text {
      let wide = TerminalScreen.columns(of: character) == 2
      ems += wide ? 1 : isMonospaced ? 0.6 : (character == " " ? 0.28 : 0.52)
    }
    return ems * size * (weight >= 600 ? 1.06 : 1)
  }
}

/// Text to draw: the string (lines split at `\n`), its font, colour and alignment, at most
/// `maximumLines` lines (0: as many as fit).
public struct TextRun: Hashable, Sendable {
  public var text: String
  public var font: ResolvedFont
  public var color: RGBAColor
  public var alignment: TextAlignment
  public var maximumLines: Int
  /// Bold on a terminal (a focused field, a navigation bar's title).
  public var isEmphasized: Bool
  /// Inverse on a terminal (a focused button, a highlighted row).
  public var isInverse: Bool

  public init(
    text: String, font: ResolvedFont, color: RGBAColor, alignment: TextAlignment = .natural, maximumLines: Int = 1,
    isEmphasized: Bool = false, isInverse: Bool = false
  ) {
    self.text = text
    self.font = font
    self.color = color
    self.alignment = alignment
    self.maximumLines = maximumLines
    self.isEmphasized = isEmphasized
    self.isInverse = isInverse
  }
}

/// An image by name: the name the document gives and, when found, the file it was found in.
public struct ImageReference: Hashable, Sendable {
  public var name: String
  public var path: String?

  public init(name: String, path: String? = nil) {
    self.name = name
    self.path = path
  }
}

/// A text-entry box: the text (a cursor appended when focused), its placeholder, its style.
public struct TextFieldContent {
  public var text: String
  public var placeholder: String?
  public var focused: Bool
  /// `UIBorderStyle` (0 none, 1 line, 2 bezel, 3 rounded rect).
  public var borderStyle: Int
  public var run: TextRun
  public var background: RGBAColor?
}

/// A push button's title, image and look.
public struct ButtonContent {
  public var title: String
  public var image: ImageReference?
  public var focused: Bool
  /// Whether it draws a bezel (AppKit's push buttons); UIKit's system buttons are text only.
  public var isBezeled: Bool
  /// A pop-up button (`NSPopUpButton`): its selected item's title and an arrow.
  public var isPopUp = false
  public var run: TextRun
}

/// A slider's or stepper's value.
public struct ValueContent {
  public enum Kind: Sendable { case slider, stepper }
  public var kind: Kind
  public var value: Double
  public var minimum: Double
  public var maximum: Double
  public var focused: Bool
  public var tint: RGBAColor
}

/// A date picker: its date as text; its parts (labels, values, the selected one) when given.
public struct DateContent {
  public var text: String
  public var focused: Bool
  public var parts: (labels: [String], values: [String], selected: Int?)?
  public var run: TextRun
}

/// A table: its column titles (AppKit's header), its rows as text, which row is highlighted,
/// the row height in points.
public struct RowsContent {
  public var columnTitles: [(title: String, width: Double)]
  public var rows: [String]
  public var highlighted: Int?
  public var rowHeight: Double
  public var run: TextRun
  public var separator: RGBAColor
}

/// A navigation bar: the top item's title, the back button's title when there is a controller
/// below, the right items' titles.
public struct NavigationBarContent {
  public var title: String
  public var backTitle: String?
  public var leftItems: [BarButtonItem]
  public var rightItems: [BarButtonItem]
  public var background: RGBAColor
  public var run: TextRun
}

/// A tab bar: each tab's title, the selected one.
public struct TabBarContent {
  public var titles: [String]
  public var selected: Int?
  /// At the bottom (`UITabBar`) or on top (`NSTabView`'s tabs).
  public var atBottom: Bool
  public var background: RGBAColor
  public var run: TextRun
}
