import StasisSystem
import FoundationEssentials
import PropertyLists
import Restoration

/// What a saved-state folder records beside its snapshots: the last restoration
/// (`LastRestore.plist`), the marker of a restoration that did not finish (`restoring.marker`),
/// the snapshots set aside.
struct FolderRecords {
  let folder: SavedStateFolder
  /// The last restoration, when `LastRestore.plist` exists and reads.
  var lastRestore: LastRestoreRecord?
  /// Why `LastRestore.plist` exists but could not be used.
  var lastRestoreProblem: String?
  /// The marker's text, when a restoration was interrupted or crashed.
  var marker: String?
  var setAsideCount: Int

  init(folder: SavedStateFolder) {
    self.folder = folder
    setAsideCount = folder.setAsideSnapshots.count
    marker = Self.contents(of: folder.markerPath, in: folder).map { String(decoding: $0, as: UTF8.self) }
    guard let data = Self.contents(of: folder.lastRestorePath, in: folder) else { return }
    do {
      lastRestore = LastRestoreRecord(propertyList: try PropertyListValue(decoding: data))
      if lastRestore == nil { lastRestoreProblem = "it is a property list but not a restoration report" }
    } catch {
      lastRestoreProblem = "\(error)"
    }
  }

  /// The file's bytes; `nil` when it is missing or cannot be read.
  private static func contents(of path: String, in folder: SavedStateFolder) -> Data? {
    try? folder.fileSystem.read(contentsOfFile: path, limit: 16 << 20)
  }

  /// What the last restoration did with the node at `path` (of the snapshot `loaded`), the
  /// marker and the set-asides.
  func lines(for path: [String], loaded: LoadedSnapshot) -> [String] {
    var lines: [String] = []
    if let lastRestore {
      lines += lastRestore.lines(for: path, loaded: loaded)
    } else if let lastRestoreProblem {
      lines.append("last restoration: \(folder.lastRestorePath) could not be read: \(lastRestoreProblem)")
    } else {
      lines.append("last restoration: none recorded (no LastRestore.plist)")
    }
    if let marker {
      lines.append("restoring.marker present: a restoration was interrupted or crashed:")
      lines += marker.split(separator: "\n").map { "    " + $0 }
    }
    lines.append("set-aside snapshots: \(setAsideCount)")
    return lines
  }
}
