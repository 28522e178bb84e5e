import Foundation
import InterfaceObjects
import KeyedArchive
import Lifecycle
import PropertyLists
import Restoration
import Testing
import TestSupport

/// An app whose window's root is made by `makeRoot` at `willFinishLaunching`, opting in (or in
/// secure mode), logging the restoration calls in order.
final class TreeApp: ApplicationDelegate, StateRestorationDelegate {
  let window = Window()
  var root: ViewController?
  let makeRoot: () -> ViewController?
  var secure = false
  var log: [String] = []
  var provide: [[String]: ViewController] = [:]
  var appValues: [String: Any] = [:]
  var decodedAppValues: [String: Any] = [:]

  init(makeRoot: @escaping () -> ViewController?) { self.makeRoot = makeRoot }

  func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    root = makeRoot()
    lifecycle.application.addWindow(window)
    window.rootViewController = root
    window.makeKeyAndVisible()
    return true
  }
  func applicationDidFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    log.append("didFinishLaunching")
    return true
  }
  func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool { !secure }
  func shouldSaveSecureApplicationState(_ coder: StateEncoder) -> Bool { secure }
  func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool {
    log.append("shouldRestore")
    return !secure
  }
  func shouldRestoreSecureApplicationState(_ coder: StateDecoder) -> Bool { secure }
  func applicationWillEncodeRestorableState(_ coder: StateEncoder) {
    log.append("willEncode")
    for (key, value) in appValues { coder.encode(value, forKey: key) }
  }
  func applicationDidDecodeRestorableState(_ coder: StateDecoder) {
    log.append("didDecode")
    decodedAppValues = coder.allValues
  }
  /// `UIStateRestorationViewControllerStoryboardKey` as the delegate saw it, by path.
  var storyboardKeys: [[String]: String] = [:]
  func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    log.append("delegate " + path.joined(separator: "/"))
    if let name = coder.decodeObject(forKey: SnapshotMetadata.storyboardKey) as? String { storyboardKeys[path] = name }
    return provide[path]
  }

  /// A lifecycle and restoration on `folder` for this delegate.
  func install(_ folder: SavedStateFolder, configure: (inout StateRestoration.Configuration) -> Void = { _ in }) -> (ApplicationLifecycle, StateRestoration) {
    let lifecycle = ApplicationLifecycle(delegate: self, notificationCenter: NotificationCenter())
    var configuration = StateRestoration.Configuration(folder: folder, bundleVersion: "3")
    configure(&configuration)
    return (lifecycle, StateRestoration(lifecycle: lifecycle, configuration: configuration))
  }
}

/// A controller that logs its restoration calls into a shared log.
final class LoggingController: ViewController, ViewControllerRestoration {
  nonisolated(unsafe) static var log: [String] = []
  nonisolated(unsafe) static var refuse = false
  var value = ""
  override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(value, forKey: "value")
  }
  override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    value = coder.decode(String.self, forKey: "value") ?? ""
    Self.log.append("decode \(restorationIdentifier ?? "?")")
  }
  override func applicationFinishedRestoringState() { Self.log.append("finished \(restorationIdentifier ?? "?")") }
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    log.append("class \(path.joined(separator: "/"))")
    guard !refuse else { return nil }
    let made = LoggingController()
    made.restorationIdentifier = path.last
    return made
  }
}

/// A storyboard stand-in: makes `LoggingController`s by identifier.
final class FakeStoryboard: ViewControllerSource {
  var made: [String] = []
  let storyboardName = "Main"
  func instantiateViewController(withIdentifier identifier: String) throws -> ViewController {
    made.append(identifier)
    let controller = LoggingController()
    controller.storyboardIdentifier = identifier
    controller.storyboard = self
    return controller
  }
}

@MainActor func navigationTree(detailClass: String? = nil, storyboard: FakeStoryboard? = nil) -> ViewController {
  let navigation = NavigationController()
  navigation.restorationIdentifier = "Nav"
  let list = LoggingController()
  list.restorationIdentifier = "List"
  list.value = "list"
  navigation.pushViewController(list)
  let detail = LoggingController()
  detail.restorationIdentifier = "Detail"
  detail.restorationClassName = detailClass
  detail.value = "detail"
  if let storyboard {
    detail.storyboard = storyboard
    detail.storyboardIdentifier = "DetailScene"
  }
  navigation.pushViewController(detail)
  return navigation
}

