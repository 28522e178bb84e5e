import Bundles
import Defaults
import Foundation
import HomepwnerKit
import InterfaceRendering
import StasisSystem
import InterfaceObjects
import Sandbox
import Testing
import TestSupport

/// Homepwner in this process: its bundle in English, a container in a scratch folder, items
/// created at noon (UTC) on the given days, and the terminal face over it.
@MainActor final class InProcessHomepwner {
  nonisolated static let bundlePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/Homepwner/Homepwner.app").path

  let scratch: ScratchFolder
  let app: HomepwnerApp
  let terminal: HomepwnerTerminal

  init(itemDates: [Date]) throws {
    scratch = try ScratchFolder("homepwner-in-process")
    let root = ContainerRoot(path: scratch.path)
    let container = try root.container(for: "com.bignerdranch.Homepwner", appName: "Homepwner")
    let defaults = Defaults.UserDefaults(inMemoryDomain: "com.bignerdranch.Homepwner", configuration: .init(containerRoot: root, flushDelay: nil))
    let bundle = try Bundles.Bundle(path: Self.bundlePath, environment: .languages(["en"]))
    app = try HomepwnerApp(container: container, preferences: Preferences(defaults: defaults, bundle: bundle))
    for (index, date) in itemDates.enumerated() {
      app.itemStore.createItem(Item(itemName: "Item \(index)", serialNumber: "S\(index)", valueInDollars: index, dateCreated: date))
    }
    _ = app.items.view
    app.items.highlightedRow = itemDates.isEmpty ? nil : 0
    terminal = HomepwnerTerminal(app: app)
  }

  deinit { scratch.remove() }

  /// The rows of an 80 × 24 frame.
  func rows() -> [String] {
    let screen = terminal.render(width: 80, height: 24)
    return (0..<screen.height).map { screen.text(ofRow: $0) }
  }

  /// A left click on the cell at `column`, `row` (from 0), as the terminal reports it.
  @discardableResult
  func click(column: Int, row: Int) -> HomepwnerTerminal.Request {
    terminal.handle(Array("\u{1B}[<0;\(column + 1);\(row + 1)M".utf8))
  }
}

