package import FoundationEssentials
public import InterfaceObjects
public import KeyedArchive
public import Lifecycle
#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif
public import StasisSystem
internal import PropertyLists

/// Why the interface looks the way it does after launch: the restore reason an app can show.
public enum RestoreOutcome: Sendable, Equatable, CustomStringConvertible {
  /// There was no saved state (first launch, or the app did not save).
  case freshLaunch
  /// The state of the last completed save was restored.
  case restored
  /// The last save could not be used (the reason says why: torn or unreadable, it crashed the
  /// previous launch) and the save before it was restored.
  case recoveredFromPrevious(String)
  /// Saved state existed and was not used: the user quit the app, `shouldRestore` said no, the
  /// app crashed twice while restoring it.
  case discarded(String)

  public var description: String {
    switch self {
    case .freshLaunch: "fresh launch"
    case .restored: "restored"
    case .recoveredFromPrevious(let why): "recovered from the previous snapshot (\(why))"
    case .discarded(let why): "discarded (\(why))"
    }
  }
}

/// What one restoration did.
public struct RestorationReport: Sendable {
  public var outcome: RestoreOutcome
  /// The snapshot file restored, if any.
  public var snapshotPath: String?
  /// Every saved node's fate, in tree order.
  public var nodes: [NodeOutcome]
  /// What happened to the snapshot files on the way (set aside, retried).
  public var notes: [String]
}

/// UIKit's state preservation and restoration for an app (<doc:UIKitStateRestoration>), with the
/// safety nets UIKit lacks.
///
/// Install it on the app's `ApplicationLifecycle` before launch: it restores during launch
/// (after `willFinishLaunching`, before `didFinishLaunching`), saves when the app enters the
/// background (inside its background time), and discards the saved state when the user quits.
///
/// ```swift
/// let restoration = StateRestoration(lifecycle: lifecycle, folder: SavedStateFolder(container: container))
/// restoration.register(DetailViewController.self, as: "DetailViewController")
/// try lifecycle.launch()                 // restores, if the delegate opts in
/// print(restoration.outcome)             // "restored", "fresh launch", …
/// ```
@MainActor public final class StateRestoration: LifecycleStateKeeper {
  /// Where and how state is kept.
  public struct Configuration {
    /// The saved-state folder.
    public var folder: SavedStateFolder
    /// `CFBundleVersion`, kept as `UIApplicationStateRestorationBundleVersionKey`.
    public var bundleVersion: String?
    /// `UIUserInterfaceIdiom`, kept as `UIApplicationStateRestorationUserInterfaceIdiomKey`.
    public var idiom: Int
    /// The system version, kept as `UIApplicationStateRestorationSystemVersionKey` (the kernel
    /// release by default).
    public var systemVersion: String
    /// A node whose state is estimated larger is kept without its state (and named).
    public var nodeStateBudget: Int
    /// The classes the app archives in node state (registered with their archive names).
    public var registry: ArchiveClassRegistry
    /// In secure mode, the classes node state may hold beyond property-list types.
    public var secureClasses: [Any.Type]
    /// Launches in a row that were killed while restoring one snapshot (not crashing: a kill
    /// leaves no crash mark) before restoration moves on to the other snapshot, setting this one
    /// aside. Kills are counted apart from crashes: they never add to the crash-loop count, and
    /// the last snapshot left is never set aside for kills (it is tried again).
    public var maximumInterruptedAttempts: Int
    /// How many times a snapshot is read when reading fails (an I/O error, a refused open)
    /// before it counts as unreadable; a file that could not be read is never set aside.
    public var readAttempts: Int
    /// Reads a whole snapshot file (the seam tests use to inject read errors): the folder's
    /// file system's read. Its errors are `AtomicFileError`s.
    package var readFile: @Sendable (String) throws -> Data

    public init(
      folder: SavedStateFolder, bundleVersion: String? = nil, idiom: Int = 0, systemVersion: String? = nil, nodeStateBudget: Int = 1 << 20,
      registry: ArchiveClassRegistry = .foundation, secureClasses: [Any.Type] = [], maximumInterruptedAttempts: Int = 3,
      readAttempts: Int = 3
    ) {
      self.readAttempts = max(readAttempts, 1)
      self.folder = folder
      let fileSystem = folder.fileSystem
      readFile = { path in try fileSystem.read(contentsOfFile: path, limit: Snapshot.maximumFileSize) }
      self.bundleVersion = bundleVersion
      self.idiom = idiom
      self.systemVersion = systemVersion ?? Self.kernelRelease()
      self.nodeStateBudget = nodeStateBudget
      self.registry = registry
      self.secureClasses = secureClasses
      self.maximumInterruptedAttempts = maximumInterruptedAttempts
    }

