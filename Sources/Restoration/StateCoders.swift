internal import CPrefetch
internal import FoundationEssentials
public import InterfaceObjects

/// The coder a node writes its state through during preservation (UIKit's restoration
/// `NSCoder`): values under keys, and references to other restorable objects, kept as their
/// identifier paths. Also the coder of the app delegate's app-wide values.
@MainActor public final class StateEncoder: RestorableStateEncoder {
  /// The keys and values written so far, in the order first written (a key written again keeps
  /// its place; `nil` removes it). Kept as two lists, not a dictionary: a node writes a few
  /// values, and preservation moves them straight into the snapshot's columns. No runtime
  /// exclusivity checks on any of its stored lists: the coder is `@MainActor`, one call at a
  /// time (profiled: the checks were a tenth of a save's walk, and those left on the key table
  /// and the references, emptied for every node, a third of what remained).
  @exclusivity(unchecked) private(set) var keys: [String] = []
  @exclusivity(unchecked) private(set) var orderedValues: [Any] = []
  /// Where each key is, once a node writes more than a few (a list search below that).
  @exclusivity(unchecked) private var positions: [String: Int]?
  /// References written so far, resolved to paths once the whole tree is walked.
  @exclusivity(unchecked) var objectReferences: [(key: String, objects: [AnyObject])] = []

  init() {}

  /// The values written so far.
  public var values: [String: Any] {
    var result: [String: Any] = [:]
    result.reserveCapacity(keys.count)
    for (key, value) in zip(keys, orderedValues) { result[key] = value }
    return result
  }

  public func encode(_ value: Any?, forKey key: String) {
    // The value is copied once, straight into the list: binding it first (`if let value`) made
    // a copy of the optional and then one of the value (callgrind: a third of this call's
    // instructions in a 10,000-node save).
    let isAbsent = value == nil
    if let position = position(of: key) {
      if !isAbsent {
        orderedValues[position] = value.unsafelyUnwrapped
      } else {
        keys.remove(at: position)
        orderedValues.remove(at: position)
        positions = nil
      }
    } else if !isAbsent {
      keys.append(key)
      orderedValues.append(value.unsafelyUnwrapped)
      positions?[key] = keys.count - 1
    }
  }

  private func position(of key: String) -> Int? {
    if keys.count <= 16 { return keys.firstIndex(of: key) }
    if positions == nil {
      var table: [String: Int] = [:]
      for (index, known) in keys.enumerated() { table[known] = index }
      positions = table
    }
    return positions?[key]
  }

  /// Forgets everything written, keeping the room (one encoder serves every node of a walk).
  func reset() {
    // Removed one by one: a node writes a few values, and `removeAll(keepingCapacity:)` goes
    // through the general `replaceSubrange` (profiled: 3 % of a save). `removeLast`, not
    // `popLast`: the optional `popLast` answers was copied and destroyed through the general
    // witnesses (callgrind: half of a save's `reset`).
    while !keys.isEmpty { keys.removeLast() }
    while !orderedValues.isEmpty { orderedValues.removeLast() }
    positions = nil
    if !objectReferences.isEmpty { objectReferences.removeAll() }
  }

  public func encodeRestorableObject(_ object: AnyObject?, forKey key: String) {
    objectReferences.removeAll { $0.key == key }
    if let object { objectReferences.append((key, [object])) }
  }

  public func encodeRestorableObjects(_ objects: [AnyObject], forKey key: String) {
    objectReferences.removeAll { $0.key == key }
    objectReferences.append((key, objects))
  }
}

