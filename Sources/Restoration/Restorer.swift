internal import InterfaceObjects

/// What restoration did with one saved node.
public struct NodeOutcome: Sendable, Equatable {
  /// The node's identifier path.
  public var path: [String] {
    get { ownPath ?? names?.path(of: index) ?? [] }
    set { ownPath = newValue }
  }
  /// The class that was saved.
  public var className: String {
    get { ownClassName ?? names?.classes[index] ?? "" }
    set { ownClassName = newValue }
  }
  /// How the object was obtained (`restoration class X`, `app delegate`, `existing object`,
  /// `storyboard S`), or `nil` when it was not restored.
  public var restoredBy: String?
  /// Why it was not restored, when it was not.
  public var notRestoredBecause: String?
  /// What else happened (its state migrated from an older version, dropped).
  public var notes: [String] = []

  public var isRestored: Bool { restoredBy != nil }

  /// A restore's outcomes name their node by its index in the snapshot's names (a 10,000-node
  /// restore copied every path and class name into its outcomes); a path or class set by hand
  /// is kept instead.
  private let names: NodeNames?
  private let index: Int
  private var ownPath: [String]?
  private var ownClassName: String?

  init(path: [String], className: String) {
    names = nil
    index = 0
    ownPath = path
    ownClassName = className
  }

  /// The outcome of node `index` of `names`.
  init(node index: Int, of names: NodeNames) {
    self.names = names
    self.index = index
  }

  public static func == (left: Self, right: Self) -> Bool {
    left.restoredBy == right.restoredBy && left.notRestoredBecause == right.notRestoredBecause && left.notes == right.notes
      && left.className == right.className && left.path == right.path
  }
}

/// A migration of one class's saved state from one version to the next.
public typealias StateMigration = (inout [String: Any]) throws -> Void

/// Runs UIKit's two phases over a snapshot: object creation (restoration class → the delegate →
/// an object that already exists with the path → the storyboard that made it), then state
/// decoding, then `applicationFinishedRestoringState`.
@MainActor struct Restorer {
  /// The snapshot's nodes, as columns.
  let table: SnapshotTable
  let delegate: (any StateRestorationDelegate)?
  let restorationClasses: [String: any ViewControllerRestoration.Type]
  let storyboardNamed: (String) -> (any ViewControllerSource)?
  let migrations: [String: [Int: StateMigration]]
  let roots: [ViewController]

  let restored: RestoredObjects
  /// The snapshot's table as every node's coder reads it.
  private let coderNodes: StateCoderNodes
  private(set) var outcomes: [NodeOutcome] = []
  /// The restored objects in node order, with their node's index.
  private var made: [MadeObject] = []
  private var existing: [[String]: AnyObject] = [:]
  private var storyboardLabels: [String: String] = [:]
  private var lastRestorationClass: (name: String, type: any ViewControllerRestoration.Type, label: String)?
  /// The coder each view controller's node was created with, by node index (reused to decode
  /// its state when no migration changes the values).
  private var creationCoders: [StateDecoder?] = []
  /// A coder no one kept after its node (checked as the only reference to it), reused for the
  /// next node: making and freeing one per node showed in profiles; one an app keeps is never
  /// reused.
  private var spareCoder: StateDecoder?
  /// The paths of the view controllers' nodes that have view controllers below them, by node
  /// index (a child's is its parent's and its identifier); views and the controllers at the
  /// bottom of the tree need none kept (a restore freed thousands of kept paths at the end, one
  /// cache miss each: profiled).
  private var controllerPaths: [[String]?] = []
  /// Whether node `index` has a view controller node below it (its path is then kept).
  private var isControllerParent: [Bool] = []
  /// Searches a controller's own views.
  private var viewWalker = OwnViewWalker()
  /// The views with identifiers in the own view tree of the controller of node `owner`, in
  /// walk order, with their identifiers: the first `count` of `views` and `identifiers` (made
  /// when its first view node is restored; the lists' room and members are kept from one
  /// controller to the next, overwritten).
  private var ownViews: (owner: Int, views: [View], identifiers: [String], count: Int) = (-1, [], [], 0)

  init(
    snapshot: Snapshot, delegate: (any StateRestorationDelegate)?, restorationClasses: [String: any ViewControllerRestoration.Type],
    storyboardNamed: @escaping (String) -> (any ViewControllerSource)?, migrations: [String: [Int: StateMigration]], roots: [ViewController]
  ) {
    table = snapshot.table
    self.delegate = delegate
    self.restorationClasses = restorationClasses
    self.storyboardNamed = storyboardNamed
    self.migrations = migrations
    self.roots = roots
    restored = RestoredObjects(names: table.names)
    coderNodes = StateCoderNodes(table: table, metadata: snapshot.metadata, restored: restored)
  }

