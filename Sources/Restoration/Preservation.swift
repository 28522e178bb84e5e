internal import InterfaceObjects
internal import FoundationEssentials
internal import KeyedArchive

/// What one save did: how many nodes it kept, how big it was, what it left out and why.
public struct PreservationReport: Sendable {
  /// Preserved view controllers and views.
  public var nodeCount = 0
  /// The snapshot's size on disk.
  public var byteCount = 0
  /// The largest nodes by estimated state size, largest first (at most five).
  public var largestNodes: [(path: [String], bytes: Int)] = []
  /// Objects not preserved, and why (no identifier on an ancestor, a shared path, a state over
  /// the budget or that could not be archived).
  public var excluded: [ExcludedObject] = []
  /// Why nothing was saved, when nothing was.
  public var skippedBecause: String?
}

/// Walks the view-controller tree of an app's windows the way UIKit does when it preserves
/// state, and lays the preserved nodes out as the snapshot's columns as it goes.
@MainActor struct Preservation {
  let nodeStateBudget: Int

  private(set) var columns: SnapshotColumns
  private(set) var excluded: [ExcludedObject] = []
  /// The references each node that keeps some wrote, by node index.
  private var nodeReferences: [(node: Int, references: [(key: String, objects: [AnyObject])])] = []
  /// The coder every node writes through, emptied between nodes.
  private let encoder = StateEncoder()
  /// Walks a controller's own views.
  private var viewWalker = OwnViewWalker()
  /// Every controller visited: its node index + 1, or 0 when it was not preserved
  /// (open-addressed by address: a `Dictionary` and a `Set` hashed each object with SipHash,
  /// which showed in profiles).
  private var objectNumbers = IdentityNumbers()
  /// The preserved views with their node indexes, in a list: put in a table only when a
  /// reference is to an object that is not a controller (rare; a table probe per view was a
  /// cache miss per view).
  private var viewNodes: [(view: ObjectIdentifier, index: Int)] = []
  /// (parent node index, identifier's index in the string table) of every controller node, and
  /// of the views of controllers with many (see `insertViewName`): paths are unique when
  /// siblings' are.
  private var usedPaths = NamedChildSet()
  /// The controllers (node indexes) whose views' names are in `usedPaths`: those with many.
  private var ownersWithManyViews: Set<Int> = []
  private var classNames: [ObjectIdentifier: String] = [:]
  /// The last four classes named, replaced in turn.
  private var recentClassNames: [(ObjectIdentifier, String)] = Array(repeating: (ObjectIdentifier(Never.self), ""), count: 4)
  private var nextRecentClassName = 0

  /// `expectedNodeCount`, `expectedValueCount`: how many nodes and state values to make room for
  /// (the previous save's counts). Only these: room made at once for every column and table
  /// (blocks of 100 to 200 KB, each fresh from the kernel under glibc's malloc) made a save
  /// slower than growing them, measured.
  init(metadata: SnapshotMetadata, applicationState: [String: Any], nodeStateBudget: Int, expectedNodeCount: Int = 0, expectedValueCount: Int = 0) {
    self.nodeStateBudget = nodeStateBudget
    columns = SnapshotColumns(metadata: metadata, applicationState: applicationState, expectedCount: expectedNodeCount)
    columns.stateKeys.reserveCapacity(expectedValueCount)
    columns.stateValues = StateValueColumns(capacity: expectedValueCount)
    usedPaths = NamedChildSet(capacity: expectedNodeCount)
  }

  /// Lets go of everything this save held — the app's values and objects, the columns, the
  /// tables — keeping the room, so that the next save can start from it
  /// (``restart(metadata:applicationState:)``) instead of asking for fresh memory.
  ///
  /// A save of 10,000 nodes asks for a few megabytes; glibc's malloc hands them back to the
  /// kernel when they are freed in one piece and faults them in again at the next save (measured:
  /// in some runs a tenth of a save, depending on the heap's layout). An app saves each time it
  /// enters the background, so it keeps that much between saves.
  mutating func empty() {
    columns.empty()
    excluded.removeAll()
    columns.excluded = []
    nodeReferences.removeAll()
    encoder.reset()
    viewWalker.reset()
    // The keyed archiver's identity table has no emptying of its own: a new one.
    objectNumbers = IdentityNumbers()
    viewNodes.removeAll(keepingCapacity: true)
    usedPaths.removeAll()
    ownersWithManyViews.removeAll()
    // `classNames` and `recentClassNames` stay: a class's name does not change.
  }

