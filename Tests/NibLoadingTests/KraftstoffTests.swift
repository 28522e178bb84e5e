import Bundles
import Foundation
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// Kraftstoff's iOS MainStoryboard (corpus/xib/kraftstoff): the initial view controller and
/// every identified view controller, their segues, localized through the corpus's .strings.
@MainActor
@Suite struct KraftstoffTests {
  nonisolated static let storyboardPath = Corpus.file("xib/kraftstoff/MainStoryboard.storyboard").path

  // The app's classes, as the app would declare them: outlets in key tables, actions in action
  // tables.
  final class CarViewController: ViewController {
    var prepared: [(String, ViewController)] = []
    var allowSegues = true
    override func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool { allowSegues }
    override func prepare(for segue: StoryboardSegue, sender: Any?) { prepared.append((segue.identifier, segue.destination)) }
    required init() { super.init() }
  }
  final class FuelEventController: ViewController {
    var actionBarButtonItem: BarButtonItem?
    var exportRequested = 0
    var unwound = 0
    static let keys = KeyTable(for: FuelEventController.self, inheriting: viewControllerKeys) {
      $0.key("actionBarButtonItem", \.actionBarButtonItem)
    }
    override class var keyTable: KeyTable { keys }
    static let actions = ActionTable(for: FuelEventController.self) {
      $0.action("showExportSheet:") { controller, _ in controller.exportRequested += 1 }
      $0.action("unwindToFuelEvents:") { controller, _ in controller.unwound += 1 }
    }
    override class var actionTable: ActionTable { actions }
    required init() { super.init() }
  }
  final class StatisticsController: ViewController {
    var activityView: View?
    var centerLabel: Label?
    var leftLabel: Label?
    var rightLabel: Label?
    var scrollView: ScrollView?
    var stackView: StackView?
    var buttonTaps = 0
    static let keys = KeyTable(for: StatisticsController.self, inheriting: viewControllerKeys) {
      $0.key("activityView", \.activityView)
      $0.key("centerLabel", \.centerLabel)
      $0.key("leftLabel", \.leftLabel)
      $0.key("rightLabel", \.rightLabel)
      $0.key("scrollView", \.scrollView)
      $0.key("stackView", \.stackView)
    }
    override class var keyTable: KeyTable { keys }
    static let actions = ActionTable(for: StatisticsController.self) {
      $0.action("buttonAction:") { controller, _ in controller.buttonTaps += 1 }
    }
    override class var actionTable: ActionTable { actions }
    required init() { super.init() }
  }

  /// The app's own cells and the page controller are plain UIKit classes here (their outlets
  /// are not used by these tests).
  nonisolated static var options: Nib.Options {
    var classes = ClassRegistry.interfaceObjects
    classes.register(CarViewController.self, as: "kraftstoff.CarViewController", makeInstanceOnMainActor: { CarViewController() })
    classes.register(FuelEventController.self, as: "kraftstoff.FuelEventController", makeInstanceOnMainActor: { FuelEventController() })
    for name in ["FuelStatisticsGraphViewController", "FuelStatisticsTextViewController"] {
      classes.register(StatisticsController.self, as: "kraftstoff." + name, makeInstanceOnMainActor: { StatisticsController() })
    }
    for (name, type) in [("QuadInfoCell", TableCellView.self), ("FuelStatisticsPageController", ViewController.self),
      ("FuelEventEditorController", ViewController.self), ("CarConfigurationController", ViewController.self),
      ("FuelCalculatorController", ViewController.self)] as [(String, NibObject.Type)] {
      classes.register(type, as: "kraftstoff." + name, makeInstanceOnMainActor: { type.init() })
    }
    return Nib.Options(classes: classes, missingConnections: .warning)
  }

  /// The storyboard's translations for `language` (the corpus's MainStoryboard.strings).
  static func translations(_ language: String) throws -> [String: String] {
    try StringTable.readStrings(atPath: Corpus.file("strings/kraftstoff/\(language).lproj/MainStoryboard.strings").path)
  }

