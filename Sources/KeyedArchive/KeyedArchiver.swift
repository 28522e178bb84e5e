public import FoundationEssentials
public import PropertyLists
public import StasisSystem

/// Writes an object graph as an `NSKeyedArchiver` archive.
///
/// ```swift
/// let archiver = KeyedArchiver(registry: registry)
/// try archiver.encodeRootObject(store)            // under "root", like archivedData(withRootObject:)
/// let data = try archiver.finishEncoding()         // binary plist; .xml with outputFormat
/// ```
///
/// Layout, exactly Apple's: a dictionary of `$archiver` = `NSKeyedArchiver`, `$version` = 100000,
/// `$top` (top-level keys → UIDs) and `$objects`, whose entry 0 is `$null`. Each object gets its
/// UID when first met, before its contents, so `$objects` is in pre-order; a class instance met
/// again (`===`) reuses its UID, so shared references and cycles are written once. Strings, numbers
/// and data are stored inline; everything else is a dictionary with a `$class` reference to a
/// `{$classname, $classes}` entry shared by all instances of that class.
public final class KeyedArchiver {
  /// The plist form of the archive: `.binary` (Apple's default) or `.xml`.
  public var outputFormat: PropertyListFormat = .binary
  // `willEncode`, `maximumDepth` and `maximumObjectCount` are read for every value: no runtime
  // exclusivity checks, as for the state below.
  /// Called with each value about to be encoded; return a replacement to encode instead
  /// (`archiver:willEncodeObject:` / `replacementObjectForKeyedArchiver:`), or the value itself.
  @exclusivity(unchecked) public var willEncode: ((Any) -> Any?)?

  let registry: ArchiveClassRegistry
  var top = PropertyListDictionary()
  // The state below is touched for every object; its accesses never overlap (one thread, no
  // inout access held across a call that could reach it), so they go without runtime exclusivity
  // checks.
  /// `$objects`, flat (see ``ArchiveObjectTable``).
  @exclusivity(unchecked) var table = ArchiveObjectTable()
  /// Class instances already given a UID (identity → UID).
  @exclusivity(unchecked) var objectNumbers = IdentityNumbers()
  /// What ``touchIdentities(_:from:)`` read (kept only so that the reads are made).
  @exclusivity(unchecked) var touched: UInt = 0
  /// Keeps encoded instances alive so their identities stay unique while encoding.
  @exclusivity(unchecked) var retained: [AnyObject] = []
  /// Inline scalars already written (strings, numbers, data), by value; uniqued later once many.
  @exclusivity(unchecked) var scalars = ScalarNumbering()
  /// What is known of the Swift types met so far (registration, class, version): one dictionary
  /// access per archived object.
  @exclusivity(unchecked) var types: [ObjectIdentifier: ArchivedType] = [:]
  /// The archived class names met so far, with their class entries' UIDs and key layouts.
  @exclusivity(unchecked) var classes: [String: ArchivedClass] = [:]
  @exclusivity(unchecked) var depth = 0
  /// Time zones and locales already written, by identifier (see `encodeValueObject`).
  var sharedValueNumbers: [String: UInt64] = [:]
  /// `ArchivedString`s already written, by the entry they were decoded from.
  var archivedStringNumbers: [Int: UInt64] = [:]
  /// Whether every string in `$objects` other than entry 0 (`$null`) was stored through
  /// `scalars`, so that no two are equal; an `ArchivedString` kept apart from an equal one
  /// makes it false.
  var stringsAreDistinct = true
  var classNameOverrides: [ObjectIdentifier: String] = [:]
  /// `NSDate`, the class the typed path writes dates as.
  let dateClass = ArchivedClass(name: "NSDate")
  /// Conditional references waiting to learn whether their object is encoded unconditionally.
  var conditionalSlots: [(object: Int, key: String, target: ObjectIdentifier)] = []
  var finished = false
  let coder: ArchiveEncoder
  /// Containers nested deeper than this throw `KeyedArchiveError.Code.limitExceeded`. Default
  /// 512, the unarchiver's default limit: deeper archives would not decode, and encoding recurses
  /// once per level (a debug build overflows an 8 MiB stack near 2,000 levels).
  @exclusivity(unchecked) public var maximumDepth = 512
  /// Archives with more `$objects` than this throw `KeyedArchiveError.Code.limitExceeded`.
  /// Values (arrays, dictionaries, structs) have no identity, so a graph whose values share
  /// storage is written once per occurrence; this bounds what such a graph can cost.
  /// Default 4,194,304, the unarchiver's default limit.
  @exclusivity(unchecked) public var maximumObjectCount = 1 << 22