  /// The objects that exist now under `root`, by the path their identifiers give them.
  private mutating func noteExisting(_ root: ViewController, parentPath: [String]) {
    var stack: [(ViewController, [String])] = [(root, parentPath)]
    var steps = 0
    while let (controller, above) = stack.popLast(), steps < 100_000 {
      steps += 1
      guard let identifier = controller.restorationIdentifier else { continue }
      let path = above + [identifier]
      if existing[path] == nil { existing[path] = controller }
      for child in controller.children + (controller.presentedViewController.map { [$0] } ?? []) { stack.append((child, path)) }
    }
  }

  /// The path of view controller node `index` (its parent's path, kept, and its identifier).
  private mutating func controllerPath(_ index: Int) -> [String] {
    let parent = table.names.parents[index]
    let path = table.names.path(of: index, parentPath: parent >= 0 && parent < index ? controllerPaths[parent] : nil)
    if isControllerParent[index] { controllerPaths[index] = path }
    return path
  }

  // MARK: - Object creation

  mutating func createObjects() {
    for root in roots { noteExisting(root, parentPath: []) }
    creationCoders = [StateDecoder?](repeating: nil, count: table.count)
    controllerPaths = [[String]?](repeating: nil, count: table.count)
    isControllerParent = [Bool](repeating: false, count: table.count)
    for index in 0..<table.count where table.kinds[index] == .viewController {
      let parent = table.names.parents[index]
      if parent >= 0 && parent < index { isControllerParent[parent] = true }
    }
    // Room for every node at once: grown by doubling, the list was copied a dozen times, the
    // last copies into fresh pages (profiled: `memmove` and page faults under the views' nodes).
    made.reserveCapacity(table.count)
    // Each outcome filled in place (returning them copied every outcome: profiled), in a list
    // apart from `self` while the nodes are made.
    var list: [NodeOutcome] = []
    list.reserveCapacity(table.count)
    for index in 0..<table.count {
      list.append(NodeOutcome(node: index, of: table.names))
      createObject(index: index, &list[list.count - 1])
    }
    outcomes = list
    controllerPaths = []
    isControllerParent = []
    ownViews = (-1, [], [], 0)
    viewWalker.reset()
  }

  private mutating func createObject(index: Int, _ outcome: inout NodeOutcome) {
    let parent = table.names.parents[index]
    if !table.names.isRoot(index), parent < 0 || restored.object(atIndex: parent) == nil {
      outcome.notRestoredBecause = "its parent \(table.names.path(of: index).dropLast().joined(separator: "/")) was not restored"
      return
    }
    if let failure = table.failure(of: index) {
      outcome.notRestoredBecause = "its state could not be decoded: \(failure)"
      return
    }
    switch table.kinds[index] {
    case .view: findView(index: index, parent: parent >= 0 ? parent : nil, &outcome)
    case .viewController: makeController(index: index, &outcome)
    }
  }

  private mutating func makeController(index: Int, _ outcome: inout NodeOutcome) {
    var coder = takeCoder(node: index, stateVersion: table.versions[index], entries: nil)
    defer {
      // Kept for the state-decoding phase, which gives the controller the same values, when
      // the app kept it; else a coder for the next node.
      if isKnownUniquelyReferenced(&coder) { spareCoder = coder } else { creationCoders[index] = coder }
    }
    let path = controllerPath(index)
    var controller: ViewController?
    if let name = table.restorationClassName(of: index) {
      guard let (restorationClass, label) = restorationClass(named: name) else {
        outcome.notRestoredBecause = "its restoration class \(name) is not registered (StateRestoration.register(_:as:))"
        return
      }
      guard let made = restorationClass.viewController(withRestorationIdentifierPath: path, coder: coder) else {
        outcome.notRestoredBecause = "its restoration class \(name) returned nil"
        return
      }
      controller = made
      outcome.restoredBy = label
    } else if let made = delegate?.viewController(withRestorationIdentifierPath: path, coder: coder) {
      controller = made
      outcome.restoredBy = "app delegate"
    } else if let found = existing[path] as? ViewController {
      controller = found
      outcome.restoredBy = "existing object"
    } else if let storyboardName = table.storyboardName(of: index), let identifier = table.storyboardIdentifier(of: index) {
      guard let storyboard = storyboardNamed(storyboardName) else {
        outcome.notRestoredBecause = "the storyboard \(storyboardName) that made it is not available"
        return
      }
      do {
        controller = try storyboard.instantiateViewController(withIdentifier: identifier)
        outcome.restoredBy = storyboardLabel(storyboardName)
      } catch {
        outcome.notRestoredBecause = "the storyboard \(storyboardName) could not make \(identifier): \(error)"
        return
      }
    } else {
      outcome.notRestoredBecause =
        "nothing made it: no restoration class, the app delegate returned nil, no object has the path, and no storyboard made it"
      return
    }
    guard let controller else { return }
    if controller.restorationIdentifier == nil { controller.restorationIdentifier = path.last }
    restored.set(controller, atIndex: index)
    made.append(.controller(index, controller))
    // What the new controller brought with it (a storyboard's scene with its children) can be found by path.
    if !controller.children.isEmpty || controller.presentedViewController != nil {
      noteExisting(controller, parentPath: Array(path.dropLast()))
    }
  }