    static func kernelRelease() -> String {
      var names = utsname()
      uname(&names)
      return withUnsafeBytes(of: names.release) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }
  }

  public let configuration: Configuration
  /// The lifecycle it is installed on (its windows are what is preserved).
  public unowned let lifecycle: ApplicationLifecycle
  /// The delegate asked to opt in and for view controllers: the app delegate when it adopts
  /// ``StateRestorationDelegate``.
  public weak var delegate: (any StateRestorationDelegate)?
  /// Finds a storyboard by name for view controllers a storyboard made.
  public var storyboardNamed: (String) -> (any ViewControllerSource)? = { _ in nil }

  /// Why the interface is as it is after launch.
  public private(set) var outcome: RestoreOutcome = .freshLaunch
  /// The last restoration's report (`nil` before launch).
  public private(set) var lastRestoration: RestorationReport?
  /// The last save's report.
  public private(set) var lastPreservation: PreservationReport?
  /// How many state values the last save wrote (room is made for as many at the next).
  private var lastValueCount = 0
  /// The last save's working memory, emptied, for the next save.
  private var keptPreservation: Preservation?
  /// Whether restoration is still running (``extendStateRestoration()`` not yet completed).
  public var isRestoring: Bool { pendingExtensions > 0 || markerDescriptor >= 0 }

  private var restorationClasses: [String: any ViewControllerRestoration.Type] = [:]
  private var migrations: [String: [Int: StateMigration]] = [:]
  private var pendingExtensions = 0
  private var markerDescriptor: Int32 = -1
  private var sequence = 0

  /// Installs restoration on `lifecycle` (as its `ApplicationLifecycle.stateKeeper`); the
  /// delegate is the lifecycle's delegate when it adopts ``StateRestorationDelegate``.
  public init(lifecycle: ApplicationLifecycle, configuration: Configuration) {
    self.lifecycle = lifecycle
    self.configuration = configuration
    delegate = lifecycle.delegate as? any StateRestorationDelegate
    lifecycle.stateKeeper = self
  }

  /// Installs restoration with the saved-state folder `folder` and default settings.
  public convenience init(lifecycle: ApplicationLifecycle, folder: SavedStateFolder) {
    self.init(lifecycle: lifecycle, configuration: Configuration(folder: folder))
  }

  /// Registers a restoration class under the name view controllers give in
  /// `ViewController.restorationClassName`.
  public func register(_ restorationClass: any ViewControllerRestoration.Type, as name: String) {
    restorationClasses[name] = restorationClass
  }

  /// Registers the migration of `className`'s saved state from `version` to `version + 1`;
  /// restoration chains them up to the class's current `ViewController.restorableStateVersion`.
  /// State with no way to the current version is dropped (the node is still restored).
  public func registerMigration(of className: String, from version: Int, _ migration: @escaping StateMigration) {
    migrations[className, default: [:]][version] = migration
  }

  private var roots: [ViewController] { lifecycle.application.windows.compactMap { $0.rootViewController } }

  // MARK: - Preservation

