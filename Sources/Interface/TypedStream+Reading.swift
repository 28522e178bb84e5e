import FoundationEssentials
public import StasisSystem

extension TypedStream {
  /// Reads the typedstream in the file at `path`, through `environment`'s file system.
  ///
  /// - Throws: ``InterfaceError`` naming the file, as ``init(bytes:path:limits:)``, or
  ///   `.fileSystem` / `.limitExceeded` when the file cannot be read.
  public init(contentsOfFile path: String, limits: Limits = .default, environment: HostEnvironment = .current) throws(InterfaceError) {
    let bytes = try fileBytes(at: path, limit: limits.maximumByteCount, what: "the typedstream", fileSystem: environment.fileSystem)
    try self.init(bytes: bytes, path: path, limits: limits)
  }

  /// Reads a typedstream from `bytes`. Every tag, count, length and reference is checked
  /// before it is used; `path` only names the file in errors.
  ///
  /// - Throws: ``InterfaceError`` with the byte offset: `.notANib` without a typedstream header
  ///   (or for the old NeXTSTEP streamer version 3), `.truncated` when a value runs past the end,
  ///   `.corrupt` for a tag, type encoding or reference that cannot stand where it is,
  ///   `.limitExceeded` past `limits`.
  /// - Complexity: O(*n*) in the size of the stream.
  public init(bytes: [UInt8], path: String? = nil, limits: Limits = .default) throws(InterfaceError) {
    guard bytes.count <= limits.maximumByteCount else {
      throw InterfaceError(
        .limitExceeded, path: path, detail: "typedstream: \(bytes.count) bytes, more than the limit of \(limits.maximumByteCount)")
    }
    var reader = TypedStreamReader(bytes: bytes, path: path, limits: limits)
    self = try reader.read()
  }
}

/// One type of a group's encoding string, parsed once per shared string.
indirect enum TypeEncoding: Hashable, Sendable {
  /// One of `c C s S i I l L q Q f d B * % : + # @ !`.
  case scalar(UInt8)
  case array(count: Int, element: TypeEncoding)
  case structure(name: String?, fields: [TypeEncoding])

  static let scalars: Set<UInt8> = Set("cCsSiIlLqQfdB*%:+#@!".utf8)

  /// The types of `encoding`, in order; `nil` when it is not a well-formed encoding (or nests
  /// deeper than `maximumDepth`, or announces an array longer than `maximumCount`).
  static func parse(_ encoding: [UInt8], maximumDepth: Int, maximumCount: Int) -> [TypeEncoding]? {
    var position = 0
    var types: [TypeEncoding] = []
    while position < encoding.count {
      guard let type = parseOne(encoding, &position, depth: 0, maximumDepth: maximumDepth, maximumCount: maximumCount) else { return nil }
      types.append(type)
    }
    return types.isEmpty ? nil : types
  }

  private static func parseOne(_ encoding: [UInt8], _ position: inout Int, depth: Int, maximumDepth: Int, maximumCount: Int) -> TypeEncoding? {
    guard position < encoding.count, depth < maximumDepth else { return nil }
    let byte = encoding[position]
    position += 1
    switch byte {
    case UInt8(ascii: "["):
      var count = 0
      var digits = 0
      while position < encoding.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(encoding[position]) {
        count = count * 10 + Int(encoding[position] - UInt8(ascii: "0"))
        digits += 1
        position += 1
        guard count <= maximumCount else { return nil }
      }
      guard digits > 0, let element = parseOne(encoding, &position, depth: depth + 1, maximumDepth: maximumDepth, maximumCount: maximumCount),
        position < encoding.count, encoding[position] == UInt8(ascii: "]")
      else { return nil }
      position += 1
      return .array(count: count, element: element)
    case UInt8(ascii: "{"):
      let nameStart = position
      while position < encoding.count, encoding[position] != UInt8(ascii: "="), encoding[position] != UInt8(ascii: "}") {
        guard !"[{(".utf8.contains(encoding[position]) else { return nil }
        position += 1
      }
      guard position < encoding.count else { return nil }
      let nameBytes = encoding[nameStart..<position]
      let name = nameBytes.isEmpty || nameBytes.elementsEqual([UInt8(ascii: "?")]) ? nil : String(decoding: nameBytes, as: UTF8.self)
      var fields: [TypeEncoding] = []
      if encoding[position] == UInt8(ascii: "=") {
        position += 1
        while position < encoding.count, encoding[position] != UInt8(ascii: "}") {
          guard let field = parseOne(encoding, &position, depth: depth + 1, maximumDepth: maximumDepth, maximumCount: maximumCount) else { return nil }
          fields.append(field)
        }
        guard position < encoding.count else { return nil }
      }
      position += 1  // "}"
      return .structure(name: name, fields: fields)
    default:
      return scalars.contains(byte) ? .scalar(byte) : nil
    }
  }
}

