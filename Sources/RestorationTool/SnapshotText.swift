import Restoration
import PropertyLists

// How the commands print a snapshot's parts: the metadata, a node's header and state, the
// excluded objects.

extension SnapshotMetadata {
  /// `format 3, sequence 3, written 2026-01-02T03:04:05.678Z`.
  var versionLine: String {
    "format \(format), sequence \(sequence), written \(StateValueText.iso8601(timestamp))"
  }

  /// `bundle version "7", idiom 0 (phone), system version "6.8.0"`.
  var writerLine: String {
    "bundle version \(bundleVersion.map(QuotedText.oneLine) ?? "none"), idiom \(idiomText), "
      + "system version \(QuotedText.oneLine(systemVersion))"
  }

  /// `UIUserInterfaceIdiom` with its name.
  var idiomText: String {
    let names = [0: "phone", 1: "pad", 2: "TV", 3: "CarPlay", 5: "Mac"]
    return names[idiom].map { "\(idiom) (\($0))" } ?? "\(idiom)"
  }
}

extension SnapshotNode {
  /// The identifier path, `Tabs/ItemsNavigation/Detail`.
  var pathText: String { path.joined(separator: "/") }

  /// `view controller` or `view`.
  var kindText: String { kind == .viewController ? "view controller" : "view" }

  /// `(DetailViewController, view controller, v2, ~24 bytes, restoration class X, storyboard S/id)`.
  var summary: String {
    var parts = [className, kindText, "v\(stateVersion)", "~\(stateBytes) bytes"]
    if let restorationClassName { parts.append("restoration class \(restorationClassName)") }
    if let storyboard = storyboardText { parts.append("storyboard \(storyboard)") }
    return "(" + parts.joined(separator: ", ") + ")"
  }

  /// `Main/detail`: the storyboard and the identifier in it, when either is known.
  var storyboardText: String? {
    guard storyboardName != nil || storyboardIdentifier != nil else { return nil }
    return (storyboardName ?? "?") + (storyboardIdentifier.map { "/" + $0 } ?? "")
  }

  /// The state, one `key = value` line per key (sorted), then the references
  /// (`key -> A/B, A/C`), then why the state could not be read, if it could not.
  var stateLines: [String] {
    let state = self.state  // (made on each read: once here)
    var lines = state.keys.sorted().map { "\($0) = \(StateValueText.compact(state[$0]!))" }
    lines += references.keys.sorted().map { "\($0) -> \(Self.pathsText(references[$0]!))" }
    if let stateFailure { lines.append("state could not be read: \(stateFailure)") }
    return lines
  }

  /// Referenced paths, `A/B, A/C`, or `(nothing)`.
  static func pathsText(_ paths: [[String]]) -> String {
    paths.isEmpty ? "(nothing)" : paths.map { $0.joined(separator: "/") }.joined(separator: ", ")
  }
}

extension ExcludedObject {
  /// `List in Tabs/<NavigationController>: <reason>`.
  var line: String {
    identifier + (location.isEmpty ? "" : " in " + location.joined(separator: "/")) + ": " + reason
  }
}

extension Snapshot {
  /// The nodes depth first, each followed by its subtree, siblings in the snapshot's order.
  var nodesInTreeOrder: [SnapshotNode] {
    var children: [[String]: [SnapshotNode]] = [:]
    var roots: [SnapshotNode] = []
    for node in nodes {
      if node.path.count == 1 { roots.append(node) } else { children[Array(node.path.dropLast()), default: []].append(node) }
    }
    var ordered: [SnapshotNode] = []
    ordered.reserveCapacity(nodes.count)
    var stack = Array(roots.reversed())
    while let node = stack.popLast() {
      ordered.append(node)
      stack += (children[node.path] ?? []).reversed()
    }
    return ordered
  }
}
