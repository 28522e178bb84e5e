public import FoundationEssentials
public import KeyedArchive
internal import PropertyLists
internal import AtomicFiles

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
  public static let currentFormat = 1

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
  /// The node's values (`encodeRestorableStateWithCoder:`).
  public var state: [String: Any]
  /// References to other nodes, by key: their paths.
  public var references: [String: [[String]]]
  /// The estimated size of the state, in bytes.
  public var stateBytes: Int
  /// Why the state could not be read (secure decoding refused a class, a damaged entry); the
  /// node's header is still known.
  public var stateFailure: String?

  public init(
    path: [String], kind: Kind, className: String, restorationClassName: String? = nil, storyboardName: String? = nil,
    storyboardIdentifier: String? = nil, stateVersion: Int = 0, state: [String: Any] = [:],
    references: [String: [[String]]] = [:], stateBytes: Int = 0
  ) {
    self.path = path
    self.kind = kind
    self.className = className
    self.restorationClassName = restorationClassName
    self.storyboardName = storyboardName
    self.storyboardIdentifier = storyboardIdentifier
    self.stateVersion = stateVersion
    self.state = state
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
/// read it) of Foundation classes only. Top-level keys: the metadata keys,
/// `StasisRestorationFormat`, `StasisSnapshotSequence`, `StasisApplicationState` (a dictionary),
/// `StasisNodes` (an array of node dictionaries: `path`, `kind`, `class`, `restorationClass`,
/// `UIStateRestorationViewControllerStoryboardKey`, `storyboardIdentifier`, `version`,
/// `references`, `bytes`), `StasisState.N` (node N's values, one key per node, so that one
/// node's state refused by secure decoding leaves the others readable) and `StasisExcluded`.
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

  static let nodesKey = "StasisNodes"
  static let excludedKey = "StasisExcluded"
  static let applicationKey = "StasisApplicationState"
  static func stateKey(_ index: Int) -> String { "StasisState.\(index)" }

  /// The types every snapshot value may hold in secure mode (property-list types).
  static let propertyListTypes: [Any.Type] = [
    [AnyHashable: Any].self, [Any].self, String.self, Int.self, Double.self, Bool.self, Date.self, Data.self,
  ]

  // MARK: - Writing

  /// The snapshot as a binary keyed archive.
  public func archivedData(registry: ArchiveClassRegistry = .foundation) throws(RestorationError) -> Data {
    let archiver = KeyedArchiver(registry: registry)
    do {
      try encode(into: archiver)
      return try archiver.finishEncoding()
    } catch {
      throw RestorationError(.encodingFailed, detail: "the state could not be archived", underlying: error)
    }
  }

  func encode(into archiver: KeyedArchiver) throws {
    try archiver.encode(metadata.format, forKey: SnapshotMetadata.formatKey)
    try archiver.encode(metadata.sequence, forKey: SnapshotMetadata.sequenceKey)
    try archiver.encode(metadata.bundleVersion, forKey: SnapshotMetadata.bundleVersionKey)
    try archiver.encode(metadata.idiom, forKey: SnapshotMetadata.idiomKey)
    try archiver.encode(metadata.timestamp, forKey: SnapshotMetadata.timestampKey)
    try archiver.encode(metadata.systemVersion, forKey: SnapshotMetadata.systemVersionKey)
    try archiver.encode(applicationState, forKey: Self.applicationKey)
    var headers: [Any] = []
    headers.reserveCapacity(nodes.count)
    for (index, node) in nodes.enumerated() {
      headers.append(node.header)
      if !node.state.isEmpty { try archiver.encode(node.state, forKey: Self.stateKey(index)) }
    }
    try archiver.encode(headers, forKey: Self.nodesKey)
    try archiver.encode(
      excluded.map { ["identifier": $0.identifier, "location": $0.location, "reason": $0.reason] as [String: Any] }, forKey: Self.excludedKey)
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
    func readList(_ key: String, _ expected: String) throws(RestorationError) -> [Any]? {
      let value: Any?
      do { value = try unarchiver.decodeObject(of: Self.propertyListTypes, forKey: key) } catch { throw fail(key, expected, error) }
      guard let value else { return nil }
      guard let list = value as? [Any] else { throw fail(key, expected) }
      return list
    }
    guard let format = try read(Int.self, SnapshotMetadata.formatKey, "the snapshot format, an integer") else {
      throw fail(SnapshotMetadata.formatKey, "the snapshot format (the file is a keyed archive but not a Stasis snapshot)")
    }
    guard format <= SnapshotMetadata.currentFormat, format >= 1 else {
      throw RestorationError(
        .unsupportedFormat, detail: "snapshot format \(format); this Stasis reads format \(SnapshotMetadata.currentFormat)", path: path)
    }
    metadata = SnapshotMetadata(
      bundleVersion: try read(String.self, SnapshotMetadata.bundleVersionKey, "a string"),
      idiom: try read(Int.self, SnapshotMetadata.idiomKey, "an integer") ?? 0,
      timestamp: try read(Date.self, SnapshotMetadata.timestampKey, "a date") ?? Date(timeIntervalSince1970: 0),
      systemVersion: try read(String.self, SnapshotMetadata.systemVersionKey, "a string") ?? "",
      sequence: try read(Int.self, SnapshotMetadata.sequenceKey, "an integer") ?? 0, format: format)
    let valueTypes = Self.propertyListTypes + allowedClasses
    func readState(_ key: String) -> Result<[String: Any], any Error> {
      do {
        guard let value = try unarchiver.decodeObject(of: valueTypes, forKey: key) else {
          return .success([:])
        }
        guard let dictionary = value as? [AnyHashable: Any] else {
          return .failure(fail(key, "a dictionary of state"))
        }
        var state: [String: Any] = [:]
        state.reserveCapacity(dictionary.count)
        for (name, value) in dictionary {
          guard let name = name.base as? String else { return .failure(fail(key, "string keys")) }
          state[name] = value
        }
        return .success(state)
      } catch {
        return .failure(error)
      }
    }
    switch readState(Self.applicationKey) {
    case .success(let state): applicationState = state
    case .failure(let error): throw fail(Self.applicationKey, "the app's values", error)
    }
    guard let headers = try readList(Self.nodesKey, "an array of node dictionaries") else {
      throw fail(Self.nodesKey, "an array of node dictionaries")
    }
    var nodes: [SnapshotNode] = []
    nodes.reserveCapacity(headers.count)
    var seen: Set<[String]> = []
    for (index, header) in headers.enumerated() {
      guard var node = SnapshotNode(header: header) else { throw fail(Self.nodesKey, "node \(index) to have a path, a kind and a class") }
      guard seen.insert(node.path).inserted else { throw fail(Self.nodesKey, "node \(index)'s path \(node.path.joined(separator: "/")) to be unique") }
      if node.path.count > 1, !seen.contains(Array(node.path.dropLast())) {
        throw fail(Self.nodesKey, "node \(index)'s parent \(node.path.dropLast().joined(separator: "/")) to come before it")
      }
      switch readState(Self.stateKey(index)) {
      case .success(let state): node.state = state
      case .failure(let error): node.stateFailure = "\(error)"
      }
      nodes.append(node)
    }
    self.nodes = nodes
    var excluded: [ExcludedObject] = []
    for case let entry as [AnyHashable: Any] in try readList(Self.excludedKey, "an array") ?? [] {
      guard let identifier = entry["identifier"] as? String, let reason = entry["reason"] as? String else { continue }
      excluded.append(ExcludedObject(identifier: identifier, location: (entry["location"] as? [Any])?.compactMap { $0 as? String } ?? [], reason: reason))
    }
    self.excluded = excluded
  }

  /// Reads and decodes the snapshot in the file at `path` (at most 256 MiB).
  public init(contentsOfFile path: String, registry: ArchiveClassRegistry = .foundation, secure: Bool = false, allowedClasses: [Any.Type] = [])
    throws(RestorationError)
  {
    let data: Data
    do {
      data = try AtomicFile.read(contentsOfFile: path, limit: 256 << 20)
    } catch {
      throw RestorationError(.fileSystem, detail: "the snapshot could not be read", path: path, underlying: error)
    }
    try self.init(data: data, registry: registry, secure: secure, allowedClasses: allowedClasses, path: path)
  }

  /// The node at `path`, if it was preserved.
  public func node(at path: [String]) -> SnapshotNode? { nodes.first { $0.path == path } }
}

