/// The names of a snapshot's nodes — identifiers, parents and classes, a member per node in tree
/// order — shared by the snapshot's table and by every ``NodeOutcome`` of a restore, which
/// derive a node's path and class from its index instead of keeping copies.
final class NodeNames: Sendable {
  /// Each node's restoration identifier (the last component of its path).
  let identifiers: NameColumn
  /// Each node's parent's index; −1 for a window's root, or for a node made by hand whose
  /// parent is not in the snapshot.
  let parents: [Int]
  let classes: NameColumn
  /// Whole paths, for nodes made by hand (whose paths need not follow from the parents); `nil`
  /// when every path is its parent's and the identifier (a snapshot that was read).
  private let wholePaths: [[String]]?

  init(identifiers: NameColumn, parents: [Int], classes: NameColumn, wholePaths: [[String]]? = nil) {
    self.identifiers = identifiers
    self.parents = parents
    self.classes = classes
    self.wholePaths = wholePaths
  }

  var count: Int { identifiers.count }

  /// The identifier path of node `index`, from the root down.
  func path(of index: Int) -> [String] {
    if let wholePaths { return wholePaths[index] }
    var depth = 0
    var current = index
    while current >= 0 {
      depth += 1
      current = parents[current]
    }
    return [String](unsafeUninitializedCapacity: depth) { buffer, initialized in
      var current = index
      var slot = depth
      while current >= 0 {
        slot -= 1
        (buffer.baseAddress! + slot).initialize(to: identifiers[current])
        current = parents[current]
      }
      initialized = depth
    }
  }

  /// The identifier path of node `index` made from its parent's path, when the caller kept it
  /// (one allocation), or else from the parents.
  func path(of index: Int, parentPath: [String]?) -> [String] {
    guard let parentPath, wholePaths == nil else { return path(of: index) }
    var path: [String] = []
    path.reserveCapacity(parentPath.count + 1)
    path.append(contentsOf: parentPath)
    path.append(identifiers[index])
    return path
  }

  /// Whether node `index` is at the top of its tree (its path has one identifier).
  func isRoot(_ index: Int) -> Bool {
    if let wholePaths { return wholePaths[index].count <= 1 }
    return parents[index] < 0
  }
}

/// A snapshot's nodes as columns, a member per node in tree order, and every node's state as a
/// range of two shared columns (keys and values): what a restore reads, with no ``SnapshotNode``
/// per node (``Snapshot/nodes`` makes them from this table when asked for).
final class SnapshotTable {
  let names: NodeNames
  let kinds: [SnapshotNode.Kind]
  /// Names, "" for none.
  let restorationClasses: NameColumn
  let storyboards: NameColumn
  let storyboardIdentifiers: NameColumn
  let versions: [Int]
  let stateBytes: [Int]
  /// Node `i`'s state is `keys[stateStarts[i]..<stateStarts[i + 1]]` with the values beside them.
  let stateStarts: [Int]
  let keys: [String]
  let values: [Any]
  /// Nodes whose state is not their plain range (a key written twice, values secure decoding
  /// left out, a refused state): their entries.
  let otherEntries: [Int: StateEntries]
  /// Why a node's state could not be read, by node.
  let failures: [Int: String]
  /// The references of the nodes that keep some: key → node indexes.
  let references: [Int: [String: [Int]]]

  init(
    names: NodeNames, kinds: [SnapshotNode.Kind], restorationClasses: NameColumn, storyboards: NameColumn, storyboardIdentifiers: NameColumn,
    versions: [Int], stateBytes: [Int], state: States, references: [Int: [String: [Int]]]
  ) {
    self.names = names
    self.kinds = kinds
    self.restorationClasses = restorationClasses
    self.storyboards = storyboards
    self.storyboardIdentifiers = storyboardIdentifiers
    self.versions = versions
    self.stateBytes = stateBytes
    stateStarts = state.starts
    keys = state.keys
    values = state.values
    otherEntries = state.otherEntries
    failures = state.failures
    self.references = references
  }

  /// Every node's state, laid out as the table keeps it.
  struct States {
    var starts: [Int] = [0]
    var keys: [String] = []
    var values: [Any] = []
    var otherEntries: [Int: StateEntries] = [:]
    var failures: [Int: String] = [:]
  }

  var count: Int { names.count }

