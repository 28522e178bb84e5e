import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The elements of Apple's property-list DTD. Names are case-sensitive.
enum XMLPlistTag: UInt8 {
  case plist, array, dict, key, string, data, date, real, integer, `true`, `false`

  var name: StaticString {
    switch self {
    case .plist: "plist"
    case .array: "array"
    case .dict: "dict"
    case .key: "key"
    case .string: "string"
    case .data: "data"
    case .date: "date"
    case .real: "real"
    case .integer: "integer"
    case .true: "true"
    case .false: "false"
    }
  }

  /// The first eight bytes (or fewer) of `</name>` as a little-endian word, the mask of the bytes
  /// that count, and the length of the whole close tag.
  var closeTagWord: (word: UInt64, mask: UInt64, length: Int) {
    switch self {
    case .key: (0x3E79_656B_2F3C, 0xFFFF_FFFF_FFFF, 6)  // </key>
    case .string: (0x676E_6972_7473_2F3C, ~0, 9)  // </string, then >
    case .integer: (0x6567_6574_6E69_2F3C, ~0, 10)  // </intege, then r>
    case .real: (0x3E_6C61_6572_2F3C, 0xFF_FFFF_FFFF_FFFF, 7)  // </real>
    case .date: (0x3E_6574_6164_2F3C, 0xFF_FFFF_FFFF_FFFF, 7)  // </date>
    case .data: (0x3E_6174_6164_2F3C, 0xFF_FFFF_FFFF_FFFF, 7)  // </data>
    case .dict: (0x3E_7463_6964_2F3C, 0xFF_FFFF_FFFF_FFFF, 7)  // </dict>
    case .array: (0x3E79_6172_7261_2F3C, ~0, 8)  // </array>
    case .plist: (0x3E74_7369_6C70_2F3C, ~0, 8)  // </plist>
    case .true: (0x3E_6575_7274_2F3C, 0xFF_FFFF_FFFF_FFFF, 7)  // </true>
    case .false: (0x3E65_736C_6166_2F3C, ~0, 8)  // </false>
    }
  }
}

/// A byte cursor over UTF-8 XML, with one method per construct of CoreFoundation's XML
/// property-list grammar (`CFPropertyList.c`: `skipWhitespace`, `skipXMLComment`, `skipDTD`,
/// `getContentObject`, `parseXMLElement`, `checkForCloseTag`, `parseStringTag`, …).
///
/// The scanner knows the syntax; ``XMLPlistReader`` knows the tree. All reads go through `base`
/// with offsets that each method checks against `count` first, so no input can read out of bounds.
/// Line numbers are only computed when an error is thrown.
struct XMLPlistScanner {
  let base: UnsafePointer<UInt8>
  let count: Int
  /// Offset of the next byte to read.
  var position: Int

  init(_ buffer: UnsafeRawBufferPointer) {
    precondition(!buffer.isEmpty, "the reader rejects empty documents before scanning")
    base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    count = buffer.count
    position = 0
  }

  // MARK: Errors

  /// The 1-based line of `offset`, counting `\n`, `\r` and `\r\n` as CF's `lineNumber` does.
  func lineNumber(at offset: Int) -> Int {
    var line = 1
    var index = 0
    let limit = Swift.min(Swift.max(offset, 0), count)
    while index < limit {
      let byte = base[index]
      if byte == 0x0D {
        line += 1
        if index + 1 < limit && base[index + 1] == 0x0A { index += 1 }
      } else if byte == 0x0A {
        line += 1
      }
      index += 1
    }
    return line
  }

  @inline(never)
  func failure(_ code: PropertyListError.Code, _ detail: String, at offset: Int) -> PropertyListError {
    PropertyListError(code, format: .xml, position: .line(lineNumber(at: offset)), detail: detail)
  }

  @inline(never)
  func endOfDocument(_ context: String, at offset: Int) -> PropertyListError {
    failure(.truncated, "the document ends \(context)", at: offset)
  }

  @inline(never)
  func unclosed(_ container: XMLPlistTag, openedAt: Int) -> PropertyListError {
    endOfDocument("inside the <\(container.name)> opened on line \(lineNumber(at: openedAt)); expected </\(container.name)>", at: count)
  }

