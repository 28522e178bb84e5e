public import FoundationEssentials
internal import PropertyLists

/// Writes a binary keyed archive of Foundation values — strings, numbers, Booleans, data, dates,
/// and arrays and string-keyed dictionaries of them — straight into the binary property list,
/// without the `$objects` and document trees ``KeyedArchiver`` builds: the same bytes
/// ``KeyedArchiver`` writes for the same calls, several times faster, for large tables of plain
/// values (a restoration snapshot's columns).
///
/// ```swift
/// let archiver = FoundationValueArchiver()
/// try archiver.encode(1, forKey: "format")
/// try archiver.encode(strings: ["a", "b", "a"], forKey: "names")    // an NSArray of NSStrings
/// let data = try archiver.finishEncoding()                           // as KeyedArchiver's
/// ```
///
/// Anything else — class instances, registered value types, `nil` inside a collection (which
/// ``KeyedArchiver`` writes as `NSNull`), the string `"$null"` (an `NSMutableString` there) — is
/// refused with `KeyedArchiveError.Code.invalidValue`, before anything is written: archive such
/// values with ``KeyedArchiver``.
///
/// How it stays byte-identical: `$objects` is numbered as ``KeyedArchiver`` numbers it (an
/// object's UID before its members, its class entry after them on the class's first use,
/// scalars uniqued by exact value), and each finished run of `$objects` entries is handed to the
/// binary writer's own numbering and uniquing (`BinaryPlistBuilder`) in the order the binary
/// writer would visit the finished archive.
public final class FoundationValueArchiver {
  /// A `$objects` entry not yet handed to the binary builder.
  private enum Entry {
    /// A string, number, Boolean or data, stored inline.
    case scalar(PropertyListValue)
    /// `{NS.objects: [UIDs], $class}`: the UIDs are `memberUIDs[first ..< first + count]`.
    case array(classUID: UInt64, first: Int, count: Int)
    /// `{NS.keys: [UIDs], NS.objects: [UIDs], $class}`: keys then values in `memberUIDs`.
    case dictionary(classUID: UInt64, first: Int, count: Int)
    /// `{NS.time: seconds since 2001, $class}`.
    case date(classUID: UInt64, time: Double)
    /// `{$classes: [names], $classname: name}`.
    case classEntry(name: String, classes: [String])
    /// An object whose members are still being written.
    case unfinished
  }

  /// Classes this writer writes: name, `$classes`, and the UID of its class entry once written.
  private struct ArchivedClassEntry {
    let name: String
    let classes: [String]
    var uid: UInt64?
  }

  /// Containers nested deeper than this throw `KeyedArchiveError.Code.limitExceeded`
  /// (``KeyedArchiver/maximumDepth``'s default).
  public var maximumDepth = 512
  /// Archives with more `$objects` than this throw `KeyedArchiveError.Code.limitExceeded`
  /// (``KeyedArchiver/maximumObjectCount``'s default).
  public var maximumObjectCount = 1 << 22

  // The state below is touched for every value; its accesses never overlap (one thread, no inout
  // access held across a call that could reach it), so it goes without runtime exclusivity
  // checks, as KeyedArchiver's does.
  @exclusivity(unchecked) private var entries: [Entry] = [.scalar(.string("$null"))]
  /// The first entry not yet handed to the builder.
  @exclusivity(unchecked) private var firstUnwritten = 0
  /// Members' UIDs of arrays and dictionaries, each container's run contiguous.
  @exclusivity(unchecked) private var memberUIDs: [UInt64] = []
  /// Scratch stack where members' UIDs gather until their container is complete.
  @exclusivity(unchecked) private var pendingUIDs: [UInt64] = []
  @exclusivity(unchecked) private var scalars = ExactScalarTable()
  @exclusivity(unchecked) private var arrayClass = ArchivedClassEntry(name: "NSArray", classes: ["NSArray", "NSObject"])
  @exclusivity(unchecked) private var dictionaryClass = ArchivedClassEntry(name: "NSDictionary", classes: ["NSDictionary", "NSObject"])
  @exclusivity(unchecked) private var dateClass = ArchivedClassEntry(name: "NSDate", classes: ["NSDate", "NSObject"])
  /// `$top`, in the order keys were first encoded.
  private var topKeys: [String] = []
  private var topUIDs: [UInt64] = []
  private var topPositions: [String: Int] = [:]
  @exclusivity(unchecked) private var depth = 0
  private var finished = false

