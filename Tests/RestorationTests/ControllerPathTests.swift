import Foundation
import InterfaceObjects
import Lifecycle
import Restoration
import Testing
import TestSupport

/// A controller whose restoration class notes the identifier path it is asked to make, and
/// which keeps a value to show that its state came back.
final class PathNotingController: ViewController, ViewControllerRestoration {
  nonisolated(unsafe) static var askedPaths: [[String]] = []
  var value = 0
  override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(value, forKey: "value")
  }
  override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    value = coder.decodeInteger(forKey: "value") ?? -1
  }
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    askedPaths.append(path)
    let made = PathNotingController()
    made.restorationIdentifier = path.last
    made.restorationClassName = "PathNotingController"
    return made
  }
}

/// A navigation controller made by its restoration class (so that nested stacks come back).
final class PathNotingNavigation: NavigationController, ViewControllerRestoration {
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    PathNotingController.askedPaths.append(path)
    let made = PathNotingNavigation()
    made.restorationIdentifier = path.last
    made.restorationClassName = "PathNotingNavigation"
    return made
  }
}

@MainActor
@Suite("Restoration: the identifier paths restoration classes are asked for", .serialized)
struct ControllerPathTests {
  /// A seeded tree below the root navigation controller: stacks of plain controllers and of
  /// navigation controllers holding stacks of their own, some controllers presenting another,
  /// down to four levels; `counter` numbers the values.
  static func makeStack(in navigation: NavigationController, depth: Int, rng: inout SplitMix64, counter: inout Int) {
    for position in 0..<Int.random(in: 1...4, using: &rng) {
      let child: ViewController
      if depth < 4, Int.random(in: 0..<3, using: &rng) == 0 {
        let nested = PathNotingNavigation()
        nested.restorationClassName = "PathNotingNavigation"
        makeStack(in: nested, depth: depth + 1, rng: &rng, counter: &counter)
        child = nested
      } else {
        let plain = PathNotingController()
        plain.restorationClassName = "PathNotingController"
        counter += 1
        plain.value = counter
        if depth < 4, Int.random(in: 0..<4, using: &rng) == 0 {
          let presented = PathNotingController()
          presented.restorationIdentifier = "Presented"
          presented.restorationClassName = "PathNotingController"
          counter += 1
          presented.value = counter
          plain.present(presented)
        }
        child = plain
      }
      child.restorationIdentifier = "C\(position)"
      navigation.pushViewController(child)
    }
  }

  /// Every controller below `controller`, depth first, with its path, its value when it keeps one.
  static func listing(_ controller: ViewController, above: [String]) -> [String] {
    let path = above + [controller.restorationIdentifier ?? "?"]
    var lines = [path.joined(separator: "/") + " " + ((controller as? PathNotingController).map { "\($0.value)" } ?? "-")]
    for child in controller.children { lines += listing(child, above: path) }
    if let presented = controller.presentedViewController { lines += listing(presented, above: path) }
    return lines
  }

  @Test("Every controller's class gets its whole saved path — leaves, parents of stacks, presented ones — and its state comes back", arguments: [3, 18, 77, 512])
  func pathsAtEveryDepth(seed: UInt64) throws {
    let scratch = try ScratchFolder("restoration-controller-paths")
    defer { scratch.remove() }
    let folder = SavedStateFolder(path: scratch.file("app.savedState"))
    var rng = SplitMix64(seed: seed)
    var counter = 0
    let writer = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Root"
      Self.makeStack(in: navigation, depth: 1, rng: &rng, counter: &counter)
      return navigation
    }
    let (writerLifecycle, writerRestoration) = writer.install(folder)
    try writerLifecycle.launch()
    try writerRestoration.preserve()
    let saved = try #require(writer.root)

    let snapshot = try Snapshot(contentsOfFile: folder.currentSnapshotPath)
    let savedControllerPaths = snapshot.nodes.filter { $0.kind == .viewController && $0.path.count > 1 }.map(\.path)
    #expect(!savedControllerPaths.isEmpty)

    PathNotingController.askedPaths = []
    let app = TreeApp {
      let navigation = NavigationController()
      navigation.restorationIdentifier = "Root"
      return navigation
    }
    let (lifecycle, restoration) = app.install(folder)
    restoration.register(PathNotingController.self, as: "PathNotingController")
    restoration.register(PathNotingNavigation.self, as: "PathNotingNavigation")
    try lifecycle.launch()

    #expect(PathNotingController.askedPaths == savedControllerPaths, "seed \(seed)")
    let restored = try #require(app.root)
    #expect(Self.listing(restored, above: []) == Self.listing(saved, above: []), "seed \(seed)")
    #expect(restoration.lastRestoration?.nodes.allSatisfy(\.isRestored) == true)
  }
}