  public init(registry: ArchiveClassRegistry = .foundation) {
    self.registry = registry
    coder = ArchiveEncoder()
    coder.archiver = self
    classes[dateClass.name] = dateClass
  }

  /// Records `name` as the archived class name of `type` (`setClassName:forClass:`).
  public func setClassName(_ name: String, for type: Any.Type) {
    classNameOverrides[ObjectIdentifier(type)] = name
    types[ObjectIdentifier(type)] = nil
  }

  /// Encodes `object` under the top-level key `key` (`encodeObject:forKey:` on the archiver).
  public func encode(_ object: Any?, forKey key: String) throws {
    precondition(!finished, "KeyedArchiver used after finishEncoding()")
    let uid = try reference(to: object)
    top[Self.escape(key)] = .uid(uid)
  }

  /// Encodes an array of registered class instances under the top-level key `key`: the
  /// `NSArray` that ``encode(_:forKey:)`` writes for the same array, byte for byte, through the
  /// typed path (no run-time type tests per member).
  public func encode<Object: ArchiveEncodable>(objects: [Object], forKey key: String) throws {
    precondition(!finished, "KeyedArchiver used after finishEncoding()")
    top[Self.escape(key)] = .uid(try arrayReference(to: objects))
  }

  /// Encodes an array of strings under the top-level key `key`: the `NSArray` that
  /// ``encode(_:forKey:)`` writes for the same array, byte for byte, without a run-time type test
  /// per member (for large tables of names).
  public func encode(strings: [String], forKey key: String) throws {
    try encodeArray(forKey: key, count: strings.count) {
      for string in strings {
        let uid = string == "$null" ? try reference(to: string) : inline(.string(string))
        table.pendingUIDs.append(uid)
      }
    }
  }

  /// Encodes an array of integers under the top-level key `key`: the `NSArray` of `NSNumber`s
  /// that ``encode(_:forKey:)`` writes for the same array, byte for byte, without a run-time type
  /// test per member.
  public func encode(integers: [Int], forKey key: String) throws {
    try encodeArray(forKey: key, count: integers.count) {
      for integer in integers {
        let uid = inline(.integer(integer))
        table.pendingUIDs.append(uid)
      }
    }
  }

  /// Encodes property-list values under the top-level key `key` as the `NSArray` that
  /// ``encode(_:forKey:)`` writes for the same values given as Swift values (strings, numbers,
  /// Booleans, data and dates; arrays and dictionaries of them), byte for byte, with no run-time
  /// type test per member. UIDs are refused.
  public func encode(propertyListValues values: [PropertyListValue], forKey key: String) throws {
    try encodeArray(forKey: key, count: values.count) {
      for value in values {
        let uid = try propertyListReference(value)
        table.pendingUIDs.append(uid)
      }
    }
  }

