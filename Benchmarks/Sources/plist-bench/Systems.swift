import CLibplist
import Foundation
import PropertyLists

enum Operation: String, CaseIterable {
  case decode, encode
}

enum DocumentFormat: String, CaseIterable {
  case binary, xml

  var fileExtension: String { self == .binary ? "bplist" : "xml" }
  var title: String { self == .binary ? "binary" : "XML" }
  var stasis: PropertyLists.PropertyListFormat { self == .binary ? .binary : .xml }
  var foundation: PropertyListSerialization.PropertyListFormat { self == .binary ? .binary : .xml }
}

/// The systems compared, in table order.
enum SystemID: String, CaseIterable {
  case stasis
  case stasisCodable = "stasis-codable"
  case foundationPLS = "foundation-pls"
  case foundationCodable = "foundation-codable"
  case libplist
  /// The Rust `plist` crate's `Value` tree, in the peer process Benchmarks/RustPeer (RustPeer.swift).
  case rustPlist = "rust-plist"
  /// The Rust `plist` crate through serde, with the item-store structs, in the same peer.
  case rustSerde = "rust-serde"

  var title: String {
    switch self {
    case .stasis: "Stasis"
    case .stasisCodable: "Stasis Codable"
    case .foundationPLS: "Foundation PLS"
    case .foundationCodable: "Foundation Codable"
    case .libplist: "libplist"
    case .rustPlist: "Rust plist"
    case .rustSerde: "Rust plist serde"
    }
  }

  /// Systems timed by a program of their own that speaks the worker protocol (the Rust peer),
  /// not by this executable.
  var isExternal: Bool { self == .rustPlist || self == .rustSerde }

  /// Every system but Stasis's own two.
  var isPeer: Bool { self != .stasis && self != .stasisCodable }
}

/// One generated document, loaded into memory.
struct Document {
  var dataset: String  // "plist-small" …
  var format: DocumentFormat
  var path: String
  var bytes: Data
  var expectedItems: Int
  var expectedCategories: Int

  var label: String { "\(dataset).\(format.fileExtension)" }
}

/// The system cannot run this cell yet (a codec that has not landed); printed as "n/a".
struct Unavailable: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A prepared benchmark cell. `run` is one timed iteration: it returns the item count for a
/// decode and the output size for an encode, which the harness checks on every iteration.
struct Cell {
  var run: () throws -> Int
  /// What `run` must return (`nil`: any positive number, for encoders).
  var expected: Int?
}

