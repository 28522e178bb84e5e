import Bundles
import Foundation
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// Kraftstoff's iOS MainStoryboard (corpus/xib/kraftstoff): the initial view controller and
/// every identified view controller, their segues, localized through the corpus's .strings.
@Suite struct KraftstoffTests {
  static let storyboardPath = Corpus.file("xib/kraftstoff/MainStoryboard.storyboard").path

  // The app's classes, as the app would declare them: outlets in key tables, actions in action
  // tables.
  final class CarViewController: ViewController {
    required init() { super.init() }
  }
  final class FuelEventController: ViewController {
    var actionBarButtonItem: BarButtonItem?
    var exportRequested = 0
    static let keys = KeyTable(for: FuelEventController.self, inheriting: viewControllerKeys) {
      $0.key("actionBarButtonItem", \.actionBarButtonItem)
    }
    override class var keyTable: KeyTable { keys }
    static let actions = ActionTable(for: FuelEventController.self) {
      $0.action("showExportSheet:") { controller, _ in controller.exportRequested += 1 }
      $0.action("unwindToFuelEvents:") { _, _ in }
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

  static var options: Nib.Options {
    var classes = ClassRegistry.interfaceObjects
    classes.register(CarViewController.self, as: "kraftstoff.CarViewController", makeInstance: { CarViewController() })
    classes.register(FuelEventController.self, as: "kraftstoff.FuelEventController", makeInstance: { FuelEventController() })
    for name in ["FuelStatisticsGraphViewController", "FuelStatisticsTextViewController"] {
      classes.register(StatisticsController.self, as: "kraftstoff." + name, makeInstance: { StatisticsController() })
    }
    return Nib.Options(classes: classes)
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