  /// The UID of a property-list value written as the Foundation object it stands for.
  private func propertyListReference(_ value: PropertyListValue) throws -> UInt64 {
    switch value {
    case .string(let string): return string == "$null" ? try reference(to: string) : inline(value)
    case .integer, .real, .bool, .data: return inline(value)
    case .date(let date): return try reference(to: date)
    case .array(let members):
      depth += 1
      defer { depth -= 1 }
      guard depth <= maximumDepth, hasRoom(for: 0) else {
        throw KeyedArchiveError(.limitExceeded, "the values nest deeper than \(maximumDepth) levels or hold too many objects")
      }
      let uid = appendPlaceholder()
      try writeObject(at: uid, as: archivedClass(named: "NSArray"), chain: ["NSArray", "NSObject"]) {
        let mark = table.pendingUIDs.count
        for member in members {
          let uid = try propertyListReference(member)
          table.pendingUIDs.append(uid)
        }
        coder.setUIDs(from: mark, forKey: "NS.objects")
      }
      return uid
    case .dictionary(let dictionary):
      var swiftDictionary: [String: Any] = [:]
      for (name, member) in dictionary { swiftDictionary[name] = try member.archivableValue() }
      return try reference(to: swiftDictionary)
    case .uid:
      throw KeyedArchiveError(.invalidValue, "a UID is not a value that can be archived as a Foundation object")
    }
  }

  /// An `NSArray` under the top-level key `key` whose `count` members' UIDs `members` pushes onto
  /// the table's pending UIDs.
  private func encodeArray(forKey key: String, count: Int, _ members: () throws -> Void) throws {
    precondition(!finished, "KeyedArchiver used after finishEncoding()")
    guard willEncode == nil else { throw KeyedArchiveError(.invalidValue, "typed arrays are not encoded through a willEncode hook") }
    guard hasRoom(for: count) else {
      throw KeyedArchiveError(.limitExceeded, "the archive would hold more than \(maximumObjectCount) objects")
    }
    let uid = appendPlaceholder()
    try writeObject(at: uid, as: archivedClass(named: "NSArray"), chain: ["NSArray", "NSObject"]) {
      let mark = table.pendingUIDs.count
      table.pendingUIDs.reserveCapacity(mark + count)
      try members()
      coder.setUIDs(from: mark, forKey: "NS.objects")
    }
    top[Self.escape(key)] = .uid(uid)
  }

  /// Encodes the root object under `root`, the key `archivedData(withRootObject:)` uses.
  public func encodeRootObject(_ object: Any?) throws {
    try encode(object, forKey: "root")
  }

  /// The keys of the document's top dictionary, in the order the archive writes them.
  static let documentKeys = ["$version", "$objects", "$archiver", "$top"]
  /// `$version`.
  static let version = 100_000

  /// The archive as a property-list value.
  public func finishedArchive() -> PropertyListValue {
    finishTable()
    return .dictionary(
      PropertyListDictionary(uniqueKeys: Self.documentKeys,
        values: [.integer(Self.version), .array(table.objectValues()), "NSKeyedArchiver", .dictionary(top)]))
  }

  /// Ends encoding: each conditional reference gets its object's UID if the object was encoded
  /// (else it keeps `$null`), then the scalars not uniqued yet are, and every UID takes its final
  /// value (``ScalarNumbering``). Once; the archiver encodes nothing after it.
  private func finishTable() {
    guard !finished else { return }
    finished = true
    for slot in conditionalSlots {
      table.replace(ArchiveSlot(.uid, objectNumbers.number(of: slot.target) ?? 0), forKey: slot.key, inObject: slot.object)
    }
    conditionalSlots.removeAll()
    scalars.compact(&table, top: &top)
  }

  /// Whether `count` more `$objects` entries stay below ``maximumObjectCount``, counting the
  /// entries as they will be once uniqued: the provisional entries of scalars are uniqued first
  /// when their count alone reaches the limit.
  func hasRoom(for count: Int) -> Bool {
    if table.entries.count + count < maximumObjectCount { return true }
    guard scalars.isDeferring else { return false }
    scalars.unique(table)
    return scalars.finalCount + count < maximumObjectCount
  }

