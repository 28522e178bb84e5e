internal import FoundationEssentials
internal import KeyedArchive
internal import StasisSystem

/// Reads one snapshot's keyed archive (``Snapshot/init(data:registry:secure:allowedClasses:path:)``):
/// the parts every format shares — the metadata, the app's values, the node tree, references,
/// state and excluded objects — here; the node columns by format in the extensions
/// (`SnapshotReader+Format1`, `+Format2`, `+Format3`). Every failure is a `.corruptSnapshot`
/// naming the top-level key and what it should hold.
struct SnapshotReader {
  let unarchiver: KeyedUnarchiver
  let path: String?

  /// Every node field as a column, a value per node in tree order, and the state keys.
  struct NodeColumns {
    var identifiers: NameColumn
    var parents: [Int]
    var kinds: [Int]
    var classes: NameColumn
    var versions: [Int]
    var stateBytes: [Int]
    var restorationClasses: NameColumn
    var storyboards: NameColumn
    var storyboardIdentifiers: NameColumn
    var stateCounts: [Int]
    var keys: [String]
  }

  init(data: Data, registry: ArchiveClassRegistry, secure: Bool, path: String?) throws(RestorationError) {
    do {
      unarchiver = try KeyedUnarchiver(data: data, registry: registry)
      // Secure mode stays on once set: only a secure read sets it.
      unarchiver.requiresSecureCoding = secure
    } catch {
      throw RestorationError(.corruptSnapshot, detail: "not a keyed archive", path: path, underlying: error)
    }
    self.path = path
  }

  func fail(_ key: String, _ expected: String, _ error: (any Error & Sendable)? = nil) -> RestorationError {
    RestorationError(.corruptSnapshot, detail: "top-level key \(key): expected \(expected)", path: path, underlying: error)
  }

  func read<T>(_ type: T.Type, _ key: String, _ expected: String) throws(RestorationError) -> T? {
    do { return try unarchiver.decode(type, forKey: key) } catch { throw fail(key, expected, error) }
  }

  func strings(_ key: String) throws(RestorationError) -> [String]? {
    do { return try unarchiver.decodeStrings(forKey: key) } catch { throw fail(key, "an array of strings", error) }
  }

  func integers(_ key: String) throws(RestorationError) -> [Int]? {
    do { return try unarchiver.decodeIntegers(forKey: key) } catch { throw fail(key, "an array of integers", error) }
  }

  /// `value` (an `NSDictionary`) with string keys; empty when absent.
  func stringKeyed(_ value: Any?, _ key: String) throws(RestorationError) -> [String: Any] {
    guard let value else { return [:] }
    guard let dictionary = value as? [AnyHashable: Any] else { throw fail(key, "a dictionary") }
    var result: [String: Any] = [:]
    for (name, member) in dictionary {
      guard let name = name.base as? String else { throw fail(key, "a dictionary with string keys") }
      result[name] = member
    }
    return result
  }

  // MARK: - Metadata and the app's values

  func readMetadata() throws(RestorationError) -> SnapshotMetadata {
    guard let format = try read(Int.self, SnapshotMetadata.formatKey, "the snapshot format, an integer") else {
      throw fail(SnapshotMetadata.formatKey, "the snapshot format (the file is a keyed archive but not a Stasis snapshot)")
    }
    guard format <= SnapshotMetadata.currentFormat, format >= 1 else {
      throw RestorationError(
        .unsupportedFormat, detail: "snapshot format \(format); this Stasis reads formats 1 to \(SnapshotMetadata.currentFormat)", path: path)
    }
    return SnapshotMetadata(
      bundleVersion: try read(String.self, SnapshotMetadata.bundleVersionKey, "a string"),
      idiom: try read(Int.self, SnapshotMetadata.idiomKey, "an integer") ?? 0,
      timestamp: try read(Date.self, SnapshotMetadata.timestampKey, "a date") ?? Date(timeIntervalSince1970: 0),
      systemVersion: try read(String.self, SnapshotMetadata.systemVersionKey, "a string") ?? "",
      sequence: try read(Int.self, SnapshotMetadata.sequenceKey, "an integer") ?? 0, format: format)
  }

  func readApplicationState(valueTypes: [Any.Type]) throws(RestorationError) -> [String: Any] {
    do {
      return try stringKeyed(try unarchiver.decodeObject(of: valueTypes, forKey: Snapshot.Key.application), Snapshot.Key.application)
    } catch let error as RestorationError {
      throw error
    } catch {
      throw fail(Snapshot.Key.application, "the app's values", error)
    }
  }

