import StasisSystem
import Restoration
import PropertyLists

/// `restoration diff A B`: what changed from snapshot A to snapshot B. The metadata's
/// timestamps and sequence numbers are printed as the header and do not count as changes;
/// everything else does: the other metadata, the app-wide values, nodes only in A or only in B,
/// and for a node in both its class, state version, restoration class, storyboard, state keys
/// (added, removed, changed old → new), references and state failure.
struct DiffCommand {
  let first: LoadedSnapshot
  let second: LoadedSnapshot

  init(operands: [String], environment: HostEnvironment) throws(ToolFailure) {
    guard operands.count == 2 else { throw ToolFailure.usage("diff takes two snapshot files or .savedState folders") }
    first = try LoadedSnapshot(operand: operands[0], environment: environment)
    second = try LoadedSnapshot(operand: operands[1], environment: environment)
  }

  func run() -> CommandOutput {
    var lines = [
      "--- A: \(first.path)  (\(first.snapshot.metadata.versionLine))",
      "+++ B: \(second.path)  (\(second.snapshot.metadata.versionLine))",
    ]
    lines += [first.fallbackNote.map { "note: A: \($0)" }, second.fallbackNote.map { "note: B: \($0)" }].compactMap { $0 }
    var changes = metadataChanges()
    let appChanges = Self.stateChanges(first.snapshot.applicationState, second.snapshot.applicationState)
    if !appChanges.isEmpty { changes += ["app-wide values:"] + appChanges.map { "    " + $0 } }
    let old = Dictionary(first.snapshot.nodes.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    let new = Dictionary(second.snapshot.nodes.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    for node in first.snapshot.nodesInTreeOrder where new[node.path] == nil {
      changes.append("only in A: \(node.pathText)  \(node.summary)")
    }
    for node in second.snapshot.nodesInTreeOrder where old[node.path] == nil {
      changes.append("only in B: \(node.pathText)  \(node.summary)")
    }
    for node in first.snapshot.nodesInTreeOrder {
      guard let other = new[node.path] else { continue }
      let nodeChanges = Self.nodeChanges(node, other)
      if !nodeChanges.isEmpty { changes += ["changed: \(node.pathText)"] + nodeChanges.map { "    " + $0 } }
    }
    lines += changes.isEmpty ? ["the snapshots are the same (timestamps and sequence numbers aside)"] : changes
    return CommandOutput(
      text: lines.map { $0 + "\n" }.joined(), status: changes.isEmpty ? RestorationTool.successStatus : RestorationTool.differentStatus)
  }

  private func metadataChanges() -> [String] {
    let (a, b) = (first.snapshot.metadata, second.snapshot.metadata)
    var lines: [String] = []
    func compare(_ name: String, _ old: String, _ new: String) {
      if old != new { lines.append("metadata: \(name): \(old) → \(new)") }
    }
    compare("format", "\(a.format)", "\(b.format)")
    compare("bundle version", a.bundleVersion.map(QuotedText.oneLine) ?? "none", b.bundleVersion.map(QuotedText.oneLine) ?? "none")
    compare("idiom", a.idiomText, b.idiomText)
    compare("system version", QuotedText.oneLine(a.systemVersion), QuotedText.oneLine(b.systemVersion))
    return lines
  }

  /// What changed in a node found in both snapshots, one line each.
  static func nodeChanges(_ a: SnapshotNode, _ b: SnapshotNode) -> [String] {
    var lines: [String] = []
    func compare(_ name: String, _ old: String?, _ new: String?) {
      if old != new { lines.append("\(name): \(old ?? "none") → \(new ?? "none")") }
    }
    compare("kind", a.kindText, b.kindText)
    compare("class", a.className, b.className)
    compare("state version", "\(a.stateVersion)", "\(b.stateVersion)")
    compare("restoration class", a.restorationClassName, b.restorationClassName)
    compare("storyboard", a.storyboardText, b.storyboardText)
    lines += stateChanges(a.state, b.state)
    for key in Set(a.references.keys).union(b.references.keys).sorted() {
      switch (a.references[key], b.references[key]) {
      case (nil, let added?): lines.append("+ \(key) -> \(SnapshotNode.pathsText(added))")
      case (let removed?, nil): lines.append("- \(key) -> \(SnapshotNode.pathsText(removed))")
      case (let old?, let new?) where old != new:
        lines.append("~ \(key) -> \(SnapshotNode.pathsText(old)) → \(SnapshotNode.pathsText(new))")
      default: break
      }
    }
    compare("state failure", a.stateFailure, b.stateFailure)
    return lines
  }

  /// Keys added (`+ key = value`), removed (`- key = value`) and changed (`~ key: old → new`),
  /// in key order.
  static func stateChanges(_ a: [String: Any], _ b: [String: Any]) -> [String] {
    var lines: [String] = []
    for key in Set(a.keys).union(b.keys).sorted() {
      switch (a[key], b[key]) {
      case (nil, let added?): lines.append("+ \(key) = \(StateValueText.compact(added))")
      case (let removed?, nil): lines.append("- \(key) = \(StateValueText.compact(removed))")
      case (let old?, let new?) where StateValueText.exact(old) != StateValueText.exact(new):
        lines.append("~ \(key): \(StateValueText.compact(old)) → \(StateValueText.compact(new))")
      default: break
      }
    }
    return lines
  }
}