  /// From how many distinct inline scalars on the archiver uniques them after the walk instead of
  /// at once (``ScalarNumbering``): 2^18 by default; 0 always, `Int.max` never. The archive's
  /// bytes are the same either way.
  package var scalarDeferringThreshold: Int {
    get { scalars.deferringThreshold }
    set { scalars.deferringThreshold = newValue }
  }

  /// Whether binary archives are written in one pass from the flat table
  /// (``ArchiveBinaryDirectWriter``) when it can; false always takes ``ArchiveBinaryWriter``. The
  /// bytes are the same either way.
  package var writesBinaryDirectly = true
  /// Whether the last binary archive was written by ``ArchiveBinaryDirectWriter``.
  package private(set) var wroteBinaryDirectly = false

  /// Finishes the archive and returns its bytes in ``outputFormat``: binary and XML written from
  /// the flat table, other formats (which refuse UIDs) from the archive as a value.
  public func finishEncoding() throws -> Data {
    do {
      switch outputFormat {
      case .binary:
        finishTable()
        wroteBinaryDirectly = false
        if writesBinaryDirectly, stringsAreDistinct,
          var direct = ArchiveBinaryDirectWriter(table: table, top: top, scalars: scalars), let data = try direct.write()
        {
          wroteBinaryDirectly = true
          return data
        }
        var writer = ArchiveBinaryWriter(table: table, top: top, distinct: stringsAreDistinct ? scalars : nil)
        return try writer.write()
      case .xml:
        finishTable()
        var writer = ArchiveXMLWriter(table: table, top: top)
        return try writer.write()
      default:
        return try finishedArchive().encoded(as: outputFormat)
      }
    } catch {
      throw KeyedArchiveError(.propertyList, "the archive could not be written as a \(outputFormat)", underlying: error)
    }
  }

  /// Archives `root` under `root` (`+archivedDataWithRootObject:requiringSecureCoding:`).
  public static func archivedData(
    withRootObject root: Any?, registry: ArchiveClassRegistry = .foundation, format: PropertyListFormat = .binary,
    maximumObjectCount: Int = 1 << 22
  ) throws -> Data {
    let archiver = KeyedArchiver(registry: registry)
    archiver.outputFormat = format
    archiver.maximumObjectCount = maximumObjectCount
    try archiver.encodeRootObject(root)
    return try archiver.finishEncoding()
  }

  /// Archives `root` and writes it to `path` atomically (`archiveRootObject:toFile:`), through
  /// `environment`'s file system.
  public static func archive(
    _ root: Any?, toFile path: String, registry: ArchiveClassRegistry = .foundation, format: PropertyListFormat = .binary,
    environment: HostEnvironment = .current
  ) throws {
    let archiver = KeyedArchiver(registry: registry)
    archiver.outputFormat = format
    try archiver.encodeRootObject(root)
    let data = try archiver.finishEncoding()
    do {
      try FileAccess.writeAtomically(data, toFile: path, fileSystem: environment.fileSystem)
    } catch {
      throw KeyedArchiveError(.propertyList, "the archive could not be written", underlying: error)
    }
  }

  // MARK: - Object table

  /// Keys chosen by user code that start with `$` get another `$`, so they cannot collide with
  /// the archive's own `$class`, `$classname`…
  static func escape(_ key: String) -> String {
    // Only a key whose first byte is `$` can have the prefix: that test saves most keys the
    // Unicode-aware `hasPrefix`.
    key.utf8.first == UInt8(ascii: "$") && key.hasPrefix("$") ? "$" + key : key
  }

  /// Adds a `$objects` entry and returns its UID.
  @inline(__always)
  func append(_ slot: ArchiveSlot) -> UInt64 { table.append(slot) }

  /// Adds the entry of an object whose contents come next (`$null` until they are written).
  @inline(__always)
  func appendPlaceholder() -> UInt64 { append(.null) }

