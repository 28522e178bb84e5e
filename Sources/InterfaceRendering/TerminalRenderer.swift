public import Foundation
public import InterfaceObjects

/// The terminal back end: draws a view tree's primitives (``SceneLayout``) into terminal cells,
/// each kind of view as a terminal can show it, at the place its frame (in points) maps to; and
/// finds the view under a cell, for the mouse.
///
/// A frame maps to cells by a fixed scale: ``pointsPerColumn`` points to a column,
/// ``pointsPerRow`` to a row, after ``topInset`` points (the height UIKit's navigation bar takes
/// above a controller's content). With the defaults a phone-sized scene (375 points wide) is 75
/// columns wide and a 34-point text field takes one row.
///
/// What is drawn: text (one line per `\n`, up to its frame's rows); a button's title in
/// brackets; a text field's text in brackets, padded to its frame (its placeholder when empty, a
/// cursor when focused); a date picker's date (and its wheels when the layout has its parts); a
/// switch as a box; a segmented control's titles, the selected one inverse; a slider's or
/// stepper's value; an image's name; a table's rows. Fills, borders and lines are not drawn; text
/// is clipped to its frame and to the region.
@MainActor public struct TerminalRenderer {
  public var pointsPerColumn: Double = 5
  public var pointsPerRow: Double = 20
  public var topInset: Double = 80
  /// The views to primitives step (focus, date format, date picker parts, table rows).
  public var layout = SceneLayout(platform: .uiKit)

  public init() {}

  /// The view drawn as focused (inverse brackets and a cursor for a text field).
  public var focusedView: View? {
    get { layout.focusedView }
    set { layout.focusedView = newValue }
  }
  /// How a date picker's date reads.
  public var formatDate: (Date, DatePicker.Mode) -> String {
    get { layout.formatDate }
    set { layout.formatDate = newValue }
  }
  /// A date picker's parts; a picker at least 6 rows tall is then drawn as its date on its first
  /// row and the parts side by side from its third: label, ▲, value, ▼ (the arrows at the
  /// selected part), 3 columns in.
  public var datePickerParts: ((DatePicker) -> (labels: [String], values: [String], selected: Int?))? {
    get { layout.datePickerParts }
    set { layout.datePickerParts = newValue }
  }
  /// A table's rows as text, and which of them is highlighted.
  public var tableRows: (TableView) -> (rows: [String], highlighted: Int?) {
    get { layout.tableRows }
    set { layout.tableRows = newValue }
  }

  /// The cells a frame in points covers: column, row, width, height (at least 1 × 1).
  public func cells(of frame: CGRect) -> (x: Int, y: Int, width: Int, height: Int) {
    let x = Int((frame.minX / pointsPerColumn).rounded())
    let y = Int(((frame.minY - topInset) / pointsPerRow).rounded())
    let width = max(1, Int((frame.width / pointsPerColumn).rounded()))
    let height = max(1, Int((frame.height / pointsPerRow).rounded()))
    return (x, y, width, height)
  }

  /// The cells `view` covers, relative to its root: column, row, width, height (at least 1 × 1).
  public func cellFrame(of view: View) -> (x: Int, y: Int, width: Int, height: Int) { cells(of: layout.sceneFrame(of: view)) }

  /// Draws `root`'s subviews (not `root` itself: it is the screen's background) into `screen`,
  /// in the rows `region` (cell rows of the screen), column 0 at the screen's left edge.
  public func draw(_ root: View, into screen: inout TerminalScreen, rows region: Range<Int>) {
    for primitive in layout.primitives(ofSubviewsOf: root) { draw(primitive, into: &screen, rows: region) }
  }

