import FoundationEssentials

/// What ``XMLPlistParser`` hands the elements it reads to: the value tree
/// (`XMLPlistTreeSink`, for ``XMLPlistReader``) or the Codable decoder's flat record of the
/// document (`XMLPlistTapeSink`). The parser owns the grammar, the limits, duplicate-key
/// detection and every error; a sink only stores what it is given, so both accept exactly the
/// same documents.
protocol XMLPlistSink {
  /// A finished element as the sink keeps it (a value, an entry number).
  associatedtype Value

  /// The text of a `<string>` (or of a `<key>` read as a value) just scanned, a run of the
  /// document without references or CDATA (`start..<end`; `readable` bytes may be read from
  /// `start` on), if the sink can keep it without making a string (a cached one, a run of
  /// ASCII); else `nil`, and the string made from it comes through ``scalar(_:)``.
  mutating func string(_ start: Int, _ end: Int, base: UnsafePointer<UInt8>, readable: Int) -> Value?

  /// Any other finished element: a scalar, a UID, a string, an empty container.
  mutating func scalar(_ value: consuming PropertyListValue) -> Value

  /// A dictionary key's text just scanned, a run of the document as for ``string(_:_:base:readable:)``:
  /// its fingerprint if the sink can keep it without making a string; else `nil`, and the string
  /// made from it comes through ``key(made:)``.
  mutating func key(_ start: Int, _ end: Int, base: UnsafePointer<UInt8>, readable: Int) -> UInt64?

  /// A dictionary key made into a string (its fingerprint is unknown).
  mutating func key(made key: consuming String)

  /// `<key/>`.
  mutating func emptyKey()

  /// A container opens at nesting `level` (0: the outermost) inside one of kind `parent`.
  mutating func open(_ tag: XMLPlistTag, level: Int, parent: XMLPlistTag?)

  /// A finished child of the innermost open container, which is of kind `container`.
  mutating func deliver(_ value: consuming Value, into container: XMLPlistTag)

  /// The innermost array closes; the container of kind `parent` (if any) is current again.
  mutating func closeArray(level: Int, parent: XMLPlistTag?) -> Value

  /// The innermost dictionary closes, with the fingerprints of its keys in order.
  mutating func closeDictionary(level: Int, parent: XMLPlistTag?, fingerprints: UnsafeBufferPointer<UInt64>) -> Value

  /// The innermost `<plist>` closes with its one value.
  mutating func closePlist(parent: XMLPlistTag?) -> Value
}

