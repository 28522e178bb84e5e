/// A grid of terminal cells that text is drawn into, measuring each character by its width in
/// columns (2 for East Asian wide and fullwidth characters and emoji, 0 for combining marks and
/// format characters, as `wcwidth` in a UTF-8 locale — computed here, so that the width does not
/// depend on the process's locale), then written out as one frame of ANSI escape sequences.
public struct TerminalScreen: Sendable {
  /// One column: the text drawn there (a character, or "" for the second half of a wide one).
  public struct Cell: Sendable, Equatable {
    public var text: String
    public var inverse: Bool
    public var bold: Bool
  }

  public let width: Int
  public let height: Int
  public private(set) var cells: [[Cell]]

  public init(width: Int, height: Int) {
    self.width = max(1, width)
    self.height = max(1, height)
    cells = Array(repeating: Array(repeating: Cell(text: " ", inverse: false, bold: false), count: self.width), count: self.height)
  }

  /// The width in columns of `character`: that of its first scalar that has one (2 for wide,
  /// fullwidth and emoji-presentation scalars), 0 for combining marks, format and control
  /// characters.
  public static func columns(of character: Character) -> Int {
    var widest = 0
    for scalar in character.unicodeScalars { widest = max(widest, columns(of: scalar)) }
    return widest
  }

  /// The East Asian wide and fullwidth ranges (Unicode's EastAsianWidth W and F, as Markus Kuhn's
  /// `wcwidth` groups them).
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3, 0x2E80...0x303E,
    0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
    0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
    0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  static func columns(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x300 { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and final consonants join
    if scalar.properties.isEmojiPresentation { return 2 }
    for range in wideRanges where range.contains(value) { return 2 }
    return 1
  }

  /// The width in columns of `text`.
  public static func columns(of text: String) -> Int { text.reduce(0) { $0 + columns(of: $1) } }

  /// `text` cut to at most `limit` columns (a wide character that would straddle the limit is left out).
  public static func clipped(_ text: String, to limit: Int) -> String {
    var used = 0
    var result = ""
    for character in text {
      let width = columns(of: character)
      if used + width > limit { break }
      used += width
      result.append(character)
    }
    return result
  }

  /// Draws `text` from column `x` of row `y`, clipped at the right edge.
  public mutating func draw(_ text: String, x: Int, y: Int, inverse: Bool = false, bold: Bool = false) {
    guard y >= 0, y < height else { return }
    var column = max(0, x)
    for character in text {
      let cellWidth = Self.columns(of: character)
      if cellWidth == 0 {
        // A combining mark or control character joins the previous cell, or is dropped.
        if column > 0, character.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) { cells[y][column - 1].text.append(character) }
        continue
      }
      guard column + cellWidth <= width else { break }
      for covered in column..<(column + cellWidth) { breakWideCharacter(at: covered, row: y) }
      cells[y][column] = Cell(text: String(character), inverse: inverse, bold: bold)
      if cellWidth == 2 { cells[y][column + 1] = Cell(text: "", inverse: inverse, bold: bold) }
      column += cellWidth
    }
  }

  /// Before column `column` is written: a wide character it is half of loses its other half too
  /// (a blank), so that no half character is left on the screen.
  private mutating func breakWideCharacter(at column: Int, row y: Int) {
    if cells[y][column].text.isEmpty, column > 0 { cells[y][column - 1].text = " " }
    if column + 1 < width, cells[y][column + 1].text.isEmpty { cells[y][column + 1].text = " " }
  }

  /// Fills row `y` from column `x` to the end with spaces in the given style.
  public mutating func fill(row y: Int, from x: Int = 0, inverse: Bool = false) {
    guard y >= 0, y < height else { return }
    for column in max(0, x)..<width { cells[y][column] = Cell(text: " ", inverse: inverse, bold: false) }
  }

  /// The text of row `y`, as a terminal shows it.
  public func text(ofRow y: Int) -> String { cells[y].map(\.text).joined() }

  /// The whole frame as ANSI: home, each row with its styles, the cursor hidden.
  public func ansiFrame() -> String {
    var output = "\u{1B}[?25l\u{1B}[H"
    for (index, row) in cells.enumerated() {
      output += "\u{1B}[\(index + 1);1H"
      var style = (inverse: false, bold: false)
      output += "\u{1B}[0m"
      for cell in row {
        if cell.inverse != style.inverse || cell.bold != style.bold {
          output += "\u{1B}[0m" + (cell.inverse ? "\u{1B}[7m" : "") + (cell.bold ? "\u{1B}[1m" : "")
          style = (cell.inverse, cell.bold)
        }
        output += cell.text
      }
    }
    return output + "\u{1B}[0m"
  }
}