  /// Draws one primitive.
  public func draw(_ primitive: DrawingPrimitive, into screen: inout TerminalScreen, rows region: Range<Int>) {
    let cells = cells(of: primitive.frame)
    let top = region.lowerBound + cells.y
    func line(_ text: String, row: Int = 0, inverse: Bool = false, bold: Bool = false) {
      let y = top + row
      guard region.contains(y), row < cells.height, cells.x < screen.width else { return }
      let room = min(cells.width, screen.width - cells.x)
      screen.draw(TerminalScreen.clipped(text, to: room), x: cells.x, y: y, inverse: inverse, bold: bold)
    }
    switch primitive.content {
    case .text(let run):
      for (index, text) in run.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        line(String(text), row: index, inverse: run.isInverse, bold: run.isEmphasized)
      }
    case .textField(let field):
      let text = field.text.isEmpty && !field.focused ? (field.placeholder ?? "") : field.text + (field.focused ? "▏" : "")
      // The box is cut at the screen's edge as a whole: the text inside is shortened, the
      // closing bracket stays.
      let inside = max(0, min(cells.width, screen.width - cells.x) - 2)
      let shown = TerminalScreen.clipped(text, to: inside)
      line("[" + shown + String(repeating: " ", count: max(0, inside - TerminalScreen.columns(of: shown))) + "]", bold: field.focused)
    case .button(let button):
      let inside = max(0, min(cells.width, screen.width - cells.x) - 4)
      line("[ " + TerminalScreen.clipped(button.title, to: inside) + " ]", inverse: button.focused)
    case .date(let date):
      if date.parts != nil, cells.height >= 6 {
        drawDate(date, cells: cells, top: top, into: &screen, rows: region)
      } else {
        line(date.text, inverse: date.focused)
      }
    case .toggle(let isOn, let focused):
      line(isOn ? "[x]" : "[ ]", inverse: focused)
    case .checkBox(let title, let isOn, let isRadio, _):
      line((isRadio ? (isOn ? "(•) " : "( ) ") : (isOn ? "[x] " : "[ ] ")) + title)
    case .segments(let titles, let selected, _):
      var x = 0
      for (index, title) in titles.enumerated() {
        let text = " " + title + " "
        if region.contains(top), cells.x + x < screen.width {
          screen.draw(TerminalScreen.clipped(text, to: max(0, cells.width - x)), x: cells.x + x, y: top, inverse: index == selected)
        }
        x += TerminalScreen.columns(of: text) + 1
        if x >= cells.width { break }
      }
    case .value(let value):
      line(value.value.formatted(), inverse: value.focused)
    case .image(let image):
      line("[" + image.name + "]")
    case .rows(let rows):
      for (index, text) in rows.rows.enumerated() where index < cells.height {
        let y = top + index
        guard region.contains(y) else { continue }
        if rows.highlighted == index { screen.fill(row: y, from: cells.x, inverse: true) }
        line(text, row: index, inverse: rows.highlighted == index)
      }
    case .fill, .stroke, .line, .navigationBar, .tabBar, .titleBar, .arrow:
      break
    }
  }

  private func drawDate(
    _ date: DateContent, cells: (x: Int, y: Int, width: Int, height: Int), top: Int, into screen: inout TerminalScreen, rows region: Range<Int>
  ) {
    guard let parts = date.parts else { return }
    if region.contains(top), cells.x + 3 < screen.width { screen.draw(date.text, x: cells.x + 3, y: top, bold: true) }
    for (index, columns) in partColumns(parts, from: cells.x).enumerated() where index < parts.values.count {
      let selected = parts.selected == index
      let x = columns.lowerBound
      func put(_ text: String, _ row: Int, dx: Int, inverse: Bool = false, bold: Bool = false) {
        let y = top + row
        if region.contains(y), x + dx < screen.width { screen.draw(text, x: x + dx, y: y, inverse: inverse, bold: bold) }
      }
      put(index < parts.labels.count ? parts.labels[index] : "", 2, dx: 1)
      let value = parts.values[index]
      put(" " + value + String(repeating: " ", count: max(0, columns.count - 1 - TerminalScreen.columns(of: value))), 4, dx: 0, inverse: selected, bold: selected)
      if selected {
        put("▲", 3, dx: 1)
        put("▼", 5, dx: 1)
      }
    }
  }

  /// The columns of each part from column `x`: 3 columns in, each as wide as its label or value
  /// and 2 more, 2 apart.
  func partColumns(_ parts: (labels: [String], values: [String], selected: Int?), from x: Int) -> [Range<Int>] {
    var x = x + 3
    var places: [Range<Int>] = []
    for (index, value) in parts.values.enumerated() {
      let label = index < parts.labels.count ? parts.labels[index] : ""
      let width = max(TerminalScreen.columns(of: label), TerminalScreen.columns(of: value)) + 2
      places.append(x..<(x + width))
      x += width + 2
    }
    return places
  }

  /// The columns of each part of a date picker drawn with ``datePickerParts``.
  public func datePickerPartColumns(of picker: DatePicker) -> [Range<Int>] {
    guard let parts = datePickerParts?(picker) else { return [] }
    return partColumns(parts, from: cellFrame(of: picker).x)
  }

  /// The deepest visible view under the cell (`column`, `row`), with `row` counted as in
  /// ``draw(_:into:rows:)-(View,_,_)``'s region starting at `regionTop`; `nil` when only `root` is there.
  public func view(atColumn column: Int, row: Int, in root: View, regionTop: Int) -> View? {
    var found: View?
    func visit(_ view: View) {
      guard !view.isHidden, view.alpha > 0 else { return }
      let cells = cellFrame(of: view)
      let top = regionTop + cells.y
      if column >= cells.x, column < cells.x + cells.width, row >= top, row < top + cells.height { found = view }
      for subview in view.subviews { visit(subview) }
    }
    for subview in root.subviews { visit(subview) }
    return found
  }
}
