internal import FoundationEssentials
internal import StasisSystem

// Formats 2 and 3: each node field an `NSData` of little-endian integers of one width (packed),
// names as indexes into one string table (`StasisStrings`).

extension SnapshotReader {
  /// The node columns of formats 2 and 3.
  func readPackedColumns() throws(RestorationError) -> NodeColumns {
    typealias Key = Snapshot.Key
    let table = try strings(Key.strings) ?? [""]
    guard let count = try read(Int.self, Key.nodeCount, "the number of nodes"), count >= 0, count <= 1_000_000 else {
      throw fail(Key.nodeCount, "the number of nodes, 0 to 1,000,000")
    }
    func names(_ key: String, optional: Bool = false) throws(RestorationError) -> NameColumn {
      try column(key, indexes: try packed(key, count: count, default: optional ? 0 : nil), table: table)
    }
    // Read in this order, so that of several damaged keys the same one is named every time.
    let identifiers = try names(Key.identifiers)
    let parents = try packed(Key.parents, count: count)
    let kinds = try packed(Key.kinds, count: count)
    let classes = try names(Key.classes)
    let versions = try packed(Key.versions, count: count, default: 0)
    let stateBytes = try packed(Key.stateBytes, count: count, default: 0)
    let restorationClasses = try names(Key.restorationClasses, optional: true)
    let storyboards = try names(Key.storyboards, optional: true)
    let storyboardIdentifiers = try names(Key.storyboardIdentifiers, optional: true)
    let stateCounts = try packed(Key.stateCounts, count: count)
    guard stateCounts.allSatisfy({ $0 >= 0 && $0 <= 1_000_000 }) else { throw fail(Key.stateCounts, "counts from 0 to 1,000,000") }
    let keys = try self.names(Key.stateKeys, indexes: try packed(Key.stateKeys, count: stateCounts.reduce(0, +)), table: table)
    return NodeColumns(
      identifiers: identifiers, parents: parents, kinds: kinds, classes: classes, versions: versions, stateBytes: stateBytes,
      restorationClasses: restorationClasses, storyboards: storyboards, storyboardIdentifiers: storyboardIdentifiers,
      stateCounts: stateCounts, keys: keys)
  }

  /// A packed column of `count` integers; `fallback` for every node when the key is absent (a
  /// required column has none).
  func packed(_ key: String, count: Int, default fallback: Int? = nil) throws(RestorationError) -> [Int] {
    guard let data = try read(Data.self, key, "packed integers (data)") else {
      guard let fallback else { throw fail(key, "packed integers (data); the key is missing") }
      return [Int](repeating: fallback, count: count)
    }
    guard let values = PackedIntegers.unpack(data, count: count) else {
      throw fail(key, "\(count) packed integers of 1, 2, 4 or 8 bytes (it has \(data.count) bytes)")
    }
    return values
  }

  /// The column of the strings of `table` that `indexes` name (kept as indexes).
  func column(_ key: String, indexes: [Int], table: [String]) throws(RestorationError) -> NameColumn {
    do { return try NameColumn(strings: table, indexes: indexes) } catch {
      throw fail(key, "indexes into the \(table.count) strings of \(Snapshot.Key.strings) (found \(error.index))")
    }
  }

  /// The strings of `table` that `indexes` name.
  func names(_ key: String, indexes: [Int], table: [String]) throws(RestorationError) -> [String] {
    var names: [String] = []
    names.reserveCapacity(indexes.count)
    for index in indexes {
      guard table.indices.contains(index) else {
        throw fail(key, "indexes into the \(table.count) strings of \(Snapshot.Key.strings) (found \(index))")
      }
      names.append(table[index])
    }
    return names
  }
}
