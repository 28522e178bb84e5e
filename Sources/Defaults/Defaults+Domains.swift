import Foundation
public import PropertyLists

extension UserDefaults {
  // MARK: - Registration domain

  /// `-registerDefaults:`: adds the entries to the registration domain (the last resort of the
  /// search list; never saved). Later registrations replace earlier values of the same keys.
  ///
  /// - Precondition: every value is a property-list value (Apple raises otherwise).
  public func register(defaults: [String: Any]) {
    let converted = Self.propertyLists(defaults, attemptingTo: "register")
    register(propertyLists: converted)
  }

  /// ``register(defaults:)`` with property-list values.
  public func register(propertyLists: [String: PropertyListValue]) {
    mutate { deliveries in
      volatileDomains[Self.registrationDomain, default: [:]].merge(propertyLists) { $1 }
      reresolveAll(deliveries: &deliveries)
    }
  }

  // MARK: - Volatile domains

  /// `-volatileDomainNames`: `NSArgumentDomain`, `NSRegistrationDomain` and every domain set with
  /// ``setVolatileDomain(_:forName:)``, sorted.
  public var volatileDomainNames: [String] {
    store.lock.lock()
    defer { store.lock.unlock() }
    return volatileDomains.keys.sorted()
  }

  /// `-volatileDomainForName:`: the domain's contents (empty when there is no such domain).
  public func volatileDomain(forName name: String) -> [String: Any] {
    store.lock.lock()
    let domain = volatileDomains[name] ?? [:]
    store.lock.unlock()
    return DefaultsConversion.foundationDictionary(domain)
  }

  /// `-setVolatileDomain:forName:`: sets a domain kept in memory only. Setting
  /// `NSArgumentDomain` or `NSRegistrationDomain` replaces that domain. Other volatile domains
  /// are not searched, as on Apple platforms — except those named after a preferred language
  /// (``Configuration/languages``), which are the language domains.
  ///
  /// - Precondition: every value is a property-list value.
  public func setVolatileDomain(_ domain: [String: Any], forName name: String) {
    let converted = Self.propertyLists(domain, attemptingTo: "insert")
    setVolatileDomain(propertyLists: converted, forName: name)
  }

  /// ``setVolatileDomain(_:forName:)`` with property-list values.
  public func setVolatileDomain(propertyLists domain: [String: PropertyListValue], forName name: String) {
    mutate { deliveries in
      volatileDomains[name] = domain
      reresolveAll(deliveries: &deliveries)
    }
  }

  /// `-removeVolatileDomainForName:`.
  public func removeVolatileDomain(forName name: String) {
    mutate { deliveries in
      volatileDomains[name] = nil
      reresolveAll(deliveries: &deliveries)
    }
  }

  // MARK: - Persistent domains

  /// `-persistentDomainForName:`: the stored contents of a persistent domain (`NSGlobalDomain`,
  /// this app's, or any other app's or suite's under the container root), or `nil` when it does
  /// not exist.
  public func persistentDomain(forName name: String) -> [String: Any]? {
    persistentDomainPropertyLists(forName: name).map(DefaultsConversion.foundationDictionary)
  }

  /// ``persistentDomain(forName:)`` as property-list values.
  public func persistentDomainPropertyLists(forName name: String) -> [String: PropertyListValue]? {
    store.lock.lock()
    defer { store.lock.unlock() }
    guard let domain = try? persistentDomainObject(named: name), domain.exists else { return nil }
    return domain.values
  }

  /// `-setPersistentDomain:forName:`: replaces the whole domain; saved like any other change.
  ///
  /// - Precondition: every value is a property-list value.
  public func setPersistentDomain(_ domain: [String: Any], forName name: String) {
    let converted = Self.propertyLists(domain, attemptingTo: "insert")
    try? setPersistentDomain(propertyLists: converted, forName: name)
  }

