public import FoundationEssentials
import PropertyLists

// What ``KeyedUnarchiver/preservesArchivedForm`` decodes Foundation objects to: values that
// remember what Swift's plain values forget — the mutable class an object was archived as, the
// order of a set's or dictionary's members, a time zone's compiled rules — so that archiving them
// again writes the graph that was read. Default decoding never produces them.

/// A decoded value that remembers its archived form (``KeyedUnarchiver/preservesArchivedForm``):
/// ``ArchiveMutable``, ``ArchivedSet``, ``ArchivedDictionary``, ``ArchivedTimeZone``,
/// ``ArchivedLocale`` and ``ArchivedString``.
public protocol ArchivePreservedForm {
  /// What default decoding gives for the same object: the plain Swift value, with the preserved
  /// forms inside it replaced too.
  var plainValue: Any { get }
}

/// Preserved forms that can also be made from what default decoding gives, so that asking for
/// one by type works in both modes (what the plain value does not know is left out: a time
/// zone's rules, Apple's member order).
protocol ArchivePreservedFormLiftable {
  static func lifted(from plainValue: Any) -> Any?
}

extension KeyedUnarchiver {
  /// `value` as default decoding would have given it: every preserved form
  /// (``ArchivePreservedForm``) replaced by its plain value, inside arrays, dictionaries, sets and
  /// ordered sets too. Values without preserved forms come back as they are.
  public static func plainValue(_ value: Any) -> Any {
    switch value {
    case let preserved as any ArchivePreservedForm: return preserved.plainValue
    case let array as [Any]: return array.map { plainValue($0) }
    case let dictionary as [AnyHashable: Any]:
      var result: [AnyHashable: Any] = [:]
      result.reserveCapacity(dictionary.count)
      for (key, member) in dictionary { result[plainHashable(key)] = plainValue(member) }
      return result
    case let set as Set<AnyHashable>: return Set(set.map(plainHashable))
    case let ordered as ArchivedOrderedSet: return ArchivedOrderedSet(ordered.elements.map(plainHashable))
    default: return value
    }
  }

  /// A set member or dictionary key as default decoding would have given it.
  static func plainHashable(_ member: AnyHashable) -> AnyHashable {
    guard member.base is any ArchivePreservedForm, let plain = plainValue(member.base) as? AnyHashable else { return member }
    return plain
  }
}

extension ArchiveMutable: ArchivePreservedForm {
  /// The wrapped value, plain (``KeyedUnarchiver/plainValue(_:)``).
  public var plainValue: Any { KeyedUnarchiver.plainValue(value) }
}


// MARK: - Sets in archived order

/// An `NSSet` with its members in the order they were archived (Apple's hash order), so that
/// archiving it again writes `NS.objects` in that order. Equality is set equality: the order is
/// not part of the value, only of its archive.
public struct ArchivedSet: Hashable, Sequence, CustomStringConvertible {
  /// The members in archived order, kept distinct as an ordered set keeps its members.
  private var ordered = ArchivedOrderedSet()

  /// The members, in archived order.
  public var members: [AnyHashable] { ordered.elements }

  public init() {}

  /// The distinct members of `sequence`, in the order of their first occurrence.
  public init<S: Sequence>(_ sequence: S) where S.Element: Hashable {
    ordered = ArchivedOrderedSet(sequence)
  }

  /// Adds `member` at the end unless it is already a member; returns whether it was added.
  @discardableResult
  public mutating func insert(_ member: AnyHashable) -> Bool { ordered.append(member) }

  public func contains(_ member: AnyHashable) -> Bool { ordered.contains(member) }
  public var count: Int { ordered.count }
  /// The members as a Swift set (what default decoding gives, members not made plain).
  public var set: Set<AnyHashable> { ordered.memberSet }
  public func makeIterator() -> IndexingIterator<[AnyHashable]> { ordered.elements.makeIterator() }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.set == rhs.set }
  public func hash(into hasher: inout Hasher) { hasher.combine(set) }
  public var description: String { "ArchivedSet(\(members))" }
}

extension ArchivedSet: ArchiveFoundationValue, ArchiveMutableFoundationValue, ArchivePreservedForm, ArchivePreservedFormLiftable,
  ArchiveFoundationAliased
{
  public var archiveClass: (name: String, classes: [String]) { ("NSSet", ["NSSet", "NSObject"]) }
  public var mutableArchiveClass: (name: String, classes: [String]) { ("NSMutableSet", ["NSMutableSet", "NSSet", "NSObject"]) }
  static var archivedClassNames: [String] { ["NSSet", "NSMutableSet"] }

  /// `{NS.objects: [UID…]}` in ``members`` order.
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    try coder.encodeReferences(members.lazy.map { $0.base }, forKey: "NS.objects")
  }

  /// A `Set<AnyHashable>` of the plain members.
  public var plainValue: Any { Set(members.map(KeyedUnarchiver.plainHashable)) }

  static func lifted(from plainValue: Any) -> Any? {
    (plainValue as? Set<AnyHashable>).map { ArchivedSet($0) }
  }
}

