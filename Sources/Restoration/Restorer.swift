internal import InterfaceObjects

/// What restoration did with one saved node.
public struct NodeOutcome: Sendable, Equatable {
  /// The node's identifier path.
  public var path: [String]
  /// The class that was saved.
  public var className: String
  /// How the object was obtained (`restoration class X`, `app delegate`, `existing object`,
  /// `storyboard S`), or `nil` when it was not restored.
  public var restoredBy: String?
  /// Why it was not restored, when it was not.
  public var notRestoredBecause: String?
  /// What else happened (its state migrated from an older version, dropped).
  public var notes: [String] = []

  public var isRestored: Bool { restoredBy != nil }
}

/// A migration of one class's saved state from one version to the next.
public typealias StateMigration = (inout [String: Any]) throws -> Void

/// Runs UIKit's two phases over a snapshot: object creation (restoration class → the delegate →
/// an object that already exists with the path → the storyboard that made it), then state
/// decoding, then `applicationFinishedRestoringState`.
@MainActor struct Restorer {
  let snapshot: Snapshot
  let delegate: (any StateRestorationDelegate)?
  let restorationClasses: [String: any ViewControllerRestoration.Type]
  let storyboardNamed: (String) -> (any ViewControllerSource)?
  let migrations: [String: [Int: StateMigration]]
  let roots: [ViewController]

  let restored: RestoredObjects
  /// The snapshot's nodes as every node's coder reads them.
  private let coderNodes: StateCoderNodes
  private(set) var outcomes: [NodeOutcome] = []
  /// The restored objects in node order, with their node's index.
  private var made: [(index: Int, object: AnyObject)] = []
  private var existing: [[String]: AnyObject] = [:]
  private var storyboardLabels: [String: String] = [:]
  private var lastRestorationClass: (name: String, type: any ViewControllerRestoration.Type, label: String)?
  /// The coder each view controller's node was created with, by node index (reused to decode
  /// its state when no migration changes the values).
  private var creationCoders: [StateDecoder?] = []
  /// Searches a controller's own views.
  private var viewWalker = OwnViewWalker()

  init(
    snapshot: Snapshot, delegate: (any StateRestorationDelegate)?, restorationClasses: [String: any ViewControllerRestoration.Type],
    storyboardNamed: @escaping (String) -> (any ViewControllerSource)?, migrations: [String: [Int: StateMigration]], roots: [ViewController]
  ) {
    self.snapshot = snapshot
    self.delegate = delegate
    self.restorationClasses = restorationClasses
    self.storyboardNamed = storyboardNamed
    self.migrations = migrations
    self.roots = roots
    restored = RestoredObjects(nodes: snapshot.nodes)
    coderNodes = StateCoderNodes(nodes: snapshot.nodes, metadata: snapshot.metadata, restored: restored)
  }

