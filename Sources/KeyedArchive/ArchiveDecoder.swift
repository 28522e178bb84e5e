public import FoundationEssentials
public import PropertyLists

/// What an object's `init(coder:)` or `decode(from:)` reads through: Apple's `NSKeyedUnarchiver`
/// seen as an `NSCoder`. Missing keys read as 0, `false` or `nil`, as Apple's do;
/// ``containsValue(forKey:)`` tells them apart. Values of the wrong type throw
/// `KeyedArchiveError.Code.typeMismatch` naming the object and key.
public final class ArchiveDecoder {
  // The decoding state is read and swapped for every object and key; its accesses never overlap
  // (one thread, no inout access held across a call), so they go without runtime exclusivity
  // checks, which cost a fifth of unarchiving.
  unowned(unsafe) var unarchiver: KeyedUnarchiver!
  /// What the object being decoded reads (`$top` at the top level). Swapped in and out whole
  /// for every object.
  struct Frame {
    /// The object's keys and values, for ``lookup(_:)``.
    var keys: [String]
    var values: [PropertyListValue]
    /// The dictionary itself when it is large enough to carry a hash index.
    var indexed: PropertyListDictionary?
    /// Its UID (-1 for `$top`).
    var object: Int
    /// The classes the call that decodes it allowed (nil: not secure).
    var allowed: AllowedClasses?

    init(_ dictionary: PropertyListDictionary, object: Int, allowed: AllowedClasses?) {
      keys = dictionary.keys
      values = dictionary.values
      indexed = keys.count > 16 ? dictionary : nil
      self.object = object
      self.allowed = allowed
    }

    /// The value under an archive key. Objects have a handful of keys, so a scan that compares
    /// lengths before contents beats hashing the key (and `String ==` on two different short
    /// strings takes its slow path); large dictionaries use their index.
    @inline(__always)
    func value(forKey key: String) -> PropertyListValue? {
      if let indexed { return indexed[key] }
      let count = keys.count
      let length = key.utf8.count
      var position = 0
      while position < count {
        let candidate = keys[position]
        if candidate.utf8.count == length && candidate == key { return values[position] }
        position += 1
      }
      return nil
    }
  }
  @exclusivity(unchecked) var frame = Frame(PropertyListDictionary(), object: -1, allowed: nil)
  var currentObject: Int { frame.object }
  var allowed: AllowedClasses? { frame.allowed }
  /// The number of keys of the object being decoded.
  var currentKeyCount: Int { frame.keys.count }
  /// ``allowedClasses(for:)``'s answers, by requested type (the registry does not change while
  /// an unarchiver lives): the first sixteen types in a list, the rest hashed.
  @exclusivity(unchecked) var allowedByType: [ObjectIdentifier: AllowedClasses] = [:]
  @exclusivity(unchecked) var recentTypes: [ObjectIdentifier] = []
  @exclusivity(unchecked) var recentSets: [AllowedClasses] = []
  /// `recentSets` unretained, to lend them without reference counting.
  @exclusivity(unchecked) var recentAllowed: [Unmanaged<AllowedClasses>] = []

  init() {}

  /// Whether the archive is being decoded securely (``KeyedUnarchiver/requiresSecureCoding``).
  public var requiresSecureCoding: Bool { unarchiver.requiresSecureCoding }

  /// The ``ArchiveVersioned/archiveVersion`` the object was archived with (0 when none was written).
  public var archivedClassVersion: Int {
    // Read when asked, not for every object: looking up a key that is almost never there scans
    // all of an object's keys.
    currentObject >= 0 ? lookup("$classversion")?.intValue ?? 0 : 0
  }

  /// The value under an archive key of the current object.
  @inline(__always)
  func lookup(_ key: String) -> PropertyListValue? { frame.value(forKey: key) }

  /// The raw value stored under `key` in the current object (keys starting with `$` are escaped
  /// as the archiver escapes them).
  public func rawValue(forKey key: String) -> PropertyListValue? {
    lookup(key.utf8.first == UInt8(ascii: "$") ? "$" + key : key)
  }

  /// The raw value under an unescaped archive key such as `NS.objects`, for Foundation decoders.
  public func storedValue(forKey key: String) -> PropertyListValue? { lookup(key) }

  /// `containsValueForKey:`.
  public func containsValue(forKey key: String) -> Bool { rawValue(forKey: key) != nil }

  var location: String {
    currentObject >= 0 ? "$objects[\(currentObject)]" : "$top"
  }

  @inline(never) @usableFromInline
  func mismatch(_ key: String, expected: String, found: PropertyListValue) -> KeyedArchiveError {
    KeyedArchiveError(.typeMismatch, "\(location) key \"\(key)\" holds a \(found.typeName); expected \(expected)")
  }

