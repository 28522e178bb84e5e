public import InterfaceRendering
internal import InterfaceObjects
internal import ObjectModel
internal import Lifecycle
internal import Foundation

/// Homepwner's terminal face: draws the screen the app's controllers are on (navigation bar,
/// the list, the detail, the date editor, the settings, the tab bar, a status line) into a
/// ``TerminalScreen``, and turns keys and mouse clicks into what the user means.
///
/// Keys: Tab switches tabs; `q` quits (outside the detail, where it is typed); Ctrl-Z suspends.
/// - List: ↑/↓ move, Enter or → opens the item, `a` adds a random item, `n` a new one at the
///   default value (opened for editing), `d` deletes, `K`/`J` move the item up/down (when the
///   sort order is manual).
/// - Detail: ↑/↓ choose a row (name, serial, value, date created), typing edits a field,
///   Backspace erases; Enter or → on the date row opens the date editor, Enter or ← elsewhere
///   goes back; Ctrl-P attaches a photo: type the image file's path, Enter (an empty path or
///   Escape cancels).
/// - Date editor: ←/→ choose the year, month or day, ↑/↓ make it one later / earlier (carrying:
///   December 31 and a day is January 1), Enter saves and goes back, Escape (or ← on the year)
///   goes back without saving.
/// - Settings: ↑/↓ scroll.
///
/// Mouse (xterm's SGR reporting, which `homepwner` turns on): a click on a tab switches to it;
/// on the navigation bar goes back (from the date editor without saving), but on its right-hand
/// button adds an item (`+ (a)`) or saves the date (Save); on a row of the list opens it; on a
/// field of the detail focuses it, on its date opens the date editor; on the year, month or day
/// of the date editor selects it, on the ▲ or ▼ beside it makes it one later or earlier. The
/// wheel is ↑/↓.
@MainActor public final class HomepwnerTerminal {
  /// What a key asks of the program around.
  public enum Request: Equatable { case none, redraw, quit }

  public let app: HomepwnerApp
  /// The seed of the random items `a` adds.
  private var random = SplitMixRandom(state: 0x19)
  private var parser = TerminalInputParser()

  /// What a click on a place of the screen does.
  enum ClickAction: Equatable {
    case selectTab(Int), back, barButton(Int), openRow(Int)
    case selectComponent(DateViewController.Component)
    case stepComponent(DateViewController.Component, by: Int)
  }

  /// The places of the last frame that answer a click (a row's columns) and what a click there
  /// does; a later one wins where two overlap.
  private var clickTargets: [(row: Int, columns: Range<Int>, action: ClickAction)] = []
  /// The size of the last frame, and whether the screen changed since (the places are then found
  /// again before a click is placed).
  private var frameSize = (width: 80, height: 24)
  private var clickTargetsAreStale = true

  public init(app: HomepwnerApp) {
    self.app = app
    random = SplitMixRandom(state: UInt64(app.itemStore.allItems.count) &+ 0x19)
  }

  // MARK: - Input

  /// The photo path being typed after Ctrl-P, if the prompt is open.
  public private(set) var photoPrompt: String?

  /// Handles typed bytes (keys and mouse reports, which may come cut anywhere); answers what the
  /// program should do next.
  public func handle(_ bytes: [UInt8]) -> Request {
    var request = Request.none
    for input in parser.parse(bytes) {
      switch handle(input) {
      case .quit: return .quit
      case .redraw: request = .redraw
      case .none: break
      }
    }
    return request
  }

  /// Handles one key or mouse event; answers what the program should do next.
  public func handle(_ input: TerminalInput) -> Request {
    let request = respond(to: input)
    if request != .none { clickTargetsAreStale = true }
    return request
  }

