public import InterfaceObjects
public import Foundation

/// Draws a loaded view tree into terminal cells, each kind of view as a terminal can show it, at
/// the place its frame (in points, as the storyboard laid it out) maps to; and finds the view
/// under a cell, for the mouse.
///
/// A view's frame maps to cells by a fixed scale: ``pointsPerColumn`` points to a column,
/// ``pointsPerRow`` to a row, after ``topInset`` points (the height UIKit's navigation bar takes
/// above a controller's content). With the defaults a phone-sized scene (375 points wide) is 75
/// columns wide and a 34-point text field takes one row.
///
/// What is drawn: a ``Label``'s text (one line per `\n`, up to its frame's rows); a ``Button``'s
/// normal title in brackets; a ``TextField``'s text in brackets, padded to its frame (its
/// placeholder when empty, a cursor when it is the focused view); a ``DatePicker``'s date through
/// ``formatDate``; a ``Switch`` as a box; a ``SegmentedControl``'s titles, the selected one
/// inverse; a ``Slider`` or ``Stepper``'s value; an ``ImageView``'s image name; a ``TableView``'s
/// rows as ``tableRows`` gives them. Hidden views (and views with alpha 0) and everything in them
/// are skipped; text is clipped to the frame and to the region.
public struct ViewRenderer {
  public var pointsPerColumn: Double = 5
  public var pointsPerRow: Double = 20
  public var topInset: Double = 80
  /// The view drawn as focused (inverse brackets and a cursor for a text field).
  public var focusedView: View?
  /// How a date picker's date reads (the app's language and format).
  public var formatDate: (Date, DatePicker.Mode) -> String = { date, _ in date.formatted() }
  /// A date picker's parts (UIKit's wheels: labels, values, the selected one), when the app
  /// shows them; a picker at least 6 rows tall is then drawn as its date on its first row and
  /// the parts side by side from its third: label, ▲, value, ▼ (the arrows at the selected part),
  /// 3 columns in.
  public var datePickerParts: ((DatePicker) -> (labels: [String], values: [String], selected: Int?))?
  /// A table's rows as text, and which of them is highlighted.
  public var tableRows: (TableView) -> (rows: [String], highlighted: Int?) = { _ in ([], nil) }

  public init() {}

  /// The cells `view` covers, relative to its root: column, row, width, height (at least 1 × 1).
  public func cellFrame(of view: View) -> (x: Int, y: Int, width: Int, height: Int) {
    var origin = view.frame.origin
    var ancestor = view.superview
    while let next = ancestor {
      origin.x += next.frame.origin.x
      origin.y += next.frame.origin.y
      if let scroll = next as? ScrollView {
        origin.x -= scroll.contentOffset.x
        origin.y -= scroll.contentOffset.y
      }
      ancestor = next.superview
    }
    let x = Int((origin.x / pointsPerColumn).rounded())
    let y = Int(((origin.y - topInset) / pointsPerRow).rounded())
    let width = max(1, Int((view.frame.size.width / pointsPerColumn).rounded()))
    let height = max(1, Int((view.frame.size.height / pointsPerRow).rounded()))
    return (x, y, width, height)
  }

  /// Draws `root`'s subviews (not `root` itself: it is the screen's background) into `screen`,
  /// in the rows `region` (cell rows of the screen), column 0 at the screen's left edge.
  public func draw(_ root: View, into screen: inout TerminalScreen, rows region: Range<Int>) {
    for subview in root.subviews { draw(view: subview, into: &screen, rows: region) }
  }

  private func draw(view: View, into screen: inout TerminalScreen, rows region: Range<Int>) {
    guard !view.isHidden, view.alpha > 0 else { return }
    let cells = cellFrame(of: view)
    let top = region.lowerBound + cells.y
    func line(_ text: String, row: Int = 0, inverse: Bool = false, bold: Bool = false) {
      let y = top + row
      guard region.contains(y), row < cells.height, cells.x < screen.width else { return }
      let room = min(cells.width, screen.width - cells.x)
      screen.draw(TerminalScreen.clipped(text, to: room), x: cells.x, y: y, inverse: inverse, bold: bold)
    }
    let focused = focusedView === view
    switch view {
    case let label as Label:
      for (index, text) in label.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        line(String(text), row: index)
      }
    case let field as TextField:
      let text = field.text.isEmpty && !focused ? (field.placeholder ?? "") : field.text + (focused ? "▏" : "")
      // The box is cut at the screen's edge as a whole: the text inside is shortened, the
      // closing bracket stays.
      let inside = max(0, min(cells.width, screen.width - cells.x) - 2)
      let shown = TerminalScreen.clipped(text, to: inside)
      line("[" + shown + String(repeating: " ", count: max(0, inside - TerminalScreen.columns(of: shown))) + "]", bold: focused)
    case let button as Button:
      let inside = max(0, min(cells.width, screen.width - cells.x) - 4)
      line("[ " + TerminalScreen.clipped(button.title, to: inside) + " ]", inverse: focused)
    case let picker as DatePicker:
      if let parts = datePickerParts?(picker), cells.height >= 6 {
        if region.contains(top), cells.x + 3 < screen.width {
          screen.draw(formatDate(picker.date, picker.datePickerMode), x: cells.x + 3, y: top, bold: true)
        }
        for (index, columns) in datePickerPartColumns(of: picker).enumerated() where index < parts.values.count {
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
      } else {
        line(formatDate(picker.date, picker.datePickerMode), inverse: focused)
      }
    case let toggle as Switch:
      line(toggle.isOn ? "[x]" : "[ ]", inverse: focused)
    case let segments as SegmentedControl:
      var x = 0
      for (index, title) in segments.segmentTitles.enumerated() {
        let text = " " + title + " "
        let y = top
        if region.contains(y), cells.x + x < screen.width {
          screen.draw(TerminalScreen.clipped(text, to: max(0, cells.width - x)), x: cells.x + x, y: y, inverse: index == segments.selectedSegmentIndex)
        }
        x += TerminalScreen.columns(of: text) + 1
        if x >= cells.width { break }
      }
    case let range as RangeControl:
      line(range.value.formatted(), inverse: focused)
    case let image as ImageView:
      line("[" + (image.image?.name ?? "image") + "]")
    case let table as TableView:
      let (rows, highlighted) = tableRows(table)
      for (index, text) in rows.enumerated() where index < cells.height {
        let y = top + index
        guard region.contains(y) else { continue }
        if highlighted == index { screen.fill(row: y, from: cells.x, inverse: true) }
        line(text, row: index, inverse: highlighted == index)
      }
    default:
      break
    }
    for subview in view.subviews { draw(view: subview, into: &screen, rows: region) }
  }

