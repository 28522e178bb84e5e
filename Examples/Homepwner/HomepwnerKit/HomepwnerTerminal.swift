internal import InterfaceObjects
internal import Lifecycle
internal import Foundation

/// Homepwner's terminal face: draws the screen the app's controllers are on (navigation bar,
/// the list, the detail, the settings, the tab bar, a status line) into a ``TerminalScreen``, and
/// turns keys into what the user means.
///
/// Keys: Tab switches tabs; in the list ↑/↓ move, Enter or → opens the item, `a` adds a random
/// item, `n` a new one at the default value (opened for editing), `d` deletes, `K`/`J` move the
/// item up/down (when the sort order is manual); in the detail ↑/↓ choose a field, typing edits
/// it, Backspace erases, Enter or ← goes back; in the settings ↑/↓ scroll; `q` quits (outside a
/// text field), Ctrl-Z suspends; in the detail Ctrl-P attaches a photo: type the image file's
/// path, Enter (an empty path cancels).
public final class HomepwnerTerminal {
  /// What a key asks of the program around.
  public enum Request: Equatable { case none, redraw, quit }

  public let app: HomepwnerApp
  /// The seed of the random items `a` adds.
  private var random = SplitMixRandom(state: 0x19)

  public init(app: HomepwnerApp) {
    self.app = app
    random = SplitMixRandom(state: UInt64(app.itemStore.allItems.count) &+ 0x19)
  }

  // MARK: - Keys

  enum Key: Equatable { case up, down, left, right, enter, tab, backspace, attachPhoto, character(Character) }

  /// The photo path being typed after Ctrl-P, if the prompt is open.
  public private(set) var photoPrompt: String?

  static func keys(in bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    let text = bytes
    while index < text.count {
      let byte = text[index]
      if byte == 0x1B, index + 2 < text.count, text[index + 1] == UInt8(ascii: "[") {
        switch text[index + 2] {
        case UInt8(ascii: "A"): keys.append(.up)
        case UInt8(ascii: "B"): keys.append(.down)
        case UInt8(ascii: "C"): keys.append(.right)
        case UInt8(ascii: "D"): keys.append(.left)
        default: break
        }
        index += 3
        continue
      }
      switch byte {
      case 0x0D, 0x0A: keys.append(.enter)
      case 0x09: keys.append(.tab)
      case 0x7F, 0x08: keys.append(.backspace)
      case 0x10: keys.append(.attachPhoto)
      case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
      case 0xC0...0xF7:
        // A UTF-8 sequence: take it whole.
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        if index + length <= text.count, let string = String(validating: text[index..<(index + length)], as: UTF8.self), let character = string.first {
          keys.append(.character(character))
        }
        index += length
        continue
      default: break
      }
      index += 1
    }
    return keys
  }

  /// Handles typed bytes; answers what the program should do next.
  public func handle(_ bytes: [UInt8]) -> Request {
    var request = Request.none
    for key in Self.keys(in: bytes) {
      switch handle(key) {
      case .quit: return .quit
      case .redraw: request = .redraw
      case .none: break
      }
    }
    return request
  }