  /// Starts a save with this emptied one's room.
  mutating func restart(metadata: SnapshotMetadata, applicationState: [String: Any]) {
    columns.metadata = metadata
    columns.applicationState = applicationState
  }

  /// Preserves every window's root view controller and what is under it.
  mutating func walk(roots: [ViewController]) {
    for root in roots { visit(root, under: .preserved(parent: nil)) }
    resolveReferences()
    columns.excluded = excluded.map(SnapshotColumns.entry)
  }

  /// What is above a controller: a preserved node (its path is made from the columns only when
  /// a message needs it — a path per node showed in profiles), or an object that was not
  /// preserved, with the identifiers above it for the messages.
  private enum Above {
    case preserved(parent: Int?)
    case notPreserved(location: [String])
  }

  /// The identifier path of a preserved node, or none above a root.
  private func path(of node: Int?) -> [String] { node.map { columns.path(ofNode: $0) } ?? [] }

  private mutating func visit(_ controller: ViewController, under above: Above) {
    guard objectNumbers.number(of: ObjectIdentifier(controller)) == nil, columns.count < 1_000_000 else { return }
    objectNumbers.record(ObjectIdentifier(controller), number: 0)
    let className = name(of: controller)
    // Its children, then the controller it presents (no list made for the pair).
    let children = controller.children
    let presented = controller.presentedViewController
    guard let identifier = controller.restorationIdentifier, case .preserved(let parentIndex) = above else {
      // Not preserved: nor is anything under it. Say so for every object below that has an identifier.
      let location: [String]
      let reason: String
      switch above {
      case .notPreserved(let known):
        location = known
        reason = "an ancestor (\(location.last ?? className)) has no restoration identifier"
      case .preserved(let parentIndex):
        location = path(of: parentIndex)
        reason = "\(className) has no restoration identifier, so nothing under it is preserved"
      }
      let here = location + [controller.restorationIdentifier ?? "<\(className)>"]
      if let identifier = controller.restorationIdentifier {
        excluded.append(ExcludedObject(identifier: identifier, location: location, reason: reason))
      }
      for child in children { visit(child, under: .notPreserved(location: here)) }
      if let presented { visit(presented, under: .notPreserved(location: here)) }
      return
    }
    let name = columns.strings.index(of: identifier)
    guard usedPaths.insert(parent: parentIndex ?? -1, name: name), !isViewName(name, under: parentIndex) else {
      let parentPath = path(of: parentIndex)
      excluded.append(
        ExcludedObject(
          identifier: identifier, location: parentPath, reason: "another object already has the path \((parentPath + [identifier]).joined(separator: "/"))"))
      return
    }
    encoder.reset()
    controller.encodeRestorableState(with: encoder)
    let index = add(
      identifier: identifier, name: name, parentIndex: parentIndex ?? -1, kind: .viewController, className: className,
      restorationClassName: controller.restorationClassName, storyboardName: controller.storyboard?.storyboardName,
      storyboardIdentifier: controller.storyboardIdentifier, stateVersion: type(of: controller).restorableStateVersion, object: controller)
    if let view = controller.viewIfLoaded { visitViews(under: view, owner: controller, ownerIndex: index) }
    for child in children { visit(child, under: .preserved(parent: index)) }
    if let presented { visit(presented, under: .preserved(parent: index)) }
  }

  /// Views with identifiers in the controller's own view tree (not in its children's views).
  private mutating func visitViews(under root: View, owner: ViewController, ownerIndex: Int) {
    viewWalker.start(at: root)
    while let view = viewWalker.next(owner: owner) {
      guard let identifier = view.restorationIdentifier else { continue }
      let identifierName = columns.strings.index(of: identifier)
      if !insertViewName(identifierName, under: ownerIndex) {
        let ownerPath = path(of: ownerIndex)
        excluded.append(
          ExcludedObject(
            identifier: identifier, location: ownerPath, reason: "another object already has the path \((ownerPath + [identifier]).joined(separator: "/"))"))
      } else {
        encoder.reset()
        view.encodeRestorableState(with: encoder)
        add(
          identifier: identifier, name: identifierName, parentIndex: ownerIndex, kind: .view, className: name(of: view), restorationClassName: nil,
          storyboardName: nil, storyboardIdentifier: nil, stateVersion: type(of: view).restorableStateVersion, object: view)
      }
    }
  }

