import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import InterfaceRendering
import NibLoading
import PropertyLists
import StasisSystem

/// A document loaded into live headless views for `--render`: its windows, top-level views and
/// storyboard scenes as ``RenderedScene``s, and its segues.
///
/// Loading goes through `NibLoading` as an app's would, leniently (what the compiler cannot
/// compile Apple's way is left out or made best-effort, as `Nib(contentsOf:lenient:)` says): a
/// `.xib` or `.nib` with a stand-in File's Owner and stand-ins for the external objects it names,
/// a `.storyboard` or `.storyboardc` scene by scene (`instantiateController(withIdentifier:)`,
/// each controller's view loaded).
struct RenderedDocument {
  var scenes: [RenderedScene] = []
  var links: [ContactSheet.Link] = []
  /// The loaded objects, kept alive while their scenes are drawn (views hold no strong
  /// references up).
  private var objects: [AnyObject] = []

  /// Loads `path` and lays each scene out with `layout` (its platform set from the document's),
  /// finding the images it names on `fileSystem`.
  init(path: String, layout: SceneLayout, fileSystem: any FileSystem = HostEnvironment.current.fileSystem) throws(IBToolError) {
    var layout = layout
    layout.imagePath = ImageFinder(documentPath: path, fileSystem: fileSystem).path(forImageNamed:)
    do {
      if path.hasSuffix(".storyboard") || path.hasSuffix(".storyboardc") || path.hasSuffix(".storyboardc/") {
        try loadStoryboard(path, layout: layout)
      } else {
        try loadNib(path, layout: layout)
      }
    } catch let error as IBToolError {
      throw error
    } catch {
      throw IBToolError(path: path, detail: "cannot be rendered: \(error)")
    }
  }

  /// The loader's options: lenient, a missing outlet a warning.
  static var loadOptions: Nib.Options { Nib.Options(isStrict: false, missingConnections: .warning) }

  private mutating func loadNib(_ path: String, layout: SceneLayout) throws {
    let nib = try Self.nib(at: path)
    var layout = layout
    let graph = nib.graph
    layout.platform = graph.objects.indices.contains(graph.root) && graph.objects[graph.root]["UINibObjectsKey"] != nil ? .uiKit : .appKit
    // A nib names its external objects (a storyboard's view nib, an app's proxies): stand-ins
    // for each, found by the loader's error.
    let loaded = try Self.load(nib, options: Self.loadOptions)
    objects = loaded.topLevelObjects
    var names: Set<String> = []
    for object in loaded.topLevelObjects {
      let scene: RenderedScene?
      switch object {
      case let window as Window:
        let name = Self.unique(window.identifier ?? window.frameAutosaveName ?? (window.title.isEmpty ? "window" : window.title), in: &names)
        scene = layout.scene(for: window, identifier: name, caption: window.title.isEmpty ? name : window.title)
      case let controller as WindowController:
        guard let window = controller.window else { continue }
        let name = Self.unique(window.identifier ?? (window.title.isEmpty ? "window" : window.title), in: &names)
        scene = layout.scene(for: window, identifier: name, caption: window.title.isEmpty ? name : window.title)
      case let controller as ViewController:
        try controller.loadViewIfNeeded()
        let name = Self.unique(controller.title ?? Self.className(of: controller), in: &names)
        scene = layout.scene(for: controller, identifier: name, caption: name)
      case let view as View:
        let name = Self.unique(view.identifier ?? view.restorationIdentifier ?? Self.className(of: view), in: &names)
        scene = layout.scene(for: view, identifier: name, caption: name)
      default:
        scene = nil
      }
      if let scene { scenes.append(scene) }
    }
  }

  /// The nib at `path`: an iOS xib compiled in Apple's UIKit encoding (what UIKit loads; the
  /// encoding `ibtool --compile` writes), else — a macOS xib, a compiled nib, an iOS xib that
  /// compiler refuses — as `Nib(contentsOf:lenient:)` reads it.
  static func nib(at path: String) throws -> Nib {
    if path.hasSuffix(".xib"), let document = try? InterfaceDocument(contentsOfFile: path), document.platform == .iOS,
      let graph = try? UIKitNibCompiler.compile(document)
    {
      return Nib(graph: graph, name: path)
    }
    return try Nib(contentsOf: path, lenient: true)
  }

  /// Loads `nib` with a stand-in File's Owner, adding a stand-in for each external object the
  /// loader says is missing.
  static func load(_ nib: Nib, options: Nib.Options) throws(NibLoadingError) -> LoadedNib {
    var options = options
    while true {
      do {
        return try nib.load(owner: NibObject(), options: options)
      } catch {
        guard error.code == .missingExternalObject, let name = error.key, options.externalObjects[name] == nil else { throw error }
        options.externalObjects[name] = NibObject()
      }
    }
  }

