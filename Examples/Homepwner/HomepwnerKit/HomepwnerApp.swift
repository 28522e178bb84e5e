public import InterfaceObjects
public import Lifecycle
public import Restoration
public import Sandbox
public import StasisSystem
internal import Foundation
public import NibLoading
internal import ObjectModel
internal import Bundles

/// The app delegate: the stores, the window with its tab bar (Items: a navigation stack of the
/// list, the detail and the date editor; Settings), saving on entering the background, the photo
/// cache on memory warnings, and state restoration of every screen.
@MainActor public final class HomepwnerApp: ApplicationDelegate, StateRestorationDelegate {
  public let container: AppContainer
  /// The settings (defaults) and the localized text.
  public let preferences: Preferences
  public let itemStore: ItemStore
  public let imageStore: ImageStore
  public let window = Window()
  public let tabs: TabBarController
  public let navigation: NavigationController
  public let items: ItemsViewController
  public let settings: SettingsViewController
  /// What the status line shows: the last message, else how the app started (in the language
  /// in use when it is drawn).
  public var status: String {
    get { message ?? launchStatus }
    set { message = newValue }
  }
  /// The last message set through ``status``.
  private var message: String?
  /// How the app started: the restore reason's key, a stable English tag for scripts and tests,
  /// and what follows (why a snapshot was set aside, a problem reading the items).
  private var launch: (key: String, tag: String, detail: String)?

  /// The launch line in the language in use: "Zustand: frisch gestartet [fresh launch]".
  var launchStatus: String {
    guard let launch else { return "" }
    return preferences.text("State", preferences.text(launch.key)) + " [\(launch.tag)]" + launch.detail
  }
  /// The last problem saving, if any.
  public private(set) var saveProblem: HomepwnerError?

  /// The storyboard the screens come from (`Base.lproj/Main.storyboard` of the app's bundle).
  public let storyboard: Storyboard

  /// The app in `container`, its screens from the storyboard `Main` of the preferences' bundle.
  ///
  /// - Throws: the loader's error when the storyboard cannot be read or does not hold the
  ///   expected scenes (a tab bar controller with a navigation controller of the items and the
  ///   settings, and the `Detail` and `Date` scenes).
  public init(container: AppContainer, preferences: Preferences) throws {
    self.container = container
    self.preferences = preferences
    itemStore = ItemStore(container: container)
    imageStore = ImageStore(container: container)
    var options = Nib.Options()
    options.classes.register(ItemsViewController.self, as: "ItemsViewController", makeInstanceOnMainActor: { ItemsViewController() })
    options.classes.register(DetailViewController.self, as: "DetailViewController", makeInstanceOnMainActor: { DetailViewController() })
    options.classes.register(DateViewController.self, as: "DateViewController", makeInstanceOnMainActor: { DateViewController() })
    options.classes.register(SettingsViewController.self, as: "SettingsViewController", makeInstanceOnMainActor: { SettingsViewController() })
    // A compiled `Main.storyboardc` if the bundle has one, else the document itself (the loader
    // compiles it on the way).
    if let compiled = preferences.bundle.path(forResource: "Main", ofType: "storyboardc") {
      storyboard = try Storyboard(contentsOf: compiled, bundle: preferences.bundle, options: options)
    } else if let document = preferences.bundle.path(forResource: "Main", ofType: "storyboard") {
      storyboard = try Storyboard(contentsOf: document, bundle: preferences.bundle, options: options)
    } else {
      throw HomepwnerError(.unreadable, detail: "the app's bundle has no Main.storyboard", path: preferences.bundle.bundlePath)
    }
    guard let tabs = try storyboard.instantiateInitialViewController() as? TabBarController,
      let navigation = tabs.viewControllers.first as? NavigationController,
      let items = navigation.viewControllers.first as? ItemsViewController,
      let settings = tabs.viewControllers.last as? SettingsViewController
    else {
      throw HomepwnerError(.unreadable, detail: "Main.storyboard does not hold the tab bar, the items and the settings", path: storyboard.name)
    }
    self.tabs = tabs
    self.navigation = navigation
    self.items = items
    self.settings = settings
    ItemScreenRestoration.store = itemStore
    ItemScreenRestoration.storyboard = storyboard
    items.store = itemStore
    items.displayedItems = { [unowned self] in displayedItems }
  }

  /// A lifecycle and restoration for this app, in its container's saved-state folder.
  public func makeLifecycle() -> (ApplicationLifecycle, StateRestoration) {
    let lifecycle = ApplicationLifecycle(delegate: self, configuration: .init(container: container))
    let restoration = StateRestoration(lifecycle: lifecycle, configuration: .init(folder: SavedStateFolder(container: container), bundleVersion: "1"))
    restoration.register(DetailViewController.self, as: "DetailViewController")
    restoration.register(DateViewController.self, as: "DateViewController")
    lifecycle.registerPurgeable(imageStore)
    return (lifecycle, restoration)
  }

