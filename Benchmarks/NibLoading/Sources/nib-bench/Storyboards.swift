// Storyboard scenes: corpus storyboards compiled once with CocoaStoryboardCompiler and written as
// `.storyboardc` folders (Info.plist + one NIBArchive per scene), then opened and instantiated the
// way an app does it at launch — `Storyboard(contentsOf:)`, `instantiateInitialController()`, the
// content view controller's `view` — or, for a storyboard whose only scene is the main menu
// (NetNewsWire's Mac Main.storyboard), `loadMainMenu(into:)` as NSApplication does at launch.
import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel
import PropertyLists

/// A compiled storyboard on disk and what one load of its first scene shows.
@MainActor
struct StoryboardFixture {
  enum Scene {
    /// The initial (window) controller and its content view controller's view.
    case initialController
    /// The main menu (`loadMainMenu(into:)`, File's Owner the application), for a storyboard
    /// without an initial controller.
    case mainMenu
  }
  let title: String
  let source: String
  let folder: String
  let scene: Scene
  /// Nib files of the folder and their bytes in all.
  let nibCount: Int
  let bytes: Int
  /// Live objects one load makes (the scene's nibs, the view's nib included).
  var objects = 0
  /// For `.initialController`: ``signature(_:)``; for `.mainMenu`: menu items.
  var shape = 0
  /// What lenient mode let through in the scene's nibs (outlets to keys the classes lack …).
  var warnings: [String] = []
  /// Why the storyboard's own view load cannot be measured as it is: the content view
  /// controller's `view` is not its view nib's view.
  var viewProblem: String?
  /// Then the content view controller's view nib, which the benchmark loads as the storyboard
  /// should (the controller as File's Owner, its external objects), after the controller is made.
  var manualViewNib: (name: String, graph: NibGraph)?

  /// Compiles `source` into `folder`.
  init(title: String, source: String, folder: String, compiler: CocoaNibCompiler.Options) throws {
    self.title = title
    self.source = source
    self.folder = folder
    let compiled = try CocoaStoryboardCompiler.compile(try InterfaceDocument(contentsOfFile: source), options: compiler)
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try compiled.info.write(toFile: folder + "/Info.plist", format: .binary)
    var bytes = 0
    for (name, graph) in compiled.nibs {
      let encoded = NIBArchive(graph, keepingUnreachable: false).encoded()
      bytes += encoded.count
      try Data(encoded).write(to: URL(fileURLWithPath: folder + "/" + name + ".nib"))
    }
    self.bytes = bytes
    nibCount = compiled.nibs.count
    if case .string? = compiled.info["NSStoryboardDesignatedEntryPointIdentifier"] {
      scene = .initialController
    } else {
      scene = .mainMenu
    }
  }

  var options: Nib.Options { Nib.Options(classes: benchClasses) }

  /// One cold load: the storyboard opened from disk (every nib read and parsed), then the scene.
  func loadCold(options: Nib.Options) throws -> SceneResult {
    switch scene {
    case .initialController:
      let storyboard = try Storyboard(contentsOf: folder, options: options)
      return try Self.instantiate(storyboard, manualViewNib: manualViewNib)
    case .mainMenu:
      return try Self.loadMainMenu(Storyboard(contentsOf: folder, options: options))
    }
  }

