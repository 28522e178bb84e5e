public import FoundationEssentials
public import PropertyLists
public import StasisSystem

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
/// `KeyedArchiveError.Code.cycle` with its path.
///
/// **Secure decoding** (``requiresSecureCoding``): every object decode names the classes it
/// accepts (``ArchiveDecoder/decode(_:forKey:)`` derives them from the requested type); the
/// archived class is checked against them — and must itself be registered with
/// `supportsSecureCoding` — *before* anything is instantiated, and again on every later
/// reference to an already decoded object. Inline strings, numbers and data need no permission.
public final class KeyedUnarchiver {
  /// Resource limits for hostile archives, with their defaults. The same three limits, under
  /// the same names, as the property-list reader's `PropertyListReadingOptions`; an archive read
  /// from bytes or a file is read as a property list under these limits too
  /// (``propertyListReadingOptions``).
  public struct Limits: Sendable, Hashable {
    /// Objects nested deeper than this (object → its objects → …) fail, and so do containers of
    /// the archive's property list nested deeper than this (the archive's own structure uses
    /// four levels: the root, `$objects`, an object, an array in it). Default 512.
    public var maximumDepth: Int
    /// `$objects` longer than this fails, and so does a property list of more objects. Default
    /// 4,194,304.
    public var maximumObjectCount: Int
    /// Archives larger than this many bytes fail. Default 256 MiB.
    public var maximumByteCount: Int

    public init(maximumDepth: Int = 512, maximumObjectCount: Int = 1 << 22, maximumByteCount: Int = 256 << 20) {
      self.maximumDepth = maximumDepth
      self.maximumObjectCount = maximumObjectCount
      self.maximumByteCount = maximumByteCount
    }

    /// The defaults described above.
    public static let `default` = Limits()

    /// The limits the archive's property list is read under: the same depth, object count and
    /// byte count.
    public var propertyListReadingOptions: PropertyListReadingOptions {
      PropertyListReadingOptions(
        maximumDepth: maximumDepth, maximumObjectCount: maximumObjectCount, maximumByteCount: maximumByteCount)
    }
  }

  /// Refuse anything not explicitly allowed (`requiresSecureCoding`). Once on, it stays on.
  @exclusivity(unchecked) public var requiresSecureCoding = false {
    didSet { if oldValue { requiresSecureCoding = true } }
  }
  /// Decode Foundation objects to values that keep their archived form, so that archiving the
  /// result again writes the graph that was read (off by default; no Apple counterpart — Apple's
  /// objects keep their class and order by being the objects themselves):
  ///
  /// | archived as | default | with this option |
  /// |---|---|---|
  /// | `NSMutableString`, `NSMutableData`, `NSMutableArray`, `NSMutableOrderedSet`, `NSMutableIndexSet`, `NSMutableAttributedString` | `String`, `Data`, `[Any]`, … | ``ArchiveMutable`` of the same value |
  /// | `NSSet` / `NSMutableSet` | `Set<AnyHashable>` | ``ArchivedSet`` (members in archived order) / ``ArchiveMutable`` of one |
  /// | `NSDictionary` / `NSMutableDictionary` | `[AnyHashable: Any]` | ``ArchivedDictionary`` (entries in archived order) / ``ArchiveMutable`` of one |
  /// | `NSTimeZone` | `TimeZone` | ``ArchivedTimeZone`` (name and `NS.data` rules) |
  ///
  /// Attributed strings keep their attribute dictionaries' order too. Asking for a plain type
  /// (`decode([String].self, forKey:)`, `Set<Int>`, `TimeZone`) still gives it: the preserved
  /// form is converted (``plainValue(_:)``), and its form is then lost — a model keeps the form
  /// only by keeping the decoded object (`decodeObject(of:forKey:)`) or by asking for
  /// ``ArchivedTimeZone``, ``ArchivedSet`` or ``ArchivedDictionary`` by type. Secure decoding
  /// checks the same archived classes as without the option. Values have no identity: a
  /// Foundation value object referenced twice is archived again twice, except time zones and
  /// locales, which the archiver writes once per zone.
  @exclusivity(unchecked) public var preservesArchivedForm = false
  /// With ``preservesArchivedForm``: the UIDs of strings that `$objects` holds more than once
  /// (equal code units at several entries: distinct `NSString` instances), found on first use.
  lazy var repeatedStrings: Set<Int> = {
    var seen: [[UInt8]: Int] = [:]
    var repeated: Set<Int> = []
    for (index, object) in objects.enumerated() where index > 0 {
      guard case .string(let string) = object else { continue }
      let units = Array(string.utf8)
      if let first = seen[units] {
        repeated.insert(first)
        repeated.insert(index)
      } else {
        seen[units] = index
      }
    }
    return repeated
  }()
  /// Asked for a registered type to use when neither the class name nor its `$classes` are
  /// registered (`unarchiver:cannotDecodeObjectOfClassName:originalClasses:`); return `nil` to fail.
  @exclusivity(unchecked) public var cannotDecodeClass: ((_ name: String, _ classes: [String]) -> Any.Type?)?
  /// Called with every decoded object; return a replacement (`unarchiver:didDecodeObject:`).
  @exclusivity(unchecked) public var didDecode: ((Any) -> Any)?

