internal import FoundationEssentials
internal import InterfaceObjects

/// Every node's state values, one after the other, as snapshot format 3 stores them: the common
/// scalar values (integers, reals, strings, Booleans, and arrays of one of the first three) in
/// typed columns, one `NSData` each, and only the other values (dictionaries, dates, data, mixed
/// arrays, an app's archivable classes) as members of an `NSArray`.
///
/// A 10,000-node state of strings, numbers and offsets is then a handful of data objects instead
/// of 30,000 property-list objects, which is most of the time writing and reading it took.
///
/// Keys (see ``Snapshot``'s summary): `StasisStateTypes` (one byte per value, ``Tag``),
/// `StasisStateIntegers` (packed, see `PackedIntegers`), `StasisStateReals` (8-byte
/// little-endian IEEE 754 doubles), `StasisStateText` (UTF-8, one string after another) with
/// `StasisStateTextLengths` (packed byte counts), `StasisStateArrayCounts` (packed, one per array
/// value) and `StasisStateValues` (the other values).
struct StateValueColumns {
  /// How a value is stored; its raw value is the byte in `StasisStateTypes`.
  enum Tag: UInt8 {
    /// The next member of `StasisStateValues`.
    case general = 0
    /// The next integer of `StasisStateIntegers`.
    case integer = 1
    /// The next real of `StasisStateReals`.
    case real = 2
    /// The next string of `StasisStateText`.
    case string = 3
    case `false` = 4
    case `true` = 5
    /// An array: its count is the next of `StasisStateArrayCounts`, its members the next reals,
    /// integers or strings. An empty array is stored as an array of integers.
    case reals = 6
    case integers = 7
    case strings = 8
  }

  enum Key {
    static let types = "StasisStateTypes"
    static let integers = "StasisStateIntegers"
    static let reals = "StasisStateReals"
    static let text = "StasisStateText"
    static let textLengths = "StasisStateTextLengths"
    static let arrayCounts = "StasisStateArrayCounts"
    static let general = "StasisStateValues"
  }

  private(set) var types: [UInt8] = []
  private(set) var integers: [Int] = []
  /// The reals' bit patterns.
  private(set) var reals: [UInt64] = []
  private(set) var text: [UInt8] = []
  private(set) var textLengths: [Int] = []
  private(set) var arrayCounts: [Int] = []
  private(set) var general: [Any] = []

  init(capacity: Int = 0) {
    types.reserveCapacity(capacity)
  }

  /// How many values there are.
  var count: Int { types.count }

  /// Lets go of every value, keeping the room.
  mutating func empty() {
    types.removeAll(keepingCapacity: true)
    integers.removeAll(keepingCapacity: true)
    reals.removeAll(keepingCapacity: true)
    text.removeAll(keepingCapacity: true)
    textLengths.removeAll(keepingCapacity: true)
    arrayCounts.removeAll(keepingCapacity: true)
    general.removeAll(keepingCapacity: true)
  }

  /// Whether the value at `offset` is kept as a general value.
  func isGeneral(at offset: Int) -> Bool { types[offset] == Tag.general.rawValue }

  /// The values at the offsets `keep` accepts, with their members, in order.
  func keeping(_ keep: (Int) -> Bool) -> StateValueColumns {
    var kept = StateValueColumns(capacity: count)
    var next = (integer: 0, real: 0, string: 0, textByte: 0, array: 0, general: 0)
    for (offset, tag) in types.enumerated() {
      // The members the value takes from each column.
      var take = (integers: 0, reals: 0, strings: 0, arrays: 0, general: 0)
      switch Tag(rawValue: tag) {
      case .general: take.general = 1
      case .integer: take.integers = 1
      case .real: take.reals = 1
      case .string: take.strings = 1
      case .reals: take = (0, arrayCounts[next.array], 0, 1, 0)
      case .integers: take = (arrayCounts[next.array], 0, 0, 1, 0)
      case .strings: take = (0, 0, arrayCounts[next.array], 1, 0)
      case .false, .true, nil: break
      }
      let textBytes = textLengths[next.string..<(next.string + take.strings)].reduce(0, +)
      if keep(offset) {
        kept.types.append(tag)
        kept.integers.append(contentsOf: integers[next.integer..<(next.integer + take.integers)])
        kept.reals.append(contentsOf: reals[next.real..<(next.real + take.reals)])
        kept.textLengths.append(contentsOf: textLengths[next.string..<(next.string + take.strings)])
        kept.text.append(contentsOf: text[next.textByte..<(next.textByte + textBytes)])
        kept.arrayCounts.append(contentsOf: arrayCounts[next.array..<(next.array + take.arrays)])
        kept.general.append(contentsOf: general[next.general..<(next.general + take.general)])
      }
      next.integer += take.integers
      next.real += take.reals
      next.string += take.strings
      next.textByte += textBytes
      next.array += take.arrays
      next.general += take.general
    }
    return kept
  }

