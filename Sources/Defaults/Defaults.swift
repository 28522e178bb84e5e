public import Foundation
internal import PropertyLists
public import Sandbox
public import StasisSystem
import Bundles

/// A user-defaults database: the equivalent of Foundation's `UserDefaults` (`NSUserDefaults`).
///
/// Values are looked up through a stack of domains, first hit wins, in Apple's order:
///
/// 1. the **argument domain** (`NSArgumentDomain`): `-Key value` pairs of the process arguments;
/// 2. the **application domain**: this app's preferences file,
///    `<container>/Library/Preferences/<bundle id>.plist` (or the suite's, for
///    ``init(suiteName:configuration:)``), a binary property list;
/// 3. **suites** added with ``addSuite(named:)``, the last added first (CFPreferences' order);
/// 4. the **global domain** (`NSGlobalDomain`), shared by every app under the same container root:
///    `<root>/.GlobalPreferences/.GlobalPreferences.plist`;
/// 5. **language domains**: the volatile domains named after the preferred languages, in order;
/// 6. the **registration domain** (`NSRegistrationDomain`), filled by ``register(defaults:)``,
///    never saved.
///
/// Writes go to the application (or suite) domain. They are kept in memory and saved by a
/// coalescing timer (a burst of sets costs one file write), by ``synchronize()``, when the
/// instance goes away and when the process exits — unlike Foundation on Linux, an unsynchronized
/// write is never lost. Saving merges: the file is locked, read again, and only the keys this
/// process changed are applied, so processes writing the same domain lose nothing.
///
/// Other processes' changes are picked up by ``synchronize()`` (and by each timed save).
/// Changes post ``didChangeNotification`` and call the handlers registered with
/// ``observe(_:handler:)``.
///
/// Only property-list values can be stored: strings, integers, reals, booleans, dates, data, and
/// arrays and string-keyed dictionaries of them. ``set(_:forKey:)-(Any?,_)`` stops the process
/// with a precondition failure for anything else, as `-[NSUserDefaults setObject:forKey:]` raises
/// `NSInvalidArgumentException`; ``setChecked(_:forKey:)`` throws ``DefaultsError`` instead.
///
/// Instances are thread-safe.
public final class UserDefaults: @unchecked Sendable {
  /// `NSArgumentDomain`.
  public static let argumentDomain = "NSArgumentDomain"
  /// `NSGlobalDomain`.
  public static let globalDomain = "NSGlobalDomain"
  /// `NSRegistrationDomain`.
  public static let registrationDomain = "NSRegistrationDomain"
  /// Posted (object: the instance) after a value changes, whether this process changed it or a
  /// change by another process was picked up; `UserDefaults.didChangeNotification`
  /// (`NSUserDefaultsDidChangeNotification`).
  public static let didChangeNotification = Notification.Name("NSUserDefaultsDidChangeNotification")

  /// Where an instance finds its files and its process's arguments. Every part of the outside
  /// world comes from one `HostEnvironment`, so tests can replace it; the parts below
  /// can also be stated one by one.
  public struct Configuration: Sendable {
    /// The outside world the other parts were derived from (home folder, variables).
    /// Default: `HostEnvironment.current`.
    public var environment: HostEnvironment
    /// Where app containers (and the global domain) live. Default: the environment's
    /// `HostEnvironment.containersRoot` (`ContainerRoot.init(environment:)`).
    public var containerRoot: ContainerRoot
    /// The process arguments the argument domain is built from (the first is the program and is
    /// skipped). Default: the environment's `ProcessIdentity.arguments`.
    public var arguments: [String]
    /// The preferred languages whose volatile domains are searched. Default: from the
    /// environment's `$LANGUAGE`, `$LC_ALL`, `$LC_MESSAGES`, `$LANG` (e.g. `fr_FR.UTF-8` gives
    /// `fr-FR`, `fr`).
    public var languages: [String]
    /// Seconds of quiet after a change before it is saved, or `nil` to save only on
    /// ``synchronize()``, deinitialization and exit. Default 0.25 s.
    public var flushDelay: Double?
    /// The app's own bundle identifier, which cannot be used as a suite name. Default: `nil`.
    public var mainBundleIdentifier: String?

