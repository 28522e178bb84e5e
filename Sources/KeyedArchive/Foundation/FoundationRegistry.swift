public import FoundationEssentials
import PropertyLists

extension ArchiveClassRegistry {
  /// A registry holding Foundation's classes, each mapped to its natural Swift type:
  /// `NSString` → `String`, `NSNumber` → `Int`/`Double`/`Bool`, `NSData` → `Data`, `NSDate` →
  /// `Date`, `NSArray` → `[Any]`, `NSDictionary` → `[AnyHashable: Any]`, `NSSet` →
  /// `Set<AnyHashable>`, `NSNull` → ``ArchiveNull``, `NSUUID` → `UUID`, `NSURL` → `URL`, and the
  /// rest of the Foundation encodings in this folder. Start from it and add your own classes.
  public static var foundation: ArchiveClassRegistry {
    var registry = ArchiveClassRegistry()
    registry.registerFoundationClasses()
    return registry
  }

  mutating func registerFoundationClasses() {
    registerFoundation("NSString", classes: ["NSString", "NSObject"], type: String.self) { try $0.foundationString() }
    registerFoundation("NSMutableString", classes: ["NSMutableString", "NSString", "NSObject"], type: String.self) {
      $0.preservingMutability(try $0.foundationString())
    }
    registerFoundation("NSData", classes: ["NSData", "NSObject"], type: Data.self) { try $0.foundationData() }
    registerFoundation("NSMutableData", classes: ["NSMutableData", "NSData", "NSObject"], type: Data.self) {
      $0.preservingMutability(try $0.foundationData())
    }
    registerFoundation("NSDate", classes: ["NSDate", "NSObject"], type: Date.self, isFoundationDate: true) { coder in
      guard let seconds = coder.storedValue(forKey: "NS.time")?.doubleValue else {
        throw KeyedArchiveError(.corruptArchive, "\(coder.location) (NSDate) has no NS.time number")
      }
      return Date(timeIntervalSinceReferenceDate: seconds)
    }
    registerFoundation("NSArray", classes: ["NSArray", "NSObject"], type: [Any].self) { try $0.foundationArray() }
    registerFoundation("NSMutableArray", classes: ["NSMutableArray", "NSArray", "NSObject"], type: [Any].self) {
      $0.preservingMutability(try $0.foundationArray())
    }
    registerFoundation("NSDictionary", classes: ["NSDictionary", "NSObject"], type: [AnyHashable: Any].self) { coder in
      if coder.unarchiver.preservesArchivedForm { try coder.orderedDictionary() } else { try coder.foundationDictionary() }
    }
    registerFoundation("NSMutableDictionary", classes: ["NSMutableDictionary", "NSDictionary", "NSObject"], type: [AnyHashable: Any].self) {
      coder in
      if coder.unarchiver.preservesArchivedForm { ArchiveMutable(try coder.orderedDictionary()) } else { try coder.foundationDictionary() }
    }
    registerFoundation("NSSet", classes: ["NSSet", "NSObject"], type: Set<AnyHashable>.self) { coder in
      if coder.unarchiver.preservesArchivedForm { try coder.orderedSet() } else { try coder.foundationSet() }
    }
    registerFoundation("NSMutableSet", classes: ["NSMutableSet", "NSSet", "NSObject"], type: Set<AnyHashable>.self) { coder in
      if coder.unarchiver.preservesArchivedForm { ArchiveMutable(try coder.orderedSet()) } else { try coder.foundationSet() }
    }
    registerFoundation("NSNull", classes: ["NSNull", "NSObject"], type: ArchiveNull.self) { _ in ArchiveNull() }
    registerFoundation("NSUUID", classes: ["NSUUID", "NSObject"], type: UUID.self) { coder in
      guard let bytes = coder.storedValue(forKey: "NS.uuidbytes")?.dataValue, bytes.count == 16 else {
        throw KeyedArchiveError(.corruptArchive, "\(coder.location) (NSUUID) has no 16-byte NS.uuidbytes")
      }
      let b = Array(bytes)
      return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
    registerFoundation("NSURL", classes: ["NSURL", "NSObject"], type: URL.self) { coder in
      let base = try coder.decode(URL.self, forKey: "NS.base")
      guard let relative = try coder.decode(String.self, forKey: "NS.relative") else {
        throw KeyedArchiveError(.corruptArchive, "\(coder.location) (NSURL) has no NS.relative string")
      }
      guard let url = URL(string: relative, relativeTo: base) else {
        throw KeyedArchiveError(.corruptArchive, "\(coder.location) (NSURL) holds an NS.relative that is not a URL")
      }
      return url
    }
    registerMoreFoundationClasses()
  }
}

extension ArchiveDecoder {
  /// The members of an `NS.objects` list, decoded with the enclosing call's allowed classes.
  func members(forKey key: String) throws -> [Any] {
    let references = try references(forKey: key)
    var result: [Any] = []
    result.reserveCapacity(references.count)
    for uid in references {
      guard let member = try object(atReference: uid, key: key) else {
        throw KeyedArchiveError(.corruptArchive, "\(location) has a $null member in \(key); collections cannot hold nil")
      }
      result.append(member)
    }
    return result
  }

