/// A node's state values: keys and values side by side, each key once. A snapshot that was read
/// keeps every node's entries as slices of its two value columns (no dictionary per node: a
/// 10,000-node restore made 10,000 and looked each value up by hashing); the dictionary
/// ``SnapshotNode/state`` answers is made when asked for.
struct StateEntries {
  private(set) var keys: ArraySlice<String>
  private(set) var values: ArraySlice<Any>

  init() {
    keys = []
    values = []
  }

  init(_ dictionary: [String: Any]) {
    keys = ArraySlice(dictionary.keys)
    values = ArraySlice(dictionary.values)
  }

  /// `keys` and `values` of equal counts; a key written twice keeps its last value (as a
  /// dictionary built from them would).
  init(keys: ArraySlice<String>, values: ArraySlice<Any>) {
    if Self.hasRepeatedKey(keys) {
      var dictionary: [String: Any] = [:]
      for (key, value) in zip(keys, values) { dictionary[key] = value }
      self.keys = ArraySlice(dictionary.keys)
      self.values = ArraySlice(dictionary.values)
    } else {
      self.keys = keys
      self.values = values
    }
  }

  /// `keys` (each once) and `values` of equal counts, kept as they are.
  init(distinctKeys keys: ArraySlice<String>, values: ArraySlice<Any>) {
    self.keys = keys
    self.values = values
  }

  static func hasRepeatedKey(_ keys: ArraySlice<String>) -> Bool {
    guard keys.count > 1 else { return false }
    if keys.count > 16 { return Set(keys).count != keys.count }
    var index = keys.startIndex
    while index < keys.endIndex {
      var other = keys.index(after: index)
      while other < keys.endIndex {
        if keys[index] == keys[other] { return true }
        other += 1
      }
      index += 1
    }
    return false
  }

  var count: Int { keys.count }
  var isEmpty: Bool { keys.isEmpty }

  /// The value under `key`: a search of the keys (a node keeps a few), compared as strings.
  subscript(key: String) -> Any? {
    guard let position = keys.firstIndex(of: key) else { return nil }
    return values[values.startIndex + (position - keys.startIndex)]
  }

  var dictionary: [String: Any] {
    var result: [String: Any] = [:]
    result.reserveCapacity(keys.count)
    for (key, value) in zip(keys, values) { result[key] = value }
    return result
  }
}
