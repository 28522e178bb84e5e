import FoundationEssentials

/// Reads XML property lists (`kCFPropertyListXMLFormat_v1_0`, what
/// `PropertyListSerialization.propertyList(from:options:format:)` reads as `.xml`) with
/// CoreFoundation's rules (formats.md §2.4):
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
/// * a DOCTYPE internal subset (`<!DOCTYPE plist [ … ]>`) is skipped, as formats.md §2.4 asks;
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
/// Children of all open containers share one value stack and one key stack; a container's
/// children are copied out in one piece when its close tag arrives, so each array and dictionary
/// is allocated once at its final size.
struct XMLPlistTreeBuilder {
  var scanner: XMLPlistScanner
  let maximumDepth: Int
  let maximumObjectCount: Int
  var values: [PropertyListValue] = []
  var keys: [String] = []
  /// The innermost open container, valid while `openCount > 0`.
  var current = Frame(tag: .plist, valueStart: 0, keyStart: 0, openedAt: 0)
  /// The containers around `current`, outermost first.
  var parents: [Frame] = []
  var openCount = 0
  /// Whether the outermost container is a `<plist>` (which does not count towards the depth).
  var rootIsPlist = false
  var objectCount = 0
  /// Reused for text with references or CDATA.
  var scratch: [UInt8] = []

  struct Frame {
    /// `.array`, `.dict` or `.plist`.
    let tag: XMLPlistTag
    let valueStart: Int
    let keyStart: Int
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
        current = parents.removeLast()
        try deliver(value, openedAt: closed.openedAt)
      case .element:
        let openedAt = scanner.position - 1
        if current.tag == .dict && !current.awaitingValue {
          let (tag, isEmpty) = try scanner.readStartTag()
          guard tag == .key else {
            throw scanner.failure(.unexpectedInput, "found <\(tag.name)> inside <dict> where a <key> was expected", at: openedAt)
          }
          try countObject(at: openedAt)
          keys.append(isEmpty ? "" : try text(of: .key, openedAt: openedAt))
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
      try open(.dict, openedAt: openedAt)
      return nil
    case .array:
      try countObject(at: openedAt)
      if isEmpty { return .array([]) }
      try open(.array, openedAt: openedAt)
      return nil
    case .integer:
      guard !isEmpty else { throw emptyElement(tag, openedAt) }
      try countObject(at: openedAt)
      return .integer(try scanner.scanInteger(openedAt: openedAt))
    case .real:
      guard !isEmpty else { throw emptyElement(tag, openedAt) }
      try countObject(at: openedAt)
      return .real(try scanner.scanReal(scratch: &scratch, openedAt: openedAt), width: .double)
    case .date:
      guard !isEmpty else { throw emptyElement(tag, openedAt) }
      try countObject(at: openedAt)
      return .date(try scanner.scanDate(openedAt: openedAt))
    case .data:
      guard !isEmpty else { throw emptyElement(tag, openedAt) }
      try countObject(at: openedAt)
      return .data(try scanner.scanData(openedAt: openedAt))
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
    let string = try scanner.makeString(text, scratch: scratch, openedAt: openedAt)
    try scanner.expectCloseTag(tag)
    return string
  }

  private mutating func open(_ tag: XMLPlistTag, openedAt: Int) throws(PropertyListError) {
    // The outermost <plist> is not a container of values and does not count towards the depth.
    if openCount == 0 { rootIsPlist = tag == .plist }
    let depth = openCount + 1 - (rootIsPlist ? 1 : 0)
    guard depth <= maximumDepth else {
      throw scanner.failure(.tooDeep, "containers nest deeper than \(maximumDepth) levels", at: openedAt)
    }
    if openCount > 0 { parents.append(current) }
    current = Frame(tag: tag, valueStart: values.count, keyStart: keys.count, openedAt: openedAt)
    openCount += 1
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
      let elements = Array(values[frame.valueStart...])
      values.removeLast(values.count - frame.valueStart)
      return .array(elements)
    case .dict:
      guard !frame.awaitingValue else {
        throw scanner.failure(.unexpectedInput, "the last <key> in <dict> has no value", at: scanner.position)
      }
      try scanner.expectCloseTag(.dict)
      let entryKeys = Array(keys[frame.keyStart...])
      keys.removeLast(keys.count - frame.keyStart)
      let entryValues = Array(values[frame.valueStart...])
      values.removeLast(values.count - frame.valueStart)
      if !entryKeys.isEmpty, entryKeys[0] == "CF$UID", let uid = Self.keyedArchiverUID(keys: entryKeys, values: entryValues) {
        return .uid(uid)
      }
      return .dictionary(PropertyListDictionary(keys: entryKeys, values: entryValues))
    default:
      guard frame.hasValue else {
        throw scanner.failure(.unexpectedInput, "<plist> is empty; expected one value inside it", at: frame.openedAt)
      }
      try scanner.expectCloseTag(.plist)
      return values.removeLast()
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
      if !integer.isNegative { return integer.bitPattern }
      let value = Int64(bitPattern: integer.bitPattern)
      return UInt64(UInt32(bitPattern: value < Int64(Int32.min) ? Int32.min : Int32(value)))
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
