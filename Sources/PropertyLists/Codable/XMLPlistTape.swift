import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The Codable decoder's view of an XML document: instead of a `PropertyListValue` tree, one
// flat record of its elements (`XMLPlistTapeEntry`, 16 bytes each), made by the XML reader's own
// parser (`XMLPlistParser`) so that exactly the same documents are accepted. Containers list
// their members' entries; text of plain ASCII stays in the document and becomes a `String` only
// when it is decoded; dictionary keys are compared with the wanted key's bytes and never made
// into strings unless a search or `allKeys` needs them.

/// An XML document read into a flat record, for decoding in place.
final class XMLPlistTape {
  /// The document. Kept so that its bytes stay alive (and unchanged) while any decoder made from
  /// it is: `base` points into its storage, which a `Data` of more than a few bytes keeps on the
  /// heap (only documents of at least ``minimumByteCount`` bytes are read this way).
  private let data: Data
  let base: UnsafePointer<UInt8>
  let entries: [XMLPlistTapeEntry]
  let members: [UInt32]
  let strings: [String]
  let datas: [Data]
  /// The entry of the document's value.
  let root: Int

  /// Documents shorter than this are read as trees (a `Data` may keep a few bytes inline, where
  /// their address does not last).
  static let minimumByteCount = 64

  /// The record of `data`, or `nil` when it is not an XML property list in UTF-8 (or ASCII)
  /// that the XML reader would read: the caller then reads it as a tree, which gives the
  /// reader's error (or reads a document in another encoding).
  init?(_ data: Data, options: PropertyListReadingOptions) {
    guard data.count >= Self.minimumByteCount, data.count <= options.maximumByteCount else { return nil }
    let built: (XMLPlistTapeSink, Int)? = data.withUnsafeBytes { buffer in
      guard PropertyListFormat.detect(buffer) == .xml,
        case .inPlace(let skip)? = try? XMLPlistTextEncoding.utf8Text(buffer), skip < buffer.count
      else { return nil }
      let text = UnsafeRawBufferPointer(rebasing: buffer[skip...])
      let base = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
      var parser = XMLPlistParser(text, sink: XMLPlistTapeSink(base: base, count: text.count), options: options)
      guard let root = try? parser.parseDocument(), !parser.sink.overflowed else { return nil }
      return (parser.sink, root)
    }
    guard let (sink, root) = built else { return nil }
    self.data = data
    base = sink.base
    entries = sink.entries
    members = sink.members
    strings = sink.strings
    datas = sink.datas
    self.root = root
  }

  /// The node for `entry`: a scalar's value, or — for a container — an empty container of its
  /// kind with the entry as its object.
  @inline(__always)
  func node(_ entry: Int) -> PlistDecodingNode {
    let found = entries[entry]
    switch found.kind {
    case .asciiRun, .string: return PlistDecodingNode(.string(Self.text(of: found, base: base, strings: strings)))
    case .integer: return PlistDecodingNode(.integer(PropertyListInteger(found.payload)))
    case .negativeInteger: return PlistDecodingNode(.integer(PropertyListInteger(Int64(bitPattern: found.payload))))
    case .real: return PlistDecodingNode(.real(Double(bitPattern: found.payload), width: .double))
    case .date: return PlistDecodingNode(.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: found.payload))))
    case .data: return PlistDecodingNode(.data(datas[Int(found.payload)]))
    case .bool: return PlistDecodingNode(.bool(found.payload != 0))
    case .uid: return PlistDecodingNode(.uid(found.payload))
    case .array: return PlistDecodingNode(.array([]), object: entry)
    case .dictionary: return PlistDecodingNode(.dictionary(PropertyListDictionary()), object: entry)
    }
  }

  /// Where container `entry`'s members start, and how many it has (pairs, for a dictionary).
  @inline(__always)
  func members(of entry: Int) -> (start: Int, count: Int) {
    let found = entries[entry]
    return (Int(found.payload), Int(found.count))
  }

  /// The member at `position` of the member list.
  @inline(__always)
  func member(_ position: Int) -> Int { Int(members[position]) }

  /// The text of a text entry.
  @inline(__always)
  static func text(of entry: XMLPlistTapeEntry, base: UnsafePointer<UInt8>, strings: [String]) -> String {
    guard entry.kind == .asciiRun else { return strings[Int(entry.payload)] }
    return String(decoding: UnsafeBufferPointer(start: base + Int(entry.payload), count: Int(entry.count)), as: UTF8.self)
  }

  /// The text of key entry `entry`.
  func keyText(_ entry: Int) -> String {
    Self.text(of: entries[entry], base: base, strings: strings)
  }

  /// Whether key entry `entry` has the text of `wanted`, as `String`'s `==` compares them
  /// (canonical equivalence): bytes decide when the key is plain ASCII and they are equal or
  /// `wanted` is ASCII too; otherwise the strings are compared.
  @inline(__always)
  func key(_ entry: Int, equals wanted: String) -> Bool {
    var text = wanted
    return text.withUTF8 { key(entry, equals: $0, wantedIsASCII: nil, wanted) }
  }

  /// ``key(_:equals:)`` with `wanted`'s UTF-8 at hand, and whether it is all ASCII when known
  /// (worked out here only when the bytes differ and it is `nil`).
  @inline(__always)
  func key(_ entry: Int, equals bytes: UnsafeBufferPointer<UInt8>, wantedIsASCII: Bool?, _ wanted: String) -> Bool {
    let found = entries[entry]
    guard found.kind == .asciiRun else { return strings[Int(found.payload)] == wanted }
    let count = Int(found.count)
    if bytes.count == count, count == 0 || memcmp(bytes.baseAddress!, base + Int(found.payload), count) == 0 { return true }
    if wantedIsASCII ?? XMLPlistTapeSink.isASCII(bytes) { return false }
    return keyText(entry) == wanted
  }
}