  /// A scalar stored in `$objects` once per exact value: uniqued as the binary writer uniques
  /// (`ExactScalarTable`), so `-0.0` and `0.0`, canonically equivalent strings, and a float and a
  /// double of the same value stay apart, as CF keeps them — at once, or at the end under a
  /// provisional UID (``ScalarNumbering``).
  @inline(__always)
  func inline(_ value: PropertyListValue) -> UInt64 { scalars.number(for: value, in: &table) }

  /// The class archived under `name`, one per name.
  func archivedClass(named name: String) -> ArchivedClass {
    if let known = classes[name] { return known }
    let archivedClass = ArchivedClass(name: name)
    classes[name] = archivedClass
    return archivedClass
  }

  /// What the archiver writes for instances of `type`, found on the type's first instance.
  func archivedType(of type: Any.Type) -> ArchivedType {
    let key = ObjectIdentifier(type)
    if let known = types[key] { return known }
    let registration = registry.entry(for: type).flatMap { entry in
      entry.encode.map { encode in
        ArchivedType.Registration(
          archivedClass: archivedClass(named: classNameOverrides[key] ?? entry.name), chain: entry.classChain,
          versioned: type as? any ArchiveVersioned.Type, encode: encode)
      }
    }
    let archivedType = ArchivedType(type: type, isFoundationValue: type is any ArchiveFoundationValue.Type, registration: registration)
    types[key] = archivedType
    return archivedType
  }

  /// The UID of `$class` for `archivedClass`, adding the class entry (with `$classes` from
  /// `chain`) on first use.
  func classReference(_ archivedClass: ArchivedClass, chain: @autoclosure () -> [String]) -> UInt64 {
    if let uid = archivedClass.entryUID { return uid }
    let name = archivedClass.name
    var classes = chain()
    if classes.first != name { classes = [name] + classes.filter { $0 != name } }
    let uid = appendPlaceholder()
    let layout = table.addLayout(["$classes", "$classname"])
    let values = [table.slot(.array(classes.map { .string($0) })), table.stringSlot(name)]
    table.entries[Int(uid)] = ArchiveSlot(.object, UInt64(table.values.count), extra: layout)
    table.values.append(contentsOf: values)
    archivedClass.entryUID = uid
    return uid
  }

  // MARK: - Typed paths
  //
  // What the coder's typed overloads write, exactly as `reference(to:)` writes the same values
  // without its run-time casts; with a `willEncode` hook, `reference(to:)` itself.

  /// The UID of a string: stored inline, once per distinct string.
  func stringReference(_ string: String) throws -> UInt64 {
    guard willEncode == nil, string != "$null" else { return try reference(to: string) }
    return inline(.string(string))
  }

  /// The UID of a date: an `NSDate` object.
  func dateReference(_ date: Date) throws -> UInt64 {
    guard willEncode == nil else { return try reference(to: date) }
    return try nested {
      let uid = appendPlaceholder()
      try writeObject(at: uid, as: dateClass, chain: ["NSDate", "NSObject"]) {
        coder.set(ArchiveSlot.real(date.timeIntervalSinceReferenceDate, width: .double), "NS.time")
      }
      return uid
    }
  }

  /// The UID of a registered class instance: once per identity.
  func instanceReference(_ object: some ArchiveEncodable) throws -> UInt64 {
    guard willEncode == nil else { return try reference(to: object) }
    // A Foundation value is never numbered by identity, so a number found is an instance's.
    if let uid = objectNumbers.number(of: ObjectIdentifier(object)) { return uid }
    let type = archivedType(of: type(of: object))
    guard !type.isFoundationValue else { return try reference(to: object) }
    return try nested { try writeInstance(object, as: type) }
  }

