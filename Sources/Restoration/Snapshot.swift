public import FoundationEssentials
public import KeyedArchive
internal import PropertyLists
public import StasisSystem

/// The metadata UIKit keeps with a restoration archive, and Stasis's own.
public struct SnapshotMetadata: Sendable, Equatable {
  /// `UIApplicationStateRestorationBundleVersionKey`: the writer's `CFBundleVersion`.
  public static let bundleVersionKey = "UIApplicationStateRestorationBundleVersionKey"
  /// `UIApplicationStateRestorationUserInterfaceIdiomKey`: `UIUserInterfaceIdiom` as a number.
  public static let idiomKey = "UIApplicationStateRestorationUserInterfaceIdiomKey"
  /// `UIApplicationStateRestorationTimestampKey`: when the snapshot was written.
  public static let timestampKey = "UIApplicationStateRestorationTimestampKey"
  /// `UIApplicationStateRestorationSystemVersionKey`: the system's version.
  public static let systemVersionKey = "UIApplicationStateRestorationSystemVersionKey"
  /// `UIStateRestorationViewControllerStoryboardKey`: the storyboard that made a view controller.
  public static let storyboardKey = "UIStateRestorationViewControllerStoryboardKey"
  /// Stasis's snapshot format.
  static let formatKey = "StasisRestorationFormat"
  /// The number of the save that wrote the snapshot, counting from 1 in a saved-state folder.
  static let sequenceKey = "StasisSnapshotSequence"
  /// The format this version of Stasis writes and reads.
  public static let currentFormat = 3

  public var bundleVersion: String?
  /// `UIUserInterfaceIdiom`: 0 phone, 1 pad, 2 TV, 3 CarPlay, 5 Mac.
  public var idiom: Int
  public var timestamp: Date
  public var systemVersion: String
  public var sequence: Int
  public var format: Int

  public init(bundleVersion: String?, idiom: Int, timestamp: Date, systemVersion: String, sequence: Int, format: Int = Self.currentFormat) {
    self.bundleVersion = bundleVersion
    self.idiom = idiom
    self.timestamp = timestamp
    self.systemVersion = systemVersion
    self.sequence = sequence
    self.format = format
  }

  /// The value of a metadata key, as UIKit's coder answers it.
  public func value(forKey key: String) -> Any? {
    switch key {
    case Self.bundleVersionKey: bundleVersion
    case Self.idiomKey: idiom
    case Self.timestampKey: timestamp
    case Self.systemVersionKey: systemVersion
    default: nil
    }
  }
}

/// One preserved object: a view controller or a view, named by its identifier path.
public struct SnapshotNode: @unchecked Sendable {
  public enum Kind: String, Sendable { case viewController, view }
  /// The restoration identifiers from the root down to this object.
  public var path: [String]
  public var kind: Kind
  /// The object's class, for diagnostics.
  public var className: String
  /// The restoration class named by the view controller (`restorationClass`).
  public var restorationClassName: String?
  /// The storyboard that made it and its identifier there.
  public var storyboardName: String?
  public var storyboardIdentifier: String?
  /// The schema version the state was written with.
  public var stateVersion: Int
  /// The node's values (`encodeRestorableStateWithCoder:`). Made from the stored entries on each
  /// read (a snapshot that was read keeps no dictionary per node): keep it in a local when
  /// reading several values.
  public var state: [String: Any] {
    get { entries.dictionary }
    set { entries = StateEntries(newValue) }
  }
  /// The values as stored (``state`` is made from them when asked for).
  var entries: StateEntries
  /// References to other nodes, by key: their paths.
  public var references: [String: [[String]]]
  /// The estimated size of the state, in bytes.
  public var stateBytes: Int
  /// Why the state could not be read (secure decoding refused a class, a damaged entry); the
  /// node's header is still known.
  public var stateFailure: String?
  /// The index of the parent node in the snapshot, when known (set by preservation and reading).
  var parentIndex: Int?
  /// ``references`` as node indexes, when known.
  var referenceIndexes: [String: [Int]]?