  /// Checks and records the name of a view of the controller at node `owner`: unique among the
  /// views of that controller added so far — the nodes just after it, as views come before the
  /// controller's children — by a scan of the columns while it has a few, through `usedPaths`
  /// once it has more (a probe per view into a table that outgrows the caches showed in profiles).
  private mutating func insertViewName(_ name: Int, under owner: Int) -> Bool {
    if !ownersWithManyViews.isEmpty, ownersWithManyViews.contains(owner) { return usedPaths.insert(parent: owner, name: name) }
    let views = (owner + 1)..<columns.count
    if views.count < 16 {
      // A plain loop (a closure given to `contains` checks the actor it runs on, per view).
      for view in views where columns.identifiers[view] == name { return false }
      return true
    }
    ownersWithManyViews.insert(owner)
    for view in views { _ = usedPaths.insert(parent: owner, name: columns.identifiers[view]) }
    return usedPaths.insert(parent: owner, name: name)
  }

  /// Whether a view of the controller at node `parent` has the name `name` (its views not in
  /// `usedPaths`: those of a controller with few).
  private func isViewName(_ name: Int, under parent: Int?) -> Bool {
    guard let parent, ownersWithManyViews.isEmpty || !ownersWithManyViews.contains(parent) else { return false }
    var view = parent + 1
    while view < columns.count, columns.parents[view] == parent, columns.kinds[view] == 1 {
      if columns.identifiers[view] == name { return true }
      view += 1
    }
    return false
  }

  /// Adds the node whose state `encoder` holds.
  @discardableResult
  private mutating func add(
    identifier: String, name: Int, parentIndex: Int, kind: SnapshotNode.Kind, className: String, restorationClassName: String?,
    storyboardName: String?, storyboardIdentifier: String?, stateVersion: Int, object: AnyObject
  ) -> Int {
    let bytes = estimatedSize(keys: encoder.keys, values: encoder.orderedValues)
    let overBudget = bytes > nodeStateBudget
    if overBudget {
      excluded.append(
        ExcludedObject(
          identifier: identifier, location: path(of: parentIndex >= 0 ? parentIndex : nil),
          reason: "its state (about \(bytes) bytes) is over the budget of \(nodeStateBudget) bytes per node; the node is kept without its state"))
    }
    let index = columns.count
    if kind == .viewController {
      objectNumbers.record(ObjectIdentifier(object), number: UInt64(index + 1))
    } else {
      viewNodes.append((ObjectIdentifier(object), index))
    }
    columns.appendNode(
      identifier: name, parent: parentIndex, kind: kind, className: className, restorationClassName: restorationClassName,
      storyboardName: storyboardName, storyboardIdentifier: storyboardIdentifier, stateVersion: stateVersion, stateBytes: bytes,
      stateKeys: overBudget ? [] : encoder.keys[...], stateValues: overBudget ? [] : encoder.orderedValues[...])
    if !encoder.objectReferences.isEmpty { nodeReferences.append((index, encoder.objectReferences)) }
    return index
  }

  /// The class's name, computed once per class.
  private mutating func name(of object: AnyObject) -> String {
    let type = ObjectIdentifier(Swift.type(of: object))
    // A tree repeats a few classes in turn (a controller, its views): the last few are
    // compared before the table is hashed.
    for (known, name) in recentClassNames where known == type { return name }
    let name: String
    if let known = classNames[type] {
      name = known
    } else {
      name = String(describing: Swift.type(of: object))
      classNames[type] = name
    }
    recentClassNames[nextRecentClassName] = (type, name)
    nextRecentClassName = (nextRecentClassName + 1) % recentClassNames.count
    return name
  }

  /// References become node indexes once every preserved object is known; references to
  /// objects that were not preserved are dropped (UIKit does not encode them either).
  private mutating func resolveReferences() {
    var viewNumbers: IdentityNumbers?
    for (node, references) in nodeReferences {
      var indexes: [String: [Int]] = [:]
      for (key, objects) in references {
        indexes[key] = objects.compactMap { object in
          let identity = ObjectIdentifier(object)
          if let number = objectNumbers.number(of: identity) { return number > 0 ? Int(number - 1) : nil }
          if viewNumbers == nil {
            var table = IdentityNumbers(capacity: viewNodes.count)
            for (view, index) in viewNodes { table.record(view, number: UInt64(index)) }
            viewNumbers = table
          }
          return viewNumbers?.number(of: identity).map { Int($0) }
        }
      }
      columns.addReferences(ofNode: node, indexes)
    }
    nodeReferences = []
  }

