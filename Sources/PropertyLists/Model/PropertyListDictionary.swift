/// A property-list dictionary: string keys, in the order the document gave them.
///
/// Apple's `NSDictionary` has no order, but a binary property list lists its keys in the order
/// they were written and people read XML top to bottom, so Stasis keeps that order for printing
/// and re-encoding. Equality and hashing ignore order, as `NSDictionary`'s do.
///
/// Setting a key that is already present replaces its value in place (the "last one wins" rule of
/// every Apple reader for duplicate keys).
///
/// - Complexity: lookups are O(1) for dictionaries of more than 16 entries (which carry a hash
///   index) and a short linear scan below that.
public struct PropertyListDictionary: Sendable {
  /// One key and its value.
  public typealias Element = (key: String, value: PropertyListValue)

  @usableFromInline var storedKeys: [String]
  @usableFromInline var storedValues: [PropertyListValue]
  @usableFromInline var index: [String: Int]?

  @usableFromInline static var indexThreshold: Int { 16 }

  public init() {
    storedKeys = []
    storedValues = []
    index = nil
  }

  /// Builds a dictionary from parallel key and value arrays; a repeated key keeps its first
  /// position and its last value.
  public init(keys: [String], values: [PropertyListValue]) {
    precondition(keys.count == values.count, "keys and values differ in count")
    storedKeys = keys
    storedValues = values
    index = nil
    removeDuplicatesAndIndex()
  }

  /// Builds a dictionary from key-value pairs; a repeated key keeps its first position and its
  /// last value.
  public init<S: Sequence>(_ elements: S) where S.Element == (String, PropertyListValue) {
    storedKeys = []
    storedValues = []
    index = nil
    for (key, value) in elements {
      storedKeys.append(key)
      storedValues.append(value)
    }
    removeDuplicatesAndIndex()
  }

  /// Drops repeated keys (each keeps its first position and its last value, or its first value
  /// when `keepingFirst`) and builds the hash index of large dictionaries.
  @usableFromInline mutating func removeDuplicatesAndIndex(keepingFirst: Bool = false) {
    let count = storedKeys.count
    if count <= Self.indexThreshold {
      var hasDuplicate = false
      outer: for i in 1..<Swift.max(count, 1) {
        let key = storedKeys[i]
        for j in 0..<i where storedKeys[j] == key {
          hasDuplicate = true
          break outer
        }
      }
      if hasDuplicate { rebuildWithoutDuplicates(keepingFirst: keepingFirst) }
      index = nil
      return
    }
    var built = [String: Int](minimumCapacity: count)
    var hasDuplicate = false
    for (position, key) in storedKeys.enumerated() {
      if built.updateValue(position, forKey: key) != nil { hasDuplicate = true }
    }
    if hasDuplicate {
      rebuildWithoutDuplicates(keepingFirst: keepingFirst)
      index = makeIndex()
    } else {
      index = built
    }
  }

  private mutating func rebuildWithoutDuplicates(keepingFirst: Bool) {
    var keys: [String] = []
    var values: [PropertyListValue] = []
    var seen: [String: Int] = [:]
    for (key, value) in zip(storedKeys, storedValues) {
      if let at = seen[key] {
        if !keepingFirst { values[at] = value }
      } else {
        seen[key] = keys.count
        keys.append(key)
        values.append(value)
      }
    }
    storedKeys = keys
    storedValues = values
  }

  /// Key → position for every key (keys are unique).
  private func makeIndex() -> [String: Int] {
    var built = [String: Int](minimumCapacity: storedKeys.count)
    for (position, key) in storedKeys.enumerated() { built[key] = position }
    return built
  }

  public var count: Int { storedKeys.count }
  public var isEmpty: Bool { storedKeys.isEmpty }
  /// The keys in document order.
  public var keys: [String] { storedKeys }
  /// The values in document order.
  public var values: [PropertyListValue] { storedValues }

  @inlinable func position(of key: String) -> Int? {
    if let index { return index[key] }
    return storedKeys.firstIndex(of: key)
  }

  /// The value for `key`; setting `nil` removes the key.
  public subscript(key: String) -> PropertyListValue? {
    get {
      guard let at = position(of: key) else { return nil }
      return storedValues[at]
    }
    set {
      if let newValue {
        updateValue(newValue, forKey: key)
      } else {
        removeValue(forKey: key)
      }
    }
  }

  /// Sets `value` for `key`, keeping the key's position when it exists and appending it otherwise.
  /// Returns the value it replaced.
  @discardableResult
  public mutating func updateValue(_ value: PropertyListValue, forKey key: String) -> PropertyListValue? {
    if let at = position(of: key) {
      let old = storedValues[at]
      storedValues[at] = value
      return old
    }
    storedKeys.append(key)
    storedValues.append(value)
    if index != nil {
      index![key] = storedKeys.count - 1
    } else if storedKeys.count > Self.indexThreshold {
      index = makeIndex()
    }
    return nil
  }

  /// Removes `key`, returning its value.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> PropertyListValue? {
    guard let at = position(of: key) else { return nil }
    storedKeys.remove(at: at)
    let old = storedValues.remove(at: at)
    if index != nil {
      index = storedKeys.count > Self.indexThreshold ? makeIndex() : nil
    }
    return old
  }

  /// The entries with keys sorted by UTF-16 code units, the order CoreFoundation's XML writer uses.
  public var sortedByKey: [Element] {
    zip(storedKeys, storedValues).map { (key: $0, value: $1) }
      .sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
  }
}

extension PropertyListDictionary: Sequence {
  public struct Iterator: IteratorProtocol {
    var keys: IndexingIterator<[String]>
    var values: IndexingIterator<[PropertyListValue]>
    public mutating func next() -> Element? {
      guard let key = keys.next(), let value = values.next() else { return nil }
      return (key: key, value: value)
    }
  }
  public func makeIterator() -> Iterator {
    Iterator(keys: storedKeys.makeIterator(), values: storedValues.makeIterator())
  }
  public var underestimatedCount: Int { storedKeys.count }
}

extension PropertyListDictionary: Hashable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.count == rhs.count else { return false }
    if lhs.storedKeys == rhs.storedKeys { return lhs.storedValues == rhs.storedValues }
    for (key, value) in lhs {
      guard let other = rhs[key], other == value else { return false }
    }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    // Order-independent: combine the entries' own hashes commutatively.
    var sum = 0
    for (key, value) in self {
      var entry = Hasher()
      entry.combine(key)
      entry.combine(value)
      sum = sum &+ entry.finalize()
    }
    hasher.combine(count)
    hasher.combine(sum)
  }
}

extension PropertyListDictionary: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self.init(elements)
  }
}

extension PropertyListDictionary {
  /// Builds a dictionary where a repeated key keeps its *first* value, the rule of
  /// CoreFoundation's binary reader (`CFDictionaryCreate` adds only absent keys).
  package init(keepingFirstOf keys: [String], values: [PropertyListValue]) {
    precondition(keys.count == values.count, "keys and values differ in count")
    storedKeys = keys
    storedValues = values
    index = nil
    removeDuplicatesAndIndex(keepingFirst: true)
  }

  /// For readers that have already checked that no key repeats.
  package init(uniqueKeys keys: [String], values: [PropertyListValue]) {
    storedKeys = keys
    storedValues = values
    index = nil
    if keys.count > Self.indexThreshold { removeDuplicatesAndIndex() }
  }
}