@MainActor
@Suite("The date editor (the book's BNRDateViewController): stepping a date's parts, saving, cancelling; clicks")
struct DateEditorTests {
  nonisolated static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// Noon (UTC) on the day: the same day in every time zone within 11 hours of UTC.
  static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
    utc.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
  }

  /// An editor counting in UTC, on a lamp created on the day given.
  static func editor(on date: Date) -> (DateViewController, Item) {
    let item = Item(itemName: "Lamp", serialNumber: "L1", valueInDollars: 5, dateCreated: date)
    let editor = DateViewController()
    editor.calendar = utc
    editor.show(item)
    return (editor, item)
  }

  @Test("↑/↓ step the selected part, carrying into the larger ones; a day the month lacks becomes its last; the item keeps its date until saved")
  func stepping() {
    let (editor, item) = Self.editor(on: Self.day(2024, 1, 31))
    #expect(editor.selectedComponent == .year)
    #expect(editor.datePicker.datePickerMode == .date)
    editor.selectedComponent = .month
    editor.step(by: 1)
    #expect(editor.datePicker.date == Self.day(2024, 2, 29))
    editor.selectedComponent = .year
    editor.step(by: 1)
    #expect(editor.datePicker.date == Self.day(2025, 2, 28))
    editor.selectedComponent = .day
    editor.step(by: 1)
    #expect(editor.datePicker.date == Self.day(2025, 3, 1))
    editor.step(by: -1)
    #expect(editor.datePicker.date == Self.day(2025, 2, 28))
    editor.datePicker.date = Self.day(2025, 12, 31)
    editor.step(by: 1)
    #expect(editor.datePicker.date == Self.day(2026, 1, 1))
    editor.selectedComponent = .month
    editor.step(by: -13)
    #expect(editor.datePicker.date == Self.day(2024, 12, 1))
    #expect(item.dateCreated == Self.day(2024, 1, 31), "not saved yet")
    editor.save()
    #expect(item.dateCreated == Self.day(2024, 12, 1))
  }

  @Test("←/→ move between year, month and day and say when there is no further part")
  func selecting() {
    let (editor, _) = Self.editor(on: Self.day(2024, 1, 31))
    #expect(!editor.selectPrevious())
    #expect(editor.selectedComponent == .year)
    #expect(editor.selectNext() && editor.selectNext())
    #expect(editor.selectedComponent == .day)
    #expect(!editor.selectNext())
    #expect(editor.selectPrevious())
    #expect(editor.selectedComponent == .month)
  }

  @Test("The picker keeps the date within its minimum and maximum")
  func range() {
    let (editor, _) = Self.editor(on: Self.day(2024, 1, 31))
    editor.datePicker.minimumDate = Self.day(1900, 1, 1)
    editor.datePicker.maximumDate = Self.day(2099, 12, 31)
    editor.step(by: -500)
    #expect(editor.datePicker.date == Self.day(1900, 1, 1))
    editor.step(by: 500)
    #expect(editor.datePicker.date == Self.day(2099, 12, 31))
  }

  @Test("Keys in the app: Enter or → on the detail's date row opens the editor; Escape and ← on the year cancel, Enter saves")
  func keysInTheApp() throws {
    let home = try InProcessHomepwner(itemDates: [Self.day(2024, 1, 31), Self.day(2025, 6, 15)])
    let terminal = home.terminal
    let item = home.app.itemStore.allItems[0]
    _ = terminal.handle(.enter)
    let detail = try #require(home.app.detail)
    for _ in 0..<5 { _ = terminal.handle(.down) }
    #expect(detail.focusedField == detail.dateRow)
    #expect(terminal.handle(.character("x")) == .none, "nothing to type into on the date row")
    #expect(terminal.handle(.enter) == .redraw)
    let editor = try #require(home.app.dateEditor)
    #expect(editor.item === item)
    var rows = home.rows()
    #expect(rows[0].contains("Date Created") && rows[0].contains("‹ Item 0") && rows[0].contains("Save"))
    #expect(rows.contains { $0.contains("Year") && $0.contains("Month") && $0.contains("Day") })
    #expect(rows.contains { $0.contains("▲") })
    _ = terminal.handle(.up)
    _ = terminal.handle(.escape)
    #expect(home.app.dateEditor == nil && home.app.detail === detail)
    #expect(item.dateCreated == Self.day(2024, 1, 31), "Escape does not save")
    _ = terminal.handle(.right)
    _ = terminal.handle(.down)
    _ = terminal.handle(.left)
    #expect(home.app.detail === detail, "← on the year goes back without saving")
    #expect(item.dateCreated == Self.day(2024, 1, 31))
    _ = terminal.handle(.enter)
    _ = terminal.handle(.right)
    _ = terminal.handle(.up)
    #expect(home.app.dateEditor?.selectedComponent == .month)
    rows = home.rows()
    #expect(rows.contains { $0.contains("February") })
    #expect(terminal.handle(.enter) == .redraw)
    #expect(home.app.detail === detail)
    let expected = try #require(Calendar(identifier: .gregorian).date(byAdding: .month, value: 1, to: Self.day(2024, 1, 31)))
    #expect(item.dateCreated == expected)
    rows = home.rows()
    #expect(rows[8].contains("Created:") && rows[8].contains("Feb") && rows[8].contains("2024"))
  }

  @Test("Clicks: tabs, a list row, the detail's fields and date, the parts of the date, ▲/▼, Save, the bar's back; the wheel")
  func clicks() throws {
    let home = try InProcessHomepwner(itemDates: [Self.day(2024, 1, 31), Self.day(2025, 6, 15), Self.day(2026, 3, 3)])
    let app = home.app
    var rows = home.rows()
    // The tab bar: " Items " from column 1, " Settings " two columns after.
    #expect(rows[22].hasPrefix("  Items    Settings"))
    #expect(home.click(column: 12, row: 22) == .redraw)
    #expect(app.tabs.selectedIndex == 1)
    #expect(home.click(column: 30, row: 22) == .none, "beside the tabs")
    home.click(column: 3, row: 22)
    #expect(app.tabs.selectedIndex == 0)
    // A row of the list opens its item.
    home.click(column: 50, row: 2)
    #expect(app.detail?.item === app.displayedItems[1])
    // The detail: a field takes the focus, the date opens the editor.
    home.click(column: 20, row: 6)
    #expect(app.detail?.focusedField == 2)
    #expect(app.window.firstResponder === app.detail?.valueField)
    home.click(column: 20, row: 8)
    let editor = try #require(app.dateEditor)
    rows = home.rows()
    // The parts side by side from column 3: "Year" (6 wide), "June" under "Month" (7 wide), "15" under "Day".
    #expect(rows[6].contains("2025    June     15"))
    home.click(column: 13, row: 6)
    #expect(editor.selectedComponent == .month)
    home.click(column: 13, row: 5)
    #expect(editor.datePicker.date == Calendar(identifier: .gregorian).date(byAdding: .month, value: 1, to: Self.day(2025, 6, 15)))
    home.click(column: 22, row: 7)
    #expect(editor.selectedComponent == .day)
    _ = home.terminal.handle(Array("\u{1B}[<64;1;1M\u{1B}[<64;1;1M\u{1B}[<65;1;1M".utf8))  // the wheel: one day later
    let chosen = editor.datePicker.date
    // Save, on the right of the bar.
    home.click(column: 77, row: 0)
    #expect(app.dateEditor == nil)
    #expect(app.displayedItems[1].dateCreated == chosen)
    // The bar goes back: from the detail to the list; "+ (a)" adds an item.
    home.click(column: 40, row: 0)
    #expect(app.detail == nil && app.navigation.viewControllers.count == 1)
    home.click(column: 76, row: 0)
    #expect(app.itemStore.allItems.count == 4)
    // A click on nothing, a release, the right button: nothing happens.
    #expect(home.click(column: 10, row: 15) == .none)
    #expect(home.terminal.handle(Array("\u{1B}[<0;5;3m\u{1B}[<2;5;3M".utf8)) == .none)
  }

  @Test("The detail's buttons act through the responder chain: from the focused field up to the controller")
  func buttonsActThroughTheResponderChain() throws {
    let home = try InProcessHomepwner(itemDates: [Self.day(2024, 1, 31)])
    _ = home.terminal.handle(.enter)
    let detail = try #require(home.app.detail)
    _ = home.rows()
    home.app.window.makeFirstResponder(detail.nameField)
    #expect(detail.choosePhotoButton.target == nil)
    #expect(try detail.choosePhotoButton.performClick())
    #expect(home.terminal.photoPrompt == "", "choosePhoto: reached the controller, which opened the prompt")
    _ = home.terminal.handle(.escape)
    #expect(try detail.dateButton.performClick())
    #expect(home.app.dateEditor != nil, "showDateEditor: reached the controller")
    // A click on the photo's button (column 20, its row) sends the same action.
    _ = home.terminal.handle(.escape)
    let rows = home.rows()
    let photoRow = try #require(rows.firstIndex { $0.contains("Choose Photo") })
    #expect(home.click(column: 20, row: photoRow) == .redraw)
    #expect(home.terminal.photoPrompt == "")
  }

  @Test("The date editor cancels from the bar's back; a click cut between two reads acts once")
  func backFromTheEditorAndCutClicks() throws {
    let home = try InProcessHomepwner(itemDates: [Self.day(2024, 1, 31)])
    let item = home.app.itemStore.allItems[0]
    _ = home.terminal.handle(.enter)
    home.click(column: 5, row: 8)
    _ = home.terminal.handle(.up)
    #expect(home.app.dateEditor != nil)
    #expect(home.terminal.handle(Array("\u{1B}[<0;3".utf8)) == .none)
    #expect(home.terminal.handle(Array(";1M".utf8)) == .redraw)
    #expect(home.app.dateEditor == nil && home.app.detail != nil)
    #expect(item.dateCreated == Self.day(2024, 1, 31))
  }
}
