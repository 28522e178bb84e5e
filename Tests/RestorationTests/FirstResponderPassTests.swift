import Foundation
import InterfaceObjects
import Lifecycle
import Restoration
import Testing
import TestSupport

/// A controller with two text fields with identifiers and one without; what its
/// `applicationFinishedRestoringState` and `decodeRestorableState` do to their first-responder
/// flags is set by the test.
final class FirstResponderController: ViewController, ViewControllerRestoration {
  nonisolated(unsafe) static var onFinish: (FirstResponderController) -> Void = { _ in }
  nonisolated(unsafe) static var onDecode: (FirstResponderController) -> Void = { _ in }
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
    let made = FirstResponderController()
    made.restorationIdentifier = path.last
    made.restorationClassName = "FirstResponderController"
    return made
  }
}

@MainActor
@Suite("Restoration: the first responder goes back to the restored view that asks for it", .serialized)
struct FirstResponderPassTests {
  /// Saves a navigation controller holding a `FirstResponderController` whose second field is being
  /// edited, then restores it with `onDecode` and `onFinish` in place; answers the restored
  /// controller and the window.
  func restore(onDecode: @escaping (FirstResponderController) -> Void = { _ in }, onFinish: @escaping (FirstResponderController) -> Void = { _ in })
    throws -> (FirstResponderController, Window)
  {
    let scratch = try ScratchFolder("restoration-first-responder")
    let folder = SavedStateFolder(path: scratch.file("app.savedState"))
    let writer = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      let focus = FirstResponderController()
      focus.restorationIdentifier = "Focus"
      focus.restorationClassName = "FirstResponderController"
      _ = focus.view
      navigation.pushViewController(focus)
      return navigation
    }
    let (writerLifecycle, writerRestoration) = writer.install(folder)
    try writerLifecycle.launch()
    let saved = try #require((writer.root as? NavigationController)?.viewControllers.first as? FirstResponderController)
    writer.window.contentView = saved.view
    #expect(writer.window.makeFirstResponder(saved.second))
    try writerRestoration.preserve()

    FirstResponderController.onDecode = onDecode
    FirstResponderController.onFinish = onFinish
    defer {
      FirstResponderController.onDecode = { _ in }
      FirstResponderController.onFinish = { _ in }
    }
    let app = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      return navigation
    }
    let (lifecycle, restoration) = app.install(folder)
    restoration.register(FirstResponderController.self, as: "FirstResponderController")
    try lifecycle.launch()
    #expect(restoration.outcome == .restored)
    let restored = try #require((app.root as? NavigationController)?.viewControllers.first as? FirstResponderController)
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
