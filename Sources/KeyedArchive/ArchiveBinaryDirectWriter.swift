import FoundationEssentials
import PropertyLists

/// Writes the archive as `bplist00` in one pass over the archiver's flat ``ArchiveObjectTable``,
/// each object's bytes appended the moment it takes its number: the same bytes as
/// ``ArchiveBinaryWriter`` (CF's numbering and uniquing, see that writer), without its working
/// lists.
///
/// The general writer numbers the whole document into a list of objects (16 bytes each) and of
/// container references (8 bytes each), then lays the bytes out from them: at a million items
/// some 12 million objects and 17 million references, 800 MB of fresh pages besides the output.
/// Here the reference width is worked out before the first object (``referenceWidth(table:top:)``),
/// so a container's bytes — its marker and room for its references — are written when it is
/// numbered, and each reference is stored in its room as its member is numbered. CF numbers a
/// document in pre-order and writes its objects in number order, so appending every object as
/// it is numbered puts it where CF puts it. What is kept is each object's offset (4 bytes), each
/// `$objects` entry's number (4 bytes), and the table of numbers, which are uniqued over the
/// whole document.
///
/// Strings are not looked up: the archiver stores each string of `$objects` once
/// (``ScalarNumbering``), so only the strings outside `$objects` — keys, class names, strings in
/// other values — and data are uniqued (`texts`), and such a string equal to a `$objects` string
/// shares its object, whichever comes first (``outsideString(_:)``).
///
/// It declines (``init(table:top:scalars:)`` or ``write()`` gives nil, and the archiver uses
/// ``ArchiveBinaryWriter``) when the reference width cannot be known in advance — the count of
/// objects could fall on either side of 256, 65,536 or 2^32 depending on how many numbers and
/// strings repeat — or when the document reaches 4 GB.
struct ArchiveBinaryDirectWriter {
  private let table: ArchiveObjectTable
  private let top: PropertyListDictionary
  private let scalars: ScalarNumbering
  /// Bytes per object reference.
  private let width: Int
  private var out: ArchiveByteBuffer
  /// Each object's offset in `out`, by number.
  private var offsets: [UInt32] = []
  private var numbers: ArchiveNumberTable
  /// Strings outside `$objects`, and all data, by exact bytes → object number.
  private var texts = ExactScalarTable()
  /// The `$objects` array, whose references hold each entry's number once it is written.
  private var objectsArray = Container(number: 0, references: 0)
  /// How many `$objects` entries are written.
  private var entriesWritten = 0
  /// `$objects` strings not written yet that equal a string written outside `$objects` before
  /// them, with that string's number, by entry; those before `linkCursor` are used.
  private var links: [(entry: Int, number: Int)] = []
  private var linkCursor = 0
  private var firstTrue: Int?
  private var firstFalse: Int?
  /// The key numbers of each key layout, from `keyNumberStarts[layout]` (-1 until worked out).
  private var keyNumbers: [UInt32] = []
  private var keyNumberStarts: [Int]
  private let keyCounts: [Int]

  /// A writer for the table, whose `$objects` strings `scalars` stored once each; nil when the
  /// reference width depends on how many numbers and strings repeat.
  init?(table: ArchiveObjectTable, top: PropertyListDictionary, scalars: ScalarNumbering) {
    guard let bounds = Self.objectCountBounds(table: table, top: top) else { return nil }
    self.table = table
    self.top = top
    self.scalars = scalars
    width = binaryPlistByteWidth(UInt64(bounds.upper))
    keyNumberStarts = [Int](repeating: -1, count: table.layouts.count)
    keyCounts = table.layouts.map(\.count)
    numbers = ArchiveNumberTable(expected: Self.estimatedNumberCount(table))
    offsets.reserveCapacity(bounds.upper)
    // About 16 bytes an object (a reference or two, an offset, a UID or a short string); the
    // buffer grows if that is short, and pages never written are never touched.
    out = ArchiveByteBuffer(capacity: 64 + 16 * bounds.upper)
    for byte in "bplist00".utf8 { out.append(byte) }
  }

  /// How many `$objects` entries ahead the number table is read.
  static var touchRun: Int { 16 }