@MainActor
@Suite("Restoration: the object-creation and state-decoding phases", .serialized)
struct RestorationPhaseTests {
  let scratch: ScratchFolder
  let folder: SavedStateFolder
  init() throws {
    scratch = try ScratchFolder("restoration-phases")
    folder = SavedStateFolder(path: scratch.file("app.savedState"))
    LoggingController.log = []
    LoggingController.refuse = false
  }

  func save(_ makeRoot: @escaping () -> ViewController?, appValues: [String: Any] = [:]) throws {
    let app = TreeApp(makeRoot: makeRoot)
    app.appValues = appValues
    let (lifecycle, restoration) = app.install(folder)
    try lifecycle.launch()
    try restoration.preserve()
  }

  @Test("UIKit's order: restoration class, then the delegate, then an existing object, then the storyboard; launch calls in order")
  func creationOrder() throws {
    let storyboard = FakeStoryboard()
    try save({ navigationTree(detailClass: "LoggingController", storyboard: storyboard) }, appValues: ["user": "ada"])
    // Relaunch with only the navigation controller existing: List comes from the delegate,
    // Detail from its restoration class (never the delegate), Nav is the existing object.
    let app = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      return navigation
    }
    let provided = LoggingController()
    provided.restorationIdentifier = "List"
    app.provide[["Nav", "List"]] = provided
    let (lifecycle, restoration) = app.install(folder)
    restoration.register(LoggingController.self, as: "LoggingController")
    LoggingController.log = []
    try lifecycle.launch()
    #expect(app.log == ["shouldRestore", "delegate Nav", "delegate Nav/List", "didDecode", "didFinishLaunching"])
    #expect(LoggingController.log == ["class Nav/Detail", "decode List", "decode Detail", "finished List", "finished Detail"])
    let nodes = restoration.lastRestoration?.nodes ?? []
    #expect(nodes.map { $0.restoredBy ?? "-" } == ["existing object", "app delegate", "restoration class LoggingController"])
    let navigation = try #require(app.root as? NavigationController)
    #expect(navigation.viewControllers.map { ($0 as? LoggingController)?.value } == ["list", "detail"])
    #expect(navigation.viewControllers.first === provided)
    #expect(app.decodedAppValues["user"] as? String == "ada")
    #expect(storyboard.made.isEmpty)
  }

  @Test("Without a restoration class or a delegate answer, the storyboard that made the controller makes it again")
  func storyboardCreation() throws {
    let storyboard = FakeStoryboard()
    try save { navigationTree(storyboard: storyboard) }
    let app = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      let list = LoggingController()
      list.restorationIdentifier = "List"
      navigation.pushViewController(list)
      return navigation
    }
    let (lifecycle, restoration) = app.install(folder)
    restoration.storyboardNamed = { $0 == "Main" ? storyboard : nil }
    try lifecycle.launch()
    #expect(storyboard.made == ["DetailScene"])
    #expect(app.storyboardKeys == [["Nav", "Detail"]: "Main"])
    #expect(restoration.lastRestoration?.nodes.map { $0.restoredBy ?? "-" } == ["existing object", "existing object", "storyboard Main"])
    #expect((app.root as? NavigationController)?.viewControllers.count == 2)
  }

  @Test("A restoration class returning nil skips the node, its saved state and everything under it; nothing else is asked")
  func restorationClassNil() throws {
    try save { navigationTree(detailClass: "LoggingController") }
    LoggingController.refuse = true
    let app = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      return navigation
    }
    let existingDetail = LoggingController()
    app.provide[["Nav", "Detail"]] = existingDetail
    let (lifecycle, restoration) = app.install(folder)
    restoration.register(LoggingController.self, as: "LoggingController")
    try lifecycle.launch()
    let detail = try #require(restoration.lastRestoration?.nodes.first { $0.path == ["Nav", "Detail"] })
    #expect(detail.notRestoredBecause == "its restoration class LoggingController returned nil")
    #expect(!app.log.contains("delegate Nav/Detail"))
    #expect(existingDetail.value == "")
  }

  @Test("An unregistered restoration class, and a node nothing makes, are named with the reason; their children are skipped")
  func whyNotRestored() throws {
    try save { navigationTree(detailClass: "Missing") }
    let app = TreeApp { nil }
    let (lifecycle, restoration) = app.install(folder)
    try lifecycle.launch()
    let reasons = (restoration.lastRestoration?.nodes ?? []).map { $0.notRestoredBecause ?? "restored" }
    #expect(reasons[0].hasPrefix("nothing made it"))
    #expect(reasons[1] == "its parent Nav was not restored")
    #expect(reasons[2] == "its parent Nav was not restored")
    // Only Detail's own class is missing when the rest exists.
    let second = TreeApp { navigationTree() }
    let (lifecycle2, restoration2) = second.install(folder)
    try lifecycle2.launch()
    let detail = restoration2.lastRestoration?.nodes.first { $0.path == ["Nav", "Detail"] }
    #expect(detail?.notRestoredBecause?.contains("Missing is not registered") == true)
    #expect(FileManager.default.fileExists(atPath: folder.lastRestorePath))
  }

  @Test("Secure restoration: a node whose state holds a class not registered for secure coding is not restored, and says so")
  func secureRefusal() throws {
    final class Token: ArchiveEncodable, ArchiveDecodable {
      let text: String
      init(text: String) { self.text = text }
      init(coder: ArchiveDecoder) throws { text = try coder.decode(String.self, forKey: "text") ?? "" }
      func encode(with coder: ArchiveEncoder) throws { coder.encodeRaw(.string(text), forKey: "text") }
    }
    final class TokenController: ViewController {
      var token: Token?
      override func encodeRestorableState(with coder: any RestorableStateEncoder) { coder.encode(token, forKey: "token") }
      override func decodeRestorableState(with coder: any RestorableStateDecoder) { token = coder.decode(Token.self, forKey: "token") }
    }
    var registry = ArchiveClassRegistry.foundation
    registry.register(Token.self, as: "Token")
    func makeTree() -> ViewController {
      let root = TokenController()
      root.restorationIdentifier = "Root"
      root.token = Token(text: "secret")
      let child = LoggingController()
      child.restorationIdentifier = "Plain"
      child.value = "fine"
      root.addChild(child)
      return root
    }
    let writer = TreeApp(makeRoot: makeTree)
    let (lifecycle, restoration) = writer.install(folder) { $0.registry = registry }
    try lifecycle.launch()
    try restoration.preserve()

    // Non-secure: the token comes back.
    let trusting = TreeApp { let root = TokenController(); root.restorationIdentifier = "Root"; return root }
    let (lifecycle2, _) = trusting.install(folder) { $0.registry = registry }
    try lifecycle2.launch()
    #expect((trusting.root as? TokenController)?.token?.text == "secret")

    // Secure: Token is not a secure class; the root is refused, and its child with it.
    let secureApp = TreeApp { let root = TokenController(); root.restorationIdentifier = "Root"; return root }
    secureApp.secure = true
    let (lifecycle3, restoration3) = secureApp.install(folder) { $0.registry = registry }
    try lifecycle3.launch()
    let nodes = restoration3.lastRestoration?.nodes ?? []
    #expect(nodes.first?.notRestoredBecause?.contains("its state could not be decoded") == true)
    #expect(nodes.first?.notRestoredBecause?.contains("Token") == true)
    #expect((secureApp.root as? TokenController)?.token == nil)
  }

  @Test("extendStateRestoration keeps the crash marker and blocks saving until completeStateRestoration")
  func extendAndComplete() throws {
    try save { navigationTree() }
    final class Extending: ApplicationDelegate, StateRestorationDelegate {
      weak var restoration: StateRestoration?
      let window = Window()
      func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
        lifecycle.application.addWindow(window)
        window.rootViewController = navigationTree()
        return true
      }
      func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool { true }
      func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool {
        restoration?.extendStateRestoration()
        return true
      }
    }
    let delegate = Extending()
    let lifecycle = ApplicationLifecycle(delegate: delegate, notificationCenter: NotificationCenter())
    let restoration = StateRestoration(lifecycle: lifecycle, folder: folder)
    delegate.restoration = restoration
    try lifecycle.launch()
    #expect(restoration.isRestoring)
    #expect(FileManager.default.fileExists(atPath: folder.markerPath))
    #expect(try restoration.preserve().skippedBecause?.contains("has not completed") == true)
    restoration.completeStateRestoration()
    #expect(!restoration.isRestoring)
    #expect(!FileManager.default.fileExists(atPath: folder.markerPath))
    #expect(try restoration.preserve().nodeCount == 3)
  }

  @Test("A per-node schema version: registered migrations run in a chain; without one the state is dropped and the node still restored")
  func migrations() throws {
    final class V1: ViewController {
      var words = ""
      override func encodeRestorableState(with coder: any RestorableStateEncoder) { coder.encode(words, forKey: "text") }
    }
    try save {
      let root = V1()
      root.restorationIdentifier = "Root"
      root.words = "hello world"
      return root
    }
    // The class is now at version 2 under the same saved class name ("V1"): text became words [String].
    final class V1Now: ViewController {
      override class var restorableStateVersion: Int { 2 }
      var words: [String] = []
      var seenVersion = -1
      override func decodeRestorableState(with coder: any RestorableStateDecoder) {
        seenVersion = coder.stateVersion
        words = (coder.decodeObject(forKey: "words") as? [Any])?.compactMap { $0 as? String } ?? []
      }
    }
    let app = TreeApp { let root = V1Now(); root.restorationIdentifier = "Root"; return root }
    let (lifecycle, restoration) = app.install(folder)
    restoration.registerMigration(of: "V1", from: 0) { state in state["text"] = (state["text"] as? String ?? "").uppercased() }
    restoration.registerMigration(of: "V1", from: 1) { state in
      state["words"] = (state["text"] as? String ?? "").split(separator: " ").map(String.init)
      state["text"] = nil
    }
    try lifecycle.launch()
    let root = try #require(app.root as? V1Now)
    #expect(root.words == ["HELLO", "WORLD"])
    #expect(root.seenVersion == 2)
    #expect(restoration.lastRestoration?.nodes.first?.notes == ["state migrated from version 0 to 2"])

    let bare = TreeApp { let root = V1Now(); root.restorationIdentifier = "Root"; return root }
    let (lifecycle2, restoration2) = bare.install(folder)
    try lifecycle2.launch()
    #expect((bare.root as? V1Now)?.words == [])
    #expect(restoration2.lastRestoration?.nodes.first?.isRestored == true)
    #expect(restoration2.lastRestoration?.nodes.first?.notes.first?.contains("no migration of V1 from state version 0 to 1") == true)
  }

  @Test("A per-node size budget: a node over it is kept without its state and named; the largest nodes are reported")
  func sizeBudget() throws {
    let app = TreeApp {
      let root = LoggingController()
      root.restorationIdentifier = "Root"
      root.value = String(repeating: "x", count: 5_000)
      let small = LoggingController()
      small.restorationIdentifier = "Small"
      small.value = "tiny"
      root.addChild(small)
      return root
    }
    let (lifecycle, restoration) = app.install(folder) { $0.nodeStateBudget = 1_000 }
    try lifecycle.launch()
    let report = try restoration.preserve()
    #expect(report.largestNodes.first?.path == ["Root"])
    #expect(report.largestNodes.first?.bytes ?? 0 > 5_000)
    #expect(report.excluded.map(\.identifier) == ["Root"])
    #expect(report.excluded.first?.reason.contains("over the budget of 1000 bytes") == true)
    let snapshot = try Snapshot(contentsOfFile: folder.currentSnapshotPath)
    #expect(snapshot.node(at: ["Root"])?.state.isEmpty == true)
    #expect(snapshot.node(at: ["Root", "Small"])?.state["value"] as? String == "tiny")
  }

  @Test("A node whose state cannot be archived is kept without it, named with the archiver's error; the others are saved")
  func unarchivableState() throws {
    final class Opaque {}
    final class Holder: ViewController {
      override func encodeRestorableState(with coder: any RestorableStateEncoder) { coder.encode(Opaque(), forKey: "opaque") }
    }
    let app = TreeApp {
      let root = LoggingController()
      root.restorationIdentifier = "Root"
      root.value = "kept"
      let holder = Holder()
      holder.restorationIdentifier = "Holder"
      root.addChild(holder)
      return root
    }
    let (lifecycle, restoration) = app.install(folder)
    try lifecycle.launch()
    let report = try restoration.preserve()
    #expect(report.nodeCount == 2)
    #expect(report.excluded.first?.identifier == "Holder")
    #expect(report.excluded.first?.reason.contains("cannot be archived") == true)
    let snapshot = try Snapshot(contentsOfFile: folder.currentSnapshotPath)
    #expect(snapshot.node(at: ["Root"])?.state["value"] as? String == "kept")
  }
}