  private func respond(to input: TerminalInput) -> Request {
    switch input {
    case .click(let column, let row): return click(column: column, row: row)
    case .scrollUp: return respond(to: .up)
    case .scrollDown: return respond(to: .down)
    case .tab:
      app.tabs.selectedIndex = app.tabs.selectedIndex == 0 ? 1 : 0
      return .redraw
    default: break
    }
    if !app.onItemsTab {
      _ = app.settings.view  // the scroll view is restored with the screen's view
      switch input {
      case .up: app.settings.scroll.contentOffset.y = max(0, app.settings.scroll.contentOffset.y - SettingsViewController.lineHeight)
      case .down:
        let last = SettingsViewController.lineHeight * Double(settingsLines.count - 1)
        app.settings.scroll.contentOffset.y = min(app.settings.scroll.contentOffset.y + SettingsViewController.lineHeight, last)
      case .character("q"): return .quit
      default: return .none
      }
      return .redraw
    }
    if let editor = app.dateEditor { return handleDateEditor(input, editor) }
    if let detail = app.detail { return handleDetail(input, detail) }
    let store = app.itemStore
    let shown = app.displayedItems
    let row = app.items.highlightedRow
    /// Highlights `item` where the current order shows it.
    func highlight(_ item: Item) { app.items.highlightedRow = app.displayedItems.firstIndex { $0 === item } }
    switch input {
    case .up: if let row, row > 0 { app.items.highlightedRow = row - 1 }
    case .down:
      if let row { if row + 1 < shown.count { app.items.highlightedRow = row + 1 } } else if !shown.isEmpty { app.items.highlightedRow = 0 }
    case .enter, .right: app.openHighlighted()
    case .character("a"): addRandomItem()
    case .character("n"):
      highlight(store.createItem(Item(itemName: "", serialNumber: "", valueInDollars: app.preferences.defaultValue)))
      app.openHighlighted()
    case .character("d"):
      guard let row, shown.indices.contains(row) else { return .none }
      let item = shown[row]
      do { try app.imageStore.deleteImage(forKey: item.itemKey) } catch { app.status = "\(error)" }
      store.remove(item)
      app.items.highlightedRow = shown.count > 1 ? min(row, shown.count - 2) : nil
    case .character("K"):
      guard app.canReorder, let row, row > 0 else { return .none }
      store.moveItem(from: row, to: row - 1)
      app.items.highlightedRow = row - 1
    case .character("J"):
      guard app.canReorder, let row, row + 1 < shown.count else { return .none }
      store.moveItem(from: row, to: row + 1)
      app.items.highlightedRow = row + 1
    case .character("q"): return .quit
    default: return .none
    }
    return .redraw
  }

  /// Adds a random item (`a`) and highlights it where the current order shows it.
  func addRandomItem() {
    let item = app.itemStore.createItem(Item.random(using: &random))
    app.items.highlightedRow = app.displayedItems.firstIndex { $0 === item }
  }

  func handleDetail(_ input: TerminalInput, _ detail: DetailViewController) -> Request {
    if var path = photoPrompt {
      switch input {
      case .character(let character): path.append(character)
      case .backspace: if !path.isEmpty { path.removeLast() }
      case .enter:
        photoPrompt = nil
        if !path.isEmpty, let item = detail.item { attachPhoto(atPath: path, to: item) }
        return .redraw
      case .escape:
        photoPrompt = nil
        return .redraw
      default: return .none
      }
      photoPrompt = path
      return .redraw
    }
    // Ctrl-P, and Enter or → on the date, are the buttons' own actions, sent up the responder
    // chain from the focused control to the controller, as a tap on them would.
    if input == .attachPhoto {
      press(detail.choosePhotoButton, in: detail)
      return .redraw
    }
    if detail.focusedField == detail.dateRow, input == .enter || input == .right {
      press(detail.dateButton, in: detail)
      return .redraw
    }
    switch input {
    case .up: detail.focusedField = max(0, detail.focusedField - 1)
    case .down: detail.focusedField = min(detail.dateRow, detail.focusedField + 1)
    case .enter, .left: app.closeDetail()
    case .backspace:
      guard let field = detail.focusedTextField, !field.text.isEmpty else { return .none }
      field.text.removeLast()
    case .character(let character):
      guard let field = detail.focusedTextField else { return .none }
      field.text.append(character)
    default: return .none
    }
    app.window.makeFirstResponder(app.detail?.focusedControl)
    return .redraw
  }

  /// Sends `button`'s touch-up-inside actions (`performClick`), with the detail's focused control
  /// as the first responder the chain starts from.
  func press(_ button: Button, in detail: DetailViewController) {
    prepare(detail)
    if app.window.firstResponder == nil { app.window.makeFirstResponder(detail.focusedControl) }
    _ = try? button.performClick()
  }

