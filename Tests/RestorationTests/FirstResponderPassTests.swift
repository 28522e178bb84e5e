import Foundation
import InterfaceObjects
import Lifecycle
import Restoration
import Testing
import TestSupport

/// A controller with two text fields with identifiers and one without; what its
/// `applicationFinishedRestoringState` and `decodeRestorableState` do to their first-responder
/// flags is set by the test.
final class FocusController: ViewController, ViewControllerRestoration {
  nonisolated(unsafe) static var onFinish: (FocusController) -> Void = { _ in }
  nonisolated(unsafe) static var onDecode: (FocusController) -> Void = { _ in }
  let first = TextField()
  let second = TextField()
  let loose = TextField()
  override func viewDidLoad() {
    super.viewDidLoad()
    first.restorationIdentifier = "First"
    second.restorationIdentifier = "Second"
    view?.addSubview(first)
    view?.addSubview(second)
    view?.addSubview(loose)
  }
  override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    Self.onDecode(self)
  }
  override func applicationFinishedRestoringState() { Self.onFinish(self) }
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    let made = FocusController()
    made.restorationIdentifier = path.last
    made.restorationClassName = "FocusController"
    return made
  }
}

@MainActor
@Suite("Restoration: the first responder goes back to the restored view that asks for it", .serialized)
struct FirstResponderPassTests {
  /// Saves a navigation controller holding a `FocusController` whose second field is being
  /// edited, then restores it with `onDecode` and `onFinish` in place; answers the restored
  /// controller and the window.
  func restore(onDecode: @escaping (FocusController) -> Void = { _ in }, onFinish: @escaping (FocusController) -> Void = { _ in })
    throws -> (FocusController, Window)
  {
    let scratch = try ScratchFolder("restoration-first-responder")
    let folder = SavedStateFolder(path: scratch.file("app.savedState"))
    let writer = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      let focus = FocusController()
      focus.restorationIdentifier = "Focus"
      focus.restorationClassName = "FocusController"
      _ = focus.view
      navigation.pushViewController(focus)
      return navigation
    }
    let (writerLifecycle, writerRestoration) = writer.install(folder)
    try writerLifecycle.launch()
    let saved = try #require((writer.root as? NavigationController)?.viewControllers.first as? FocusController)
    _ = writer.window.makeFirstResponder(saved.second)
    try writerRestoration.preserve()

    FocusController.onDecode = onDecode
    FocusController.onFinish = onFinish
    defer {
      FocusController.onDecode = { _ in }
      FocusController.onFinish = { _ in }
    }
    let app = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      return navigation
    }
    let (lifecycle, restoration) = app.install(folder)
    restoration.register(FocusController.self, as: "FocusController")
    try lifecycle.launch()
    #expect(restoration.outcome == .restored)
    let restored = try #require((app.root as? NavigationController)?.viewControllers.first as? FocusController)
    return (restored, app.window)
  }

  @Test("The field that was being edited takes the first responder back, and its flag is cleared")
  func editedField() throws {
    let (focus, window) = try restore()
    #expect(window.firstResponder === focus.second)
    #expect(!focus.second.restoresFirstResponder)
    #expect(!focus.first.restoresFirstResponder)
  }

  @Test("A flag set after the view's own decoding (by its controller's applicationFinishedRestoringState) is honoured")
  func flagSetLater() throws {
    let (focus, window) = try restore(onFinish: { controller in
      controller.second.restoresFirstResponder = false
      controller.first.restoresFirstResponder = true
    })
    #expect(window.firstResponder === focus.first)
    #expect(!focus.first.restoresFirstResponder)
  }

  @Test("Two restored views asking: each is made first responder in node order, so the later node keeps it")
  func twoAsking() throws {
    let (focus, window) = try restore(onFinish: { controller in controller.first.restoresFirstResponder = true })
    #expect(window.firstResponder === focus.second)
    #expect(!focus.first.restoresFirstResponder && !focus.second.restoresFirstResponder)
  }

  @Test("A view that was not restored (no identifier) keeps its flag and does not take the first responder")
  func unrestoredView() throws {
    let (focus, window) = try restore(onDecode: { controller in controller.loose.restoresFirstResponder = true })
    #expect(window.firstResponder === focus.second)
    #expect(focus.loose.restoresFirstResponder)
    focus.loose.restoresFirstResponder = false
  }
}