/// Reads one typedstream front to back: the header, then top-level groups until the end.
/// Objects nest by recursion, bounded by ``TypedStream/Limits/maximumDepth``.
struct TypedStreamReader {
  let bytes: [UInt8]
  let path: String?
  let limits: TypedStream.Limits
  var position = 0
  var bigEndian = false
  var stream = TypedStream()
  var sharedStrings: [[UInt8]] = []
  /// Parsed encodings, by shared-string index.
  var encodings: [Int: [TypeEncoding]] = [:]
  /// The object table: what each reference number stands for.
  var references: [Reference] = []
  var valueCount = 0
  var depth = 0

  enum Reference {
    case object(Int)
    case `class`(Int)
    case cString([UInt8])
  }

  /// The tags, as signed head bytes.
  enum Tag {
    static let integer2: Int8 = -127  // 0x81
    static let integer4: Int8 = -126  // 0x82
    static let floatingPoint: Int8 = -125  // 0x83
    static let new: Int8 = -124  // 0x84
    static let `nil`: Int8 = -123  // 0x85
    static let endOfObject: Int8 = -122  // 0x86
    static let range: ClosedRange<Int8> = -128 ... -111
    /// Reference number 0 is written as −110 (0x92).
    static let firstReference: Int64 = -110
  }

  init(bytes: [UInt8], path: String?, limits: TypedStream.Limits) {
    self.bytes = bytes
    self.path = path
    self.limits = limits
  }

  // MARK: - Errors

  @inline(never)
  func failure(_ code: InterfaceError.Code, at offset: Int, _ detail: String) -> InterfaceError {
    InterfaceError(code, path: path, offset: offset, detail: "typedstream: " + detail)
  }

  @inline(never)
  func truncated(_ what: String, at offset: Int) -> InterfaceError {
    failure(.truncated, at: offset, "the stream ends (at \(bytes.count) bytes) inside \(what)")
  }

  static func hex(_ byte: Int8) -> String {
    let value = UInt8(bitPattern: byte)
    return "0x" + (value < 16 ? "0" : "") + String(value, radix: 16)
  }

  // MARK: - Primitives