  /// Every view under `view`, depth first.
  static func views(under view: View?) -> [View] {
    guard let view else { return [] }
    var result: [View] = []
    var stack = [view]
    while let current = stack.popLast() {
      result.append(current)
      stack.append(contentsOf: current.subviews.reversed())
    }
    return result
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func initialControllerIsTheTabBarWithItsNavigationStacks() throws {
    let storyboard = try Storyboard(contentsOf: Self.storyboardPath, options: Self.options)
    let tabs = try #require(try storyboard.instantiateInitialViewController() as? TabBarController)
    #expect(tabs.viewControllers.count == 2)
    let stacks = tabs.viewControllers.compactMap { $0 as? NavigationController }
    #expect(stacks.count == 2)
    let roots = stacks.compactMap(\.topViewController)
    #expect(roots.count == 2)
    #expect(roots.contains { $0 is CarViewController })
    #expect(roots.allSatisfy { $0.navigationController != nil && $0.tabBarController === tabs })
    let cars = try #require(roots.first { $0 is CarViewController })
    #expect(cars.title == "Cars")
    #expect(cars.restorationIdentifier == "CarViewController")
    #expect(cars.view is TableView)
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func seguesArePreparedPerformedAndUnwound() throws {
    let storyboard = try Storyboard(contentsOf: Self.storyboardPath, options: Self.options)
    let navigation = try #require(try storyboard.instantiateViewController(withIdentifier: "CarNavigationController") as? NavigationController)
    let cars = try #require(navigation.topViewController as? CarViewController)
    // The cell's show segue, by identifier: asked, prepared, pushed.
    cars.allowSegues = false
    #expect(try cars.performSegue(withIdentifier: "FuelEventSegue", sender: nil) == nil)
    #expect(navigation.viewControllers.count == 1)
    cars.allowSegues = true
    let segue = try #require(try cars.performSegue(withIdentifier: "FuelEventSegue", sender: nil))
    let events = try #require(segue.destination as? FuelEventController)
    #expect(cars.prepared.count == 1 && cars.prepared[0].0 == "FuelEventSegue" && cars.prepared[0].1 === events)
    #expect(navigation.topViewController === events)
    // The events screen: its bar button items and their action and segue.
    let right = events.navigationItem.rightBarButtonItems
    #expect(right.count == 2)
    let action = try #require(events.actionBarButtonItem)
    #expect(right.contains { $0 === action } && action.target === events && action.action == "showExportSheet:")
    #expect(try events.perform(action: "showExportSheet:", sender: action) == ())
    #expect(events.exportRequested == 1)
    let chart = try #require(right.first { $0.title == "Chart" })
    let chartTarget = try #require(chart.target as? ActionResponding)
    #expect(chart.action == "perform:")
    try chartTarget.perform(action: "perform:", sender: chart)
    let statistics = try #require(events.presentedViewController)
    #expect(type(of: statistics) == ViewController.self && statistics.storyboardIdentifier == "FuelStatisticsPageController")
    // The graph screen's close button unwinds to the events screen.
    let graph = try #require(try storyboard.instantiateViewController(withIdentifier: "FuelStatisticsGraphViewController") as? StatisticsController)
    statistics.present(graph)
    let close = try #require(Self.views(under: graph.view).compactMap { $0 as? Button }.first { $0.image?.name == "xmark.circle" })
    #expect(try close.performClick())
    #expect(events.unwound == 1)
    #expect(events.presentedViewController == nil)
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func statisticsButtonsCallTheirController() throws {
    let storyboard = try Storyboard(contentsOf: Self.storyboardPath, options: Self.options)
    let graph = try #require(try storyboard.instantiateViewController(withIdentifier: "FuelStatisticsGraphViewController") as? StatisticsController)
    let buttons = Self.views(under: graph.view).compactMap { $0 as? Button }.filter { $0.title(for: 0)?.isEmpty == false }
    #expect(buttons.map { $0.title } == ["1M", "3M", "6M", "1Y", "2Y", "5Y", "10Y"])
    for button in buttons { #expect(try button.performClick()) }
    #expect(graph.buttonTaps == 7)
    #expect(graph.centerLabel != nil && graph.stackView != nil && graph.scrollView != nil && graph.activityView != nil)
  }

  /// Localized through the corpus's MainStoryboard.strings: every string of the storyboard the
  /// file translates comes out translated, the others as in the storyboard.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: ["de", "fr", "ja"])
  func localizedThroughTheStringsFiles(language: String) throws {
    let table = try Self.translations(language)
    var options = Self.options
    options.localize = { table[$0] }
    let storyboard = try Storyboard(contentsOf: Self.storyboardPath, options: options)
    var seen: [String: String] = [:]  // key → what the loaded objects show
    for identifier in storyboard.identifiers {
      let controller = try storyboard.instantiateViewController(withIdentifier: identifier)
      var controllers = [controller]
      while let current = controllers.popLast() {
        controllers += current.children
        if let title = current.title { seen[title, default: ""] = title }
        for view in Self.views(under: current.view) {
          if let button = view as? Button { for title in button.titlesByState.values { seen[title] = title } }
          if let label = view as? Label { seen[label.text] = label.text }
        }
        for item in current.navigationItem.rightBarButtonItems + current.navigationItem.leftBarButtonItems {
          if let title = item.title { seen[title] = title }
        }
        if let title = current.navigationItem.title { seen[title] = title }
        if let title = current.tabBarItem?.title { seen[title] = title }
      }
    }
    // The translated values this storyboard still has objects for (the files also hold keys of
    // objects since removed from the storyboard).
    let document = try String(contentsOfFile: Self.storyboardPath, encoding: .utf8)
    let live = table.filter { key, _ in document.contains("id=\"\(key.prefix { $0 != "." })\"") }
    var translated = 0
    for (key, value) in live.sorted(by: { $0.key < $1.key }) where !key.hasSuffix(".accessibilityLabel") {
      if seen[value] != nil { translated += 1 } else { Issue.record("\(language): \(key) = \(value) is not shown") }
    }
    print("\(language): \(translated) of \(live.count) translations shown (\(table.count) in the file)")
    #expect(translated > 10)
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyIdentifiedControllerInstantiates() throws {
    let storyboard = try Storyboard(contentsOf: Self.storyboardPath, options: Self.options)
    let initial = try #require(try storyboard.instantiateInitialViewController())
    print("initial: \(type(of: initial)); identifiers: \(storyboard.identifiers)")
    for identifier in storyboard.identifiers {
      let controller = try storyboard.instantiateViewController(withIdentifier: identifier)
      #expect(controller.storyboard === storyboard)
    }
  }
}
