import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The Codable decoder's view of a validated `bplist00` document: it reads values straight from
// the object table instead of from a `PropertyListValue` tree. A node is an object number; a
// container is its run of object references in the document; a scalar becomes its
// `PropertyListValue` (a number, a date, or the one `String` or `Data` the result needs) only
// when it is decoded. At the peak only the document, the result and a few bits per object are
// alive, where the tree decoder held a 32-byte value per reference besides.

/// A value being decoded: the value itself, or — when `object` is not negative — object
/// `object` of the decoder's binary document, with `value` its scalar value or, for a container,
/// an empty container of its kind (what the type checks and messages look at).
struct PlistDecodingNode {
  var value: PropertyListValue
  var object: Int

  init(_ value: PropertyListValue, object: Int = -1) {
    self.value = value
    self.object = object
  }

  /// Whether the node is a container of the binary document (not a tree value).
  @inline(__always) var isBinaryContainer: Bool { object >= 0 }
}

/// A validated binary document, read in place.
final class PlistBinaryObjects {
  /// The document. Kept so that its bytes stay alive (and unchanged) while any decoder made from
  /// it is: `buffer` points into its storage, which a `Data` of more than a few bytes keeps on
  /// the heap (every binary document is at least 41 bytes).
  private let data: Data
  /// A parser for reading scalars (it keeps no state they need).
  let reader: BinaryPlistReader.Parser
  /// The same, for what changes its caches (keys that are not ASCII, whole subtrees). Both
  /// share one cache of the strings that several references reach.
  private var builder: BinaryPlistReader.Parser
  let buffer: UnsafeRawBufferPointer
  let referenceSize: Int
  let top: Int
  private let repeatedKeys: Set<Int>
  /// Each key text's one key object, when the document stores each key once (see
  /// `BinaryPlistReader.Validation.keyObjectsByText`).
  let keyObjectsByText: [String: Int]?

  /// The document's view, or `nil` when it is not a binary property list the tree reader would
  /// read: the caller then reads it as a tree, which gives that reader's error.
  init?(_ data: Data, options: PropertyListReadingOptions) {
    guard data.count <= options.maximumByteCount else { return nil }
    let checked: (BinaryPlistReader.Parser, BinaryPlistReader.Validation)? = data.withUnsafeBytes { buffer in
      guard PropertyListFormat.detect(buffer) == .binary else { return nil }
      return try? BinaryPlistReader.validate(buffer, options: options)
    }
    guard let (parser, validation) = checked else { return nil }
    self.data = data
    reader = parser
    builder = parser
    buffer = parser.buffer
    referenceSize = parser.trailer.referenceSize
    top = parser.trailer.topObject
    repeatedKeys = validation.dictionariesWithRepeatedKeys
    keyObjectsByText = validation.keyObjectsByText
    // The validating pass spent the budget; building a dictionary with repeated keys is only
    // ever a part of what it counted.
    builder.budget = Int.max
  }

  @inline(__always) func offset(of object: Int) -> Int { reader.offset(of: object) }

  /// The object number at reference position `position` (checked by the validating pass).
  @inline(__always) func reference(at position: Int) -> Int {
    Int(truncatingIfNeeded: reader.reference(at: position))
  }

  /// A container's member count and where its references start (validated).
  @inline(__always) func members(of object: Int) -> (count: Int, payload: Int) {
    members(at: offset(of: object))
  }

  /// The member count and payload of the object at `start` (validated).
  @inline(__always) func members(at start: Int) -> (count: Int, payload: Int) {
    let marker = buffer[start]
    if marker & 0x0F != 0x0F { return (Int(marker & 0x0F), start &+ 1) }
    return (try? reader.count(marker: marker, at: start)) ?? (0, start)
  }

  /// The node for `object`: a scalar's value, an empty container of its kind, or — for a
  /// dictionary that repeats a key — the dictionary as a tree, as the tree reader makes it.
  /// Strings skip the checks the validating pass has made on them.
  func node(_ object: Int) throws -> PlistDecodingNode {
    let start = offset(of: object)
    let marker = buffer[start]
    switch marker >> 4 {
    case 0xA, 0xC: return PlistDecodingNode(.array([]), object: object)
    case 0x5, 0x6:
      return PlistDecodingNode(.string(string(object, marker: marker, start: start)), object: object)
    case 0xD:
      guard repeatedKeys.contains(object) else { return PlistDecodingNode(.dictionary(PropertyListDictionary()), object: object) }
      return PlistDecodingNode(try readable { () throws(PropertyListError) in try builder.value(at: object, depth: 0) })
    default:
      return PlistDecodingNode(try readable { () throws(PropertyListError) in try reader.scalarValue(marker: marker, object: object, start: start) })
    }
  }

  /// The string object `object` (validated), made once for all its references when several
  /// reach it.
  @inline(__always)
  private func string(_ object: Int, marker: UInt8, start: Int) -> String {
    if let shared = reader.sharedStrings.string(of: object) { return shared }
    let (count, payload) = members(at: start)
    let text =
      marker >> 4 == 0x5
      ? reader.checkedASCIIString(payload: payload, count: count) : reader.utf16String(payload: payload, count: count)
    reader.sharedStrings.made(text, for: object)
    return text
  }

  /// The text of key object `object` (validated: a string or an integer).
  /// A key object's text is made once for all its references when several reach it (the keys
  /// of a `[String: V]` recur in every such dictionary).
  func keyText(_ object: Int) throws -> String {
    if let shared = reader.sharedStrings.string(of: object) { return shared }
    let start = offset(of: object)
    let marker = buffer[start]
    let text: String
    if marker >> 4 == 0x5 {
      let (count, payload) = members(at: start)
      text = reader.checkedASCIIString(payload: payload, count: count)
    } else {
      text = try readable { () throws(PropertyListError) in try builder.key(at: object, container: start).0 }
    }
    reader.sharedStrings.made(text, for: object)
    return text
  }

  /// Whether key object `object` has the text of `wanted`, as `String`'s `==` compares them
  /// (canonical equivalence). Bytes decide when both are ASCII; otherwise the key is built.
  /// `wantedIsASCII` is worked out here when `nil`.
  @inline(__always)
  func key(_ object: Int, equals wanted: UnsafeBufferPointer<UInt8>, wantedIsASCII: Bool?, _ wantedText: String) throws -> Bool {
    let start = offset(of: object)
    if buffer[start] >> 4 == 0x5 {
      let (count, payload) = members(at: start)
      if count == wanted.count, count == 0 || memcmp(buffer.baseAddress! + payload, wanted.baseAddress!, count) == 0 {
        return true
      }
      if wantedIsASCII ?? Self.isASCII(wanted) { return false }
    }
    return try keyText(object) == wantedText
  }

  @inline(__always)
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.allSatisfy { $0 < 0x80 }
  }

  /// Runs a read the validating pass has already checked; were it to fail anyway, the failure
  /// is the decoder's "not a valid property list" error.
  @inline(__always)
  private func readable<T>(_ body: () throws(PropertyListError) -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw PropertyListDecoder.invalidDocument(error)
    }
  }
}