  func coder(forNodeAt index: Int, entries: StateEntries? = nil, version: Int? = nil) -> StateDecoder {
    StateDecoder(
      node: index, of: coderNodes, stateVersion: version ?? snapshot.nodes[index].stateVersion, entries: entries ?? snapshot.nodes[index].entries)
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

  // MARK: - Object creation

  mutating func createObjects() {
    for root in roots { noteExisting(root, parentPath: []) }
    outcomes.reserveCapacity(snapshot.nodes.count)
    creationCoders = [StateDecoder?](repeating: nil, count: snapshot.nodes.count)
    // By index: a node is a large value, and a copy per node retains every field.
    for index in snapshot.nodes.indices {
      // Returned and appended, not appended from a `defer`: that copied every outcome (profiled).
      let outcome = createObject(index: index)
      outcomes.append(outcome)
    }
  }

  private mutating func createObject(index: Int) -> NodeOutcome {
    var outcome = NodeOutcome(path: snapshot.nodes[index].path, className: snapshot.nodes[index].className)
    let path = snapshot.nodes[index].path
    let parent = snapshot.nodes[index].parentIndex ?? (path.count > 1 ? restored.index(of: Array(path.dropLast())) : nil)
    if path.count > 1, parent.flatMap({ restored.object(atIndex: $0) }) == nil {
      outcome.notRestoredBecause = "its parent \(path.dropLast().joined(separator: "/")) was not restored"
      return outcome
    }
    if let failure = snapshot.nodes[index].stateFailure {
      outcome.notRestoredBecause = "its state could not be decoded: \(failure)"
      return outcome
    }
    switch snapshot.nodes[index].kind {
    case .view: findView(index: index, parent: parent, &outcome)
    case .viewController: makeController(index: index, &outcome)
    }
    if outcome.isRestored, let object = restored.object(atIndex: index) { made.append((index, object)) }
    return outcome
  }

  private mutating func makeController(index: Int, _ outcome: inout NodeOutcome) {
    let coder = coder(forNodeAt: index)
    // Kept for the state-decoding phase, which gives the controller the same values.
    creationCoders[index] = coder
    var controller: ViewController?
    if let name = snapshot.nodes[index].restorationClassName {
      guard let (restorationClass, label) = restorationClass(named: name) else {
        outcome.notRestoredBecause = "its restoration class \(name) is not registered (StateRestoration.register(_:as:))"
        return
      }
      guard let made = restorationClass.viewController(withRestorationIdentifierPath: snapshot.nodes[index].path, coder: coder) else {
        outcome.notRestoredBecause = "its restoration class \(name) returned nil"
        return
      }
      controller = made
      outcome.restoredBy = label
    } else if let made = delegate?.viewController(withRestorationIdentifierPath: snapshot.nodes[index].path, coder: coder) {
      controller = made
      outcome.restoredBy = "app delegate"
    } else if let found = existing[snapshot.nodes[index].path] as? ViewController {
      controller = found
      outcome.restoredBy = "existing object"
    } else if let storyboardName = snapshot.nodes[index].storyboardName, let identifier = snapshot.nodes[index].storyboardIdentifier {
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
    if controller.restorationIdentifier == nil { controller.restorationIdentifier = snapshot.nodes[index].path.last }
    restored.set(controller, atIndex: index)
    // What the new controller brought with it (a storyboard's scene with its children) can be found by path.
    if !controller.children.isEmpty || controller.presentedViewController != nil {
      noteExisting(controller, parentPath: Array(snapshot.nodes[index].path.dropLast()))
    }
  }

  /// The registered restoration class named `name` with its outcome label; the last one found
  /// is remembered (a snapshot's nodes come class by class, and hashing the name for every node
  /// showed in profiles).
  private mutating func restorationClass(named name: String) -> (type: any ViewControllerRestoration.Type, label: String)? {
    if let last = lastRestorationClass, last.name == name { return (last.type, last.label) }
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
    let identifier = snapshot.nodes[index].path.last
    // The walker is taken out while it walks (the visit changes `self`).
    var walker = viewWalker
    viewWalker = OwnViewWalker()  // (so the walker's stack is not shared, and not copied)
    defer { viewWalker = walker }
    var found: View?
    walker.walk(under: root, owner: owner) { view in
      if view.restorationIdentifier == identifier { found = view }
      return found == nil
    }
    if let found {
      restored.set(found, atIndex: index)
      // The node's path names its view controller already.
      outcome.restoredBy = "its view controller's view"
      return
    }
    outcome.notRestoredBecause = "no view with the identifier \(snapshot.nodes[index].path.last ?? "") is in its view controller's view"
  }

  // MARK: - State decoding

  /// `decodeRestorableStateWithCoder:` on every restored object, in node order (parents first),
  /// with the state migrated to the class's current version.
  mutating func decodeState() {
    // `outcomes` holds one outcome per node, in node order (createObjects).
    for (index, object) in made {
      let current = (object as? ViewController).map { type(of: $0).restorableStateVersion } ?? (object as? View).map { type(of: $0).restorableStateVersion } ?? 0
      if snapshot.nodes[index].stateVersion == current, index < creationCoders.count, let coder = creationCoders[index] {
        decode(object, with: coder)
        continue
      }
      var entries = snapshot.nodes[index].entries
      if snapshot.nodes[index].stateVersion != current {
        var values = entries.dictionary
        let note = migrate(&values, className: snapshot.nodes[index].className, from: snapshot.nodes[index].stateVersion, to: current)
        outcomes[index].notes.append(note.text)
        entries = note.migrated ? StateEntries(values) : StateEntries()
      }
      decode(object, with: coder(forNodeAt: index, entries: entries, version: current))
    }
    creationCoders = []
  }

  private func decode(_ object: AnyObject, with decoder: StateDecoder) {
    if let controller = object as? ViewController {
      controller.decodeRestorableState(with: decoder)
    } else if let view = object as? View {
      view.decodeRestorableState(with: decoder)
    }
  }

  /// Gives the first responder back to the view that was being edited, in its window or else in
  /// `fallback` (the key window); run last, once the app has laid out the restored views.
  func restoreFirstResponder(fallback: Window?) {
    for (_, object) in made {
      if let view = object as? View, view.restoresFirstResponder, let window = view.window ?? fallback {
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
  func finish() {
    for (_, object) in made { (object as? ViewController)?.applicationFinishedRestoringState() }
  }
}