// MARK: - Dictionaries in archived order

/// An `NSDictionary` with its entries in the order they were archived (`NS.keys` and
/// `NS.objects` as Apple wrote them), so that archiving it again writes that order. Equality
/// compares keys and values as ``ArchivedAttributedString/attributesEqual(_:_:)`` does, order
/// aside.
public struct ArchivedDictionary: CustomStringConvertible {
  /// The keys, in archived order.
  public private(set) var keys: [AnyHashable]
  /// The values, in the order of ``keys``.
  public private(set) var values: [Any]
  private var positions: [AnyHashable: Int]

  public init() {
    keys = []
    values = []
    positions = [:]
  }

  /// The entries of `pairs` in order; a repeated key replaces the earlier value in its place.
  public init<S: Sequence>(_ pairs: S) where S.Element == (AnyHashable, Any) {
    self.init()
    for (key, value) in pairs { self[key] = value }
  }

  /// The value for `key`; setting a new key appends it, setting `nil` removes it.
  public subscript(key: AnyHashable) -> Any? {
    get { positions[key].map { values[$0] } }
    set {
      if let position = positions[key] {
        if let newValue {
          values[position] = newValue
        } else {
          keys.remove(at: position)
          values.remove(at: position)
          positions = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        }
      } else if let newValue {
        positions[key] = keys.count
        keys.append(key)
        values.append(newValue)
      }
    }
  }

  public var count: Int { keys.count }
  /// The entries as a Swift dictionary (what default decoding gives, members not made plain).
  public var dictionary: [AnyHashable: Any] {
    var result: [AnyHashable: Any] = [:]
    result.reserveCapacity(keys.count)
    for (key, value) in zip(keys, values) { result[key] = value }
    return result
  }

  public var description: String {
    "ArchivedDictionary([" + zip(keys, values).map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "])"
  }
}

extension ArchivedDictionary: ArchiveFoundationValue, ArchiveMutableFoundationValue, ArchivePreservedForm,
  ArchivePreservedFormLiftable, ArchiveFoundationAliased
{
  public var archiveClass: (name: String, classes: [String]) { ("NSDictionary", ["NSDictionary", "NSObject"]) }
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"])
  }
  static var archivedClassNames: [String] { ["NSDictionary", "NSMutableDictionary"] }

  /// `{NS.keys: [UID…], NS.objects: [UID…]}` in ``keys`` order: every key first, then every
  /// value, as Apple's archiver and the `Dictionary` encoding write them.
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    var keyReferences: [PropertyListValue] = []
    var valueReferences: [PropertyListValue] = []
    keyReferences.reserveCapacity(keys.count)
    valueReferences.reserveCapacity(values.count)
    for key in keys { keyReferences.append(.uid(try coder.reference(to: key.base))) }
    for value in values { valueReferences.append(.uid(try coder.memberReference(to: value))) }
    coder.encodeRaw(.array(keyReferences), forKey: "NS.keys")
    coder.encodeRaw(.array(valueReferences), forKey: "NS.objects")
  }

  /// A `[AnyHashable: Any]` of the plain keys and values.
  public var plainValue: Any {
    var result: [AnyHashable: Any] = [:]
    result.reserveCapacity(keys.count)
    for (key, value) in zip(keys, values) { result[KeyedUnarchiver.plainHashable(key)] = KeyedUnarchiver.plainValue(value) }
    return result
  }

  static func lifted(from plainValue: Any) -> Any? {
    (plainValue as? [AnyHashable: Any]).map { ArchivedDictionary($0.map { ($0.key, $0.value) }) }
  }
}

extension ArchivedDictionary: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { archiveValuesEqual(lhs.dictionary, rhs.dictionary) }
}

// MARK: - Time zones with their rules

/// An `NSTimeZone` as archived: its name and the compiled rules Apple stores beside it
/// (`NS.data`, the zone's TZif bytes; `$null` for fixed offsets such as `GMT+0100`). Archiving it
/// writes both back, so an Apple archive's rules survive a round trip on machines whose own
/// tzdata differs; ``timeZone`` is the zone looked up by name, as every reader does.
public struct ArchivedTimeZone: Hashable, Sendable, CustomStringConvertible {
  /// How `NS.data` was stored: Apple's archiver writes an `NSMutableData` object.
  enum RulesForm: Hashable, Sendable {
    case mutableDataObject, dataObject, inline
  }

