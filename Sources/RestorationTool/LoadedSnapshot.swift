import StasisSystem
import Restoration

/// The snapshot a `SNAPSHOT` operand names, read: a snapshot file, or a saved-state folder's
/// `data.archive`, else its `previous.archive`.
struct LoadedSnapshot {
  /// The snapshot file that was read.
  var path: String
  var snapshot: Snapshot
  /// The saved-state folder: the folder named, or the `.savedState` folder holding the file
  /// (directly or in its `Set Aside/`); `nil` for a file anywhere else.
  var folder: SavedStateFolder?
  /// Why `previous.archive` was read instead of `data.archive`, when it was.
  var fallbackNote: String?

  /// Reads the snapshot `operand` names; a relative path is read from the environment's
  /// working folder.
  ///
  /// - Throws: the `RestorationError` of the file that could not be read (for a folder whose
  ///   `data.archive` cannot be read, the error of `previous.archive` when that cannot be read
  ///   either), or a failure naming a folder that holds neither.
  init(operand: String, environment: HostEnvironment) throws(ToolFailure) {
    var path = operand.hasPrefix("/") ? operand : environment.currentDirectory + "/" + operand
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    guard let names = try? environment.fileSystem.entryNames(inFolder: path) else {
      self.path = path
      snapshot = try Self.read(path, environment: environment)
      folder = Self.enclosingFolder(ofFile: path, environment: environment)
      return
    }
    let folder = SavedStateFolder(path: path, environment: environment)
    self.folder = folder
    var currentFailure: ToolFailure?
    if names.contains("data.archive") {
      do throws(ToolFailure) {
        snapshot = try Self.read(folder.currentSnapshotPath, environment: environment)
        self.path = folder.currentSnapshotPath
        return
      } catch {
        currentFailure = error
      }
    }
    guard names.contains("previous.archive") else {
      throw currentFailure ?? ToolFailure("\(path): the folder holds no data.archive or previous.archive")
    }
    snapshot = try Self.read(folder.previousSnapshotPath, environment: environment)
    self.path = folder.previousSnapshotPath
    fallbackNote =
      currentFailure.map { "data.archive could not be read (\($0.message)); previous.archive was read instead" }
      ?? "the folder has no data.archive; previous.archive was read instead"
  }

  private static func read(_ path: String, environment: HostEnvironment) throws(ToolFailure) -> Snapshot {
    do {
      return try Snapshot(contentsOfFile: path, environment: environment)
    } catch {
      throw ToolFailure(error)
    }
  }

  /// The `.savedState` folder holding `file`, directly or in its `Set Aside/` folder.
  private static func enclosingFolder(ofFile file: String, environment: HostEnvironment) -> SavedStateFolder? {
    var parent = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
    if parent.last == "Set Aside" { parent = parent.dropLast() }
    guard let name = parent.last, name.hasSuffix(".savedState") else { return nil }
    return SavedStateFolder(path: parent.joined(separator: "/"), environment: environment)
  }

  /// `snapshot: <path>`, then the fallback note if any.
  var sourceLines: [String] {
    ["snapshot: \(path)"] + (fallbackNote.map { ["note: \($0)"] } ?? [])
  }
}