  // The document, in the binary writer's order: {"$version", "$objects", "$archiver", "$top"},
  // 100000, then `$objects`' entries as they are finished.
  @exclusivity(unchecked) private var builder = BinaryPlistBuilder()
  private let document: BinaryPlistBuilder.Container
  private let objectsArray: BinaryPlistBuilder.Container

  public init() {
    document = builder.openContainer()
    for key in ["$version", "$objects", "$archiver", "$top"] { builder.push(builder.key(key)) }
    builder.push(builder.scalar(.integer(100_000)))
    objectsArray = builder.openContainer()
  }

  // MARK: - Encoding

  /// Encodes `value` (a plain Foundation value, see the type's summary) under the top-level key
  /// `key`; `nil` is `$null`.
  public func encode(_ value: Any?, forKey key: String) throws {
    try encodeTop(key) { try reference(to: value) }
  }

  /// Encodes an array of strings under `key`: ``KeyedArchiver/encode(strings:forKey:)``'s bytes.
  public func encode(strings: [String], forKey key: String) throws {
    try encodeTop(key) {
      try array(count: strings.count) {
        for string in strings {
          guard string != "$null" else { throw Self.refused("the string \"$null\"") }
          pendingUIDs.append(inline(.string(string)))
        }
      }
    }
  }

  /// Encodes an array of integers under `key`: ``KeyedArchiver/encode(integers:forKey:)``'s bytes.
  public func encode(integers: [Int], forKey key: String) throws {
    try encodeTop(key) {
      try array(count: integers.count) {
        for integer in integers { pendingUIDs.append(inline(.integer(PropertyListInteger(Int64(integer))))) }
      }
    }
  }

  /// Encodes an array of plain Foundation values under `key`: the bytes of
  /// ``KeyedArchiver/encode(_:forKey:)`` for the same array.
  public func encode(values: [Any], forKey key: String) throws {
    try encodeTop(key) {
      try array(count: values.count) {
        for value in values { pendingUIDs.append(try reference(to: value)) }
      }
    }
  }

  /// The archive's bytes (a binary property list). The archiver cannot be used after.
  public func finishEncoding() throws -> Data {
    precondition(!finished, "FoundationValueArchiver finished twice")
    finished = true
    writeFinishedEntries()
    builder.push(builder.closeArray(objectsArray))
    builder.push(builder.scalar(.string("NSKeyedArchiver")))
    let top = builder.openContainer()
    for key in topKeys { builder.push(builder.key(key)) }
    for uid in topUIDs { builder.push(builder.uid(uid)) }
    builder.push(builder.closeDictionary(top))
    builder.closeDictionary(document)
    return builder.finish()
  }

  /// Runs `body` for a top-level value; on an error, the entries it added are taken back, so a
  /// refused value leaves the archive as it was.
  private func encodeTop(_ key: String, _ body: () throws -> UInt64) throws {
    precondition(!finished, "FoundationValueArchiver used after finishEncoding()")
    let state = (entries.count, memberUIDs.count, arrayClass.uid, dictionaryClass.uid, dateClass.uid)
    let uid: UInt64
    do {
      uid = try body()
    } catch {
      // Scalars added meanwhile stay in the uniquing table pointing past the end: rebuild it.
      entries.removeSubrange(state.0...)
      memberUIDs.removeSubrange(state.1...)
      pendingUIDs.removeAll()
      (arrayClass.uid, dictionaryClass.uid, dateClass.uid) = (state.2, state.3, state.4)
      depth = 0
      rebuildScalarTable()
      throw error
    }
    let escaped = key.utf8.first == UInt8(ascii: "$") && key.hasPrefix("$") ? "$" + key : key
    if let position = topPositions[escaped] {
      topUIDs[position] = uid
    } else {
      topPositions[escaped] = topKeys.count
      topKeys.append(escaped)
      topUIDs.append(uid)
    }
    writeFinishedEntries()
  }

  private func rebuildScalarTable() {
    scalars = ExactScalarTable()
    for index in entries.indices {
      if case .scalar(let value) = entries[index] { _ = scalars.number(for: value) { UInt64(index) } }
    }
  }

  // MARK: - $objects

  @inline(__always)
  private func inline(_ value: PropertyListValue) -> UInt64 {
    scalars.number(for: value) {
      entries.append(.scalar(value))
      return UInt64(entries.count - 1)
    }
  }

  /// The UID of a value, as ``KeyedArchiver``'s general path numbers it.
  private func reference(to value: Any?) throws -> UInt64 {
    guard let value else { return 0 }
    return try reference(to: value)
  }

