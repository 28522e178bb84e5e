internal import FoundationEssentials
internal import KeyedArchive
internal import PropertyLists

/// A snapshot laid out as the archive stores it: one array per node field, a member per node in
/// tree order, and every node's state keys and values one after the other (see ``Snapshot``'s
/// summary for the keys). Preservation fills it node by node as it walks; a ``Snapshot`` read or
/// made by hand is laid out through ``init(_:)``.
struct SnapshotColumns {
  var metadata: SnapshotMetadata
  var applicationState: [String: Any]
  /// Every name the columns below refer to (identifiers, class names, storyboards, state keys),
  /// once each; entry 0 is the empty string ("none").
  var strings = StringTable()
  // One member per node, names as indexes into `strings`.
  var identifiers: [Int] = []
  var parents: [Int] = []
  var kinds: [Int] = []
  var classes: [Int] = []
  var versions: [Int] = []
  var stateBytes: [Int] = []
  var restorationClasses: [Int] = []
  var storyboards: [Int] = []
  var storyboardIdentifiers: [Int] = []
  /// How many values each node keeps; every node's keys (indexes into `strings`, in key order)
  /// and values, one node after the other.
  var stateCounts: [Int] = []
  var stateKeys: [Int] = []
  /// The values, sorted into the archive's typed columns as they are added (sorting 30,000
  /// values kept as `Any` at archive time was a tenth of a save).
  var stateValues = StateValueColumns()
  /// Scratch for putting a node's entries in key order.
  private var order: [Int] = []
  var referenceNodes: [Int] = []
  var references: [Any] = []
  var excluded: [Any] = []

  var count: Int { identifiers.count }

  init(metadata: SnapshotMetadata, applicationState: [String: Any], expectedCount: Int = 0) {
    self.metadata = metadata
    self.applicationState = applicationState
    identifiers.reserveCapacity(expectedCount)
    parents.reserveCapacity(expectedCount)
    kinds.reserveCapacity(expectedCount)
    classes.reserveCapacity(expectedCount)
    versions.reserveCapacity(expectedCount)
    stateBytes.reserveCapacity(expectedCount)
    restorationClasses.reserveCapacity(expectedCount)
    storyboards.reserveCapacity(expectedCount)
    storyboardIdentifiers.reserveCapacity(expectedCount)
    stateCounts.reserveCapacity(expectedCount)
  }

  /// Lets go of every node, value and name, keeping the room (a save reuses the previous one's
  /// columns: see `Preservation.empty()`).
  mutating func empty() {
    applicationState = [:]
    strings.empty()
    identifiers.removeAll(keepingCapacity: true)
    parents.removeAll(keepingCapacity: true)
    kinds.removeAll(keepingCapacity: true)
    classes.removeAll(keepingCapacity: true)
    versions.removeAll(keepingCapacity: true)
    stateBytes.removeAll(keepingCapacity: true)
    restorationClasses.removeAll(keepingCapacity: true)
    storyboards.removeAll(keepingCapacity: true)
    storyboardIdentifiers.removeAll(keepingCapacity: true)
    stateCounts.removeAll(keepingCapacity: true)
    stateKeys.removeAll(keepingCapacity: true)
    stateValues.empty()
    referenceNodes.removeAll(keepingCapacity: true)
    references.removeAll(keepingCapacity: true)
    excluded.removeAll(keepingCapacity: true)
  }

  /// Adds a node after every node before it in tree order (its parent among them; −1 for none).
  mutating func appendNode(
    identifier: String, parent: Int, kind: SnapshotNode.Kind, className: String, restorationClassName: String?, storyboardName: String?,
    storyboardIdentifier: String?, stateVersion: Int, stateBytes bytes: Int, state: StateEntries
  ) {
    appendNode(
      identifier: strings.index(of: identifier), parent: parent, kind: kind, className: className, restorationClassName: restorationClassName,
      storyboardName: storyboardName, storyboardIdentifier: storyboardIdentifier, stateVersion: stateVersion, stateBytes: bytes,
      stateKeys: state.keys, stateValues: state.values)
  }

  /// Adds a node with the identifier already in `strings` (at `identifier`) and its state as
  /// keys and values in any order (each key once).
  mutating func appendNode(
    identifier: Int, parent: Int, kind: SnapshotNode.Kind, className: String, restorationClassName: String?, storyboardName: String?,
    storyboardIdentifier: String?, stateVersion: Int, stateBytes bytes: Int, stateKeys keys: ArraySlice<String>, stateValues values: ArraySlice<Any>
  ) {
    identifiers.append(identifier)
    parents.append(parent)
    kinds.append(kind == .view ? 1 : 0)
    classes.append(strings.index(of: className))
    versions.append(stateVersion)
    stateBytes.append(bytes)
    restorationClasses.append(restorationClassName.map { strings.index(of: $0) } ?? 0)
    storyboards.append(storyboardName.map { strings.index(of: $0) } ?? 0)
    storyboardIdentifiers.append(storyboardIdentifier.map { strings.index(of: $0) } ?? 0)
    appendState(keys: keys, values: values)
  }