  public init(
    path: [String], kind: Kind, className: String, restorationClassName: String? = nil, storyboardName: String? = nil,
    storyboardIdentifier: String? = nil, stateVersion: Int = 0, state: [String: Any] = [:],
    references: [String: [[String]]] = [:], stateBytes: Int = 0
  ) {
    self.init(
      path: path, kind: kind, className: className, restorationClassName: restorationClassName, storyboardName: storyboardName,
      storyboardIdentifier: storyboardIdentifier, stateVersion: stateVersion, state: state, references: references, stateBytes: stateBytes,
      parentIndex: nil)
  }

  init(
    path: [String], kind: Kind, className: String, restorationClassName: String?, storyboardName: String?, storyboardIdentifier: String?,
    stateVersion: Int, state: [String: Any] = [:], references: [String: [[String]]] = [:], stateBytes: Int, parentIndex: Int?
  ) {
    self.parentIndex = parentIndex
    self.path = path
    self.kind = kind
    self.className = className
    self.restorationClassName = restorationClassName
    self.storyboardName = storyboardName
    self.storyboardIdentifier = storyboardIdentifier
    self.stateVersion = stateVersion
    self.entries = state.isEmpty ? StateEntries() : StateEntries(state)
    self.references = references
    self.stateBytes = stateBytes
  }
}

/// An object with a restoration identifier that was not preserved, and why.
public struct ExcludedObject: Sendable, Equatable {
  /// Its identifier.
  public var identifier: String
  /// Its place: the identifiers above it, with `<Class>` for an ancestor that has none.
  public var location: [String]
  public var reason: String
  public init(identifier: String, location: [String], reason: String) {
    self.identifier = identifier
    self.location = location
    self.reason = reason
  }
}

/// A saved interface state: the metadata, the app delegate's app-wide values, the preserved
/// nodes in tree order (parents before children), and the objects left out.
///
/// On disk it is a plain binary keyed archive (Foundation's `NSKeyedUnarchiver` and `plutil`
/// read it) of Foundation classes only, laid out as a table with one column per field, so that a
/// tree of 10,000 nodes stays small and quick to write and read. Top-level keys (format 3, the
/// one written):
///
/// - the metadata keys, `StasisRestorationFormat` (3), `StasisSnapshotSequence`;
/// - `StasisApplicationState`: the app delegate's values (an `NSDictionary`);
/// - `StasisNodeCount`, and `StasisStrings`: an `NSArray` of every name the columns use
///   (identifiers, class names, storyboards, state keys), each once, entry 0 the empty string;
/// - one `NSData` per node field, a value per node in tree order, each value a little-endian
///   signed integer of 1, 2, 4 or 8 bytes — the same width for the whole column, so its length
///   is the width times the node count: `StasisNodeIdentifiers` and `StasisNodeClasses` (indexes
///   into `StasisStrings`), `StasisNodeParents` (the parent's index, −1 for a window's root),
///   `StasisNodeKinds` (0 a view controller, 1 a view), `StasisNodeVersions`,
///   `StasisNodeStateBytes`, and, when some node has one, `StasisNodeRestorationClasses`,
///   `StasisNodeStoryboards` (`UIStateRestorationViewControllerStoryboardKey`) and
///   `StasisNodeStoryboardIdentifiers` (index 0 for none);
/// - `StasisReferenceNodes` and `StasisReferences`: the nodes that keep references (an `NSArray`
///   of numbers), and for each an `NSDictionary` from key to an `NSArray` of node indexes;
/// - `StasisStateCounts` (`NSData`, how many values each node keeps) and `StasisStateKeys`
///   (`NSData`, every node's keys one after the other, as indexes into `StasisStrings`);
/// - the values in the same order: `StasisStateTypes` (`NSData`, a byte per value: 0 the next
///   member of `StasisStateValues`, 1 an integer, 2 a real, 3 a string, 4 false, 5 true, 6/7/8 an
///   array of reals/integers/strings), `StasisStateIntegers` (packed like the node columns),
///   `StasisStateReals` (8-byte little-endian IEEE 754), `StasisStateText` (UTF-8, one string
///   after another) with `StasisStateTextLengths` (packed byte counts),
///   `StasisStateArrayCounts` (packed, one per array) and `StasisStateValues` (an `NSArray` of the
///   other values: dates, data, dictionaries, mixed arrays, an app's archivable classes — read
///   one at a time in secure mode, so that a node whose state is refused leaves the others
///   readable);
/// - `StasisExcluded`: the objects left out (dictionaries: `identifier`, `location`, `reason`).
///
/// Format 2 (read, no longer written) kept every state value in `StasisStateValues`: 45,000
/// property-list objects for 10,000 nodes. Format 1 (read) kept every column as an `NSArray` of
/// strings or numbers: 150,000 objects.
public struct Snapshot: @unchecked Sendable {
  public var metadata: SnapshotMetadata
  public var applicationState: [String: Any]
  public var nodes: [SnapshotNode]
  public var excluded: [ExcludedObject]