/// The coder a node reads its state from during restoration, and the coder the app delegate
/// and restoration classes are given: the node's values (migrated to the class's current
/// version), its references resolved to restored objects, and the snapshot's metadata.
///
/// A restoration makes one per node, so it keeps few references of its own: the node's fields
/// (path, storyboard, references, values) are read from the snapshot's table the coders share
/// (`StateCoderNodes`), not copied into each coder (profiled: making and freeing the coders
/// with a copy of every field was half of a 10,000-node restore's state-decoding phase).
@MainActor public final class StateDecoder: RestorableStateDecoder {
  /// The snapshot's table, metadata and restored objects, shared by the coders of one restoration.
  private let shared: StateCoderNodes
  /// The node in `shared` whose state this is.
  // No run-time exclusivity checks on the fields a reused coder is given for each node
  // (`@MainActor`, one call at a time; profiled).
  @exclusivity(unchecked) private var node: Int
  @exclusivity(unchecked) public private(set) var stateVersion: Int
  /// The node's values when they are not the ones in the table (migrated, or a coder of its own):
  /// `ownEntries`, when `hasOwnEntries`. Not an optional: every look-up tested it, and binding
  /// or replacing an optional of two slices copied and destroyed it through the general
  /// witnesses (callgrind: 4 % of a 10,000-node restore's instructions).
  @exclusivity(unchecked) private var ownEntries: StateEntries
  @exclusivity(unchecked) private var hasOwnEntries: Bool
  /// The values by key, made when a node keeping many is asked for one.
  @exclusivity(unchecked) private var byKey: [String: Any]?

  /// The identifier path of the node (empty for the app-wide coder).
  public var path: [String] { shared.table.names.path(of: node) }
  /// The snapshot's metadata (`UIApplicationStateRestoration…Key`).
  public var metadata: SnapshotMetadata { shared.metadata }
  /// The storyboard that made the view controller (`UIStateRestorationViewControllerStoryboardKey`).
  public var storyboardName: String? { shared.table.storyboardName(of: node) }
  var referenceIndexes: [String: [Int]]? { shared.table.references(of: node) }
  var restored: RestoredObjects? { shared.restored }
  /// The node's values.
  var entries: StateEntries { hasOwnEntries ? ownEntries : shared.table.entries(of: node) }

  /// A coder of its own (the app-wide coder, and coders made outside a restoration's walk);
  /// references given by path are found among `restored`'s nodes.
  convenience init(
    path: [String], stateVersion: Int, metadata: SnapshotMetadata, storyboardName: String?, values: [String: Any],
    references: [String: [[String]]], referenceIndexes: [String: [Int]]? = nil, restored: RestoredObjects?
  ) {
    var node = SnapshotNode(
      path: path, kind: .viewController, className: "", restorationClassName: nil, storyboardName: storyboardName, storyboardIdentifier: nil,
      stateVersion: stateVersion, stateBytes: 0, parentIndex: nil)
    node.referenceIndexes = referenceIndexes ?? (references.isEmpty ? nil : references.mapValues { $0.compactMap { restored?.index(of: $0) } })
    self.init(
      node: 0, of: StateCoderNodes(table: SnapshotTable(nodes: [node]), metadata: metadata, restored: restored), stateVersion: stateVersion,
      entries: StateEntries(values))
  }

  /// The coder of node `node` of `shared`, with `entries` as its values (`nil`: the node's own
  /// in the table) and `stateVersion` as their version (the node's own, or the class's current
  /// one after a migration).
  init(node: Int, of shared: StateCoderNodes, stateVersion: Int, entries: StateEntries?) {
    self.shared = shared
    self.node = node
    self.stateVersion = stateVersion
    hasOwnEntries = entries != nil
    ownEntries = entries ?? StateEntries()
  }

  /// Makes this coder the coder of node `node` of the same table (a restore reuses a coder no
  /// one kept for the next node, instead of making one per node).
  func reuse(forNode node: Int, stateVersion: Int, entries: StateEntries?) {
    self.node = node
    self.stateVersion = stateVersion
    // A node's own values are rare (a migration): the common case stores nothing.
    if let entries {
      ownEntries = entries
      hasOwnEntries = true
    } else if hasOwnEntries {
      ownEntries = StateEntries()
      hasOwnEntries = false
    }
    if byKey != nil { byKey = nil }
  }

  private func value(inManyEntriesForKey key: String) -> Any? {
    if let byKey { return byKey[key] }
    let made = entries.dictionary
    byKey = made
    return made[key]
  }