  /// The registered restoration class named `name` with its outcome label; the last one found
  /// is remembered (a snapshot's nodes come class by class, and hashing the name for every node
  /// showed in profiles).
  private mutating func restorationClass(named name: String) -> (type: any ViewControllerRestoration.Type, label: String)? {
    // Compared in place: binding the whole tuple first copied (retained and released) both of
    // its strings for every controller.
    if lastRestorationClass?.name == name, let type = lastRestorationClass?.type, let label = lastRestorationClass?.label { return (type, label) }
    guard let type = restorationClasses[name] else {
      lastRestorationClass = nil
      return nil
    }
    let label = "restoration class " + name
    lastRestorationClass = (name, type, label)
    return (type, label)
  }

  /// `storyboard <name>`, made once per storyboard.
  private mutating func storyboardLabel(_ name: String) -> String {
    if let known = storyboardLabels[name] { return known }
    let made = "storyboard " + name
    storyboardLabels[name] = made
    return made
  }

  private mutating func findView(index: Int, parent: Int?, _ outcome: inout NodeOutcome) {
    guard let parent, let owner = restored.object(atIndex: parent) as? ViewController else {
      outcome.notRestoredBecause = "its view controller was not restored"
      return
    }
    guard let root = owner.view else {
      outcome.notRestoredBecause = "its view controller's view could not be loaded"
      return
    }
    let identifier = table.names.identifiers[index]
    // A controller's views are nodes one after the other: its own views with identifiers are
    // listed in walk order by one walk, and each node takes the first with its identifier.
    if ownViews.owner != parent {
      ownViews.owner = parent
      ownViews.count = 0
      viewWalker.start(at: root)
      while let view = viewWalker.next(owner: owner) {
        guard let viewIdentifier = view.restorationIdentifier else { continue }
        if ownViews.count < ownViews.views.count {
          ownViews.views[ownViews.count] = view
          ownViews.identifiers[ownViews.count] = viewIdentifier
        } else {
          ownViews.views.append(view)
          ownViews.identifiers.append(viewIdentifier)
        }
        ownViews.count += 1
      }
    }
    // A plain loop (a closure given to the standard library checks the actor it runs on), over
    // the identifiers kept beside the views (each view's property read again was a run-time
    // exclusivity check and a cache miss per look-up).
    var position = 0
    while position < ownViews.count {
      if ownViews.identifiers[position] == identifier {
        let found = ownViews.views[position]
        restored.set(found, atIndex: index)
        made.append(.view(index, found))
        // The node's path names its view controller already.
        outcome.restoredBy = "its view controller's view"
        return
      }
      position += 1
    }
    outcome.notRestoredBecause = "no view with the identifier \(identifier) is in its view controller's view"
  }

  // MARK: - State decoding

  /// `decodeRestorableStateWithCoder:` on every restored object, in node order (parents first),
  /// with the state migrated to the class's current version.
  mutating func decodeState() {
    // `outcomes` holds one outcome per node, in node order (createObjects).
    // The objects were made thousands of objects ago and are no longer in the processor's
    // cache: asking each for its class's version and decoding it waited for a cache miss per
    // object (profiled: most of this loop's own time, on the load of each object's class), and
    // for each line of its own state it sets. Each object, its first `CacheWarming.objectSpan`
    // bytes, is asked for a few objects before it decodes (see `CacheWarming`), so that its
    // misses overlap with the decoding of the objects before it.
    CacheWarming.forEach(made.count, askingAhead: CacheWarming.distance) {
      CacheWarming.prefetchObject(made[$0].address)
    } _: { position in
      let object = made[position]
      let index = object.index
      let current = object.restorableStateVersion
      let version = table.versions[index]
      if version == current, index < creationCoders.count, let coder = creationCoders[index] {
        decode(object, with: coder)
        return
      }
      var entries: StateEntries?
      if version != current {
        var values = table.entries(of: index).dictionary
        let note = migrate(&values, className: table.names.classes[index], from: version, to: current)
        outcomes[index].notes.append(note.text)
        entries = note.migrated ? StateEntries(values) : StateEntries()
      }
      var coder = takeCoder(node: index, stateVersion: current, entries: entries)
      decode(object, with: coder)
      if isKnownUniquelyReferenced(&coder) { spareCoder = coder }
    }
    creationCoders = []
    spareCoder = nil
  }

