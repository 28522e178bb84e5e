import StasisSystem
import Defaults
import Foundation
import PropertyLists
import Sandbox

/// One run of the tool: the container root and the streams.
struct Session {
  let root: ContainerRoot
  let environment: HostEnvironment
  /// `-currentHost`: the host identifier whose `ByHost` domains are meant (`nil`: the ordinary
  /// ones).
  var byHost: String? = nil

  /// A domain named on the command line.
  struct Domain {
    /// How messages name it: the bundle identifier, `kCFPreferencesAnyApplication` for the
    /// global domain (as Apple's messages do), or the path as given.
    let displayName: String
    /// Its file; `nil` when the named app has no container (so the domain does not exist).
    let file: PreferencesFile?
  }

  // MARK: - Domains

  /// `-app <Name>`: the container holding `<Name>.app` (`.app` optional).
  func applicationDomain(named name: String) throws(ToolFailure) -> String {
    let bundle = name.hasSuffix(".app") ? name : name + ".app"
    for identifier in root.bundleIdentifiers() {
      if environment.fileSystem.isFolder(root.path + "/" + identifier + "/" + bundle) { return identifier }
    }
    throw ToolFailure("Couldn't find an application named \"\(name)\"; defaults unchanged")
  }

  /// Replaces `-app <Name>` at the front of `words` by the application's bundle identifier.
  func resolvingApplication(_ words: [String]) throws(ToolFailure) -> [String] {
    guard words.first == "-app" else { return words }
    guard words.count >= 2 else { throw ToolFailure.usage }
    return [try applicationDomain(named: words[1])] + words.dropFirst(2)
  }

  func domain(_ word: String, creating: Bool) throws(ToolFailure) -> Domain {
    switch word {
    case "-g", "-globalDomain", "NSGlobalDomain", "Apple Global Domain":
      return Domain(displayName: "kCFPreferencesAnyApplication", file: PreferencesFile(path: hostSpecific(root.globalPreferencesPath), fileSystem: environment.fileSystem))
    default: break
    }
    if word.contains("/") {
      // A path domain: an absolute path (or `~/…`) to a plist, `.plist` optional, as in Apple's
      // man page. A relative path is refused, so that the current folder never decides which file
      // is written; no folder is created on the way; the lock lives under the containers root.
      var path = word
      if word.hasPrefix("~/") {
        guard let home = environment.variables["HOME"], home.hasPrefix("/") else {
          throw ToolFailure("Invalid domain name \(word): HOME is not set to an absolute path")
        }
        path = home + word.dropFirst()
      }
      guard path.hasPrefix("/") else {
        throw ToolFailure("Invalid domain name \(word): a path domain must be absolute (begin with / or ~/)")
      }
      if !path.hasSuffix(".plist") { path += ".plist" }
      let lock = root.path + "/.path-domain-locks/" + Self.lockName(for: path)
      return Domain(displayName: word, file: PreferencesFile(path: path, lockPath: lock, createsFolder: false, fileSystem: environment.fileSystem))
    }
    guard !word.isEmpty else { throw ToolFailure("A domain name cannot be empty") }
    if !creating {
      // Only looking: no container means no domain, and nothing is created.
      guard root.bundleIdentifiers().contains(word), let path = try? root.preferencesFilePath(for: word) else {
        return Domain(displayName: word, file: nil)
      }
      return Domain(displayName: word, file: PreferencesFile(path: hostSpecific(path), fileSystem: environment.fileSystem))
    }
    do {
      let container = try root.container(for: word)
      return Domain(displayName: word, file: PreferencesFile(path: hostSpecific(container.preferencesFilePath), fileSystem: environment.fileSystem))
    } catch let error where error.code == .invalidIdentifier {
      throw ToolFailure("Invalid domain name \(word): \(error.description)")
    } catch {
      // The name is fine; its container could not be made (a full disk, a read-only folder).
      throw ToolFailure("Could not create the container of domain \(word): \(error.description)")
    }
  }

