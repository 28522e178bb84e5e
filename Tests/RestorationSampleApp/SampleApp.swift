public import Foundation
public import InterfaceObjects
@_spi(Testing) public import Lifecycle
public import Restoration

// The small app the restoration tests and the process-death harness drive: a tab bar (Items,
// Settings); Items is a navigation stack of a list (a table of items, selection by model
// identifier) and a detail screen (an item's name being edited in a text field, notes in a text
// view); Settings is a scroll view. Every screen has a restoration identifier.

/// The items the list shows, named by stable identifiers (the data source's model association).
public final class SampleItems: DataSourceModelAssociation {
  public var identifiers: [String]
  public init(count: Int) { identifiers = (0..<count).map { "item-\($0)" } }

  public func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String? {
    identifiers.indices.contains(indexPath.row) ? identifiers[indexPath.row] : nil
  }

  public func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath? {
    identifiers.firstIndex(of: identifier).map { IndexPath(row: $0, section: 0) }
  }
}

/// The list: a table of the items.
public final class ListViewController: ViewController {
  public let table = TableView()
  public weak var items: SampleItems?

  public required init() {
    super.init()
    restorationIdentifier = "List"
    title = "Items"
    table.restorationIdentifier = "Table"
    table.allowsMultipleSelection = true
  }

  public override func viewDidLoad() {
    super.viewDidLoad()
    table.dataSource = items
    view?.addSubview(table)
  }
}

/// The detail screen: which item, its name being edited, notes. Made again by its restoration class.
public final class DetailViewController: ViewController, ViewControllerRestoration {
  public var itemIdentifier = ""
  public let nameField = TextField()
  public let notes = TextView()
  /// Set by the crash test: decoding this controller's state crashes the process.
  nonisolated(unsafe) public static var crashesWhenDecoding = false

  public override class var restorableStateVersion: Int { 2 }

  public required init() {
    super.init()
    restorationIdentifier = "Detail"
    restorationClassName = "DetailViewController"
    nameField.restorationIdentifier = "Name"
    notes.restorationIdentifier = "Notes"
  }

  public override func viewDidLoad() {
    super.viewDidLoad()
    view?.addSubview(nameField)
    view?.addSubview(notes)
  }

  public override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(itemIdentifier, forKey: "item")
  }

  public override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    if Self.crashesWhenDecoding { fatalError("DetailViewController: crashing while decoding, as the crash test asked") }
    itemIdentifier = coder.decode(String.self, forKey: "item") ?? ""
  }

  public static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    DetailViewController()
  }
}

/// The settings screen: a scroll view.
public final class SettingsViewController: ViewController {
  public let scroll = ScrollView()
  public required init() {
    super.init()
    restorationIdentifier = "Settings"
    title = "Settings"
    scroll.restorationIdentifier = "Scroll"
  }
  public override func viewDidLoad() {
    super.viewDidLoad()
    view?.addSubview(scroll)
  }
}

/// The app delegate: builds the window and its controllers at launch (so restoration finds them
/// by path), opts in to restoration, keeps a generation number app-wide.
public final class SampleAppDelegate: ApplicationDelegate, StateRestorationDelegate {
  public let window = Window()
  public let tabs = TabBarController()
  public let navigation = NavigationController()
  public let list = ListViewController()
  public let settings = SettingsViewController()
  public let items: SampleItems
  /// Counts the saves; kept app-wide in the snapshot.
  public var generation = 0
  /// What the app delegate decoded (`applicationDidDecodeRestorableState`).
  public private(set) var restoredGeneration: Int?
  public var secure = false

  public init(itemCount: Int = 50) {
    items = SampleItems(count: itemCount)
    tabs.restorationIdentifier = "Tabs"
    navigation.restorationIdentifier = "ItemsNavigation"
    list.items = items
    navigation.pushViewController(list)
    tabs.setViewControllers([navigation, settings])
  }

