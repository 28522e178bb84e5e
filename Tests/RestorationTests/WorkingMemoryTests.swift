import Foundation
import InterfaceObjects
import Lifecycle
import Restoration
import Testing
import TestSupport

/// A save keeps its working memory (columns, tables, coder) for the next one: what it writes must
/// not depend on what the saves before it held.
@MainActor
@Suite("Restoration: a save reusing the previous save's working memory")
struct WorkingMemoryTests {
  /// A navigation stack of `count` controllers with seeded identifiers and values, some with a
  /// text field; identifiers are unique (`Item<n>`), drawn from a seeded range.
  static func stack(count: Int, seed: UInt64) -> NavigationController {
    var random = SplitMix64(seed: seed)
    let navigation = NavigationController()
    navigation.restorationIdentifier = "Nav"
    var used = Set<Int>()
    for _ in 0..<count {
      var number = Int.random(in: 0..<(count * 4), using: &random)
      while used.contains(number) { number = Int.random(in: 0..<(count * 4), using: &random) }
      used.insert(number)
      let controller = LoggingController()
      controller.restorationIdentifier = "Item\(number)"
      controller.value = String(repeating: "é", count: Int.random(in: 0..<4, using: &random)) + "v\(Int.random(in: 0..<1_000, using: &random))"
      if Bool.random(using: &random) {
        let field = TextField()
        field.restorationIdentifier = "Field"
        field.text = "text \(Int.random(in: 0..<100, using: &random))"
        controller.view?.addSubview(field)
      }
      navigation.pushViewController(controller)
    }
    return navigation
  }

  /// What a snapshot holds, as comparable text: each node's path, class, references and state.
  static func contents(of path: String) throws -> [String] {
    let snapshot = try Snapshot(contentsOfFile: path)
    return snapshot.nodes.map { node in
      let state = node.state.keys.sorted().map { "\($0)=\(node.state[$0].map { "\($0)" } ?? "")" }
      let references = node.references.keys.sorted().map { "\($0)->\(node.references[$0] ?? [])" }
      return "\(node.path.joined(separator: "/")) \(node.className) \(references) \(state)"
    } + snapshot.excluded.map { "excluded \($0.identifier) \($0.reason)" }
  }

  /// The snapshot's string table (`StasisStrings`), read with Foundation's unarchiver.
  static func strings(of path: String) throws -> [String] {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try Data(contentsOf: URL(fileURLWithPath: path)))
    unarchiver.requiresSecureCoding = false
    return unarchiver.decodeObject(forKey: "StasisStrings") as? [String] ?? []
  }

  @Test("Saves of seeded trees that grow, shrink and change, in a row, write what a first save of each tree writes")
  func savesInARow() throws {
    let scratch = try ScratchFolder("restoration-working-memory")
    let reused = SavedStateFolder(path: scratch.file("reused.savedState"))
    var current = Self.stack(count: 40, seed: 1)
    let app = TreeApp { current }
    let (lifecycle, restoration) = app.install(reused)
    try lifecycle.launch()
    for (round, count) in [40, 120, 7, 0, 60].enumerated() {
      let tree = Self.stack(count: count, seed: UInt64(round) + 100)
      app.window.rootViewController = tree
      current = tree
      let report = try restoration.preserve()
      #expect(report.nodeCount == 1 + tree.children.count + tree.children.count { $0.view?.subviews.isEmpty == false })
      // The same tree saved by a restoration that never saved before.
      let fresh = SavedStateFolder(path: scratch.file("fresh-\(round).savedState"))
      let freshApp = TreeApp { tree }
      let (freshLifecycle, freshRestoration) = freshApp.install(fresh)
      try freshLifecycle.launch()
      let freshReport = try freshRestoration.preserve()
      #expect(try Self.contents(of: reused.currentSnapshotPath) == Self.contents(of: fresh.currentSnapshotPath), "round \(round)")
      // The same string table too: no name of an earlier save left in it.
      #expect(try Self.strings(of: reused.currentSnapshotPath) == Self.strings(of: fresh.currentSnapshotPath), "round \(round)")
      #expect(freshReport.nodeCount == report.nodeCount)
    }
  }
}