  let registry: ArchiveClassRegistry
  let limits: Limits
  let objects: [PropertyListValue]
  let top: PropertyListDictionary
  // The state below is touched for every object; its accesses never overlap (one thread, no
  // inout access held across a call), so they go without runtime exclusivity checks.
  @exclusivity(unchecked) var classOverrides: [String: ArchiveClassRegistry.Entry] = [:] {
    didSet { resolvedClasses = [] }
  }
  /// What is known of each `$objects` entry, indexed by UID (arrays rather than hashed tables:
  /// every object of the graph passes through here, most of them more than once).
  /// 0: not decoded; ``inProgressMark``: being decoded; k > 0: `decodedSlots[k - 1]`.
  @exclusivity(unchecked) var objectState: [Int32]
  /// Decoded objects with the class they were built as, in decoding order.
  @exclusivity(unchecked) var decodedSlots: [DecodedSlot] = []
  /// For each UID used as a `$class` reference, its resolved class (resolved once per archive):
  /// 0, or k for `classList[k - 1]`.
  @exclusivity(unchecked) var resolvedClasses: [Int32] = []
  /// Every class resolved so far, numbered by position (`DecodedSlot.classNumber`).
  @exclusivity(unchecked) var classList: [ResolvedClass] = []
  @exclusivity(unchecked) var path: [(uid: Int, name: String, key: String)] = []
  @exclusivity(unchecked) var completions: [any ArchiveDecodingCompletion] = []
  let coder: ArchiveDecoder

