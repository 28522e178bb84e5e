import FoundationEssentials
import PropertyLists
import Restoration

/// `LastRestore.plist`: the last restoration's report, with what the file adds to it — when it
/// ran and how many nodes it restored. The file lists only the nodes that were not restored or
/// have notes; the others were restored plainly.
struct LastRestoreRecord {
  var report: RestorationReport
  /// When the restoration ran.
  var date: Date?
  /// The nodes of the snapshot it restored, and how many of them were restored.
  var nodeCount: Int?
  var restoredCount: Int?

  /// Reads the file's property list; `nil` when it is not a restoration report.
  init?(propertyList: PropertyListValue) {
    guard let report = RestorationReport(propertyList: propertyList) else { return nil }
    self.report = report
    let root = propertyList.dictionaryValue
    date = root?["date"]?.dateValue
    nodeCount = root?["nodeCount"]?.intValue
    restoredCount = root?["restoredCount"]?.intValue
  }

  /// The outcome and the report's notes, then what happened to the node at `path`. `loaded`
  /// is the snapshot being examined: when it is the one restored (the same file, written
  /// before the restoration), a node of it that the file does not list was restored.
  func lines(for path: [String], loaded: LoadedSnapshot) -> [String] {
    let pathText = path.joined(separator: "/")
    var heading = "last restoration (LastRestore.plist): \(report.outcome)"
    if let date { heading += ", \(StateValueText.iso8601(date))" }
    if let snapshotPath = report.snapshotPath { heading += ", from \(snapshotPath)" }
    var lines = [heading]
    if let nodeCount, let restoredCount { lines.append("    restored \(restoredCount) of \(nodeCount) nodes") }
    lines += report.notes.map { "    note: \($0)" }
    if let outcome = report.nodes.first(where: { $0.path == path }) {
      if let restoredBy = outcome.restoredBy { lines.append("    \(pathText): restored by \(restoredBy)") }
      if let why = outcome.notRestoredBecause { lines.append("    \(pathText): not restored: \(why)") }
      lines += outcome.notes.map { "    \(pathText): \($0)" }
      return lines
    }
    switch report.outcome {
    case .restored, .recoveredFromPrevious:
      if isRestoredSnapshot(loaded), loaded.snapshot.node(at: path) != nil {
        lines.append("    \(pathText): restored (the file lists only the nodes not restored or with notes)")
      } else {
        lines.append(
          "    \(pathText): not listed; the file lists only the nodes not restored or with notes, "
            + "so it was restored if the snapshot restored then held it")
      }
    case .freshLaunch, .discarded:
      lines.append("    no node was restored")
    }
    return lines
  }

  /// Whether `loaded` is the snapshot this restoration restored: the same file (the same name in
  /// the same `.savedState` folder, since the app may have recorded a relative path), written
  /// before the restoration ran (a later save would have replaced it).
  private func isRestoredSnapshot(_ loaded: LoadedSnapshot) -> Bool {
    func lastTwo(_ path: String) -> String { path.split(separator: "/").suffix(2).joined(separator: "/") }
    guard let recorded = report.snapshotPath, loaded.path == recorded || lastTwo(loaded.path) == lastTwo(recorded) else { return false }
    guard let date else { return false }
    return loaded.snapshot.metadata.timestamp <= date
  }
}
