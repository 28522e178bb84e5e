import FoundationEssentials
import PropertyLists

/// A string with attributes over runs of it: what `NSAttributedString` and
/// `NSMutableAttributedString` decode to, and encode from.
///
/// Archived as `{NSString: UID → the string, NSAttributes: …}`. When one run of attributes covers
/// the whole string, `NSAttributes` refers to that dictionary; otherwise it refers to an
/// `NSMutableArray` of the distinct attribute dictionaries, and `NSAttributeInfo` refers to an
/// `NSMutableData` holding, per run, two base-128 varints: the run's length and the index of its
/// dictionary. Lengths and ranges count UTF-16 code units, as `NSString` does.
///
/// Attribute values are decoded with the classes the enclosing decode call allows (plus the
/// property-list types), so archives with custom attribute classes need those classes named:
/// `decodeObject(of: [ArchivedAttributedString.self, Font.self], forKey: "title")`.
public struct ArchivedAttributedString: CustomStringConvertible {
  /// One attribute run.
  public struct Run {
    /// The run's characters, in UTF-16 code units of ``ArchivedAttributedString/string``.
    public var range: Range<Int>
    /// The attributes, by name (`NSFontAttributeName` is `"NSFont"`…).
    public var attributes: [String: Any]
    /// The run's entry in the archived attribute table (`NSAttributeInfo`'s index), kept when
    /// decoded so that re-archiving writes Apple's table back: Apple uniques attribute
    /// dictionaries by identity, so two equal dictionaries may have two entries.
    var tableIndex: Int?
    /// The attribute dictionary as decoded with ``KeyedUnarchiver/preservesArchivedForm``
    /// (an ``ArchivedDictionary``, or an ``ArchiveMutable`` of one), written again in its place
    /// while ``attributes`` still equals it.
    var archivedAttributes: Any?

    public init(range: Range<Int>, attributes: [String: Any]) {
      self.range = range
      self.attributes = attributes
    }
  }

  public var string: String
  /// Runs in order, covering the string from UTF-16 offset 0 to its end without gaps; none for
  /// an empty string.
  public var runs: [Run]
  /// With ``KeyedUnarchiver/preservesArchivedForm``: whether the string was archived as an
  /// `NSMutableString` object, and whether the attribute table was an `NSArray` rather than
  /// Apple's usual `NSMutableArray` (written back so).
  var stringArchivedMutable = false
  var tableArchivedImmutable = false

  /// A string whose every character has `attributes`.
  public init(string: String, attributes: [String: Any] = [:]) {
    self.string = string
    let length = string.utf16.count
    runs = length == 0 ? [] : [Run(range: 0..<length, attributes: attributes)]
  }

  /// A string with the given runs, which must cover it (checked when archiving).
  public init(string: String, runs: [Run]) {
    self.string = string
    self.runs = runs
  }

  public var description: String {
    "ArchivedAttributedString(\(string.debugDescription), \(runs.count) runs)"
  }

  /// Whether two attribute dictionaries are equal: the same keys, and values that are equal
  /// (for `Hashable` values) or the same instance (for class instances).
  public static func attributesEqual(_ lhs: [String: Any], _ rhs: [String: Any]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for (key, left) in lhs {
      guard let right = rhs[key], archiveValuesEqual(left, right) else { return false }
    }
    return true
  }
}

/// Equality for decoded archive values: `Hashable` values by `==`, arrays and dictionaries
/// member by member, class instances by identity.
func archiveValuesEqual(_ lhs: Any, _ rhs: Any) -> Bool {
  if let left = lhs as? any ArchivePreservedForm, let right = rhs as? any ArchivePreservedForm {
    return type(of: left) == type(of: right) && archiveValuesEqual(left.plainValue, right.plainValue)
  }
  if let left = lhs as? [Any], let right = rhs as? [Any] {
    return left.count == right.count && zip(left, right).allSatisfy { archiveValuesEqual($0, $1) }
  }
  if let left = lhs as? [AnyHashable: Any], let right = rhs as? [AnyHashable: Any] {
    guard left.count == right.count else { return false }
    return left.allSatisfy { key, value in right[key].map { archiveValuesEqual(value, $0) } ?? false }
  }
  if let left = lhs as? [String: Any], let right = rhs as? [String: Any] {
    return ArchivedAttributedString.attributesEqual(left, right)
  }
  if type(of: lhs) is AnyClass, type(of: rhs) is AnyClass {
    return (lhs as AnyObject) === (rhs as AnyObject)
  }
  if let left = lhs as? AnyHashable, let right = rhs as? AnyHashable { return left == right }
  return false
}