  /// `decodeBoolForKey:` — missing is `false`; integers are true when not 0.
  public func decodeBool(forKey key: String) throws -> Bool {
    switch rawValue(forKey: key) {
    case nil: return false
    case .bool(let flag)?: return flag
    case .integer(let integer)?: return integer != PropertyListInteger(0)
    case let other?: throw mismatch(key, expected: "a boolean", found: other)
    }
  }

  /// `decodeIntegerForKey:` and friends — missing is 0; a value that does not fit `T` throws.
  @inlinable
  public func decodeInteger<T: FixedWidthInteger>(_ type: T.Type = Int.self, forKey key: String) throws -> T {
    switch rawValue(forKey: key) {
    case nil: return 0
    case .integer(let integer)?:
      guard let value = integer.exactly(T.self) else { throw doesNotFit(key, "holds \(integer), which", in: T.self) }
      return value
    case .real(let number, _)?:
      guard let value = T(exactly: number.rounded(.towardZero)) else { throw doesNotFit(key, "holds a real that", in: T.self) }
      return value
    case .bool(let flag)?: return flag ? 1 : 0
    case let other?: throw mismatch(key, expected: "an integer", found: other)
    }
  }

  @inline(never) @usableFromInline
  func doesNotFit(_ key: String, _ holds: String, in type: Any.Type) -> KeyedArchiveError {
    KeyedArchiveError(.typeMismatch, "\(location) key \"\(key)\" \(holds) does not fit in \(type)")
  }

  /// `decodeDoubleForKey:` — missing is 0.
  public func decodeDouble(forKey key: String) throws -> Double {
    switch rawValue(forKey: key) {
    case nil: return 0
    case .real(let number, _)?: return number
    case .integer(let integer)?: return integer.doubleValue
    case let other?: throw mismatch(key, expected: "a real", found: other)
    }
  }

  /// `decodeFloatForKey:` — missing is 0.
  public func decodeFloat(forKey key: String) throws -> Float { Float(try decodeDouble(forKey: key)) }

  /// `decodeBytesForKey:returnedLength:` — the inline data, or nil.
  public func decodeBytes(forKey key: String) throws -> Data? {
    switch rawValue(forKey: key) {
    case nil: return nil
    case .data(let data)?: return data
    case let other?: throw mismatch(key, expected: "data", found: other)
    }
  }

  /// `decodeObjectForKey:` — whatever object is stored, decoded with any registered class
  /// (secure mode allows only inline strings, numbers and data here: name the classes instead).
  public func decodeObject(forKey key: String) throws -> Any? {
    try decodeObject(forKey: key, allowed: unarchiver.requiresSecureCoding ? (allowed ?? AllowedClasses()) : nil)
  }

  /// `decodeObjectOfClasses:forKey:` — only objects of the given types (or registered subclasses).
  public func decodeObject(of types: [Any.Type], forKey key: String) throws -> Any? {
    guard unarchiver.requiresSecureCoding else { return try decodeObject(forKey: key, allowed: nil) }
    let set = AllowedClasses()
    for type in types { unarchiver.registry.addAllowed(type, to: set) }
    return try decodeObject(forKey: key, allowed: set)
  }

  /// Decodes the object under `key` as `T` (`decodeObjectOfClass:forKey:` with Swift's types):
  /// `String`, numbers, `Data`, `Date`, `URL`, `UUID`, registered classes and value types, and
  /// arrays, dictionaries, sets and optionals of them. In secure mode the allowed classes come
  /// from `T` itself, collections included. Returns `nil` for a missing key or `$null`.
  ///
  /// Inlinable so that the cast to `T` is compiled for the caller's type (as a generic function
  /// in this module it looked `T` up at run time on every call).
  @inlinable
  public func decode<T>(_ type: T.Type, forKey key: String) throws -> T? {
    // Strings, the commonest value, skip the boxing into Any and the cast back (the test on T
    // disappears when this is compiled for the caller's type).
    if T.self == String.self, let string = plainString(forKey: key) { return (string as! T) }
    if T.self == Date.self, let date = plainDate(forKey: key) { return (date as! T) }
    guard let value = try decodeValue(forKey: key, requested: type) else { return nil }
    if let typed = value as? T { return typed }
    return try converted(value, to: type, forKey: key)
  }

  /// The string under `key` when it is stored plainly — inline, or as a reference to a string
  /// in `$objects` — which needs no permission even in secure mode; nil for anything else
  /// (missing keys, other types, `NSString` objects, damage), which the general path handles.
  @usableFromInline
  func plainString(forKey key: String) -> String? {
    switch rawValue(forKey: key) {
    case .string(let string)?: return string
    case .uid(let uid)?: return unarchiver.plainString(at: uid)
    default: return nil
    }
  }

