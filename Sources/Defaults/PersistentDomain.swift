import Foundation
internal import PropertyLists
internal import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Something told when a persistent domain's values change (a ``UserDefaults`` instance). Called with
/// ``DefaultsStore/lock`` held; work that must run unlocked goes into `deliveries`.
protocol DomainListener: AnyObject {
  func domain(_ domain: PersistentDomain, changedKeys keys: [String], deliveries: inout [() -> Void])
}

/// The state of all user defaults in this process, behind one lock. Reads take it for a few
/// nanoseconds; file I/O happens outside it (under the file's own lock).
final class DefaultsStore: @unchecked Sendable {
  static let shared = DefaultsStore()

  let lock = NSLock()
  /// Open persistent domains by file path (or by name for memory-only domains), so that every
  /// ``UserDefaults`` instance in the process sees one copy of each domain.
  private var domains: [String: PersistentDomain] = [:]
  private var exitHookInstalled = false

  /// The domain stored at `file` (or a memory-only one named `name`). Call with `lock` held.
  /// The domain already open for the file at `path`, if any.
  func openDomain(atPath path: String) -> PersistentDomain? { domains[path] }

  /// A domain opened first here times its flushes on `clock` (the environment's, of the first
  /// configuration that opened it).
  func domain(named name: String, file: PreferencesFile?, clock: MonotonicClock) -> PersistentDomain {
    let key = file?.path ?? "memory:" + name
    if let existing = domains[key] { return existing }
    let created = PersistentDomain(name: name, file: file, store: self, clock: clock)
    domains[key] = created
    if !exitHookInstalled {
      exitHookInstalled = true
      atexit { DefaultsStore.shared.flushAllAtExit() }
    }
    return created
  }

  /// Writes every domain with unsaved changes: the exit hook, so that a process that sets values
  /// and exits without `synchronize()` loses nothing. (Foundation on Linux loses them.)
  func flushAllAtExit() {
    lock.lock()
    let dirty = domains.values.filter { $0.hasUnsavedChanges }
    lock.unlock()
    for domain in dirty { _ = try? domain.synchronize() }
  }

}

/// One persistent domain: the cached contents of its preferences file plus the keys this process
/// changed since it last synchronized.
///
/// Saving merges instead of overwriting: under the file lock, the file is read again and only the
/// keys this process set or removed since the last save are applied to it, so two processes
/// writing different keys of one domain never lose each other's updates.
final class PersistentDomain: @unchecked Sendable {
  let name: String
  let file: PreferencesFile?
  unowned let store: DefaultsStore
  /// The clock of the coalescing timer.
  let clock: MonotonicClock

  // Everything below is guarded by `store.lock`.
  /// The domain as this process sees it: the file's contents with `pending` applied.
  private(set) var values: [String: PropertyListValue] = [:]
  /// Keys changed since the last save: a value, or `nil` for a removal.
  private var pending: [String: PropertyListValue?] = [:]
  /// The whole domain was replaced (`setPersistentDomain`): the next save writes `values` as is.
  private var replacesAll = false
  /// The whole domain was removed: the next save deletes the file.
  private var removesFile = false
  /// Saves that have taken `pending` but not yet installed their result.
  private var savesInProgress = 0
  private var loaded = false
  private var stamp: PreferencesFile.Stamp?
  /// The file's contents as of `stamp` (what this process last read or wrote).
  private var lastFileValues: [String: PropertyListValue] = [:]
  private var listeners: [ObjectIdentifier: WeakListener] = [:]
  /// Saves performed (file writes and removals) by this process.
  private(set) var writeCount = 0
  /// The last error from loading or saving, for diagnostics.
  private(set) var lastError: DefaultsError?
  /// The stamp of the file when it was last found damaged (not a readable dictionary): a save
  /// moves that file aside before writing, so that its bytes are never lost.
  private var damagedStamp: PreferencesFile.Stamp?

  // Coalescing timer.
  private var flushDelay: Double?
  private var timerArmed = false
  private var firstChange: UInt64 = 0
  private var lastChange: UInt64 = 0

  private struct WeakListener {
    weak var listener: (any DomainListener)?
  }

  init(name: String, file: PreferencesFile?, store: DefaultsStore, clock: MonotonicClock) {
    self.name = name
    self.file = file
    self.store = store
    self.clock = clock
  }

  /// Whether the file was replaced since this process last read or wrote it.
  var isStale: Bool {
    store.lock.lock()
    defer { store.lock.unlock() }
    return loaded && file?.stamp() != stamp
  }

  var hasUnsavedChanges: Bool { file != nil && (!pending.isEmpty || replacesAll || savesInProgress > 0) }