  /// The values of the node, by key.
  public var allValues: [String: Any] { entries.dictionary }

  private func value(forKey key: String) -> Any? {
    if hasOwnEntries { return ownEntries.count <= 16 ? ownEntries[key] : value(inManyEntriesForKey: key) }
    return shared.table.stateCount(of: node) <= 16 ? shared.table.value(forKey: key, of: node) : value(inManyEntriesForKey: key)
  }

  public func containsValue(forKey key: String) -> Bool { value(forKey: key) != nil || metadata.value(forKey: key) != nil }

  /// The value under `key`; the metadata keys (`UIApplicationStateRestorationBundleVersionKey`
  /// and the others) answer too, as they do in UIKit's coder.
  public func decodeObject(forKey key: String) -> Any? {
    if let value = value(forKey: key) { return value }
    if key == SnapshotMetadata.storyboardKey { return storyboardName }
    return metadata.value(forKey: key)
  }

  // Plain loops, not `compactMap` and `flatMap`: a closure formed here checks at run time
  // that it runs on the main actor (profiled, for a navigation stack of hundreds).

  public func decodeRestorableObject(forKey key: String) -> AnyObject? {
    guard let restored, let indexes = referenceIndexes?[key], let first = indexes.first else { return nil }
    return restored.object(atIndex: first)
  }

  public func decodeRestorableObjects(forKey key: String) -> [AnyObject] {
    guard let restored, let indexes = referenceIndexes?[key] else { return [] }
    var objects: [AnyObject] = []
    objects.reserveCapacity(indexes.count)
    // A container's children were made long before it decodes (a navigation stack of
    // hundreds): each is asked for a few children before it is retained (see `CacheWarming`),
    // its first `CacheWarming.objectSpan` bytes, since the container then sets its parent.
    CacheWarming.forEach(indexes.count, askingAhead: CacheWarming.tightDistance) {
      restored.prefetch(at: indexes[$0], wholeObject: true)
    } _: {
      if let object = restored.object(atIndex: indexes[$0]) { objects.append(object) }
    }
    return objects
  }

  /// The bundle version of the app that wrote the snapshot (`UIApplicationStateRestorationBundleVersionKey`).
  public var bundleVersion: String? { metadata.bundleVersion }
}

/// What the state decoders of one restoration share: the snapshot's table and metadata, and the
/// objects restored so far.
@MainActor final class StateCoderNodes {
  let table: SnapshotTable
  let metadata: SnapshotMetadata
  let restored: RestoredObjects?

  init(table: SnapshotTable, metadata: SnapshotMetadata, restored: RestoredObjects?) {
    self.table = table
    self.metadata = metadata
    self.restored = restored
  }
}

/// The objects made during restoration, by node index (and by path, through the snapshot).
///
/// It holds each object with a reference count of its own, taken and given back by hand
/// (`Unmanaged`): a plain `[AnyObject?]` could not be read to prefetch an object without
/// retaining it first — an atomic operation on the very line being asked for, which waited for
/// the miss the prefetch was to hide (seen in the disassembly) — and letting go of its objects
/// stored `nil` into it object by object, a uniqueness check each.
@MainActor final class RestoredObjects {
  /// Each object retained once by this table (released in `deinit`). No runtime exclusivity
  /// checks: `@MainActor`, one call at a time (profiled).
  @exclusivity(unchecked) private var byIndex: [Unmanaged<AnyObject>?]
  /// The snapshot's node names (shared; paths are made only when one is looked up).
  private let names: NodeNames
  private lazy var indexOfPath: [[String]: Int] = {
    var table: [[String]: Int] = [:]
    for index in 0..<names.count { table[names.path(of: index)] = index }
    return table
  }()

  init(names: NodeNames) {
    self.names = names
    byIndex = [Unmanaged<AnyObject>?](repeating: nil, count: names.count)
  }

