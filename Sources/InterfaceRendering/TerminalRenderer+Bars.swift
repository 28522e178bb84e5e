import Foundation
public import InterfaceObjects

extension TerminalRenderer {
  /// Where a navigation bar's parts were drawn: the back button's columns (when there is a
  /// controller to go back to) and each right bar button item's.
  public struct NavigationBarLayout {
    public var back: Range<Int>?
    public var rightItems: [(item: BarButtonItem, columns: Range<Int>)] = []
  }

  /// Draws a navigation bar (``SceneLayout/navigationBar(for:in:)``) in `row` for `stack`:
  /// inverse; the title centred and bold; `‹` and the back title on the left; the right bar
  /// button items' titles from the right edge (bold when enabled).
  @discardableResult
  public func drawNavigationBar(for stack: [ViewController], into screen: inout TerminalScreen, row: Int) -> NavigationBarLayout {
    var result = NavigationBarLayout()
    guard (0..<screen.height).contains(row),
      let primitive = layout.navigationBar(for: stack, in: .zero), case .navigationBar(let bar) = primitive.content
    else { return result }
    screen.fill(row: row, inverse: true)
    let titleX = max(0, (screen.width - TerminalScreen.columns(of: bar.title)) / 2)
    screen.draw(bar.title, x: titleX, y: row, inverse: true, bold: true)
    if let backTitle = bar.backTitle {
      screen.draw("‹ " + TerminalScreen.clipped(backTitle, to: max(0, titleX - 5)), x: 1, y: row, inverse: true)
      result.back = 0..<screen.width
    }
    var right = screen.width - 1
    for item in bar.rightItems {
      let text = item.title ?? ""
      let x = max(0, right - TerminalScreen.columns(of: text))
      screen.draw(text, x: x, y: row, inverse: true, bold: item.isEnabled)
      result.rightItems.append((item, max(0, x - 1)..<min(screen.width, right + 1)))
      right = x - 2
    }
    return result
  }

  /// Draws a tab bar (``SceneLayout/tabBar(for:in:)``) in `row` for `tabs`: each tab's title as
  /// ` title `, the selected one inverse and bold. Answers each tab's columns.
  @discardableResult
  public func drawTabBar(for tabs: TabBarController, into screen: inout TerminalScreen, row: Int) -> [Range<Int>] {
    guard (0..<screen.height).contains(row), case .tabBar(let bar) = layout.tabBar(for: tabs, in: .zero).content else { return [] }
    screen.fill(row: row)
    var places: [Range<Int>] = []
    var x = 1
    for (index, title) in bar.titles.enumerated() {
      let label = " " + title + " "
      let columns = TerminalScreen.columns(of: label)
      let selected = bar.selected == index
      screen.draw(label, x: x, y: row, inverse: selected, bold: selected)
      places.append(x..<(x + columns))
      x += columns + 2
    }
    return places
  }
}