  /// Whether the file exists (or, for a memory-only domain, whether it holds anything). Call with the lock held.
  var exists: Bool {
    guard let file else { return !values.isEmpty }
    if replacesAll { return !removesFile }
    return !pending.isEmpty || file.exists
  }

  func addListener(_ listener: any DomainListener) {
    listeners[ObjectIdentifier(listener)] = WeakListener(listener: listener)
  }

  func removeListener(_ listener: any DomainListener) {
    listeners[ObjectIdentifier(listener)] = nil
  }

  /// Uses the shortest flush delay any opener asked for. Call with the lock held.
  func requestFlushDelay(_ delay: Double?) {
    guard let delay, delay.isFinite, delay >= 0 else { return }
    flushDelay = min(flushDelay ?? delay, delay)
  }

  /// Reads the file the first time the domain is used. Call with the lock held.
  func loadIfNeeded() {
    guard !loaded else { return }
    loaded = true
    guard let file else { return }
    stamp = file.stamp()
    do {
      if let dictionary = try file.readValues(domain: name) {
        values = dictionary
        lastFileValues = dictionary
      }
    } catch {
      // Like CFPreferences, an unreadable file reads as an empty domain. Unlike CFPreferences, the
      // next save moves it aside (`<name>.plist.damaged`) before writing, so nothing is lost.
      lastError = error
      if error.code == .unreadableFile { damagedStamp = stamp }
    }
  }

  // MARK: - Changes (lock held)

  /// Sets or removes one key. Call with the lock held.
  func set(_ value: PropertyListValue?, forKey key: String, deliveries: inout [() -> Void]) {
    loadIfNeeded()
    let old = values[key]
    if let value { values[key] = value } else { values.removeValue(forKey: key) }
    if file != nil { pending[key] = .some(value) }
    if old != value { notify([key], deliveries: &deliveries) }
    scheduleFlush()
  }

  /// Replaces the whole domain (`nil`: removes it). Call with the lock held.
  func replaceAll(with newValues: [String: PropertyListValue]?, deliveries: inout [() -> Void]) {
    loadIfNeeded()
    let old = values
    values = newValues ?? [:]
    pending = [:]
    if file != nil {
      replacesAll = true
      removesFile = newValues == nil
    }
    notify(Self.changedKeys(old, values), deliveries: &deliveries)
    scheduleFlush()
  }

  private func notify(_ keys: [String], deliveries: inout [() -> Void]) {
    guard !keys.isEmpty else { return }
    for (id, entry) in listeners {
      if let listener = entry.listener {
        listener.domain(self, changedKeys: keys, deliveries: &deliveries)
      } else {
        listeners[id] = nil
      }
    }
  }

  static func changedKeys(_ old: [String: PropertyListValue], _ new: [String: PropertyListValue]) -> [String] {
    var keys: [String] = []
    for (key, value) in new where old[key] != value { keys.append(key) }
    for key in old.keys where new[key] == nil { keys.append(key) }
    return keys
  }

  // MARK: - Coalescing timer

  /// Arms the flush timer: the domain is saved once changes have been quiet for the flush delay
  /// (or, during a burst that never pauses, every ten delays or 5 s, whichever is longer). Call
  /// with the lock held.
  private func scheduleFlush() {
    guard file != nil, let delay = flushDelay else { return }
    let now = clock.now.nanoseconds
    lastChange = now
    guard !timerArmed else { return }
    timerArmed = true
    firstChange = now
    armTimer(after: delay)
  }

  private func armTimer(after seconds: Double) {
    clock.schedule(after: .seconds(seconds)) { [weak self] in
      self?.timerFired()
    }
  }

  private func timerFired() {
    store.lock.lock()
    guard timerArmed, let delay = flushDelay else {
      store.lock.unlock()
      return
    }
    let now = clock.now.nanoseconds
    let delayNanoseconds = UInt64(delay * 1e9)
    let quietFor = now &- lastChange
    // A long burst is still saved at least every ten delays (but no more often than every 5 s).
    let longestWait = max(delayNanoseconds &* 10, 5_000_000_000)
    if quietFor < delayNanoseconds && now &- firstChange < longestWait {
      store.lock.unlock()
      armTimer(after: Double(delayNanoseconds - quietFor) / 1e9)
      return
    }
    timerArmed = false
    store.lock.unlock()
    do {
      try synchronize()
    } catch {
      // The changes are kept; try again later rather than only at the next change or at exit.
      store.lock.lock()
      if !timerArmed && hasUnsavedChanges {
        timerArmed = true
        firstChange = clock.now.nanoseconds
        lastChange = 0
        armTimer(after: max(1, delay * 4))
      }
      store.lock.unlock()
    }
  }

  // MARK: - Synchronizing