  /// A domain's file, or with `-currentHost` its host-specific one beside it, as macOS keeps
  /// them: `Preferences/ByHost/<name>.<hostUUID>.plist` for `Preferences/<name>.plist` (the
  /// global domain's is `ByHost/.GlobalPreferences.<hostUUID>.plist`).
  func hostSpecific(_ path: String) -> String {
    guard let byHost, let slash = path.lastIndex(of: "/") else { return path }
    let name = path[path.index(after: slash)...]
    let base = name.hasSuffix(".plist") ? name.dropLast(6) : name
    return path[..<slash] + "/ByHost/" + base + "." + byHost + ".plist"
  }

  /// The lock file's name for a path domain: FNV-1a of the path, so that every process that
  /// names the same path takes the same lock (two paths that collide merely share a lock).
  static func lockName(for path: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in path.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return String(hash, radix: 16) + ".lock"
  }

  /// The domain's contents, or `nil` when it does not exist.
  ///
  /// - Throws: a failure that says the domain is damaged, where its file is and how to replace it,
  ///   when the file is not a readable dictionary.
  func contents(of domain: Domain) throws(ToolFailure) -> PropertyListDictionary? {
    guard let file = domain.file else { return nil }
    do {
      return try file.read(domain: domain.displayName)
    } catch {
      throw Self.failure(error, domain: domain.displayName, file: file)
    }
  }

  /// The tool's message for a domain whose file could not be read.
  static func failure(_ error: DefaultsError, domain: String, file: PreferencesFile) -> ToolFailure {
    guard error.code == .unreadableFile else { return ToolFailure(error) }
    let reason = (error.underlying.map { String(describing: $0) } ?? error.detail)
    return ToolFailure(
      "Domain \(domain) is damaged: its preferences file \(file.path) cannot be read (\(reason)).\n"
        + "Replace it with `defaults delete \(domain)`, `defaults import \(domain) <file>` or a whole-domain "
        + "`defaults write \(domain) '<plist>'`; the damaged file is then kept as \(file.damagedCopyPath()).")
  }

  /// Changes the domain under its file's lock. `replacingDamaged` (deleting, importing or
  /// writing the whole domain) moves a damaged file aside instead of failing.
  func update(
    _ domain: Domain, replacingDamaged: Bool = false,
    _ body: (inout PropertyListDictionary?) throws(ToolFailure) -> Bool
  ) throws(ToolFailure) {
    guard let file = domain.file else { throw ToolFailure("\nDomain \(domain.displayName) does not exist") }
    var inner: ToolFailure?
    do {
      try file.update(domain: domain.displayName, replacingDamaged: replacingDamaged) {
        (contents) throws(DefaultsError) -> Bool in
        do throws(ToolFailure) {
          return try body(&contents)
        } catch {
          inner = error
          return false
        }
      }
    } catch {
      // Apple: "Could not write domain com.apple.mail-shared; exiting". Stasis adds the cause
      // (`No space left on device`, the path).
      if error.code == .fileSystem {
        throw ToolFailure("Could not write domain \(domain.displayName); exiting\n\(error.detail)")
      }
      throw Self.failure(error, domain: domain.displayName, file: file)
    }
    if let inner { throw inner }
  }

  func print(_ text: String) {
    environment.writeStandardOutput(Array((text + "\n").utf8))
  }

  // MARK: - read, read-type

  func read(_ words: [String]) throws(ToolFailure) {
    switch words.count {
    case 0:
      var all = PropertyListDictionary()
      for (name, contents) in try allDomains() { all[name] = .dictionary(contents) }
      print(DefaultsDescription.describe(.dictionary(all)))
    case 1:
      let domain = try domain(words[0], creating: false)
      guard let contents = try contents(of: domain) else {
        throw ToolFailure("\nDomain \(domain.displayName) does not exist")
      }
      print(DefaultsDescription.describe(.dictionary(contents)))
    case 2:
      print(DefaultsDescription.describe(try value(in: words[0], key: words[1])))
    default:
      throw ToolFailure.usage
    }
  }

  func readType(_ words: [String]) throws(ToolFailure) {
    guard words.count == 2 else { throw ToolFailure.usage }
    let type: String
    switch try value(in: words[0], key: words[1]) {
    case .string: type = "string"
    case .integer: type = "integer"
    case .real: type = "float"
    case .bool: type = "boolean"
    case .date: type = "date"
    case .data: type = "data"
    case .array: type = "array"
    case .dictionary: type = "dictionary"
    case .uid: type = "unknown"
    }
    print("Type is \(type)")
  }