  /// The node columns of a snapshot of `format`: format 1's arrays, or the packed columns of
  /// formats 2 and 3.
  func readColumns(format: Int) throws(RestorationError) -> NodeColumns {
    format == 1 ? try readArrayColumns() : try readPackedColumns()
  }

  // MARK: - The tree

  /// The tree the columns describe: checks parents, kinds and that paths are unique.
  func readTree(_ columns: NodeColumns) throws(RestorationError) -> NodeNames {
    let count = columns.identifiers.count
    for index in 0..<count {
      let parent = columns.parents[index]
      guard parent < index, parent >= -1 else {
        throw fail(Snapshot.Key.parents, "node \(index)'s parent to be -1 or a node before it (it is \(parent))")
      }
      let kindNumber = columns.kinds[index]
      guard kindNumber == 0 || kindNumber == 1 else {
        throw fail(Snapshot.Key.kinds, "node \(index)'s kind to be 0 (a view controller) or 1 (a view) (it is \(kindNumber))")
      }
    }
    let names = NodeNames(identifiers: columns.identifiers, parents: columns.parents, classes: columns.classes)
    // Paths are unique when siblings' identifiers are (parents' paths being unique in turn).
    let identifierNumbers = columns.identifiers.numbers
    var seen = NamedChildSet(capacity: count)
    for index in 0..<count where !seen.insert(parent: columns.parents[index], name: identifierNumbers[index]) {
      throw fail(Snapshot.Key.identifiers, "unique paths (\(names.path(of: index).joined(separator: "/")) appears twice)")
    }
    return names
  }

  /// `StasisReferenceNodes` and `StasisReferences`: each node's references, by key, to other
  /// nodes (indexes below `nodeCount`; others are dropped).
  func readReferences(nodeCount: Int) throws(RestorationError) -> [Int: [String: [Int]]] {
    let referenceNodes = try integers(Snapshot.Key.referenceNodes) ?? []
    let references: [Any]
    do {
      references = try unarchiver.decodeObject(of: Snapshot.propertyListTypes, forKey: Snapshot.Key.references) as? [Any] ?? []
    } catch {
      throw fail(Snapshot.Key.references, "an array of dictionaries", error)
    }
    guard references.count == referenceNodes.count else {
      throw fail(Snapshot.Key.references, "one dictionary per node in \(Snapshot.Key.referenceNodes)")
    }
    var result: [Int: [String: [Int]]] = [:]
    for (node, table) in zip(referenceNodes, references) {
      guard node >= 0, node < nodeCount else { throw fail(Snapshot.Key.referenceNodes, "node indexes below \(nodeCount) (found \(node))") }
      var indexes: [String: [Int]] = [:]
      for (key, value) in try stringKeyed(table, Snapshot.Key.references) {
        guard let list = value as? [Any] else { throw fail(Snapshot.Key.references, "arrays of node indexes") }
        indexes[key] = list.compactMap { ($0 as? Int).flatMap { $0 >= 0 && $0 < nodeCount ? $0 : nil } }
      }
      result[node] = indexes
    }
    return result
  }

  // MARK: - State