  /// The UID of a value: the common types by their exact type first (one comparison each, where
  /// a chain of failed casts costs tens of nanoseconds per type), then the casts
  /// ``KeyedArchiver`` makes, in its order, for everything else (other integer widths, optionals,
  /// bridged classes).
  private func reference(to value: Any) throws -> UInt64 {
    let type = ObjectIdentifier(Swift.type(of: value))
    if type == ObjectIdentifier(String.self) { return try stringReference(value as! String) }
    if type == ObjectIdentifier(Int.self) { return inline(.integer(PropertyListInteger(Int64(value as! Int)))) }
    if type == ObjectIdentifier(Double.self) { return inline(.real(value as! Double)) }
    if type == ObjectIdentifier(Bool.self) { return inline(.bool(value as! Bool)) }
    // Arrays of one scalar type: their members written without boxing each in `Any`.
    if type == ObjectIdentifier([Double].self) {
      let list = value as! [Double]
      return try array(count: list.count) { for number in list { pendingUIDs.append(inline(.real(number))) } }
    }
    if type == ObjectIdentifier([Int].self) {
      let list = value as! [Int]
      return try array(count: list.count) {
        for number in list { pendingUIDs.append(inline(.integer(PropertyListInteger(Int64(number))))) }
      }
    }
    if type == ObjectIdentifier([String].self) {
      let list = value as! [String]
      return try array(count: list.count) { for string in list { pendingUIDs.append(try stringReference(string)) } }
    }
    if type == ObjectIdentifier([Any].self) {
      let list = value as! [Any]
      return try array(count: list.count) { for member in list { pendingUIDs.append(try reference(to: member)) } }
    }
    if type == ObjectIdentifier([String: Any].self) { return try dictionary(value as! [String: Any]) }
    if type == ObjectIdentifier(Date.self) { return try dateReference(value as! Date) }
    switch value {
    case let string as String: return try stringReference(string)
    case let flag as Bool: return inline(.bool(flag))
    case let number as Int: return inline(.integer(PropertyListInteger(Int64(number))))
    case let number as Int64: return inline(.integer(PropertyListInteger(number)))
    case let number as Int32: return inline(.integer(PropertyListInteger(Int64(number))))
    case let number as Int16: return inline(.integer(PropertyListInteger(Int64(number))))
    case let number as Int8: return inline(.integer(PropertyListInteger(Int64(number))))
    case let number as UInt: return inline(.integer(PropertyListInteger(UInt64(number))))
    case let number as UInt64: return inline(.integer(PropertyListInteger(number)))
    case let number as UInt32: return inline(.integer(PropertyListInteger(Int64(number))))
    case let number as UInt16: return inline(.integer(PropertyListInteger(Int64(number))))
    case let number as UInt8: return inline(.integer(PropertyListInteger(Int64(number))))
    case let number as Double: return inline(.real(number))
    case let number as Float: return inline(.real(Double(number), width: .single))
    case let data as Data: return inline(.data(data))
    case let date as Date: return try dateReference(date)
    case let list as [Any]:
      return try array(count: list.count) {
        for member in list { pendingUIDs.append(try reference(to: member)) }
      }
    default:
      // A dictionary is taken only when it is a `[String: Any]` already (above): a cast from
      // another type makes a new dictionary, whose order (and so the bytes) could differ from
      // ``KeyedArchiver``'s. `nil` inside a collection (``KeyedArchiver`` writes `NSNull`)
      // arrives here as an empty optional.
      if Mirror(reflecting: value).displayStyle == .optional { throw Self.refused("nil inside a collection") }
      throw Self.refused("a value of type \(Swift.type(of: value))")
    }
  }

  /// An `NSDate`: `{NS.time, $class}`.
  private func dateReference(_ date: Date) throws -> UInt64 {
    try checkRoom()
    let uid = UInt64(entries.count)
    entries.append(.unfinished)
    // The class entry, on first use, comes after the date's own.
    entries[Int(uid)] = .date(classUID: classUID(&dateClass), time: date.timeIntervalSinceReferenceDate)
    return uid
  }

  @inline(__always)
  private func stringReference(_ string: String) throws -> UInt64 {
    guard string != "$null" else { throw Self.refused("the string \"$null\"") }
    return inline(.string(string))
  }

  /// An `NSArray` whose members `body` pushes onto `pendingUIDs`.
  private func array(count: Int, _ body: () throws -> Void) throws -> UInt64 {
    try checkRoom(adding: count)
    let uid = UInt64(entries.count)
    entries.append(.unfinished)
    let mark = pendingUIDs.count
    try nested(body)
    let first = memberUIDs.count
    memberUIDs.append(contentsOf: pendingUIDs[mark...])
    pendingUIDs.removeSubrange(mark...)
    entries[Int(uid)] = .array(classUID: classUID(&arrayClass), first: first, count: memberUIDs.count - first)
    return uid
  }

