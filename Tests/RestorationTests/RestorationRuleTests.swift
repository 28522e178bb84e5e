import Foundation
import InterfaceObjects
import KeyedArchive
import Lifecycle
import Restoration
import RestorationSampleApp
import Testing
import TestSupport

/// One launch of the sample app over a saved-state folder, for the in-process tests.
@MainActor func launchSample(
  _ folder: SavedStateFolder, secure: Bool = false, before: (SampleApp) -> Void = { _ in },
  configure: (inout StateRestoration.Configuration) -> Void = { _ in }
) throws -> SampleApp {
  let app = SampleApp(folder: folder, secure: secure, configure: configure)
  before(app)
  try app.lifecycle.launch()
  return app
}

/// Saves the sample app into `folder` twice, with generations 1 and 2 (the second with the
/// second tab chosen), selecting `row` of the list before the first save when given; answers
/// the app's two descriptions.
@MainActor func saveSampleTwice(_ folder: SavedStateFolder, selectingRow row: Int? = nil) throws -> (first: [String], second: [String]) {
  let app = try launchSample(folder)
  _ = app.delegate.list.view
  app.delegate.generation = 1
  if let row { app.delegate.list.table.selectRow(at: IndexPath(row: row, section: 0)) }
  let first = app.delegate.describe()
  try app.lifecycle.enterBackground()
  try app.lifecycle.enterForeground()
  app.delegate.generation = 2
  app.delegate.tabs.selectedIndex = 1
  app.delegate.layOut()
  let second = app.delegate.describe()
  try app.lifecycle.enterBackground()
  return (first, second)
}

/// Drives the sample app to a state with every kind of node: the detail pushed with edited
/// text being edited, rows selected after a reorder, both scroll offsets.
@MainActor func driveToRichState(_ app: SampleApp) {
  let delegate = app.delegate
  _ = delegate.list.view
  _ = delegate.settings.view
  delegate.list.table.selectRow(at: IndexPath(row: 3, section: 0))
  delegate.list.table.selectRow(at: IndexPath(row: 9, section: 0))
  delegate.items.identifiers.swapAt(3, 20)  // the model moves; the selection follows item-3 and item-9
  delegate.list.table.selectRow(at: nil)
  delegate.list.table.selectRow(at: IndexPath(row: 20, section: 0))
  delegate.list.table.selectRow(at: IndexPath(row: 9, section: 0))
  delegate.list.table.contentOffset = CGPoint(x: 0, y: 880)
  delegate.settings.scroll.contentOffset = CGPoint(x: 0, y: 120)
  let detail = DetailViewController()
  detail.itemIdentifier = "item-9"
  delegate.navigation.pushViewController(detail)
  _ = detail.view
  detail.nameField.text = "Güzel ✓ — unsaved"
  detail.notes.text = "first line\nsecond"
  detail.notes.selectedRange = NSRange(location: 3, length: 4)
  delegate.tabs.selectedIndex = 0
  delegate.layOut()
  delegate.window.makeFirstResponder(detail.nameField)
  delegate.generation = 41
}

@MainActor
@Suite("Restoration: UIKit's rules, in-process through the test host")
struct RestorationRuleTests {
  let scratch: ScratchFolder
  let folder: SavedStateFolder
  init() throws {
    scratch = try ScratchFolder("restoration")
    folder = SavedStateFolder(path: scratch.file("Library/Saved Application State/com.example.sample.savedState"))
  }

  @Test("Saved on entering the background into Library/Saved Application State/<bundle id>.savedState, restored at the next launch exactly")
  func roundTrip() throws {
    let first = try launchSample(folder)
    #expect(first.restoration.outcome == .freshLaunch)
    driveToRichState(first)
    let expected = first.delegate.describe()
    try first.lifecycle.enterBackground()
    #expect(FileManager.default.fileExists(atPath: folder.currentSnapshotPath))
    #expect(first.restoration.lastPreservation?.nodeCount == 9)

    let second = try launchSample(folder)
    #expect(second.restoration.outcome == .restored)
    #expect(second.delegate.describe() == expected)
    #expect(second.delegate.restoredGeneration == 41)
    let detail = try #require(second.delegate.detail)
    #expect(detail !== first.delegate.detail)
    #expect(detail.notes.selectedRange == NSRange(location: 3, length: 4))
    #expect(second.delegate.window.firstResponder === detail.nameField)
    #expect(second.delegate.list.table.indexPathsForSelectedRows.map(\.row).sorted() == [3, 9])
    let outcomes = second.restoration.lastRestoration?.nodes ?? []
    let notRestored = outcomes.filter { !$0.isRestored }
    #expect(notRestored.isEmpty, "\(notRestored)")
    #expect(outcomes.first { $0.path == ["Tabs", "ItemsNavigation", "Detail"] }?.restoredBy == "restoration class DetailViewController")
    #expect(outcomes.first { $0.path == ["Tabs"] }?.restoredBy == "existing object")
  }

  @Test("The selection is restored by model identifier: the items moved between save and restore, the same items are selected")
  func modelAssociation() throws {
    let first = try launchSample(folder)
    _ = first.delegate.list.view
    first.delegate.list.table.selectRow(at: IndexPath(row: 5, section: 0))
    try first.lifecycle.enterBackground()
    let second = try launchSample(folder) { app in app.delegate.items.identifiers.reverse() }
    let table = second.delegate.list.table
    #expect(table.indexPathsForSelectedRows == [IndexPath(row: 44, section: 0)])
    #expect(second.delegate.items.modelIdentifierForElement(at: table.indexPathsForSelectedRows[0], in: table) == "item-5")
  }