  public init(metadata: SnapshotMetadata, applicationState: [String: Any] = [:], nodes: [SnapshotNode] = [], excluded: [ExcludedObject] = []) {
    self.metadata = metadata
    self.applicationState = applicationState
    self.nodes = nodes
    self.excluded = excluded
  }

  enum Key {
    static let application = "StasisApplicationState"
    static let nodeCount = "StasisNodeCount"
    static let strings = "StasisStrings"
    static let identifiers = "StasisNodeIdentifiers"
    static let parents = "StasisNodeParents"
    static let kinds = "StasisNodeKinds"
    static let classes = "StasisNodeClasses"
    static let versions = "StasisNodeVersions"
    static let stateBytes = "StasisNodeStateBytes"
    static let restorationClasses = "StasisNodeRestorationClasses"
    static let storyboards = "StasisNodeStoryboards"
    static let storyboardIdentifiers = "StasisNodeStoryboardIdentifiers"
    static let referenceNodes = "StasisReferenceNodes"
    static let references = "StasisReferences"
    static let stateCounts = "StasisStateCounts"
    static let stateKeys = "StasisStateKeys"
    static let stateValues = "StasisStateValues"
    static let excluded = "StasisExcluded"
  }

  /// The types every snapshot value may hold in secure mode (property-list types).
  static let propertyListTypes: [Any.Type] = [
    [AnyHashable: Any].self, [Any].self, String.self, Int.self, Double.self, Bool.self, Date.self, Data.self,
  ]

  // MARK: - Writing

  /// The snapshot as a binary keyed archive.
  ///
  /// Written by `FoundationValueArchiver` when every value is a plain property-list value (the
  /// usual state), and otherwise (an app's archivable classes in some node's state) by
  /// `KeyedArchiver` with `registry`; both write the same bytes for the same values.
  public func archivedData(registry: ArchiveClassRegistry = .foundation) throws(RestorationError) -> Data {
    do {
      return try SnapshotColumns(self).archivedData(registry: registry)
    } catch {
      throw RestorationError(.encodingFailed, detail: "the state could not be archived", underlying: error)
    }
  }

  // MARK: - Reading