/// Builds the cell for `system` × `operation` × `document`, after checking the system's result
/// once, untimed, against `reference` (a fingerprint of the dataset taken by Foundation).
///
/// Encoders write the tree each system decoded from `source`, the binary document of the same
/// dataset (the binary and XML documents hold the same values), so that an encoder can be measured
/// before its format's reader exists.
func makeCell(
  _ system: SystemID, _ operation: Operation, _ document: Document, source: Document, reference: Fingerprint
) throws -> Cell {
  let bytes = document.bytes
  let expected = document.expectedItems
  switch (system, operation) {
  case (.stasis, .decode):
    try stasisCanRead(document)
    try expect(Fingerprint(try stasisDecode(bytes, document.format)), reference, system, document)
    return Cell(run: { try PropertyListValue(decoding: bytes)["items"]?.arrayValue?.count ?? -1 }, expected: expected)

  case (.stasis, .encode):
    try stasisCanRead(source)
    let value = try stasisDecode(source.bytes, source.format)
    let format = document.format.stasis
    try verifyEncoded(try stasisEncode(value, format), reference, system, document)
    return Cell(run: { try value.encoded(as: format).count }, expected: nil)

  case (.stasisCodable, .decode):
    try stasisCanRead(document)
    try expect(Fingerprint(try stasisCodableDecode(bytes)), reference, system, document)
    return Cell(run: { try stasisCodableDecode(bytes).items.count }, expected: expected)

  case (.stasisCodable, .encode):
    try stasisCanRead(source)
    let store = try stasisCodableDecode(source.bytes)
    let encode = try stasisCodableEncoder(document.format)
    let output: Data
    do {
      output = try encode(store)
    } catch {
      if "\(error)".contains("not built yet") { throw Unavailable("Stasis \(document.format.title) writer not built yet") }
      throw error
    }
    try verifyEncoded(output, reference, system, document)
    return Cell(run: { try encode(store).count }, expected: nil)

  case (.foundationPLS, .decode):
    try expect(Fingerprint(foundation: try foundationDecode(bytes)), reference, system, document)
    return Cell(run: { foundationItemCount(try foundationDecode(bytes)) }, expected: expected)

  case (.foundationPLS, .encode):
    let object = try foundationDecode(source.bytes)
    let format = document.format.foundation
    let encode = { () throws -> Data in
      try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
    }
    try verifyEncoded(try encode(), reference, system, document)
    return Cell(run: { try encode().count }, expected: nil)

  case (.foundationCodable, .decode):
    let decoder = Foundation.PropertyListDecoder()
    try expect(Fingerprint(try decoder.decode(ItemStore.self, from: bytes)), reference, system, document)
    return Cell(run: { try decoder.decode(ItemStore.self, from: bytes).items.count }, expected: expected)

  case (.foundationCodable, .encode):
    let store = try Foundation.PropertyListDecoder().decode(ItemStore.self, from: source.bytes)
    let encoder = Foundation.PropertyListEncoder()
    encoder.outputFormat = document.format.foundation
    try verifyEncoded(try encoder.encode(store), reference, system, document)
    return Cell(run: { try encoder.encode(store).count }, expected: nil)

  case (.libplist, .decode):
    try expect(try Fingerprint(libplist: LibplistTree(bytes, document.format)), reference, system, document)
    return Cell(run: { try LibplistTree(bytes, document.format).itemCount }, expected: expected)

  case (.libplist, .encode):
    let tree = try LibplistTree(source.bytes, source.format)
    try verifyEncoded(tree.encodedData(document.format), reference, system, document)
    return Cell(run: { tree.encodedCount(document.format) }, expected: nil)

  case (.rustPlist, _), (.rustSerde, _):
    throw Unavailable("\(system.title) runs in the Rust peer (plist-rust-peer --loop for profiling)")
  }
}

/// One encoder output of `system` for `document`'s format, written from the tree it decoded from
/// `source` (as its encode cell does), for `--loop … --output`.
func encodedOutput(_ system: SystemID, document: Document, source: Document) throws -> Data {
  switch system {
  case .stasis: return try stasisEncode(try stasisDecode(source.bytes, source.format), document.format.stasis)
  case .stasisCodable: return try stasisCodableEncoder(document.format)(try stasisCodableDecode(source.bytes))
  case .foundationPLS:
    return try PropertyListSerialization.data(
      fromPropertyList: try foundationDecode(source.bytes), format: document.format.foundation, options: 0)
  case .foundationCodable:
    let encoder = Foundation.PropertyListEncoder()
    encoder.outputFormat = document.format.foundation
    return try encoder.encode(try Foundation.PropertyListDecoder().decode(ItemStore.self, from: source.bytes))
  case .libplist: return try LibplistTree(source.bytes, source.format).encodedData(document.format)
  case .rustPlist, .rustSerde: throw Unavailable("\(system.title) runs in the Rust peer")
  }
}

/// Throws ``Unavailable`` when Stasis's reader for the document's format has not landed yet, and
/// fails when Stasis detects the document as another format.
func stasisCanRead(_ document: Document) throws {
  let detected = document.bytes.withUnsafeBytes { PropertyLists.PropertyListFormat.detect($0) }
  if detected == document.format.stasis { return }
  _ = try stasisDecode(document.bytes, document.format, explicitly: true)
  throw CheckFailure("Stasis detects \(document.label) as \(detected), not as \(document.format.title)")
}

// MARK: - The systems' entry points

func stasisDecode(_ bytes: Data, _ format: DocumentFormat, explicitly: Bool = false) throws -> PropertyListValue {
  // (A `catch where` on the typed error crashes the 6.3.1 compiler in MandatoryAllocBoxToStack.)
  let result = Result { () throws(PropertyListError) in
    try PropertyListValue(decoding: bytes, format: explicitly ? format.stasis : nil)
  }
  switch result {
  case .success(let value): return value
  case .failure(let error) where error.detail.contains("not built yet"):
    throw Unavailable("Stasis \(format.title) reader not built yet")
  case .failure(let error): throw error
  }
}