  /// An `NSDictionary`: all its keys, then all its values, in the dictionary's order.
  private func dictionary(_ dictionary: [String: Any]) throws -> UInt64 {
    try checkRoom(adding: 2 * dictionary.count)
    let uid = UInt64(entries.count)
    entries.append(.unfinished)
    let mark = pendingUIDs.count
    try nested {
      for (key, _) in dictionary { pendingUIDs.append(try reference(to: key)) }
      for (_, value) in dictionary { pendingUIDs.append(try reference(to: value)) }
    }
    let first = memberUIDs.count
    memberUIDs.append(contentsOf: pendingUIDs[mark...])
    pendingUIDs.removeSubrange(mark...)
    entries[Int(uid)] = .dictionary(classUID: classUID(&dictionaryClass), first: first, count: dictionary.count)
    return uid
  }

  /// The UID of a class's entry, written after the members of its first object.
  private func classUID(_ archivedClass: inout ArchivedClassEntry) -> UInt64 {
    if let uid = archivedClass.uid { return uid }
    let uid = UInt64(entries.count)
    entries.append(.classEntry(name: archivedClass.name, classes: archivedClass.classes))
    archivedClass.uid = uid
    return uid
  }

  private func nested(_ body: () throws -> Void) throws {
    depth += 1
    defer { depth -= 1 }
    guard depth <= maximumDepth else {
      throw KeyedArchiveError(.limitExceeded, "the values nest deeper than \(maximumDepth) levels")
    }
    try body()
  }

  private func checkRoom(adding count: Int = 0) throws {
    guard entries.count + count < maximumObjectCount else {
      throw KeyedArchiveError(.limitExceeded, "the archive would hold more than \(maximumObjectCount) objects")
    }
  }

  private static func refused(_ what: String) -> KeyedArchiveError {
    KeyedArchiveError(.invalidValue, "\(what) is not a plain Foundation value this writer writes; archive it with KeyedArchiver")
  }

  // MARK: - The binary property list

  /// Hands the finished entries to the builder, in `$objects` order, each laid out as the binary
  /// writer lays out the dictionary ``KeyedArchiver`` stores.
  private func writeFinishedEntries() {
    while firstUnwritten < entries.count {
      switch entries[firstUnwritten] {
      case .scalar(let value):
        builder.push(builder.scalar(value))
      case .array(let classUID, let first, let count):
        writeObject(keys: Self.arrayKeys) {
          builder.push(uidArray(first, count))
          builder.push(builder.uid(classUID))
        }
      case .dictionary(let classUID, let first, let count):
        writeObject(keys: Self.dictionaryKeys) {
          builder.push(uidArray(first, count))
          builder.push(uidArray(first + count, count))
          builder.push(builder.uid(classUID))
        }
      case .date(let classUID, let time):
        writeObject(keys: Self.dateKeys) {
          builder.push(builder.scalar(.real(time)))
          builder.push(builder.uid(classUID))
        }
      case .classEntry(let name, let classes):
        writeObject(keys: Self.classEntryKeys) {
          let list = builder.openContainer()
          for member in classes { builder.push(builder.scalar(.string(member))) }
          builder.push(builder.closeArray(list))
          builder.push(builder.scalar(.string(name)))
        }
      case .unfinished:
        preconditionFailure("an unfinished $objects entry reached the writer")
      }
      firstUnwritten += 1
    }
  }

  // The keys of each kind of object dictionary, in the order KeyedArchiver writes them.
  private static let arrayKeys = ["NS.objects", "$class"]
  private static let dictionaryKeys = ["NS.keys", "NS.objects", "$class"]
  private static let dateKeys = ["NS.time", "$class"]
  private static let classEntryKeys = ["$classes", "$classname"]

  /// One object dictionary: its keys, then the values `values` pushes (the binary writer's order).
  private func writeObject(keys: [String], _ values: () -> Void) {
    let object = builder.openContainer()
    for key in keys { builder.push(builder.key(key)) }
    values()
    builder.push(builder.closeDictionary(object))
  }

  private func uidArray(_ first: Int, _ count: Int) -> Int {
    let list = builder.openContainer()
    for index in first..<(first + count) { builder.push(builder.uid(memberUIDs[index])) }
    return builder.closeArray(list)
  }
}