    public init(
      environment: HostEnvironment = .current, containerRoot: ContainerRoot? = nil, arguments: [String]? = nil,
      languages: [String]? = nil, flushDelay: Double? = 0.25, mainBundleIdentifier: String? = nil
    ) {
      self.environment = environment
      self.containerRoot = containerRoot ?? ContainerRoot(environment: environment)
      self.arguments = arguments ?? environment.process.arguments
      self.languages = languages ?? Self.languages(from: environment.variables)
      self.flushDelay = flushDelay
      self.mainBundleIdentifier = mainBundleIdentifier
    }

    /// The language domains a POSIX environment names: each language Bundles reads from it
    /// (`Bundle.preferredLanguages(fromPOSIXEnvironment:)` in `Bundles`, gettext's rules nearly), followed
    /// by its bare language when that differs (`fr_FR.UTF-8` → `fr-FR`, `fr`; `zh_TW` →
    /// `zh-Hant-TW`, `zh`). A `C` or `POSIX` locale means none, even with `LANGUAGE` set.
    public static func languages(from environment: [String: String]) -> [String] {
      var names: [String] = []
      for language in Bundles.Bundle.preferredLanguages(fromPOSIXEnvironment: environment) {
        let bare = String(language.split(separator: "-").first ?? "")
        for candidate in [language, bare] where !candidate.isEmpty && !names.contains(candidate) {
          names.append(candidate)
        }
      }
      return names
    }
  }

  // MARK: - State

  let store = DefaultsStore.shared
  /// The application domain's (or suite's) name.
  public let domainName: String
  public let configuration: Configuration
  /// The app container, when the application domain is stored in one.
  public let container: AppContainer?
  let applicationDomain: PersistentDomain
  let global: PersistentDomain

  // Guarded by `store.lock`.
  var suites: [PersistentDomain] = []
  /// Domains outside the search list changed through this instance (saved by `synchronize()`).
  var changedOtherDomains: [PersistentDomain] = []
  var volatileDomains: [String: [String: PropertyListValue]] = [:]
  /// Every key of the search list with the value it resolves to.
  var resolved: [String: PropertyListValue] = [:]
  var observers: [String: [UInt64: @Sendable (PropertyListValue?) -> Void]] = [:]
  var nextObserverID: UInt64 = 1

  /// Opens the defaults of the app `bundleIdentifier` in its container under the configuration's
  /// root (created on first use).
  ///
  /// - Throws: `DefaultsError.Code.container` when the container cannot be created;
  ///   `DefaultsError.Code.invalidDomainName` for an empty name or `NSGlobalDomain`.
  public convenience init(bundleIdentifier: String, configuration: Configuration = Configuration()) throws(DefaultsError) {
    guard !bundleIdentifier.isEmpty, bundleIdentifier != Self.globalDomain else {
      throw DefaultsError(.invalidDomainName, domain: bundleIdentifier, detail: "\"\(bundleIdentifier)\" cannot name an application domain")
    }
    let container: AppContainer
    do {
      container = try configuration.containerRoot.container(for: bundleIdentifier)
    } catch {
      throw DefaultsError(error, domain: bundleIdentifier)
    }
    self.init(
      domainName: bundleIdentifier, file: PreferencesFile(path: container.preferencesFilePath, fileSystem: configuration.environment.fileSystem),
      container: container, configuration: configuration)
  }