  func foundationString() throws -> String {
    switch storedValue(forKey: "NS.string") {
    case .string(let string)?: return string
    case .uid(let uid)?:
      if let string = archivedStringValue(try object(atReference: uid, key: "NS.string")) { return string }
    default: break
    }
    throw KeyedArchiveError(.corruptArchive, "\(location) (NSString) has no NS.string")
  }

  func foundationData() throws -> Data {
    switch storedValue(forKey: "NS.data") ?? storedValue(forKey: "NS.bytes") {
    case .data(let data)?: return data
    case .uid(let uid)?:
      if let data = try object(atReference: uid, key: "NS.data") as? Data { return data }
    default: break
    }
    throw KeyedArchiveError(.corruptArchive, "\(location) (NSData) has no NS.data")
  }

  func foundationArray() throws -> [Any] { try members(forKey: "NS.objects") }

  /// `value` wrapped in ``ArchiveMutable`` when the unarchiver preserves archived forms (the
  /// object was archived as the mutable class), else `value` itself.
  func preservingMutability<Value: ArchiveMutableFoundationValue>(_ value: Value) -> Any {
    unarchiver.preservesArchivedForm ? ArchiveMutable(value) : value
  }

  /// `NS.objects` as an ``ArchivedSet``, members in archived order.
  func orderedSet() throws -> ArchivedSet {
    var set = ArchivedSet()
    for member in try members(forKey: "NS.objects") {
      guard let hashable = member as? AnyHashable else {
        throw KeyedArchiveError(.typeMismatch, "\(location) (NSSet) holds a \(type(of: member)), which cannot be a set member in Swift")
      }
      set.insert(hashable)
    }
    return set
  }

  /// `NS.keys` and `NS.objects` as an ``ArchivedDictionary``, entries in archived order.
  func orderedDictionary() throws -> ArchivedDictionary {
    let keys = try members(forKey: "NS.keys")
    let values = try members(forKey: "NS.objects")
    guard keys.count == values.count else {
      throw KeyedArchiveError(.corruptArchive, "\(location) (NSDictionary) has \(keys.count) NS.keys but \(values.count) NS.objects")
    }
    var dictionary = ArchivedDictionary()
    for (key, value) in zip(keys, values) {
      guard let hashable = key as? AnyHashable else {
        throw KeyedArchiveError(.typeMismatch, "\(location) (NSDictionary) has a key of type \(type(of: key)), which cannot be a dictionary key in Swift")
      }
      dictionary[hashable] = value
    }
    return dictionary
  }