  /// Saves the interface state now, as UIKit does when the app enters the background: asks the
  /// delegate (secure variant first), collects its app-wide values and every preserved node,
  /// and writes the snapshot. Answers `nil` when the delegate did not opt in (the saved state is
  /// then removed, so that a stale one is never restored) or restoration is still running.
  @discardableResult
  public func preserve() throws(RestorationError) -> PreservationReport {
    var report = PreservationReport()
    guard !isRestoring else {
      report.skippedBecause = "restoration has not completed (extendStateRestoration without completeStateRestoration)"
      lastPreservation = report
      return report
    }
    let appCoder = StateEncoder()
    let secure = delegate?.shouldSaveSecureApplicationState(appCoder) ?? false
    guard secure || delegate?.shouldSaveApplicationState(appCoder) == true else {
      report.skippedBecause = "the delegate did not opt in (shouldSaveApplicationState)"
      configuration.folder.removeSnapshots()
      lastPreservation = report
      return report
    }
    delegate?.applicationWillEncodeRestorableState(appCoder)
    sequence += 1
    let metadata = SnapshotMetadata(
      bundleVersion: configuration.bundleVersion, idiom: configuration.idiom, timestamp: configuration.folder.environment.clock.now(), systemVersion: configuration.systemVersion,
      sequence: sequence)
    let applicationState = appCoder.values
    var preservation: Preservation
    if var kept = keptPreservation, kept.nodeStateBudget == configuration.nodeStateBudget {
      keptPreservation = nil
      kept.restart(metadata: metadata, applicationState: applicationState)
      preservation = kept
    } else {
      preservation = Preservation(
        metadata: metadata, applicationState: applicationState, nodeStateBudget: configuration.nodeStateBudget,
        expectedNodeCount: lastPreservation?.nodeCount ?? 0, expectedValueCount: lastValueCount)
    }
    // Emptied and kept for the next save, however this one ends (see `Preservation.empty()`).
    defer {
      preservation.empty()
      keptPreservation = preservation
    }
    preservation.walk(roots: roots)
    let data: Data
    do {
      data = try preservation.columns.archivedData(registry: configuration.registry)
    } catch {
      // Find the nodes whose values cannot be archived, keep them without their state, try again
      // (only values kept as general ones can fail: the typed columns' always archive).
      var failing: [Int: String] = [:]
      for (index, state) in preservation.columns.generalStates() {
        do { _ = try KeyedArchiver.archivedData(withRootObject: state, registry: configuration.registry) } catch { failing[index] = "\(error)" }
      }
      do { _ = try KeyedArchiver.archivedData(withRootObject: applicationState, registry: configuration.registry) } catch {
        throw RestorationError(.encodingFailed, detail: "the app delegate's values cannot be archived", underlying: error)
      }
      preservation.dropState(ofNodesAt: failing.keys.sorted()) { "its state cannot be archived (\(failing[$0] ?? "")); the node is kept without it" }
      do {
        data = try preservation.columns.archivedData(registry: configuration.registry)
      } catch {
        throw RestorationError(.encodingFailed, detail: "the state could not be archived", underlying: error)
      }
    }
    try configuration.folder.writeSnapshot(data)
    report.nodeCount = preservation.columns.count
    report.byteCount = data.count
    report.excluded = preservation.excluded
    report.largestNodes = Self.largestNodes(in: preservation.columns, count: 5)
    lastPreservation = report
    lastValueCount = preservation.columns.stateValues.count
    return report
  }

  /// The `count` nodes with the largest states, largest first (ties in tree order), chosen by
  /// index without sorting every node.
  static func largestNodes(in columns: SnapshotColumns, count: Int) -> [(path: [String], bytes: Int)] {
    var chosen: [Int] = []
    for index in columns.stateBytes.indices {
      let bytes = columns.stateBytes[index]
      guard chosen.count < count || bytes > columns.stateBytes[chosen[chosen.count - 1]] else { continue }
      var position = chosen.count
      while position > 0, columns.stateBytes[chosen[position - 1]] < bytes { position -= 1 }
      chosen.insert(index, at: position)
      if chosen.count > count { chosen.removeLast() }
    }
    return chosen.map { (columns.path(ofNode: $0), columns.stateBytes[$0]) }
  }

  // MARK: - Restoration