  /// Drops the state of the nodes whose values cannot be archived, naming them.
  mutating func dropState(ofNodesAt indices: [Int], because reason: (Int) -> String) {
    for index in indices {
      let path = columns.path(ofNode: index)
      excluded.append(ExcludedObject(identifier: path.last ?? "", location: Array(path.dropLast()), reason: reason(index)))
    }
    columns.dropStates(ofNodes: Set(indices))
    columns.excluded = excluded.map(SnapshotColumns.entry)
  }
}

/// A cheap estimate of a state's archived size: strings and data by their bytes, numbers and
/// dates by 9 bytes, collections by their members, other objects by 64 bytes.
func estimatedSize(of state: [String: Any]) -> Int {
  estimatedSize(keys: state.keys, values: state.values)
}

/// The estimate for a state given as its keys and values, in the same order.
func estimatedSize(keys: some Sequence<String>, values: some Sequence<Any>) -> Int {
  var total = 8
  for (key, value) in zip(keys, values) { total += key.utf8.count + 2 + estimatedSize(of: value) }
  return total
}

/// A cheap estimate of one value's archived size (see `estimatedSize(of:)` for a state).
func estimatedSize(of value: Any) -> Int {
  // The common types by their exact type first: one comparison each, where a failed cast costs
  // tens of nanoseconds.
  let type = heldType(of: value)
  if type == ObjectIdentifier(String.self) { return unboxExactly(value, as: String.self).utf8.count + 2 }
  if type == ObjectIdentifier(Int.self) || type == ObjectIdentifier(Double.self) || type == ObjectIdentifier(Bool.self) { return 9 }
  if type == ObjectIdentifier([Double].self) { return 8 + 9 * unboxExactly(value, as: [Double].self).count }
  if type == ObjectIdentifier([Int].self) { return 8 + 9 * unboxExactly(value, as: [Int].self).count }
  switch value {
  case let string as String: return string.utf8.count + 2
  case is Int, is Double, is Bool: return 9
  case let list as [Any]: return list.reduce(8) { $0 + estimatedSize(of: $1) }
  case let dictionary as [String: Any]: return estimatedSize(of: dictionary)
  case let dictionary as [AnyHashable: Any]: return dictionary.reduce(8) { $0 + 16 + estimatedSize(of: $1.value) }
  case is Float, is Int64, is Date: return 9
  case let data as Data: return data.count + 2
  default: return 64
  }
}

/// The places of preserved nodes among their siblings — a parent's index and an identifier's
/// index in the snapshot's string table — for the check that siblings' identifiers differ (paths
/// are then unique). Every save and every read checks each node, so this is a table of 64-bit
/// keys with open addressing and a multiplicative hash, not a `Set` of pairs hashed with SipHash.
struct NamedChildSet {
  /// `key + 1` per used slot, 0 for an empty one.
  private var slots: [UInt64]
  private var count = 0
  /// Pairs outside the packed key's range (a parent index or name past 2³¹; none in practice).
  private var others: Set<[Int]> = []

  init(capacity: Int = 0) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    slots = [UInt64](repeating: 0, count: size)
  }

  /// Removes every pair, keeping the room.
  mutating func removeAll() {
    slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    count = 0
    others = []
  }

  /// Adds the pair; false when it was there already.
  mutating func insert(parent: Int, name: Int) -> Bool {
    guard parent >= -1, parent < Int(Int32.max), name >= 0, name < Int(Int32.max) else {
      return others.insert([parent, name]).inserted
    }
    if (count + 1) * 2 > slots.count { grow() }
    let stored = (UInt64(parent + 1) << 32 | UInt64(name)) + 1
    var slot = Self.slot(of: stored, in: slots.count)
    while slots[slot] != 0 {
      if slots[slot] == stored { return false }
      slot = (slot + 1) & (slots.count - 1)
    }
    slots[slot] = stored
    count += 1
    return true
  }

  private static func slot(of stored: UInt64, in size: Int) -> Int {
    Int(truncatingIfNeeded: (stored &* 0x9E37_79B9_7F4A_7C15) >> 32) & (size - 1)
  }

  private mutating func grow() {
    let old = slots
    slots = [UInt64](repeating: 0, count: old.count * 2)
    for stored in old where stored != 0 {
      var slot = Self.slot(of: stored, in: slots.count)
      while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
      slots[slot] = stored
    }
  }
}
