import Foundation
import InterfaceObjects
import Lifecycle
import Restoration
import Testing
import TestSupport

/// A controller that keeps a reference to one of its own views (`encodeRestorableObject` with a
/// view, as UIKit allows for any restorable object) and to a controller that is not preserved.
final class FocusController: ViewController, ViewControllerRestoration {
  let first = TextField()
  let second = TextField()
  var focused: AnyObject?
  var unpreserved: ViewController?
  var restoredUnpreserved: AnyObject?
  /// The controller whose state was decoded last.
  nonisolated(unsafe) static var lastDecoded: FocusController?
  override func viewDidLoad() {
    super.viewDidLoad()
    first.restorationIdentifier = "First"
    second.restorationIdentifier = "Second"
    view?.addSubview(first)
    view?.addSubview(second)
  }
  override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encodeRestorableObject(second, forKey: "focus")
    coder.encodeRestorableObject(unpreserved, forKey: "other")
  }
  override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    focused = coder.decodeRestorableObject(forKey: "focus")
    restoredUnpreserved = coder.decodeRestorableObject(forKey: "other")
    Self.lastDecoded = self
  }
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    let made = FocusController()
    made.restorationIdentifier = path.last
    made.restorationClassName = "FocusController"
    return made
  }
}

@MainActor
@Suite("Restoration: references to views and to objects not preserved")
struct ViewReferenceTests {
  @Test("A reference to a view comes back as the restored view; one to a controller that was not preserved as nil")
  func referenceToAView() throws {
    let scratch = try ScratchFolder("restoration-view-reference")
    let folder = SavedStateFolder(path: scratch.file("app.savedState"))
    let writer = TreeApp {
      let controller = FocusController()
      controller.restorationIdentifier = "Focus"
      controller.restorationClassName = "FocusController"
      _ = controller.view
      // A controller without an identifier: visited by nothing, so never preserved.
      controller.unpreserved = ViewController()
      return controller
    }
    let (writerLifecycle, writerRestoration) = writer.install(folder)
    try writerLifecycle.launch()
    let saved = try writerRestoration.preserve()
    #expect(saved.nodeCount == 3)

    FocusController.lastDecoded = nil
    let app = TreeApp { nil }
    let (lifecycle, restoration) = app.install(folder)
    restoration.register(FocusController.self, as: "FocusController")
    try lifecycle.launch()
    let controller = try #require(FocusController.lastDecoded)
    #expect(controller.focused === controller.second)
    #expect(controller.restoredUnpreserved == nil)
    #expect(restoration.lastRestoration?.nodes.map(\.path) == [["Focus"], ["Focus", "First"], ["Focus", "Second"]])
  }
}