  /// `NS.name`: the zone's identifier (`Europe/Paris`, `GMT`, `GMT+0100`).
  public var identifier: String
  /// `NS.data`: the compiled rules, or `nil` (written as `$null`).
  public var data: Data?
  var rulesForm = RulesForm.mutableDataObject
  /// The `$objects` entry it was decoded from: one object is written per original instance.
  var archivedIdentity: Int?

  /// A zone named `identifier` with the given rules (written as an `NSMutableData`, as Apple
  /// writes them).
  public init(identifier: String, data: Data?) {
    self.identifier = identifier
    self.data = data
  }

  /// The zone named ``identifier`` (`GMT±hhmm` names understood directly), or `nil` when it is
  /// not known here.
  public var timeZone: TimeZone? {
    if let zone = TimeZone(identifier: identifier) { return zone }
    return TimeZone.secondsFromGMT(identifier).flatMap { TimeZone(secondsFromGMT: $0) }
  }

  /// The archiver writes a decoded zone once per original instance, and zones made in code once
  /// per name and rules (a zone without rules shares its object with the `TimeZone` of the same
  /// name, whose archive is the same).
  var sharingKey: String {
    if let archivedIdentity { return "NSTimeZone #\(archivedIdentity)" }
    guard let data else { return "NSTimeZone " + identifier }
    return "NSTimeZone \(identifier) \(rulesForm) \(data.base64EncodedString())"
  }

  public var description: String { "ArchivedTimeZone(\(identifier), \(data.map { "\($0.count) bytes of rules" } ?? "no rules"))" }
}

extension ArchivedTimeZone: ArchiveFoundationValue, ArchivePreservedForm, ArchivePreservedFormLiftable, ArchiveFoundationAliased {
  public var archiveClass: (name: String, classes: [String]) { ("NSTimeZone", ["NSTimeZone", "NSObject"]) }
  static var archivedClassNames: [String] { ["NSTimeZone"] }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.uid(try coder.reference(to: identifier)), forKey: "NS.name")
    guard let data else { return coder.encodeRaw(.uid(0), forKey: "NS.data") }
    switch rulesForm {
    case .mutableDataObject: coder.encodeRaw(.uid(try coder.reference(to: ArchiveMutable(data))), forKey: "NS.data")
    case .dataObject: coder.encodeRaw(.uid(try coder.reference(to: ArchivedDataObject(data: data))), forKey: "NS.data")
    case .inline: coder.encodeRaw(.data(data), forKey: "NS.data")
    }
  }

  /// The `TimeZone` default decoding gives (the zone looked up by name); itself when the zone
  /// is not known here (default decoding refuses such archives).
  public var plainValue: Any { timeZone.map { $0 as Any } ?? self }

  static func lifted(from plainValue: Any) -> Any? {
    (plainValue as? TimeZone).map { ArchivedTimeZone(identifier: $0.identifier, data: nil) }
  }

  /// Reads `{NS.name, NS.data}`, keeping the rules and the way they were stored.
  init(archivedBy coder: ArchiveDecoder) throws {
    let className = "NSTimeZone"
    guard let name = try coder.decode(String.self, forKey: "NS.name") else {
      throw coder.corrupt(className, "has no NS.name string")
    }
    identifier = name
    archivedIdentity = coder.currentObject
    switch coder.storedValue(forKey: "NS.data") {
    case .data(let bytes)?:
      data = bytes
      rulesForm = .inline
    case .uid(let uid)? where uid != 0:
      let rules = try coder.decodeObject(forKey: "NS.data", including: [Data.self])
      switch rules {
      case let mutable as ArchiveMutable<Data>: data = mutable.value
      case let bytes as Data:
        data = bytes
        rulesForm = .dataObject
      default:
        throw KeyedArchiveError(.typeMismatch, "\(coder.location) (\(className)) key \"NS.data\" holds a \(rules.map { "\(type(of: $0))" } ?? "nil"); expected data")
      }
    default:
      // Missing, $null, or something else the default decoder reports.
      data = try coder.storedBytes("NS.data", of: className)
    }
    guard timeZone != nil else {
      throw coder.corrupt(className, "names a time zone that is not known here: \(name.debugDescription)")
    }
  }
}

/// Bytes archived as an `NSData` object (`{NS.data: <bytes>}`) rather than inline, as some
/// archivers write a time zone's rules.
struct ArchivedDataObject: ArchiveFoundationValue {
  var data: Data
  var archiveClass: (name: String, classes: [String]) { ("NSData", ["NSData", "NSObject"]) }
  func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.data(data), forKey: "NS.data")
  }
}