  /// Lets go of the objects, each asked for `CacheWarming.tightDistance` objects ahead. The objects
  /// were last touched long before (a 10,000-node restore's objects do not stay in the
  /// processor's cache), and a release is an atomic operation that does not start before the
  /// one before it ends, so releasing them one by one waited for a cache miss per object
  /// (profiled: 5 % of a 10,000-node restore). A prefetch neither waits nor faults: the misses
  /// of the objects ahead are in flight while the release before them runs.
  isolated deinit {
    CacheWarming.forEach(byIndex.count, askingAhead: CacheWarming.tightDistance) { prefetch(at: $0) } _: {
      byIndex[$0]?.release()
    }
  }

  func set(_ object: AnyObject, atIndex index: Int) {
    let previous = byIndex[index]
    byIndex[index] = .passRetained(object)
    previous?.release()
  }

  /// Asks for the object at `index`, if there is one, without retaining or reading it (see
  /// `CacheWarming`): its first cache line (its class and reference counts), or its first
  /// `CacheWarming.objectSpan` bytes when `wholeObject`.
  func prefetch(at index: Int, wholeObject: Bool = false) {
    guard byIndex.indices.contains(index), let object = byIndex[index] else { return }
    let address = object.toOpaque()
    if wholeObject { CacheWarming.prefetchObject(address) } else { CacheWarming.prefetch(address) }
  }

  func object(atIndex index: Int) -> AnyObject? { byIndex.indices.contains(index) ? byIndex[index]?.takeUnretainedValue() : nil }
  func index(of path: [String]) -> Int? { indexOfPath[path] }
  func object(at path: [String]) -> AnyObject? { indexOfPath[path].flatMap { object(atIndex: $0) } }
}

/// Asking for the objects a pass will work on a few objects before it reaches them, so that their
/// cache misses overlap with the work on the objects before (`RestoredObjects`' deinit,
/// `Restorer.decodeState`, `Restorer.finish`, a container's restored children). A 10,000-node
/// restore's objects are made long before the passes over them and are no longer in the
/// processor's cache; a pass that works on one object at a time, with calls and atomic reference
/// counting between, otherwise waits for each miss in turn. A software prefetch
/// (`__builtin_prefetch`, through `CPrefetch`) neither waits nor faults, and holds nothing up
/// while the line comes (the plain loads of a group's first words that it replaces had to
/// complete, and the loop ahead of them waited for the group's last miss).
enum CacheWarming {
  /// How many objects ahead a pass asks for: enough for the misses to arrive before the pass
  /// gets there (a few objects' work), few enough that the lines asked for are not evicted
  /// before use.
  static let distance = 8
  /// The same for a pass that does little with each object (a retain, a release): it reaches
  /// the objects faster, so it asks further ahead.
  static let tightDistance = 32

  /// Calls `body` on each position of `0..<count` in order, having called `ask` on every
  /// position `distance` positions before `body` reaches it (the first `distance` before the
  /// first): the loop of every pass that asks for its objects ahead.
  @inline(__always)
  static func forEach(_ count: Int, askingAhead distance: Int, _ ask: (Int) -> Void, _ body: (Int) -> Void) {
    for position in 0..<min(distance, count) { ask(position) }
    for position in 0..<count {
      if position + distance < count { ask(position + distance) }
      body(position)
    }
  }

  /// Asks for the cache line at `address` (the start of an object: its class and reference
  /// counts).
  @inline(__always)
  static func prefetch(_ address: UnsafeRawPointer) { stasis_prefetch(address) }

  /// How many bytes from its start `prefetchObject` asks for: a view's or view controller's own
  /// stored properties come after its superclasses' (`View` alone has some 25, about 340 bytes),
  /// so the state an object's decoding sets is lines past its class pointer. Past the end of a
  /// smaller object the lines asked for belong to whatever was allocated next (often the objects
  /// made with it); a prefetch of a line never used costs a little bandwidth, nothing more.
  static let objectSpan = 512

  /// Asks for the `objectSpan` bytes from `address`, a cache line at a time.
  @inline(__always)
  static func prefetchObject(_ address: UnsafeRawPointer) {
    var offset = 0
    while offset < objectSpan {
      stasis_prefetch(address + offset)
      offset += 64
    }
  }
}
