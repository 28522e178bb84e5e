import Foundation
import StasisSystem
import InterfaceObjects
import Lifecycle
import Restoration
import RestorationSampleApp
import RestorationTool
import TestSupport

/// Standard output and error of one in-process run of the tool.
final class CapturedStreams: @unchecked Sendable {
  var output: [UInt8] = []
  var error: [UInt8] = []
}

/// Runs `restoration` in-process with `arguments`, relative paths read from `directory`.
func restoration(_ arguments: String..., in directory: String = "/") -> (status: Int32, stdout: String, stderr: String) {
  restoration(arguments, in: directory)
}

/// Runs `restoration` in-process with `arguments`, relative paths read from `directory`.
func restoration(_ arguments: [String], in directory: String = "/") -> (status: Int32, stdout: String, stderr: String) {
  let streams = CapturedStreams()
  let environment = HostEnvironment(
    currentDirectory: directory,
    standardStreams: StandardStreams(
      readInput: { _ in [] }, writeOutput: { streams.output += $0 }, writeError: { streams.error += $0 }))
  let status = RestorationTool(environment: environment).run(["restoration"] + arguments)
  return (status, String(decoding: streams.output, as: UTF8.self), String(decoding: streams.error, as: UTF8.self))
}

/// A saved-state folder in a scratch folder, and the sample app's launches over it.
@MainActor struct SampleFolder {
  let scratch: ScratchFolder
  let folder: SavedStateFolder
  var path: String { folder.path }

  /// The saved state's size of the node at `path` in the current snapshot.
  func stateBytes(_ path: String) throws -> Int {
    try Snapshot(contentsOfFile: folder.currentSnapshotPath).node(at: path.split(separator: "/").map(String.init))?.stateBytes ?? -1
  }

  init() throws {
    scratch = try ScratchFolder("restoration-tool")
    folder = SavedStateFolder(path: scratch.file("Library/Saved Application State/com.example.sample.savedState"))
  }

  /// A launch of the sample app over the folder (restoring what it holds); `before` runs before
  /// the launch.
  func launch(before: (SampleApp) -> Void = { _ in }) throws -> SampleApp {
    let app = SampleApp(folder: folder)
    before(app)
    try app.lifecycle.launch()
    return app
  }
}

/// Shows the list with item-3 selected and pushes the detail of item-3 with `name` in its name
/// field; the app-wide generation is 7.
@MainActor func showDetail(_ app: SampleApp, name: String) {
  let delegate = app.delegate
  _ = delegate.list.view
  delegate.list.table.selectRow(at: IndexPath(row: 3, section: 0))
  let detail = DetailViewController()
  detail.itemIdentifier = "item-3"
  delegate.navigation.pushViewController(detail)
  _ = detail.view
  detail.nameField.text = name
  delegate.generation = 7
}

/// A restoration class that declines to make its view controller.
final class DecliningRestoration: ViewControllerRestoration {
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? { nil }
}

/// Writes `snapshot` to `name` in `scratch`; answers the file's path.
func write(_ snapshot: Snapshot, to name: String, in scratch: ScratchFolder) throws -> String {
  try scratch.write([UInt8](try snapshot.archivedData()), to: name)
  return scratch.file(name)
}

/// The metadata of the hand-made snapshots: written 2026-01-02T03:04:05Z on an iPad.
func handMadeMetadata(sequence: Int) -> SnapshotMetadata {
  SnapshotMetadata(bundleVersion: nil, idiom: 1, timestamp: Date(timeIntervalSince1970: 1_767_323_045), systemVersion: "6.1", sequence: sequence)
}