// MARK: - Strings the archive holds more than once

/// A string that the archive held at more than one `$objects` entry (Apple writes one entry per
/// `NSString` instance, so two equal strings from different places stay apart), decoded with
/// ``KeyedUnarchiver/preservesArchivedForm``: archived again, it gets an entry of its own per
/// original entry instead of sharing one with every equal string. Strings held once decode to
/// `String` as usual, and so does any string asked for as `String`.
public struct ArchivedString: Hashable, Sendable, CustomStringConvertible {
  public var value: String
  /// The `$objects` entry it was decoded from; `nil` for one made in code (written as any string).
  var archivedIdentity: Int?

  public init(_ value: String) { self.value = value }

  init(_ value: String, archivedIdentity: Int) {
    self.value = value
    self.archivedIdentity = archivedIdentity
  }

  /// Equal when the strings are (the entry it came from is not part of the value).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
  public func hash(into hasher: inout Hasher) { hasher.combine(value) }
  public var description: String { value }
}

extension ArchivedString: ArchivePreservedForm, ArchivePreservedFormLiftable {
  public var plainValue: Any { value }
  static func lifted(from plainValue: Any) -> Any? { (plainValue as? String).map { ArchivedString($0) } }
}

/// A decoded string in either form (`String` or ``ArchivedString``).
func archivedStringValue(_ value: Any?) -> String? {
  if let string = value as? String { return string }
  return (value as? ArchivedString)?.value
}

/// The entries of a decoded dictionary in any of its forms (`[AnyHashable: Any]`,
/// ``ArchivedDictionary``, ``ArchiveMutable`` of one); values as decoded.
func archivedDictionaryEntries(_ value: Any) -> [AnyHashable: Any]? {
  if let ordered = value as? ArchivedDictionary { return ordered.dictionary }
  if let mutable = value as? ArchiveMutable<ArchivedDictionary> { return mutable.value.dictionary }
  return value as? [AnyHashable: Any]
}

// MARK: - Locales as instances

/// An `NSLocale` decoded with ``KeyedUnarchiver/preservesArchivedForm``: its identifier, and
/// which `$objects` entry it was, so that archiving it again writes one object per original
/// instance (Apple may archive two equal locale instances; a `Locale` is written once per
/// identifier). ``locale`` is the `Locale` default decoding gives.
public struct ArchivedLocale: Hashable, Sendable, CustomStringConvertible {
  public var identifier: String
  /// The original entry of the identifier string when the archive held that string more than once.
  var identifierIdentity: Int?
  var archivedIdentity: Int?

  public init(identifier: String) { self.identifier = identifier }

  /// The locale named ``identifier``.
  public var locale: Locale { Locale(identifier: identifier) }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.identifier == rhs.identifier }
  public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
  public var description: String { "ArchivedLocale(\(identifier))" }

  /// One object per original instance; one per identifier for locales made in code (as
  /// `Locale`, with which they share it).
  var sharingKey: String {
    archivedIdentity.map { "NSLocale #\($0)" } ?? "NSLocale " + identifier
  }
}

extension ArchivedLocale: ArchiveFoundationValue, ArchivePreservedForm, ArchivePreservedFormLiftable, ArchiveFoundationAliased {
  public var archiveClass: (name: String, classes: [String]) { ("NSLocale", ["NSLocale", "NSObject"]) }
  static var archivedClassNames: [String] { ["NSLocale"] }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    let name: Any = identifierIdentity.map { ArchivedString(identifier, archivedIdentity: $0) } ?? identifier
    coder.encodeRaw(.uid(try coder.reference(to: name)), forKey: "NS.identifier")
  }

  public var plainValue: Any { locale }
  static func lifted(from plainValue: Any) -> Any? { (plainValue as? Locale).map { ArchivedLocale(identifier: $0.identifier) } }

  init(archivedBy coder: ArchiveDecoder) throws {
    guard let name = try coder.decodeObject(forKey: "NS.identifier", including: [String.self]) else {
      throw coder.corrupt("NSLocale", "has no NS.identifier string")
    }
    if let repeated = name as? ArchivedString {
      identifier = repeated.value
      identifierIdentity = repeated.archivedIdentity
    } else if let plain = name as? String {
      identifier = plain
    } else {
      throw KeyedArchiveError(.typeMismatch, "\(coder.location) (NSLocale) key \"NS.identifier\" holds a \(type(of: name)); expected a string")
    }
    archivedIdentity = coder.currentObject
  }
}