  /// ``setPersistentDomain(_:forName:)`` with property-list values.
  ///
  /// - Throws: `DefaultsError.Code.container` or `DefaultsError.Code.invalidDomainName` when
  ///   the domain's container cannot be opened.
  public func setPersistentDomain(propertyLists domain: [String: PropertyListValue], forName name: String) throws(DefaultsError) {
    var failure: DefaultsError?
    mutate { deliveries in
      do throws(DefaultsError) {
        let target = try persistentDomainObject(named: name)
        target.replaceAll(with: domain, deliveries: &deliveries)
        noteChanged(target)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// `-removePersistentDomainForName:`: empties the domain; its file is deleted on the next save.
  public func removePersistentDomain(forName name: String) {
    mutate { deliveries in
      guard let target = try? persistentDomainObject(named: name) else { return }
      target.replaceAll(with: nil, deliveries: &deliveries)
      noteChanged(target)
    }
  }

  // MARK: - Suites

  /// `-addSuiteNamed:`: searches the suite's domain after the application domain and before
  /// `NSGlobalDomain`; suites added later are searched first. Adding `NSGlobalDomain`, this
  /// instance's own domain or a suite already added does nothing.
  public func addSuite(named name: String) {
    mutate { deliveries in
      guard name != Self.globalDomain, name != domainName, !name.isEmpty,
        !suites.contains(where: { $0.name == name }),
        let domain = try? persistentDomainObject(named: name)
      else { return }
      domain.addListener(self)
      suites.append(domain)
      reresolveAll(deliveries: &deliveries)
    }
  }

  /// `-removeSuiteNamed:`.
  public func removeSuite(named name: String) {
    mutate { deliveries in
      guard let index = suites.firstIndex(where: { $0.name == name }) else { return }
      suites[index].removeListener(self)
      suites.remove(at: index)
      reresolveAll(deliveries: &deliveries)
    }
  }

  /// The suites added with ``addSuite(named:)``, in the order they were added.
  public var suiteNames: [String] {
    store.lock.lock()
    defer { store.lock.unlock() }
    return suites.map(\.name)
  }

  // MARK: - Saving

  /// `-synchronize`: saves unsaved changes (of the domains this instance uses — application
  /// domain, suites, `NSGlobalDomain` — and of other domains it changed with
  /// ``setPersistentDomain(_:forName:)``) and picks up other processes' changes to them,
  /// notifying observers of every value that changed. Answers `false` when a save failed (the changes are kept and
  /// retried); ``synchronizeOrThrow()`` says why.
  @discardableResult
  public func synchronize() -> Bool {
    (try? synchronizeOrThrow()) != nil
  }

  /// Remembers a domain other than the search list's that this instance changed, so that
  /// ``synchronize()`` saves it. Call with the lock held.
  func noteChanged(_ domain: PersistentDomain) {
    if !changedOtherDomains.contains(where: { $0 === domain }) { changedOtherDomains.append(domain) }
  }

  /// ``synchronize()`` that throws the first failure.
  ///
  /// - Throws: `DefaultsError.Code.fileSystem` when a preferences file cannot be locked, read or
  ///   written (ENOSPC, EACCES, …); the file on disk is left as it was.
  public func synchronizeOrThrow() throws(DefaultsError) {
    store.lock.lock()
    var domains = [applicationDomain] + suites + [global]
    // Also other domains this instance changed (setPersistentDomain(_:forName:)).
    for domain in changedOtherDomains where !domains.contains(where: { $0 === domain }) { domains.append(domain) }
    store.lock.unlock()
    var firstFailure: DefaultsError?
    for domain in domains {
      do {
        try domain.synchronize()
      } catch {
        if firstFailure == nil { firstFailure = error }
      }
    }
    if let firstFailure { throw firstFailure }
  }

  /// How many times this process has written (or deleted) the application domain's file: a
  /// test and benchmark hook for the coalescing of saves.
  @_spi(Testing) public var applicationDomainWriteCount: Int {
    store.lock.lock()
    defer { store.lock.unlock() }
    return applicationDomain.writeCount
  }

  /// Why the last save (or load) of the application domain failed, `nil` after a successful
  /// save: how a failure of a timed save (which nobody is waiting for) can be seen.
  public var lastSaveError: DefaultsError? {
    store.lock.lock()
    defer { store.lock.unlock() }
    return applicationDomain.lastError
  }

  /// Whether the application domain has changes not yet saved.
  public var hasUnsavedChanges: Bool {
    store.lock.lock()
    defer { store.lock.unlock() }
    return applicationDomain.hasUnsavedChanges
  }

  /// The path of the application domain's preferences file (`nil` for a memory-only domain).
  public var preferencesFilePath: String? { applicationDomain.file?.path }

  // MARK: - Observing

  /// Calls `handler` with the new value (`nil`: no value) each time the value `key` resolves to
  /// changes — set or removed here, registered, or picked up from another process by
  /// ``synchronize()``. Key-value observing of `UserDefaults` is the Apple equivalent.
  ///
  /// The handler runs on the thread that made the change, after the change, outside any lock.
  /// Observation lasts until the returned token is invalidated or released.
  public func observe(
    _ key: String, handler: @escaping @Sendable (PropertyListValue?) -> Void
  ) -> DefaultsObservation {
    store.lock.lock()
    let identifier = nextObserverID
    nextObserverID += 1
    observers[key, default: [:]][identifier] = handler
    store.lock.unlock()
    return DefaultsObservation(defaults: self, key: key, identifier: identifier)
  }

  func removeObserver(key: String, identifier: UInt64) {
    store.lock.lock()
    observers[key]?[identifier] = nil
    if observers[key]?.isEmpty == true { observers[key] = nil }
    store.lock.unlock()
  }
}

/// A per-key observation from ``UserDefaults/observe(_:handler:)``; ends when invalidated or released.
public final class DefaultsObservation: @unchecked Sendable {
  private weak var defaults: UserDefaults?
  private let key: String
  private let identifier: UInt64

  init(defaults: UserDefaults, key: String, identifier: UInt64) {
    self.defaults = defaults
    self.key = key
    self.identifier = identifier
  }

  /// Stops the observation.
  public func invalidate() {
    defaults?.removeObserver(key: key, identifier: identifier)
    defaults = nil
  }

  deinit { invalidate() }
}

extension UserDefaults {
  /// `values` as property lists; a value that is not one stops the program as Apple's
  /// `NSUserDefaults` does ("Attempt to `verb` non-property list object …").
  static func propertyLists(_ values: [String: Any], attemptingTo verb: String) -> [String: PropertyListValue] {
    var converted: [String: PropertyListValue] = [:]
    for (key, value) in values {
      guard let plist = DefaultsConversion.propertyList(from: value) else {
        preconditionFailure("Attempt to \(verb) non-property list object \(type(of: value)) for key \(key)")
      }
      converted[key] = plist
    }
    return converted
  }
}