  /// Reads a snapshot. `secure` decodes node state with `KeyedArchive`'s secure mode, allowing
  /// property-list types and `allowedClasses`; a node whose state is refused keeps its header
  /// and gets ``SnapshotNode/stateFailure``.
  ///
  /// - Throws: `.corruptSnapshot` when the data is not a keyed archive or its keys do not hold
  ///   together (naming the key), `.unsupportedFormat` for a newer format.
  public init(data: Data, registry: ArchiveClassRegistry = .foundation, secure: Bool = false, allowedClasses: [Any.Type] = [], path: String? = nil)
    throws(RestorationError)
  {
    let unarchiver: KeyedUnarchiver
    do {
      unarchiver = try KeyedUnarchiver(data: data, registry: registry)
      // Secure mode stays on once set: only a secure read sets it.
      unarchiver.requiresSecureCoding = secure
    } catch {
      throw RestorationError(.corruptSnapshot, detail: "not a keyed archive", path: path, underlying: error)
    }
    func fail(_ key: String, _ expected: String, _ error: (any Error & Sendable)? = nil) -> RestorationError {
      RestorationError(.corruptSnapshot, detail: "top-level key \(key): expected \(expected)", path: path, underlying: error)
    }
    func read<T>(_ type: T.Type, _ key: String, _ expected: String) throws(RestorationError) -> T? {
      do { return try unarchiver.decode(type, forKey: key) } catch { throw fail(key, expected, error) }
    }
    guard let format = try read(Int.self, SnapshotMetadata.formatKey, "the snapshot format, an integer") else {
      throw fail(SnapshotMetadata.formatKey, "the snapshot format (the file is a keyed archive but not a Stasis snapshot)")
    }
    guard format <= SnapshotMetadata.currentFormat, format >= 1 else {
      throw RestorationError(
        .unsupportedFormat, detail: "snapshot format \(format); this Stasis reads formats 1 to \(SnapshotMetadata.currentFormat)", path: path)
    }
    metadata = SnapshotMetadata(
      bundleVersion: try read(String.self, SnapshotMetadata.bundleVersionKey, "a string"),
      idiom: try read(Int.self, SnapshotMetadata.idiomKey, "an integer") ?? 0,
      timestamp: try read(Date.self, SnapshotMetadata.timestampKey, "a date") ?? Date(timeIntervalSince1970: 0),
      systemVersion: try read(String.self, SnapshotMetadata.systemVersionKey, "a string") ?? "",
      sequence: try read(Int.self, SnapshotMetadata.sequenceKey, "an integer") ?? 0, format: format)
    let valueTypes = Self.propertyListTypes + allowedClasses
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
    do {
      applicationState = try stringKeyed(try unarchiver.decodeObject(of: valueTypes, forKey: Key.application), Key.application)
    } catch let error as RestorationError {
      throw error
    } catch {
      throw fail(Key.application, "the app's values", error)
    }
    func strings(_ key: String) throws(RestorationError) -> [String]? {
      do { return try unarchiver.decodeStrings(forKey: key) } catch { throw fail(key, "an array of strings", error) }
    }
    func integers(_ key: String) throws(RestorationError) -> [Int]? {
      do { return try unarchiver.decodeIntegers(forKey: key) } catch { throw fail(key, "an array of integers", error) }
    }
    let identifiers: [String]
    /// Each identifier as a number, equal numbers for equal identifiers (for the check of
    /// sibling paths below).
    var identifierNumbers: [Int]? = nil
    let parents: [Int], kinds: [Int], versions: [Int], stateBytes: [Int], stateCounts: [Int]
    let classes: [String], restorationClasses: [String], storyboards: [String], storyboardIdentifiers: [String]
    let keys: [String]
    if format == 1 {
      // One NSArray per field: names as strings, numbers as NSNumbers.
      identifiers = try strings(Key.identifiers) ?? []
      let count = identifiers.count
      func column<T>(_ values: [T]?, _ key: String, default fallback: T) throws(RestorationError) -> [T] {
        guard let values else { return [T](repeating: fallback, count: count) }
        guard values.count == count else { throw fail(key, "\(count) members, one per node (it has \(values.count))") }
        return values
      }
      parents = try column(try integers(Key.parents), Key.parents, default: -1)
      kinds = try column(try integers(Key.kinds), Key.kinds, default: 0)
      classes = try column(try strings(Key.classes), Key.classes, default: "")
      versions = try column(try integers(Key.versions), Key.versions, default: 0)
      stateBytes = try column(try integers(Key.stateBytes), Key.stateBytes, default: 0)
      restorationClasses = try column(try strings(Key.restorationClasses), Key.restorationClasses, default: "")
      storyboards = try column(try strings(Key.storyboards), Key.storyboards, default: "")
      storyboardIdentifiers = try column(try strings(Key.storyboardIdentifiers), Key.storyboardIdentifiers, default: "")
      stateCounts = try column(try integers(Key.stateCounts), Key.stateCounts, default: 0)
      keys = try strings(Key.stateKeys) ?? []
    } else {
      // Packed integer columns; names as indexes into the string table.
      let table = try strings(Key.strings) ?? [""]
      guard let count = try read(Int.self, Key.nodeCount, "the number of nodes"), count >= 0, count <= 1_000_000 else {
        throw fail(Key.nodeCount, "the number of nodes, 0 to 1,000,000")
      }
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
      func names(_ key: String, count: Int, optional: Bool = false) throws(RestorationError) -> [String] {
        try names(key, indexes: try packed(key, count: count, default: optional ? 0 : nil))
      }
      func names(_ key: String, indexes: [Int]) throws(RestorationError) -> [String] {
        var names: [String] = []
        names.reserveCapacity(indexes.count)
        for index in indexes {
          guard table.indices.contains(index) else { throw fail(key, "indexes into the \(table.count) strings of \(Key.strings) (found \(index))") }
          names.append(table[index])
        }
        return names
      }
      let identifierIndexes = try packed(Key.identifiers, count: count)
      identifiers = try names(Key.identifiers, indexes: identifierIndexes)
      // The table's indexes number the identifiers when the table holds each string once (as
      // Stasis writes it).
      if Set(table).count == table.count { identifierNumbers = identifierIndexes }
      parents = try packed(Key.parents, count: count)
      kinds = try packed(Key.kinds, count: count)
      classes = try names(Key.classes, count: count)
      versions = try packed(Key.versions, count: count, default: 0)
      stateBytes = try packed(Key.stateBytes, count: count, default: 0)
      restorationClasses = try names(Key.restorationClasses, count: count, optional: true)
      storyboards = try names(Key.storyboards, count: count, optional: true)
      storyboardIdentifiers = try names(Key.storyboardIdentifiers, count: count, optional: true)
      stateCounts = try packed(Key.stateCounts, count: count)
      guard stateCounts.allSatisfy({ $0 >= 0 && $0 <= 1_000_000 }) else { throw fail(Key.stateCounts, "counts from 0 to 1,000,000") }
      keys = try names(Key.stateKeys, count: stateCounts.reduce(0, +))
    }
    let count = identifiers.count

    var nodes: [SnapshotNode] = []
    nodes.reserveCapacity(count)
    // Every node's path, kept apart so that building a child's does not copy its parent node.
    var paths: [[String]] = []
    paths.reserveCapacity(count)
    for index in 0..<count {
      let parent = parents[index]
      guard parent < index, parent >= -1 else {
        throw fail(Key.parents, "node \(index)'s parent to be -1 or a node before it (it is \(parent))")
      }
      guard kinds[index] == 0 || kinds[index] == 1 else {
        throw fail(Key.kinds, "node \(index)'s kind to be 0 (a view controller) or 1 (a view) (it is \(kinds[index]))")
      }
      let kind: SnapshotNode.Kind = kinds[index] == 1 ? .view : .viewController
      // The parent's path and this identifier, in one allocation.
      var path: [String] = []
      if parent >= 0 {
        path.reserveCapacity(paths[parent].count + 1)
        path.append(contentsOf: paths[parent])
      }
      path.append(identifiers[index])
      paths.append(path)
      // Made in place: a node is a large value, and setting a field after would copy it.
      nodes.append(
        SnapshotNode(
          path: path, kind: kind, className: classes[index],
          restorationClassName: restorationClasses[index].isEmpty ? nil : restorationClasses[index],
          storyboardName: storyboards[index].isEmpty ? nil : storyboards[index],
          storyboardIdentifier: storyboardIdentifiers[index].isEmpty ? nil : storyboardIdentifiers[index],
          stateVersion: versions[index], stateBytes: stateBytes[index], parentIndex: parent >= 0 ? parent : nil))
    }
    // Paths are unique when siblings' identifiers are (parents' paths being unique in turn).
    if identifierNumbers == nil {
      var numbers: [String: Int] = [:]
      identifierNumbers = identifiers.map { identifier in
        if let known = numbers[identifier] { return known }
        numbers[identifier] = numbers.count
        return numbers.count - 1
      }
    }
    var seen = NamedChildSet(capacity: count)
    if let identifierNumbers {
      for index in nodes.indices where !seen.insert(parent: parents[index], name: identifierNumbers[index]) {
        throw fail(Key.identifiers, "unique paths (\(nodes[index].path.joined(separator: "/")) appears twice)")
      }
    }

    // References.
    let referenceNodes = try integers(Key.referenceNodes) ?? []
    let references: [Any]
    do { references = try unarchiver.decodeObject(of: Self.propertyListTypes, forKey: Key.references) as? [Any] ?? [] } catch {
      throw fail(Key.references, "an array of dictionaries", error)
    }
    guard references.count == referenceNodes.count else { throw fail(Key.references, "one dictionary per node in \(Key.referenceNodes)") }
    for (node, table) in zip(referenceNodes, references) {
      guard nodes.indices.contains(node) else { throw fail(Key.referenceNodes, "node indexes below \(count) (found \(node))") }
      var indexes: [String: [Int]] = [:]
      for (key, value) in try stringKeyed(table, Key.references) {
        guard let list = value as? [Any] else { throw fail(Key.references, "arrays of node indexes") }
        indexes[key] = list.compactMap { ($0 as? Int).flatMap { nodes.indices.contains($0) ? $0 : nil } }
      }
      nodes[node].referenceIndexes = indexes
      nodes[node].references = indexes.mapValues { $0.map { paths[$0] } }
    }

    // State.
    guard stateCounts.allSatisfy({ $0 >= 0 }), stateCounts.reduce(0, +) == keys.count else {
      throw fail(Key.stateCounts, "counts that add up to the \(keys.count) keys of \(Key.stateKeys)")
    }
    // Format 3 keeps the common scalar values in typed columns and only the others in
    // `StasisStateValues`; before it, every value is there.
    var typed: StateValueColumns.Decoded? = nil
    if format >= 3 {
      do {
        typed = try StateValueColumns.read(count: keys.count) { key in
          do { return try unarchiver.decode(Data.self, forKey: key) } catch {
            throw StateValueColumns.Damage(key: key, expected: "data (\(error))")
          }
        }
      } catch let damage as StateValueColumns.Damage {
        throw fail(damage.key, damage.expected)
      } catch {
        throw fail(StateValueColumns.Key.types, "the state value columns", error)
      }
    }
    let generalCount = typed?.generalCount ?? keys.count
    func isGeneral(_ offset: Int) -> Bool { typed.map { $0.tags[offset] == StateValueColumns.Tag.general.rawValue } ?? true }
    var values: [Any]
    var absentOffsets = Set<Int>()
    /// The nodes whose state secure decoding refused.
    var failedNodes = Set<Int>()
    if secure {
      // One value at a time: a value refused fails its node only.
      let members: [UInt64]
      do { members = try unarchiver.memberReferences(forKey: Key.stateValues) } catch { throw fail(Key.stateValues, "an array of values", error) }
      guard members.count == generalCount else { throw fail(Key.stateValues, "\(generalCount) values (the state values not in typed columns)") }
      values = typed?.values ?? [Any](repeating: (), count: keys.count)
      var position = 0
      // A member that decodes to nil ("$null") leaves its key out, as before format 3.
      var absent: [Int] = []
      var member = 0
      for index in 0..<count {
        for offset in position..<(position + stateCounts[index]) where isGeneral(offset) {
          defer { member += 1 }
          guard !failedNodes.contains(index) else { continue }
          do {
            if let value = try unarchiver.decodeObject(atReference: members[member], of: valueTypes) {
              values[offset] = value
            } else {
              absent.append(offset)
            }
          } catch {
            nodes[index].stateFailure = "\(error)"
            failedNodes.insert(index)
          }
        }
        position += stateCounts[index]
      }
      absentOffsets = Set(absent)
    } else {
      let general: [Any]
      do { general = try unarchiver.decodeObject(forKey: Key.stateValues) as? [Any] ?? [] } catch {
        throw fail(Key.stateValues, "an array of values", error)
      }
      guard general.count == generalCount else { throw fail(Key.stateValues, "\(generalCount) values (the state values not in typed columns)") }
      if let typed {
        values = typed.values
        var member = 0
        for offset in values.indices where typed.tags[offset] == StateValueColumns.Tag.general.rawValue {
          values[offset] = general[member]
          member += 1
        }
      } else {
        values = general
      }
    }
    // Each node's entries are slices of the two columns (no dictionary per node).
    var position = 0
    for index in 0..<count {
      let end = position + stateCounts[index]
      // (Reading a field of `nodes[index]` here copied the whole node: profiled.)
      if end > position, failedNodes.isEmpty || !failedNodes.contains(index) {
        if !absentOffsets.isEmpty, (position..<end).contains(where: absentOffsets.contains) {
          var state: [String: Any] = [:]
          for offset in position..<end where !absentOffsets.contains(offset) { state[keys[offset]] = values[offset] }
          nodes[index].state = state
        } else {
          nodes[index].entries = StateEntries(keys: keys[position..<end], values: values[position..<end])
        }
      }
      position = end
    }
    self.nodes = nodes

    var excluded: [ExcludedObject] = []
    let excludedList: [Any]
    do { excludedList = try unarchiver.decodeObject(of: Self.propertyListTypes, forKey: Key.excluded) as? [Any] ?? [] } catch {
      throw fail(Key.excluded, "an array of dictionaries", error)
    }
    for case let entry as [AnyHashable: Any] in excludedList {
      guard let identifier = entry["identifier"] as? String, let reason = entry["reason"] as? String else { continue }
      excluded.append(ExcludedObject(identifier: identifier, location: (entry["location"] as? [Any])?.compactMap { $0 as? String } ?? [], reason: reason))
    }
    self.excluded = excluded
  }

