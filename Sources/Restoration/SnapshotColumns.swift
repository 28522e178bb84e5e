internal import FoundationEssentials
internal import KeyedArchive
internal import PropertyLists

/// A snapshot laid out as the archive stores it: one array per node field, a member per node in
/// tree order, and every node's state keys and values one after the other (see ``Snapshot``'s
/// summary for the keys).
struct SnapshotColumns {
  var metadata: SnapshotMetadata
  var applicationState: [String: Any]
  var identifiers: [String] = []
  var parents: [Int] = []
  var kinds: [Int] = []
  var classes: [String] = []
  var versions: [Int] = []
  var stateBytes: [Int] = []
  var restorationClasses: [String] = []
  var storyboards: [String] = []
  var storyboardIdentifiers: [String] = []
  var referenceNodes: [Int] = []
  var references: [Any] = []
  var stateCounts: [Int] = []
  var stateKeys: [String] = []
  var stateValues: [Any] = []
  var excluded: [Any] = []

  init(_ snapshot: Snapshot) {
    metadata = snapshot.metadata
    applicationState = snapshot.applicationState
    let nodes = snapshot.nodes
    let count = nodes.count
    var indexOfPath: [[String]: Int] = [:]
    if nodes.contains(where: { $0.parentIndex == nil || ($0.referenceIndexes == nil && !$0.references.isEmpty) }) {
      for (index, node) in nodes.enumerated() { indexOfPath[node.path] = index }
    }
    identifiers.reserveCapacity(count)
    parents.reserveCapacity(count)
    kinds.reserveCapacity(count)
    classes.reserveCapacity(count)
    versions.reserveCapacity(count)
    stateBytes.reserveCapacity(count)
    restorationClasses.reserveCapacity(count)
    storyboards.reserveCapacity(count)
    storyboardIdentifiers.reserveCapacity(count)
    stateCounts.reserveCapacity(count)
    // By index, not `for node in nodes`: a node is a large value, and a copy per node retains
    // every field.
    for index in nodes.indices {
      identifiers.append(nodes[index].path.last ?? "")
      if let parent = nodes[index].parentIndex {
        parents.append(parent)
      } else {
        parents.append(nodes[index].path.count > 1 ? indexOfPath[Array(nodes[index].path.dropLast())] ?? -1 : -1)
      }
      kinds.append(nodes[index].kind == .view ? 1 : 0)
      classes.append(nodes[index].className)
      versions.append(nodes[index].stateVersion)
      stateBytes.append(nodes[index].stateBytes)
      restorationClasses.append(nodes[index].restorationClassName ?? "")
      storyboards.append(nodes[index].storyboardName ?? "")
      storyboardIdentifiers.append(nodes[index].storyboardIdentifier ?? "")
      if let indexes = nodes[index].referenceIndexes {
        if !indexes.isEmpty {
          referenceNodes.append(index)
          references.append(Self.table(indexes))
        }
      } else if !nodes[index].references.isEmpty {
        referenceNodes.append(index)
        references.append(Self.table(nodes[index].references.mapValues { $0.compactMap { indexOfPath[$0] } }))
      }
      stateCounts.append(nodes[index].state.count)
      if nodes[index].state.count == 1, let only = nodes[index].state.first {
        stateKeys.append(only.key)
        stateValues.append(only.value)
      } else if !nodes[index].state.isEmpty {
        for (key, value) in nodes[index].state.sorted(by: { $0.key < $1.key }) {
          stateKeys.append(key)
          stateValues.append(value)
        }
      }
    }
    excluded = snapshot.excluded.map { ["identifier": $0.identifier, "location": $0.location, "reason": $0.reason] as [String: Any] }
  }

  /// A node's references as the `[String: Any]` both archivers write alike.
  private static func table(_ indexes: [String: [Int]]) -> [String: Any] {
    var table: [String: Any] = [:]
    table.reserveCapacity(indexes.count)
    for (key, list) in indexes { table[key] = list }
    return table
  }

  /// Writes the columns through `archiver`, in the archive's key order.
  func write(to archiver: some SnapshotArchiving) throws {
    try archiver.encode(metadata.format, forKey: SnapshotMetadata.formatKey)
    try archiver.encode(metadata.sequence, forKey: SnapshotMetadata.sequenceKey)
    try archiver.encode(metadata.bundleVersion, forKey: SnapshotMetadata.bundleVersionKey)
    try archiver.encode(metadata.idiom, forKey: SnapshotMetadata.idiomKey)
    try archiver.encode(metadata.timestamp, forKey: SnapshotMetadata.timestampKey)
    try archiver.encode(metadata.systemVersion, forKey: SnapshotMetadata.systemVersionKey)
    try archiver.encode(applicationState, forKey: Snapshot.Key.application)
    try archiver.encode(strings: identifiers, forKey: Snapshot.Key.identifiers)
    try archiver.encode(integers: parents, forKey: Snapshot.Key.parents)
    try archiver.encode(integers: kinds, forKey: Snapshot.Key.kinds)
    try archiver.encode(strings: classes, forKey: Snapshot.Key.classes)
    try archiver.encode(integers: versions, forKey: Snapshot.Key.versions)
    try archiver.encode(integers: stateBytes, forKey: Snapshot.Key.stateBytes)
    // Columns every node leaves empty are left out (a reader takes empty strings).
    if restorationClasses.contains(where: { !$0.isEmpty }) { try archiver.encode(strings: restorationClasses, forKey: Snapshot.Key.restorationClasses) }
    if storyboards.contains(where: { !$0.isEmpty }) { try archiver.encode(strings: storyboards, forKey: Snapshot.Key.storyboards) }
    if storyboardIdentifiers.contains(where: { !$0.isEmpty }) {
      try archiver.encode(strings: storyboardIdentifiers, forKey: Snapshot.Key.storyboardIdentifiers)
    }
    try archiver.encode(integers: referenceNodes, forKey: Snapshot.Key.referenceNodes)
    try archiver.encode(references, forKey: Snapshot.Key.references)
    try archiver.encode(integers: stateCounts, forKey: Snapshot.Key.stateCounts)
    try archiver.encode(strings: stateKeys, forKey: Snapshot.Key.stateKeys)
    try archiver.encode(values: stateValues, forKey: Snapshot.Key.stateValues)
    try archiver.encode(excluded, forKey: Snapshot.Key.excluded)
  }
}

/// The two archivers a snapshot is written with: `FoundationValueArchiver` for plain values,
/// `KeyedArchiver` for the rest.
protocol SnapshotArchiving {
  func encode(_ value: Any?, forKey key: String) throws
  func encode(strings: [String], forKey key: String) throws
  func encode(integers: [Int], forKey key: String) throws
  func encode(values: [Any], forKey key: String) throws
}

extension FoundationValueArchiver: SnapshotArchiving {}

extension KeyedArchiver: SnapshotArchiving {
  /// Property-list values (the usual state) take the typed path; anything else (an app's
  /// archivable classes) the general one — the same bytes either way.
  func encode(values: [Any], forKey key: String) throws {
    var typedValues: [PropertyListValue] = []
    typedValues.reserveCapacity(values.count)
    for value in values {
      guard let typed = propertyListValue(of: value) else { break }
      typedValues.append(typed)
    }
    if typedValues.count == values.count {
      try encode(propertyListValues: typedValues, forKey: key)
    } else {
      try encode(values, forKey: key)
    }
  }
}
