import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads XML property lists (`kCFPropertyListXMLFormat_v1_0`, what
/// `PropertyListSerialization.propertyList(from:options:format:)` reads as `.xml`) with
/// CoreFoundation's rules (Apple's `CFPropertyList.c`; the XML Property Lists article lists them
/// all):
///
/// * the encoding comes from a byte-order mark, zero bytes or `<?xml … encoding="…"?>`, and text
///   in other encodings is converted to UTF-8 first;
/// * processing instructions, comments and a DOCTYPE (its internal subset skipped, never
///   expanded) may precede the first element, which is the document whatever its name; anything
///   after that element is ignored;
/// * dictionaries keep the last of duplicate keys; a dictionary whose only key is `CF$UID` with a
///   number is a keyed-archiver UID;
/// * nesting deeper than ``PropertyListReadingOptions/maximumDepth`` and more values than
///   ``PropertyListReadingOptions/maximumObjectCount`` are refused.
///
/// Where this reader knowingly differs from CoreFoundation (checked against swift-corelibs-foundation's
/// CF, whose XML reader is Apple's `CFPropertyList.c`):
///
/// * a DOCTYPE internal subset (`<!DOCTYPE plist [ … ]>`), which XML allows, is skipped;
///   CF enters its subset skipper on the `[` itself and so rejects every internal subset
///   ("Encountered unexpected character [ … while parsing DTD");
/// * mark-less UTF-16 takes its byte order from the zero byte and keeps the first character;
///   CF skips two bytes as if they were a mark;
/// * `encoding="…"` names are limited to UTF-8/16/32, US-ASCII, ISO-8859-1, windows-1252 and
///   Mac OS Roman (CF accepts every ICU converter name);
/// * a `CF$UID` of 2^31 … 2^32−1 stays as it is (CF clamps it to 2^31−1), and years or
///   references that overflow CF's 32-bit arithmetic are refused instead of wrapping.
///
/// The tree is built without recursion (an explicit stack), so depth limits far above CF's 512
/// cannot overflow the thread's stack.
enum XMLPlistReader {
  static func read(_ buffer: UnsafeRawBufferPointer, options: PropertyListReadingOptions) throws(PropertyListError) -> PropertyListValue {
    guard !buffer.isEmpty else { throw emptyDocument() }
    switch try XMLPlistTextEncoding.utf8Text(buffer) {
    case .inPlace(let skip):
      guard skip < buffer.count else { throw emptyDocument() }
      var builder = XMLPlistTreeBuilder(UnsafeRawBufferPointer(rebasing: buffer[skip...]), options: options)
      return try builder.parseDocument()
    case .converted(let bytes):
      guard !bytes.isEmpty else { throw emptyDocument() }
      return try withContiguousBytes(of: bytes) { (text) throws(PropertyListError) in
        var builder = XMLPlistTreeBuilder(text, options: options)
        return try builder.parseDocument()
      }
    }
  }

  private static func emptyDocument() -> PropertyListError {
    PropertyListError(.truncated, format: .xml, position: .line(1), detail: "the document is empty; expected <plist> or another element")
  }
}

/// Turns the scanner's elements into a ``PropertyListValue``.
///
/// Each open container collects its children in its own arrays, which are moved (not copied) into
/// the finished value when its close tag arrives; the arrays of the enclosing containers wait on
/// a stack.
struct XMLPlistTreeBuilder {
  var scanner: XMLPlistScanner
  let maximumDepth: Int
  let maximumObjectCount: Int
  /// The children of the innermost open container.
  var values: [PropertyListValue] = []
  /// The keys read so far by the innermost open container, if it is a dictionary.
  var keys: [String] = []
  /// For each key of every open dictionary, a fingerprint of its bytes
  /// (``XMLPlistKeyCache/unknownFingerprint`` for keys that are not plain ASCII), to rule out
  /// duplicate keys cheaply; the innermost dictionary's start at `current.fingerprintStart`.
  var keyFingerprints: [UInt64] = []
  /// For each nesting level, the sizes of the last dictionary and array closed there, as capacity
  /// hints for the next ones opened at that level (records in an array tend to have the same
  /// shape, so the container at the same place in the next record usually has the same size),
  /// saving the arrays' regrowth. One hint for all levels would let a record's small inner
  /// containers undersize the next record itself.
  var dictCountHints: [Int] = []
  var arrayCountHints: [Int] = []
  /// The innermost open container, valid while `openCount > 0`.
  var current = Frame(tag: .plist, openedAt: 0)
  /// The containers around `current`, outermost first, with their children so far.
  var parents: [Frame] = []
  var parentValues: [[PropertyListValue]] = []
  var parentKeys: [[String]] = []
  /// Dictionary keys already made into strings.
  var keyCache = XMLPlistKeyCache()
  /// Short `<string>` values already made into strings (tags, names and codes repeat).
  var valueCache = XMLPlistKeyCache()
  var openCount = 0
  /// Whether the outermost container is a `<plist>` (which does not count towards the depth).
  var rootIsPlist = false
  var objectCount = 0
  /// Reused for text with references or CDATA.
  var scratch: [UInt8] = []

  struct Frame {
    /// `.array`, `.dict` or `.plist`.
    let tag: XMLPlistTag
    /// Where this dictionary's keys start in `keyFingerprints`.
    var fingerprintStart = 0
    /// Offset of the open tag's `<`, for messages.
    let openedAt: Int
    /// Dictionaries: a key has been read and its value not yet.
    var awaitingValue = false
    /// `<plist>`: its one value has been read.
    var hasValue = false
  }

  init(_ text: UnsafeRawBufferPointer, options: PropertyListReadingOptions) {
    scanner = XMLPlistScanner(text)
    maximumDepth = options.maximumDepth
    maximumObjectCount = options.maximumObjectCount
  }

  mutating func parseDocument() throws(PropertyListError) -> PropertyListValue {
    try scanner.skipProlog()
    if let value = try element(openedAt: scanner.position - 1) { return value }
    while true {
      switch try scanner.nextContent(inside: current.tag, openedAt: current.openedAt) {
      case .closeTag:
        let closed = current
        let value = try close(closed)
        openCount -= 1
        if openCount == 0 { return value }
        restoreParent()
        try deliver(value, openedAt: closed.openedAt)
      case .element:
        let openedAt = scanner.position - 1
        if current.tag == .dict && !current.awaitingValue {
          let (tag, isEmpty) = try scanner.readStartTag()
          guard tag == .key else {
            throw scanner.failure(.unexpectedInput, "found <\(tag.name)> inside <dict> where a <key> was expected", at: openedAt)
          }
          try countObject(at: openedAt)
          if isEmpty {
            keys.append("")
            keyFingerprints.append(XMLPlistKeyCache.emptyFingerprint)
          } else {
            try key(openedAt: openedAt)
          }
          current.awaitingValue = true
        } else if let value = try element(openedAt: openedAt) {
          try deliver(value, openedAt: openedAt)
        }
      }
    }
  }

  /// Reads the element whose `<` is at `openedAt` (the scanner is just after it). Returns its
  /// value, or `nil` after opening a container, whose children follow.
  @inline(__always)
  private mutating func element(openedAt: Int) throws(PropertyListError) -> PropertyListValue? {
    let (tag, isEmpty) = try scanner.readStartTag()
    switch tag {
    case .string, .key:
      try countObject(at: openedAt)
      return .string(isEmpty ? "" : try text(of: tag, openedAt: openedAt))
    case .dict:
      try countObject(at: openedAt)
      if isEmpty { return .dictionary(PropertyListDictionary()) }
      if let uid = try keyedArchiverReference() { return .uid(uid) }
      try open(.dict, openedAt: openedAt)
      return nil
    case .array:
      try countObject(at: openedAt)
      if isEmpty { return .array([]) }
      try open(.array, openedAt: openedAt)
      return nil
    case .integer, .real, .date, .data:
      // A scalar that must have content (`<integer/>` is refused).
      guard !isEmpty else { throw emptyElement(tag, openedAt) }
      try countObject(at: openedAt)
      switch tag {
      case .integer: return .integer(try scanner.scanInteger(openedAt: openedAt))
      case .real: return .real(try scanner.scanReal(scratch: &scratch, openedAt: openedAt), width: .double)
      case .date: return .date(try scanner.scanDate(openedAt: openedAt))
      default: return .data(try scanner.scanData(openedAt: openedAt))
      }
    case .true, .false:
      try countObject(at: openedAt)
      if !isEmpty { try scanner.expectCloseTag(tag) }
      return .bool(tag == .true)
    case .plist:
      guard !isEmpty else {
        throw scanner.failure(.unexpectedInput, "<plist/> is empty; expected one value inside <plist>", at: openedAt)
      }
      try open(.plist, openedAt: openedAt)
      return nil
    }
  }

  @inline(__always)
  private mutating func text(of tag: XMLPlistTag, openedAt: Int) throws(PropertyListError) -> String {
    let text = try scanner.scanText(scratch: &scratch)
    if case .run(let start, let end) = text, end - start <= 24,
      let (cached, _) = valueCache.string(scanner.base + start, end - start, readable: scanner.count - start)
    {
      try scanner.expectCloseTag(tag)
      return cached
    }
    let string = try scanner.makeString(text, scratch: scratch, openedAt: openedAt)
    try scanner.expectCloseTag(tag)
    return string
  }

  /// A keyed archive's references, `<dict><key>CF$UID</key><integer>n</integer></dict>` (white
  /// space allowed between the elements), read straight into a UID without building the
  /// dictionary. The scanner is just after `<dict>`. Anything else — another key, a comment, a
  /// second entry, a dictionary that would be too deep — gives `nil` with the scanner and the
  /// object count put back, and is read the general way, with the same outcome. Errors thrown
  /// here (a bad integer, the object limit) are the ones the general way would throw at the same
  /// place, in the same order.
  @inline(__always)
  private mutating func keyedArchiverReference() throws(PropertyListError) -> UInt64? {
    let depth = openCount + 1 - (rootIsPlist ? 1 : 0)
    guard openCount > 0, depth <= maximumDepth else { return nil }
    let start = scanner.position
    let countBefore = objectCount
    scanner.skipWhitespace()
    let keyOpenedAt = scanner.position
    guard scanner.matches("<key>CF$UID</key>", at: keyOpenedAt) else {
      scanner.position = start
      return nil
    }
    scanner.position = keyOpenedAt + 17
    scanner.skipWhitespace()
    let integerOpenedAt = scanner.position
    guard scanner.matches("<integer>", at: integerOpenedAt) else {
      scanner.position = start
      return nil
    }
    try countObject(at: keyOpenedAt)
    try countObject(at: integerOpenedAt)
    scanner.position = integerOpenedAt + 9
    let integer = try scanner.scanInteger(openedAt: integerOpenedAt)
    scanner.skipWhitespace()
    guard scanner.matches("</dict>", at: scanner.position) else {
      scanner.position = start
      objectCount = countBefore
      return nil
    }
    scanner.position += 7
    return Self.keyedArchiverUID(integer)
  }

  /// Reads the text of a `<key>` and its close tag, appending the key and its fingerprint.
  @inline(__always)
  private mutating func key(openedAt: Int) throws(PropertyListError) {
    let text = try scanner.scanText(scratch: &scratch)
    if case .run(let start, let end) = text,
      let (string, fingerprint) = keyCache.string(scanner.base + start, end - start, readable: scanner.count - start)
    {
      keys.append(string)
      keyFingerprints.append(fingerprint)
    } else {
      keys.append(try scanner.makeString(text, scratch: scratch, openedAt: openedAt))
      keyFingerprints.append(XMLPlistKeyCache.unknownFingerprint)
    }
    try scanner.expectCloseTag(.key)
  }

  private mutating func open(_ tag: XMLPlistTag, openedAt: Int) throws(PropertyListError) {
    // The outermost <plist> is not a container of values and does not count towards the depth.
    if openCount == 0 { rootIsPlist = tag == .plist }
    let depth = openCount + 1 - (rootIsPlist ? 1 : 0)
    guard depth <= maximumDepth else {
      throw scanner.failure(.tooDeep, "containers nest deeper than \(maximumDepth) levels", at: openedAt)
    }
    if openCount > 0 {
      parents.append(current)
      parentValues.append(values)
      values = []
      if current.tag == .dict {
        parentKeys.append(keys)
        keys = []
      }
    }
    current = Frame(tag: tag, openedAt: openedAt)
    if tag == .dict {
      current.fingerprintStart = keyFingerprints.count
      let hint = Swift.min(Self.hint(dictCountHints, level: openCount), 64)
      keys.reserveCapacity(hint)
      values.reserveCapacity(hint)
    } else if tag == .array {
      values.reserveCapacity(Swift.min(Self.hint(arrayCountHints, level: openCount), 64))
    }
    openCount += 1
  }

  /// The size hint for a container opened at `level` (0 when none has closed there yet).
  @inline(__always)
  private static func hint(_ hints: [Int], level: Int) -> Int {
    level < hints.count ? hints[level] : 0
  }

  /// Remembers `count` as the size of the container just closed at `level`.
  @inline(__always)
  private static func record(_ count: Int, in hints: inout [Int], level: Int) {
    while hints.count <= level { hints.append(0) }
    hints[level] = count
  }

  /// Makes the enclosing container current again, with its children so far.
  @inline(__always)
  private mutating func restoreParent() {
    current = parents.removeLast()
    values = parentValues.removeLast()
    if current.tag == .dict { keys = parentKeys.removeLast() }
  }

  @inline(__always)
  private mutating func deliver(_ value: PropertyListValue, openedAt: Int) throws(PropertyListError) {
    switch current.tag {
    case .array:
      values.append(value)
    case .dict:
      values.append(value)
      current.awaitingValue = false
    default:
      guard !current.hasValue else {
        throw scanner.failure(.unexpectedInput, "<plist> holds more than one value; expected </plist>", at: openedAt)
      }
      values.append(value)
      current.hasValue = true
    }
  }

  /// Handles the close tag at the scanner's position for `frame`.
  private mutating func close(_ frame: Frame) throws(PropertyListError) -> PropertyListValue {
    switch frame.tag {
    case .array:
      try scanner.expectCloseTag(.array)
      let elements = values
      values = []
      Self.record(elements.count, in: &arrayCountHints, level: openCount - 1)
      return .array(elements)
    case .dict:
      guard !frame.awaitingValue else {
        throw scanner.failure(.unexpectedInput, "the last <key> in <dict> has no value", at: scanner.position)
      }
      try scanner.expectCloseTag(.dict)
      let entryKeys = keys
      let entryValues = values
      let unique = keyFingerprints.withUnsafeBufferPointer {
        Self.fingerprintsDiffer(UnsafeBufferPointer(rebasing: $0[frame.fingerprintStart...]))
      }
      keys = []
      values = []
      keyFingerprints.removeLast(keyFingerprints.count - frame.fingerprintStart)
      Self.record(entryKeys.count, in: &dictCountHints, level: openCount - 1)
      if !entryKeys.isEmpty, entryKeys[0] == "CF$UID", let uid = Self.keyedArchiverUID(keys: entryKeys, values: entryValues) {
        return .uid(uid)
      }
      if unique { return .dictionary(PropertyListDictionary(uniqueKeys: entryKeys, values: entryValues)) }
      // Possibly repeated keys: the last value wins (and the first position).
      return .dictionary(PropertyListDictionary(keys: entryKeys, values: entryValues))
    default:
      guard frame.hasValue else {
        throw scanner.failure(.unexpectedInput, "<plist> is empty; expected one value inside it", at: frame.openedAt)
      }
      try scanner.expectCloseTag(.plist)
      return values.removeLast()
    }
  }

  /// Whether the fingerprints prove that no key repeats: all are known and pairwise different.
  /// Dictionaries with more keys than ``PropertyListDictionary/indexThreshold`` are checked
  /// through their hash index anyway, so they are not looked at here.
  @inline(__always)
  static func fingerprintsDiffer(_ prints: UnsafeBufferPointer<UInt64>) -> Bool {
    let count = prints.count
    if count > PropertyListDictionary.indexThreshold { return true }
    do {
      for i in 0..<count {
        let print = prints[i]
        if print == XMLPlistKeyCache.unknownFingerprint { return false }
        var j = 0
        while j < i {
          if prints[j] == print { return false }
          j += 1
        }
      }
      return true
    }
  }

  /// CF turns a dictionary whose only key (after duplicates collapse) is `CF$UID` with a number
  /// value into a UID, via `CFNumberGetValue(kCFNumberSInt32Type)`: values clamp to the `Int32`
  /// range (reals truncate toward zero; NaN gives 0 here) and the 32 bits are kept, so −1 is
  /// 0xFFFFFFFF. Non-negative integers are kept whole instead, so that every UID the model can
  /// hold survives a round trip (CF's own writer prints UIDs 2^31 … 2^32−1 that its reader would
  /// clamp to 2^31−1; UIDs of 2^32 and more come only from other writers' binary files).
  static func keyedArchiverUID(keys: [String], values: [PropertyListValue]) -> UInt64? {
    for key in keys where key != "CF$UID" { return nil }
    switch values[values.count - 1] {
    case .integer(let integer):
      return keyedArchiverUID(integer)
    case .real(let real, _):
      let clamped: Int32
      if real.isNaN {
        clamped = 0
      } else if real < Double(Int32.min) {
        clamped = Int32.min
      } else if real > Double(Int32.max) {
        clamped = Int32.max
      } else {
        clamped = Int32(real.rounded(.towardZero))
      }
      return UInt64(UInt32(bitPattern: clamped))
    default:
      return nil
    }
  }

  /// The UID of `<dict><key>CF$UID</key><integer>…</integer></dict>` (see
  /// ``keyedArchiverUID(keys:values:)``).
  @inline(__always)
  static func keyedArchiverUID(_ integer: PropertyListInteger) -> UInt64 {
    if !integer.isNegative { return integer.bitPattern }
    let value = Int64(bitPattern: integer.bitPattern)
    return UInt64(UInt32(bitPattern: value < Int64(Int32.min) ? Int32.min : Int32(value)))
  }

  @inline(__always)
  private mutating func countObject(at offset: Int) throws(PropertyListError) {
    objectCount += 1
    guard objectCount <= maximumObjectCount else {
      throw scanner.failure(.limitExceeded, "the document holds more than \(maximumObjectCount) values", at: offset)
    }
  }

  private func emptyElement(_ tag: XMLPlistTag, _ openedAt: Int) -> PropertyListError {
    scanner.failure(.invalidValue, "<\(tag.name)/> is empty; expected content and </\(tag.name)>", at: openedAt)
  }
}

/// Dictionary keys already made into strings, so that a key seen again (as in arrays of records)
/// costs a hash and a byte comparison instead of a new `String`.
///
/// Direct-mapped on a hash of the key's bytes; an entry points at the bytes of the key it was
/// made from, inside the document, which outlives the reader. Only plain ASCII keys are handled
/// (their bytes are valid UTF-8, and two of them are equal strings exactly when their bytes are
/// equal); others go the usual way.
struct XMLPlistKeyCache {
  /// The fingerprint of keys that are not fingerprinted (not ASCII, or from references or CDATA).
  static let unknownFingerprint: UInt64 = 0
  /// The fingerprint of the empty key.
  static var emptyFingerprint: UInt64 { finish(0, count: 0) }

  struct Entry {
    var bytes: UnsafePointer<UInt8>?
    var count = 0
    var string = ""
  }

  private static let slotBits = 8
  private static let slotCount = 1 << slotBits
  /// Longer keys are fingerprinted but not kept.
  private static let maximumCachedCount = 64
  private var entries: [Entry] = []

  /// The string for the `count` bytes at `bytes` and their fingerprint (never
  /// ``unknownFingerprint``), or `nil` if they are not all ASCII. `readable` bytes from `bytes`
  /// on may be read (at least `count`), so the last partial word can be loaded whole and masked.
  @inline(__always)
  mutating func string(_ bytes: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> (String, UInt64)? {
    var hash: UInt64 = 0
    var high: UInt64 = 0
    let raw = UnsafeRawPointer(bytes)
    var index = 0
    while index + 8 <= count {
      let chunk = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      high |= chunk
      hash = (hash ^ chunk) &* 0x9E37_79B9_7F4A_7C15
      hash ^= hash >> 29
      index += 8
    }
    if index < count {
      // The last partial word, little-endian (the key's bytes are the low ones): loaded whole
      // and masked when the bytes after it may be read, else a byte at a time.
      let chunk =
        index + 8 <= readable
        ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) & (UInt64.max >> (64 - 8 * UInt64(count - index)))
        : UniquingTable.littleEndianTail(raw, from: index, to: count)
      high |= chunk
      hash = (hash ^ chunk) &* 0x9E37_79B9_7F4A_7C15
      hash ^= hash >> 29
    }
    guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
    let fingerprint = Self.finish(hash, count: count)
    guard count <= Self.maximumCachedCount else {
      return (String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self), fingerprint)
    }
    if entries.isEmpty { entries = Array(repeating: Entry(), count: Self.slotCount) }
    let slot = Int(truncatingIfNeeded: fingerprint >> (64 - UInt64(Self.slotBits)))
    return entries.withUnsafeMutableBufferPointer { entries in
      if entries[slot].count == count, let cached = entries[slot].bytes,
        cached == bytes || Self.sameBytes(cached, bytes, count, readable: readable)
      {
        return (entries[slot].string, fingerprint)
      }
      let string = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
      entries[slot] = Entry(bytes: bytes, count: count, string: string)
      return (string, fingerprint)
    }
  }

  /// Whether the `count` bytes at `cached` and at `bytes` are equal, a word at a time. `cached`
  /// comes from earlier in the same document, so whatever may be read after `bytes` (`readable`
  /// bytes from it) may be read after `cached` too.
  @inline(__always)
  private static func sameBytes(_ cached: UnsafePointer<UInt8>, _ bytes: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> Bool {
    guard cached < bytes, count + 8 <= readable else { return memcmp(cached, bytes, count) == 0 }
    let left = UnsafeRawPointer(cached)
    let right = UnsafeRawPointer(bytes)
    var index = 0
    while index + 8 <= count {
      if left.loadUnaligned(fromByteOffset: index, as: UInt64.self) != right.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
        return false
      }
      index += 8
    }
    guard index < count else { return true }
    let mask = UInt64.max >> (64 - 8 * UInt64(count - index))
    let difference = UInt64(littleEndian: left.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      ^ UInt64(littleEndian: right.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    return difference & mask == 0
  }

  @inline(__always)
  private static func finish(_ hash: UInt64, count: Int) -> UInt64 {
    var mixed = (hash ^ UInt64(truncatingIfNeeded: count)) &* 0xBF58_476D_1CE4_E5B9
    mixed ^= mixed >> 31
    mixed = mixed &* 0x94D0_49BB_1331_11EB
    mixed ^= mixed >> 32
    return mixed | 1
  }
}