  @Test("A table without the model association restores its selection by index path")
  func indexPathSelection() throws {
    let table = TableView()
    table.allowsMultipleSelection = true
    table.selectRow(at: IndexPath(row: 2, section: 1))
    table.selectRow(at: IndexPath(row: 0, section: 0))
    let data = try encodeAndDecode(table)
    #expect(data.indexPathsForSelectedRows == [IndexPath(row: 2, section: 1), IndexPath(row: 0, section: 0)])
  }

  @Test("A node is preserved only if it and every ancestor have identifiers; the others are named with the reason")
  func ancestorsNeedIdentifiers() throws {
    let first = try launchSample(folder)
    first.delegate.navigation.restorationIdentifier = nil
    let detail = DetailViewController()
    first.delegate.navigation.pushViewController(detail)
    let report = try first.restoration.preserve()
    let snapshot = try Snapshot(contentsOfFile: folder.currentSnapshotPath)
    #expect(snapshot.nodes.map { $0.path.joined(separator: "/") }.sorted() == ["Tabs", "Tabs/Settings"])
    let excluded = report.excluded.map(\.identifier).sorted()
    #expect(excluded == ["Detail", "List"])
    #expect(report.excluded.allSatisfy { $0.reason.contains("NavigationController") })
    #expect(snapshot.excluded.count == 2)
  }

  @Test("Views are preserved only with an identifier and inside a preserved controller's view")
  func viewsFollowTheirController() throws {
    let first = try launchSample(folder)
    _ = first.delegate.list.view
    first.delegate.list.table.restorationIdentifier = nil
    _ = first.delegate.settings.view
    try first.restoration.preserve()
    let paths = try Snapshot(contentsOfFile: folder.currentSnapshotPath).nodes.map { $0.path.joined(separator: "/") }
    #expect(paths.contains("Tabs/Settings/Scroll"))
    #expect(!paths.contains { $0.hasSuffix("/Table") })
  }

  @Test("Opt-in: without shouldSaveApplicationState nothing is saved (and an old snapshot is removed); shouldRestore saying no discards")
  func optIn() throws {
    final class Silent: ApplicationDelegate, StateRestorationDelegate {}
    let first = try launchSample(folder)
    try first.restoration.preserve()
    #expect(FileManager.default.fileExists(atPath: folder.currentSnapshotPath))

    let lifecycle = ApplicationLifecycle(delegate: Silent(), notificationCenter: NotificationCenter())
    let restoration = StateRestoration(lifecycle: lifecycle, folder: folder)
    try lifecycle.launch()
    #expect(restoration.outcome == .discarded("the app delegate's shouldRestoreApplicationState said no"))
    let report = try restoration.preserve()
    #expect(report.skippedBecause?.contains("did not opt in") == true)
    #expect(!FileManager.default.fileExists(atPath: folder.currentSnapshotPath))
  }

  @Test("The metadata (bundle version, idiom, timestamp, system version) reaches shouldRestoreApplicationState")
  func metadata() throws {
    final class Inspecting: ApplicationDelegate, StateRestorationDelegate {
      var seen: [String: Any] = [:]
      func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool {
        for key in [
          SnapshotMetadata.bundleVersionKey, SnapshotMetadata.idiomKey, SnapshotMetadata.timestampKey, SnapshotMetadata.systemVersionKey,
        ] {
          seen[key] = coder.decodeObject(forKey: key)
        }
        return true
      }
    }
    let before = Date()
    let first = try launchSample(folder)
    try first.restoration.preserve()
    let delegate = Inspecting()
    let lifecycle = ApplicationLifecycle(delegate: delegate, notificationCenter: NotificationCenter())
    _ = StateRestoration(lifecycle: lifecycle, configuration: .init(folder: folder, bundleVersion: "8"))
    try lifecycle.launch()
    #expect(delegate.seen[SnapshotMetadata.bundleVersionKey] as? String == "7")
    #expect(delegate.seen[SnapshotMetadata.idiomKey] as? Int == 0)
    let stamp = try #require(delegate.seen[SnapshotMetadata.timestampKey] as? Date)
    #expect(abs(stamp.timeIntervalSince(before)) < 60)
    #expect((delegate.seen[SnapshotMetadata.systemVersionKey] as? String)?.isEmpty == false)
  }
}

/// A view's state through a real snapshot: saved in one sample app's settings screen, restored
/// into a fresh view of the same class.
@MainActor func encodeAndDecode<V: View>(_ view: V) throws -> V {
  let scratch = try ScratchFolder("restoration-view")
  let folder = SavedStateFolder(path: scratch.file("state"))
  let first = ViewHost(view: view)
  let lifecycle = ApplicationLifecycle(delegate: first, notificationCenter: NotificationCenter())
  let restoration = StateRestoration(lifecycle: lifecycle, folder: folder)
  try lifecycle.launch()
  try restoration.preserve()
  let fresh = V()
  let second = ViewHost(view: fresh)
  let lifecycle2 = ApplicationLifecycle(delegate: second, notificationCenter: NotificationCenter())
  _ = StateRestoration(lifecycle: lifecycle2, folder: folder)
  try lifecycle2.launch()
  return fresh
}

/// The app of ``encodeAndDecode(_:)``: one controller whose view holds the view under test.
final class ViewHost: ApplicationDelegate, StateRestorationDelegate {
  let window = Window()
  let controller = ViewController()
  let view: View
  init(view: View) {
    self.view = view
    controller.restorationIdentifier = "Host"
    view.restorationIdentifier = "Subject"
  }
  func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    lifecycle.application.addWindow(window)
    window.rootViewController = controller
    controller.view?.addSubview(view)
    window.makeKeyAndVisible()
    return true
  }
  func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool { true }
  func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool { true }
}