  /// The UID of an `NSArray` of registered class instances.
  func arrayReference<Object: ArchiveEncodable>(to objects: [Object]) throws -> UInt64 {
    guard willEncode == nil else { return try reference(to: objects) }
    return try nested {
      let uid = appendPlaceholder()
      let kind = objects.archiveClass
      try writeObject(at: uid, as: archivedClass(named: kind.name), chain: kind.classes) {
        let mark = table.pendingUIDs.count
        table.pendingUIDs.reserveCapacity(mark + objects.count)
        let start = (table: table.counts, retained: retained.count)
        for index in objects.indices {
          if index == Self.sampleMembers, objects.count >= 8 * Self.sampleMembers {
            reserve(forMembers: objects.count - index, likeThe: index, since: start)
          }
          if index & (Self.touchRun - 1) == 0 { touchIdentities(objects, from: index) }
          let member = try instanceReference(objects[index])
          table.pendingUIDs.append(member)
        }
        coder.setUIDs(from: mark, forKey: "NS.objects")
      }
      return uid
    }
  }

  /// How many members of a large array of instances are encoded before the archive's lists are
  /// sized for the rest (``reserve(forMembers:likeThe:since:)``).
  static var sampleMembers: Int { 1024 }

  /// Sizes `$objects`' lists and `retained` for `remaining` more members of an array whose `done`
  /// members so far added what they hold beyond `start`, with a sixteenth to spare. (Sizing the
  /// identity and scalar tables too was measured: no fewer page faults, and no faster, since a
  /// table at its final size from the start misses the cache more while it fills.) The large arrays of one class are what make an archive large, and their
  /// members write alike: each list then moves once, instead of once per doubling (each move a
  /// block of fresh pages the kernel zeroes). A guess too large costs address space only (the
  /// pages never written are never touched); too small, the lists double from there as before.
  func reserve(forMembers remaining: Int, likeThe done: Int, since start: (table: ArchiveObjectTable.Counts, retained: Int)) {
    let factor = Double(remaining) / Double(done) * 1.0625
    func room(_ count: Int, _ then: Int) -> Int { count + Int(Double(count - then) * factor) }
    table.reserve(repeating: start.table, times: factor)
    retained.reserveCapacity(room(retained.count, start.retained))
  }

  /// How many array members ``touchIdentities(_:from:)`` reads ahead.
  static var touchRun: Int { 16 }

  /// Reads the identity table's slots for `objects[start...]` (the next ``touchRun``) before they
  /// are looked up one by one, so that the cache misses of a table larger than the caches (about
  /// 100,000 objects) overlap. What is read goes to `touched`, so that the reads are made.
  func touchIdentities<Object: AnyObject>(_ objects: [Object], from start: Int) {
    // A class instance is one reference, its address: the members are read as words.
    assert(MemoryLayout<Object>.stride == MemoryLayout<UInt>.stride)
    let count = Swift.min(Self.touchRun, objects.count - start)
    guard count > 0 else { return }
    let word = objects.withUnsafeBufferPointer { members in
      objectNumbers.touch(references: UnsafeRawPointer(members.baseAddress! + start), count: count)
    }
    touched ^= word
  }

  /// Runs `body` one nesting level down, with the depth limit.
  func nested<Result>(_ body: () throws -> Result) throws -> Result {
    depth += 1
    defer { depth -= 1 }
    guard depth <= maximumDepth else {
      throw KeyedArchiveError(.limitExceeded, "objects nest deeper than \(maximumDepth) levels while encoding")
    }
    return try body()
  }

  // MARK: - The general path