  /// Restores the saved state into the app's windows (the lifecycle calls it during launch):
  /// chooses the snapshot (set-asides and crash-loop rules), asks the delegate, runs the object
  /// creation and state decoding phases, and records the report in `LastRestore.plist`.
  @discardableResult
  public func restore() -> RestorationReport {
    let folder = configuration.folder
    var notes: [String] = []
    var crashes = 0
    var attempt = 1
    var avoid: Set<String> = []
    folder.removeDebris()
    // 1. What the previous launch left: a marker means it ended while restoring. A crash (the
    //    marker says `crash NN`) and a kill (it does not) are counted apart: only crashes lead to
    //    the crash-loop discard, and kills never set aside the last snapshot left.
    if let marker = folder.readMarker() {
      folder.removeMarker()
      let file = folder.path + "/" + marker.snapshot
      let other = marker.snapshot == "data.archive" ? folder.previousSnapshotPath : folder.currentSnapshotPath
      if let signal = marker.crashSignal {
        crashes = marker.crashes + 1
        let moved = folder.setAside(file, reason: "crashed while restoring")
        notes.append("the previous launch crashed (signal \(signal)) while restoring \(marker.snapshot); it was set aside\(moved.map { " as \($0)" } ?? "")")
        avoid.insert(marker.snapshot)
      } else if marker.attempt >= configuration.maximumInterruptedAttempts, folder.exists(other) {
        crashes = marker.crashes
        let moved = folder.setAside(file, reason: "interrupted while restoring")
        notes.append(
          "\(marker.attempt) launches in a row were killed while restoring \(marker.snapshot) (no crash); it was set aside\(moved.map { " as \($0)" } ?? "") and the other snapshot is tried"
        )
        avoid.insert(marker.snapshot)
      } else {
        crashes = marker.crashes
        attempt = marker.attempt + 1
        notes.append("the previous launch was killed while restoring \(marker.snapshot) (no crash); trying it again")
      }
    }
    let discardReason = folder.takeDiscardReason()
    func finish(_ outcome: RestoreOutcome, path: String? = nil, nodes: [NodeOutcome] = []) -> RestorationReport {
      self.outcome = outcome
      let report = RestorationReport(outcome: outcome, snapshotPath: path, nodes: nodes, notes: notes)
      lastRestoration = report
      writeReport(report)
      return report
    }
    if crashes >= 2 {
      for file in [folder.currentSnapshotPath, folder.previousSnapshotPath] where folder.exists(file) {
        if let moved = folder.setAside(file, reason: "crash loop") { notes.append("set aside \(moved)") }
      }
      return finish(.discarded("two launches in a row crashed while restoring; the snapshots are kept in \(folder.setAsidePath)"))
    }
    // 2. The newest snapshot that reads.
    var candidates: [(name: String, path: String)] = []
    for (name, path) in [("data.archive", folder.currentSnapshotPath), ("previous.archive", folder.previousSnapshotPath)]
    where !avoid.contains(name) && folder.exists(path) {
      candidates.append((name, path))
    }
    guard !candidates.isEmpty else {
      if let discardReason { return finish(.discarded(discardReason)) }
      if !avoid.isEmpty { return finish(.discarded("the previous launch crashed while restoring and no other snapshot exists")) }
      return finish(.freshLaunch)
    }
    let appProbe: StateDecoder
    var chosen: (name: String, path: String, snapshot: Snapshot, data: Data)?
    var usedFallback = !avoid.isEmpty && avoid.contains("data.archive")
    var fallbackWhy = notes.last ?? ""
    if fallbackWhy.isEmpty, !candidates.contains(where: { $0.name == "data.archive" }) {
      // Set aside at an earlier launch, and no save has completed since.
      fallbackWhy = "data.archive is missing (set aside earlier, and no save completed since)"
    }
    for candidate in candidates {
      let data: Data
      switch readSnapshot(candidate.path) {
      case .success(let read): data = read
      case .failure(let error):
        // Not read, so not known to be damaged: reported, kept where it is, the other one tried.
        notes.append("\(candidate.name) could not be read (\(error)); it was kept in place")
        fallbackWhy = "\(candidate.name) could not be read"
        usedFallback = true
        continue
      }
      do {
        let snapshot = try Snapshot(data: data, registry: configuration.registry, path: candidate.path)
        chosen = (candidate.name, candidate.path, snapshot, data)
        break
      } catch {
        let moved = folder.setAside(candidate.path, reason: "unreadable")
        notes.append("\(candidate.name) is damaged (\(error)); it was set aside\(moved.map { " as \($0)" } ?? "")")
        fallbackWhy = "\(candidate.name) could not be read"
        usedFallback = true
      }
    }
    guard let chosen else { return finish(.discarded("no snapshot could be read")) }
    sequence = max(sequence, chosen.snapshot.metadata.sequence)
    // 3. The delegate opts in, seeing the metadata.
    appProbe = StateDecoder(
      path: [], stateVersion: 0, metadata: chosen.snapshot.metadata, storyboardName: nil, values: chosen.snapshot.applicationState,
      references: [:], restored: nil)
    let secure = delegate?.shouldRestoreSecureApplicationState(appProbe) ?? false
    guard secure || delegate?.shouldRestoreApplicationState(appProbe) == true else {
      return finish(.discarded("the app delegate's shouldRestoreApplicationState said no"), path: chosen.path)
    }
    var snapshot = chosen.snapshot
    if secure {
      do {
        snapshot = try Snapshot(
          data: chosen.data, registry: configuration.registry, secure: true, allowedClasses: configuration.secureClasses, path: chosen.path)
      } catch {
        notes.append("secure decoding refused the snapshot: \(error)")
        return finish(.discarded("secure decoding refused the snapshot"), path: chosen.path)
      }
    }
    // 4. The marker, so that a crash from here on is known at the next launch.
    if let descriptor = try? folder.openMarker(.init(snapshot: chosen.name, attempt: attempt, crashes: crashes)) {
      markerDescriptor = descriptor
      configuration.folder.environment.signals.armCrashMarker(descriptor: descriptor)
    }
    var restorer = Restorer(
      snapshot: snapshot, delegate: delegate, restorationClasses: restorationClasses, storyboardNamed: storyboardNamed, migrations: migrations,
      roots: roots)
    restorer.createObjects()
    restorer.decodeState()
    restorer.finish()
    delegate?.applicationDidDecodeRestorableState(
      StateDecoder(
        path: [], stateVersion: 0, metadata: snapshot.metadata, storyboardName: nil, values: snapshot.applicationState, references: [:],
        restored: restorer.restored))
    restorer.restoreFirstResponder(fallback: lifecycle.application.keyWindow ?? lifecycle.application.windows.first)
    let outcome: RestoreOutcome = usedFallback || chosen.name == "previous.archive" ? .recoveredFromPrevious(fallbackWhy) : .restored
    let report = finish(outcome, path: chosen.path, nodes: restorer.outcomes)
    if pendingExtensions == 0 { endMarker() }
    return report
  }