  private func value(in domainWord: String, key: String) throws(ToolFailure) -> PropertyListValue {
    let domain = try domain(domainWord, creating: false)
    guard let value = try contents(of: domain)?[key] else {
      throw ToolFailure("\nThe domain/default pair of (\(domain.displayName), \(key)) does not exist")
    }
    return value
  }

  /// Every domain with a preferences file, by name (`NSGlobalDomain` last). A damaged file is
  /// reported once on standard error, by domain and path, and its domain reads as empty, so one bad
  /// file does not stop `read` or `find` from showing the others.
  func allDomains() throws(ToolFailure) -> [(String, PropertyListDictionary)] {
    var domains: [Domain] = []
    for name in domainNames() {
      // domainNames() already found the container and its file: no second listing per name.
      guard let path = try? root.preferencesFilePath(for: name) else { continue }
      domains.append(Domain(displayName: name, file: PreferencesFile(path: hostSpecific(path), fileSystem: environment.fileSystem)))
    }
    let global = try domain("NSGlobalDomain", creating: false)
    domains.append(Domain(displayName: "NSGlobalDomain", file: global.file))
    var result: [(String, PropertyListDictionary)] = []
    for domain in domains {
      guard let file = domain.file else { continue }
      do throws(DefaultsError) {
        if let contents = try file.read(domain: domain.displayName) { result.append((domain.displayName, contents)) }
      } catch where error.code == .unreadableFile {
        environment.writeStandardError(
          Array((DefaultsTool.logHeader(in: environment)
            + "Domain \(domain.displayName) is damaged (\(file.path) cannot be read); read as empty\n").utf8))
        result.append((domain.displayName, PropertyListDictionary()))
      } catch {
        throw ToolFailure(error)
      }
    }
    return result
  }

  /// The bundle identifiers whose container holds a preferences file, sorted.
  func domainNames() -> [String] {
    root.bundleIdentifiers().filter { name in
      guard let path = try? root.preferencesFilePath(for: name) else { return false }
      return PreferencesFile(path: hostSpecific(path), fileSystem: environment.fileSystem).exists
    }
  }

  // MARK: - write, rename, delete

  func write(_ words: [String]) throws(ToolFailure) {
    guard words.count >= 2 else { throw ToolFailure.usage }
    let domain = try domain(words[0], creating: true)
    if words.count == 2 {
      // defaults write <domain> '<plist>': the whole domain.
      let value = try ValueArguments.parsePlist(words[1])
      guard case .dictionary(let replacement) = value else {
        throw ToolFailure("Rep argument is not a dictionary\nDefaults have not been changed.")
      }
      try update(domain, replacingDamaged: true) { contents in
        contents = replacement
        return true
      }
      return
    }
    let key = words[1]
    let specification = Array(words[2...])
    try update(domain) { (contents) throws(ToolFailure) -> Bool in
      var dictionary = contents ?? PropertyListDictionary()
      let existing = dictionary[key]
      let value = try ValueArguments.value(from: specification, existing: existing, key: key, domain: domain.displayName)
      dictionary[key] = value
      contents = dictionary
      return true
    }
  }

  func rename(_ words: [String]) throws(ToolFailure) {
    guard words.count == 3 else { throw ToolFailure.usage }
    let domain = try domain(words[0], creating: false)
    let (old, new) = (words[1], words[2])
    guard try contents(of: domain) != nil else { throw ToolFailure("\nDomain \(domain.displayName) does not exist") }
    try update(domain) { (contents) throws(ToolFailure) -> Bool in
      guard var dictionary = contents, let value = dictionary[old] else {
        throw ToolFailure("\nKey \(old) does not exist in domain \(domain.displayName); leaving defaults unchanged")
      }
      dictionary[old] = nil
      dictionary[new] = value
      contents = dictionary
      return true
    }
  }