  /// Adds a value in the column its exact type picks (subclasses and bridged Foundation objects
  /// are stored as general values, as the archiver writes them).
  mutating func append(_ value: Any) {
    let type = heldType(of: value)
    if type == ObjectIdentifier(Int.self) {
      types.append(Tag.integer.rawValue)
      integers.append(unboxExactly(value, as: Int.self))
    } else if type == ObjectIdentifier(String.self) {
      types.append(Tag.string.rawValue)
      appendText(unboxExactly(value, as: String.self))
    } else if type == ObjectIdentifier(Double.self) {
      types.append(Tag.real.rawValue)
      appendReal(unboxExactly(value, as: Double.self))
    } else if type == ObjectIdentifier(Bool.self) {
      types.append(unboxExactly(value, as: Bool.self) ? Tag.true.rawValue : Tag.false.rawValue)
    } else if type == ObjectIdentifier([Double].self) {
      appendReals(unboxExactly(value, as: [Double].self))
    } else if type == ObjectIdentifier([Int].self) {
      appendIntegers(unboxExactly(value, as: [Int].self))
    } else if type == ObjectIdentifier([String].self) {
      appendStrings(unboxExactly(value, as: [String].self))
    } else if type == ObjectIdentifier([Any].self) {
      appendArray(unboxExactly(value, as: [Any].self))
    } else if let integer = Self.otherInteger(value, type) {
      // Read back as `Int`, as the archive's integers are.
      types.append(Tag.integer.rawValue)
      integers.append(integer)
    } else if let plain = Self.unwrappedExistential(value, heldType: type) {
      append(plain)
    } else {
      types.append(Tag.general.rawValue)
      general.append(value)
    }
  }

  /// A value of one of the columns' types that reached the `Any` inside another existential
  /// (`5 as any Sendable` passed through generic code): `heldType(of:)` names the existential, the
  /// value's own type is the plain one. Re-boxed at its own type, so that the same state makes
  /// the same bytes however its `Any` was made. Other values (subclasses, bridged objects) are
  /// `nil` and stay general values.
  private static func unwrappedExistential(_ value: Any, heldType: ObjectIdentifier) -> Any? {
    let dynamicType = ObjectIdentifier(Swift.type(of: value))
    guard dynamicType != heldType else { return nil }
    switch dynamicType {
    case ObjectIdentifier(Int.self): return value as! Int
    case ObjectIdentifier(String.self): return value as! String
    case ObjectIdentifier(Double.self): return value as! Double
    case ObjectIdentifier(Bool.self): return value as! Bool
    case ObjectIdentifier([Double].self): return value as! [Double]
    case ObjectIdentifier([Int].self): return value as! [Int]
    case ObjectIdentifier([String].self): return value as! [String]
    case ObjectIdentifier([Any].self): return value as! [Any]
    case ObjectIdentifier(Int64.self): return value as! Int64
    case ObjectIdentifier(Int32.self): return value as! Int32
    case ObjectIdentifier(Int16.self): return value as! Int16
    case ObjectIdentifier(Int8.self): return value as! Int8
    case ObjectIdentifier(UInt64.self): return value as! UInt64
    case ObjectIdentifier(UInt32.self): return value as! UInt32
    case ObjectIdentifier(UInt16.self): return value as! UInt16
    case ObjectIdentifier(UInt8.self): return value as! UInt8
    case ObjectIdentifier(UInt.self): return value as! UInt
    default: return nil
    }
  }

  /// `value` as an `Int` when it is one of the other fixed-width integer types and fits.
  private static func otherInteger(_ value: Any, _ type: ObjectIdentifier) -> Int? {
    switch type {
    case ObjectIdentifier(Int64.self): Int(value as! Int64)
    case ObjectIdentifier(Int32.self): Int(value as! Int32)
    case ObjectIdentifier(Int16.self): Int(value as! Int16)
    case ObjectIdentifier(Int8.self): Int(value as! Int8)
    case ObjectIdentifier(UInt32.self): Int(value as! UInt32)
    case ObjectIdentifier(UInt16.self): Int(value as! UInt16)
    case ObjectIdentifier(UInt8.self): Int(value as! UInt8)
    case ObjectIdentifier(UInt64.self): Int(exactly: value as! UInt64)
    case ObjectIdentifier(UInt.self): Int(exactly: value as! UInt)
    default: nil
    }
  }