  /// A node's state in key order, so that the same state always makes the same bytes: an
  /// insertion sort of positions (states hold a few keys).
  private mutating func appendState(keys: ArraySlice<String>, values: ArraySlice<Any>) {
    stateCounts.append(keys.count)
    order.removeAll(keepingCapacity: true)
    // Offsets from each slice's start (the two slices may start at different indexes).
    for offset in 0..<keys.count {
      order.append(offset)
      var slot = order.count - 1
      while slot > 0, keys[keys.startIndex + order[slot - 1]] > keys[keys.startIndex + offset] {
        order.swapAt(slot - 1, slot)
        slot -= 1
      }
    }
    for offset in order {
      stateKeys.append(strings.index(of: keys[keys.startIndex + offset]))
      stateValues.append(values[values.startIndex + offset])
    }
  }

  /// The nodes whose state holds values an archiver may refuse (those kept as general values:
  /// the typed columns' values always archive), with those values by key, in node order.
  func generalStates() -> [(node: Int, state: [String: Any])] {
    var result: [(node: Int, state: [String: Any])] = []
    var offset = 0
    var general = 0
    for node in stateCounts.indices {
      var state: [String: Any] = [:]
      for position in offset..<(offset + stateCounts[node]) where stateValues.isGeneral(at: position) {
        state[strings.strings[stateKeys[position]]] = stateValues.general[general]
        general += 1
      }
      if !state.isEmpty { result.append((node, state)) }
      offset += stateCounts[node]
    }
    return result
  }

  /// Empties the states of `nodes`.
  mutating func dropStates(ofNodes nodes: Set<Int>) {
    var keys: [Int] = []
    var dropped = Set<Int>()
    var offset = 0
    for node in stateCounts.indices {
      let count = stateCounts[node]
      if !nodes.contains(node) {
        keys.append(contentsOf: stateKeys[offset..<(offset + count)])
      } else {
        dropped.formUnion(offset..<(offset + count))
        stateCounts[node] = 0
        stateBytes[node] = 0
      }
      offset += count
    }
    stateKeys = keys
    stateValues = stateValues.keeping { !dropped.contains($0) }
  }

  /// Records a node's references (key → node indexes); nodes in increasing order.
  mutating func addReferences(ofNode node: Int, _ indexes: [String: [Int]]) {
    guard !indexes.isEmpty else { return }
    referenceNodes.append(node)
    references.append(Self.table(indexes))
  }

  /// The identifier path of a node, from the parent column.
  func path(ofNode node: Int) -> [String] {
    var path: [String] = []
    var current = node
    while current >= 0, current < count {
      path.append(strings.strings[identifiers[current]])
      current = parents[current]
    }
    return path.reversed()
  }

  init(_ snapshot: Snapshot) {
    self.init(metadata: snapshot.metadata, applicationState: snapshot.applicationState, expectedCount: snapshot.nodes.count)
    let nodes = snapshot.nodes
    // Nodes made by hand (not by preservation or reading) know their parent and references by
    // path only: look them up by path then.
    var indexOfPath: [[String]: Int] = [:]
    for index in nodes.indices
    where (nodes[index].parentIndex == nil && nodes[index].path.count > 1)
      || (nodes[index].referenceIndexes == nil && !nodes[index].references.isEmpty)
    {
      for (index, node) in nodes.enumerated() { indexOfPath[node.path] = index }
      break
    }
    // By index, not `for node in nodes`: a node is a large value, and a copy per node retains
    // every field.
    for index in nodes.indices {
      let parent: Int
      if let known = nodes[index].parentIndex {
        parent = known
      } else {
        parent = nodes[index].path.count > 1 ? indexOfPath[Array(nodes[index].path.dropLast())] ?? -1 : -1
      }
      appendNode(
        identifier: nodes[index].path.last ?? "", parent: parent, kind: nodes[index].kind, className: nodes[index].className,
        restorationClassName: nodes[index].restorationClassName, storyboardName: nodes[index].storyboardName,
        storyboardIdentifier: nodes[index].storyboardIdentifier, stateVersion: nodes[index].stateVersion,
        stateBytes: nodes[index].stateBytes, state: nodes[index].entries)
      if let indexes = nodes[index].referenceIndexes {
        addReferences(ofNode: index, indexes)
      } else if !nodes[index].references.isEmpty {
        addReferences(ofNode: index, nodes[index].references.mapValues { $0.compactMap { indexOfPath[$0] } })
      }
    }
    excluded = snapshot.excluded.map { Self.entry($0) }
  }