  /// Reads and decodes the snapshot in the file at `path` (at most 256 MiB), through
  /// `environment`'s file system.
  public init(
    contentsOfFile path: String, registry: ArchiveClassRegistry = .foundation, secure: Bool = false, allowedClasses: [Any.Type] = [],
    environment: HostEnvironment = .current
  ) throws(RestorationError) {
    let data: Data
    do {
      data = try environment.fileSystem.read(contentsOfFile: path, limit: Self.maximumFileSize)
    } catch {
      throw RestorationError(.fileSystem, detail: "the snapshot could not be read", path: path, underlying: error)
    }
    try self.init(data: data, registry: registry, secure: secure, allowedClasses: allowedClasses, path: path)
  }

  /// The largest snapshot file read, in bytes (256 MiB).
  public static let maximumFileSize = 256 << 20

  /// The node at `path`, if it was preserved.
  public func node(at path: [String]) -> SnapshotNode? { nodes.first { $0.path == path } }
}


/// `value` as a property-list value when it is one the archiver writes as a plain Foundation
/// value (string, `Int`, `Double`, `Float`, Boolean, date, data, or an array or string-keyed
/// dictionary of those); `nil` otherwise.
func propertyListValue(of value: Any) -> PropertyListValue? {
  switch value {
  case let string as String: return .string(string)
  case let flag as Bool: return .bool(flag)
  case let number as Int: return .integer(PropertyListInteger(Int64(number)))
  case let number as Double: return .real(number)
  case let number as Float: return .real(Double(number), width: .single)
  case let date as Date: return .date(date)
  case let data as Data: return .data(data)
  case let list as [Any]:
    var members: [PropertyListValue] = []
    members.reserveCapacity(list.count)
    for member in list {
      guard let typed = propertyListValue(of: member) else { return nil }
      members.append(typed)
    }
    return .array(members)
  case let dictionary as [String: Any]:
    var members = PropertyListDictionary()
    for (key, member) in dictionary {
      guard let typed = propertyListValue(of: member) else { return nil }
      members[key] = typed
    }
    return .dictionary(members)
  default: return nil
  }
}
