import Foundation
import InterfaceObjects
import InterfaceRendering
import NibLoading
import PropertyLists

/// A storyboard's scenes for `--render`: every scene of the document, not only those an app can
/// make by identifier.
///
/// Apple's compiled storyboard (and ours, built the same way) has a nib for each controller with
/// a storyboard identifier or reached by a segue (a generated identifier such as
/// `NSWindowController-B8D-0N-5wS`), listed in `NSViewControllerIdentifiersToNibNames`; a
/// controller reached by a macOS relationship (a window's content, a tab or split view
/// controller's items) has no nib of its own but sits in its container's nib; the application
/// scene is the `NSStoryboardMainMenu` nib. So every scene is drawn: each identifier's
/// controller; each controller embedded in another's nib, named by its storyboard identifier
/// when it has one, else by its object id (the part of its view nib's name `ID-view-VIEWID`
/// before `-view-`), else by its title or class; and the main menu as a menu bar.
extension RenderedDocument {
  mutating func loadStoryboard(_ path: String, layout: SceneLayout) throws {
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
    var made: [(identifier: String, controller: AnyObject, embedded: [ViewController])] = []
    var namesByObjectID: [String: String] = [:]
    for identifier in identifiers {
      let scene = try storyboard.instantiateScene(withIdentifier: identifier)
      objects.append(scene.controller)
      objects += scene.embedded.map { $0 as AnyObject }
      made.append((identifier, scene.controller, scene.embedded))
      if let id = (scene.controller as? ViewController).flatMap(Self.objectID(of:)) { namesByObjectID[id] = identifier }
    }
    var names = Set(identifiers)
    for scene in made { try addScene(scene.controller, identifier: scene.identifier, layout: layout) }
    for scene in made {
      var embeddedNames: [ObjectIdentifier: String] = [:]
      for controller in scene.embedded {
        let id = Self.objectID(of: controller)
        if let known = controller.storyboardIdentifier ?? id.flatMap({ namesByObjectID[$0] }), names.contains(known) {
          embeddedNames[ObjectIdentifier(controller)] = known
          continue
        }
        let name = Self.unique(controller.storyboardIdentifier ?? id ?? controller.title ?? Self.className(of: controller), in: &names)
        if let id { namesByObjectID[id] = name }
        embeddedNames[ObjectIdentifier(controller)] = name
        try addScene(controller, identifier: name, layout: layout)
      }
      for controller in scene.embedded {
        guard let name = embeddedNames[ObjectIdentifier(controller)] else { continue }
        let (container, relationship) = Self.container(of: controller, in: scene.controller, among: scene.embedded)
        let from = container.flatMap { embeddedNames[ObjectIdentifier($0)] } ?? scene.identifier
        links.append(ContactSheet.Link(from: from, to: name, label: relationship))
      }
    }
    if let identifier = storyboard.mainMenuIdentifier {
      let application = Application()
      if let menu = try storyboard.loadMainMenu(into: application) {
        objects.append(application)
        scenes.append(layout.scene(for: menu, identifier: Self.unique(identifier, in: &names), caption: "Application (main menu)"))
      }
    }
    // A relationship can be both a segue of the container's and a controller embedded in its
    // nib: one arrow each.
    var seen = Set<ContactSheet.Link>()
    links = links.filter { seen.insert($0).inserted }
    scenes = Self.orderedAlongLinks(scenes, links: links)
  }

  /// Draws a scene's controller (a window controller's window, a view controller's view) and
  /// adds its segues and relationships to ``links``.
  private mutating func addScene(_ controller: AnyObject, identifier: String, layout: SceneLayout) throws {
    if let windowController = controller as? WindowController, let window = windowController.window {
      let caption = window.title.isEmpty ? identifier : window.title
      scenes.append(layout.scene(for: window, identifier: identifier, caption: caption + " (\(identifier))"))
      return
    }
    guard let viewController = controller as? ViewController else { return }
    try viewController.loadViewIfNeeded()
    let caption = viewController.title ?? viewController.navigationItem.title ?? Self.className(of: viewController)
    scenes.append(layout.scene(for: viewController, identifier: identifier, caption: caption + " (\(identifier))"))
    for (relationship, destination) in viewController.relationshipSegues {
      links.append(ContactSheet.Link(from: identifier, to: destination, label: relationship))
    }
    for segue in viewController.segueTemplates where segue.kind != "unwind" {
      links.append(ContactSheet.Link(from: identifier, to: segue.destination, label: segue.identifier.isEmpty ? segue.kind : segue.identifier))
    }
  }

  /// The object id of a storyboard view controller: its view nib is named `ID-view-VIEWID`
  /// (`vc1-00-001-view-vw1-00-001`, `5D9-0a-Mbi-view-1ZR-Nv-NGc` in Apple's compiled
  /// storyboards and ours).
  static func objectID(of controller: ViewController) -> String? {
    guard let nibName = controller.nibName, let range = nibName.range(of: "-view-"), range.lowerBound > nibName.startIndex else { return nil }
    return String(nibName[..<range.lowerBound])
  }

  /// Which controller of a scene's nib holds `controller`, and by what relationship: a window
  /// controller's content (`window content`), a navigation controller's root
  /// (`rootViewController`), a tab bar controller's tab (`viewControllers`), a tab view
  /// controller's item (`tabItems`), a child (`splitItems` under a split view controller, else
  /// `embed`); else the scene's own
  /// controller (`nil`), as a tab or split view controller's item or an embedded controller.
  static func container(of controller: ViewController, in root: AnyObject, among embedded: [ViewController]) -> (ViewController?, String) {
    if (root as? WindowController)?.contentViewController === controller { return (nil, "window content") }
    let candidates = ([root as? ViewController].compactMap { $0 }) + embedded
    for candidate in candidates where candidate !== controller {
      // UIKit's containers, whose relationship destinations Apple's encoding embeds in their nib.
      if let navigation = candidate as? NavigationController, navigation.viewControllers.first === controller {
        return (candidate === root ? nil : candidate, "rootViewController")
      }
      if let tabs = candidate as? TabBarController, tabs.viewControllers.contains(where: { $0 === controller }) {
        return (candidate === root ? nil : candidate, "viewControllers")
      }
      if let tabs = candidate as? TabViewController, tabs.tabViewItems.contains(where: { $0.viewController === controller }) {
        return (candidate === root ? nil : candidate, "tabItems")
      }
      if candidate.children.contains(where: { $0 === controller }) {
        return (candidate === root ? nil : candidate, candidate is SplitViewController ? "splitItems" : "embed")
      }
    }
    switch root {
    case is TabViewController: return (nil, "tabItems")
    case is SplitViewController: return (nil, "splitItems")
    default: return (nil, "embed")
    }
  }
}
