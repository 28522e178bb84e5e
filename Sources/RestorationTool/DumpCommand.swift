import StasisSystem
import Restoration

/// `restoration dump SNAPSHOT`: the metadata, the app-wide values, the node tree (one line per
/// node, indented by depth, its state below it) and the objects left out.
struct DumpCommand {
  let loaded: LoadedSnapshot

  init(operands: [String], environment: HostEnvironment) throws(ToolFailure) {
    guard operands.count == 1 else { throw ToolFailure.usage("dump takes one snapshot file or .savedState folder") }
    loaded = try LoadedSnapshot(operand: operands[0], environment: environment)
  }

  func run() -> CommandOutput {
    let snapshot = loaded.snapshot
    var lines = loaded.sourceLines
    lines.append(snapshot.metadata.versionLine)
    lines.append(snapshot.metadata.writerLine)
    lines.append(Self.heading("app-wide values", count: snapshot.applicationState.count))
    for key in snapshot.applicationState.keys.sorted() {
      lines.append("  \(key) = \(StateValueText.compact(snapshot.applicationState[key]!))")
    }
    lines.append(Self.heading("nodes", count: snapshot.nodes.count))
    for node in snapshot.nodesInTreeOrder {
      let indent = String(repeating: "  ", count: node.path.count)
      lines.append(indent + (node.path.last ?? "") + "  " + node.summary)
      lines += node.stateLines.map { indent + "    " + $0 }
    }
    lines.append(Self.heading("excluded", count: snapshot.excluded.count))
    lines += snapshot.excluded.map { "  " + $0.line }
    return CommandOutput(text: lines.map { $0 + "\n" }.joined())
  }

  /// `nodes (9):`, or `nodes: none`.
  static func heading(_ title: String, count: Int) -> String {
    count == 0 ? "\(title): none" : "\(title) (\(count)):"
  }
}
