// Format 1 (read, no longer written): one `NSArray` per node field — names as strings, numbers
// as `NSNumber`s — about 150,000 objects for 10,000 nodes.

import StasisSystem

extension SnapshotReader {
  /// The node columns of format 1; a column that is absent takes its default for every node.
  func readArrayColumns() throws(RestorationError) -> NodeColumns {
    let identifiers = try strings(Snapshot.Key.identifiers) ?? []
    let count = identifiers.count
    func column<T>(_ values: [T]?, _ key: String, default fallback: T) throws(RestorationError) -> [T] {
      guard let values else { return [T](repeating: fallback, count: count) }
      guard values.count == count else { throw fail(key, "\(count) members, one per node (it has \(values.count))") }
      return values
    }
    typealias Key = Snapshot.Key
    return NodeColumns(
      identifiers: NameColumn(identifiers),
      parents: try column(try integers(Key.parents), Key.parents, default: -1),
      kinds: try column(try integers(Key.kinds), Key.kinds, default: 0),
      classes: NameColumn(try column(try strings(Key.classes), Key.classes, default: "")),
      versions: try column(try integers(Key.versions), Key.versions, default: 0),
      stateBytes: try column(try integers(Key.stateBytes), Key.stateBytes, default: 0),
      restorationClasses: NameColumn(try column(try strings(Key.restorationClasses), Key.restorationClasses, default: "")),
      storyboards: NameColumn(try column(try strings(Key.storyboards), Key.storyboards, default: "")),
      storyboardIdentifiers: NameColumn(try column(try strings(Key.storyboardIdentifiers), Key.storyboardIdentifiers, default: "")),
      stateCounts: try column(try integers(Key.stateCounts), Key.stateCounts, default: 0),
      keys: try strings(Key.stateKeys) ?? [])
  }
}
