import Foundation
import InterfaceObjects
import Restoration
import RestorationSampleApp
import Testing
import TestSupport

@MainActor
@Suite("restoration diff")
struct DiffTests {
  @Test("Two saves of the same state are the same (exit 0); the timestamps and sequence numbers are the header")
  func identical() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    showDetail(app, name: "first")
    try app.restoration.preserve()
    try app.restoration.preserve()
    let result = restoration("diff", sample.folder.previousSnapshotPath, sample.path)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("--- A: \(sample.folder.previousSnapshotPath)  (format 3, sequence 1, written "))
    #expect(lines[1].hasPrefix("+++ B: \(sample.folder.currentSnapshotPath)  (format 3, sequence 2, written "))
    #expect(lines[2] == "the snapshots are the same (timestamps and sequence numbers aside)")
  }

  @Test("After the name is edited: exit 1, the changed key with its old and new values")
  func editedName() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    showDetail(app, name: "first")
    try app.restoration.preserve()
    app.delegate.detail?.nameField.text = "second"
    try app.restoration.preserve()
    let result = restoration("diff", sample.folder.previousSnapshotPath, sample.folder.currentSnapshotPath)
    #expect(result.status == 1)
    #expect(result.stderr == "")
    #expect(result.stdout.hasSuffix("changed: Tabs/ItemsNavigation/Detail/Name\n    ~ kTextKey: \"first\" → \"second\"\n"))
  }

  @Test("Nodes only in one snapshot, app-wide values and references are differences")
  func nodesAddedAndRemoved() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    try app.restoration.preserve()
    showDetail(app, name: "new")
    try app.restoration.preserve()
    let result = restoration("diff", sample.folder.previousSnapshotPath, sample.folder.currentSnapshotPath)
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("app-wide values:"))
    #expect(lines.contains("    ~ generation: 0 → 7"))
    let bytes = try sample.stateBytes("Tabs/ItemsNavigation/Detail")
    #expect(
      lines.contains(
        "only in B: Tabs/ItemsNavigation/Detail  (DetailViewController, view controller, v2, ~\(bytes) bytes, "
          + "restoration class DetailViewController)"))
    #expect(lines.contains { $0.hasPrefix("only in B: Tabs/ItemsNavigation/Detail/Name  (TextField, view, v0, ") })
    #expect(lines.contains("    ~ kViewControllersKey -> Tabs/ItemsNavigation/List → Tabs/ItemsNavigation/List, Tabs/ItemsNavigation/Detail"))
    #expect(!lines.contains { $0.hasPrefix("only in A:") })
  }

  @Test("Metadata other than the timestamp and sequence, class, version, restoration class, storyboard and state keys are compared")
  func nodeHeaders() throws {
    let scratch = try ScratchFolder("restoration-tool")
    let before = SnapshotNode(
      path: ["Root"], kind: .viewController, className: "Main", stateVersion: 1, state: ["kept": 1, "gone": "x", "data": Data([1, 2])])
    var after = SnapshotNode(
      path: ["Root"], kind: .viewController, className: "Main2", restorationClassName: "Maker", storyboardName: "Main",
      storyboardIdentifier: "root", stateVersion: 2, state: ["kept": 1, "new": [true], "data": Data([1, 3])])
    var first = Snapshot(metadata: handMadeMetadata(sequence: 1), nodes: [before])
    first.metadata.bundleVersion = "1.0"
    after.stateBytes = 99
    let result = restoration(
      "diff", try write(first, to: "a", in: scratch),
      try write(Snapshot(metadata: handMadeMetadata(sequence: 2), nodes: [after]), to: "b", in: scratch))
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").dropFirst(2).map(String.init)
    #expect(
      lines == [
        "metadata: bundle version: \"1.0\" → none",
        "changed: Root",
        "    class: Main → Main2",
        "    state version: 1 → 2",
        "    restoration class: none → Maker",
        "    storyboard: none → Main/root",
        "    ~ data: <2 bytes> → <2 bytes>",
        "    - gone = \"x\"",
        "    + new = [true]",
      ])
  }

  @Test("An unreadable snapshot is an error (exit 2), not a difference")
  func unreadable() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    try app.restoration.preserve()
    let result = restoration("diff", sample.path, sample.scratch.file("missing.archive"))
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.contains(sample.scratch.file("missing.archive")))
  }
}