  /// Reads the snapshot at `path`, trying again (after 10, 20, … ms on the folder's environment's
  /// clock) while reading fails: a transient I/O error must not make an intact snapshot look damaged.
  private func readSnapshot(_ path: String) -> Result<Data, AtomicFileError> {
    var lastError: AtomicFileError?
    for attempt in 0..<configuration.readAttempts {
      if attempt > 0 { configuration.folder.environment.clock.monotonic.wait(for: .milliseconds(10 * attempt)) }
      do { return .success(try configuration.readFile(path)) } catch {
        let error = error as? AtomicFileError ?? AtomicFileError(.ioFailure, path: path, detail: "cannot read the file: \(error)")
        lastError = error
        if error.code == .notFound || error.code == .tooLarge || error.code == .notAFile { break }
      }
    }
    return .failure(lastError ?? AtomicFileError(.ioFailure, path: path, detail: "cannot read the file"))
  }

  /// Tells restoration that the app goes on restoring asynchronously (`extendStateRestoration`):
  /// a crash before ``completeStateRestoration()`` still counts as a crash during restoration,
  /// and nothing is saved until then.
  public func extendStateRestoration() { pendingExtensions += 1 }

  /// The asynchronous restoration is done (`completeStateRestoration`).
  public func completeStateRestoration() {
    guard pendingExtensions > 0 else { return }
    pendingExtensions -= 1
    if pendingExtensions == 0 { endMarker() }
  }

  private func endMarker() {
    guard markerDescriptor >= 0 else { return }
    configuration.folder.environment.signals.disarmCrashMarker(descriptor: markerDescriptor)
    close(markerDescriptor)
    markerDescriptor = -1
    configuration.folder.removeMarker()
  }

  private func writeReport(_ report: RestorationReport) {
    guard let data = try? report.propertyList(writtenAt: configuration.folder.environment.clock.now()).encoded(as: .binary) else { return }
    // The folder is there when a snapshot was read from it: it is made only when a write finds
    // it missing (a fresh launch), not asked for at every restore.
    let folder = configuration.folder
    if (try? folder.writeLastRestore(data)) == nil {
      try? folder.makeFolder(folder.path)
      try? folder.writeLastRestore(data)
    }
  }

  // MARK: - LifecycleStateKeeper

  public func restoreState(during lifecycle: ApplicationLifecycle) { restore() }

  public func preserveState(of lifecycle: ApplicationLifecycle) {
    do { try preserve() } catch {
      var report = PreservationReport()
      report.skippedBecause = "the save failed: \(error)"
      lastPreservation = report
    }
  }

  public func userDidQuit(_ lifecycle: ApplicationLifecycle) {
    configuration.folder.discardSnapshots(reason: "the user quit the app")
  }
}