  /// The document, or nil when it reaches 4 GB (offsets are kept in 32 bits) or the count of
  /// objects came out of another width than the one written (it cannot, by
  /// ``objectCountBounds(table:top:)``; checked all the same).
  mutating func write() throws(PropertyListError) -> Data? {
    do {
      let document = openContainer(0xD0, count: KeyedArchiver.documentKeys.count)
      for (index, key) in KeyedArchiver.documentKeys.enumerated() {
        let number = outsideString(key)
        setReference(document, index, number)
      }
      let version = number(.init(bits: UInt64(KeyedArchiver.version), kind: 2))
      setReference(document, 4, version)
      try writeObjects(into: document)
      let archiver = outsideString("NSKeyedArchiver")
      setReference(document, 6, archiver)
      let top = try tree(.dictionary(top), depth: 1)
      setReference(document, 7, top)
    } catch {
      out.release()
      throw error
    }
    let objectCount = offsets.count
    guard out.count <= Int(UInt32.max), binaryPlistByteWidth(UInt64(objectCount)) == width else {
      out.release()
      return nil
    }
    let tableStart = out.count
    let offsetWidth = binaryPlistByteWidth(UInt64(tableStart))
    offsets.withUnsafeBufferPointer { offsets in
      for offset in offsets { out.append(UInt64(offset), width: offsetWidth) }
    }
    for byte: UInt8 in [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(width)] { out.append(byte) }
    out.append(UInt64(objectCount), width: 8)
    out.append(0, width: 8)
    out.append(UInt64(tableStart), width: 8)
    return out.takeData()
  }

  // MARK: - Objects

  /// A container whose references are filled in as its members are numbered.
  private struct Container {
    let number: Int
    /// The offset of its first reference in the output.
    let references: Int
  }

  /// Numbers the next object, which starts at the end of the output, and returns its number.
  @inline(__always)
  private mutating func beginObject() -> Int {
    offsets.append(UInt32(truncatingIfNeeded: Swift.min(out.count, Int(UInt32.max))))
    return offsets.count &- 1
  }

  /// An array (`0xA0`) or dictionary (`0xD0`) of `count` members (entries), with room for its
  /// references: keys first, then values, for a dictionary.
  @inline(__always)
  private mutating func openContainer(_ marker: UInt8, count: Int) -> Container {
    let number = beginObject()
    out.appendMarker(marker, count: count)
    let references = out.count
    _ = out.extend(by: (marker == 0xD0 ? 2 &* count : count) &* width)
    return Container(number: number, references: references)
  }

  /// Reference `index` of `container`, stored already.
  private func reference(_ container: Container, _ index: Int) -> UInt64 {
    let start = container.references &+ index &* width
    var number: UInt64 = 0
    for position in start..<(start &+ width) { number = number << 8 | UInt64(out.base[position]) }
    return number
  }

  /// Stores `number` as reference `index` of `container`. (Always given a number computed
  /// before the call: a call whose argument writes objects would store into the buffer as it was
  /// before that argument grew it.)
  @inline(__always)
  private func setReference(_ container: Container, _ index: Int, _ number: Int) {
    out.store(UInt64(number), width: width, at: container.references &+ index &* width)
  }

  /// `$objects`: its array, then its entries in order.
  private mutating func writeObjects(into document: Container) throws(PropertyListError) {
    let table = table
    let objects = openContainer(0xA0, count: table.entries.count)
    objectsArray = objects
    setReference(document, 5, objects.number)
    try table.entries.withUnsafeBufferPointer { (entries) throws(PropertyListError) in
      try table.values.withUnsafeBufferPointer { (values) throws(PropertyListError) in
        for index in entries.indices {
          if index & (Self.touchRun &- 1) == 0 { prefetchNumbers(from: index, entries, values) }
          let number = try entry(entries[index], at: index, values)
          setReference(objects, index, number)
          entriesWritten = index &+ 1
        }
      }
    }
  }