  /// Opens a suite (`-[NSUserDefaults initWithSuiteName:]`): its own domain, stored like an app's
  /// under the container root, searched in place of the application domain. `nil` gives the
  /// ``Configuration/mainBundleIdentifier`` (memory-only when there is none).
  ///
  /// Returns `nil` for `NSGlobalDomain` and for the main bundle identifier, which Apple documents
  /// as unsupported suite names, and when the container cannot be created.
  public convenience init?(suiteName: String?, configuration: Configuration = Configuration()) {
    if let suiteName {
      guard suiteName != Self.globalDomain, suiteName != configuration.mainBundleIdentifier, !suiteName.isEmpty else {
        return nil
      }
      try? self.init(bundleIdentifier: suiteName, configuration: configuration)
    } else if let main = configuration.mainBundleIdentifier {
      try? self.init(bundleIdentifier: main, configuration: configuration)
    } else {
      self.init(inMemoryDomain: "Defaults", configuration: configuration)
    }
  }

  /// An instance whose application domain is kept in memory only (nothing is written), with the
  /// global domain still read from the container root.
  public convenience init(inMemoryDomain name: String, configuration: Configuration = Configuration()) {
    self.init(domainName: name, file: nil, container: nil, configuration: configuration)
  }

  init(domainName: String, file: PreferencesFile?, container: AppContainer?, configuration: Configuration) {
    self.domainName = domainName
    self.configuration = configuration
    self.container = container
    store.lock.lock()
    applicationDomain = store.domain(named: domainName, file: file, clock: configuration.environment.clock.monotonic)
    global = store.domain(
      named: Self.globalDomain,
      file: PreferencesFile(path: configuration.containerRoot.globalPreferencesPath, fileSystem: configuration.environment.fileSystem),
      clock: configuration.environment.clock.monotonic)
    store.lock.unlock()
    volatileDomains[Self.argumentDomain] = ArgumentDomain.parse(configuration.arguments)
    volatileDomains[Self.registrationDomain] = [:]
    // Pick up what other processes wrote since this process last looked.
    try? applicationDomain.refreshIfUnchangedHere()
    try? global.refreshIfUnchangedHere()
    store.lock.lock()
    applicationDomain.requestFlushDelay(configuration.flushDelay)
    global.requestFlushDelay(configuration.flushDelay)
    applicationDomain.loadIfNeeded()
    global.loadIfNeeded()
    applicationDomain.addListener(self)
    global.addListener(self)
    rebuildResolved()
    store.lock.unlock()
  }

  deinit {
    store.lock.lock()
    let domains = [applicationDomain, global] + suites
    for domain in domains { domain.removeListener(self) }
    let dirty = domains.filter { $0.hasUnsavedChanges }
    store.lock.unlock()
    for domain in dirty { _ = try? domain.synchronize() }
  }

  /// The shared instance (`UserDefaults.standard`): the app named by `$STASIS_BUNDLE_IDENTIFIER`
  /// (else the process name) under the containers root of `HostEnvironment.current`. When
  /// that container cannot be created, the application domain is kept in memory.
  public static let standard: UserDefaults = {
    let environment = HostEnvironment.current
    let identifier = environment.variables["STASIS_BUNDLE_IDENTIFIER"] ?? environment.process.name
    let configuration = Configuration(mainBundleIdentifier: identifier)
    if let opened = try? UserDefaults(bundleIdentifier: identifier, configuration: configuration) { return opened }
    return UserDefaults(inMemoryDomain: identifier, configuration: configuration)
  }()

  // MARK: - Search list

  /// The domains searched, highest priority first. Call with the lock held.
  @inline(__always)
  func lookUp(_ key: String) -> PropertyListValue? {
    if let value = volatileDomains[Self.argumentDomain]?[key] { return value }
    if let value = applicationDomain.values[key] { return value }
    for suite in suites.reversed() {
      if let value = suite.values[key] { return value }
    }
    if let value = global.values[key] { return value }
    for language in configuration.languages {
      if let value = volatileDomains[language]?[key] { return value }
    }
    return volatileDomains[Self.registrationDomain]?[key]
  }