  /// Encodes a value (or returns the UID it already has) and returns its UID; nil gives 0.
  func reference(to original: Any?) throws -> UInt64 {
    guard var value = original else { return 0 }
    if let willEncode {
      guard let replacement = willEncode(value) else { return 0 }
      value = replacement
    }
    if let optional = value as? any OptionalProtocol {
      guard let wrapped = optional.wrappedAny else { return 0 }
      value = wrapped
    }
    // Scalars stored inline.
    switch value {
    case let string as String:
      // An inline "$null" would read back as nil: write that one string as an NSMutableString
      // object ({NS.string: "$null"}), which every reader decodes to the string.
      if string == "$null" { return try encodeValueObject(ArchiveMutable(string)) }
      return inline(.string(string))
    case let flag as Bool: return inline(.bool(flag))
    case let number as Int: return inline(.integer(number))
    case let number as Int64: return inline(.integer(PropertyListInteger(number)))
    case let number as Int32: return inline(.integer(Int(number)))
    case let number as Int16: return inline(.integer(Int(number)))
    case let number as Int8: return inline(.integer(Int(number)))
    case let number as UInt: return inline(.integer(PropertyListInteger(UInt64(number))))
    case let number as UInt64: return inline(.integer(PropertyListInteger(number)))
    case let number as UInt32: return inline(.integer(Int(number)))
    case let number as UInt16: return inline(.integer(Int(number)))
    case let number as UInt8: return inline(.integer(Int(number)))
    case let number as Double: return inline(.real(number))
    case let number as Float: return inline(.real(Double(number), width: .single))
    case let data as Data: return inline(.data(data))
    default: break
    }
    depth += 1
    defer { depth -= 1 }
    guard depth <= maximumDepth else {
      throw KeyedArchiveError(.limitExceeded, "objects nest deeper than \(maximumDepth) levels while encoding")
    }
    guard hasRoom(for: 0) else {
      throw KeyedArchiveError(.limitExceeded, "the archive would hold more than \(maximumObjectCount) objects (values shared in memory are archived once per occurrence)")
    }
    // Test the dynamic type first: `as? AnyObject` on a value bridges it (recursively, for
    // collections) when Foundation is loaded.
    if type(of: value) is AnyClass, !(value is any ArchiveFoundationValue) {
      return try reference(toInstance: value as AnyObject)
    }
    return try encodeValueObject(value)
  }

  /// A string decoded from an archive that held it more than once: an inline entry of its own
  /// per original entry, not merged with equal strings.
  func reference(toArchivedString string: ArchivedString) throws -> UInt64 {
    guard string.value != "$null" else { return try reference(to: string.value) }
    guard let identity = string.archivedIdentity else { return inline(.string(string.value)) }
    if let uid = archivedStringNumbers[identity] { return uid }
    stringsAreDistinct = false
    let uid = append(table.stringSlot(string.value))
    archivedStringNumbers[identity] = uid
    return uid
  }

  /// A class instance: once per identity.
  func reference(toInstance object: AnyObject) throws -> UInt64 {
    if let uid = objectNumbers.number(of: ObjectIdentifier(object)) { return uid }
    return try writeInstance(object, as: archivedType(of: type(of: object)))
  }

  /// Writes a class instance not archived yet, of the type `type` describes, and returns its new UID.
  func writeInstance(_ object: AnyObject, as type: ArchivedType) throws -> UInt64 {
    guard let registration = type.registration else {
      throw KeyedArchiveError(.invalidValue, "cannot archive an instance of \(type.type): the class is not registered in the archive's class registry")
    }
    let uid = appendPlaceholder()
    objectNumbers.record(ObjectIdentifier(object), number: uid)
    retained.append(object)
    try writeObject(at: uid, as: registration.archivedClass, chain: registration.chain, version: registration.version) {
      try registration.encode(object, coder)
    }
    return uid
  }

