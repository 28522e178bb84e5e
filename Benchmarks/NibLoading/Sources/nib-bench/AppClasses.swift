// The app's own classes the generated nib and storyboard name: File's Owner (`BenchOwner`,
// outlets in a key table, actions in an action table), a custom view class (`BenchPanel`, two keys
// of its own for runtime attributes) and the storyboard's view controller (`BenchViewController`).
// Registered beside the headless interface classes.
import InterfaceObjects
import NibLoading
import ObjectModel

/// The generated nib's File's Owner, as an app's window controller would be.
final class BenchOwner: NibObject {
  var window: Window?
  var statusLabel: TextField?
  var nameField: TextField?
  var lastField: TextField?
  var volumeSlider: Slider?
  var okButton: Button?
  var firstPanel: BenchPanel?
  var actionsPerformed = 0
  var awakeCount = 0

  required init() { super.init() }

  /// The outlets the xib connects (`<outlet property=…>` from File's Owner).
  static let ownerKeys = KeyTable(for: BenchOwner.self) {
    $0.key("window", \.window)
    $0.key("statusLabel", \.statusLabel)
    $0.key("nameField", \.nameField)
    $0.key("lastField", \.lastField)
    $0.key("volumeSlider", \.volumeSlider)
    $0.key("okButton", \.okButton)
    $0.key("firstPanel", \.firstPanel)
  }
  override class var keyTable: KeyTable { ownerKeys }

  /// The actions the xib's controls and menu items send to File's Owner.
  static let ownerActions = ActionTable(for: BenchOwner.self) {
    for selector in BenchOwner.selectors {
      $0.action(selector) { owner, _ in owner.actionsPerformed += 1 }
    }
  }
  override class var actionTable: ActionTable { ownerActions }

  static let selectors = [
    "save:", "revert:", "apply:", "textChanged:", "sliderChanged:", "newDocument:", "openDocument:", "showHelp:",
  ]

  override func awakeFromNib() {
    super.awakeFromNib()
    awakeCount += 1
  }
}

/// A custom view class (`customClass="BenchPanel"`): made through the registry from the nib's
/// `NSCustomView` class name, with keys of its own that runtime attributes set.
final class BenchPanel: View {
  var accentLevel = 0
  var caption: String?
  var awakeCount = 0

  required init() { super.init() }

  static let panelKeys = KeyTable(for: BenchPanel.self, inheriting: View.viewKeys) {
    $0.key("accentLevel", \.accentLevel)
    $0.key("caption", \.caption)
  }
  override class var keyTable: KeyTable { panelKeys }

  override func awakeFromNib() {
    super.awakeFromNib()
    awakeCount += 1
  }
}

/// The generated storyboard's view controller: File's Owner's outlets and actions, on the
/// controller whose view the scene's nib holds.
final class BenchViewController: ViewController {
  var statusLabel: TextField?
  var nameField: TextField?
  var lastField: TextField?
  var volumeSlider: Slider?
  var okButton: Button?
  var firstPanel: BenchPanel?
  var actionsPerformed = 0

  required init() { super.init() }

  static let controllerKeys = KeyTable(for: BenchViewController.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("statusLabel", \.statusLabel)
    $0.key("nameField", \.nameField)
    $0.key("lastField", \.lastField)
    $0.key("volumeSlider", \.volumeSlider)
    $0.key("okButton", \.okButton)
    $0.key("firstPanel", \.firstPanel)
  }
  override class var keyTable: KeyTable { controllerKeys }

  static let controllerActions = ActionTable(for: BenchViewController.self) {
    for selector in BenchOwner.selectors {
      $0.action(selector) { controller, _ in controller.actionsPerformed += 1 }
    }
  }
  override class var actionTable: ActionTable { controllerActions }
}

/// The headless interface classes plus the app's.
let benchClasses: ClassRegistry = {
  var registry = ClassRegistry.interfaceObjects
  registry.register(BenchOwner.self, as: "BenchOwner", makeInstanceOnMainActor: { BenchOwner() })
  registry.register(BenchPanel.self, as: "BenchPanel", makeInstanceOnMainActor: { BenchPanel() })
  registry.register(BenchViewController.self, as: "BenchViewController", makeInstanceOnMainActor: { BenchViewController() })
  return registry
}()

/// Strict: every class, outlet, key and selector of the generated nib must resolve (a fast load
/// that skipped half the nib would fail).
@MainActor func benchOptions() -> Nib.Options { Nib.Options(classes: benchClasses, isStrict: true) }