  /// Recomputes every resolved value. Call with the lock held.
  func rebuildResolved() {
    var merged = volatileDomains[Self.registrationDomain] ?? [:]
    for language in configuration.languages.reversed() {
      if let domain = volatileDomains[language] { merged.merge(domain) { $1 } }
    }
    merged.merge(global.values) { $1 }
    for suite in suites { merged.merge(suite.values) { $1 } }
    merged.merge(applicationDomain.values) { $1 }
    if let arguments = volatileDomains[Self.argumentDomain] { merged.merge(arguments) { $1 } }
    resolved = merged
  }

  /// Recomputes the resolved values after a change to the set of domains and reports what changed.
  /// Call with the lock held.
  func reresolveAll(deliveries: inout [() -> Void]) {
    let before = resolved
    rebuildResolved()
    let keys = PersistentDomain.changedKeys(before, resolved)
    deliver(changed: keys, deliveries: &deliveries)
  }

  func deliver(changed keys: [String], deliveries: inout [() -> Void]) {
    guard !keys.isEmpty else { return }
    var calls: [(@Sendable (PropertyListValue?) -> Void, PropertyListValue?)] = []
    if !observers.isEmpty {
      for key in keys {
        guard let handlers = observers[key] else { continue }
        let value = resolved[key]
        for (_, handler) in handlers.sorted(by: { $0.key < $1.key }) { calls.append((handler, value)) }
      }
    }
    deliveries.append { [self] in
      for (handler, value) in calls { handler(value) }
      NotificationCenter.default.post(name: Self.didChangeNotification, object: self)
    }
  }

  /// Runs `body` with the lock held, then the notifications it queued.
  func mutate(_ body: (inout [() -> Void]) -> Void) {
    var deliveries: [() -> Void] = []
    store.lock.lock()
    body(&deliveries)
    store.lock.unlock()
    for delivery in deliveries { delivery() }
  }

  /// The persistent domain named `name` (`NSGlobalDomain`, this instance's domain, or another
  /// app's or suite's). Call with the lock held.
  func persistentDomainObject(named name: String) throws(DefaultsError) -> PersistentDomain {
    if name == Self.globalDomain { return global }
    if name == domainName { return applicationDomain }
    if let suite = suites.first(where: { $0.name == name }) { return suite }
    guard !name.isEmpty else {
      throw DefaultsError(.invalidDomainName, domain: name, detail: "a domain name cannot be empty")
    }
    let domain: PersistentDomain
    if let path = try? configuration.containerRoot.preferencesFilePath(for: name), let open = store.openDomain(atPath: path) {
      // Opened before: no need to make (or check) its container again.
      domain = open
    } else {
      let container: AppContainer
      do {
        container = try configuration.containerRoot.container(for: name)
      } catch {
        throw DefaultsError(error, domain: name)
      }
      domain = store.domain(
        named: name, file: PreferencesFile(path: container.preferencesFilePath, fileSystem: configuration.environment.fileSystem),
        clock: configuration.environment.clock.monotonic)
    }
    domain.requestFlushDelay(configuration.flushDelay)
    domain.loadIfNeeded()
    return domain
  }
}

extension UserDefaults: DomainListener {
  func domain(_ domain: PersistentDomain, changedKeys keys: [String], deliveries: inout [() -> Void]) {
    var changed: [String] = []
    for key in keys {
      let value = lookUp(key)
      if resolved[key] != value {
        resolved[key] = value
        changed.append(key)
      }
    }
    deliver(changed: changed, deliveries: &deliveries)
  }
}

extension PersistentDomain {
  /// Re-reads the file if another process replaced it and this process has nothing unsaved in it.
  func refreshIfUnchangedHere() throws(DefaultsError) {
    store.lock.lock()
    let dirty = hasUnsavedChanges
    store.lock.unlock()
    guard !dirty, file != nil else { return }
    if isStale { try synchronize() }
  }
}