  func restorationClassName(of index: Int) -> String? { restorationClasses.nonEmpty(index) }
  func storyboardName(of index: Int) -> String? { storyboards.nonEmpty(index) }
  func storyboardIdentifier(of index: Int) -> String? { storyboardIdentifiers.nonEmpty(index) }
  func failure(of index: Int) -> String? { failures.isEmpty ? nil : failures[index] }
  func references(of index: Int) -> [String: [Int]]? { references.isEmpty ? nil : references[index] }

  /// Node `index`'s state values.
  func entries(of index: Int) -> StateEntries {
    if !otherEntries.isEmpty, let other = otherEntries[index] { return other }
    let range = stateStarts[index]..<stateStarts[index + 1]
    return StateEntries(distinctKeys: keys[range], values: values[range])
  }

  /// Node `index`'s value under `key`, searched in place (no entries made).
  func value(forKey key: String, of index: Int) -> Any? {
    if !otherEntries.isEmpty, let other = otherEntries[index] { return other[key] }
    for position in stateStarts[index]..<stateStarts[index + 1] where keys[position] == key { return values[position] }
    return nil
  }

  /// How many values node `index` keeps.
  func stateCount(of index: Int) -> Int {
    if !otherEntries.isEmpty, let other = otherEntries[index] { return other.count }
    return stateStarts[index + 1] - stateStarts[index]
  }

  // MARK: - Nodes

  /// The nodes as values (``Snapshot/nodes``), each with its path, state and references.
  func makeNodes() -> [SnapshotNode] {
    var nodes: [SnapshotNode] = []
    nodes.reserveCapacity(count)
    var paths: [[String]] = []
    paths.reserveCapacity(count)
    for index in 0..<count {
      let parent = names.parents[index]
      let path = names.path(of: index, parentPath: parent >= 0 && parent < index ? paths[parent] : nil)
      paths.append(path)
      var node = SnapshotNode(
        path: path, kind: kinds[index], className: names.classes[index], restorationClassName: restorationClassName(of: index),
        storyboardName: storyboardName(of: index), storyboardIdentifier: storyboardIdentifier(of: index), stateVersion: versions[index],
        stateBytes: stateBytes[index], parentIndex: parent >= 0 ? parent : nil)
      node.entries = entries(of: index)
      node.stateFailure = failure(of: index)
      nodes.append(node)
    }
    for (index, indexes) in references {
      nodes[index].referenceIndexes = indexes
      nodes[index].references = indexes.mapValues { $0.map { paths[$0] } }
    }
    return nodes
  }

  /// The table of nodes made by hand or changed (their parents and references found by path
  /// when they know them by path only).
  convenience init(nodes: [SnapshotNode]) {
    var indexOfPath: [[String]: Int] = [:]
    if nodes.contains(where: { ($0.parentIndex == nil && $0.path.count > 1) || ($0.referenceIndexes == nil && !$0.references.isEmpty) }) {
      for (index, node) in nodes.enumerated() { indexOfPath[node.path] = index }
    }
    var parents: [Int] = []
    var state = States()
    var references: [Int: [String: [Int]]] = [:]
    for index in nodes.indices {
      parents.append(nodes[index].parentIndex ?? (nodes[index].path.count > 1 ? indexOfPath[Array(nodes[index].path.dropLast())] ?? -1 : -1))
      state.keys.append(contentsOf: nodes[index].entries.keys)
      state.values.append(contentsOf: nodes[index].entries.values)
      state.starts.append(state.keys.count)
      if let failure = nodes[index].stateFailure { state.failures[index] = failure }
      if let indexes = nodes[index].referenceIndexes {
        references[index] = indexes
      } else if !nodes[index].references.isEmpty {
        references[index] = nodes[index].references.mapValues { $0.compactMap { indexOfPath[$0] } }
      }
    }
    self.init(
      names: NodeNames(
        identifiers: NameColumn(nodes.map { $0.path.last ?? "" }), parents: parents, classes: NameColumn(nodes.map(\.className)),
        wholePaths: nodes.map(\.path)),
      kinds: nodes.map(\.kind), restorationClasses: NameColumn(nodes.map { $0.restorationClassName ?? "" }),
      storyboards: NameColumn(nodes.map { $0.storyboardName ?? "" }), storyboardIdentifiers: NameColumn(nodes.map { $0.storyboardIdentifier ?? "" }),
      versions: nodes.map(\.stateVersion), stateBytes: nodes.map(\.stateBytes),
      state: state, references: references)
  }
}
