import Foundation
import InterfaceRendering
import InterfaceObjects
import Testing

/// The renderer draws loaded views where their frames put them, each kind as a terminal shows it,
/// and finds the view under a cell.
@MainActor
@Suite("The terminal renderer of view trees")
struct TerminalRendererTests {
  /// A root view (a phone-sized scene) with a label, a text field, a button, a switch and a
  /// hidden label; points map to cells at 5 × 20 after an 80-point inset.
  func scene() -> (root: View, label: Label, field: TextField, button: Button, toggle: Switch, hidden: Label) {
    let root = View(frame: CGRect(x: 0, y: 0, width: 375, height: 812))
    let label = Label(frame: CGRect(x: 10, y: 100, width: 100, height: 20))
    label.text = "Name:"
    let field = TextField(frame: CGRect(x: 120, y: 100, width: 100, height: 34))
    field.text = "Chair"
    let button = Button(frame: CGRect(x: 10, y: 140, width: 150, height: 20))
    button.title = "Choose Photo"
    let toggle = Switch(frame: CGRect(x: 200, y: 140, width: 50, height: 30))
    toggle.isOn = true
    let hidden = Label(frame: CGRect(x: 10, y: 180, width: 100, height: 20))
    hidden.text = "never drawn"
    hidden.isHidden = true
    for view in [label, field, button, toggle, hidden] as [View] { root.addSubview(view) }
    return (root, label, field, button, toggle, hidden)
  }

  @Test("Each kind is drawn at its frame's cells, clipped to its width; hidden views are not drawn")
  func drawsAtFrames() {
    let (root, _, field, _, _, _) = scene()
    var renderer = TerminalRenderer()
    renderer.focusedView = field
    var screen = TerminalScreen(width: 60, height: 8)
    renderer.draw(root, into: &screen, rows: 1..<7)
    // y 100 → row 1 of the region (screen row 2), y 140 → row 3 (screen row 4); x 10 → column 2;
    // x 120 → column 24, x 200 → column 40.
    #expect(screen.text(ofRow: 2).hasPrefix("  Name:"))
    #expect(screen.text(ofRow: 2).dropFirst(24).hasPrefix("[Chair▏" + String(repeating: " ", count: 12) + "]"))
    #expect(screen.text(ofRow: 4).hasPrefix("  [ Choose Photo ]"))
    #expect(screen.text(ofRow: 4).dropFirst(40).hasPrefix("[x]"))
    #expect(!(0..<8).contains { screen.text(ofRow: $0).contains("never drawn") })
  }

  @Test("An empty field without a placeholder is an empty box; text longer than the frame is cut")
  func emptyFieldsAndClipping() {
    let (root, label, field, _, _, _) = scene()
    field.text = ""
    label.text = "A label far wider than its frame"
    var screen = TerminalScreen(width: 60, height: 8)
    TerminalRenderer().draw(root, into: &screen, rows: 1..<7)
    #expect(screen.text(ofRow: 2).dropFirst(24).hasPrefix("[" + String(repeating: " ", count: 18) + "]"))
    #expect(screen.text(ofRow: 2).hasPrefix("  A label far wider th  ["))
  }

  @Test("A field or button cut at the screen's edge keeps its closing bracket")
  func boxesKeepTheirBracketsAtTheEdge() {
    let (root, _, field, button, _, _) = scene()
    field.text = "A name far longer than the screen has room for"
    field.frame.size.width = 200  // 40 columns from column 24: past a 50-column screen
    button.title = "Choose a Photo from a File"
    var screen = TerminalScreen(width: 50, height: 8)
    TerminalRenderer().draw(root, into: &screen, rows: 1..<7)
    let row = screen.text(ofRow: 2)
    #expect(row.count == 50)
    #expect(row.dropFirst(24).hasPrefix("[A name far longer "), "\(row)")
    #expect(row.hasSuffix("]"), "\(row)")
    var narrow = TerminalScreen(width: 16, height: 8)
    TerminalRenderer().draw(root, into: &narrow, rows: 1..<7)
    #expect(narrow.text(ofRow: 4) == "  [ Choose a P ]")
  }

  @Test("Rows outside the region are not drawn")
  func regionClips() {
    let (root, _, _, _, _, _) = scene()
    var screen = TerminalScreen(width: 60, height: 8)
    TerminalRenderer().draw(root, into: &screen, rows: 3..<4)
    #expect(!screen.text(ofRow: 4).contains("Name:"))
    #expect(screen.text(ofRow: 3).contains("[ ]") == false)
  }

  @Test("The view under a cell is the deepest visible one; empty space answers nil")
  func hitTesting() {
    let (root, label, field, button, _, _) = scene()
    let renderer = TerminalRenderer()
    #expect(renderer.view(atColumn: 3, row: 2, in: root, regionTop: 1) === label)
    #expect(renderer.view(atColumn: 30, row: 2, in: root, regionTop: 1) === field)
    #expect(renderer.view(atColumn: 5, row: 4, in: root, regionTop: 1) === button)
    #expect(renderer.view(atColumn: 5, row: 5, in: root, regionTop: 1) == nil, "the hidden label is not hit")
    #expect(renderer.view(atColumn: 59, row: 6, in: root, regionTop: 1) == nil)
  }

  @Test("A navigation bar: the top item's title centred, ‹ and the item below's back title, the right items from the edge")
  func navigationBar() {
    let list = ViewController(), detail = ViewController()
    list.navigationItem.title = "Homepwner"
    list.navigationItem.backButtonTitle = "Items"
    detail.title = "Chair"
    let save = BarButtonItem()
    save.title = "Save"
    detail.navigationItem.rightBarButtonItems = [save]
    var screen = TerminalScreen(width: 40, height: 3)
    let layout = TerminalRenderer().drawNavigationBar(for: [list, detail], into: &screen, row: 0)
    #expect(screen.text(ofRow: 0) == " ‹ Items         Chair             Save ")  // the title from column (40 - 5) / 2 = 17
    #expect(layout.back == 0..<40)
    #expect(layout.rightItems.count == 1 && layout.rightItems[0].item === save && layout.rightItems[0].columns == 34..<40)
    let allInverse = screen.cells[0].allSatisfy { $0.inverse }
    #expect(allInverse)
    // One controller alone: its title, nothing to go back to.
    var alone = TerminalScreen(width: 20, height: 1)
    #expect(TerminalRenderer().drawNavigationBar(for: [list], into: &alone, row: 0).back == nil)
    #expect(alone.text(ofRow: 0) == "     Homepwner      ")
  }

  @Test("A tab bar: each child's tab bar item title, the selected one inverse; where each tab is")
  func tabBar() {
    let tabs = TabBarController()
    let first = ViewController(), second = ViewController()
    first.tabBarItem = TabBarItem()
    first.tabBarItem?.title = "Items"
    second.title = "Settings"
    tabs.setViewControllers([first, second])
    tabs.selectedIndex = 1
    var screen = TerminalScreen(width: 30, height: 2)
    let places = TerminalRenderer().drawTabBar(for: tabs, into: &screen, row: 1)
    #expect(screen.text(ofRow: 1).hasPrefix("  Items    Settings "))
    #expect(places == [1..<8, 10..<20])
    #expect(screen.cells[1][11].inverse && !screen.cells[1][2].inverse)
  }
}
