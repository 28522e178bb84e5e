import Foundation
import InterfaceObjects
import Restoration
import RestorationSampleApp
import Testing
import TestSupport

@MainActor
@Suite("restoration why")
struct WhyTests {
  @Test("A saved node: its class, version, size and state, and what the last restoration did with it")
  func savedNode() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    showDetail(app, name: "kept")
    try app.restoration.preserve()
    let second = try sample.launch()  // restores, writing LastRestore.plist
    let result = restoration("why", "Tabs/ItemsNavigation/Detail", sample.path)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "path: Tabs/ItemsNavigation/Detail")
    #expect(lines.contains("snapshot: \(sample.folder.currentSnapshotPath)"))
    let bytes = try sample.stateBytes("Tabs/ItemsNavigation/Detail")
    #expect(lines.contains("saved: DetailViewController, view controller, state version 2, ~\(bytes) bytes"))
    #expect(lines.contains("    restoration class DetailViewController"))
    #expect(lines.contains("    item = \"item-3\""))
    #expect(
      lines.contains {
        $0.hasPrefix("last restoration (LastRestore.plist): restored, ") && $0.hasSuffix(", from \(sample.folder.currentSnapshotPath)")
      })
    #expect(lines.contains("    restored 8 of 8 nodes"))
    #expect(lines.contains("    Tabs/ItemsNavigation/Detail: restored (the file lists only the nodes not restored or with notes)"))
    #expect(lines.contains("set-aside snapshots: 0"))
    #expect(!result.stdout.contains("restoring.marker"))

    // A save after the restoration: the snapshot is no longer the one restored.
    try second.restoration.preserve()
    let later = restoration("why", "Tabs/ItemsNavigation/Detail", sample.path)
    #expect(later.stdout.contains("    Tabs/ItemsNavigation/Detail: not listed; the file lists only the nodes not restored or with notes, "))
  }

  @Test("A node under an ancestor without an identifier: the saved ancestor, the missing one, the exclusion and its reason")
  func ancestorWithoutIdentifier() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    showDetail(app, name: "lost")
    app.delegate.navigation.restorationIdentifier = nil
    try app.restoration.preserve()
    for identifier in ["List", "Detail"] {
      let result = restoration("why", "Tabs/ItemsNavigation/\(identifier)", sample.path)
      #expect(result.status == 0)
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(lines.contains("not saved: Tabs/ItemsNavigation/\(identifier) is not in the snapshot"))
      #expect(lines.contains("saved ancestor: Tabs  (TabBarController, view controller, v0, ~8 bytes)"))
      #expect(lines.contains("saved under it: Settings"))
      #expect(lines.contains("missing: Tabs/ItemsNavigation, so nothing under it was saved"))
      #expect(
        lines.contains(
          "excluded when saved: \(identifier) in Tabs/<NavigationController>: an ancestor (<NavigationController>) has no restoration identifier"))
    }
  }

  @Test("A node the last restoration did not restore: LastRestore.plist's reason")
  func notRestored() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    showDetail(app, name: "declined")
    try app.restoration.preserve()
    _ = try sample.launch { $0.restoration.register(DecliningRestoration.self, as: "DetailViewController") }
    let result = restoration("why", "Tabs/ItemsNavigation/Detail/Name", sample.path)
    #expect(result.status == 0)
    #expect(result.stdout.contains("saved: TextField, view, state version 0, "))
    #expect(
      result.stdout.contains("    Tabs/ItemsNavigation/Detail/Name: not restored: its parent Tabs/ItemsNavigation/Detail was not restored\n"))
    let detail = restoration("why", "Tabs/ItemsNavigation/Detail", sample.path)
    #expect(detail.stdout.contains("    Tabs/ItemsNavigation/Detail: not restored: its restoration class DetailViewController returned nil\n"))
  }

  @Test("An identifier nothing recorded; a restoration marker left by a crash; the set-aside snapshots; a set-aside file")
  func markerAndSetAsides() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    try app.restoration.preserve()
    try Data("snapshot data.archive\nattempt 1\ncrashes 0\ncrash 11\n".utf8).write(to: URL(fileURLWithPath: sample.folder.markerPath))
    try FileManager.default.createDirectory(atPath: sample.folder.setAsidePath, withIntermediateDirectories: true)
    let setAside = sample.folder.setAsidePath + "/20260101T000000.000Z-crashed-data.archive"
    try FileManager.default.copyItem(atPath: sample.folder.currentSnapshotPath, toPath: setAside)
    for snapshot in [sample.path, setAside] {
      let result = restoration("why", "Tabs/Missing", snapshot)
      #expect(result.status == 0)
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(lines.contains("snapshot: \(snapshot == setAside ? setAside : sample.folder.currentSnapshotPath)"))
      #expect(
        lines.contains(
          "no record of Missing: it had no restoration identifier, or did not exist under Tabs when the snapshot was saved "
            + "(a view is saved only once its view controller's view is loaded)"))
      #expect(lines.contains("restoring.marker present: a restoration was interrupted or crashed:"))
      #expect(lines.contains("    crash 11"))
      #expect(lines.contains("set-aside snapshots: 1"))
    }
  }

  @Test("A snapshot outside a saved-state folder: no record of the last restoration")
  func looseFile() throws {
    let sample = try SampleFolder()
    let app = try sample.launch()
    try app.restoration.preserve()
    try FileManager.default.copyItem(atPath: sample.folder.currentSnapshotPath, toPath: sample.scratch.file("loose.archive"))
    let result = restoration("why", "Tabs", "loose.archive", in: sample.scratch.path)
    #expect(result.status == 0)
    #expect(result.stdout.contains("saved: TabBarController, view controller, state version 0, ~8 bytes\n"))
    #expect(result.stdout.hasSuffix("no saved-state folder (the file is not in a .savedState folder): no record of the last restoration\n"))
  }
}