  /// Opens an archive from its bytes (binary or XML plist).
  public convenience init(data: Data, registry: ArchiveClassRegistry = .foundation, limits: Limits = Limits()) throws {
    guard data.count <= limits.maximumByteCount else {
      throw KeyedArchiveError(.limitExceeded, "archive of \(data.count) bytes is larger than the limit of \(limits.maximumByteCount)")
    }
    let archive: PropertyListValue
    do {
      archive = try PropertyListValue(decoding: data, options: limits.propertyListReadingOptions)
    } catch {
      // The plist reader enforces the object-count and depth limits: report those as limits.
      let code: KeyedArchiveError.Code = error.code == .limitExceeded || error.code == .tooDeep ? .limitExceeded : .corruptArchive
      let detail = code == .limitExceeded ? "the property list is beyond the limits" : "the data is not a property list"
      throw KeyedArchiveError(code, detail, underlying: error)
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
    guard objects.count <= limits.maximumObjectCount, objects.count < Int(Int32.max) else {
      throw KeyedArchiveError(.limitExceeded, "$objects holds \(objects.count) entries, more than the limit of \(min(limits.maximumObjectCount, Int(Int32.max) - 1))")
    }
    self.registry = registry
    self.limits = limits
    self.objects = objects
    self.top = top
    objectState = [Int32](repeating: 0, count: objects.count)
    // Objects are dictionaries beside at least one scalar or class entry each, as a rule: room
    // for half of $objects spares the copies of growing one slot at a time.
    decodedSlots.reserveCapacity(objects.count / 2)
    coder = ArchiveDecoder()
    coder.unarchiver = self
    coder.frame = ArchiveDecoder.Frame(top, object: -1, allowed: nil)
  }

  /// Uses `type` (which must be registered) for objects archived as `name` (`setClass:forClassName:`).
  public func setClass(_ type: Any.Type, forClassName name: String) {
    if let entry = registry.entry(for: type) { classOverrides[name] = entry }
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

  /// The array of strings under the top-level key `key`, read straight from `$objects` when every
  /// member is a plain string (a table of names); otherwise as ``decode(_:forKey:)`` reads it.
  public func decodeStrings(forKey key: String) throws -> [String]? {
    if let members = try? memberReferences(forKey: key) {
      var result: [String] = []
      result.reserveCapacity(members.count)
      for uid in members {
        guard uid < UInt64(objects.count), case .string(let string) = objects[Int(uid)], string != "$null" else { break }
        result.append(string)
      }
      if result.count == members.count, top[key.hasPrefix("$") ? "$" + key : key] != nil { return result }
    }
    return try decode([String].self, forKey: key)
  }

  /// The array of integers under the top-level key `key`, read straight from `$objects` when every
  /// member is a plain integer that fits in `Int`; otherwise as ``decode(_:forKey:)`` reads it.
  public func decodeIntegers(forKey key: String) throws -> [Int]? {
    if let members = try? memberReferences(forKey: key) {
      var result: [Int] = []
      result.reserveCapacity(members.count)
      for uid in members {
        guard uid < UInt64(objects.count), case .integer(let integer) = objects[Int(uid)], let value = integer.exactly(Int.self) else { break }
        result.append(value)
      }
      if result.count == members.count, top[key.hasPrefix("$") ? "$" + key : key] != nil { return result }
    }
    return try decode([Int].self, forKey: key)
  }

  /// The UIDs of the members of the `NSArray` (or `NSSet`) stored under the top-level key
  /// `key`, to decode one at a time with ``decodeObject(atReference:of:)`` — so that one member
  /// a secure decoding refuses leaves the others readable. Empty for a missing key or `$null`.
  ///
  /// - Throws: `KeyedArchiveError.Code.typeMismatch` when the key does not hold a collection.
  public func memberReferences(forKey key: String) throws -> [UInt64] {
    guard let stored = top[key.hasPrefix("$") ? "$" + key : key] else { return [] }
    guard case .uid(let uid) = stored else {
      throw KeyedArchiveError(.typeMismatch, "top-level key \"\(key)\" holds a \(stored.typeName); expected a reference to a collection")
    }
    guard uid != 0 else { return [] }
    guard uid < UInt64(objects.count), case .dictionary(let collection) = objects[Int(uid)], case .array(let members)? = collection["NS.objects"] else {
      throw KeyedArchiveError(.typeMismatch, "top-level key \"\(key)\" does not refer to a collection with NS.objects")
    }
    var result: [UInt64] = []
    result.reserveCapacity(members.count)
    for member in members {
      guard case .uid(let reference) = member else {
        throw KeyedArchiveError(.typeMismatch, "a member of the collection under \"\(key)\" is a \(member.typeName), not a reference")
      }
      result.append(reference)
    }
    return result
  }

  /// Decodes the object a UID refers to (from ``memberReferences(forKey:)``), allowing only
  /// `types` in secure mode (`decodeObjectOfClasses:` for one member).
  public func decodeObject(atReference uid: UInt64, of types: [Any.Type]) throws -> Any? {
    guard requiresSecureCoding else { return try object(at: uid, allowed: nil, key: "member") }
    let set = AllowedClasses()
    for type in types { registry.addAllowed(type, to: set) }
    return try object(at: uid, allowed: set, key: "member")
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

  /// Reads the archive in the file at `path` (through `environment`'s file system) and decodes
  /// its root object as `T`, securely.
  public static func unarchivedObject<T>(
    ofClass type: T.Type, fromFile path: String, registry: ArchiveClassRegistry = .foundation, limits: Limits = Limits(),
    environment: HostEnvironment = .current
  ) throws -> T? {
    let archive: PropertyListValue
    do {
      archive = try PropertyListValue(contentsOfFile: path, options: limits.propertyListReadingOptions, environment: environment)
    } catch {
      let code: KeyedArchiveError.Code = error.code == .limitExceeded || error.code == .tooDeep ? .limitExceeded : .corruptArchive
      throw KeyedArchiveError(code, "\(path) could not be read as a property list", underlying: error)
    }
    let unarchiver = try KeyedUnarchiver(archive: archive, registry: registry, limits: limits)
    unarchiver.requiresSecureCoding = true
    let root = try unarchiver.decode(type, forKey: "root")
    try unarchiver.finishDecoding()
    return root
  }

  // MARK: - Resolution

  /// `objectState` of an object whose decoding has started and not finished.
  static let inProgressMark: Int32 = -1

  /// A decoded object and the class it was built as.
  struct DecodedSlot {
    var value: Any
    /// Its class: `classList[classNumber]`.
    var classNumber: Int32
  }

  /// A `$class` entry resolved to the registry entry that builds its objects.
  final class ResolvedClass {
    let entry: ArchiveClassRegistry.Entry
    let archivedName: String
    /// `cacheID`s of the long-lived allowed sets that admit this class (checked once each).
    @exclusivity(unchecked) var permittedSets: [Int] = []
    /// The dynamic type of the last object built, and whether it adopts
    /// ``ArchiveDecodingCompletion`` (asked once per type instead of once per object).
    @exclusivity(unchecked) var completionType: ObjectIdentifier?
    @exclusivity(unchecked) var completionConforms = false

    /// Its position in `classList`.
    let number: Int32

    init(entry: ArchiveClassRegistry.Entry, archivedName: String, number: Int32) {
      self.entry = entry
      self.archivedName = archivedName
      self.number = number
    }
  }

  /// The resolved class of the object at `uid`, cached per class UID. Classes found through the
  /// ``cannotDecodeClass`` delegate are not cached, so it is asked on every object as before.
  func resolvedClass(of uid: Int, classReference: PropertyListValue?) throws -> ResolvedClass {
    if case .uid(let classUID)? = classReference, classUID < UInt64(resolvedClasses.count) {
      let known = resolvedClasses[Int(classUID)]
      if known > 0 { return classList[Int(known) - 1] }
    }
    let (entry, name, cacheable) = try resolveClass(of: uid, classReference: classReference)
    let resolved = ResolvedClass(entry: entry, archivedName: name, number: Int32(truncatingIfNeeded: classList.count))
    classList.append(resolved)
    if cacheable, case .uid(let classUID)? = classReference {
      // resolveClass checked that classUID is inside $objects.
      if resolvedClasses.isEmpty { resolvedClasses = Array(repeating: 0, count: objects.count) }
      resolvedClasses[Int(classUID)] = Int32(truncatingIfNeeded: classList.count)
    }
    return resolved
  }

  /// The registry entry for the class dictionary that `$class` points to, following
  /// `setClass(_:forClassName:)`, then the name, then `$classes` ancestors, then the delegate.
  func resolveClass(of uid: Int, classReference: PropertyListValue?) throws -> (entry: ArchiveClassRegistry.Entry, archivedName: String, cacheable: Bool) {
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
    if let entry = classOverrides[name] ?? registry.entry(named: name) { return (entry, name, true) }
    for ancestor in chain.dropFirst() where ancestor != "NSObject" {
      if let entry = classOverrides[ancestor] ?? registry.entry(named: ancestor) { return (entry, name, true) }
    }
    if let hints = classEntry["$classhints"]?.arrayValue?.compactMap(\.stringValue) {
      for hint in hints {
        if let entry = registry.entry(named: hint) { return (entry, name, true) }
      }
    }
    if let cannotDecodeClass, let type = cannotDecodeClass(name, chain), let entry = registry.entry(for: type) {
      return (entry, name, false)
    }
    throw KeyedArchiveError(.unknownClass, "class \(name) of $objects[\(uid)]\(pathDescription) is not registered, nor is any class in its $classes \(chain)")
  }

  var pathDescription: String {
    guard !path.isEmpty else { return "" }
    return " (reached through " + path.map { "$objects[\($0.uid)] \($0.name).\($0.key)" }.joined(separator: " → ") + ")"
  }

  /// The string at `uid` in `$objects`, or nil when that entry is not a string, is out of range,
  /// or is a misplaced `"$null"` (``object(at:allowed:key:)`` reports those).
  func plainString(at uid: UInt64) -> String? {
    guard uid > 0, uid < UInt64(objects.count), case .string(let string) = objects[Int(uid)], !Self.isNullMarker(string) else { return nil }
    return string
  }

  /// The date of the `NSDate` object at `uid`, read straight from its `NS.time`, when the
  /// general path (``decodeObject(_:dictionary:allowed:key:)``) would produce the same date and
  /// nothing else: its class is already resolved (so no delegate is asked) to the built-in
  /// `NSDate` decoder, the allowed set is already known to admit it, there is no `didDecode`
  /// delegate, it is not being decoded, and it is within the depth limit. Dates are values, so
  /// nothing needs recording. Anything else — including every kind of damage — returns nil, and
  /// the general path decodes or reports it.
  func plainDate(at uid: UInt64, allowed: AllowedClasses?) -> Date? {
    guard didDecode == nil, uid > 0, uid < UInt64(objects.count) else { return nil }
    let index = Int(uid)
    guard objectState[index] == 0, path.count < limits.maximumDepth, case .dictionary(let dictionary) = objects[index],
      case .uid(let classUID)? = dictionary["$class"], classUID < UInt64(resolvedClasses.count)
    else { return nil }
    let known = resolvedClasses[Int(classUID)]
    guard known > 0 else { return nil }
    let resolved = classList[Int(known) - 1]
    guard resolved.entry.isFoundationDate else { return nil }
    if let allowed {
      guard allowed.cacheID != 0, resolved.permittedSets.contains(allowed.cacheID) else { return nil }
    }
    guard case .real(let seconds, _)? = dictionary["NS.time"] else { return nil }
    return Date(timeIntervalSinceReferenceDate: seconds)
  }

  /// Whether `string` is `"$null"` (lengths compared first: most strings differ in length).
  @inline(__always)
  static func isNullMarker(_ string: String) -> Bool { string.utf8.count == 5 && string == "$null" }

  /// Decodes the object at `uid` with the given allowed classes (nil: anything registered).
  func object(at uid: UInt64, allowed: AllowedClasses?, key: String) throws -> Any? {
    guard uid < UInt64(objects.count) else {
      throw KeyedArchiveError(.badReference, "reference \(uid) under key \"\(key)\"\(pathDescription) is past the end of $objects (\(objects.count) entries)")
    }
    let index = Int(uid)
    if index == 0 { return nil }
    let state = objectState[index]
    if state > 0 {
      // Decoded before (only dictionaries ever are). Re-check the allowed classes on every
      // reference, not only the first.
      let slot = Int(state) - 1
      if let allowed {
        let resolved = classList[Int(decodedSlots[slot].classNumber)]
        try check(resolved, allowed: allowed, uid: index, archivedName: resolved.entry.name, key: key)
      }
      return decodedSlots[slot].value
    }
    switch objects[index] {
    case .string(let string):
      // Only entry 0 may be "$null"; other readers take any "$null" string for nil, so one
      // elsewhere is damage (or an attempt to make readers disagree).
      guard !Self.isNullMarker(string) else {
        throw KeyedArchiveError(.corruptArchive, "$objects[\(index)] under key \"\(key)\"\(pathDescription) is the string \"$null\", which only $objects[0] may be")
      }
      if preservesArchivedForm, repeatedStrings.contains(index) { return ArchivedString(string, archivedIdentity: index) }
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
      return try decodeObject(index, dictionary: dictionary, allowed: allowed, key: key)
    case let stored:
      throw KeyedArchiveError(.corruptArchive, "$objects[\(index)] is a \(stored.typeName), which a keyed archive does not store")
    }
  }

  func check(_ resolved: ResolvedClass, allowed: AllowedClasses, uid: Int, archivedName: String, key: String) throws {
    let id = allowed.cacheID
    if id != 0, resolved.permittedSets.contains(id) { return }
    try check(resolved.entry, allowed: allowed, uid: uid, archivedName: archivedName, key: key)
    if id != 0, resolved.permittedSets.count < 32 { resolved.permittedSets.append(id) }
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
    var frame = ArchiveDecoder.Frame(dictionary, object: index, allowed: requiresSecureCoding ? allowed : nil)
    let resolved = try resolvedClass(of: index, classReference: frame.value(forKey: "$class"))
    let archivedName = resolved.archivedName
    if let allowed { try check(resolved, allowed: allowed, uid: index, archivedName: archivedName, key: key) }
    if objectState[index] == Self.inProgressMark {
      let kind = if case .initializer = resolved.entry.construction { "it is decoded by init(coder:); adopt ArchiveDecodableInPlace to allow cycles through it" } else { "it is a value in Swift, which cannot contain itself" }
      throw KeyedArchiveError(.cycle, "cycle back to $objects[\(index)] (\(archivedName)) under key \"\(key)\"\(pathDescription): \(kind)")
    }
    guard path.count < limits.maximumDepth else {
      throw KeyedArchiveError(.limitExceeded, "objects nest deeper than \(limits.maximumDepth) levels at $objects[\(index)]")
    }
    objectState[index] = Self.inProgressMark
    path.append((index, archivedName, key))
    swap(&frame, &coder.frame)
    defer {
      swap(&frame, &coder.frame)
      path.removeLast()
      if objectState[index] == Self.inProgressMark { objectState[index] = 0 }
    }
    var value: Any
    var recordedSlot = -1
    switch resolved.entry.construction {
    case .initializer(let make):
      value = try make(coder)
    case .inPlace(let allocate, let decode):
      let object = allocate()
      // Recorded before its contents are decoded: references back to it get this instance.
      recordedSlot = decodedSlots.count
      decodedSlots.append(DecodedSlot(value: object, classNumber: resolved.number))
      objectState[index] = Int32(decodedSlots.count)
      do {
        try decode(object, coder)
      } catch {
        objectState[index] = 0
        throw error
      }
      value = object
    case .value(let make):
      value = try make(coder)
    }
    if let didDecode {
      value = didDecode(value)
      noteCompletion(of: value, resolved: nil)
    } else {
      noteCompletion(of: value, resolved: resolved)
    }
    if recordedSlot >= 0 {
      // objectState[index] already points at this slot (set when the instance was recorded).
      decodedSlots[recordedSlot].value = value
    } else {
      decodedSlots.append(DecodedSlot(value: value, classNumber: resolved.number))
      objectState[index] = Int32(decodedSlots.count)
    }
    return value
  }

  /// Queues `value` for ``ArchiveDecodingCompletion`` if it adopts it. Only class instances can
  /// adopt the protocol. Asking a value (an [Any], say) would make the runtime try to bridge it
  /// to an object when Foundation is loaded, walking all its members: exponential on graphs of
  /// shared references. The answer is remembered per dynamic type in `resolved`.
  func noteCompletion(of value: Any, resolved: ResolvedClass?) {
    let valueType = type(of: value)
    let identifier = ObjectIdentifier(valueType)
    let conforms: Bool
    if let resolved, resolved.completionType == identifier {
      conforms = resolved.completionConforms
    } else {
      conforms = valueType is AnyClass && valueType is any ArchiveDecodingCompletion.Type
      if let resolved {
        resolved.completionType = identifier
        resolved.completionConforms = conforms
      }
    }
    if conforms, let completion = value as? any ArchiveDecodingCompletion { completions.append(completion) }
  }
}

/// The classes one decode call accepts. A class, so that the unarchiver's current set travels
/// by reference; sets cached for the unarchiver's life carry a `cacheID` under which each
/// resolved class remembers that it was admitted.
final class AllowedClasses: CustomStringConvertible {
  /// Archived class names accepted (Foundation classes mapped to Swift values).
  var names: Set<String> = []
  /// Swift types accepted, with their subclasses.
  var types: Set<ObjectIdentifier> = []
  var typeNames: [String] = []
  /// Nonzero for sets that live as long as their unarchiver and are never changed again.
  var cacheID = 0

  init() {}

  /// A copy to add to (without its `cacheID`).
  func copy() -> AllowedClasses {
    let copy = AllowedClasses()
    copy.names = names
    copy.types = types
    copy.typeNames = typeNames
    return copy
  }

  func permits(_ entry: ArchiveClassRegistry.Entry) -> Bool {
    if names.contains(entry.name) { return true }
    return entry.lineage.contains { types.contains($0) }
  }

  var description: String { "[" + (typeNames + names.sorted()).joined(separator: ", ") + "]" }
}
