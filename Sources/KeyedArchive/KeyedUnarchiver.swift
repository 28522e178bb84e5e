public import FoundationEssentials
public import PropertyLists

/// Reads an `NSKeyedArchiver` archive back into an object graph.
///
/// ```swift
/// let store = try KeyedUnarchiver.unarchivedObject(ofClass: Store.self, from: data, registry: registry)
/// ```
///
/// Each archived object is decoded once, however many references lead to it, so shared
/// references come back as one instance (`===`). Classes adopting ``ArchiveDecodableInPlace`` are
/// recorded before their contents are decoded, so cycles through them resolve as Apple's
/// unarchiver resolves them; a cycle that returns to an object still inside `init(coder:)`, or
/// that runs through a value (an array, a struct), cannot be built in Swift and is reported as
/// ``KeyedArchiveError/Code/cycle`` with its path.
///
/// **Secure decoding** (``requiresSecureCoding``): every object decode names the classes it
/// accepts (``ArchiveDecoder/decode(_:forKey:)`` derives them from the requested type); the
/// archived class is checked against them — and must itself be registered with
/// `supportsSecureCoding` — *before* anything is instantiated, and again on every later
/// reference to an already decoded object. Inline strings, numbers and data need no permission.
public final class KeyedUnarchiver {
  /// Resource limits for hostile archives, with their defaults.
  public struct Limits: Sendable {
    /// Objects nested deeper than this (object → its objects → …) fail. Default 512.
    public var maximumDepth = 512
    /// `$objects` longer than this fails. Default 4,194,304.
    public var maximumObjectCount = 1 << 22
    /// Archives larger than this many bytes fail. Default 256 MiB.
    public var maximumByteCount = 256 << 20
    public init() {}
  }

  /// Refuse anything not explicitly allowed (`requiresSecureCoding`). Once on, it stays on.
  public var requiresSecureCoding = false {
    didSet { if oldValue { requiresSecureCoding = true } }
  }
  /// Asked for a registered type to use when neither the class name nor its `$classes` are
  /// registered (`unarchiver:cannotDecodeObjectOfClassName:originalClasses:`); return `nil` to fail.
  public var cannotDecodeClass: ((_ name: String, _ classes: [String]) -> Any.Type?)?
  /// Called with every decoded object; return a replacement (`unarchiver:didDecodeObject:`).
  public var didDecode: ((Any) -> Any)?

  let registry: ArchiveClassRegistry
  let limits: Limits
  let objects: [PropertyListValue]
  let top: PropertyListDictionary
  var classOverrides: [String: ArchiveClassRegistry.Entry] = [:]
  /// Decoded objects by UID, with the registry entry they were built from.
  var decoded: [Int: (value: Any, entry: String)] = [:]
  /// UIDs whose decoding has started and not finished.
  var inProgress: Set<Int> = []
  var path: [(uid: Int, name: String, key: String)] = []
  var completions: [any ArchiveDecodingCompletion] = []
  let coder: ArchiveDecoder

  /// Opens an archive from its bytes (binary or XML plist).
  public convenience init(data: Data, registry: ArchiveClassRegistry = .foundation, limits: Limits = Limits()) throws {
    guard data.count <= limits.maximumByteCount else {
      throw KeyedArchiveError(.limitExceeded, "archive of \(data.count) bytes is larger than the limit of \(limits.maximumByteCount)")
    }
    var options = PropertyListReadingOptions()
    options.maximumObjectCount = limits.maximumObjectCount
    options.maximumByteCount = limits.maximumByteCount
    let archive: PropertyListValue
    do {
      archive = try PropertyListValue(decoding: data, options: options)
    } catch {
      // The plist reader enforces the object-count and depth limits: report those as limits.
      let code: KeyedArchiveError.Code = error.code == .limitExceeded || error.code == .tooDeep ? .limitExceeded : .corruptArchive
      let detail = code == .limitExceeded ? "the property list is beyond the limits" : "the data is not a property list"
      throw KeyedArchiveError(code, detail, underlying: error.description)
    }
    try self.init(archive: archive, registry: registry, limits: limits)
  }