  func handleDateEditor(_ input: TerminalInput, _ editor: DateViewController) -> Request {
    switch input {
    case .up: editor.step(by: 1)
    case .down: editor.step(by: -1)
    case .right: guard editor.selectNext() else { return .none }
    case .left: if !editor.selectPrevious() { app.closeDateEditor(saving: false) }
    case .enter: app.closeDateEditor(saving: true)
    case .escape: app.closeDateEditor(saving: false)
    case .character("q"): return .quit
    default: return .none
    }
    return .redraw
  }

  /// A left click on the cell at `column`, `row`: what the last frame showed there.
  func click(column: Int, row: Int) -> Request {
    guard photoPrompt == nil else { return .none }
    if clickTargetsAreStale { _ = render(width: frameSize.width, height: frameSize.height) }
    guard let target = clickTargets.last(where: { $0.row == row && $0.columns.contains(column) }) else {
      // The detail's views: the one under the click answers it.
      guard app.onItemsTab, app.dateEditor == nil, let detail = app.detail, let root = detail.view,
        var view = detailRenderer.view(atColumn: column, row: row, in: root, regionTop: 1)
      else { return .none }
      // A click on a label is a click on the control of its row (as a form's label is).
      if view is Label, let control = root.subviews.first(where: { $0 is Control && detailRenderer.cellFrame(of: $0).y == detailRenderer.cellFrame(of: view).y }) {
        view = control
      }
      if let field = view as? TextField, let index = detail.fields.firstIndex(where: { $0 === field }) {
        detail.focusedField = index
        app.window.makeFirstResponder(field)
      } else if let button = view as? Button {
        if button === detail.dateButton { detail.focusedField = detail.dateRow }
        press(button, in: detail)
      } else {
        return .none
      }
      return .redraw
    }
    switch target.action {
    case .selectTab(let index): app.tabs.selectedIndex = index
    case .back:
      if app.dateEditor != nil { app.closeDateEditor(saving: false) } else { app.closeDetail() }
    case .barButton(let index):
      // The top controller's right bar button item: its action, to its target.
      let top = app.onItemsTab ? (app.navigation.topViewController ?? app.items) : app.settings
      guard top.navigationItem.rightBarButtonItems.indices.contains(index) else { return .none }
      let item = top.navigationItem.rightBarButtonItems[index]
      guard let action = item.action, let target = item.target as? ActionResponding, target.responds(to: action) else { return .none }
      try? target.perform(action: action, sender: item)
    case .openRow(let row):
      app.items.highlightedRow = row
      app.openHighlighted()
    case .selectComponent(let component): app.dateEditor?.selectedComponent = component
    case .stepComponent(let component, let amount):
      guard let editor = app.dateEditor else { return .none }
      editor.selectedComponent = component
      editor.step(by: amount)
    }
    return .redraw
  }

  /// Reads the image file at `path` into the image store as `item`'s photo; the status line says
  /// what happened.
  func attachPhoto(atPath path: String, to item: Item) {
    guard let data = FileManager.default.contents(atPath: path), data.count <= 64 << 20 else {
      app.status = app.preferences.text("CannotRead", path)
      return
    }
    do {
      try app.imageStore.setImage([UInt8](data), forKey: item.itemKey)
      app.status = "\(path): \(StoredImage(bytes: [UInt8](data)).summary)"
    } catch {
      app.status = "\(error)"
    }
  }

  // MARK: - Drawing