  public func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    lifecycle.application.addWindow(window)
    window.rootViewController = tabs
    window.makeKeyAndVisible()
    return true
  }

  public func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool { !secure }
  public func shouldSaveSecureApplicationState(_ coder: StateEncoder) -> Bool { secure }
  public func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool { !secure }
  public func shouldRestoreSecureApplicationState(_ coder: StateDecoder) -> Bool { secure }

  public func applicationWillEncodeRestorableState(_ coder: StateEncoder) { coder.encode(generation, forKey: "generation") }

  public func applicationDidDecodeRestorableState(_ coder: StateDecoder) {
    restoredGeneration = coder.decodeInteger(forKey: "generation")
    generation = restoredGeneration ?? 0
    layOut()
  }

  /// The detail screen on top of the stack, if any.
  public var detail: DetailViewController? { navigation.topViewController as? DetailViewController }

  /// Puts the visible controller's view in the window, as UIKit's containers do, so that the
  /// field being edited can be first responder.
  public func layOut() {
    let visible: ViewController? = tabs.selectedViewController === navigation ? navigation.topViewController : tabs.selectedViewController
    window.contentView = visible?.view
  }

  /// One random change: switch tabs, push or pop the detail, edit the name or the notes, start
  /// or stop editing, select or deselect rows, reorder the items, scroll.
  public func mutate(_ random: inout some RandomNumberGenerator) {
    switch Int.random(in: 0..<9, using: &random) {
    case 0: tabs.selectedIndex = tabs.selectedIndex == 0 ? 1 : 0
    case 1:
      if detail == nil {
        let detail = DetailViewController()
        detail.itemIdentifier = items.identifiers.randomElement(using: &random) ?? ""
        navigation.pushViewController(detail)
        tabs.selectedIndex = 0
      } else {
        navigation.popViewController()
      }
    case 2: detail?.nameField.text = "name \(Int.random(in: 0..<1_000_000, using: &random)) ✓"
    case 3: detail?.notes.text += "line \(Int.random(in: 0..<100, using: &random))\n"
    case 4:
      if let field = detail?.nameField {
        layOut()
        if window.firstResponder === field { window.makeFirstResponder(nil) } else { window.makeFirstResponder(field) }
      }
    case 5:
      _ = list.view
      let row = Int.random(in: 0..<items.identifiers.count, using: &random)
      let path = IndexPath(row: row, section: 0)
      if list.table.indexPathsForSelectedRows.contains(path) { list.table.deselectRow(at: path) } else { list.table.selectRow(at: path) }
    case 6:
      // Reorder: the selection follows the items (model association), not the rows.
      _ = list.view
      let selected = list.table.indexPathsForSelectedRows.compactMap { items.modelIdentifierForElement(at: $0, in: list.table) }
      items.identifiers.shuffle(using: &random)
      list.table.selectRow(at: nil)
      for identifier in selected { list.table.selectRow(at: items.indexPathForElement(withModelIdentifier: identifier, in: list.table)) }
    case 7: settings.view.map { _ in settings.scroll.contentOffset = CGPoint(x: 0, y: Double(Int.random(in: 0..<5_000, using: &random))) }
    default: list.view.map { _ in list.table.contentOffset = CGPoint(x: 0, y: Double(Int.random(in: 0..<9_000, using: &random))) }
    }
    layOut()
  }

  /// The interface state node by node, one line each, in a fixed order: what a restore must
  /// bring back exactly.
  public func describe() -> [String] {
    var lines = ["generation \(generation)", "tab \(tabs.selectedIndex)"]
    lines.append("stack " + navigation.viewControllers.map { $0.restorationIdentifier ?? "?" }.joined(separator: ","))
    if list.isViewLoaded {
      let selected = list.table.indexPathsForSelectedRows.compactMap { items.modelIdentifierForElement(at: $0, in: list.table) }.sorted()
      lines.append("Tabs/ItemsNavigation/List/Table selected \(selected.joined(separator: ",")) offset \(list.table.contentOffset.y)")
    }
    if let detail {
      lines.append("Tabs/ItemsNavigation/Detail item \(detail.itemIdentifier)")
      if detail.isViewLoaded {
        lines.append("Tabs/ItemsNavigation/Detail/Name text \(detail.nameField.text.debugDescription) editing \(detail.nameField.isFirstResponder)")
        lines.append("Tabs/ItemsNavigation/Detail/Notes text \(detail.notes.text.debugDescription)")
      }
    }
    if settings.isViewLoaded { lines.append("Tabs/Settings/Scroll offset \(settings.scroll.contentOffset.y)") }
    return lines
  }
}

/// The sample app assembled: its delegate, lifecycle and restoration over `folder`.
@MainActor public final class SampleApp {
  public let delegate: SampleAppDelegate
  public let lifecycle: ApplicationLifecycle
  public let restoration: StateRestoration

  /// The app with its saved state in `folder`; `configure` adjusts restoration's settings.
  public init(
    folder: SavedStateFolder, itemCount: Int = 50, secure: Bool = false, configure: (inout StateRestoration.Configuration) -> Void = { _ in }
  ) {
    delegate = SampleAppDelegate(itemCount: itemCount)
    delegate.secure = secure
    lifecycle = ApplicationLifecycle(
      delegate: delegate, notificationCenter: NotificationCenter(),
      configuration: ApplicationLifecycle.Configuration(backgroundCallbackLimit: 60, backgroundTimeBudget: 600, terminateProcess: { _ in }))
    var configuration = StateRestoration.Configuration(folder: folder, bundleVersion: "7")
    configure(&configuration)
    restoration = StateRestoration(lifecycle: lifecycle, configuration: configuration)
    restoration.register(DetailViewController.self, as: "DetailViewController")
  }
}

/// SplitMix64: the same random states for the same seed on every machine (the child process's walk).
public struct SampleRandom: RandomNumberGenerator {
  public var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