  func handle(_ key: Key) -> Request {
    if key == .tab {
      app.tabs.selectedIndex = app.tabs.selectedIndex == 0 ? 1 : 0
      return .redraw
    }
    if !app.onItemsTab {
      _ = app.settings.view  // the scroll view is restored with the screen's view
      switch key {
      case .up: app.settings.scroll.contentOffset.y = max(0, app.settings.scroll.contentOffset.y - 1)
      case .down: app.settings.scroll.contentOffset.y = min(app.settings.scroll.contentOffset.y + 1, Double(settingsLines.count - 1))
      case .character("q"): return .quit
      default: return .none
      }
      return .redraw
    }
    if let detail = app.detail { return handleDetail(key, detail) }
    let store = app.itemStore
    let shown = app.displayedItems
    let row = app.items.highlightedRow
    /// Highlights `item` where the current order shows it.
    func highlight(_ item: Item) { app.items.highlightedRow = app.displayedItems.firstIndex { $0 === item } }
    switch key {
    case .up: if let row, row > 0 { app.items.highlightedRow = row - 1 }
    case .down:
      if let row { if row + 1 < shown.count { app.items.highlightedRow = row + 1 } } else if !shown.isEmpty { app.items.highlightedRow = 0 }
    case .enter, .right: app.openHighlighted()
    case .character("a"): highlight(store.createItem(Item.random(using: &random)))
    case .character("n"):
      highlight(store.createItem(Item(itemName: "", serialNumber: "", valueInDollars: app.preferences.defaultValue)))
      app.openHighlighted()
    case .character("d"):
      guard let row, shown.indices.contains(row) else { return .none }
      let item = shown[row]
      app.imageStore.deleteImage(forKey: item.itemKey)
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

  func handleDetail(_ key: Key, _ detail: DetailViewController) -> Request {
    if var path = photoPrompt {
      switch key {
      case .character(let character): path.append(character)
      case .backspace: if !path.isEmpty { path.removeLast() }
      case .enter:
        photoPrompt = nil
        if !path.isEmpty, let item = detail.item { attachPhoto(atPath: path, to: item) }
        return .redraw
      default: return .none
      }
      photoPrompt = path
      return .redraw
    }
    if key == .attachPhoto {
      photoPrompt = ""
      return .redraw
    }
    let field = detail.fields[detail.focusedField]
    switch key {
    case .up: detail.focusedField = max(0, detail.focusedField - 1)
    case .down: detail.focusedField = min(detail.fields.count - 1, detail.focusedField + 1)
    case .enter, .left: app.closeDetail()
    case .backspace: if !field.text.isEmpty { field.text.removeLast() }
    case .character(let character): field.text.append(character)
    default: return .none
    }
    app.window.makeFirstResponder(app.detail?.fields[app.detail?.focusedField ?? 0])
    return .redraw
  }

  /// Reads the image file at `path` into the image store as `item`'s photo; the status line says
  /// what happened.
  func attachPhoto(atPath path: String, to item: Item) {
    guard let data = FileManager.default.contents(atPath: path), data.count <= 64 << 20 else {
      app.status = "\(path): cannot be read"
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

  /// The screen as it is now, `width` × `height` cells.
  public func render(width: Int, height: Int) -> TerminalScreen {
    var screen = TerminalScreen(width: width, height: height)
    let top = app.onItemsTab ? (app.navigation.topViewController ?? app.items) : app.settings
    // Navigation bar.
    screen.fill(row: 0, inverse: true)
    let text = app.preferences
    let title = top === app.items ? text.text("Homepwner") : top === app.settings ? text.text("Settings") : (app.detail?.item?.itemName ?? "")
    screen.draw(title, x: max(0, (width - TerminalScreen.columns(of: title)) / 2), y: 0, inverse: true, bold: true)
    if app.onItemsTab, app.navigation.viewControllers.count > 1 { screen.draw("‹ " + text.text("Back"), x: 1, y: 0, inverse: true) }
    if app.onItemsTab, app.detail == nil { screen.draw("+ (a)", x: max(0, width - 6), y: 0, inverse: true) }
    let contentRows = max(0, height - 3)
    if let detail = app.detail, app.onItemsTab {
      drawDetail(detail, into: &screen, rows: contentRows)
    } else if app.onItemsTab {
      drawList(into: &screen, rows: contentRows)
    } else {
      drawSettings(into: &screen, rows: contentRows)
    }
    // Tab bar and status line.
    let tabRow = height - 2
    screen.fill(row: tabRow)
    var x = 1
    for (index, name) in [text.text("Items"), text.text("Settings")].enumerated() {
      let label = " \(name) "
      screen.draw(label, x: x, y: tabRow, inverse: app.tabs.selectedIndex == index, bold: app.tabs.selectedIndex == index)
      x += TerminalScreen.columns(of: label) + 2
    }
    let statusLine = photoPrompt.map { app.preferences.text("Photo") + ": " + $0 + "▏" } ?? app.status
    screen.draw(TerminalScreen.clipped(statusLine, to: width), x: 0, y: height - 1)
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
    for offset in 0..<rows where first + offset < items.count {
      let index = first + offset
      let item = items[index]
      let name = TerminalScreen.clipped(item.itemName, to: 24)
      let padded = name + String(repeating: " ", count: max(0, 24 - TerminalScreen.columns(of: name)))
      let money = app.preferences.money(item.valueInDollars)
      let highlighted = app.items.highlightedRow == index
      if highlighted { screen.fill(row: 1 + offset, inverse: true) }
      screen.draw(" " + padded, x: 0, y: 1 + offset, inverse: highlighted)
      screen.draw(money, x: max(27, 40 - TerminalScreen.columns(of: money)), y: 1 + offset, inverse: highlighted)
      screen.draw(item.serialNumber, x: 43, y: 1 + offset, inverse: highlighted)
    }
  }

  func drawDetail(_ detail: DetailViewController, into screen: inout TerminalScreen, rows: Int) {
    let text = app.preferences
    let labels = [text.text("Name"), text.text("Serial"), text.text("Value") + " (" + text.currencyCode + ")"]
    let labelWidth = (labels + [text.text("Created"), text.text("Photo")]).map(TerminalScreen.columns(of:)).max() ?? 8
    func label(_ name: String) -> String { name + ":" + String(repeating: " ", count: labelWidth - TerminalScreen.columns(of: name) + 1) }
    for (index, field) in detail.fields.enumerated() where 1 + index * 2 < rows {
      let focused = detail.focusedField == index
      screen.draw((focused ? "› " : "  ") + label(labels[index]) + "[" + field.text + (focused ? "▏" : "") + "]", x: 1, y: 2 + index * 2, bold: focused)
    }
    if let item = detail.item {
      screen.draw("  " + label(text.text("Created")) + text.date(item.dateCreated), x: 1, y: 8)
      let photo = app.imageStore.image(forKey: item.itemKey)?.summary ?? text.text("NoPhoto")
      screen.draw("  " + label(text.text("Photo")) + photo, x: 1, y: 10)
    }
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
      "(\(app.imageStore.cachedCount) in memory) \(app.imageStore.folder)",
    ]
  }

  func drawSettings(into screen: inout TerminalScreen, rows: Int) {
    _ = app.settings.view
    let lines = settingsLines
    let first = Int(app.settings.scroll.contentOffset.y)
    for (offset, line) in lines.dropFirst(min(first, lines.count)).prefix(rows).enumerated() { screen.draw(line, x: 2, y: 2 + offset) }
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