  /// The screen as it is now, `width` × `height` cells; it is also what a click is placed on.
  public func render(width: Int, height: Int) -> TerminalScreen {
    var screen = TerminalScreen(width: width, height: height)
    frameSize = (screen.width, screen.height)
    clickTargets = []
    clickTargetsAreStale = false
    // Navigation bar: the controllers' navigation items, in the user's language, drawn by the
    // renderer; the whole bar goes back, but for the buttons on the right, which send their
    // actions to their targets.
    let text = app.preferences
    app.items.navigationItem.title = text.text("Homepwner")
    app.items.navigationItem.backButtonTitle = text.text("Back")
    app.items.addItem.title = "+ (a)"
    app.items.onAddNewItem = { [unowned self] in addRandomItem() }
    app.settings.navigationItem.title = text.text("Settings")
    if let detail = app.detail { detail.navigationItem.title = detail.item?.itemName ?? "" }
    if let editor = app.dateEditor {
      editor.navigationItem.title = text.text("DateTitle")
      editor.saveItem.title = text.text("Save")
      editor.onSave = { [unowned self] in app.closeDateEditor(saving: true) }
    }
    let bars = TerminalRenderer()
    let stack = app.onItemsTab ? app.navigation.viewControllers : [app.settings]
    let bar = bars.drawNavigationBar(for: stack, into: &screen, row: 0)
    if let back = bar.back { clickTargets.append((0, back, .back)) }
    for (index, place) in bar.rightItems.enumerated() { clickTargets.append((0, place.columns, .barButton(index))) }
    let contentRows = max(0, screen.height - 3)
    if let editor = app.dateEditor, app.onItemsTab {
      drawDateEditor(editor, into: &screen)
    } else if let detail = app.detail, app.onItemsTab {
      drawDetail(detail, into: &screen, rows: contentRows)
    } else if app.onItemsTab {
      drawList(into: &screen, rows: contentRows)
    } else {
      drawSettings(into: &screen, rows: contentRows)
    }
    // Tab bar and status line (over any content drawn that far down).
    let tabRow = screen.height - 2
    clickTargets.removeAll { $0.row >= tabRow }
    app.items.navigationController?.tabBarItem?.title = text.text("Items")
    app.settings.tabBarItem?.title = text.text("Settings")
    for (index, place) in bars.drawTabBar(for: app.tabs, into: &screen, row: tabRow).enumerated() {
      clickTargets.append((tabRow, place, .selectTab(index)))
    }
    let statusLine = photoPrompt.map { app.preferences.text("Photo") + ": " + $0 + "▏" } ?? app.status
    screen.draw(TerminalScreen.clipped(statusLine, to: screen.width), x: 0, y: screen.height - 1)
    return screen
  }

  func drawList(into screen: inout TerminalScreen, rows: Int) {
    let items = app.displayedItems
    guard !items.isEmpty else {
      screen.draw(app.preferences.text("Empty"), x: 2, y: 2)
      return
    }
    var first = Int(app.items.table.contentOffset.y)
    if let row = app.items.highlightedRow {
      if row < first { first = row }
      if row >= first + rows { first = row - rows + 1 }
    }
    first = min(max(0, first), max(0, items.count - rows))
    app.items.table.contentOffset.y = Double(first)
    // The data source's part: each visible row's text (name, value, serial in columns); the
    // renderer draws the loaded table with it, the highlighted row inverse.
    let visible = Array(items[first..<min(items.count, first + rows)])
    let lines = visible.map { item -> String in
      let name = TerminalScreen.clipped(item.itemName, to: 24)
      var line = " " + name + String(repeating: " ", count: max(0, 24 - TerminalScreen.columns(of: name)))
      let money = app.preferences.money(item.valueInDollars)
      line += String(repeating: " ", count: max(0, max(27, 40 - TerminalScreen.columns(of: money)) - TerminalScreen.columns(of: line)))
      line += money
      line += String(repeating: " ", count: max(0, 43 - TerminalScreen.columns(of: line)))
      return line + item.serialNumber
    }
    var renderer = TerminalRenderer()
    renderer.topInset = 0  // the table lies under the navigation bar, as UIKit insets its content
    let highlighted = app.items.highlightedRow.map { $0 - first }
    renderer.tableRows = { _ in (lines, highlighted) }
    if let root = app.items.view { renderer.draw(root, into: &screen, rows: 1..<(1 + rows)) }
    for offset in visible.indices { clickTargets.append((1 + offset, 0..<screen.width, .openRow(first + offset))) }
  }

  /// The renderer of the detail's loaded views (the storyboard's labels, fields and buttons).
  private var detailRenderer = TerminalRenderer()