  /// A coder for node `node`: the spare one, made the coder of that node, or a new one.
  private mutating func takeCoder(node: Int, stateVersion: Int, entries: StateEntries?) -> StateDecoder {
    guard let coder = spareCoder else { return StateDecoder(node: node, of: coderNodes, stateVersion: stateVersion, entries: entries) }
    spareCoder = nil
    coder.reuse(forNode: node, stateVersion: stateVersion, entries: entries)
    return coder
  }

  private func decode(_ object: MadeObject, with decoder: StateDecoder) {
    if object.isView { object.view.decodeRestorableState(with: decoder) } else { object.controller.decodeRestorableState(with: decoder) }
  }

  /// Gives the first responder back to the view that was being edited, in its window or else in
  /// `fallback` (the key window); run last, once the app has laid out the restored views.
  ///
  /// The restored views asking (their ``View/restoresFirstResponder`` set) are found among the
  /// few that `FirstResponderRequests` noted, not by reading the flag of every restored view
  /// (a cache miss per view); they are taken in node order, as a walk of every view would.
  func restoreFirstResponder(fallback: Window?) {
    let asking = FirstResponderRequests.asking()
    guard !asking.isEmpty else { return }
    var wanted = Set<UnsafeMutableRawPointer>()
    for view in asking { wanted.insert(Unmanaged.passUnretained(view).toOpaque()) }
    for object in made where object.isView && wanted.contains(object.address) {
      let view = object.view
      if view.restoresFirstResponder, let window = view.window ?? fallback {
        _ = window.makeFirstResponder(view)
        view.restoresFirstResponder = false
      }
    }
  }

  private func migrate(_ values: inout [String: Any], className: String, from old: Int, to new: Int) -> (migrated: Bool, text: String) {
    guard old < new else { return (false, "state version \(old) is newer than \(className)'s \(new); its state was dropped") }
    var version = old
    while version < new {
      guard let step = migrations[className]?[version] else {
        return (false, "no migration of \(className) from state version \(version) to \(version + 1); its state was dropped")
      }
      do { try step(&values) } catch {
        return (false, "the migration of \(className) from state version \(version) failed (\(error)); its state was dropped")
      }
      version += 1
    }
    return (true, "state migrated from version \(old) to \(new)")
  }

  /// `applicationFinishedRestoringState` on every restored view controller.
  ///
  /// Each controller is asked for a few objects before its call (see `CacheWarming`): each call
  /// reads its controller's class, a cache miss per controller that otherwise came one at a time.
  func finish() {
    CacheWarming.forEach(made.count, askingAhead: CacheWarming.distance) { prefetchController(at: $0) } _: {
      if !made[$0].isView { made[$0].controller.applicationFinishedRestoringState() }
    }
  }

  private func prefetchController(at position: Int) {
    if !made[position].isView { CacheWarming.prefetch(made[position].address) }
  }
}

/// A restored object with its node's index, by kind (so that the phases after creation do not
/// cast every object again).
///
/// Unretained: `RestoredObjects` holds every made object for as long as the `Restorer` lives, so
/// the list does not hold each object a second time. (Read with `takeUnretainedValue`, not
/// `_withUnsafeGuaranteedRef`: a closure formed in the main actor's code checks at run time
/// that it runs there.)
@MainActor private struct MadeObject {
  let index: Int
  let isView: Bool
  private let object: Unmanaged<AnyObject>

  static func controller(_ index: Int, _ controller: ViewController) -> Self {
    Self(index: index, isView: false, object: .passUnretained(controller))
  }

  static func view(_ index: Int, _ view: View) -> Self { Self(index: index, isView: true, object: .passUnretained(view)) }

  /// Where the object is (not read; for comparisons and `CacheWarming`'s prefetches).
  var address: UnsafeMutableRawPointer { object.toOpaque() }

  /// The object, when it is a view controller.
  var controller: ViewController { unsafeDowncast(object.takeUnretainedValue(), to: ViewController.self) }
  /// The object, when it is a view.
  var view: View { unsafeDowncast(object.takeUnretainedValue(), to: View.self) }

  /// The class's current ``ViewController/restorableStateVersion`` (or the view's).
  var restorableStateVersion: Int {
    isView ? type(of: view).restorableStateVersion : type(of: controller).restorableStateVersion
  }
}