  /// An excluded object as the archive keeps it.
  static func entry(_ object: ExcludedObject) -> [String: Any] {
    ["identifier": object.identifier, "location": object.location, "reason": object.reason]
  }

  /// A node's references as the `[String: Any]` both archivers write alike.
  private static func table(_ indexes: [String: [Int]]) -> [String: Any] {
    var table: [String: Any] = [:]
    table.reserveCapacity(indexes.count)
    for (key, list) in indexes { table[key] = list }
    return table
  }

  /// Writes the columns through `archiver`, in the archive's key order (format 3: see
  /// ``Snapshot``'s summary).
  func write(to archiver: some SnapshotArchiving) throws {
    // The format this writer writes, whatever format the snapshot was read from.
    try archiver.encode(SnapshotMetadata.currentFormat, forKey: SnapshotMetadata.formatKey)
    try archiver.encode(metadata.sequence, forKey: SnapshotMetadata.sequenceKey)
    try archiver.encode(metadata.bundleVersion, forKey: SnapshotMetadata.bundleVersionKey)
    try archiver.encode(metadata.idiom, forKey: SnapshotMetadata.idiomKey)
    try archiver.encode(metadata.timestamp, forKey: SnapshotMetadata.timestampKey)
    try archiver.encode(metadata.systemVersion, forKey: SnapshotMetadata.systemVersionKey)
    try archiver.encode(applicationState, forKey: Snapshot.Key.application)
    try archiver.encode(identifiers.count, forKey: Snapshot.Key.nodeCount)
    try archiver.encode(strings: strings.strings, forKey: Snapshot.Key.strings)
    try archiver.encode(PackedIntegers.pack(identifiers), forKey: Snapshot.Key.identifiers)
    try archiver.encode(PackedIntegers.pack(parents), forKey: Snapshot.Key.parents)
    try archiver.encode(PackedIntegers.pack(kinds), forKey: Snapshot.Key.kinds)
    try archiver.encode(PackedIntegers.pack(classes), forKey: Snapshot.Key.classes)
    try archiver.encode(PackedIntegers.pack(versions), forKey: Snapshot.Key.versions)
    try archiver.encode(PackedIntegers.pack(stateBytes), forKey: Snapshot.Key.stateBytes)
    // Columns every node leaves empty are left out (a reader takes "none").
    if restorationClasses.contains(where: { $0 != 0 }) {
      try archiver.encode(PackedIntegers.pack(restorationClasses), forKey: Snapshot.Key.restorationClasses)
    }
    if storyboards.contains(where: { $0 != 0 }) { try archiver.encode(PackedIntegers.pack(storyboards), forKey: Snapshot.Key.storyboards) }
    if storyboardIdentifiers.contains(where: { $0 != 0 }) {
      try archiver.encode(PackedIntegers.pack(storyboardIdentifiers), forKey: Snapshot.Key.storyboardIdentifiers)
    }
    try archiver.encode(integers: referenceNodes, forKey: Snapshot.Key.referenceNodes)
    try archiver.encode(references, forKey: Snapshot.Key.references)
    try archiver.encode(PackedIntegers.pack(stateCounts), forKey: Snapshot.Key.stateCounts)
    try archiver.encode(PackedIntegers.pack(stateKeys), forKey: Snapshot.Key.stateKeys)
    try stateValues.write(to: archiver)
    try archiver.encode(excluded, forKey: Snapshot.Key.excluded)
  }
}

extension SnapshotColumns {
  /// The columns as a binary keyed archive: written by `FoundationValueArchiver` when every
  /// value is a plain property-list value (the usual state), and otherwise (an app's archivable
  /// classes in some node's state) by `KeyedArchiver` with `registry`; both write the same bytes
  /// for the same values.
  func archivedData(registry: ArchiveClassRegistry) throws -> Data {
    do {
      let archiver = FoundationValueArchiver()
      try write(to: archiver)
      return try archiver.finishEncoding()
    } catch {
      // A value the plain writer leaves to the general archiver.
    }
    let archiver = KeyedArchiver(registry: registry)
    try write(to: archiver)
    return try archiver.finishEncoding()
  }
}

/// Names, each stored once and referred to by index; index 0 is the empty string.
///
/// Names repeat as the very same `String` value (an identifier kept by many nodes, a class name
/// made once per class, a key written as a literal), so each is looked up first by its two words
/// — equal words are the same small string or the same storage — and only then by contents.
struct StringTable {
  private(set) var strings: [String] = [""]
  private var indexes: [String: Int] = ["": 0]
  // The words cache: open addressing, the string kept so its storage cannot be reused.
  // 1,024 slots: a tree's distinct names (a few hundred identifiers, its classes and keys)
  // collided often in 256 (profiled: the hashed lookup behind it was 3 % of a save).
  private var cachedWords: [(UInt64, UInt64)] = Array(repeating: (0, 0), count: 1_024)
  private var cachedStrings: [String?] = Array(repeating: nil, count: 1_024)
  private var cachedIndexes: [Int] = Array(repeating: 0, count: 1_024)