  /// An `[Any]` whose members all have one of the three array types' member types (as a
  /// snapshot that was read gives them back) is stored as that typed array, so that the same
  /// state makes the same bytes whether it was encoded or read.
  private mutating func appendArray(_ array: [Any]) {
    guard let first = array.first else { return appendIntegers(EmptyCollection()) }
    let memberType = ObjectIdentifier(type(of: first))
    guard array.allSatisfy({ ObjectIdentifier(type(of: $0)) == memberType }) else {
      types.append(Tag.general.rawValue)
      general.append(array)
      return
    }
    // (Lazily cast: no array is made per value.)
    if memberType == ObjectIdentifier(Double.self) {
      appendReals(array.lazy.map { $0 as! Double })
    } else if memberType == ObjectIdentifier(Int.self) {
      appendIntegers(array.lazy.map { $0 as! Int })
    } else if memberType == ObjectIdentifier(String.self) {
      appendStrings(array.lazy.map { $0 as! String })
    } else {
      types.append(Tag.general.rawValue)
      general.append(array)
    }
  }

  // An array's tag, its count, then its members in their column; an empty array of any kind
  // is stored as an array of integers.
  private mutating func appendReals(_ array: some Collection<Double>) {
    if array.isEmpty { return appendIntegers(EmptyCollection()) }
    types.append(Tag.reals.rawValue)
    arrayCounts.append(array.count)
    for member in array { appendReal(member) }
  }

  private mutating func appendIntegers(_ array: some Collection<Int>) {
    types.append(Tag.integers.rawValue)
    arrayCounts.append(array.count)
    integers.append(contentsOf: array)
  }

  private mutating func appendStrings(_ array: some Collection<String>) {
    if array.isEmpty { return appendIntegers(EmptyCollection()) }
    types.append(Tag.strings.rawValue)
    arrayCounts.append(array.count)
    for member in array { appendText(member) }
  }

  private mutating func appendReal(_ real: Double) {
    reals.append(real.bitPattern)
  }

  private mutating func appendText(_ string: String) {
    var string = string
    string.withUTF8 { bytes in
      text.append(contentsOf: bytes)
      textLengths.append(bytes.count)
    }
  }

  /// Writes the columns; the general values through `encode(values:forKey:)`.
  func write(to archiver: some SnapshotArchiving) throws {
    try archiver.encode(Data(types), forKey: Key.types)
    try archiver.encode(PackedIntegers.pack(integers), forKey: Key.integers)
    var realBytes = Data(count: reals.count * 8)
    realBytes.withUnsafeMutableBytes { bytes in
      for (index, bits) in reals.enumerated() { bytes.storeBytes(of: bits.littleEndian, toByteOffset: index * 8, as: UInt64.self) }
    }
    try archiver.encode(realBytes, forKey: Key.reals)
    try archiver.encode(Data(text), forKey: Key.text)
    try archiver.encode(PackedIntegers.pack(textLengths), forKey: Key.textLengths)
    try archiver.encode(PackedIntegers.pack(arrayCounts), forKey: Key.arrayCounts)
    try archiver.encode(values: general, forKey: Key.general)
  }
}

extension StateValueColumns {
  /// The typed values of `count` state values read back: `values[i]` is the value (an `Int`,
  /// `Double`, `String`, `Bool` or an `[Any]` of one of the first three) when `tags[i]` is not
  /// ``Tag/general``; the general values are `StasisStateValues`' members in order, read by the
  /// caller (in secure mode one at a time).
  struct Decoded {
    var tags: [UInt8]
    var values: [Any]
    var generalCount: Int
  }

  /// Why a column cannot be read: the key and what was expected.
  struct Damage: Error {
    var key: String
    var expected: String
  }