  private mutating func loadStoryboard(_ path: String, layout: SceneLayout) throws {
    let storyboard = try Storyboard(contentsOf: path, options: Self.loadOptions)
    var layout = layout
    layout.platform = storyboard.info["UIViewControllerIdentifiersToNibNames"] != nil ? .uiKit : .appKit
    objects.append(storyboard)
    var identifiers = storyboard.identifiers
    // The initial scene first, as Interface Builder's canvas shows its entry arrow.
    if let initial = storyboard.initialControllerIdentifier, let index = identifiers.firstIndex(of: initial) {
      identifiers.remove(at: index)
      identifiers.insert(initial, at: 0)
    }
    for identifier in identifiers {
      let controller = try storyboard.instantiateController(withIdentifier: identifier)
      objects.append(controller)
      let caption: String
      if let windowController = controller as? WindowController, let window = windowController.window {
        caption = window.title.isEmpty ? identifier : window.title
        scenes.append(layout.scene(for: window, identifier: identifier, caption: caption + " (\(identifier))"))
        if let content = windowController.contentViewController?.storyboardIdentifier {
          links.append(ContactSheet.Link(from: identifier, to: content, label: "window content"))
        }
        continue
      }
      guard let viewController = controller as? ViewController else { continue }
      try viewController.loadViewIfNeeded()
      caption = viewController.title ?? viewController.navigationItem.title ?? Self.className(of: viewController)
      scenes.append(layout.scene(for: viewController, identifier: identifier, caption: caption + " (\(identifier))"))
      for (relationship, destination) in viewController.relationshipSegues {
        links.append(ContactSheet.Link(from: identifier, to: destination, label: relationship))
      }
      // Apple's UIKit encoding embeds a container's relationship destinations in its nib.
      if viewController.relationshipSegues.isEmpty {
        for (relationship, child) in Self.embeddedRelationships(of: viewController) {
          guard let destination = child.storyboardIdentifier else { continue }
          links.append(ContactSheet.Link(from: identifier, to: destination, label: relationship))
        }
      }
      for segue in viewController.segueTemplates where segue.kind != "unwind" {
        links.append(ContactSheet.Link(from: identifier, to: segue.destination, label: segue.identifier.isEmpty ? segue.kind : segue.identifier))
      }
    }
    scenes = Self.orderedAlongLinks(scenes, links: links)
  }

  /// The controllers a container holds through its relationship segues, by relationship: a
  /// navigation controller's root (`rootViewController`), a tab bar controller's tabs
  /// (`viewControllers`).
  static func embeddedRelationships(of controller: ViewController) -> [(String, ViewController)] {
    if let navigation = controller as? NavigationController, let root = navigation.viewControllers.first { return [("rootViewController", root)] }
    if let tabs = controller as? TabBarController { return tabs.viewControllers.map { ("viewControllers", $0) } }
    return []
  }

  /// `scenes` in the order a walk along `links` meets them, breadth first from the first scene
  /// (the initial one), then from each scene not reached yet: linked scenes end up next to each
  /// other on a contact sheet.
  static func orderedAlongLinks(_ scenes: [RenderedScene], links: [ContactSheet.Link]) -> [RenderedScene] {
    var byIdentifier: [String: RenderedScene] = [:]
    for scene in scenes where byIdentifier[scene.identifier] == nil { byIdentifier[scene.identifier] = scene }
    var next: [String: [String]] = [:]
    for link in links { next[link.from, default: []].append(link.to) }
    var seen: Set<String> = []
    var order: [RenderedScene] = []
    for start in scenes where !seen.contains(start.identifier) {
      var queue = [start.identifier]
      seen.insert(start.identifier)
      var position = 0
      while position < queue.count {
        let identifier = queue[position]
        position += 1
        if let scene = byIdentifier[identifier] { order.append(scene) }
        for destination in next[identifier] ?? [] where byIdentifier[destination] != nil && seen.insert(destination).inserted {
          queue.append(destination)
        }
      }
    }
    return order
  }

  /// The name of an object's class as the document gives it (its Swift class's name without
  /// the module).
  static func className(of object: AnyObject) -> String {
    if let generic = object as? GenericObject { return generic.className }
    return String(describing: type(of: object))
  }

  /// `name` made unique among `names` (`name-2`, `name-3`, …) and added to them.
  static func unique(_ name: String, in names: inout Set<String>) -> String {
    var candidate = name
    var number = 2
    while names.contains(candidate) {
      candidate = "\(name)-\(number)"
      number += 1
    }
    names.insert(candidate)
    return candidate
  }
}

/// Finds an image a document names beside the document, as Xcode's build would copy it into the
/// bundle: `NAME`, `NAME.png`, `NAME@2x.png`, `NAME.jpg`… in the document's folder, its parent
/// (a `Base.lproj` document's project folder) and those folders' asset catalogs
/// (`*.xcassets/NAME.imageset/`).
struct ImageFinder: Sendable {
  let folders: [String]
  let fileSystem: any FileSystem

  init(documentPath: String, fileSystem: any FileSystem) {
    self.fileSystem = fileSystem
    let url = URL(fileURLWithPath: documentPath).standardizedFileURL
    var folder = url.deletingLastPathComponent()
    if documentPath.hasSuffix(".storyboardc") || documentPath.hasSuffix(".storyboardc/") { folder = url.deletingLastPathComponent() }
    folders = [folder.path, folder.deletingLastPathComponent().path]
  }

  static let suffixes = ["", ".png", "@2x.png", "@3x.png", ".jpg", ".jpeg", ".gif", ".tiff", ".pdf"]

  func path(forImageNamed name: String) -> String? {
    guard !name.isEmpty, !name.contains("..") else { return nil }
    for folder in folders {
      for suffix in Self.suffixes {
        let candidate = folder + "/" + name + suffix
        if fileSystem.isFile(candidate) { return candidate }
      }
      guard let entries = try? fileSystem.entryNames(inFolder: folder) else { continue }
      for catalog in entries where catalog.hasSuffix(".xcassets") {
        let set = folder + "/" + catalog + "/" + name + ".imageset"
        guard let images = try? fileSystem.entryNames(inFolder: set) else { continue }
        if let image = images.sorted().first(where: { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }) { return set + "/" + image }
      }
    }
    return nil
  }
}