  /// A byte for use in a message: printable ASCII as itself, anything else in hex.
  static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16, uppercase: true)
  }

  // MARK: Whitespace and markup that carries no value

  /// Skips the XML whitespace CF knows: space, tab, LF, CR.
  @inline(__always)
  mutating func skipWhitespace() {
    // Indentation comes in runs ("\n\t\t\t"): eight bytes at a time while whole words are white.
    while count - position >= 8 {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
      let white = Self.zeroBytes(word ^ 0x2020_2020_2020_2020) | Self.zeroBytes(word ^ 0x0909_0909_0909_0909)
        | Self.zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A) | Self.zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
      let other = ~white & 0x8080_8080_8080_8080
      if other != 0 {
        position += other.trailingZeroBitCount >> 3
        return
      }
      position += 8
    }
    while position < count {
      let byte = base[position]
      guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
      position += 1
    }
  }

  /// The high bit of each byte of `word` that is zero, and no other bit (exact for every byte,
  /// unlike the borrow trick, which may also mark the byte above a zero).
  @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 {
    let low = 0x7F7F_7F7F_7F7F_7F7F as UInt64
    return ~(((word & low) &+ low) | word | low)
  }

  /// Skips to just after `-->`, searching from `from`. Like CF, the `-->` must be followed by at
  /// least one more byte.
  mutating func skipComment(from: Int, openedAt: Int) throws(PropertyListError) {
    var index = from
    let limit = count - 3
    while index < limit {
      if base[index] == UInt8(ascii: "-") && base[index + 1] == UInt8(ascii: "-") && base[index + 2] == UInt8(ascii: ">") {
        position = index + 3
        return
      }
      index += 1
    }
    throw failure(.truncated, "a comment (<!--) is never closed with -->", at: openedAt)
  }

  /// Skips to just after `?>`, searching from `from`; CF needs a byte after the `?>`.
  mutating func skipProcessingInstruction(from: Int, openedAt: Int) throws(PropertyListError) {
    var index = from
    let limit = count - 2
    while index < limit {
      if base[index] == UInt8(ascii: "?") && base[index + 1] == UInt8(ascii: ">") {
        position = index + 2
        return
      }
      index += 1
    }
    throw failure(.truncated, "a processing instruction (<?) is never closed with ?>", at: openedAt)
  }

  /// Skips a document type declaration; `position` is just after `<!`.
  ///
  /// The internal subset (`[...]`) is skipped, never interpreted: parameter-entity references,
  /// comments, processing instructions and `<!ELEMENT …>`/`<!ENTITY …>`/`<!ATTLIST …>`
  /// declarations (quote-aware) are passed over, and no entity declared there is ever expanded.
  mutating func skipDocumentType(openedAt: Int) throws(PropertyListError) {
    let keyword: StaticString = "DOCTYPE"
    guard count - position >= 7, matches(keyword, at: position) else {
      throw failure(.unexpectedInput, "<! at the top level must start a comment (<!--) or <!DOCTYPE", at: openedAt)
    }
    position += 7
    skipWhitespace()
    while position < count {
      let byte = base[position]
      if byte == UInt8(ascii: ">") {
        position += 1
        return
      }
      if byte == UInt8(ascii: "[") { break }
      position += 1
    }
    guard position < count else { throw endOfDocument("inside <!DOCTYPE; expected >", at: openedAt) }
    position += 1  // past '['
    try skipInternalSubset(openedAt: openedAt)
    skipWhitespace()
    guard position < count else { throw endOfDocument("inside <!DOCTYPE after its internal subset; expected >", at: openedAt) }
    guard base[position] == UInt8(ascii: ">") else {
      throw failure(.unexpectedInput, "found \(Self.describe(base[position])) after the internal subset of <!DOCTYPE; expected >", at: position)
    }
    position += 1
  }

  private mutating func skipInternalSubset(openedAt: Int) throws(PropertyListError) {
    while true {
      skipWhitespace()
      guard position < count else { throw endOfDocument("inside the internal subset of <!DOCTYPE; expected ]", at: openedAt) }
      let byte = base[position]
      switch byte {
      case UInt8(ascii: "]"):
        position += 1
        return
      case UInt8(ascii: "%"):
        // A parameter-entity reference: skipped, not expanded.
        let start = position
        while position < count && base[position] != UInt8(ascii: ";") { position += 1 }
        guard position < count else { throw endOfDocument("inside a %reference; in the internal subset", at: start) }
        position += 1
      case UInt8(ascii: "<"):
        let start = position
        position += 1
        guard position < count else { throw endOfDocument("inside the internal subset of <!DOCTYPE", at: start) }
        if base[position] == UInt8(ascii: "?") {
          try skipProcessingInstruction(from: position + 1, openedAt: start)
        } else if base[position] == UInt8(ascii: "!") {
          if position + 2 < count && base[position + 1] == UInt8(ascii: "-") && base[position + 2] == UInt8(ascii: "-") {
            try skipComment(from: position + 3, openedAt: start)
          } else {
            try skipDeclaration(openedAt: start)
          }
        } else {
          throw failure(.unexpectedInput, "found \(Self.describe(base[position])) after < in the internal subset; expected <! or <?", at: position)
        }
      default:
        throw failure(.unexpectedInput, "found \(Self.describe(byte)) in the internal subset of <!DOCTYPE; expected a declaration or ]", at: position)
      }
    }
  }

  /// Skips `<!NAME … >` honouring quoted literals; `position` is at the `!`.
  private mutating func skipDeclaration(openedAt: Int) throws(PropertyListError) {
    position += 1
    var quote: UInt8 = 0
    while position < count {
      let byte = base[position]
      position += 1
      if quote != 0 {
        if byte == quote { quote = 0 }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
      } else if byte == UInt8(ascii: ">") {
        return
      }
    }
    throw endOfDocument("inside a declaration in the internal subset; expected >", at: openedAt)
  }

  /// Moves past the prolog (whitespace, comments, processing instructions, the DOCTYPE) to the
  /// first element, leaving `position` just after its `<`. This is CF's `parseXMLPropertyList`
  /// loop: the first element is the document, whatever its name.
  mutating func skipProlog() throws(PropertyListError) {
    while true {
      skipWhitespace()
      guard position + 1 < count else {
        throw failure(.truncated, "no XML element found; expected <plist> or another element", at: position)
      }
      guard base[position] == UInt8(ascii: "<") else {
        throw failure(.unexpectedInput, "found \(Self.describe(base[position])) before the first element; expected <", at: position)
      }
      let open = position
      position += 1
      switch base[position] {
      case UInt8(ascii: "!"):
        position += 1
        if position + 1 < count && base[position] == UInt8(ascii: "-") && base[position + 1] == UInt8(ascii: "-") {
          try skipComment(from: position + 2, openedAt: open)
        } else {
          try skipDocumentType(openedAt: open)
        }
      case UInt8(ascii: "?"):
        try skipProcessingInstruction(from: position + 1, openedAt: open)
      default:
        return
      }
    }
  }

  // MARK: Content of containers

  enum Content {
    /// An element starts; `position` is just after its `<`.
    case element
    /// A close tag starts; `position` is at its `<`.
    case closeTag
  }

  /// CF's `getContentObject`: skips whitespace, comments and processing instructions between the
  /// children of a container. Text is not allowed here.
  @inline(__always)
  mutating func nextContent(inside container: XMLPlistTag, openedAt: Int) throws(PropertyListError) -> Content {
    while true {
      skipWhitespace()
      guard position < count else { throw unclosed(container, openedAt: openedAt) }
      guard base[position] == UInt8(ascii: "<") else {
        throw failure(.unexpectedInput, "found \(Self.describe(base[position])) inside <\(container.name)>; expected an element or </\(container.name)>", at: position)
      }
      let open = position
      position += 1
      guard position < count else { throw endOfDocument("after <; expected a tag", at: open) }
      switch base[position] {
      case UInt8(ascii: "/"):
        position = open
        return .closeTag
      case UInt8(ascii: "?"):
        // CF starts looking for "?>" at the '?' itself.
        try skipProcessingInstruction(from: position, openedAt: open)
      case UInt8(ascii: "!"):
        guard position + 2 < count else { throw endOfDocument("after <!; expected a comment", at: open) }
        guard base[position + 1] == UInt8(ascii: "-") && base[position + 2] == UInt8(ascii: "-") else {
          throw failure(.unexpectedInput, "found <! inside <\(container.name)> that does not start a comment (<!--)", at: open)
        }
        // CF starts looking for "-->" at the second '-'.
        try skipComment(from: position + 2, openedAt: open)
      default:
        return .element
      }
    }
  }

  // MARK: Tags

  @inline(__always)
  func matches(_ literal: StaticString, at offset: Int) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard offset >= 0, count - offset >= length else { return false }
    let pointer = literal.utf8Start
    for index in 0..<length where base[offset + index] != pointer[index] { return false }
    return true
  }

  /// CF's `parseXMLElement` head: `position` is just after `<`. Reads the tag name (up to the
  /// first whitespace, or up to `>`/`/>`), ignores attributes, and moves past the first `>`
  /// (quotes are not special, as in CF). Returns the tag and whether it was `<name/>`.
  @inline(__always)
  mutating func readStartTag() throws(PropertyListError) -> (tag: XMLPlistTag, isEmpty: Bool) {
    if count - position >= 8, let (tag, isEmpty, length) = Self.plainStartTag(UnsafeRawPointer(base + position)) {
      position += length
      return (tag, isEmpty)
    }
    return try readStartTagSlow()
  }

  /// The attribute-less start tags written by CF (`key>`, `string>`, `true/>` …, after the `<`)
  /// recognized by comparing the next eight bytes (which must be readable) as one word: the tag,
  /// whether it is empty, and the bytes to skip. `nil` for anything else, which
  /// ``readStartTagSlow()`` reads the general way with the same outcome.
  @inline(__always)
  static func plainStartTag(_ bytes: UnsafeRawPointer) -> (XMLPlistTag, Bool, Int)? {
    let word = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
    let four = word & 0xFFFF_FFFF
    let five = word & 0xFF_FFFF_FFFF
    let six = word & 0xFFFF_FFFF_FFFF
    let seven = word & 0xFF_FFFF_FFFF_FFFF
    switch word & 0xFF {
    case UInt64(UInt8(ascii: "k")): if four == 0x3E79_656B { return (.key, false, 4) }  // key>
    case UInt64(UInt8(ascii: "s")): if seven == 0x3E_676E_6972_7473 { return (.string, false, 7) }  // string>
    case UInt64(UInt8(ascii: "d")):
      if five == 0x3E_7463_6964 { return (.dict, false, 5) }  // dict>
      if five == 0x3E_6174_6164 { return (.data, false, 5) }  // data>
      if five == 0x3E_6574_6164 { return (.date, false, 5) }  // date>
    case UInt64(UInt8(ascii: "i")): if word == 0x3E72_6567_6574_6E69 { return (.integer, false, 8) }  // integer>
    case UInt64(UInt8(ascii: "r")): if five == 0x3E_6C61_6572 { return (.real, false, 5) }  // real>
    case UInt64(UInt8(ascii: "a")): if six == 0x3E79_6172_7261 { return (.array, false, 6) }  // array>
    case UInt64(UInt8(ascii: "t")): if six == 0x3E2F_6575_7274 { return (.true, true, 6) }  // true/>
    case UInt64(UInt8(ascii: "f")): if seven == 0x3E_2F65_736C_6166 { return (.false, true, 7) }  // false/>
    default: break
    }
    return nil
  }

  private mutating func readStartTagSlow() throws(PropertyListError) -> (tag: XMLPlistTag, isEmpty: Bool) {
    let nameStart = position
    var nameEnd = -1
    var index = position
    while index < count {
      let byte = base[index]
      if byte == UInt8(ascii: ">") { break }
      if nameEnd < 0 && (byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) { nameEnd = index }
      index += 1
    }
    guard index < count else { throw endOfDocument("inside a tag; expected >", at: nameStart - 1) }
    let isEmpty = base[index - 1] == UInt8(ascii: "/")
    if nameEnd < 0 { nameEnd = isEmpty ? index - 1 : index }
    position = index + 1
    let length = nameEnd - nameStart
    guard length > 0 else { throw failure(.unexpectedInput, "malformed tag: no element name after <", at: nameStart - 1) }
    guard let tag = Self.tag(base + nameStart, length) else {
      let shown = String(decoding: UnsafeBufferPointer(start: base + nameStart, count: Swift.min(length, 40)), as: UTF8.self)
      throw failure(.unexpectedInput, "unknown tag <\(shown)>; expected one of plist, dict, array, key, string, data, date, integer, real, true, false", at: nameStart - 1)
    }
    return (tag, isEmpty)
  }

  @inline(__always)
  static func tag(_ name: UnsafePointer<UInt8>, _ length: Int) -> XMLPlistTag? {
    @inline(__always) func equal(_ literal: StaticString) -> Bool {
      let pointer = literal.utf8Start
      for index in 0..<length where name[index] != pointer[index] { return false }
      return true
    }
    switch (length, name[0]) {
    case (3, UInt8(ascii: "k")): return equal("key") ? .key : nil
    case (6, UInt8(ascii: "s")): return equal("string") ? .string : nil
    case (4, UInt8(ascii: "d")):
      if equal("dict") { return .dict }
      if equal("data") { return .data }
      if equal("date") { return .date }
      return nil
    case (7, UInt8(ascii: "i")): return equal("integer") ? .integer : nil
    case (4, UInt8(ascii: "r")): return equal("real") ? .real : nil
    case (5, UInt8(ascii: "a")): return equal("array") ? .array : nil
    case (4, UInt8(ascii: "t")): return equal("true") ? .true : nil
    case (5, UInt8(ascii: "f")): return equal("false") ? .false : nil
    case (5, UInt8(ascii: "p")): return equal("plist") ? .plist : nil
    default: return nil
    }
  }

  /// CF's `checkForCloseTag`: `</name`, optional whitespace, `>`, starting exactly at `position`.
  @inline(__always)
  mutating func expectCloseTag(_ tag: XMLPlistTag) throws(PropertyListError) {
    // CF's own spelling, `</name>`, compared as one word (and the last bytes of `</string>` and
    // `</integer>`); anything else goes the general way.
    let start = position
    if count - start >= 10 {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
      let (expected, mask, length) = tag.closeTagWord
      if word & mask == expected {
        switch length {
        case 9:
          if base[start + 8] == UInt8(ascii: ">") {
            position = start + 9
            return
          }
        case 10:
          if base[start + 8] == UInt8(ascii: "r") && base[start + 9] == UInt8(ascii: ">") {
            position = start + 10
            return
          }
        default:
          position = start + length
          return
        }
      }
    }
    try expectCloseTagSlow(tag)
  }

  private mutating func expectCloseTagSlow(_ tag: XMLPlistTag) throws(PropertyListError) {
    let name = tag.name
    let length = name.utf8CodeUnitCount
    let start = position
    if count - start >= length + 3, base[start] == UInt8(ascii: "<"), base[start + 1] == UInt8(ascii: "/"),
      matches(name, at: start + 2)
    {
      position = start + length + 2
      if position < count && base[position] == UInt8(ascii: ">") {
        position += 1
        return
      }
      skipWhitespace()
      if position < count && base[position] == UInt8(ascii: ">") {
        position += 1
        return
      }
    }
    throw closeTagFailure(tag, at: start)
  }

  @inline(never)
  func closeTagFailure(_ tag: XMLPlistTag, at start: Int) -> PropertyListError {
    let name = tag.name
    let length = name.utf8CodeUnitCount
    guard count - start >= length + 3 else { return endOfDocument("before </\(name)>", at: start) }
    guard base[start] == UInt8(ascii: "<") else {
      return failure(.unexpectedInput, "found \(Self.describe(base[start])) where </\(name)> was expected", at: start)
    }
    guard base[start + 1] == UInt8(ascii: "/") else {
      return failure(.unexpectedInput, "found another element where </\(name)> was expected", at: start)
    }
    guard matches(name, at: start + 2) else {
      return failure(.unexpectedInput, "close tag does not match the open tag <\(name)>", at: start)
    }
    var index = start + length + 2
    while index < count, base[index] == 0x20 || base[index] == 0x09 || base[index] == 0x0A || base[index] == 0x0D { index += 1 }
    guard index < count else { return endOfDocument("inside </\(name)>; expected >", at: start) }
    return failure(.unexpectedInput, "found \(Self.describe(base[index])) in </\(name)…>; expected >", at: index)
  }

  // MARK: Text

  /// The decoded text of a `<string>`, `<key>` or `<real>`: either a run of the document (no
  /// references or CDATA) or the bytes left in the caller's scratch buffer.
  enum Text {
    case run(start: Int, end: Int)
    case scratch
  }

  /// CF's `parseStringTag`: reads character data up to the next `<` that does not start a CDATA
  /// section, expanding the five predefined entities and numeric character references, and copying
  /// `<![CDATA[…]]>` verbatim. Other `<!` markup (comments included) is an error here, as in CF.
  @inline(__always)
  mutating func scanText(scratch: inout [UInt8]) throws(PropertyListError) -> Text {
    let start = position
    let index = Self.indexOfMarkup(base, from: position, count: count)
    if index >= count || base[index] == UInt8(ascii: "<") && (index + 1 >= count || base[index + 1] != UInt8(ascii: "!")) {
      position = index
      return .run(start: start, end: index)
    }
    position = index
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
    try scanTextSlow(scratch: &scratch)
    return .scratch
  }

  /// The offset of the first `<` or `&` at or after `from`, or `count`. Looks at eight bytes at a
  /// time (a byte equals `c` exactly when `word ^ c·0x0101…` has a zero byte there); text longer
  /// than 32 bytes is searched with the C library's vectorized `memchr` instead.
  @inline(__always)
  static func indexOfMarkup(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
    var index = from
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let wordLimit = Swift.min(count, from + 32)
    while index + 8 <= wordLimit {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      let less = word ^ (ones &* 0x3C)
      let ampersand = word ^ (ones &* 0x26)
      let found = ((less &- ones) & ~less | (ampersand &- ones) & ~ampersand) & highs
      if found != 0 { break }
      index += 8
    }
    if index == from + 32 {
      return longIndexOfMarkup(base, from: index, count: count)
    }
    while index < count {
      let byte = base[index]
      if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { return index }
      index += 1
    }
    return count
  }

  /// ``indexOfMarkup(_:from:count:)`` for long text: the first `<` with `memchr`, then the first
  /// `&` before it.
  @inline(never)
  static func longIndexOfMarkup(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
    let less = offset(of: UInt8(ascii: "<"), in: base, from: from, to: count) ?? count
    return offset(of: UInt8(ascii: "&"), in: base, from: from, to: less) ?? less
  }

  /// The offset from `base` of the first `byte` in `base[from..<end]` (C's `memchr`), or `nil`.
  @inline(__always)
  static func offset(of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
    memchr(base + from, Int32(byte), end - from).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
  }

  /// The part of ``scanText(scratch:)`` after the first reference or CDATA section.
  private mutating func scanTextSlow(scratch: inout [UInt8]) throws(PropertyListError) {
    var mark = position
    var index = position
    while index < count {
      let byte = base[index]
      if byte == UInt8(ascii: "<") {
        if index + 1 >= count || base[index + 1] != UInt8(ascii: "!") { break }
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + mark, count: index - mark))
        index = try readCDATA(at: index, into: &scratch)
        mark = index
      } else if byte == UInt8(ascii: "&") {
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + mark, count: index - mark))
        index = try readReference(at: index, into: &scratch)
        mark = index
      } else {
        index += 1
      }
    }
    scratch.append(contentsOf: UnsafeBufferPointer(start: base + mark, count: index - mark))
    position = index
  }

  /// Copies a CDATA section at `offset` (its `<`) and returns the offset after `]]>`.
  private func readCDATA(at offset: Int, into scratch: inout [UInt8]) throws(PropertyListError) -> Int {
    guard count - offset >= 9 else { throw endOfDocument("inside <! in text; expected <![CDATA[", at: offset) }
    guard matches("<![CDATA[", at: offset) else {
      throw failure(.unexpectedInput, "found <! in text that does not start <![CDATA[ (comments are not allowed inside text)", at: offset)
    }
    let contentStart = offset + 9
    var index = contentStart
    let limit = count - 2
    while index < limit {
      if base[index] == UInt8(ascii: "]") && base[index + 1] == UInt8(ascii: "]") && base[index + 2] == UInt8(ascii: ">") {
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + contentStart, count: index - contentStart))
        return index + 3
      }
      index += 1
    }
    throw endOfDocument("inside <![CDATA[; expected ]]>", at: offset)
  }

  /// Expands the reference at `offset` (its `&`) and returns the offset after its `;`.
  /// Accepts `&lt; &gt; &amp; &apos; &quot;` and `&#DDDD;`/`&#xHHHH;` (at most 8 characters
  /// after `&#`/`&#x`); any other name is an error, whatever a DTD may have declared.
  private func readReference(at offset: Int, into scratch: inout [UInt8]) throws(PropertyListError) -> Int {
    let first = offset + 1
    let available = count - first
    guard available >= 1 else { throw endOfDocument("after &; expected an entity reference", at: offset) }
    @inline(__always) func byte(_ index: Int) -> UInt8 { base[first + index] }
    switch byte(0) {
    case UInt8(ascii: "l") where available >= 3 && byte(1) == UInt8(ascii: "t") && byte(2) == UInt8(ascii: ";"):
      scratch.append(UInt8(ascii: "<"))
      return first + 3
    case UInt8(ascii: "g") where available >= 3 && byte(1) == UInt8(ascii: "t") && byte(2) == UInt8(ascii: ";"):
      scratch.append(UInt8(ascii: ">"))
      return first + 3
    case UInt8(ascii: "a") where available >= 4 && byte(1) == UInt8(ascii: "m") && byte(2) == UInt8(ascii: "p") && byte(3) == UInt8(ascii: ";"):
      scratch.append(UInt8(ascii: "&"))
      return first + 4
    case UInt8(ascii: "a") where available > 4 && byte(1) == UInt8(ascii: "p") && byte(2) == UInt8(ascii: "o") && byte(3) == UInt8(ascii: "s") && byte(4) == UInt8(ascii: ";"):
      scratch.append(UInt8(ascii: "'"))
      return first + 5
    case UInt8(ascii: "q") where available >= 5 && byte(1) == UInt8(ascii: "u") && byte(2) == UInt8(ascii: "o") && byte(3) == UInt8(ascii: "t") && byte(4) == UInt8(ascii: ";"):
      scratch.append(UInt8(ascii: "\""))
      return first + 5
    case UInt8(ascii: "#"):
      guard available >= 4 else { throw endOfDocument("inside a character reference (&#); expected digits and ;", at: offset) }
      var index = first + 1
      var isHex = false
      if base[index] == UInt8(ascii: "x") {
        isHex = true
        index += 1
      }
      var value: UInt32 = 0
      var characters = 0
      while index < count {
        let digit = base[index]
        index += 1
        characters += 1
        if digit == UInt8(ascii: ";") {
          guard value < 0x11_0000, value & 0xFFFF_F800 != 0xD800 else {
            throw failure(.invalidValue, "character reference &#…; gives 0x\(String(value, radix: 16)), which is not a Unicode scalar value", at: offset)
          }
          XMLPlistTextEncoding.appendScalar(value, to: &scratch)
          return index
        }
        guard characters <= 8 else {
          throw failure(.invalidValue, "character reference &#…; is longer than 8 characters; expected ; sooner", at: offset)
        }
        guard let decoded = HexDigit.value(digit), isHex || decoded < 10 else {
          throw failure(.invalidValue, "found \(Self.describe(digit)) in a character reference; expected a \(isHex ? "hex " : "")digit or ;", at: offset)
        }
        let nibble = UInt32(decoded)
        value = isHex ? value << 4 | nibble : value &* 10 &+ nibble
      }
      throw endOfDocument("inside a character reference (&#); expected ;", at: offset)
    default:
      if available < 4 && (byte(0) == UInt8(ascii: "a") || byte(0) == UInt8(ascii: "q")) {
        throw endOfDocument("inside an entity reference; expected ;", at: offset)
      }
      throw failure(.unexpectedInput, "unknown entity reference after &; expected &lt; &gt; &amp; &apos; &quot; or &#…; (declared entities are never expanded)", at: offset)
    }
  }

  /// Makes a `String` from the text just scanned; the bytes must be valid UTF-8.
  @inline(__always)
  func makeString(_ text: Text, scratch: [UInt8], openedAt: Int) throws(PropertyListError) -> String {
    switch text {
    case .run(let start, let end):
      return try makeString(base + start, end - start, openedAt: openedAt)
    case .scratch:
      return try scratch.withUnsafeBufferPointer { (bytes) throws(PropertyListError) in
        try makeString(bytes.baseAddress ?? base, bytes.count, openedAt: openedAt)
      }
    }
  }

  /// Makes a `String` from the `count` bytes at `bytes` (the document's or the scratch
  /// buffer's), which must be valid UTF-8.
  @inline(__always)
  func makeString(_ bytes: UnsafePointer<UInt8>, _ count: Int, openedAt: Int) throws(PropertyListError) -> String {
    if let string = Self.utf8String(bytes, count) { return string }
    // Not strictly valid: CF still accepts a stray 0xA9 byte (as U+FFFD), nothing else.
    guard let lenient = Self.lenientUTF8String(bytes, count) else {
      throw failure(.badEncoding, "text is not valid UTF-8", at: openedAt)
    }
    return lenient
  }

  /// CF's UTF-8 decoding (`__CFFromUTF8`): strict, except that a 0xA9 byte that does not start a
  /// legal sequence becomes U+FFFD ("to not break existing apps" that wrote a Mac OS Roman or
  /// Latin-1 copyright sign). Any other ill-formed byte makes the whole text fail.
  static func lenientUTF8String(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> String? {
    var repaired: [UInt8] = []
    repaired.reserveCapacity(count + 8)
    var index = 0
    while index < count {
      let lead = bytes[index]
      let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
      if lead < 0x80 || (length <= count - index && isValidUTF8(bytes + index, length) && lead >= 0xC2) {
        repaired.append(contentsOf: UnsafeBufferPointer(start: bytes + index, count: length))
        index += length
      } else if lead == 0xA9 {
        repaired.append(contentsOf: [0xEF, 0xBF, 0xBD])
        index += 1
      } else {
        return nil
      }
    }
    return String(decoding: repaired, as: UTF8.self)
  }

  /// A `String` from UTF-8 bytes, or `nil` if they are not valid UTF-8, in one validating pass
  /// (the standard library's) plus a cheap check.
  ///
  /// `String(decoding:as:)` replaces each maximal ill-formed subsequence by U+FFFD (3 bytes).
  /// Subsequences of one or two bytes make the result longer, so an unchanged length rules them
  /// out; one of three bytes can only be a four-byte sequence (lead 0xF0–0xF4) cut short. So with
  /// an unchanged length the text is valid exactly when every byte 0xF0–0xFF starts a complete,
  /// valid four-byte sequence, and only those bytes are looked at again.
  @inline(__always)
  static func utf8String(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> String? {
    let string = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard string.utf8.count == count else { return nil }
    var index = 0
    let raw = UnsafeRawPointer(bytes)
    let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let ones: UInt64 = 0x0101_0101_0101_0101
    while index + 8 <= count {
      // A byte is 0xF_ exactly when (byte & 0xF0) ^ 0xF0 is zero.
      let nibbles = (raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & highNibbles) ^ highNibbles
      if (nibbles &- ones) & ~nibbles & 0x8080_8080_8080_8080 != 0 {
        for offset in index..<(index + 8) where bytes[offset] >= 0xF0 {
          guard isValidUTF8(bytes + offset, Swift.min(4, count - offset)) else { return nil }
        }
      }
      index += 8
    }
    while index < count {
      if bytes[index] >= 0xF0 {
        guard isValidUTF8(bytes + index, Swift.min(4, count - index)) else { return nil }
      }
      index += 1
    }
    return string
  }

  /// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
  static func isValidUTF8(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var index = 0
    while index < count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      @inline(__always) func continuation(_ offset: Int) -> Bool {
        index + offset < count && bytes[index + offset] & 0xC0 == 0x80
      }
      switch lead {
      case 0xC2...0xDF:
        guard continuation(1) else { return false }
        index += 2
      case 0xE0...0xEF:
        guard continuation(1), continuation(2) else { return false }
        let second = bytes[index + 1]
        if lead == 0xE0 && second < 0xA0 { return false }  // overlong
        if lead == 0xED && second >= 0xA0 { return false }  // surrogate
        index += 3
      case 0xF0...0xF4:
        guard continuation(1), continuation(2), continuation(3) else { return false }
        let second = bytes[index + 1]
        if lead == 0xF0 && second < 0x90 { return false }  // overlong
        if lead == 0xF4 && second >= 0x90 { return false }  // above U+10FFFF
        index += 4
      default:
        return false
      }
    }
    return true
  }
}