  /// A value that becomes an object dictionary: a Foundation value or a registered value type.
  func encodeValueObject(_ value: Any) throws -> UInt64 {
    if let string = value as? ArchivedString { return try reference(toArchivedString: string) }
    // Apple's Foundation hands out one NSTimeZone and one NSLocale instance per identifier, so
    // an archive holds each zone and locale once however often it is used; so does this one
    // (an ArchivedTimeZone once per name and rules).
    let sharedKey: String? =
      if let zone = value as? TimeZone { "NSTimeZone " + zone.identifier }
      else if let zone = value as? ArchivedTimeZone { zone.sharingKey }
      else if let locale = value as? ArchivedLocale { locale.sharingKey }
      else if let locale = value as? Locale { "NSLocale " + locale.identifier }
      else { nil }
    if let sharedKey, let uid = sharedValueNumbers[sharedKey] { return uid }
    if let foundation = value as? any ArchiveFoundationValue {
      let uid = appendPlaceholder()
      if let sharedKey { sharedValueNumbers[sharedKey] = uid }
      let kind = foundation.archiveClass
      try writeObject(at: uid, as: archivedClass(named: kind.name), chain: kind.classes) {
        try foundation.encodeArchiveContents(with: coder)
      }
      return uid
    }
    let type = archivedType(of: type(of: value))
    guard let registration = type.registration else {
      throw KeyedArchiveError(.invalidValue, "cannot archive a value of type \(type.type): it is neither a property-list value, a Foundation value nor a registered type")
    }
    let uid = appendPlaceholder()
    try writeObject(at: uid, as: registration.archivedClass, chain: registration.chain, version: registration.version) {
      try registration.encode(value, coder)
    }
    return uid
  }

  /// Runs `body` with the coder pointed at a fresh object (following the class's last key
  /// layout), then stores it at `uid` with its `$class` (added after the contents, as Apple's
  /// archiver does). `chain` gives `$classes` if the class entry is not written yet.
  func writeObject(
    at uid: UInt64, as archivedClass: ArchivedClass, chain: @autoclosure () -> [String], version: Int = 0,
    _ body: () throws -> Void
  ) throws {
    // The enclosing object's contents wait in `contents` (its values below this one's on the
    // pending stack) and come back when this one is done.
    var contents = ObjectContents(
      following: archivedClass.layout, number: archivedClass.layoutNumber, mark: table.pending.count,
      uidMark: table.pendingUIDs.count)
    swap(&contents, &coder.contents)
    let enclosingObject = coder.currentObject
    coder.currentObject = Int(uid)
    defer {
      swap(&contents, &coder.contents)
      coder.currentObject = enclosingObject
    }
    if version != 0 { table.set(.integer(PropertyListInteger(Int64(version))), forKey: "$classversion", in: &coder.contents) }
    do {
      try body()
    } catch {
      // The entry keeps its "$null" placeholder: a second `$null` string in `$objects`, should
      // the caller finish the archive anyway. Its values and UIDs leave the pending stacks.
      stringsAreDistinct = false
      table.pending.removeSubrange(coder.contents.mark...)
      table.pendingUIDs.removeSubrange(coder.contents.uidMark...)
      throw error
    }
    let classUID = classReference(archivedClass, chain: chain())
    table.set(ArchiveSlot(.uid, classUID), forKey: "$class", in: &coder.contents)
    (archivedClass.layout, archivedClass.layoutNumber) = table.finish(coder.contents, at: uid)
  }
}

/// Lets the archiver see through optionals hidden in `Any`.
protocol OptionalProtocol {
  var wrappedAny: Any? { get }
}
extension Optional: OptionalProtocol {
  var wrappedAny: Any? {
    switch self {
    case .some(let wrapped): wrapped
    case .none: nil
    }
  }
}

extension PropertyListValue {
  /// The Swift value the archiver writes as this value's Foundation object.
  func archivableValue() throws -> Any {
    switch self {
    case .string(let string): return string
    case .integer(let integer): return integer.int64Value.map { Int($0) as Any } ?? (integer.uint64Value ?? 0) as Any
    case .real(let real, let width): return width == .single ? Float(real) as Any : real as Any
    case .bool(let flag): return flag
    case .data(let data): return data
    case .date(let date): return date
    case .array(let members): return try members.map { try $0.archivableValue() }
    case .dictionary(let dictionary):
      var result: [String: Any] = [:]
      for (name, member) in dictionary { result[name] = try member.archivableValue() }
      return result
    case .uid: throw KeyedArchiveError(.invalidValue, "a UID is not a value that can be archived as a Foundation object")
    }
  }
}