extension SnapshotNode {
  /// The node's header dictionary (everything but the state).
  var header: [String: Any] {
    var header: [String: Any] = ["path": path, "kind": kind.rawValue, "class": className, "version": stateVersion, "bytes": stateBytes]
    if let restorationClassName { header["restorationClass"] = restorationClassName }
    if let storyboardName { header[SnapshotMetadata.storyboardKey] = storyboardName }
    if let storyboardIdentifier { header["storyboardIdentifier"] = storyboardIdentifier }
    if !references.isEmpty { header["references"] = references }
    return header
  }

  init?(header: Any) {
    guard let header = header as? [AnyHashable: Any],
      let pathList = header["path"] as? [Any], !pathList.isEmpty,
      let kindName = header["kind"] as? String, let kind = Kind(rawValue: kindName),
      let className = header["class"] as? String
    else { return nil }
    var path: [String] = []
    for case let component as String in pathList { path.append(component) }
    guard path.count == pathList.count else { return nil }
    self.init(
      path: path, kind: kind, className: className, restorationClassName: header["restorationClass"] as? String,
      storyboardName: header[SnapshotMetadata.storyboardKey] as? String,
      storyboardIdentifier: header["storyboardIdentifier"] as? String, stateVersion: header["version"] as? Int ?? 0,
      stateBytes: header["bytes"] as? Int ?? 0)
    if let references = header["references"] as? [AnyHashable: Any] {
      for (key, value) in references {
        guard let key = key.base as? String, let paths = value as? [Any] else { continue }
        self.references[key] = paths.compactMap { ($0 as? [Any])?.compactMap { $0 as? String } }
      }
    }
  }
}