func stasisEncode(_ value: PropertyListValue, _ format: PropertyLists.PropertyListFormat) throws -> Data {
  let result = Result { () throws(PropertyListError) in try value.encoded(as: format) }
  switch result {
  case .success(let data): return data
  case .failure(let error) where error.detail.contains("not built yet"):
    throw Unavailable("Stasis \(format) writer not built yet")
  case .failure(let error): throw error
  }
}

func foundationDecode(_ bytes: Data) throws -> Any {
  try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil)
}

func foundationItemCount(_ root: Any) -> Int {
  ((root as? [String: Any])?["items"] as? [Any])?.count ?? -1
}

/// A libplist tree, freed with the object.
final class LibplistTree {
  let root: plist_t

  init(_ bytes: Data, _ format: DocumentFormat) throws {
    var root: plist_t? = nil
    bytes.withUnsafeBytes { buffer in
      let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
      switch format {
      case .binary: plist_from_bin(base, UInt32(buffer.count), &root)
      case .xml: plist_from_xml(base, UInt32(buffer.count), &root)
      }
    }
    guard let root else { throw CheckFailure("libplist could not read the \(format.title) document") }
    self.root = root
  }

  deinit { plist_free(root) }

  var itemCount: Int {
    guard let items = plist_dict_get_item(root, "items") else { return -1 }
    return Int(plist_array_get_size(items))
  }

  /// Encodes and frees the output; returns its size.
  func encodedCount(_ format: DocumentFormat) -> Int {
    var output: UnsafeMutablePointer<CChar>? = nil
    var length: UInt32 = 0
    switch format {
    case .binary:
      plist_to_bin(root, &output, &length)
      plist_to_bin_free(output)
    case .xml:
      plist_to_xml(root, &output, &length)
      plist_to_xml_free(output)
    }
    return output == nil ? -1 : Int(length)
  }

  func encodedData(_ format: DocumentFormat) -> Data {
    var output: UnsafeMutablePointer<CChar>? = nil
    var length: UInt32 = 0
    switch format {
    case .binary:
      plist_to_bin(root, &output, &length)
      defer { plist_to_bin_free(output) }
      return output.map { Data(bytes: $0, count: Int(length)) } ?? Data()
    case .xml:
      plist_to_xml(root, &output, &length)
      defer { plist_to_xml_free(output) }
      return output.map { Data(bytes: $0, count: Int(length)) } ?? Data()
    }
  }
}

// MARK: - Checks

func expect(_ found: Fingerprint, _ reference: Fingerprint, _ system: SystemID, _ document: Document) throws {
  guard found == reference else {
    throw CheckFailure(
      "\(system.title) decoded \(document.label) wrongly:\n  got      \(found)\n  expected \(reference)")
  }
}

/// An encoder's output must read back (through Foundation's PropertyListSerialization, the
/// referee) to the same document.
/// Loop mode (for profilers) turns the read-back off so that Foundation's slow reader does not
/// dominate the profile; the full run always verifies.
nonisolated(unsafe) var verifyEncoders = true

func verifyEncoded(_ output: Data, _ reference: Fingerprint, _ system: SystemID, _ document: Document) throws {
  guard verifyEncoders else { return }
  let magic = document.format == .binary ? "bplist00" : "<?xml"
  guard output.starts(with: Data(magic.utf8)) else {
    throw CheckFailure("\(system.title)'s encoding of \(document.label) does not start with \(magic)")
  }
  let readBack: Any
  do {
    readBack = try foundationDecode(output)
  } catch {
    throw CheckFailure("\(system.title)'s encoding of \(document.label) does not read back: \(error)")
  }
  let found = try Fingerprint(foundation: readBack)
  guard found == reference else {
    throw CheckFailure(
      "\(system.title)'s encoding of \(document.label) reads back differently:\n  got      \(found)\n  expected \(reference)")
  }
}
