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
public struct SnapshotNode {
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
public struct Snapshot {
  public var metadata: SnapshotMetadata
  public var applicationState: [String: Any]
  /// The preserved nodes in tree order. A snapshot that was read keeps its nodes as a table of
  /// columns (what a restore reads) and makes these values the first time they are asked for.
  public var nodes: [SnapshotNode] {
    get { storage.nodes }
    set { storage = NodeStorage(nodes: newValue) }
    _modify {
      // In place: the storage lets go of the array while it is changed (`nodes[i].state = …`
      // does not copy every node).
      var nodes = storage.nodes
      storage = NodeStorage(nodes: [])
      defer { storage = NodeStorage(nodes: nodes) }
      yield &nodes
    }
  }
  public var excluded: [ExcludedObject]
  private var storage: NodeStorage

  public init(metadata: SnapshotMetadata, applicationState: [String: Any] = [:], nodes: [SnapshotNode] = [], excluded: [ExcludedObject] = []) {
    self.metadata = metadata
    self.applicationState = applicationState
    storage = NodeStorage(nodes: nodes)
    self.excluded = excluded
  }

  /// The nodes as columns (made from ``nodes`` once when the snapshot was not read).
  var table: SnapshotTable { storage.table }

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

  /// Reads a snapshot (one reader per format: `SnapshotReader`'s format 1, 2 and 3 parts).
  /// `secure` decodes node state with `KeyedArchive`'s secure mode, allowing
  /// property-list types and `allowedClasses`; a node whose state is refused keeps its header
  /// and gets ``SnapshotNode/stateFailure``.
  ///
  /// - Throws: `.corruptSnapshot` when the data is not a keyed archive or its keys do not hold
  ///   together (naming the key), `.unsupportedFormat` for a newer format.
  public init(data: Data, registry: ArchiveClassRegistry = .foundation, secure: Bool = false, allowedClasses: [Any.Type] = [], path: String? = nil)
    throws(RestorationError)
  {
    let reader = try SnapshotReader(data: data, registry: registry, secure: secure, path: path)
    metadata = try reader.readMetadata()
    let valueTypes = Self.propertyListTypes + allowedClasses
    applicationState = try reader.readApplicationState(valueTypes: valueTypes)
    let columns = try reader.readColumns(format: metadata.format)
    let names = try reader.readTree(columns)
    let references = try reader.readReferences(nodeCount: names.count)
    let state = try reader.readState(columns: columns, format: metadata.format, secure: secure, valueTypes: valueTypes)
    storage = NodeStorage(
      table: SnapshotTable(
        names: names, kinds: columns.kinds.map { $0 == 1 ? .view : .viewController }, restorationClasses: columns.restorationClasses,
        storyboards: columns.storyboards, storyboardIdentifiers: columns.storyboardIdentifiers, versions: columns.versions,
        stateBytes: columns.stateBytes, state: state, references: references))
    excluded = try reader.readExcluded()
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


/// A snapshot's nodes, as values, as a table, or both: each made from the other the first time
/// it is asked for. Never changed once made (``Snapshot/nodes``'s setter makes a new one), so
/// copies of a snapshot share it.
private final class NodeStorage {
  private var madeNodes: [SnapshotNode]?
  private var madeTable: SnapshotTable?

  init(nodes: [SnapshotNode]) { madeNodes = nodes }
  init(table: SnapshotTable) { madeTable = table }

  var nodes: [SnapshotNode] {
    if let madeNodes { return madeNodes }
    let nodes = madeTable?.makeNodes() ?? []
    madeNodes = nodes
    return nodes
  }

  var table: SnapshotTable {
    if let madeTable { return madeTable }
    let table = SnapshotTable(nodes: madeNodes ?? [])
    madeTable = table
    return table
  }
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