/// CoreFoundation's XML property-list grammar above the scanner: elements, containers, keys,
/// the depth and value limits, keyed-archiver UIDs. Containers are tracked without recursion
/// (an explicit stack), so depth limits far above CF's 512 cannot overflow the thread's stack.
struct XMLPlistParser<Sink: XMLPlistSink> {
  var scanner: XMLPlistScanner
  var sink: Sink
  let maximumDepth: Int
  let maximumObjectCount: Int
  /// For each key of every open dictionary, a fingerprint of its bytes
  /// (``XMLPlistKeyCache/unknownFingerprint`` for keys that are not plain ASCII), to rule out
  /// duplicate keys cheaply; the innermost dictionary's start at `current.fingerprintStart`.
  var keyFingerprints: [UInt64] = []
  /// The innermost open container, valid while `openCount > 0`.
  var current = Frame(tag: .plist, openedAt: 0)
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
    /// Where this dictionary's keys start in `keyFingerprints`.
    var fingerprintStart = 0
    /// Offset of the open tag's `<`, for messages.
    let openedAt: Int
    /// Dictionaries: a key has been read and its value not yet.
    var awaitingValue = false
    /// `<plist>`: its one value has been read.
    var hasValue = false
  }

  init(_ text: UnsafeRawBufferPointer, sink: Sink, options: PropertyListReadingOptions) {
    scanner = XMLPlistScanner(text)
    self.sink = sink
    maximumDepth = options.maximumDepth
    maximumObjectCount = options.maximumObjectCount
  }

  /// The kind of the container around `current`, if any.
  @inline(__always) private var parentTag: XMLPlistTag? { parents.last?.tag }

  mutating func parseDocument() throws(PropertyListError) -> Sink.Value {
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
        try deliver(consume value, openedAt: closed.openedAt)
      case .element:
        let openedAt = scanner.position - 1
        if current.tag == .dict && !current.awaitingValue {
          let (tag, isEmpty) = try scanner.readStartTag()
          guard tag == .key else {
            throw scanner.failure(.unexpectedInput, "found <\(tag.name)> inside <dict> where a <key> was expected", at: openedAt)
          }
          try countObject(at: openedAt)
          if isEmpty {
            sink.emptyKey()
            keyFingerprints.append(XMLPlistKeyCache.emptyFingerprint)
          } else {
            try key(openedAt: openedAt)
          }
          current.awaitingValue = true
        } else if let value = try element(openedAt: openedAt) {
          try deliver(consume value, openedAt: openedAt)
        }
      }
    }
  }

  /// Reads the element whose `<` is at `openedAt` (the scanner is just after it). Returns its
  /// value, or `nil` after opening a container, whose children follow.
  @inline(__always)
  private mutating func element(openedAt: Int) throws(PropertyListError) -> Sink.Value? {
    let (tag, isEmpty) = try scanner.readStartTag()
    switch tag {
    case .string, .key:
      try countObject(at: openedAt)
      if isEmpty { return sink.scalar(.string("")) }
      return try text(of: tag, openedAt: openedAt)
    case .dict:
      try countObject(at: openedAt)
      if isEmpty { return sink.scalar(.dictionary(PropertyListDictionary())) }
      if let uid = try keyedArchiverReference() { return sink.scalar(.uid(uid)) }
      try open(.dict, openedAt: openedAt)
      return nil
    case .array:
      try countObject(at: openedAt)
      if isEmpty { return sink.scalar(.array([])) }
      try open(.array, openedAt: openedAt)
      return nil
    case .integer, .real, .date, .data:
      // A scalar that must have content (`<integer/>` is refused).
      guard !isEmpty else { throw emptyElement(tag, openedAt) }
      try countObject(at: openedAt)
      switch tag {
      case .integer: return sink.scalar(.integer(try scanner.scanInteger(openedAt: openedAt)))
      case .real: return sink.scalar(.real(try scanner.scanReal(scratch: &scratch, openedAt: openedAt), width: .double))
      case .date: return sink.scalar(.date(try scanner.scanDate(openedAt: openedAt)))
      default: return sink.scalar(.data(try scanner.scanData(openedAt: openedAt)))
      }
    case .true, .false:
      try countObject(at: openedAt)
      if !isEmpty { try scanner.expectCloseTag(tag) }
      return sink.scalar(.bool(tag == .true))
    case .plist:
      guard !isEmpty else {
        throw scanner.failure(.unexpectedInput, "<plist/> is empty; expected one value inside <plist>", at: openedAt)
      }
      try open(.plist, openedAt: openedAt)
      return nil
    }
  }

  /// Reads the text of a `<string>` (or a `<key>` read as a value) and its close tag, apart
  /// from ``element(openedAt:)`` (whose other cases are short), as the tree reader always had it.
  private mutating func text(of tag: XMLPlistTag, openedAt: Int) throws(PropertyListError) -> Sink.Value {
    let value: Sink.Value
    let text = try scanner.scanText(scratch: &scratch)
    if case .run(let start, let end) = text,
      let kept = sink.string(start, end, base: scanner.base, readable: scanner.count - start)
    {
      value = kept
    } else {
      value = sink.scalar(.string(try scanner.makeString(text, scratch: scratch, openedAt: openedAt)))
    }
    try scanner.expectCloseTag(tag)
    return value
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
    return XMLPlistTreeSink.keyedArchiverUID(integer)
  }

  /// Reads the text of a `<key>` and its close tag, handing the key to the sink and keeping its
  /// fingerprint.
  @inline(__always)
  private mutating func key(openedAt: Int) throws(PropertyListError) {
    let text = try scanner.scanText(scratch: &scratch)
    if case .run(let start, let end) = text,
      let fingerprint = sink.key(start, end, base: scanner.base, readable: scanner.count - start)
    {
      keyFingerprints.append(fingerprint)
    } else {
      sink.key(made: try scanner.makeString(text, scratch: scratch, openedAt: openedAt))
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
    let parent: XMLPlistTag? = openCount > 0 ? current.tag : nil
    if openCount > 0 { parents.append(current) }
    current = Frame(tag: tag, openedAt: openedAt)
    if tag == .dict { current.fingerprintStart = keyFingerprints.count }
    sink.open(tag, level: openCount, parent: parent)
    openCount += 1
  }

  @inline(__always)
  private mutating func deliver(_ value: consuming Sink.Value, openedAt: Int) throws(PropertyListError) {
    switch current.tag {
    case .array:
      break
    case .dict:
      current.awaitingValue = false
    default:
      guard !current.hasValue else {
        throw scanner.failure(.unexpectedInput, "<plist> holds more than one value; expected </plist>", at: openedAt)
      }
      current.hasValue = true
    }
    sink.deliver(value, into: current.tag)
  }

  /// Handles the close tag at the scanner's position for `frame`.
  private mutating func close(_ frame: Frame) throws(PropertyListError) -> Sink.Value {
    switch frame.tag {
    case .array:
      try scanner.expectCloseTag(.array)
      return sink.closeArray(level: openCount - 1, parent: parentTag)
    case .dict:
      guard !frame.awaitingValue else {
        throw scanner.failure(.unexpectedInput, "the last <key> in <dict> has no value", at: scanner.position)
      }
      try scanner.expectCloseTag(.dict)
      let level = openCount - 1
      let parent = parentTag
      let value = keyFingerprints.withUnsafeBufferPointer {
        sink.closeDictionary(level: level, parent: parent, fingerprints: UnsafeBufferPointer(rebasing: $0[frame.fingerprintStart...]))
      }
      keyFingerprints.removeLast(keyFingerprints.count - frame.fingerprintStart)
      return value
    default:
      guard frame.hasValue else {
        throw scanner.failure(.unexpectedInput, "<plist> is empty; expected one value inside it", at: frame.openedAt)
      }
      try scanner.expectCloseTag(.plist)
      return sink.closePlist(parent: parentTag)
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