  /// The initial controller and its view from an open storyboard; with `manualViewNib`, that nib
  /// is loaded for the content view controller as AppKit does it (the controller as File's Owner,
  /// its external objects, then the window's content view is the controller's view).
  static func instantiate(_ storyboard: Storyboard, manualViewNib: (name: String, graph: NibGraph)? = nil) throws -> SceneResult {
    guard let controller = try storyboard.instantiateInitialController() else {
      throw CheckFailure("\(storyboard.name): no initial controller")
    }
    let viewController = (controller as? WindowController)?.contentViewController ?? controller as? ViewController
    if let manualViewNib, let viewController {
      var options = storyboard.options
      for (key, object) in viewController.externalObjectsForViewLoading { options.externalObjects[key] = object }
      options.externalObjects["NSStoryboardPlaceholder"] = storyboard
      _ = try Nib(graph: manualViewNib.graph, name: manualViewNib.name).load(owner: viewController, options: options)
      (controller as? WindowController)?.window?.contentView = viewController.viewIfLoaded
    }
    guard let view = viewController?.view else {
      throw CheckFailure("\(storyboard.name): the initial controller's view did not load")
    }
    return SceneResult(controller: controller, view: view, menu: nil, loaded: nil)
  }

  /// Views in `view`'s tree, itself included.
  static func viewCount(_ view: View?) -> Int {
    var count = 0
    var stack = view.map { [$0] } ?? []
    while let next = stack.popLast() {
      count += 1
      stack += next.subviews
    }
    return count
  }

  /// A number a load of the initial-controller scene must give again: the views in the loaded
  /// view's tree (itself included), plus 10^7 when a window controller has its window, plus 10^8
  /// when that window's content view controller is the controller whose view loaded, plus 10^9
  /// when the window's content view is that view.
  static func signature(_ result: SceneResult) -> Int {
    var value = viewCount(result.view)
    if let windowController = result.controller as? WindowController, let window = windowController.window {
      value += 10_000_000
      if let content = window.rootViewController, content.viewIfLoaded === result.view { value += 100_000_000 }
      if let view = result.view, window.contentView === view { value += 1_000_000_000 }
    }
    return value
  }

  /// The main-menu scene as NSApplication loads it at launch (`loadMainMenu(into:)`).
  static func loadMainMenu(_ storyboard: Storyboard) throws -> SceneResult {
    let application = Application()
    guard let menu = try storyboard.loadMainMenu(into: application) else {
      throw CheckFailure("\(storyboard.name): no main menu")
    }
    return SceneResult(controller: application, view: nil, menu: menu, loaded: nil)
  }

  /// Menu items in `menu` and its submenus.
  static func itemCount(_ menu: Menu) -> Int {
    var items = 0
    var stack = [menu]
    while let menu = stack.popLast() {
      items += menu.items.count
      stack += menu.items.compactMap(\.submenu)
    }
    return items
  }