  /// The columns of each part of a date picker drawn with ``datePickerParts``: from 3 columns in,
  /// each as wide as its label or value and 2 more, 2 apart.
  public func datePickerPartColumns(of picker: DatePicker) -> [Range<Int>] {
    guard let parts = datePickerParts?(picker) else { return [] }
    var x = cellFrame(of: picker).x + 3
    var places: [Range<Int>] = []
    for (index, value) in parts.values.enumerated() {
      let label = index < parts.labels.count ? parts.labels[index] : ""
      let width = max(TerminalScreen.columns(of: label), TerminalScreen.columns(of: value)) + 2
      places.append(x..<(x + width))
      x += width + 2
    }
    return places
  }

  /// The deepest visible view under the cell (`column`, `row`), with `row` counted as in
  /// ``draw(_:into:rows:)``'s region starting at `regionTop`; `nil` when only `root` is there.
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

  // MARK: - Bars

  /// Where a navigation bar's parts were drawn: the back button's columns (when there is a
  /// controller to go back to) and each right bar button item's.
  public struct NavigationBarLayout {
    public var back: Range<Int>?
    public var rightItems: [(item: BarButtonItem, columns: Range<Int>)] = []
  }

  /// Draws a navigation bar (`UINavigationBar`) in `row` for `stack`, root first (a navigation
  /// controller's `viewControllers`, or one controller alone): inverse; the top controller's
  /// navigation item title (else its `title`) centred and bold; when a controller is below it,
  /// `‹` and that controller's navigation item `backButtonTitle` (else its title) on the left; the
  /// top item's right bar button items' titles from the right edge.
  @discardableResult
  public func drawNavigationBar(for stack: [ViewController], into screen: inout TerminalScreen, row: Int) -> NavigationBarLayout {
    var layout = NavigationBarLayout()
    guard let top = stack.last, (0..<screen.height).contains(row) else { return layout }
    screen.fill(row: row, inverse: true)
    let title = top.navigationItem.title ?? top.title ?? ""
    let titleX = max(0, (screen.width - TerminalScreen.columns(of: title)) / 2)
    screen.draw(title, x: titleX, y: row, inverse: true, bold: true)
    if stack.count > 1 {
      let below = stack[stack.count - 2]
      let backTitle = below.navigationItem.backButtonTitle ?? below.navigationItem.title ?? below.title ?? ""
      screen.draw("‹ " + TerminalScreen.clipped(backTitle, to: max(0, titleX - 5)), x: 1, y: row, inverse: true)
      layout.back = 0..<screen.width
    }
    var right = screen.width - 1
    for item in top.navigationItem.rightBarButtonItems {
      let text = item.title ?? ""
      let x = max(0, right - TerminalScreen.columns(of: text))
      screen.draw(text, x: x, y: row, inverse: true, bold: item.isEnabled)
      layout.rightItems.append((item, max(0, x - 1)..<min(screen.width, right + 1)))
      right = x - 2
    }
    return layout
  }

  /// Draws a tab bar (`UITabBar`) in `row` for `tabs`: each child's tab bar item title (else its
  /// `title`) as ` title `, the selected one inverse and bold. Answers each tab's columns.
  @discardableResult
  public func drawTabBar(for tabs: TabBarController, into screen: inout TerminalScreen, row: Int) -> [Range<Int>] {
    guard (0..<screen.height).contains(row) else { return [] }
    screen.fill(row: row)
    var places: [Range<Int>] = []
    var x = 1
    for (index, child) in tabs.viewControllers.enumerated() {
      let label = " " + (child.tabBarItem?.title ?? child.title ?? "") + " "
      let columns = TerminalScreen.columns(of: label)
      let selected = tabs.selectedIndex == index
      screen.draw(label, x: x, y: row, inverse: selected, bold: selected)
      places.append(x..<(x + columns))
      x += columns + 2
    }
    return places
  }
}
