import Foundation
import HomepwnerKit
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The real `homepwner` in a real terminal: a tmux session of its own (a shell in it, so that
/// Ctrl-Z and relaunching work as a user's would; in UTC, so that dates read the same on every
/// machine), driven with send-keys, read with capture-pane. The app runs on a bundle of its own
/// whose storyboard `ibtool --compile` built in Apple's UIKit encoding (``CompiledAppBundle``),
/// as `build.sh` builds it.
final class HomepwnerSession {
  nonisolated static let executable = BuiltExecutables.path(named: "homepwner")
  nonisolated static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
  nonisolated static let defaultsTool = BuiltExecutables.path(named: "defaults")
  nonisolated static let ibtool = BuiltExecutables.path(named: "ibtool")
  nonisolated static var available: Bool { executable != nil && ibtool != nil && tmux != nil }
  nonisolated static let missingReason: Comment = "homepwner or ibtool was not built next to the tests, or tmux is not installed (apt-get install tmux)"

  let name = "homepwner-\(getpid())-\(UUID().uuidString.prefix(8))"
  let root: ScratchFolder
  /// The app's bundle: `Homepwner.app` with `Main.storyboardc` compiled in Apple's encoding.
  let bundle: String
  let width: Int
  let height: Int

  init(width: Int = 80, height: Int = 24) throws {
    self.width = width
    self.height = height
    root = try ScratchFolder("homepwner-session")
    bundle = try CompiledAppBundle.make(in: root.path)
    try tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", "env -i PATH=/usr/bin:/bin TERM=xterm-256color HOME=\(root.path) LANG=C.UTF-8 TZ=UTC bash --norc --noprofile"])
    try tmux(["set-option", "-t", name, "status", "off"])
  }

  deinit {
    _ = try? tmux(["kill-server"])
    root.remove()
  }

  /// Runs tmux on the session's own server (its socket in the scratch folder, so that no other
  /// tmux server is used or disturbed); the output goes to a file. Not through Foundation's
  /// `Process`: the server that `new-session` starts would hold the descriptors `Process` watches
  /// (see `DetachingProcess`).
  @discardableResult
  func tmux(_ arguments: [String]) throws -> String {
    let outputPath = root.file(".tmux-output-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    try DetachingProcess.run(try #require(Self.tmux), ["-S", root.file("tmux.socket")] + arguments, outputPath: outputPath)
    return String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(), as: UTF8.self)
  }

  /// The shell command that starts the app on the session's bundle and containers.
  func launchCommand() throws -> String {
    "HOMEPWNER_BUNDLE=\(bundle) STASIS_CONTAINERS_ROOT=\(root.path) \(try #require(Self.executable))"
  }

  /// Starts the app in the session's shell.
  func launch() throws {
    try tmux(["send-keys", "-t", name, try launchCommand(), "Enter"])
  }

  /// Runs Stasis's `defaults` tool on the session's containers; answers its output.
  @discardableResult
  func defaults(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.defaultsTool))
    process.arguments = arguments
    process.environment = ["STASIS_CONTAINERS_ROOT": root.path, "HOME": root.path, "PATH": "/usr/bin:/bin"]
    let outputPath = root.file(".defaults-output")
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "defaults \(arguments)")
    return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
  }

  /// Writes a PNG header of `width` × `height` as `name` in the session's folder, adds an item,
  /// attaches the file as its photo with Ctrl-P and waits until the detail shows it.
  func addItemWithPhoto(named name: String, width: UInt16, height: UInt16) throws {
    let png: [UInt8] =
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
      + [0, 0, UInt8(width >> 8), UInt8(width & 0xFF), 0, 0, UInt8(height >> 8), UInt8(height & 0xFF), 8, 2, 0, 0, 0]
    try root.write(png, to: name)
    try keys("a", "Enter")
    try waitFor { $0.contains { $0.contains("no photo") } }
    try keys("C-p")
    try type(root.file(name))
    try keys("Enter")
    try waitFor { $0.contains { $0.contains("Photo:") && $0.contains("PNG, \(width) × \(height)") } }
  }

  /// Keys as tmux names them (`Down`, `Enter`, `C-z`) or literal text (`-l`).
  func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }
  func type(_ text: String) throws { try tmux(["send-keys", "-t", name, "-l", text]) }

  /// A left click (press and release) on the cell at `column`, `row` (from 1, as xterm counts),
  /// as xterm's SGR mouse reporting sends it.
  func click(column: Int, row: Int) throws { try type("\u{1B}[<0;\(column);\(row)M\u{1B}[<0;\(column);\(row)m") }

  /// The pane's mouse modes as tmux sees them: whether the program asked for button reporting
  /// (`ESC[?1000h`) and SGR coordinates (`ESC[?1006h`).
  func mouseModes() throws -> String {
    try tmux(["display-message", "-p", "-t", name, "#{mouse_standard_flag}#{mouse_sgr_flag}"]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The items the app archived.
  func archivedItems() -> [Item] { ItemStore(archivePath: root.path + "/com.bignerdranch.Homepwner/Documents/items.archive").allItems }

  /// The pane's rows.
  func screen() throws -> [String] {
    try tmux(["capture-pane", "-p", "-t", name]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// Waits until the screen satisfies `condition` and stays the same for 60 ms; answers it.
  @discardableResult
  func waitFor(seconds: Double = 10, _ condition: ([String]) -> Bool) throws -> [String] {
    let deadline = Date().addingTimeInterval(seconds)
    var last: [String] = []
    while Date() < deadline {
      let now = try screen()
      if condition(now), now == last { return now }
      last = now
      usleep(60_000)
    }
    throw TestFailure("the screen never showed what was expected:\n" + last.joined(separator: "\n"))
  }

  /// The app's process: the shell's child.
  func appProcess() throws -> pid_t? {
    let shell = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
    return children.split(separator: " ").first.flatMap { pid_t($0) }
  }

  /// The state letter of the app's process (T: stopped).
  func appState() throws -> Character? {
    guard let pid = try appProcess(), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(close, offsetBy: 2)]
  }

  /// Ctrl-Z, then waits until the app has saved and stopped itself.
  func suspend() throws {
    try keys("C-z")
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if try appState() == "T" { return }
      usleep(20_000)
    }
    throw TestFailure("the app did not stop after Ctrl-Z")
  }

  /// SIGKILL to the app.
  func killApp() throws {
    let pid = try #require(try appProcess())
    kill(pid, SIGKILL)
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline, kill(pid, 0) == 0 { usleep(10_000) }
    // The shell reports the job; let it, and clear the line.
    usleep(50_000)
  }

  /// The app's drawn rows less the status line (which says how the app started).
  static func interface(_ rows: [String], height: Int) -> [String] { Array(rows.prefix(height - 1)) }
}

@MainActor
@Suite("Homepwner in a real terminal (tmux)", .serialized, .tags(.integration))
struct TerminalSessionTests {
  @Test("Add, edit, delete and reorder items with the keyboard; the list and the archive agree", .enabled(if: HomepwnerSession.available, HomepwnerSession.missingReason))
  func editTheList() throws {
    let session = try HomepwnerSession()
    try session.launch()
    try session.waitFor { $0.last { !$0.isEmpty }?.contains("[fresh launch]") == true }
    try session.keys("a", "a", "a", "a")
    var rows = try session.waitFor { $0.filter { $0.contains("$") }.count == 4 }
    let names = rows[1...4].map { String($0.prefix(26)).trimmingCharacters(in: .whitespaces) }
    // Reorder: the last item moves up one.
    try session.keys("K")
    rows = try session.waitFor { Array($0[1...4]).map { String($0.prefix(26)).trimmingCharacters(in: .whitespaces) } != names }
    #expect(rows[1...4].map { String($0.prefix(26)).trimmingCharacters(in: .whitespaces) } == [names[0], names[1], names[3], names[2]])
    // Edit the name of the highlighted item, go back: the list shows it.
    try session.keys("Enter")
    try session.waitFor { $0.contains { $0.contains("Name:") } }
    try session.type(" Zwölf")
    try session.keys("Enter")
    rows = try session.waitFor { $0.contains { $0.contains("Zwölf") } && !$0.contains { $0.contains("Name:") } }
    // Delete it.
    try session.keys("d")
    rows = try session.waitFor { $0.filter { $0.contains("$") }.count == 3 }
    #expect(!rows.contains { $0.contains("Zwölf") })
    // Saved on the way to the background: the archive holds the three.
    try session.suspend()
    let store = ItemStore(archivePath: session.root.path + "/com.bignerdranch.Homepwner/Documents/items.archive")
    #expect(store.allItems.count == 3)
    #expect(store.allItems.map(\.itemName) == [names[0], names[1], names[2]])
    try session.killApp()
  }

  @Test("Ctrl-Z suspends (saving), fg resumes the same screen", .enabled(if: HomepwnerSession.available, HomepwnerSession.missingReason))
  func suspendAndResume() throws {
    let session = try HomepwnerSession()
    try session.launch()
    try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
    try session.keys("a", "a", "Tab")
    let before = try session.waitFor { $0.contains { $0.contains("2 items") } }
    try session.suspend()
    try session.type("fg")
    try session.keys("Enter")
    let after = try session.waitFor { $0.contains { $0.contains("2 items") } }
    #expect(HomepwnerSession.interface(after, height: session.height) == HomepwnerSession.interface(before, height: session.height))
    try session.keys("q")
  }

  @Test("AppleLanguages changed while the app is suspended: after fg, labels, numbers and dates are all in the new language", .enabled(if: HomepwnerSession.available && HomepwnerSession.defaultsTool != nil, HomepwnerSession.missingReason))
  func languageChangeOnResume() throws {
    let session = try HomepwnerSession()
    try session.launch()
    try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
    try session.keys("a", "a", "Tab")
    try session.waitFor { $0.contains { $0.contains("2 items") } && $0.contains { $0.contains("(0 in memory)") } }
    try session.suspend()
    try session.defaults(["write", "com.bignerdranch.Homepwner", "AppleLanguages", "-array", "de"])
    try session.type("fg")
    try session.keys("Enter")
    let german = try session.waitFor { rows in
      ["2 Gegenstände", "(0 im Speicher)", "Sortierung: manuell", "Einstellungen"].allSatisfy { text in rows.contains { $0.contains(text) } }
    }
    // No English label and no English-formatted amount ($1,234.00) is left.
    #expect(!german.contains { $0.contains("in memory") || $0.contains("Settings") || $0.contains("Sort order") }, "\(german)")
    #expect(!german.contains { $0.range(of: #"\$[0-9]"#, options: .regularExpression) != nil }, "\(german)")
    try session.keys("Tab", "Enter")
    try session.waitFor { rows in ["Seriennr.:", "Erstellt:", "kein Foto"].allSatisfy { label in rows.contains { $0.contains(label) } } }
    try session.keys("Left", "q")
  }

  @Test("AppleLanguages and a currency set with the defaults tool: every screen changes language, values change currency", .enabled(if: HomepwnerSession.available && HomepwnerSession.defaultsTool != nil, HomepwnerSession.missingReason))
  func languageAndPreferences() throws {
    let session = try HomepwnerSession()
    try session.launch()
    try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
    try session.keys("a", "a")
    try session.waitFor { $0.filter { $0.contains("$") }.count == 2 }
    try session.keys("q")
    try session.waitFor { !$0.contains { $0.contains("[fresh launch]") } }
    let expectations: [(language: String, currency: String, list: String, detail: [String], settings: [String], tabs: String)] = [
      ("de", "EUR", "€", ["Seriennr.:", "Wert (EUR):", "Erstellt:", "kein Foto"], ["2 Gegenstände", "Sortierung: manuell", "Währung: EUR"], "Einstellungen"),
      ("fr", "EUR", "€", ["N° de série:", "Valeur (EUR):", "Créé le:", "pas de photo"], ["2 objets", "Tri : manuel", "Devise : EUR"], "Réglages"),
      ("ja", "JPY", "¥", ["シリアル:", "価格 (JPY):", "作成日:", "写真なし"], ["2 個の持ち物", "並び順: 手動", "通貨: JPY"], "設定"),
      ("en", "USD", "$", ["Serial:", "Value (USD):", "Created:", "no photo"], ["2 items", "Sort order: manual", "Currency: USD"], "Settings"),
    ]
    for expected in expectations {
      try session.defaults(["write", "com.bignerdranch.Homepwner", "AppleLanguages", "-array", expected.language])
      try session.defaults(["write", "com.bignerdranch.Homepwner", "HomepwnerCurrencyCode", expected.currency])
      try session.keys("C-l")
      try session.launch()
      let list = try session.waitFor { $0.filter { $0.contains(expected.list) }.count == 2 && $0.contains { $0.contains(expected.tabs) } }
      #expect(list.contains { $0.contains(expected.tabs) })
      try session.keys("Enter")
      let detail = try session.waitFor { rows in expected.detail.allSatisfy { label in rows.contains { $0.contains(label) } } }
      #expect(detail.contains { $0.contains("2026") || $0.contains("202") })
      try session.keys("Left", "Tab")
      try session.waitFor { rows in expected.settings.allSatisfy { line in rows.contains { $0.contains(line) } } }
      try session.keys("Tab", "q")
      try session.waitFor { !$0.contains { $0.contains(expected.tabs) } }
    }
    // The tool reads what the app's domain holds.
    let domain = try session.defaults(["read", "com.bignerdranch.Homepwner"])
    #expect(domain.contains("HomepwnerCurrencyCode = USD"))
  }

  @Test("A photo attached from a file; a memory warning empties the photo cache, and the photo still shows, read again from disk", .enabled(if: HomepwnerSession.available, HomepwnerSession.missingReason))
  func memoryWarningAndPhotos() throws {
    let session = try HomepwnerSession()
    try session.launch()
    try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
    try session.addItemWithPhoto(named: "chair.png", width: 640, height: 480)
    try session.keys("Left", "Tab")
    try session.waitFor { $0.contains { $0.contains("(1 in memory)") } }
    kill(try #require(try session.appProcess()), SIGUSR1)  // the app's simulated memory warning
    try session.waitFor { $0.contains { $0.contains("(0 in memory)") } }
    try session.keys("Tab", "Enter")
    try session.waitFor { $0.contains { $0.contains("Photo:") && $0.contains("PNG, 640 × 480") } }
    try session.keys("Left", "Tab")
    try session.waitFor { $0.contains { $0.contains("(1 in memory)") } }
    try session.keys("q")
  }

  @Test("Resizing the terminal redraws the app at the new size, wide characters kept whole", .enabled(if: HomepwnerSession.available, HomepwnerSession.missingReason))
  func resizing() throws {
    let session = try HomepwnerSession()
    try session.launch()
    try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
    try session.keys("a", "Enter")
    try session.waitFor { $0.contains { $0.contains("Name:") } }
    try session.type(" 日本語テキスト")
    try session.keys("Left")
    try session.waitFor { $0.contains { $0.contains("日本語") } && $0.count >= 23 && $0[22].contains(" Items ") }
    try session.tmux(["resize-window", "-t", session.name, "-x", "40", "-y", "12"])
    let small = try session.waitFor { $0.count >= 11 && $0[10].contains(" Items ") }
    let row = try #require(small.first { $0.contains("日本語") })
    // 40 columns: the name is cut at a character boundary, never through a wide character.
    #expect(row.unicodeScalars.allSatisfy { $0.value != 0xFFFD })
    try session.tmux(["resize-window", "-t", session.name, "-x", "80", "-y", "24"])
    try session.waitFor { $0.count >= 23 && $0[22].contains(" Items ") }
    try session.keys("q")
  }

  @Test("The date editor: opened from the detail's date row, Escape cancels, the arrows change the year, month and day, Enter saves; the detail, the list and the archive agree", .enabled(if: HomepwnerSession.available, HomepwnerSession.missingReason))
  func dateEditor() throws {
    let session = try HomepwnerSession()
    try session.launch()
    try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
    try session.keys("a")
    try session.waitFor { $0.filter { $0.contains("$") }.count == 1 }
    try session.suspend()
    let created = try #require(session.archivedItems().first).dateCreated
    try session.type("fg")
    try session.keys("Enter")
    try session.waitFor { $0.filter { $0.contains("$") }.count == 1 }
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    func text(_ date: Date, _ style: Date.FormatStyle.DateStyle) -> String {
      var format = Date.FormatStyle(date: style, time: .omitted).locale(Locale(identifier: "en"))
      format.timeZone = utc.timeZone
      return date.formatted(format)
    }
    // The detail's fourth row is the date; Enter there opens the editor on the year.
    try session.keys("Enter", "Down", "Down", "Down")
    try session.waitFor { $0.contains { $0.contains("› Created:") && $0.contains(text(created, .abbreviated) + " ›") } }
    try session.keys("Enter")
    try session.waitFor { $0.contains { $0.contains("Date Created") } && $0.contains { $0.contains(text(created, .complete)) } }
    // Escape goes back without saving.
    let nextYear = try #require(utc.date(byAdding: .year, value: 1, to: created))
    try session.keys("Up")
    try session.waitFor { $0.contains { $0.contains(text(nextYear, .complete)) } }
    try session.keys("Escape")
    try session.waitFor { $0.contains { $0.contains("› Created:") && $0.contains(text(created, .abbreviated) + " ›") } }
    // A year later, two months earlier, a day later: each step as the calendar counts it.
    try session.keys("Enter", "Up", "Right", "Down", "Down", "Right", "Up")
    var chosen = created
    for (unit, amount) in [(Calendar.Component.year, 1), (.month, -1), (.month, -1), (.day, 1)] {
      chosen = try #require(utc.date(byAdding: unit, value: amount, to: chosen))
    }
    let editor = try session.waitFor { $0.contains { $0.contains(text(chosen, .complete)) } }
    #expect(editor.contains { $0.contains("Year") && $0.contains("Month") && $0.contains("Day") })
    #expect(editor.contains { $0.contains("▲") } && editor.contains { $0.contains("▼") })
    try session.keys("Enter")
    try session.waitFor { $0.contains { $0.contains("› Created:") && $0.contains(text(chosen, .abbreviated) + " ›") } }
    try session.keys("Left")
    try session.waitFor { $0.filter { $0.contains("$") }.count == 1 && $0.contains { $0.contains("+ (a)") } }
    try session.suspend()
    #expect(session.archivedItems().map(\.dateCreated) == [chosen])
    try session.killApp()
  }

  @Test("Mouse: reporting on while the app runs and off when it is suspended; clicks switch tabs, open a row, its date and go back", .enabled(if: HomepwnerSession.available, HomepwnerSession.missingReason))
  func mouse() throws {
    let session = try HomepwnerSession()
    try session.launch()
    try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
    #expect(try session.mouseModes() == "11")
    try session.keys("a", "a", "a")
    let list = try session.waitFor { $0.filter { $0.contains("$") }.count == 3 }
    let second = String(list[2].prefix(26)).trimmingCharacters(in: .whitespaces)
    // The tab bar (row 23): " Items " from column 2, " Settings " from column 11.
    try session.click(column: 14, row: 23)
    try session.waitFor { $0.contains { $0.contains("3 items") } }
    try session.click(column: 4, row: 23)
    try session.waitFor { $0.filter { $0.contains("$") }.count == 3 }
    // The list's second row opens that item.
    try session.click(column: 10, row: 3)
    try session.waitFor { $0.contains { $0.contains("Name:") && $0.contains("[\(second)") } }
    // The detail's value field takes the focus, then its date opens the date editor.
    try session.click(column: 10, row: 7)
    try session.waitFor { $0.contains { $0.contains("› Value (USD):") } }
    try session.click(column: 10, row: 9)
    try session.waitFor { $0.contains { $0.contains("Date Created") } }
    // The navigation bar goes back: to the item, then to the list.
    try session.click(column: 3, row: 1)
    try session.waitFor { $0.contains { $0.contains("› Created:") } }
    try session.click(column: 40, row: 1)
    try session.waitFor { $0.filter { $0.contains("$") }.count == 3 && $0.contains { $0.contains("+ (a)") } }
    // Ctrl-Z gives the terminal back without mouse reporting; fg takes it again.
    try session.suspend()
    #expect(try session.mouseModes() == "00")
    try session.type("fg")
    try session.keys("Enter")
    try session.waitFor { $0.filter { $0.contains("$") }.count == 3 }
    #expect(try session.mouseModes() == "11")
    try session.keys("q")
    try session.waitFor { !$0.contains { $0.contains("+ (a)") } }
    #expect(try session.mouseModes() == "00")
  }

  /// Background → SIGKILL → relaunch, `runs` times from random screens (the date editor among
  /// them): the same tab, stack, item, unsaved text and unsaved date come back. `STASIS_HOMEPWNER_KILLS` sets the number (10 here;
  /// Tools/homepwner-kills.sh runs 50).
  @Test("Killed in the background at random screens: the relaunch shows the same screen, data and unsaved text", .enabled(if: HomepwnerSession.available, HomepwnerSession.missingReason))
  func killedAndRestored() throws {
    let runs = Int(ProcessInfo.processInfo.environment["STASIS_HOMEPWNER_KILLS"] ?? "") ?? 10
    let session = try HomepwnerSession()
    var random = SplitMix64(seed: UInt64(ProcessInfo.processInfo.environment["STASIS_HOMEPWNER_SEED"] ?? "") ?? 19)
    try session.launch()
    try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
    try session.keys("a", "a", "a", "a", "a")
    try session.waitFor { $0.filter { $0.contains("$") }.count == 5 }
    var exact = 0
    var onTheDateEditor = 0
    var mismatches: [String] = []
    for run in 0..<runs {
      // A random walk of keys and clicks: moves, tabs, opening and leaving the detail, typing,
      // opening the date editor (clicks on the list's first row, then on the detail's date) and
      // changing the date in it or leaving it.
      for _ in 0..<Int.random(in: 2...8, using: &random) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: try session.keys("Down")
        case 1: try session.keys("Up")
        case 2: try session.keys("Tab")
        case 3: try session.keys("Enter")
        case 4: try session.keys("Left")
        case 5: try session.type("x\(run)")
        case 6: try session.keys("a")
        case 7: try session.keys("J")
        case 8:
          try session.click(column: 6, row: 2)
          try session.click(column: 6, row: 9)
        default: try session.keys("Escape")
        }
      }
      // Every fifth run ends on the date editor (the Items tab, the first row, its date), with a
      // date not saved yet.
      if run % 5 == 4 {
        try session.click(column: 4, row: 23)
        try session.click(column: 6, row: 2)
        try session.click(column: 6, row: 9)
        for _ in 0..<Int.random(in: 1...4, using: &random) { try session.keys(["Up", "Down", "Right"].randomElement(using: &random)!) }
      }
      let before = try session.waitFor { rows in rows.contains { $0.contains(" Items ") } }
      if before.contains(where: { $0.contains("Date Created") }) { onTheDateEditor += 1 }
      try session.suspend()
      try session.killApp()
      try session.keys("C-l")
      try session.launch()
      let after = try session.waitFor { $0.contains { $0.contains("[restored]") } }
      let expected = HomepwnerSession.interface(before, height: session.height)
      let got = HomepwnerSession.interface(after, height: session.height)
      if got == expected { exact += 1 } else { mismatches.append("run \(run):\n" + expected.joined(separator: "\n") + "\n--- came back as ---\n" + got.joined(separator: "\n")) }
    }
    print("homepwner kill test: \(exact) of \(runs) restored exactly (\(onTheDateEditor) on the date editor)")
    #expect(exact == runs, "\(mismatches.prefix(2).joined(separator: "\n\n"))")
    #expect(onTheDateEditor >= runs / 5)
    try session.keys("q")
  }
}
