import Bundles
import Defaults
import Foundation
import HomepwnerKit
import InterfaceRendering
import StasisSystem
import InterfaceObjects
import Lifecycle
import Sandbox
import Synchronization
import Testing
import TestSupport

/// A change of the user's languages (`defaults write … AppleLanguages -array de`, then `fg`)
/// applies whole, when the app comes back: until then every label, number and date stays in the
/// language in use; after it, all of them are in the new one.
@MainActor
@Suite("Homepwner: a language change applies whole")
struct LanguageChangeTests {
  /// The user's `AppleLanguages`, changed by the test as `defaults write` would.
  final class Languages: Sendable {
    let list = Mutex<[String]>(["en"])
    func set(_ languages: [String]) { list.withLock { $0 = languages } }
  }

  /// The app in this process over a bundle whose languages come from `languages`, with two items,
  /// showing its settings.
  static func app(_ languages: Languages, in scratch: ScratchFolder) throws -> (HomepwnerApp, HomepwnerTerminal) {
    let root = ContainerRoot(path: scratch.path)
    let container = try root.container(for: "com.bignerdranch.Homepwner", appName: "Homepwner")
    let defaults = Defaults.UserDefaults(inMemoryDomain: "com.bignerdranch.Homepwner", configuration: .init(containerRoot: root, flushDelay: nil))
    let environment = HostEnvironment(appleLanguages: { languages.list.withLock { $0 } })
    let bundle = try Bundles.Bundle(path: InProcessHomepwner.bundlePath, environment: environment)
    let app = try HomepwnerApp(container: container, preferences: Preferences(defaults: defaults, bundle: bundle))
    app.itemStore.createItem(Item(itemName: "Chair", serialNumber: "C1", valueInDollars: 1234))
    app.itemStore.createItem(Item(itemName: "Desk", serialNumber: "D2", valueInDollars: 56))
    _ = app.items.view
    app.tabs.selectedIndex = 1
    return (app, HomepwnerTerminal(app: app))
  }

  static func rows(_ terminal: HomepwnerTerminal) -> [String] {
    let screen = terminal.render(width: 80, height: 24)
    return (0..<screen.height).map { screen.text(ofRow: $0) }
  }

  @Test func untilTheAppComesBackNothingChangesThenEverything() throws {
    let scratch = try ScratchFolder("homepwner-language")
    defer { scratch.remove() }
    let languages = Languages()
    let (app, terminal) = try Self.app(languages, in: scratch)
    let english = Self.rows(terminal)
    #expect(english.contains { $0.contains("2 items — Worth $1,290.00 in all") }, "\(english)")
    #expect(english.contains { $0.contains("(0 in memory)") })
    #expect(english.contains { $0.contains(" Settings ") })

    // The user's languages change while the app runs: nothing is half-translated.
    languages.set(["de"])
    let meanwhile = Self.rows(terminal)
    #expect(meanwhile == english, "numbers and dates changed before the labels did")
    #expect(app.preferences.language == "en")
    #expect(app.preferences.money(1234) == "$1,234.00")

    // The app comes back (fg): all of it is German.
    #expect(app.preferences.applyLanguageChange())
    #expect(!app.preferences.applyLanguageChange(), "applied once")
    let german = Self.rows(terminal)
    #expect(app.preferences.language == "de")
    #expect(german.contains { $0.contains("2 Gegenstände — Insgesamt 1.290,00") }, "\(german)")
    #expect(german.contains { $0.contains("(0 im Speicher)") }, "\(german)")
    #expect(german.contains { $0.contains("Einstellungen") })
    #expect(!german.contains { $0.contains("in memory") || $0.contains("Settings") || $0.contains("$1,") }, "\(german)")
    // The detail: labels and the date in German together.
    app.tabs.selectedIndex = 0
    app.items.highlightedRow = 0
    app.openHighlighted()
    let detail = Self.rows(terminal)
    #expect(detail.contains { $0.contains("Seriennr.:") } && detail.contains { $0.contains("Erstellt:") }, "\(detail)")
    let created = app.preferences.date(try #require(app.detail?.item).dateCreated)
    #expect(detail.contains { $0.contains(created) }, "\(detail)")
  }

  /// What the status line says about the launch follows the language too.
  @Test func theLaunchLineIsInTheLanguageInUse() throws {
    let scratch = try ScratchFolder("homepwner-language")
    defer { scratch.remove() }
    let languages = Languages()
    let (app, terminal) = try Self.app(languages, in: scratch)
    let (lifecycle, restoration) = app.makeLifecycle()
    _ = restoration
    _ = app.applicationDidFinishLaunching(lifecycle, options: LaunchOptions(commandLine: []))
    #expect(app.status.hasPrefix("State: fresh launch [fresh launch]"), "\(app.status)")
    languages.set(["fr"])
    app.preferences.applyLanguageChange()
    #expect(app.status.hasPrefix("État : nouveau lancement [fresh launch]"), "\(app.status)")
    #expect(app.status.contains("[fresh launch]"))
    #expect(Self.rows(terminal).last?.contains("[fresh launch]") == true)
  }
}
