import Foundation
import Interface
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing

/// Replays every input FuzzNibLoader crashed on (Fuzz/FailCases/FuzzNibLoader/*): a nib that
/// reads instantiates in lenient and strict mode or fails with a NibLoadingError, never a crash.
@MainActor
@Suite struct NibLoaderFuzzRegressionTests {
  nonisolated static let failCasesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/FailCases/FuzzNibLoader")

  nonisolated static var allCases: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: failCasesFolder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }

  @Test func thereAreCases() {
    #expect(!Self.allCases.isEmpty, "the folder holds the fuzzer's crashes")
  }

  @Test(arguments: allCases)
  func replay(_ name: String) throws {
    let bytes = [UInt8](try Data(contentsOf: Self.failCasesFolder.appendingPathComponent(name)))
    guard let archive = try? NIBArchive(bytes: bytes) else { return }
    let nib = Nib(graph: NibGraph(archive), name: name)
    for strict in [false, true] {
      // Every object the load made goes when the caller lets go (the fuzzer's leaks).
      var made: [WeakReference] = []
      do {
        let loaded = try nib.load(owner: GenericObject(className: "Owner"), options: Nib.Options(isStrict: strict))
        for case let view as View in loaded.objects { _ = view.window }
        made = loaded.objects.map { WeakReference($0) }
      } catch {
        #expect(!error.nib.isEmpty)
      }
      let alive = made.filter { $0.object != nil }.count
      #expect(alive == 0, "\(name): \(alive) of \(made.count) objects outlive the load")
    }
  }

  /// An AppKit nib graph whose top-level objects are `top` (made by `build`, given the graph).
  static func appKitGraph(_ build: (inout NibGraph) -> [Int]) -> NibGraph {
    var graph = NibGraph(rootClass: "NSObject")
    let owner = graph.add("NSCustomObject", [.init("NSClassName", .object(graph.string("NSObject")))])
    let top = build(&graph)
    let data = graph.add("NSIBObjectData", [
      .init("NSRoot", .object(owner)),
      .init("NSObjectsKeys", .object(graph.collection("NSArray", top))),
      .init("NSObjectsValues", .object(graph.collection("NSArray", top.map { _ in owner }))),
      .init("NSConnections", .object(graph.collection("NSMutableArray", []))),
    ])
    graph.append("IB.objectdata", .object(data), to: graph.root)
    return graph
  }

  /// Unknown classes referring to each other, and a menu whose item's submenu is the menu
  /// itself: the cycles are cut, so everything goes when the caller lets go.
  @Test func hostileCyclesAreCut() throws {
    let graph = Self.appKitGraph { graph in
      let first = graph.add("Unknown")
      let second = graph.add("Unknown", [.init("partner", .object(first))])
      graph.append("partner", .object(second), to: first)
      // A cycle through an array value: first → [third] → first; and through a dictionary
      // inside an array: first → [[key: fourth]] → fourth → first.
      let third = graph.add("Unknown", [.init("owner", .object(first))])
      graph.append("members", .object(graph.collection("NSArray", [third])), to: first)
      let fourth = graph.add("Unknown", [.init("owner", .object(first))])
      let key = graph.string("key")
      let dictionary = graph.collection("NSDictionary", [key, fourth])
      graph.append("nested", .object(graph.collection("NSArray", [dictionary])), to: first)
      let menu = graph.add("NSMenu")
      let item = graph.add("NSMenuItem", [.init("NSSubmenu", .object(menu))])
      graph.append("NSMenuItems", .object(graph.collection("NSArray", [item])), to: menu)
      return [first, menu]
    }
    weak var generic: AnyObject?
    weak var member: AnyObject?
    weak var nestedMember: AnyObject?
    weak var menu: Menu?
    do {
      let loaded = try Nib(graph: graph, name: "cycles.nib").load(owner: nil)
      #expect(loaded.topLevelObjects.count == 2)
      generic = loaded.topLevelObjects[0]
      member = ((generic as? GenericObject)?["members"] as? [Any])?.first as AnyObject?
      #expect(member is GenericObject)
      let nested = ((generic as? GenericObject)?["nested"] as? [Any])?.first as? [String: Any]
      nestedMember = nested?["key"] as AnyObject?
      #expect(nestedMember is GenericObject)
      menu = loaded.topLevelObjects[1] as? Menu
      #expect(menu?.items.first?.submenu == nil, "the submenu that contains its own item is dropped")
      #expect(loaded.warnings.contains { $0.contains("reference cycles") })
      #expect((generic as? GenericObject)?["partner"] != nil, "a cut reference is still readable while its object lives")
    }
    #expect(generic == nil && member == nil && nestedMember == nil && menu == nil)
  }

  /// A cycle through known classes' own references and a generic object: generic → window →
  /// content view (a button) → its cell → the cell's formatter → the generic object.
  @Test func cyclesThroughKnownClassesAreCut() throws {
    let graph = Self.appKitGraph { graph in
      let generic = graph.add("Unknown")
      let cell = graph.add("NSButtonCell", [.init("NSFormatter", .object(generic))])
      let button = graph.add("NSButton", [.init("NSCell", .object(cell))])
      let window = graph.add("NSWindowTemplate", [.init("NSWindowView", .object(button))])
      graph.append("window", .object(window), to: generic)
      return [generic]
    }
    weak var generic: AnyObject?
    weak var window: Window?
    weak var button: Button?
    do {
      let loaded = try Nib(graph: graph, name: "known-cycles.nib").load(owner: nil)
      generic = loaded.topLevelObjects.first
      window = (generic as? GenericObject)?["window"] as? Window
      button = window?.contentView as? Button
      #expect(button?.cell != nil)
      #expect(loaded.warnings.contains { $0.contains("reference cycle") })
    }
    #expect(generic == nil && window == nil && button == nil)
  }

  /// A box whose content view is its own superview (a view held beside the subviews, pointed
  /// back up the tree): the cycle is cut, everything goes with the caller's reference.
  @Test func viewsHeldBesideSubviewsCannotKeepTheirAncestors() throws {
    let graph = Self.appKitGraph { graph in
      let parent = graph.add("NSView")
      let box = graph.add("NSBox", [.init("NSContentView", .object(parent))])
      graph.append("NSSubviews", .object(graph.collection("NSMutableArray", [box])), to: parent)
      return [parent]
    }
    weak var parent: View?
    weak var box: Box?
    do {
      let loaded = try Nib(graph: graph, name: "box-cycle.nib").load(owner: nil)
      parent = loaded.topLevelObjects.first as? View
      box = parent?.subviews.first as? Box
      #expect(box != nil)
    }
    #expect(parent == nil && box == nil)
  }

  /// View controllers cannot be made each other's children or presenters (a hostile storyboard
  /// could ask for it): the second call is refused.
  @Test func controllersRefuseCycles() {
    let first = ViewController()
    let second = ViewController()
    first.addChild(second)
    second.addChild(first)
    #expect(second.children.isEmpty && first.parent == nil)
    first.present(second)
    second.present(first)
    #expect(second.presentedViewController == nil)
  }
}