  /// Saves this process's changes and picks up other processes' changes.
  ///
  /// Under the file lock: read the file if it changed since last seen, apply the keys changed here
  /// since the last save, write it atomically, then make the result (plus any change made
  /// meanwhile) the domain's values. Listeners hear about every key whose value changed.
  ///
  /// - Throws: ``DefaultsError`` when the file cannot be locked or written; the unsaved changes
  ///   are kept for the next attempt and the file is untouched.
  func synchronize() throws(DefaultsError) {
    guard let file else { return }
    // Nothing to save and nobody replaced the file: nothing to do (no lock, one stat).
    store.lock.lock()
    loadIfNeeded()
    let idle = pending.isEmpty && !replacesAll && savesInProgress == 0
    let seen = stamp
    store.lock.unlock()
    if idle && file.stamp() == seen { return }

    var deliveries: [() -> Void] = []
    defer { for delivery in deliveries { delivery() } }
    try file.withLock(domain: name) { () throws(DefaultsError) in
      // Take this process's changes.
      store.lock.lock()
      loadIfNeeded()
      let changes = pending
      let replacing = replacesAll
      let removing = removesFile
      let replacement = replacing ? values : [:]
      let knownStamp = stamp
      let knownFile = lastFileValues
      pending = [:]
      replacesAll = false
      removesFile = false
      // Until this save is installed, another synchronize() must not take the fast path: the
      // changes just taken are not on disk yet.
      savesInProgress += 1
      store.lock.unlock()

      // Read what is on disk now.
      let currentStamp = file.stamp()
      var onDisk: [String: PropertyListValue]
      var readFailure: DefaultsError?
      var reread = false
      if replacing {
        onDisk = replacement
      } else if currentStamp == knownStamp {
        // Nobody replaced the file since this process last read or wrote it.
        onDisk = knownFile
      } else {
        onDisk = [:]
        reread = true
        do throws(DefaultsError) {
          if let contents = try file.readValues(domain: name) { onDisk = contents }
        } catch {
          if error.code == .fileSystem {
            // Not a damaged file but a failed read: writing now could drop other processes' keys.
            abandonSave(changes, replacing: false, removing: false, because: error)
            throw error
          }
          readFailure = error  // a damaged file: moved aside below, then replaced
        }
      }
      let damaged: Bool
      if let readFailure {
        damaged = readFailure.code == .unreadableFile
      } else if replacing {
        damaged = currentStamp != nil && file.isDamaged()
      } else {
        store.lock.lock()
        damaged = currentStamp != nil && currentStamp == damagedStamp
        store.lock.unlock()
      }
      if !replacing {
        for (key, change) in changes {
          if let value = change { onDisk[key] = value } else { onDisk.removeValue(forKey: key) }
        }
      }

      // Write if this process changed anything.
      var newStamp = currentStamp
      if replacing || !changes.isEmpty {
        do throws(DefaultsError) {
          if damaged {
            let keptAt = try file.moveDamagedAside(domain: name)
            readFailure = DefaultsError(
              .unreadableFile, domain: name,
              detail: "\(file.path) was damaged (not a readable property list); it was kept as \(keptAt) and replaced",
              underlying: readFailure)
          }
          if replacing && removing {
            try file.remove(domain: name)
          } else {
            try file.write(onDisk, domain: name)
          }
        } catch {
          abandonSave(changes, replacing: replacing, removing: removing, because: error)
          throw error
        }
        newStamp = file.stamp()
        store.lock.lock()
        writeCount += 1
        lastError = nil
        damagedStamp = nil
        store.lock.unlock()
      }

      // Install the result, keeping changes made while the file was being written.
      store.lock.lock()
      defer { store.lock.unlock() }
      savesInProgress -= 1
      if let readFailure { lastError = readFailure }
      stamp = newStamp
      lastFileValues = onDisk
      // Without a fresh read, `values` already is the file plus every change made here since.
      guard reread else { return }
      let before = values
      var after = onDisk
      if replacesAll {
        after = values
      } else {
        for (key, change) in pending {
          if let value = change { after[key] = value } else { after.removeValue(forKey: key) }
        }
      }
      values = after
      notify(Self.changedKeys(before, after), deliveries: &deliveries)
    }
  }

  /// Ends a save that failed: its changes wait for the next one, and `error` says why.
  private func abandonSave(
    _ changes: [String: PropertyListValue?], replacing: Bool, removing: Bool, because error: DefaultsError
  ) {
    store.lock.lock()
    restore(changes, replacing: replacing, removing: removing)
    lastError = error
    savesInProgress -= 1
    store.lock.unlock()
  }

  private func restore(_ changes: [String: PropertyListValue?], replacing: Bool, removing: Bool) {
    if replacing {
      if !replacesAll && pending.isEmpty {
        replacesAll = true
        removesFile = removing
      }
      return
    }
    for (key, change) in changes where pending[key] == nil { pending[key] = change }
  }
}