  /// The date under `key` when it is a plain `NSDate` object that the general path would decode
  /// without a word (see ``KeyedUnarchiver/plainDate(at:allowed:)``); nil for anything else.
  @usableFromInline
  func plainDate(forKey key: String) -> Date? {
    guard case .uid(let uid)? = rawValue(forKey: key) else { return nil }
    guard unarchiver.requiresSecureCoding else { return unarchiver.plainDate(at: uid, allowed: nil) }
    if let position = recentTypes.firstIndex(of: ObjectIdentifier(Date.self)) {
      return recentAllowed[position]._withUnsafeGuaranteedRef { unarchiver.plainDate(at: uid, allowed: $0) }
    }
    return nil
  }

  /// The object under `key`, allowed by what `requested` admits (``decode(_:forKey:)``'s work
  /// before the cast).
  @usableFromInline
  func decodeValue(forKey key: String, requested: Any.Type) throws -> Any? {
    // The sets of the types asked for most are lent rather than retained and released per call
    // (`recentSets` keeps them alive for the decoder's life).
    if unarchiver.requiresSecureCoding, let position = recentTypes.firstIndex(of: ObjectIdentifier(requested)) {
      return try recentAllowed[position]._withUnsafeGuaranteedRef { try decodeObject(forKey: key, allowed: $0) }
    }
    return try decodeObject(forKey: key, allowed: allowedClasses(for: requested))
  }

  /// A decoded number converted exactly to `T`; a preserved form
  /// (``KeyedUnarchiver/preservesArchivedForm``) asked for as a plain type, converted to its
  /// plain value; a plain value asked for as a preserved form that can be made from it
  /// (``ArchivedTimeZone``, ``ArchivedSet``, ``ArchivedDictionary``); or the type mismatch error.
  @usableFromInline
  func converted<T>(_ value: Any, to type: T.Type, forKey key: String) throws -> T {
    if let converted = ArchiveDecoder.convertNumber(value, to: type) { return converted }
    if unarchiver.preservesArchivedForm, let plain = KeyedUnarchiver.plainValue(value) as? T { return plain }
    if let liftable = T.self as? any ArchivePreservedFormLiftable.Type, let lifted = liftable.lifted(from: value) as? T {
      return lifted
    }
    throw KeyedArchiveError(.typeMismatch, "\(location) key \"\(key)\" holds a \(Swift.type(of: value)); expected \(T.self)")
  }

  @usableFromInline
  func valueNotFound(forKey key: String, expected: Any.Type) -> KeyedArchiveError {
    KeyedArchiveError(.valueNotFound, "\(location) has no value for key \"\(key)\"; expected \(expected)")
  }

  /// Decodes a required value: like ``decode(_:forKey:)``, but a missing key or `$null` throws
  /// `KeyedArchiveError.Code.valueNotFound`.
  @inlinable
  public func decodeRequired<T>(_ type: T.Type, forKey key: String) throws -> T {
    guard let value = try decode(type, forKey: key) else { throw valueNotFound(forKey: key, expected: T.self) }
    return value
  }

  /// The classes `type` admits in secure mode (nil when decoding is not secure). Working them out
  /// walks the registry and names the type, which cost as much as the rest of decoding an object:
  /// they are computed once per requested type and unarchiver.
  func allowedClasses(for type: Any.Type) -> AllowedClasses? {
    guard unarchiver.requiresSecureCoding else { return nil }
    let identifier = ObjectIdentifier(type)
    // A decode(from:) asks for a handful of types over and over: a short scan of the first
    // sixteen finds them without hashing.
    if let position = recentTypes.firstIndex(of: identifier) { return recentSets[position] }
    if let cached = allowedByType[identifier] { return cached }
    let set = AllowedClasses()
    unarchiver.registry.addAllowed(type, to: set)
    set.cacheID = recentSets.count + allowedByType.count + 1
    if recentSets.count < 16 {
      recentTypes.append(identifier)
      recentSets.append(set)
      recentAllowed.append(Unmanaged.passUnretained(set))
    } else {
      allowedByType[identifier] = set
    }
    return set
  }

  func decodeObject(forKey key: String, allowed: AllowedClasses?) throws -> Any? {
    guard let stored = rawValue(forKey: key) else { return nil }
    guard case .uid(let uid) = stored else {
      // Scalars written inline with encodeObject by other archivers are accepted as values.
      switch stored {
      case .string(let string): return string
      case .integer(let integer):
        if let small = integer.exactly(Int.self) { return small }
        return integer.uint64Value
      case .real(let number, _): return number
      case .bool(let flag): return flag
      case .data(let data): return data
      default: throw mismatch(key, expected: "an object reference", found: stored)
      }
    }
    return try unarchiver.object(at: uid, allowed: allowed, key: key)
  }

