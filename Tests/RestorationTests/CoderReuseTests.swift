import Foundation
import InterfaceObjects
import Lifecycle
import Restoration
import Testing
import TestSupport

/// A controller with a text field whose restoration class keeps the coder it is given for the
/// nodes named `Kept…` (every other node's coder may be reused by the restore once no one holds
/// it), and notes which coder each node's state comes in.
final class CoderKeepingController: ViewController, ViewControllerRestoration {
  nonisolated(unsafe) static var keptCoders: [[String]: StateDecoder] = [:]
  nonisolated(unsafe) static var decodedWithKept: [[String]: Bool] = [:]
  var value = ""
  let field = TextField()
  override func viewDidLoad() {
    super.viewDidLoad()
    field.restorationIdentifier = "Field"
    view?.addSubview(field)
  }
  override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(value, forKey: "value")
  }
  override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    value = coder.decode(String.self, forKey: "value") ?? ""
    if let path = (coder as? StateDecoder)?.path, let kept = Self.keptCoders[path] { Self.decodedWithKept[path] = kept === coder }
  }
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    if path.last?.hasPrefix("Kept") == true { keptCoders[path] = coder }
    let made = CoderKeepingController()
    made.restorationIdentifier = path.last
    made.restorationClassName = "CoderKeepingController"
    return made
  }
}

@MainActor
@Suite("Restoration: coders reused between nodes only when no one keeps them", .serialized)
struct CoderReuseTests {
  @Test("A coder the app keeps stays its node's through both phases; the nodes around it still get their own values")
  func keptCoders() throws {
    let scratch = try ScratchFolder("restoration-coder-reuse")
    let folder = SavedStateFolder(path: scratch.file("app.savedState"))
    let names = (0..<6).map { $0.isMultiple(of: 2) ? "Kept\($0)" : "Item\($0)" }
    let writer = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      for (position, name) in names.enumerated() {
        let controller = CoderKeepingController()
        controller.restorationIdentifier = name
        controller.restorationClassName = "CoderKeepingController"
        controller.value = "value \(position)"
        _ = controller.view
        controller.field.text = "field \(position)"
        navigation.pushViewController(controller)
      }
      return navigation
    }
    let (writerLifecycle, writerRestoration) = writer.install(folder)
    try writerLifecycle.launch()
    try writerRestoration.preserve()

    CoderKeepingController.keptCoders = [:]
    CoderKeepingController.decodedWithKept = [:]
    let app = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Nav"
      return navigation
    }
    let (lifecycle, restoration) = app.install(folder)
    restoration.register(CoderKeepingController.self, as: "CoderKeepingController")
    try lifecycle.launch()

    let stack = try #require((app.root as? NavigationController)?.viewControllers)
    #expect(stack.count == 6)
    for (position, controller) in stack.enumerated() {
      let restored = try #require(controller as? CoderKeepingController)
      #expect(restored.value == "value \(position)")
      #expect(restored.field.text == "field \(position)")
      let path = ["Nav", names[position]]
      if position.isMultiple(of: 2) {
        #expect(CoderKeepingController.decodedWithKept[path] == true, "the kept coder decodes its own node's state")
        let coder = try #require(CoderKeepingController.keptCoders[path])
        #expect(coder.path == path, "a kept coder is never made another node's")
        #expect(coder.decodeObject(forKey: "value") as? String == "value \(position)")
      }
    }
    #expect(CoderKeepingController.keptCoders.count == 3)
    #expect(restoration.lastRestoration?.nodes.count == 13)
    #expect(restoration.lastRestoration?.nodes.allSatisfy(\.isRestored) == true)
  }
}