  public func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    lifecycle.application.addWindow(window)
    window.rootViewController = tabs
    window.makeKeyAndVisible()
    return true
  }

  public func applicationDidFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    if let restoration = lifecycle.stateKeeper as? StateRestoration {
      // The localized reason, then a stable English tag for scripts and tests that read the
      // status line; the full reason (why a snapshot was set aside) follows.
      let (key, tag): (String, String)
      switch restoration.outcome {
      case .freshLaunch: (key, tag) = ("StateFresh", "fresh launch")
      case .restored: (key, tag) = ("StateRestored", "restored")
      case .recoveredFromPrevious: (key, tag) = ("StateRecovered", "recovered")
      case .discarded: (key, tag) = ("StateDiscarded", "discarded")
      }
      var detail = ""
      if case .recoveredFromPrevious(let why) = restoration.outcome { detail += " \(why)" }
      if case .discarded(let why) = restoration.outcome { detail += " \(why)" }
      launch = (key, tag, detail)
    }
    if let problem = itemStore.loadProblem { launch = (launch?.key ?? "StateFresh", launch?.tag ?? "fresh launch", (launch?.detail ?? "") + " — \(problem)") }
    _ = items.view
    if items.highlightedRow == nil, !itemStore.allItems.isEmpty { items.highlightedRow = 0 }
    return true
  }

  /// Saves the items (`saveChanges`). Text typed in the detail screen is not in the item yet —
  /// it becomes the item's when the user leaves the screen, as in the book — and comes back
  /// through state restoration instead.
  public func applicationDidEnterBackground(_ lifecycle: ApplicationLifecycle) {
    do {
      try itemStore.save()
      saveProblem = nil
    } catch {
      saveProblem = error
    }
  }

  /// Saves the items when the app ends from the foreground (the user quits).
  public func applicationWillTerminate(_ lifecycle: ApplicationLifecycle) {
    if let detail { detail.commit() }
    applicationDidEnterBackground(lifecycle)
  }

  // MARK: Restoration

  public func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool { true }
  public func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool { true }

  // MARK: Navigation

  /// The detail screen on top of the items stack, if any.
  public var detail: DetailViewController? { navigation.topViewController as? DetailViewController }

  /// The date editor on top of the items stack, if any.
  public var dateEditor: DateViewController? { navigation.topViewController as? DateViewController }

  /// The items in the order the settings ask (`HomepwnerSortOrder`): the store's own order
  /// (which `K`/`J` change), by name, or by value, dearest first.
  public var displayedItems: [Item] {
    switch preferences.sortOrder {
    case "name": itemStore.allItems.sorted { $0.itemName.localizedStandardCompare($1.itemName) == .orderedAscending }
    case "value": itemStore.allItems.sorted { $0.valueInDollars > $1.valueInDollars }
    default: itemStore.allItems
    }
  }

  /// Whether the user can reorder by hand (the sort order is `manual`).
  public var canReorder: Bool { preferences.sortOrder == "manual" }

  /// Whether the Items tab is showing.
  public var onItemsTab: Bool { tabs.selectedIndex == 0 }

  /// Opens the detail of the highlighted item.
  public func openHighlighted() {
    let shown = displayedItems
    guard let row = items.highlightedRow, shown.indices.contains(row) else { return }
    let detail = (try? storyboard.instantiateViewController(withIdentifier: "Detail")) as? DetailViewController ?? DetailViewController()
    detail.show(shown[row])
    navigation.pushViewController(detail)
  }

  /// Leaves the detail screen, keeping what was typed.
  public func closeDetail() {
    guard let detail else { return }
    detail.commit()
    navigation.popViewController()
  }

  /// Opens the date editor over the detail, on its date row. What was typed in the detail
  /// becomes the item's first, as the book's detail does when it disappears.
  public func openDateEditor() {
    guard let detail, let item = detail.item else { return }
    detail.focusedField = detail.dateRow
    window.makeFirstResponder(nil)
    detail.commit()
    let editor = (try? storyboard.instantiateViewController(withIdentifier: "Date")) as? DateViewController ?? DateViewController()
    editor.show(item)
    navigation.pushViewController(editor)
  }

  /// Leaves the date editor; with `saving`, the item takes the date chosen.
  public func closeDateEditor(saving: Bool) {
    guard let dateEditor else { return }
    if saving { dateEditor.save() }
    navigation.popViewController()
  }
}