  func foundationSet() throws -> Set<AnyHashable> {
    var set = Set<AnyHashable>()
    for member in try members(forKey: "NS.objects") {
      guard let hashable = member as? AnyHashable else {
        throw KeyedArchiveError(.typeMismatch, "\(location) (NSSet) holds a \(type(of: member)), which cannot be a set member in Swift")
      }
      set.insert(hashable)
    }
    return set
  }

  func foundationDictionary() throws -> [AnyHashable: Any] {
    let keys = try members(forKey: "NS.keys")
    let values = try members(forKey: "NS.objects")
    guard keys.count == values.count else {
      throw KeyedArchiveError(.corruptArchive, "\(location) (NSDictionary) has \(keys.count) NS.keys but \(values.count) NS.objects")
    }
    var dictionary: [AnyHashable: Any] = [:]
    dictionary.reserveCapacity(keys.count)
    for (key, value) in zip(keys, values) {
      guard let hashable = key as? AnyHashable else {
        throw KeyedArchiveError(.typeMismatch, "\(location) (NSDictionary) has a key of type \(type(of: key)), which cannot be a dictionary key in Swift")
      }
      dictionary[hashable] = value
    }
    return dictionary
  }
}

// MARK: - Encoding Swift values as Foundation classes

extension ArchiveEncoder {
  func encodeReferences<S: Sequence>(_ members: S, forKey key: String) throws {
    var references: [PropertyListValue] = []
    for member in members { references.append(.uid(try memberReference(to: member))) }
    encodeRaw(.array(references), forKey: key)
  }

  /// The UID of a collection member. A member that is `nil` (`Optional<Int>.none as Any`, or a
  /// substitution hook that answered `nil`) is archived as `NSNull`, as Swift's bridging to
  /// `NSArray`/`NSDictionary` does on Apple platforms: a collection cannot hold `$null`, and an
  /// archive holding one is refused by every unarchiver, this one included.
  func memberReference(to member: Any) throws -> UInt64 {
    let uid = try reference(to: member)
    return uid != 0 ? uid : try reference(to: ArchiveNull())
  }
}

extension Array: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSArray", ["NSArray", "NSObject"]) }
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    try coder.encodeReferences(self.lazy.map { $0 as Any }, forKey: "NS.objects")
  }
}

extension Set: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSSet", ["NSSet", "NSObject"]) }
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    try coder.encodeReferences(self.lazy.map { $0 as Any }, forKey: "NS.objects")
  }
}

extension Dictionary: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSDictionary", ["NSDictionary", "NSObject"]) }
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    var keys: [PropertyListValue] = []
    var values: [PropertyListValue] = []
    keys.reserveCapacity(count)
    values.reserveCapacity(count)
    for (key, _) in self {
      keys.append(.uid(try coder.reference(to: key)))
    }
    for (_, value) in self {
      values.append(.uid(try coder.memberReference(to: value)))
    }
    coder.encodeRaw(.array(keys), forKey: "NS.keys")
    coder.encodeRaw(.array(values), forKey: "NS.objects")
  }
}

extension Date: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSDate", ["NSDate", "NSObject"]) }
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.real(timeIntervalSinceReferenceDate), forKey: "NS.time")
  }
}

extension UUID: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSUUID", ["NSUUID", "NSObject"]) }
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    let u = uuid
    coder.encodeRaw(.data(Data([u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])), forKey: "NS.uuidbytes")
  }
}

extension URL: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSURL", ["NSURL", "NSObject"]) }
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    if let base = baseURL {
      coder.encodeRaw(.uid(try coder.reference(to: base)), forKey: "NS.base")
    } else {
      coder.encodeRaw(.uid(0), forKey: "NS.base")
    }
    coder.encodeRaw(.uid(try coder.reference(to: relativeString)), forKey: "NS.relative")
  }
}

extension ArchiveNull: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSNull", ["NSNull", "NSObject"]) }
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {}
}