  /// Learns the scene's shape (object counts, external objects) from one untimed load.
  mutating func survey() throws {
    switch scene {
    case .initialController:
      let result = try loadCold(options: options)
      // The scene's objects: every nib the load reads, counted by loading each as the storyboard
      // does — the entry nib with a stand-in for the storyboard's scene owner, the view's nib
      // with the controller as owner — and the storyboard as `NSStoryboardPlaceholder`.
      objects = 0
      let compiled = try CompiledStoryboard(contentsOf: folder)
      guard case .string(let entry)? = compiled.info["NSStoryboardDesignatedEntryPointIdentifier"],
        case .string(let entryNib)? = compiled.info["NSViewControllerIdentifiersToNibNames"]?[entry]
      else { throw CheckFailure("\(folder): no entry point") }
      let viewController = (result.controller as? WindowController)?.contentViewController ?? result.controller as? ViewController
      guard let viewNib = viewController?.nibName, case .nibArchive(let viewArchive)? = compiled.nibs[viewNib] else {
        throw CheckFailure("\(title): the initial controller's view controller names no view nib of the storyboard")
      }
      var options = self.options
      options.externalObjects["NSStoryboardPlaceholder"] = try Storyboard(contentsOf: folder, options: options)
      // The view nib's owner: a controller of the same class as the storyboard made.
      let viewOwner = viewController.map { type(of: $0).init() } ?? ViewController()
      for (name, owner) in [(entryNib, SceneOwnerStandIn() as AnyObject), (viewNib, viewOwner)] {
        guard case .nibArchive(let archive)? = compiled.nibs[name] else { throw CheckFailure("\(folder): no nib \(name)") }
        var nibOptions = options
        if owner === viewOwner, let viewController {
          // The view nib's external objects (`UpstreamPlaceholder-1`: the controller itself).
          for (key, object) in viewController.externalObjectsForViewLoading {
            nibOptions.externalObjects[key] = object === viewController ? viewOwner : object
          }
        }
        let loaded = try Self.load(Nib(graph: NibGraph(archive), name: name), options: nibOptions, owner: owner)
        objects += loaded.objects.count
        warnings += loaded.warnings
      }
      // The storyboard's view must be the view nib's view, not a stand-in made before it loaded.
      guard let nibView = viewOwner.viewIfLoaded else { throw CheckFailure("\(title): the view nib connects no view") }
      if result.view?.frame != nibView.frame || Self.viewCount(result.view) != Self.viewCount(nibView) {
        func size(_ view: View?) -> String { view.map { "\($0.frame.size.width)×\($0.frame.size.height)" } ?? "nil" }
        viewProblem = "the content view controller's `view` after `instantiateInitialController()` is a "
          + "\(Self.viewCount(result.view))-view tree of frame \(size(result.view)), not its view nib \(viewNib)'s "
          + "\(Self.viewCount(nibView))-view tree of frame \(size(nibView))"
        manualViewNib = (viewNib, NibGraph(viewArchive))
      }
      let corrected = try loadCold(options: self.options)
      shape = Self.signature(corrected)
      guard shape == 1_110_000_000 + Self.viewCount(nibView) else {
        throw CheckFailure("\(title): scene signature \(shape): not a window controller whose window shows its content controller's view")
      }
    case .mainMenu:
      let result = try loadCold(options: options)
      shape = Self.itemCount(result.menu!)
      // The scene's objects: MainMenu.nib loaded on its own (stand-ins for external objects).
      var options = self.options
      options.application = Application()
      options.externalObjects["NSStoryboardPlaceholder"] = try Storyboard(contentsOf: folder, options: options)
      let loaded = try Self.load(Nib(contentsOf: folder + "/MainMenu.nib"), options: options, owner: options.application!)
      objects = loaded.objects.count
      warnings = loaded.warnings
    }
  }

  /// One load of `nib`, with stand-ins for whatever external objects it names.
  static func load(_ nib: Nib, options: Nib.Options, owner: AnyObject = NibObject()) throws -> LoadedNib {
    var options = options
    while true {
      do {
        return try nib.load(owner: owner, options: options)
      } catch {
        guard error.code == .missingExternalObject, let name = error.key, options.externalObjects[name] == nil else { throw error }
        options.externalObjects[name] = NibObject()
      }
    }
  }

  /// The checks every timed load passes (after the clock stops).
  func check(_ result: SceneResult) throws {
    switch scene {
    case .initialController:
      guard Self.signature(result) == shape else {
        throw CheckFailure("\(title): scene signature \(Self.signature(result)), expected \(shape) (subviews + window + content controller)")
      }
    case .mainMenu:
      guard let menu = result.menu, Self.itemCount(menu) == shape,
        (result.controller as? Application)?.mainMenu === menu
      else { throw CheckFailure("\(title): the main menu is not the application's, or has other items") }
    }
  }
}

/// Stands in for the storyboard's own scene owner when a scene's nib is loaded on its own: the
/// controller arrives through the same `sceneController` outlet.
final class SceneOwnerStandIn: NibObject {
  var sceneController: AnyObject?
  required init() { super.init() }
  static let standInKeys = KeyTable(for: SceneOwnerStandIn.self) { $0.key("sceneController", \.sceneController) }
  override class var keyTable: KeyTable { standInKeys }
}

@MainActor
struct SceneResult {
  let controller: AnyObject
  let view: View?
  let menu: Menu?
  let loaded: LoadedNib?
}