  /// Every node's state: the values in `StasisStateValues` (all of them before format 3; since
  /// it, those not in the typed columns), kept as the two columns with each node's range. In
  /// secure mode the values are read one at a time, so that a value refused fails its node only
  /// (``SnapshotNode/stateFailure``).
  func readState(columns: NodeColumns, format: Int, secure: Bool, valueTypes: [Any.Type]) throws(RestorationError) -> SnapshotTable.States {
    let keys = columns.keys
    let stateCounts = columns.stateCounts
    guard stateCounts.allSatisfy({ $0 >= 0 }), stateCounts.reduce(0, +) == keys.count else {
      throw fail(Snapshot.Key.stateCounts, "counts that add up to the \(keys.count) keys of \(Snapshot.Key.stateKeys)")
    }
    let typed = format >= 3 ? try readTypedStateColumns(count: keys.count) : nil
    let generalCount = typed?.generalCount ?? keys.count
    var state = SnapshotTable.States()
    var absentOffsets = Set<Int>()
    if secure {
      (state.values, absentOffsets, state.failures) = try readStateValuesOneByOne(
        stateCounts: stateCounts, keyCount: keys.count, generalCount: generalCount, typed: typed, valueTypes: valueTypes)
    } else {
      let general: [Any]
      do { general = try unarchiver.decodeObject(forKey: Snapshot.Key.stateValues) as? [Any] ?? [] } catch {
        throw fail(Snapshot.Key.stateValues, "an array of values", error)
      }
      guard general.count == generalCount else {
        throw fail(Snapshot.Key.stateValues, "\(generalCount) values (the state values not in typed columns)")
      }
      if let typed {
        state.values = typed.values
        var member = 0
        for offset in state.values.indices where typed.tags[offset] == StateValueColumns.Tag.general.rawValue {
          state.values[offset] = general[member]
          member += 1
        }
      } else {
        state.values = general
      }
    }
    state.keys = keys
    // Each node's entries are its range of the two columns (no dictionary per node); a node
    // whose range cannot serve as it is gets entries of its own.
    state.starts.reserveCapacity(stateCounts.count + 1)
    var position = 0
    for index in stateCounts.indices {
      let end = position + stateCounts[index]
      state.starts.append(end)
      if end > position {
        if !state.failures.isEmpty, state.failures[index] != nil {
          state.otherEntries[index] = StateEntries()
        } else if !absentOffsets.isEmpty, (position..<end).contains(where: absentOffsets.contains) {
          var values: [String: Any] = [:]
          for offset in position..<end where !absentOffsets.contains(offset) { values[keys[offset]] = state.values[offset] }
          state.otherEntries[index] = StateEntries(values)
        } else if StateEntries.hasRepeatedKey(keys[position..<end]) {
          state.otherEntries[index] = StateEntries(keys: keys[position..<end], values: state.values[position..<end])
        }
      }
      position = end
    }
    return state
  }

  /// Secure mode: the general values one member at a time; answers every value (typed ones
  /// included), the offsets whose member decoded to nil ("$null" leaves its key out, as before
  /// format 3), and why the nodes a refused value failed could not be read.
  private func readStateValuesOneByOne(
    stateCounts: [Int], keyCount: Int, generalCount: Int, typed: StateValueColumns.Decoded?, valueTypes: [Any.Type]
  ) throws(RestorationError) -> (values: [Any], absent: Set<Int>, failed: [Int: String]) {
    let members: [UInt64]
    do { members = try unarchiver.memberReferences(forKey: Snapshot.Key.stateValues) } catch {
      throw fail(Snapshot.Key.stateValues, "an array of values", error)
    }
    guard members.count == generalCount else {
      throw fail(Snapshot.Key.stateValues, "\(generalCount) values (the state values not in typed columns)")
    }
    func isGeneral(_ offset: Int) -> Bool { typed.map { $0.tags[offset] == StateValueColumns.Tag.general.rawValue } ?? true }
    var values = typed?.values ?? [Any](repeating: (), count: keyCount)
    var absent: [Int] = []
    var failed: [Int: String] = [:]
    var position = 0
    var member = 0
    for index in stateCounts.indices {
      for offset in position..<(position + stateCounts[index]) where isGeneral(offset) {
        defer { member += 1 }
        guard failed[index] == nil else { continue }
        do {
          if let value = try unarchiver.decodeObject(atReference: members[member], of: valueTypes) {
            values[offset] = value
          } else {
            absent.append(offset)
          }
        } catch {
          failed[index] = "\(error)"
        }
      }
      position += stateCounts[index]
    }
    return (values, Set(absent), failed)
  }

  // MARK: - Excluded objects

  /// `StasisExcluded`: the objects left out (entries without an identifier or reason are skipped).
  func readExcluded() throws(RestorationError) -> [ExcludedObject] {
    let list: [Any]
    do { list = try unarchiver.decodeObject(of: Snapshot.propertyListTypes, forKey: Snapshot.Key.excluded) as? [Any] ?? [] } catch {
      throw fail(Snapshot.Key.excluded, "an array of dictionaries", error)
    }
    var excluded: [ExcludedObject] = []
    for case let entry as [AnyHashable: Any] in list {
      guard let identifier = entry["identifier"] as? String, let reason = entry["reason"] as? String else { continue }
      excluded.append(
        ExcludedObject(identifier: identifier, location: (entry["location"] as? [Any])?.compactMap { $0 as? String } ?? [], reason: reason))
    }
    return excluded
  }
}
