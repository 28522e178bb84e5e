import Foundation
import InterfaceObjects
import Lifecycle
import Restoration
import Testing
import TestSupport

@MainActor
@Suite("Preservation: siblings' identifiers — views and child controllers share their controller's names")
struct SiblingNameTests {
  /// A controller named `identifier` whose own view holds views named `viewNames` (in order).
  func controller(_ identifier: String, views viewNames: [String]) -> ViewController {
    let controller = ViewController()
    controller.restorationIdentifier = identifier
    for name in viewNames {
      let view = View()
      view.restorationIdentifier = name
      controller.view?.addSubview(view)
    }
    return controller
  }

  @Test("A second view or a child controller with a name already used under the controller is left out and named; with few views and with many")
  func repeatedNames() throws {
    let scratch = try ScratchFolder("restoration-sibling-names")
    let folder = SavedStateFolder(path: scratch.file("app.savedState"))
    let manyNames = (0..<20).map { "L\($0)" }
    let app = TreeApp {
      let root = self.controller("Root", views: ["A", "A", "B"])
      root.addChild(self.controller("B", views: []))
      root.addChild(self.controller("C", views: ["A"]))
      // Past the few views a scan checks: the names go through the table.
      let many = self.controller("Many", views: manyNames + ["L3"])
      many.addChild(self.controller("L5", views: []))
      many.addChild(self.controller("Other", views: []))
      root.addChild(many)
      return root
    }
    let (lifecycle, restoration) = app.install(folder)
    try lifecycle.launch()
    let report = try restoration.preserve()
    #expect(report.excluded.map(\.identifier) == ["A", "B", "L3", "L5"])
    #expect(report.excluded.map(\.reason) == [
      "another object already has the path Root/A", "another object already has the path Root/B",
      "another object already has the path Root/Many/L3", "another object already has the path Root/Many/L5",
    ])
    // Root, A, B (the view), C with its own A, Many with its 20 views, Other.
    #expect(report.nodeCount == 1 + 2 + 2 + 1 + 20 + 1)
    let paths = try Snapshot(contentsOfFile: folder.currentSnapshotPath).nodes.map { $0.path.joined(separator: "/") }
    #expect(paths.filter { $0 == "Root/A" }.count == 1)
    #expect(paths.contains("Root/C/A") && paths.contains("Root/Many/Other") && paths.contains("Root/Many/L19"))
  }
}