  mutating func index(of string: String) -> Int {
    guard MemoryLayout<String>.size == 16 else { return indexByContents(string) }
    let words = withUnsafeBytes(of: string) { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
    var hash = (words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
    hash ^= hash >> 29
    let slot = Int(truncatingIfNeeded: hash) & (cachedWords.count - 1)
    if cachedStrings[slot] != nil, cachedWords[slot] == words { return cachedIndexes[slot] }
    let index = indexByContents(string)
    // One entry per slot, replaced on a collision: a cache, not the table.
    cachedWords[slot] = words
    cachedStrings[slot] = string
    cachedIndexes[slot] = index
    return index
  }

  /// Forgets every name but the empty string, keeping the room.
  mutating func empty() {
    strings.removeAll(keepingCapacity: true)
    strings.append("")
    indexes.removeAll(keepingCapacity: true)
    indexes[""] = 0
    for slot in cachedStrings.indices { cachedStrings[slot] = nil }
  }

  private mutating func indexByContents(_ string: String) -> Int {
    if let known = indexes[string] { return known }
    indexes[string] = strings.count
    strings.append(string)
    return strings.count - 1
  }
}

/// A column of integers as one `NSData`: each value little-endian and signed, all in the
/// smallest of 1, 2, 4 or 8 bytes that holds every one of them — so the width is the data's
/// length divided by the number of values.
enum PackedIntegers {
  static func pack(_ values: [Int]) -> Data {
    values.withUnsafeBufferPointer { values in
      // The range with 0 in it: the same width as the values' own range (every width holds 0).
      var low = 0
      var high = 0
      for value in values {
        low = Swift.min(low, value)
        high = Swift.max(high, value)
      }
      let width =
        if low >= Int(Int8.min) && high <= Int(Int8.max) { 1 }
        else if low >= Int(Int16.min) && high <= Int(Int16.max) { 2 }
        else if low >= Int(Int32.min) && high <= Int(Int32.max) { 4 }
        else { 8 }
      var data = Data(count: values.count * width)
      // One loop per width (the width tested once, not per value), over the buffers (callgrind:
      // the loops over `enumerated()` were 3 % of a 10,000-node save).
      data.withUnsafeMutableBytes { bytes in
        switch width {
        case 1: pack(values, into: bytes, as: Int8.self)
        case 2: pack(values, into: bytes, as: Int16.self)
        case 4: pack(values, into: bytes, as: Int32.self)
        default: pack(values, into: bytes, as: Int64.self)
        }
      }
      return data
    }
  }

  /// Stores every member of `values` into `bytes` as a little-endian `Width`, one after the other.
  @inline(__always)
  private static func pack<Width: FixedWidthInteger & SignedInteger>(
    _ values: UnsafeBufferPointer<Int>, into bytes: UnsafeMutableRawBufferPointer, as _: Width.Type
  ) {
    let size = MemoryLayout<Width>.size
    for index in values.indices {
      bytes.storeBytes(of: Width(truncatingIfNeeded: values[index]).littleEndian, toByteOffset: index * size, as: Width.self)
    }
  }

  /// The `count` values packed in `data`, or `nil` when its length is not `count` values of one
  /// of the widths.
  static func unpack(_ data: Data, count: Int) -> [Int]? {
    guard count > 0 else { return data.isEmpty ? [] : nil }
    let width = data.count / count
    guard [1, 2, 4, 8].contains(width), data.count == width * count else { return nil }
    // One loop per width, each value stored in place: `map` tested the width and the array's
    // room for every value (callgrind: 4 % of a 10,000-node restore's instructions).
    return data.withUnsafeBytes { bytes in
      [Int](unsafeUninitializedCapacity: count) { values, initialized in
        switch width {
        case 1: unpack(bytes, into: values, as: Int8.self)
        case 2: unpack(bytes, into: values, as: Int16.self)
        case 4: unpack(bytes, into: values, as: Int32.self)
        default: unpack(bytes, into: values, as: Int64.self)
        }
        initialized = count
      }
    }
  }

  /// Fills `values` (every member) from `bytes`, little-endian integers of `Width` one after the other.
  @inline(__always)
  private static func unpack<Width: FixedWidthInteger & SignedInteger>(
    _ bytes: UnsafeRawBufferPointer, into values: UnsafeMutableBufferPointer<Int>, as _: Width.Type
  ) {
    let size = MemoryLayout<Width>.size
    for index in values.indices {
      values.initializeElement(at: index, to: Int(Width(littleEndian: bytes.loadUnaligned(fromByteOffset: index * size, as: Width.self))))
    }
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
