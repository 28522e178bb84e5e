import Foundation
import InterfaceObjects
import Restoration
import RestorationSampleApp
import Testing
import TestSupport

@MainActor
@Suite("restoration dump")
struct DumpTests {
  @Test("Prints the metadata, the app-wide values, every node indented by depth with its class, state values and references")
  func everyNode() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    showDetail(app, name: "Güzel ✓ \"quoted\"")
    try app.restoration.preserve()
    let snapshot = try Snapshot(contentsOfFile: sample.folder.currentSnapshotPath)
    #expect(snapshot.nodes.count == 8)

    let result = restoration("dump", sample.path)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "snapshot: \(sample.folder.currentSnapshotPath)")
    #expect(lines.contains("format 3, sequence 1, written \(iso8601(snapshot.metadata.timestamp))"))
    #expect(lines.contains { $0.hasPrefix("bundle version \"7\", idiom 0 (phone), system version ") })
    #expect(lines.contains("  generation = 7"))
    for node in snapshot.nodes {
      let indent = String(repeating: "  ", count: node.path.count)
      let line = "\(indent)\(node.path.last!)  (\(node.className), \(node.kind == .view ? "view" : "view controller"), v\(node.stateVersion)"
      #expect(lines.contains { $0.hasPrefix(line) }, "\(node.path)")
    }
    let bytes = try sample.stateBytes("Tabs/ItemsNavigation/Detail")
    #expect(lines.contains("      Detail  (DetailViewController, view controller, v2, ~\(bytes) bytes, restoration class DetailViewController)"))
    #expect(lines.contains("          item = \"item-3\""))
    #expect(lines.contains("            kTextKey = \"Güzel ✓ \\\"quoted\\\"\""))
    #expect(lines.contains("            kEditingKey = false"))
    #expect(lines.contains("        kViewControllersKey -> Tabs/ItemsNavigation/List, Tabs/ItemsNavigation/Detail"))
    #expect(lines.contains("excluded: none"))
    // The tree order: each node right after its parent's subtree began.
    let nodeLines = lines.filter { $0.contains("  (") }.map { $0.split(separator: " ").first.map(String.init) ?? "" }
    #expect(nodeLines == ["Tabs", "ItemsNavigation", "List", "Table", "Detail", "Name", "Notes", "Settings"])
  }

  @Test("Values are compact and deterministic: strings quoted and escaped, sorted dictionaries, ISO 8601 dates, data by size")
  func valueRendering() throws {
    let scratch = try ScratchFolder("restoration-tool")
    let state: [String: Any] = [
      "when": Date(timeIntervalSince1970: 1_767_323_045.5), "blob": Data([1, 2, 3]), "flags": ["b": true, "a": 2.5] as [String: Any],
      "list": [1, "two", [3]] as [Any], "line": "a\tb\n\u{1}",
    ]
    let node = SnapshotNode(
      path: ["Root"], kind: .viewController, className: "Main", storyboardName: "Main", storyboardIdentifier: "root", stateVersion: 3,
      state: state, references: ["peer": [["Root"]], "none": []], stateBytes: 120)
    let snapshot = Snapshot(metadata: handMadeMetadata(sequence: 4), applicationState: ["empty": [:] as [String: Any]], nodes: [node])
    let result = restoration("dump", try write(snapshot, to: "made.archive", in: scratch))
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        snapshot: \(scratch.file("made.archive"))
        format 3, sequence 4, written 2026-01-02T03:04:05Z
        bundle version none, idiom 1 (pad), system version "6.1"
        app-wide values (1):
          empty = {}
        nodes (1):
          Root  (Main, view controller, v3, ~120 bytes, storyboard Main/root)
              blob = <3 bytes>
              flags = {"a": 2.5, "b": true}
              line = "a\\tb\\n\\u{1}"
              list = [1, "two", [3]]
              when = 2026-01-02T03:04:05.500Z
              none -> (nothing)
              peer -> Root
        excluded: none

        """)
  }

  @Test("The objects left out are listed with their reasons")
  func excludedObjects() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    showDetail(app, name: "x")
    app.delegate.navigation.restorationIdentifier = nil
    try app.restoration.preserve()
    let result = restoration("dump", sample.folder.currentSnapshotPath)
    #expect(result.status == 0)
    #expect(result.stdout.contains("excluded (2):\n"))
    #expect(result.stdout.contains("  List in Tabs/<NavigationController>: an ancestor (<NavigationController>) has no restoration identifier\n"))
    #expect(result.stdout.contains("  Detail in Tabs/<NavigationController>: "))
  }

  @Test("A truncated snapshot file fails with status 2 and a message naming the file")
  func truncatedFile() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    try app.restoration.preserve()
    let bytes = try sample.scratch.read("Library/Saved Application State/com.example.sample.savedState/data.archive")
    try sample.scratch.write(Array(bytes.prefix(bytes.count / 2)), to: "torn.archive")
    let result = restoration("dump", "torn.archive", in: sample.scratch.path)
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("restoration: \(sample.scratch.file("torn.archive")): not a keyed archive"))
  }

  @Test("A folder whose data.archive is torn is read from previous.archive, and the output says so")
  func fallsBackToPrevious() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    try app.restoration.preserve()
    try app.restoration.preserve()
    let current = "Library/Saved Application State/com.example.sample.savedState/data.archive"
    try sample.scratch.write(Array(try sample.scratch.read(current).prefix(100)), to: current)
    let result = restoration("dump", sample.path)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("snapshot: \(sample.folder.previousSnapshotPath)\nnote: data.archive could not be read ("))
    #expect(result.stdout.contains("format 3, sequence 1, "))
  }

  @Test("A missing file fails with status 2, naming it")
  func missingFile() throws {
    let result = restoration("dump", "/nonexistent/data.archive")
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("restoration: /nonexistent/data.archive: the snapshot could not be read"))
  }
}

func iso8601(_ date: Date) -> String {
  date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
}
