import StasisSystem
import Restoration

/// `restoration why PATH SNAPSHOT`: whether the object at the identifier path `PATH` was saved
/// (its class, version, size and state) or, when it was not, the saved ancestors, the first one
/// missing and what the save recorded about the object (its exclusion and reason); then, from
/// the saved-state folder, what the last restoration did with it, an unfinished restoration's
/// marker and the number of snapshots set aside.
struct WhyCommand {
  let path: [String]
  let loaded: LoadedSnapshot

  init(operands: [String], environment: HostEnvironment) throws(ToolFailure) {
    guard operands.count == 2 else {
      throw ToolFailure.usage(
        operands.count == 1 ? "why needs a snapshot file or .savedState folder after the path" : "why takes a path and a snapshot")
    }
    path = operands[0].split(separator: "/").map(String.init)
    guard !path.isEmpty else { throw ToolFailure.usage("why: the path names no identifier") }
    loaded = try LoadedSnapshot(operand: operands[1], environment: environment)
  }

  func run() -> CommandOutput {
    var lines = ["path: " + path.joined(separator: "/")] + loaded.sourceLines
    if let node = loaded.snapshot.node(at: path) {
      lines += savedLines(node)
    } else {
      lines += notSavedLines()
    }
    if let folder = loaded.folder {
      lines += FolderRecords(folder: folder).lines(for: path, loaded: loaded)
    } else {
      lines.append("no saved-state folder (the file is not in a .savedState folder): no record of the last restoration")
    }
    return CommandOutput(text: lines.map { $0 + "\n" }.joined())
  }

  private func savedLines(_ node: SnapshotNode) -> [String] {
    var lines = ["saved: \(node.className), \(node.kindText), state version \(node.stateVersion), ~\(node.stateBytes) bytes"]
    if let restorationClassName = node.restorationClassName { lines.append("    restoration class \(restorationClassName)") }
    if let storyboard = node.storyboardText { lines.append("    storyboard \(storyboard)") }
    lines += node.stateLines.map { "    " + $0 }
    // A node kept without its state (over the budget, not archivable) is also in the exclusions.
    let parent = Array(path.dropLast())
    for excluded in loaded.snapshot.excluded where excluded.identifier == path.last && excluded.location == parent {
      lines.append("noted when saved: \(excluded.reason)")
    }
    return lines
  }

  private func notSavedLines() -> [String] {
    let snapshot = loaded.snapshot
    let pathText = path.joined(separator: "/")
    var lines = ["not saved: \(pathText) is not in the snapshot"]
    var savedCount = 0
    while savedCount < path.count, snapshot.node(at: Array(path.prefix(savedCount + 1))) != nil { savedCount += 1 }
    let missing = Array(path.prefix(savedCount + 1))
    if savedCount == 0 {
      let roots = snapshot.nodes.filter { $0.path.count == 1 }.map(\.pathText)
      lines.append("no ancestor saved: the snapshot's roots are \(roots.isEmpty ? "none" : roots.joined(separator: ", "))")
    } else {
      let ancestor = snapshot.node(at: Array(path.prefix(savedCount)))!
      lines.append("saved ancestor: \(ancestor.pathText)  \(ancestor.summary)")
      let children = snapshot.nodes.filter { $0.path.dropLast() == ancestor.path[...] }.map { $0.path.last ?? "" }
      lines.append("saved under it: \(children.isEmpty ? "nothing" : children.joined(separator: ", "))")
    }
    if missing.count < path.count {
      lines.append("missing: \(missing.joined(separator: "/")), so nothing under it was saved")
    }
    // What the save said about the object and about its first missing ancestor.
    let names = Set([path.last!, missing.last!])
    let records = snapshot.excluded.filter { names.contains($0.identifier) }
    lines += records.map { "excluded when saved: \($0.line)" }
    if records.isEmpty {
      lines.append(
        "no record of \(path.last!): it had no restoration identifier, or did not exist under "
          + "\(path.count > 1 ? path.dropLast().joined(separator: "/") : "a window") when the snapshot was saved "
          + "(a view is saved only once its view controller's view is loaded)")
    }
    return lines
  }
}