  func delete(_ words: [String]) throws(ToolFailure) {
    guard words.count == 1 || words.count == 2 else { throw ToolFailure.usage }
    let domain = try domain(words[0], creating: false)
    // Deleting the whole domain needs no readable file (a damaged one is moved aside); deleting
    // one key does.
    let exists = words.count == 1 ? (domain.file?.exists ?? false) : (try contents(of: domain) != nil)
    guard exists else {
      throw ToolFailure("\nDomain (\(domain.displayName)) not found.\nDefaults have not been changed.")
    }
    try update(domain, replacingDamaged: words.count == 1) { (contents) throws(ToolFailure) -> Bool in
      if words.count == 1 {
        contents = nil
        return true
      }
      let key = words[1]
      guard var dictionary = contents, dictionary[key] != nil else {
        throw ToolFailure("\nThe domain/default pair of (\(domain.displayName), \(key)) does not exist")
      }
      dictionary[key] = nil
      contents = dictionary
      return true
    }
  }

  // MARK: - domains, find

  func domains(_ words: [String]) throws(ToolFailure) {
    guard words.isEmpty else { throw ToolFailure.usage }
    print(domainNames().joined(separator: ", "))
  }

  func find(_ words: [String]) throws(ToolFailure) {
    guard words.count == 1 else { throw ToolFailure.usage }
    let word = words[0].lowercased()
    var foundAny = false
    for (name, contents) in try allDomains() {
      var found = PropertyListDictionary()
      let wholeDomain = name.lowercased().contains(word)
      for (key, value) in contents where wholeDomain || key.lowercased().contains(word) || Self.contains(value, word) {
        found[key] = value
      }
      guard !found.isEmpty else { continue }
      foundAny = true
      print("Found \(found.count) keys in domain '\(name)': \(DefaultsDescription.describe(.dictionary(found)))")
    }
    if !foundAny { print("No domain, key, nor value containing '\(words[0])'") }
  }

  static func contains(_ value: PropertyListValue, _ word: String) -> Bool {
    switch value {
    case .string(let string): string.lowercased().contains(word)
    case .array(let array): array.contains { contains($0, word) }
    case .dictionary(let dictionary): dictionary.contains { $0.key.lowercased().contains(word) || contains($0.value, word) }
    default: DefaultsDescription.leafText(value).lowercased().contains(word)
    }
  }

  // MARK: - export, import

  func export(_ words: [String]) throws(ToolFailure) {
    guard words.count == 2 else { throw ToolFailure.usage }
    let domain = try domain(words[0], creating: false)
    guard let contents = try contents(of: domain) else { throw ToolFailure("\nDomain \(domain.displayName) does not exist") }
    let value = PropertyListValue.dictionary(PropertyListDictionary(contents.sortedByKey.map { ($0.key, $0.value) }))
    do {
      if words[1] == "-" {
        environment.writeStandardOutput(try value.encodedBytes(as: .xml))
      } else {
        let path = words[1].hasPrefix("/") ? words[1] : environment.currentDirectory + "/" + words[1]
        try environment.fileSystem.write(try value.encoded(as: .binary), toFile: path)
      }
    } catch {
      throw ToolFailure("Could not export domain \(domain.displayName) to \(words[1]): \(error)")
    }
  }

  func importDomain(_ words: [String]) throws(ToolFailure) {
    guard words.count == 2 else { throw ToolFailure.usage }
    // The input is read and checked before the domain is resolved, so that a failed import
    // creates no container and leaves no trace.
    let bytes: [UInt8]
    if words[1] == "-" {
      bytes = environment.readStandardInput(byteLimit: PreferencesFile.byteLimit)
    } else {
      let path = words[1].hasPrefix("/") ? words[1] : environment.currentDirectory + "/" + words[1]
      do {
        bytes = [UInt8](try environment.fileSystem.read(contentsOfFile: path, limit: PreferencesFile.byteLimit))
      } catch {
        // The system's reason: missing, a folder, unreadable, too large.
        throw ToolFailure("Could not read data from \(words[1]): \(error.detail)\(error.systemError.map { ": " + String(cString: strerror($0)) } ?? "")")
      }
    }
    let value: PropertyListValue
    do {
      value = try PropertyListValue(decoding: bytes)
    } catch {
      throw ToolFailure("Could not parse property list from \(words[1]): \(error.description)")
    }
    guard case .dictionary(let replacement) = value else {
      throw ToolFailure("Rep argument is not a dictionary\nDefaults have not been changed.")
    }
    let domain = try domain(words[0], creating: true)
    try update(domain, replacingDamaged: true) { contents in
      contents = replacement
      return true
    }
  }
}