  /// The number of `$objects` entry `index`, whose slot is `slot`.
  @inline(__always)
  private mutating func entry(
    _ slot: ArchiveSlot, at index: Int, _ values: UnsafeBufferPointer<ArchiveSlot>
  ) throws(PropertyListError) -> Int {
    switch slot.kind {
    case .object:
      let layout = Int(slot.extra)
      let count = keyCounts[layout]
      let dictionary = openContainer(0xD0, count: count)
      var start = keyNumberStarts[layout]
      if start < 0 {
        start = keyNumbers.count
        for key in table.layouts[layout] { keyNumbers.append(UInt32(truncatingIfNeeded: outsideString(key))) }
        keyNumberStarts[layout] = start
      }
      for position in 0..<count { setReference(dictionary, position, Int(keyNumbers[start &+ position])) }
      let first = Int(slot.word)
      for position in 0..<count {
        let number = try member(values[first &+ position], depth: 3)
        setReference(dictionary, count &+ position, number)
      }
      return dictionary.number
    case .string:
      if linkCursor < links.count, links[linkCursor].entry == index {
        linkCursor &+= 1
        return links[linkCursor &- 1].number
      }
      let number = beginObject()
      appendString(table.strings[Int(slot.word)])
      return number
    default:
      return try member(slot, depth: 2)
    }
  }

  /// The number of an object's value (or of a scalar entry) at `depth` in the document.
  @inline(__always)
  private mutating func member(_ slot: ArchiveSlot, depth: Int) throws(PropertyListError) -> Int {
    switch slot.kind {
    case .uid:
      let number = beginObject()
      out.appendUID(slot.word)
      return number
    case .positive: return number(.init(bits: slot.word, kind: 2))
    case .negative: return number(.init(bits: slot.word, kind: 1))
    case .single: return number(.init(bits: slot.word, kind: 3))
    case .double: return number(.init(bits: slot.word, kind: 4))
    case .bool: return bool(slot.word != 0)
    case .string: return outsideString(table.strings[Int(slot.word)])
    case .uids:
      let count = Int(slot.extra)
      let array = openContainer(0xA0, count: count)
      let first = Int(slot.word)
      for position in 0..<count {
        let number = beginObject()
        out.appendUID(table.uidRuns[first &+ position])
        setReference(array, position, number)
      }
      return array.number
    case .other: return try tree(table.others[Int(slot.word)], depth: depth)
    case .object: preconditionFailure("an object is an entry of $objects, not a value")
    }
  }

  /// The number of a value of any shape, containers numbered as the binary writer numbers them.
  private mutating func tree(_ value: PropertyListValue, depth: Int) throws(PropertyListError) -> Int {
    switch value {
    case .array(let members):
      guard depth < 512 * 2 else { throw ArchiveBinaryWriter.tooDeep() }
      let array = openContainer(0xA0, count: members.count)
      for index in members.indices {
        let number = try tree(members[index], depth: depth + 1)
        setReference(array, index, number)
      }
      return array.number
    case .dictionary(let dictionary):
      guard depth < 512 * 2 else { throw ArchiveBinaryWriter.tooDeep() }
      let count = dictionary.count
      let container = openContainer(0xD0, count: count)
      for (index, key) in dictionary.keys.enumerated() {
        let number = outsideString(key)
        setReference(container, index, number)
      }
      let values = dictionary.values
      for index in values.indices {
        let number = try tree(values[index], depth: depth + 1)
        setReference(container, count + index, number)
      }
      return container.number
    case .uid(let uid):
      let number = beginObject()
      out.appendUID(uid)
      return number
    case .bool(let flag): return bool(flag)
    case .integer(let integer): return number(.init(bits: integer.bitPattern, kind: integer.isNegative ? 1 : 2))
    case .real(let real, let realWidth): return number(.init(bits: real.bitPattern, kind: realWidth == .single ? 3 : 4))
    case .date(let date): return number(.init(bits: date.timeIntervalSinceReferenceDate.bitPattern, kind: 5))
    case .string(let string): return outsideString(string)
    case .data: return text(value)
    }
  }

  // MARK: - Scalars

  /// A Boolean: a new object each time, referred to as the first one of its value (CF's rule).
  private mutating func bool(_ flag: Bool) -> Int {
    let number = beginObject()
    out.append(flag ? 0x09 : 0x08)
    if flag {
      if let firstTrue { return firstTrue }
      firstTrue = number
    } else {
      if let firstFalse { return firstFalse }
      firstFalse = number
    }
    return number
  }

