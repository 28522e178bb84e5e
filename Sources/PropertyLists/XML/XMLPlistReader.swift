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
/// The grammar is `XMLPlistParser`'s, which builds the tree through `XMLPlistTreeSink` without
/// recursion (an explicit stack), so depth limits far above CF's 512 cannot overflow the
/// thread's stack.
enum XMLPlistReader {
  static func read(_ buffer: UnsafeRawBufferPointer, options: PropertyListReadingOptions) throws(PropertyListError) -> PropertyListValue {
    guard !buffer.isEmpty else { throw emptyDocument() }
    switch try XMLPlistTextEncoding.utf8Text(buffer) {
    case .inPlace(let skip):
      guard skip < buffer.count else { throw emptyDocument() }
      var parser = XMLPlistParser(UnsafeRawBufferPointer(rebasing: buffer[skip...]), sink: XMLPlistTreeSink(), options: options)
      defer { parser.sink.release() }
      return try parser.parseDocument()
    case .converted(let bytes):
      guard !bytes.isEmpty else { throw emptyDocument() }
      return try withContiguousBytes(of: bytes) { (text) throws(PropertyListError) in
        var parser = XMLPlistParser(text, sink: XMLPlistTreeSink(), options: options)
        defer { parser.sink.release() }
        return try parser.parseDocument()
      }
    }
  }

  private static func emptyDocument() -> PropertyListError {
    PropertyListError(.truncated, format: .xml, position: .line(1), detail: "the document is empty; expected <plist> or another element")
  }
}

/// Turns the parser's elements into a ``PropertyListValue``.
///
/// The children of every open container wait on one stack (and a dictionary's keys on another),
/// and closing a container moves them into an array of exactly their number (see
/// ``XMLPlistPendingStack``). Dictionaries of one shape — the records of an array, the same
/// small dictionary inside each — share one keys array, as the binary reader's do.
///
/// The owner ends a sink exactly once with ``release()``, whether the document was read or
/// refused.
struct XMLPlistTreeSink: XMLPlistSink {
  /// The children of the open containers, innermost last.
  var values = XMLPlistPendingStack<PropertyListValue>()
  /// The keys read so far by the open dictionaries, innermost last.
  var keys = XMLPlistPendingStack<String>()
  /// For each open container, where its children start in `values` and its keys in `keys`.
  var starts = XMLPlistPendingStack<(values: Int, keys: Int)>()
  /// Keys arrays of dictionaries already closed, by a hash of their keys' fingerprints, for the
  /// next dictionary with the same keys in the same order (allocated at the first one).
  var shapes: [[String]] = []
  /// Dictionary keys already made into strings.
  var keyCache = XMLPlistKeyCache()
  /// Short `<string>` values already made into strings (tags, names and codes repeat).
  var valueCache = XMLPlistKeyCache()

  /// The number of slots in `shapes` (a power of two).
  private static var shapeSlotBits: Int { 6 }

  /// Frees the stacks, with whatever a refused document left on them.
  mutating func release() {
    values.release()
    keys.release()
    starts.release()
  }

  @inline(__always)
  mutating func string(_ start: Int, _ end: Int, base: UnsafePointer<UInt8>, readable: Int) -> PropertyListValue? {
    guard end - start <= 24, let (cached, _) = valueCache.string(base + start, end - start, readable: readable) else { return nil }
    return .string(cached)
  }

  @inline(__always)
  mutating func scalar(_ value: consuming PropertyListValue) -> PropertyListValue { value }

  @inline(__always)
  mutating func key(_ start: Int, _ end: Int, base: UnsafePointer<UInt8>, readable: Int) -> UInt64? {
    guard let (string, fingerprint) = keyCache.string(base + start, end - start, readable: readable) else { return nil }
    keys.push(string)
    return fingerprint
  }

  @inline(__always)
  mutating func key(made key: consuming String) { keys.push(key) }

  @inline(__always)
  mutating func emptyKey() { keys.push("") }

  @inline(__always)
  mutating func open(_ tag: XMLPlistTag, level: Int, parent: XMLPlistTag?) {
    starts.push((values.count, keys.count))
  }

  @inline(__always)
  mutating func deliver(_ value: consuming PropertyListValue, into container: XMLPlistTag) {
    values.push(value)
  }

  mutating func closeArray(level: Int, parent: XMLPlistTag?) -> PropertyListValue {
    let start = starts.popLast()
    return .array(values.popArray(from: start.values))
  }

  mutating func closeDictionary(level: Int, parent: XMLPlistTag?, fingerprints: UnsafeBufferPointer<UInt64>) -> PropertyListValue {
    let start = starts.popLast()
    let keyCount = keys.count - start.keys
    let unique = Self.fingerprintsDiffer(fingerprints)
    let entryKeys =
      unique && keyCount > 0 && keyCount <= PropertyListDictionary.indexThreshold
      ? sharedKeys(from: start.keys, fingerprints: fingerprints) : keys.popArray(from: start.keys)
    let entryValues = values.popArray(from: start.values)
    if !entryKeys.isEmpty, entryKeys[0] == "CF$UID", let uid = Self.keyedArchiverUID(keys: entryKeys, values: entryValues) {
      return .uid(uid)
    }
    if unique { return .dictionary(PropertyListDictionary(uniqueKeys: entryKeys, values: entryValues)) }
    // Possibly repeated keys: the last value wins (and the first position).
    return .dictionary(PropertyListDictionary(keys: entryKeys, values: entryValues))
  }

  /// The keys from `start` on, taken off the stack: the keys array of an earlier dictionary if it
  /// holds the same keys in the same order, else a new one (remembered for the next dictionary).
  /// The keys are plain ASCII (their `fingerprints` are all known) and unique.
  @inline(__always)
  private mutating func sharedKeys(from start: Int, fingerprints: UnsafeBufferPointer<UInt64>) -> [String] {
    var hash = UInt64(truncatingIfNeeded: fingerprints.count)
    for print in fingerprints {
      hash = (hash ^ print) &* 0x9E37_79B9_7F4A_7C15
    }
    let slot = Int(truncatingIfNeeded: hash >> UInt64(64 - Self.shapeSlotBits))
    if shapes.isEmpty { shapes = Array(repeating: [], count: 1 << Self.shapeSlotBits) }
    if keys.elements(from: start, equal: shapes[slot]) {
      keys.drop(from: start)
      return shapes[slot]
    }
    let made = keys.popArray(from: start)
    shapes[slot] = made
    return made
  }

  mutating func closePlist(parent: XMLPlistTag?) -> PropertyListValue {
    _ = starts.popLast()
    return values.popLast()
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
}