  /// Opens an archive already read as a property list.
  public init(archive: PropertyListValue, registry: ArchiveClassRegistry = .foundation, limits: Limits = Limits()) throws {
    guard case .dictionary(let root) = archive else {
      throw KeyedArchiveError(.corruptArchive, "the top level is a \(archive.typeName), not a dictionary")
    }
    guard root["$archiver"]?.stringValue == "NSKeyedArchiver" else {
      throw KeyedArchiveError(.corruptArchive, "$archiver is \(root["$archiver"].map { "a \($0.typeName)" } ?? "missing"); expected \"NSKeyedArchiver\"")
    }
    guard root["$version"]?.intValue == 100_000 else {
      throw KeyedArchiveError(.corruptArchive, "$version is not 100000")
    }
    guard case .dictionary(let top)? = root["$top"] else {
      throw KeyedArchiveError(.corruptArchive, "$top is missing or not a dictionary")
    }
    guard case .array(let objects)? = root["$objects"] else {
      throw KeyedArchiveError(.corruptArchive, "$objects is missing or not an array")
    }
    guard objects.first == "$null" else {
      throw KeyedArchiveError(.corruptArchive, "$objects[0] is not \"$null\"")
    }
    guard objects.count <= limits.maximumObjectCount else {
      throw KeyedArchiveError(.limitExceeded, "$objects holds \(objects.count) entries, more than the limit of \(limits.maximumObjectCount)")
    }
    self.registry = registry
    self.limits = limits
    self.objects = objects
    self.top = top
    coder = ArchiveDecoder()
    coder.unarchiver = self
    coder.current = top
    coder.currentObject = -1
  }

  /// Uses `type` (which must be registered) for objects archived as `name` (`setClass:forClassName:`).
  public func setClass(_ type: Any.Type, forClassName name: String) {
    if let entry = registry.byType[ObjectIdentifier(type)] { classOverrides[name] = entry }
  }

  /// The top-level keys of the archive (`root` for `archivedData(withRootObject:)`).
  public var topLevelKeys: [String] { top.keys.map { $0.hasPrefix("$$") ? String($0.dropFirst()) : $0 } }

  /// Decodes the top-level object under `key` without class restrictions (not allowed when
  /// ``requiresSecureCoding`` is on, except for inline strings, numbers and data).
  public func decodeObject(forKey key: String) throws -> Any? {
    try coder.decodeObject(forKey: key)
  }

  /// Decodes the top-level object under `key` as `T`; in secure mode, `T` names the allowed classes.
  public func decode<T>(_ type: T.Type, forKey key: String) throws -> T? {
    try coder.decode(type, forKey: key)
  }

  /// Decodes the top-level object under `key`, allowing only the given types (`decodeObjectOfClasses:forKey:`).
  public func decodeObject(of types: [Any.Type], forKey key: String) throws -> Any? {
    try coder.decodeObject(of: types, forKey: key)
  }

  /// Finishes decoding: runs ``ArchiveDecodingCompletion`` on every object that adopts it.
  public func finishDecoding() throws {
    let pending = completions
    completions.removeAll()
    for object in pending { try object.archiveDidFinishDecoding() }
  }

  // MARK: - Convenience entry points

  /// Securely decodes the root object as `T` (`+unarchivedObjectOfClass:fromData:error:`).
  public static func unarchivedObject<T>(
    ofClass type: T.Type, from data: Data, registry: ArchiveClassRegistry = .foundation, limits: Limits = Limits()
  ) throws -> T? {
    let unarchiver = try KeyedUnarchiver(data: data, registry: registry, limits: limits)
    unarchiver.requiresSecureCoding = true
    let root = try unarchiver.decode(type, forKey: "root")
    try unarchiver.finishDecoding()
    return root
  }

  /// Securely decodes the root object, allowing the given types (`+unarchivedObjectOfClasses:fromData:error:`).
  public static func unarchivedObject(
    ofClasses types: [Any.Type], from data: Data, registry: ArchiveClassRegistry = .foundation, limits: Limits = Limits()
  ) throws -> Any? {
    let unarchiver = try KeyedUnarchiver(data: data, registry: registry, limits: limits)
    unarchiver.requiresSecureCoding = true
    let root = try unarchiver.decodeObject(of: types, forKey: "root")
    try unarchiver.finishDecoding()
    return root
  }

  /// Decodes the root object of a trusted archive with any registered class
  /// (`+unarchiveTopLevelObjectWithData:error:`).
  public static func unarchiveTopLevelObject(
    from data: Data, registry: ArchiveClassRegistry = .foundation, limits: Limits = Limits()
  ) throws -> Any? {
    let unarchiver = try KeyedUnarchiver(data: data, registry: registry, limits: limits)
    let root = try unarchiver.decodeObject(forKey: "root")
    try unarchiver.finishDecoding()
    return root
  }