  /// An integer, real or date: the number of its first occurrence, written when new.
  @inline(__always)
  private mutating func number(_ key: ArchiveNumberTable.Key) -> Int {
    let candidate = offsets.count
    let number = numbers.number(for: key, orInsert: candidate)
    guard number == candidate else { return number }
    _ = beginObject()
    switch key.kind {
    case 1: out.appendInteger(bitPattern: key.bits, isNegative: true)
    case 2: out.appendInteger(bitPattern: key.bits, isNegative: false)
    case 3: out.appendReal(bitPattern: key.bits, single: true)
    case 4: out.appendReal(bitPattern: key.bits, single: false)
    default:
      out.append(0x33)
      out.append(key.bits, width: 8)
    }
    return number
  }

  /// A string outside `$objects` (a key, a class name, a string in another value): the number of
  /// an equal string written before — outside `$objects`, or as an entry of it — or of a new
  /// object. A new one equal to a `$objects` string still to come is linked to that entry, which
  /// then takes its number instead of an object of its own.
  private mutating func outsideString(_ string: String) -> Int {
    var texts = ExactScalarTable()
    swap(&texts, &self.texts)
    defer { swap(&texts, &self.texts) }
    return Int(
      texts.number(for: .string(string)) {
        let entry = string == "$null" ? 0 : scalars.existingUID(for: .string(string), in: table).map { Int($0) }
        if let entry, entry < entriesWritten { return reference(objectsArray, entry) }
        let number = beginObject()
        appendString(string)
        if let entry { recordLink(entry, to: number) }
        return UInt64(number)
      })
  }

  /// Data (or any string through the general rule): the number of equal data written before, or
  /// of a new object.
  private mutating func text(_ value: PropertyListValue) -> Int {
    var texts = ExactScalarTable()
    swap(&texts, &self.texts)
    defer { swap(&texts, &self.texts) }
    return Int(
      texts.number(for: value) {
        let number = beginObject()
        if case .data(let data) = value { data.withUnsafeBytes { out.appendData($0) } }
        return UInt64(number)
      })
  }

  /// Records that `$objects` entry `entry` (not written yet) is the string object `number`.
  private mutating func recordLink(_ entry: Int, to number: Int) {
    var position = links.count
    while position > linkCursor, links[position - 1].entry > entry { position -= 1 }
    links.insert((entry, number), at: position)
  }

  @inline(__always)
  private mutating func appendString(_ string: String) {
    if let done: Void = string.utf8.withContiguousStorageIfAvailable({ out.appendString(utf8: UnsafeRawBufferPointer($0)) }) {
      return done
    }
    let bytes = Array(string.utf8)
    bytes.withUnsafeBytes { out.appendString(utf8: $0) }
  }

  /// Asks for the number table's slots where the numbers of the next ``touchRun`` entries (and
  /// their values) will be looked up, before they are looked up one by one: once the table
  /// outgrows the caches, their misses overlap. The slots are all found first and then asked for
  /// together (``ArchiveNumberTable/prefetch(_:)``).
  private func prefetchNumbers(
    from start: Int, _ entries: UnsafeBufferPointer<ArchiveSlot>, _ values: UnsafeBufferPointer<ArchiveSlot>
  ) {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.touchLimit) { positions in
      var found = 0
      @inline(__always) func note(_ slot: ArchiveSlot) {
        let kind: UInt32
        switch slot.kind {
        case .positive: kind = 2
        case .negative: kind = 1
        case .single: kind = 3
        case .double: kind = 4
        default: return
        }
        guard found < Self.touchLimit else { return }
        positions[found] = numbers.start(of: .init(bits: slot.word, kind: kind))
        found &+= 1
      }
      for index in start..<Swift.min(start &+ Self.touchRun, entries.count) {
        let slot = entries[index]
        guard slot.kind == .object else {
          note(slot)
          continue
        }
        let first = Int(slot.word)
        for position in first..<(first &+ keyCounts[Int(slot.extra)]) { note(values[position]) }
      }
      numbers.prefetch(UnsafeBufferPointer(rebasing: positions[..<found]))
    }
  }

  /// The most slots one read-ahead reads.
  static var touchLimit: Int { 64 }
}