  /// Decodes the object a UID refers to, with the allowed classes of the enclosing call (for
  /// Foundation collections decoding their members).
  public func object(atReference uid: UInt64, key: String) throws -> Any? {
    try unarchiver.object(at: uid, allowed: allowed, key: key)
  }

  /// The UIDs in the array stored under an archive key (`NS.objects`, `NS.keys`).
  public func references(forKey key: String) throws -> [UInt64] {
    guard let stored = storedValue(forKey: key) else { return [] }
    guard case .array(let elements) = stored else { throw mismatch(key, expected: "an array of references", found: stored) }
    var result: [UInt64] = []
    result.reserveCapacity(elements.count)
    for element in elements {
      guard case .uid(let uid) = element else { throw mismatch(key, expected: "an array of references", found: element) }
      result.append(uid)
    }
    return result
  }

  /// Numbers decoded as one numeric type but asked for as another (an archived integer read as
  /// `Double`, a small integer as `Int32`), converted only when exact.
  static func convertNumber<T>(_ value: Any, to type: T.Type) -> T? {
    let asDouble: Double?
    let asInteger: PropertyListInteger?
    switch value {
    case let number as Int: asInteger = PropertyListInteger(Int64(number)); asDouble = Double(number)
    case let number as UInt64: asInteger = PropertyListInteger(number); asDouble = Double(number)
    case let number as Int64: asInteger = PropertyListInteger(number); asDouble = Double(number)
    case let number as Double: asDouble = number; asInteger = Int64(exactly: number).map { PropertyListInteger($0) }
    case let number as Float: asDouble = Double(number); asInteger = Int64(exactly: number).map { PropertyListInteger($0) }
    case let flag as Bool: asInteger = PropertyListInteger(Int64(flag ? 1 : 0)); asDouble = nil
    default: return nil
    }
    switch type {
    case is Double.Type: return asDouble as? T
    case is Float.Type: return asDouble.map { Float($0) } as? T
    case is Int.Type: return asInteger?.exactly(Int.self) as? T
    case is Int64.Type: return asInteger?.exactly(Int64.self) as? T
    case is Int32.Type: return asInteger?.exactly(Int32.self) as? T
    case is Int16.Type: return asInteger?.exactly(Int16.self) as? T
    case is Int8.Type: return asInteger?.exactly(Int8.self) as? T
    case is UInt.Type: return asInteger?.exactly(UInt.self) as? T
    case is UInt64.Type: return asInteger?.exactly(UInt64.self) as? T
    case is UInt32.Type: return asInteger?.exactly(UInt32.self) as? T
    case is UInt16.Type: return asInteger?.exactly(UInt16.self) as? T
    case is UInt8.Type: return asInteger?.exactly(UInt8.self) as? T
    default: return nil
    }
  }
}

// MARK: - Allowed classes from Swift types

/// Collections and optionals tell the registry which element types they admit.
protocol ArchiveContainerType {
  static var archiveFoundationNames: [String] { get }
  static var archiveElementTypes: [Any.Type] { get }
}
extension Array: ArchiveContainerType {
  static var archiveFoundationNames: [String] { ["NSArray", "NSMutableArray"] }
  static var archiveElementTypes: [Any.Type] { [Element.self] }
}
extension Dictionary: ArchiveContainerType {
  static var archiveFoundationNames: [String] { ["NSDictionary", "NSMutableDictionary"] }
  static var archiveElementTypes: [Any.Type] { [Key.self, Value.self] }
}
extension Set: ArchiveContainerType {
  static var archiveFoundationNames: [String] { ["NSSet", "NSMutableSet"] }
  static var archiveElementTypes: [Any.Type] { [Element.self] }
}
extension ArchiveMutable: ArchiveContainerType {
  /// What the wrapped type admits (its Foundation classes include the mutable ones).
  static var archiveFoundationNames: [String] { [] }
  static var archiveElementTypes: [Any.Type] { [Value.self] }
}
extension Optional: ArchiveContainerType {
  static var archiveFoundationNames: [String] { [] }
  static var archiveElementTypes: [Any.Type] { [Wrapped.self] }
}

extension ArchiveClassRegistry {
  /// Adds what `type` admits: a registered class (and its registered subclasses), a registered
  /// value type, the Foundation classes a Swift type maps to, and for collections their elements.
  func addAllowed(_ type: Any.Type, to set: AllowedClasses) {
    set.typeNames.append(String(describing: type))
    if let container = type as? any ArchiveContainerType.Type {
      set.names.formUnion(container.archiveFoundationNames)
      for element in container.archiveElementTypes { addAllowed(element, to: set) }
      return
    }
    if let aliased = type as? any ArchiveFoundationAliased.Type {
      set.names.formUnion(aliased.archivedClassNames)
    }
    let identifier = ObjectIdentifier(type)
    set.types.insert(identifier)
    set.names.formUnion(names(registeredFor: identifier))
  }
}