  /// Reads the archive in the file at `path` and decodes its root object as `T`, securely.
  public static func unarchivedObject<T>(
    ofClass type: T.Type, fromFile path: String, registry: ArchiveClassRegistry = .foundation, limits: Limits = Limits()
  ) throws -> T? {
    var options = PropertyListReadingOptions()
    options.maximumByteCount = limits.maximumByteCount
    options.maximumObjectCount = limits.maximumObjectCount
    let archive: PropertyListValue
    do {
      archive = try PropertyListValue(contentsOfFile: path, options: options)
    } catch {
      let code: KeyedArchiveError.Code = error.code == .limitExceeded || error.code == .tooDeep ? .limitExceeded : .corruptArchive
      throw KeyedArchiveError(code, "\(path) could not be read as a property list", underlying: error.description)
    }
    let unarchiver = try KeyedUnarchiver(archive: archive, registry: registry, limits: limits)
    unarchiver.requiresSecureCoding = true
    let root = try unarchiver.decode(type, forKey: "root")
    try unarchiver.finishDecoding()
    return root
  }

  // MARK: - Resolution

  /// The registry entry for the class dictionary that `$class` points to, following
  /// `setClass(_:forClassName:)`, then the name, then `$classes` ancestors, then the delegate.
  func resolveClass(of uid: Int, classReference: PropertyListValue?) throws -> (entry: ArchiveClassRegistry.Entry, archivedName: String) {
    guard case .uid(let classUID)? = classReference else {
      throw KeyedArchiveError(.corruptArchive, "$objects[\(uid)] has no $class reference")
    }
    guard classUID > 0, classUID < UInt64(objects.count), case .dictionary(let classEntry) = objects[Int(classUID)] else {
      throw KeyedArchiveError(.badReference, "$objects[\(uid)].$class refers to \(classUID), which is not a class entry")
    }
    guard let name = classEntry["$classname"]?.stringValue else {
      throw KeyedArchiveError(.corruptArchive, "class entry $objects[\(classUID)] has no $classname string")
    }
    var chain: [String] = []
    if case .array(let classes)? = classEntry["$classes"] {
      chain = classes.compactMap(\.stringValue)
    }
    if let entry = classOverrides[name] ?? registry.byName[name] { return (entry, name) }
    for ancestor in chain.dropFirst() where ancestor != "NSObject" {
      if let entry = classOverrides[ancestor] ?? registry.byName[ancestor] { return (entry, name) }
    }
    if let hints = classEntry["$classhints"]?.arrayValue?.compactMap(\.stringValue) {
      for hint in hints {
        if let entry = registry.byName[hint] { return (entry, name) }
      }
    }
    if let cannotDecodeClass, let type = cannotDecodeClass(name, chain), let entry = registry.byType[ObjectIdentifier(type)] {
      return (entry, name)
    }
    throw KeyedArchiveError(.unknownClass, "class \(name) of $objects[\(uid)]\(pathDescription) is not registered, nor is any class in its $classes \(chain)")
  }

  var pathDescription: String {
    guard !path.isEmpty else { return "" }
    return " (reached through " + path.map { "$objects[\($0.uid)] \($0.name).\($0.key)" }.joined(separator: " → ") + ")"
  }

  /// Decodes the object at `uid` with the given allowed classes (nil: anything registered).
  func object(at uid: UInt64, allowed: AllowedClasses?, key: String) throws -> Any? {
    guard uid < UInt64(objects.count) else {
      throw KeyedArchiveError(.badReference, "reference \(uid) under key \"\(key)\"\(pathDescription) is past the end of $objects (\(objects.count) entries)")
    }
    let index = Int(uid)
    if index == 0 { return nil }
    let stored = objects[index]
    switch stored {
    case .string(let string):
      // Only entry 0 may be "$null"; other readers take any "$null" string for nil, so one
      // elsewhere is damage (or an attempt to make readers disagree).
      guard string != "$null" else {
        throw KeyedArchiveError(.corruptArchive, "$objects[\(index)] under key \"\(key)\"\(pathDescription) is the string \"$null\", which only $objects[0] may be")
      }
      return string
    case .integer(let integer):
      if let small = integer.exactly(Int.self) { return small }
      // Above Int.max: UInt64 (Int covers every negative value a plist integer can hold).
      if let unsigned = integer.uint64Value { return unsigned }
      return integer.int64Value ?? 0
    case .real(let number, let width):
      return width == .single ? Float(number) : number
    case .bool(let flag):
      return flag
    case .data(let data):
      return data
    case .dictionary(let dictionary):
      if let (value, entryName) = decoded[index] {
        // Re-check the allowed classes on every reference, not only the first.
        if let allowed, let entry = registry.byName[entryName] ?? classOverrides.values.first(where: { $0.name == entryName }) {
          try check(entry, allowed: allowed, uid: index, archivedName: entryName, key: key)
        }
        return value
      }
      return try decodeObject(index, dictionary: dictionary, allowed: allowed, key: key)
    default:
      throw KeyedArchiveError(.corruptArchive, "$objects[\(index)] is a \(stored.typeName), which a keyed archive does not store")
    }
  }

