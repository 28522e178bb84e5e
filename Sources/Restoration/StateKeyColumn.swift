/// Every node's state keys, one after the other, as indexes into a table of names — the
/// snapshot's string table (`StasisStrings`, formats 2 and 3), or the keys themselves (format 1,
/// tables made from ``SnapshotNode`` values). A 10,000-node restore kept a column of 30,000
/// strings copied out of the string table and freed them at the end; the indexes are what the
/// snapshot holds.
struct StateKeyColumn {
  /// The names the indexes point into.
  let names: [String]
  /// A name index per key, each checked to be in `names`.
  let indexes: [Int]
  /// Whether `names` holds each string once, so that keys with different indexes differ.
  private let namesAreUnique: Bool

  /// Keys as indexes into `names`; the caller has checked every index.
  init(names: [String], indexes: [Int], namesAreUnique: Bool) {
    self.names = names
    self.indexes = indexes
    self.namesAreUnique = namesAreUnique
  }

  /// Keys as strings.
  init(_ keys: [String]) {
    names = keys
    indexes = Array(keys.indices)
    namesAreUnique = false
  }

  var count: Int { indexes.count }

  subscript(position: Int) -> String { names[indexes[position]] }

  /// The keys in `range`, as strings.
  func keys(in range: Range<Int>) -> [String] { range.map { names[indexes[$0]] } }

  /// The position in `range` of the first key equal to `key`.
  func position(of key: String, in range: Range<Int>) -> Int? {
    for position in range where names[indexes[position]] == key { return position }
    return nil
  }

  /// Whether a key appears twice in `range`.
  func hasRepeatedKey(in range: Range<Int>) -> Bool {
    guard range.count > 1 else { return false }
    if range.count > 16 { return Set(keys(in: range)).count != range.count }
    var position = range.lowerBound
    while position < range.upperBound {
      var other = position + 1
      while other < range.upperBound {
        if indexes[position] == indexes[other] { return true }
        if !namesAreUnique, names[indexes[position]] == names[indexes[other]] { return true }
        other += 1
      }
      position += 1
    }
    return false
  }
}