  /// Puts the detail's views in the user's language and the item's state (labels, the date, the
  /// photo) and connects the controller's actions to the app, as a controller's
  /// `viewWillAppear` would.
  func prepare(_ detail: DetailViewController) {
    let text = app.preferences
    detail.nameLabel.text = text.text("Name") + ":"
    detail.serialLabel.text = text.text("Serial") + ":"
    detail.valueLabel.text = text.text("Value") + " (" + text.currencyCode + "):"
    detail.createdLabel.text = text.text("Created") + ":"
    detail.photoLabel.text = text.text("Photo") + ":"
    if let item = detail.item {
      detail.dateButton.title = text.date(item.dateCreated) + " ›"
      detail.photoSummary.text = app.imageStore.image(forKey: item.itemKey)?.summary ?? text.text("NoPhoto")
    }
    detail.choosePhotoButton.title = text.text("ChoosePhoto")
    detail.onShowDateEditor = { [unowned self] in app.openDateEditor() }
    detail.onChoosePhoto = { [unowned self] in photoPrompt = "" }
  }

  /// The detail: its loaded views drawn by the renderer where the storyboard put them, the focused
  /// row marked.
  func drawDetail(_ detail: DetailViewController, into screen: inout TerminalScreen, rows: Int) {
    guard let root = detail.view else { return }
    prepare(detail)
    detailRenderer.focusedView = detail.focusedControl
    detailRenderer.draw(root, into: &screen, rows: 1..<(1 + rows))
    let marked = detailRenderer.cellFrame(of: detail.focusedControl).y + 1
    if (1..<(1 + rows)).contains(marked) { screen.draw("›", x: 1, y: marked, bold: true) }
  }

  /// The date editor: its loaded date picker drawn by the renderer as UIKit's wheels — the date in
  /// full, then its year, month and day side by side, the selected one between ▲ and ▼ — and what
  /// the keys do.
  func drawDateEditor(_ editor: DateViewController, into screen: inout TerminalScreen) {
    let text = app.preferences
    guard let root = editor.view else { return }
    var renderer = TerminalRenderer()
    renderer.formatDate = { date, _ in text.fullDate(date) }
    renderer.datePickerParts = { picker in
      ([text.text("Year"), text.text("Month"), text.text("Day")], text.dateComponents(picker.date), editor.selectedComponent.rawValue)
    }
    renderer.draw(root, into: &screen, rows: 1..<max(1, screen.height - 2))
    let top = 1 + renderer.cellFrame(of: editor.datePicker).y
    for (component, columns) in zip(DateViewController.Component.allCases, renderer.datePickerPartColumns(of: editor.datePicker)) {
      clickTargets += [
        (top + 2, columns, .selectComponent(component)), (top + 3, columns, .stepComponent(component, by: 1)),
        (top + 4, columns, .selectComponent(component)), (top + 5, columns, .stepComponent(component, by: -1)),
      ]
    }
    screen.draw(text.text("DateHelp"), x: 3, y: top + 7)
  }

  /// The settings screen's lines.
  var settingsLines: [String] {
    let items = app.itemStore.allItems
    let text = app.preferences
    let order = ["name": "SortName", "value": "SortValue"][text.sortOrder] ?? "SortManual"
    return [
      text.itemCount(items.count) + " — " + text.text("Total", text.money(items.reduce(0) { $0 + $1.valueInDollars })),
      text.text("SortOrder", text.text(order)),
      text.text("Currency", text.currencyCode),
      text.text("DefaultValue", text.money(text.defaultValue)),
      text.text("Language", text.language),
      "\(app.itemStore.archivePath)",
      text.text("InMemory", text.number(app.imageStore.cachedCount)) + " \(app.imageStore.folder)",
    ]
  }

  func drawSettings(into screen: inout TerminalScreen, rows: Int) {
    // The lines are labels in the settings' scroll view, drawn by the renderer where the scroll
    // offset (in points, a line every 20) puts them.
    app.settings.show(lines: settingsLines)
    guard let root = app.settings.view else { return }
    TerminalRenderer().draw(root, into: &screen, rows: 1..<(1 + rows))
  }
}

/// SplitMix64: the same sequence for the same seed everywhere (the items `a` adds, the
/// benchmark's store).
public struct SplitMixRandom: RandomNumberGenerator {
  public var state: UInt64
  public init(state: UInt64) { self.state = state }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