  mutating func readByte(_ what: @autoclosure () -> String) throws(InterfaceError) -> UInt8 {
    guard position < bytes.count else { throw truncated(what(), at: position) }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func readHead(_ what: @autoclosure () -> String) throws(InterfaceError) -> Int8 {
    Int8(bitPattern: try readByte(what()))
  }

  /// `given` when a caller already read the head byte, else the next byte.
  mutating func head(_ given: Int8?, _ what: String) throws(InterfaceError) -> Int8 {
    if let given { return given }
    return try readHead(what)
  }

  /// `count` bytes (1…8) as an unsigned integer in the stream's byte order.
  mutating func readFixed(_ count: Int, _ what: String) throws(InterfaceError) -> UInt64 {
    guard count <= bytes.count - position else { throw truncated(what, at: position) }
    var value: UInt64 = 0
    for index in 0..<count {
      let byte = UInt64(bytes[position + index])
      value |= bigEndian ? byte << (8 * (count - 1 - index)) : byte << (8 * index)
    }
    position += count
    return value
  }

  mutating func readRaw(_ count: Int, _ what: String) throws(InterfaceError) -> [UInt8] {
    guard count >= 0, count <= bytes.count - position else {
      throw failure(.truncated, at: position, "\(what) of \(count) bytes runs past the end (\(bytes.count - position) left)")
    }
    defer { position += count }
    return Array(bytes[position..<(position + count)])
  }

  /// An integer: the head itself when it is not a tag, else 2 or 4 bytes after `0x81`/`0x82`.
  mutating func readInteger(head given: Int8? = nil, signed: Bool, _ what: String) throws(InterfaceError) -> Int64 {
    let start = given == nil ? position : position - 1
    let head = try head(given, what)
    guard Tag.range.contains(head) else { return signed ? Int64(head) : Int64(UInt8(bitPattern: head)) }
    switch head {
    case Tag.integer2:
      let raw = try readFixed(2, what)
      return signed ? Int64(Int16(truncatingIfNeeded: raw)) : Int64(raw)
    case Tag.integer4:
      let raw = try readFixed(4, what)
      return signed ? Int64(Int32(truncatingIfNeeded: raw)) : Int64(raw)
    default:
      throw failure(.corrupt, at: start, "tag \(Self.hex(head)) where \(what) (an integer) was expected")
    }
  }

  /// One level deeper (the caller steps back out), or `.limitExceeded` past the depth limit.
  mutating func enter(at offset: Int, _ what: String) throws(InterfaceError) {
    guard depth < limits.maximumDepth else {
      throw failure(.limitExceeded, at: offset, "\(what) more than \(limits.maximumDepth) deep")
    }
    depth += 1
  }

  mutating func countValue(at offset: Int) throws(InterfaceError) {
    valueCount += 1
    guard valueCount <= limits.maximumValueCount else {
      throw failure(.limitExceeded, at: offset, "more than \(limits.maximumValueCount) values")
    }
  }

  // MARK: - Strings and references

  /// A counted string that is not shared: nil, or a length and the bytes.
  mutating func readUnsharedString(head given: Int8? = nil, _ what: String) throws(InterfaceError) -> [UInt8]? {
    let head = try head(given, what)
    if head == Tag.nil { return nil }
    let start = position - 1
    let length = try readInteger(head: head, signed: false, "the length of \(what)")
    guard length <= Int64(bytes.count - position) else {
      throw failure(.truncated, at: start, "\(what) announces \(length) bytes, \(bytes.count - position) are left")
    }
    return try readRaw(Int(length), what)
  }

  /// A shared string: nil, new (then kept in the shared-string table), or a reference to one.
  /// Answers the string and its index in the table.
  mutating func readSharedString(head given: Int8? = nil, _ what: String) throws(InterfaceError) -> (bytes: [UInt8], index: Int)? {
    let start = given == nil ? position : position - 1
    let head = try head(given, what)
    if head == Tag.nil { return nil }
    if head == Tag.new {
      guard let string = try readUnsharedString("\(what) (a new shared string)") else {
        throw failure(.corrupt, at: start, "\(what): a new shared string cannot be nil")
      }
      guard sharedStrings.count < limits.maximumObjectCount else {
        throw failure(.limitExceeded, at: start, "more than \(limits.maximumObjectCount) shared strings")
      }
      sharedStrings.append(string)
      return (string, sharedStrings.count - 1)
    }
    let index = try readReferenceNumber(head: head, start: start, what)
    guard index < sharedStrings.count else {
      throw failure(.corrupt, at: start, "\(what) refers to shared string #\(index); only \(sharedStrings.count) were read")
    }
    return (sharedStrings[index], index)
  }

  mutating func readReferenceNumber(head: Int8, start: Int, _ what: String) throws(InterfaceError) -> Int {
    guard !Tag.range.contains(head) || head == Tag.integer2 || head == Tag.integer4 else {
      throw failure(.corrupt, at: start, "tag \(Self.hex(head)) where \(what) (new, nil or a reference) was expected")
    }
    let number = try readInteger(head: head, signed: true, what) - Tag.firstReference
    guard number >= 0 else { throw failure(.corrupt, at: start, "\(what) is reference number \(number), below 0") }
    return Int(number)
  }

  /// A reference into the object table (objects, classes and C strings share it).
  mutating func readReference(head: Int8, start: Int, _ what: String) throws(InterfaceError) -> Reference {
    let index = try readReferenceNumber(head: head, start: start, what)
    guard index < references.count else {
      throw failure(.corrupt, at: start, "\(what) refers to #\(index) of the object table; only \(references.count) entries were read")
    }
    return references[index]
  }

  mutating func register(_ reference: Reference, at offset: Int) throws(InterfaceError) {
    guard references.count < limits.maximumObjectCount else {
      throw failure(.limitExceeded, at: offset, "more than \(limits.maximumObjectCount) objects, classes and C strings")
    }
    references.append(reference)
  }

  // MARK: - Stream, groups, values

  mutating func read() throws(InterfaceError) -> TypedStream {
    let version = try readByte("the header")
    guard TypedStream.isTypedStream(bytes) else {
      throw failure(.notANib, at: 0, "expected a version byte, the length 11 and the signature streamtyped or typedstream")
    }
    guard version == 4 else {
      throw failure(.notANib, at: 0, "streamer version \(version); only version 4 (NeXTSTEP 3, OPENSTEP, Mac OS X) is read")
    }
    bigEndian = bytes[2] == UInt8(ascii: "t")
    position = 13
    stream.streamerVersion = Int(version)
    stream.byteOrder = bigEndian ? .bigEndian : .littleEndian
    stream.systemVersion = Int(try readInteger(signed: false, "the system version"))
    while position < bytes.count {
      let start = position
      let head = try readHead("a group")
      stream.groups.append(try readGroup(head: head, start: start))
    }
    return stream
  }

  mutating func readGroup(head: Int8, start: Int) throws(InterfaceError) -> TypedStream.Group {
    guard let (encoding, index) = try readSharedString(head: head, "a group's type encoding") else {
      throw failure(.corrupt, at: start, "a group's type encoding is nil")
    }
    let types: [TypeEncoding]
    if let known = encodings[index] {
      types = known
    } else {
      guard let parsed = TypeEncoding.parse(encoding, maximumDepth: limits.maximumDepth, maximumCount: Int(Int32.max)) else {
        throw failure(.corrupt, at: start, "type encoding \"\(Self.printable(encoding))\" is not one the typedstream format knows")
      }
      encodings[index] = parsed
      types = parsed
    }
    var values: [TypedStream.Value] = []
    values.reserveCapacity(types.count)
    for type in types { values.append(try readValue(type)) }
    return TypedStream.Group(encoding: String(decoding: encoding, as: UTF8.self), values: values)
  }

  /// At most 64 bytes of `bytes`, non-printing ones as `?`.
  static func printable(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix(64).map { (32..<127).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
  }

  mutating func readValue(_ type: TypeEncoding) throws(InterfaceError) -> TypedStream.Value {
    let start = position
    try countValue(at: start)
    switch type {
    case .scalar(let code):
      return try readScalar(code, start: start)
    case .array(let count, let element):
      if case .scalar(let code) = element, code == UInt8(ascii: "c") || code == UInt8(ascii: "C") {
        return .bytes(try readRaw(count, "an array of \(count) chars"), type: code)
      }
      // Arrays and structures nest within the same depth budget as objects: the reader
      // recurses for each.
      try enter(at: start, "arrays, structures and objects nest")
      defer { depth -= 1 }
      var elements: [TypedStream.Value] = []
      elements.reserveCapacity(min(count, 1024))
      for _ in 0..<count { elements.append(try readValue(element)) }
      return .array(elements)
    case .structure(let name, let fields):
      try enter(at: start, "arrays, structures and objects nest")
      defer { depth -= 1 }
      var values: [TypedStream.Value] = []
      for field in fields { values.append(try readValue(field)) }
      return .structure(name: name, fields: values)
    }
  }

  mutating func readScalar(_ code: UInt8, start: Int) throws(InterfaceError) -> TypedStream.Value {
    switch code {
    case UInt8(ascii: "c"): return .signed(Int64(Int8(bitPattern: try readByte("a char"))), type: code)
    case UInt8(ascii: "C"): return .unsigned(UInt64(try readByte("an unsigned char")), type: code)
    case UInt8(ascii: "B"):
      let byte = try readByte("a bool")
      guard byte <= 1 else { throw failure(.corrupt, at: start, "a bool of \(byte); expected 0 or 1") }
      return .bool(byte == 1)
    case UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
      return .signed(try readInteger(signed: true, "an integer"), type: code)
    case UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
      return .unsigned(UInt64(try readInteger(signed: false, "an unsigned integer")), type: code)
    case UInt8(ascii: "f"):
      let head = try readHead("a float")
      if head == Tag.floatingPoint { return .float(Float(bitPattern: UInt32(try readFixed(4, "a float")))) }
      return .float(Float(try readInteger(head: head, signed: true, "a float")))
    case UInt8(ascii: "d"):
      let head = try readHead("a double")
      if head == Tag.floatingPoint { return .double(Double(bitPattern: try readFixed(8, "a double"))) }
      return .double(Double(try readInteger(head: head, signed: true, "a double")))
    case UInt8(ascii: "+"):
      return .string(try readUnsharedString("a string (+)"))
    case UInt8(ascii: "%"):
      return .atom(try readSharedString("an atom (%)")?.bytes)
    case UInt8(ascii: ":"):
      return .selector(try readSharedString("a selector").map { String(decoding: $0.bytes, as: UTF8.self) })
    case UInt8(ascii: "*"):
      return .cString(try readCString(start: start))
    case UInt8(ascii: "#"):
      return .class(try readClass(head: try readHead("a class"), start: start))
    case UInt8(ascii: "@"):
      return .object(try readObject(start: start))
    default:  // "!": nothing is stored
      return .ignored
    }
  }

  mutating func readCString(start: Int) throws(InterfaceError) -> [UInt8]? {
    let head = try readHead("a C string")
    if head == Tag.nil { return nil }
    if head == Tag.new {
      guard let (string, _) = try readSharedString("a C string") else {
        throw failure(.corrupt, at: start, "a new C string holds a nil shared string")
      }
      try register(.cString(string), at: start)
      return string
    }
    guard case .cString(let string) = try readReference(head: head, start: start, "a C string") else {
      throw failure(.corrupt, at: start, "a C string refers to an object or a class")
    }
    return string
  }

  /// A class: nil, a reference to a class already read, or new classes — each a name and a
  /// version, then its superclass — down to a reference or nil.
  mutating func readClass(head first: Int8, start: Int) throws(InterfaceError) -> Int? {
    var head = first
    var headStart = start
    var chain: [Int] = []
    while head == Tag.new {
      guard let (name, _) = try readSharedString("a class name") else {
        throw failure(.corrupt, at: headStart, "a new class has a nil name")
      }
      let version = try readInteger(signed: true, "a class version")
      let index = stream.classes.count
      try register(.class(index), at: headStart)
      stream.classes.append(TypedStream.Class(name: String(decoding: name, as: UTF8.self), version: Int(version)))
      chain.append(index)
      headStart = position
      head = try readHead("a superclass")
    }
    var terminal: Int?
    if head != Tag.nil {
      guard case .class(let index) = try readReference(head: head, start: headStart, "a class") else {
        throw failure(.corrupt, at: headStart, "a class refers to an object or a C string")
      }
      guard !chain.contains(index) else {
        throw failure(.corrupt, at: headStart, "class \(stream.classes[index].name) is its own superclass")
      }
      terminal = index
    }
    for (position, index) in chain.enumerated() {
      stream.classes[index].superclass = position + 1 < chain.count ? chain[position + 1] : terminal
    }
    return chain.first ?? terminal
  }

  /// An object: nil, a reference to one already read (or being read: cycles), or a new one —
  /// numbered now, then its class chain, its groups and the end marker.
  mutating func readObject(start: Int) throws(InterfaceError) -> Int? {
    let head = try readHead("an object")
    if head == Tag.nil { return nil }
    guard head == Tag.new else {
      guard case .object(let index) = try readReference(head: head, start: start, "an object") else {
        throw failure(.corrupt, at: start, "an object refers to a class or a C string")
      }
      return index
    }
    try enter(at: start, "objects nest")
    defer { depth -= 1 }
    let index = stream.objects.count
    try register(.object(index), at: start)
    stream.objects.append(TypedStream.Object(classIndex: -1))
    let classStart = position
    guard let classIndex = try readClass(head: try readHead("an object's class"), start: classStart) else {
      throw failure(.corrupt, at: classStart, "an object's class is nil")
    }
    var groups: [TypedStream.Group] = []
    let className = stream.classes[classIndex].name
    while true {
      let groupStart = position
      let head = try readHead("an object of class \(className) (its next group or the end marker 0x86)")
      if head == Tag.endOfObject { break }
      groups.append(try readGroup(head: head, start: groupStart))
    }
    stream.objects[index] = TypedStream.Object(classIndex: classIndex, groups: groups)
    return index
  }
}