  func check(_ entry: ArchiveClassRegistry.Entry, allowed: AllowedClasses, uid: Int, archivedName: String, key: String) throws {
    guard allowed.permits(entry) else {
      throw KeyedArchiveError(.classNotAllowed, "$objects[\(uid)] under key \"\(key)\"\(pathDescription) is of class \(archivedName), which is not among the allowed classes \(allowed.description)")
    }
    guard entry.supportsSecureCoding else {
      throw KeyedArchiveError(.classNotAllowed, "class \(archivedName) of $objects[\(uid)] is not registered as supporting secure coding")
    }
  }

  func decodeObject(_ index: Int, dictionary: PropertyListDictionary, allowed: AllowedClasses?, key: String) throws -> Any {
    let (entry, archivedName) = try resolveClass(of: index, classReference: dictionary["$class"])
    if let allowed { try check(entry, allowed: allowed, uid: index, archivedName: archivedName, key: key) }
    if inProgress.contains(index) {
      let kind = if case .initializer = entry.construction { "it is decoded by init(coder:); adopt ArchiveDecodableInPlace to allow cycles through it" } else { "it is a value in Swift, which cannot contain itself" }
      throw KeyedArchiveError(.cycle, "cycle back to $objects[\(index)] (\(archivedName)) under key \"\(key)\"\(pathDescription): \(kind)")
    }
    guard path.count < limits.maximumDepth else {
      throw KeyedArchiveError(.limitExceeded, "objects nest deeper than \(limits.maximumDepth) levels at $objects[\(index)]")
    }
    inProgress.insert(index)
    path.append((index, archivedName, key))
    let saved = (coder.current, coder.currentObject, coder.allowed, coder.currentClassVersion)
    coder.current = dictionary
    coder.currentObject = index
    coder.allowed = requiresSecureCoding ? allowed : nil
    coder.currentClassVersion = dictionary["$classversion"]?.intValue ?? 0
    defer {
      (coder.current, coder.currentObject, coder.allowed, coder.currentClassVersion) = saved
      path.removeLast()
      inProgress.remove(index)
    }
    var value: Any
    switch entry.construction {
    case .initializer(let make):
      value = try make(coder)
    case .inPlace(let allocate, let decode):
      let object = allocate()
      decoded[index] = (object, entry.name)
      inProgress.remove(index)
      do {
        try decode(object, coder)
      } catch {
        decoded[index] = nil
        throw error
      }
      value = object
    case .value(let make):
      value = try make(coder)
    }
    if let didDecode { value = didDecode(value) }
    // Only class instances can adopt the protocol. Asking a value (an [Any], say) would make the
    // runtime try to bridge it to an object when Foundation is loaded, walking all its members:
    // exponential on graphs of shared references.
    if type(of: value) is AnyClass, let completion = value as? any ArchiveDecodingCompletion { completions.append(completion) }
    decoded[index] = (value, entry.name)
    return value
  }
}

/// The classes one decode call accepts.
struct AllowedClasses: CustomStringConvertible {
  /// Archived class names accepted (Foundation classes mapped to Swift values).
  var names: Set<String> = []
  /// Swift types accepted, with their subclasses.
  var types: Set<ObjectIdentifier> = []
  var typeNames: [String] = []

  func permits(_ entry: ArchiveClassRegistry.Entry) -> Bool {
    if names.contains(entry.name) { return true }
    return entry.lineage.contains { types.contains($0) }
  }

  var description: String { "[" + (typeNames + names.sorted()).joined(separator: ", ") + "]" }
}