extension ArchivedAttributedString.Run {
  /// What the archiver writes for this run's attributes: the dictionary as it was decoded
  /// (``KeyedUnarchiver/preservesArchivedForm``) while ``attributes`` still equals it, else
  /// ``attributes``.
  var attributesToArchive: Any {
    guard let archivedAttributes else { return attributes }
    let decoded: ArchivedDictionary? =
      if let ordered = archivedAttributes as? ArchivedDictionary { ordered }
      else { (archivedAttributes as? ArchiveMutable<ArchivedDictionary>)?.value }
    guard let decoded else { return attributes }
    var entries: [String: Any] = [:]
    for (key, value) in zip(decoded.keys, decoded.values) {
      guard let name = archivedStringValue(key.base) else { return attributes }
      entries[name] = value
    }
    return ArchivedAttributedString.attributesEqual(entries, attributes) ? archivedAttributes : attributes
  }
}

extension ArchivedAttributedString: ArchiveFoundationValue, ArchiveMutableFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSAttributedString", ["NSAttributedString", "NSObject"]) }
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableAttributedString", ["NSMutableAttributedString", "NSAttributedString", "NSObject"])
  }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    let length = string.utf16.count
    var position = 0
    for run in runs {
      guard run.range.lowerBound == position, !run.range.isEmpty else {
        throw KeyedArchiveError(.invalidValue, "cannot archive the attributed string: its runs must cover it in order without gaps or empty runs (a run starts at \(run.range.lowerBound), expected \(position))")
      }
      position = run.range.upperBound
    }
    guard position == length else {
      throw KeyedArchiveError(.invalidValue, "cannot archive the attributed string: its runs cover \(position) UTF-16 units of \(length)")
    }
    let stringObject: Any = stringArchivedMutable ? ArchiveMutable(string) : string
    coder.encodeRaw(.uid(try coder.reference(to: stringObject)), forKey: "NSString")
    if runs.isEmpty { return }
    if runs.count == 1 {
      coder.encodeRaw(.uid(try coder.reference(to: runs[0].attributesToArchive)), forKey: "NSAttributes")
      return
    }
    var distinct: [Any] = []
    /// The entries of a rebuilt table (when the decoded one cannot be used), to merge equal ones.
    var rebuilt: [[String: Any]] = []
    var info: [UInt8] = []
    let table = decodedTable()
    for run in runs {
      let index: Int
      if let table, let decoded = run.tableIndex {
        index = decoded
        if index == distinct.count { distinct.append(table[index]) }
      } else if let found = rebuilt.firstIndex(where: { Self.attributesEqual($0, run.attributes) }) {
        index = found
      } else {
        index = distinct.count
        distinct.append(run.attributes)
        rebuilt.append(run.attributes)
      }
      ArchiveVarint.append(UInt64(run.range.count), to: &info)
      ArchiveVarint.append(UInt64(index), to: &info)
    }
    let tableObject: Any = tableArchivedImmutable ? distinct : ArchiveMutable(distinct)
    coder.encodeRaw(.uid(try coder.reference(to: tableObject)), forKey: "NSAttributes")
    coder.encodeRaw(.uid(try coder.reference(to: ArchiveMutable(Data(info)))), forKey: "NSAttributeInfo")
  }

  /// The attribute table the runs were decoded with, when every run still has its entry, the
  /// entries are used in first-use order, and runs sharing an entry still have equal attributes;
  /// else `nil` (the table is rebuilt, equal dictionaries merged). Each entry is what
  /// ``Run/attributesToArchive`` gives for its first run.
  func decodedTable() -> [Any]? {
    var table: [Any] = []
    var plainTable: [[String: Any]] = []
    for run in runs {
      guard let index = run.tableIndex else { return nil }
      if index == table.count {
        table.append(run.attributesToArchive)
        plainTable.append(run.attributes)
      } else if index > table.count || !Self.attributesEqual(plainTable[index], run.attributes) {
        return nil
      }
    }
    return table
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    let className = "NSAttributedString"
    guard let string = try coder.decode(String.self, forKey: "NSString") else {
      throw coder.corrupt(className, "has no NSString")
    }
    self.string = string
    runs = []
    let preserving = coder.unarchiver.preservesArchivedForm
    if preserving, case .uid(let uid)? = coder.storedValue(forKey: "NSString"), coder.unarchiver.plainString(at: uid) == nil {
      stringArchivedMutable = try coder.decodeObject(forKey: "NSString", including: [String.self]) is ArchiveMutable<String>
    }
    let length = string.utf16.count
    let containers: [Any.Type] = [[Any].self, [AnyHashable: Any].self]
    let attributes = try coder.decodeObject(forKey: "NSAttributes", including: containers)
    guard coder.storedValue(forKey: "NSAttributeInfo") != nil else {
      // No run table: one dictionary for the whole string, or no attributes at all.
      guard let attributes else { return }
      let dictionary = try Self.attributeDictionary(attributes, coder)
      if length > 0 {
        var run = Run(range: 0..<length, attributes: dictionary)
        if preserving { run.archivedAttributes = attributes }
        runs = [run]
      }
      return
    }
    let list: [Any]
    if let plainList = attributes as? [Any] {
      list = plainList
      tableArchivedImmutable = preserving
    } else if let mutableList = attributes as? ArchiveMutable<[Any]> {
      list = mutableList.value
    } else {
      throw coder.corrupt(className, "has NSAttributeInfo but NSAttributes is not an array of dictionaries")
    }
    let dictionaries = try list.map { try Self.attributeDictionary($0, coder) }
    guard let info = try coder.storedBytes("NSAttributeInfo", of: className) else {
      throw coder.corrupt(className, "has an NSAttributeInfo that is $null")
    }
    let numbers: [UInt64]
    switch ArchiveVarint.decodeAll(info) {
    case .success(let values): numbers = values
    case .failure(let failure): throw coder.corrupt(className, "has NSAttributeInfo in which \(failure.description)")
    }
    guard numbers.count % 2 == 0 else {
      throw coder.corrupt(className, "has NSAttributeInfo with \(numbers.count) numbers; runs come in (length, index) pairs")
    }
    var position = 0
    runs.reserveCapacity(numbers.count / 2)
    for pair in stride(from: 0, to: numbers.count, by: 2) {
      guard numbers[pair] <= UInt64(length - position) else {
        throw coder.corrupt(className, "has attribute runs longer than its string of \(length) UTF-16 units")
      }
      let runLength = Int(numbers[pair])
      guard numbers[pair + 1] < UInt64(dictionaries.count) else {
        throw coder.corrupt(className, "has a run using attribute dictionary \(numbers[pair + 1]) of \(dictionaries.count)")
      }
      if runLength > 0 {
        var run = Run(range: position..<(position + runLength), attributes: dictionaries[Int(numbers[pair + 1])])
        run.tableIndex = Int(numbers[pair + 1])
        if preserving { run.archivedAttributes = list[Int(numbers[pair + 1])] }
        runs.append(run)
      }
      position += runLength
    }
    guard position == length else {
      throw coder.corrupt(className, "has attribute runs covering \(position) of its \(length) UTF-16 units")
    }
  }

  /// An attribute dictionary as decoded (plain, or an ``ArchivedDictionary`` possibly wrapped in
  /// ``ArchiveMutable``), with string keys.
  private static func attributeDictionary(_ value: Any, _ coder: ArchiveDecoder) throws -> [String: Any] {
    guard let dictionary = archivedDictionaryEntries(value) else {
      throw KeyedArchiveError(.typeMismatch, "\(coder.location) (NSAttributedString) has attributes of type \(type(of: value)); expected a dictionary")
    }
    var result: [String: Any] = [:]
    result.reserveCapacity(dictionary.count)
    for (key, value) in dictionary {
      guard let name = archivedStringValue(key.base) else {
        throw KeyedArchiveError(.typeMismatch, "\(coder.location) (NSAttributedString) has an attribute named by a \(type(of: key.base)); expected a string")
      }
      result[name] = value
    }
    return result
  }
}
