import Foundation
import InterfaceObjects
import NibLoading
import ObjectModel

// snippet: readme-nib-loading-classes
final class ItemsViewController: ViewController {
  var shown: ViewController?
  override func prepare(for segue: StoryboardSegue, sender: Any?) { shown = segue.destination }
  required init() { super.init() }
}
// end-snippet

@MainActor func nibLoadingExample() throws {
  // snippet: readme-nib-loading
  var options = Nib.Options()   // the headless UIKit/AppKit classes: ClassRegistry.interfaceObjects
  options.classes.register(ItemsViewController.self, as: "Items.ItemsViewController", makeInstanceOnMainActor: { ItemsViewController() })
  let storyboard = try Storyboard(contentsOf: "Examples/Items.storyboard", options: options)   // or Storyboard(name:bundle:)
  let navigation = try storyboard.instantiateInitialViewController() as? NavigationController
  let items = navigation?.topViewController as? ItemsViewController
  let button = items?.view?.subviews.first as? Button
  try button?.performClick()                            // the button's segue: shouldPerform, prepare, push
  print(button?.title ?? "", navigation?.viewControllers.count ?? 0, items?.shown?.title ?? "")   // Show item 2 Item
  let objects = try Nib(contentsOf: "Examples/Demo.xib").instantiate(withOwner: nil)   // a macOS xib, straight
  print((objects.first as? Window)?.title ?? "")        // Notes
  // end-snippet
}

// snippet: overview-interface-objects
final class NotesController: NibObject {
  var window: Window?
  var saved = 0
  private static let keys = KeyTable(for: NotesController.self) { $0.key("window", \.window) }
  override class var keyTable: KeyTable { keys }
  private static let actions = ActionTable(for: NotesController.self) { $0.action("save:") { controller, _ in controller.saved += 1 } }
  override class var actionTable: ActionTable { actions }
  required init() { super.init() }
}
// end-snippet

@MainActor func interfaceObjectsOverviewExample() throws {
  // snippet: overview-nib-loading
  let owner = NotesController()
  let loaded = try Nib(contentsOf: "Examples/Demo.xib").load(owner: owner)   // a compiled .nib loads the same way
  let window = loaded.topLevelObjects.first as? Window
  let save = window?.contentView?.subviews.compactMap { $0 as? Button }.first
  try save?.performClick()                 // target–action: the owner's save:
  print(window?.title ?? "", save?.title ?? "", owner.saved)   // Notes Save 1
  // end-snippet
}