  /// Reads the typed columns of `count` values; `data(key)` answers a column's `NSData` (nil
  /// when missing). Every length and count is checked before anything is built from it.
  static func read(count: Int, data: (String) throws -> Data?) throws -> Decoded {
    func column(_ key: String) throws -> Data {
      guard let data = try data(key) else { throw Damage(key: key, expected: "data; the key is missing") }
      return data
    }
    let tags = [UInt8](try column(Key.types))
    guard tags.count == count else { throw Damage(key: Key.types, expected: "one byte per state value (\(count); it has \(tags.count))") }
    var scalars = (integers: 0, reals: 0, strings: 0, arrays: 0, general: 0)
    for (position, tag) in tags.enumerated() {
      switch Tag(rawValue: tag) {
      case .general: scalars.general += 1
      case .integer: scalars.integers += 1
      case .real: scalars.reals += 1
      case .string: scalars.strings += 1
      case .false, .true: break
      case .reals, .integers, .strings: scalars.arrays += 1
      case nil: throw Damage(key: Key.types, expected: "type bytes from 0 to 8 (value \(position) has \(tag))")
      }
    }
    let arrayCountsData = try column(Key.arrayCounts)
    guard let arrayCounts = PackedIntegers.unpack(arrayCountsData, count: scalars.arrays) else {
      throw Damage(key: Key.arrayCounts, expected: "\(scalars.arrays) packed counts (it has \(arrayCountsData.count) bytes)")
    }
    // Members of the arrays, added to each column's count (each count at most 1,000,000).
    var arrayIndex = 0
    for tag in tags where tag >= Tag.reals.rawValue {
      let members = arrayCounts[arrayIndex]
      guard members >= 0, members <= 1_000_000 else {
        throw Damage(key: Key.arrayCounts, expected: "counts from 0 to 1,000,000 (found \(members))")
      }
      switch tag {
      case Tag.reals.rawValue: scalars.reals += members
      case Tag.integers.rawValue: scalars.integers += members
      default: scalars.strings += members
      }
      arrayIndex += 1
    }
    let integersData = try column(Key.integers)
    guard let integers = PackedIntegers.unpack(integersData, count: scalars.integers) else {
      throw Damage(key: Key.integers, expected: "\(scalars.integers) packed integers (it has \(integersData.count) bytes)")
    }
    let realsData = try column(Key.reals)
    guard realsData.count == scalars.reals * 8 else {
      throw Damage(key: Key.reals, expected: "\(scalars.reals) reals of 8 bytes (it has \(realsData.count) bytes)")
    }
    let textData = try column(Key.text)
    let lengthsData = try column(Key.textLengths)
    guard let lengths = PackedIntegers.unpack(lengthsData, count: scalars.strings) else {
      throw Damage(key: Key.textLengths, expected: "\(scalars.strings) packed lengths (it has \(lengthsData.count) bytes)")
    }
    var total = 0
    for length in lengths {
      guard length >= 0, length <= textData.count - total else {
        throw Damage(key: Key.textLengths, expected: "lengths that add up to the \(textData.count) bytes of \(Key.text)")
      }
      total += length
    }
    guard total == textData.count else {
      throw Damage(key: Key.textLengths, expected: "lengths that add up to the \(textData.count) bytes of \(Key.text) (they add up to \(total))")
    }
    var strings: [String] = []
    strings.reserveCapacity(lengths.count)
    try textData.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      // The whole text is checked once; the strings are then valid when none starts inside a
      // character (on a continuation byte), and are made without checking each again.
      var start = 0
      var isValid = String(validating: bytes, as: UTF8.self) != nil
      for length in lengths where isValid {
        isValid = start == bytes.count || bytes[start] & 0xC0 != 0x80
        start += length
      }
      start = 0
      for length in lengths {
        let piece = UnsafeBufferPointer(rebasing: bytes[start..<(start + length)])
        if isValid {
          strings.append(String(decoding: piece, as: UTF8.self))
        } else {
          // Damaged: the first string that is not UTF-8 on its own is named.
          guard let string = String(validating: piece, as: UTF8.self) else {
            throw Damage(key: Key.text, expected: "UTF-8 (string \(strings.count) at byte \(start) is not)")
          }
          strings.append(string)
        }
        start += length
      }
    }
    let reals: [Double] = realsData.withUnsafeBytes { bytes in
      (0..<scalars.reals).map { Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self))) }
    }

    var values: [Any] = []
    values.reserveCapacity(count)
    var next = (integer: 0, real: 0, string: 0, array: 0)
    for tag in tags {
      switch Tag(rawValue: tag)! {
      case .general: values.append(())
      case .integer:
        values.append(integers[next.integer])
        next.integer += 1
      case .real:
        values.append(reals[next.real])
        next.real += 1
      case .string:
        values.append(strings[next.string])
        next.string += 1
      case .false: values.append(false)
      case .true: values.append(true)
      case .reals:
        let members = arrayCounts[next.array]
        next.array += 1
        values.append(reals[next.real..<(next.real + members)].map { $0 as Any })
        next.real += members
      case .integers:
        let members = arrayCounts[next.array]
        next.array += 1
        values.append(integers[next.integer..<(next.integer + members)].map { $0 as Any })
        next.integer += members
      case .strings:
        let members = arrayCounts[next.array]
        next.array += 1
        values.append(strings[next.string..<(next.string + members)].map { $0 as Any })
        next.string += members
      }
    }
    return Decoded(tags: tags, values: values, generalCount: scalars.general)
  }
}
