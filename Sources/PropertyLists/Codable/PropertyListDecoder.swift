public import FoundationEssentials
internal import Synchronization

/// Decodes `Decodable` values from binary, XML and OpenStep property lists.
///
/// The counterpart of Foundation's `PropertyListDecoder`, with the same API and the same
/// rules, so that switching between them is a change of import:
///
/// - The format is detected from the bytes (binary, then XML, then OpenStep, which includes the
///   brace-less `.strings` form); JSON is not a property list here, as in Foundation.
/// - Types are strict: a `String` is read only from a string, a `Bool` only from a boolean, a
///   `Date` only from a date and `Data` only from data. Numbers convert: an integer or a real
///   with an integral value becomes any integer type it fits; any integer becomes a `Float` or
///   `Double`; a real becomes a `Float` exactly (from a binary document) or to the nearest value
///   (from XML). The string `$null` is `nil`.
/// - Errors are Foundation's: `DecodingError.typeMismatch`, `.keyNotFound`, `.valueNotFound` and
///   `.dataCorrupted` with the coding path and Foundation's wording ("Parsed property list number
///   <300> does not fit in Int8."). A document that cannot be read at all is
///   `DecodingError.dataCorrupted` ("The given data was not a valid property list.") whose
///   `underlyingError` is the ``PropertyListError`` naming the format, position and problem.
///
/// A binary document is decoded in place, straight from its object table (no
/// ``PropertyListValue`` tree; its whole graph is checked first, as the binary reader checks it);
/// a UTF-8 XML document from a flat record of its elements that the XML reader's parser makes
/// (scalars made only when decoded); other formats are read into a tree first. The results and
/// errors are the same either way.
///
/// Setting options is thread-safe, as in Foundation; one decoder may be shared.
open class PropertyListDecoder {
  /// The formats a document may be in (Foundation's `PropertyListDecoder.PropertyListFormat`).
  public typealias PropertyListFormat = PropertyLists.PropertyListFormat

  private let options = Mutex<[CodingUserInfoKey: any Sendable]>([:])

  /// Creates a decoder.
  public init() {}

  /// Values handed to every `init(from:)` through `Decoder.userInfo`.
  @preconcurrency open var userInfo: [CodingUserInfoKey: any Sendable] {
    get { options.withLock { $0 } }
    set { options.withLock { $0 = newValue } }
  }

  // MARK: Decoding

  /// Decodes a value of type `type` from a property list in any format.
  ///
  /// - Throws: `DecodingError` (see the type's documentation); a document that is not a
  ///   property list throws `DecodingError.dataCorrupted` with a ``PropertyListError`` as its
  ///   underlying error.
  /// - Complexity: O(*n*) in the size of the document.
  open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    var format = PropertyListFormat.binary
    return try decode(type, from: data, format: &format)
  }

  /// Decodes a value and reports the format the document was in (``PropertyListFormat/binary``,
  /// ``PropertyListFormat/xml`` or ``PropertyListFormat/openStep``).
  open func decode<T: Decodable>(_ type: T.Type, from data: Data, format: inout PropertyListFormat) throws -> T {
    let decoder = try makeDecoder(data)
    let result = try decoder.decoder.decodeTopLevel(type)
    format = decoder.format
    return result
  }

  /// Decodes a value from a property list already in memory (Stasis only; Foundation has no
  /// equivalent). Numbers follow the binary rules: a real becomes a `Float` only if it fits
  /// exactly.
  open func decode<T: Decodable>(_ type: T.Type, from value: PropertyListValue) throws -> T {
    try makeDecoder(PlistDecodingNode(value), from: .binary).decodeTopLevel(type)
  }

  /// Decodes a value that needs a configuration (Foundation's `DecodableWithConfiguration`).
  open func decode<T: DecodableWithConfiguration>(
    _ type: T.Type, from data: Data, configuration: T.DecodingConfiguration
  ) throws -> T {
    var format = PropertyListFormat.binary
    return try decode(type, from: data, format: &format, configuration: configuration)
  }

  /// Decodes a value that needs a configuration, and reports the document's format.
  open func decode<T: DecodableWithConfiguration>(
    _ type: T.Type, from data: Data, format: inout PropertyListFormat, configuration: T.DecodingConfiguration
  ) throws -> T {
    let decoder = try makeDecoder(data)
    let result = try decoder.decoder.decodeTopLevel(type, configuration: configuration)
    format = decoder.format
    return result
  }

  /// Decodes a value with the configuration a provider type supplies.
  open func decode<T, Provider>(
    _ type: T.Type, from data: Data, configuration: Provider.Type
  ) throws -> T
  where
    T: DecodableWithConfiguration, Provider: DecodingConfigurationProviding,
    T.DecodingConfiguration == Provider.DecodingConfiguration
  {
    try decode(type, from: data, configuration: Provider.decodingConfiguration)
  }

  /// Decodes a value with a provider's configuration, and reports the document's format.
  open func decode<T, Provider>(
    _ type: T.Type, from data: Data, format: inout PropertyListFormat, configuration: Provider.Type
  ) throws -> T
  where
    T: DecodableWithConfiguration, Provider: DecodingConfigurationProviding,
    T.DecodingConfiguration == Provider.DecodingConfiguration
  {
    try decode(type, from: data, format: &format, configuration: Provider.decodingConfiguration)
  }

  // MARK: Helpers

  private func makeDecoder(
    _ node: PlistDecodingNode, objects: PlistBinaryObjects? = nil, tape: XMLPlistTape? = nil, from format: PropertyListFormat
  ) -> PlistValueDecoder {
    let userInfo = self.userInfo
    return PlistValueDecoder(
      node, objects: objects, tape: tape, userInfo: userInfo.isEmpty ? [:] : userInfo.mapValues { $0 as Any },
      valuesFromText: format != .binary)
  }

  /// The decoder for a document: straight from the object table of a binary document, or from
  /// the flat record of a UTF-8 XML document, that reads without error; otherwise from the value
  /// tree ``read(_:)`` makes — for a document that does not read, that is what throws, so its
  /// error is the tree reader's own.
  private func makeDecoder(_ data: Data) throws -> (decoder: PlistValueDecoder, format: PropertyListFormat) {
    let limits = PropertyListReadingPolicy.foundationDecoder.limits
    if let objects = PlistBinaryObjects(data, options: limits) {
      return (makeDecoder(try objects.node(objects.top), objects: objects, from: .binary), .binary)
    }
    if let tape = XMLPlistTape(data, options: limits) {
      return (makeDecoder(tape.node(tape.root), tape: tape, from: .xml), .xml)
    }
    let (value, detected) = try Self.read(data)
    return (makeDecoder(PlistDecodingNode(value), from: detected), detected)
  }

  /// Decodes `data` from a value tree even when it is a binary or XML document that could be
  /// read in place (the paths must agree; tests and fuzzers compare them).
  @_spi(Testing) public func decodeThroughTree<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let (value, detected) = try Self.read(data)
    return try makeDecoder(PlistDecodingNode(value), from: detected).decodeTopLevel(type)
  }

  /// Reads the document as Foundation's decoder does (``PropertyListReadingPolicy/foundationDecoder``):
  /// the format its bytes show; text that is not OpenStep is read again as a `.strings` file (an
  /// OpenStep dictionary without braces), which Foundation's decoder also accepts.
  static func read(_ data: Data) throws -> (PropertyListValue, PropertyListFormat) {
    do {
      return try PropertyListValue.read(data, policy: .foundationDecoder)
    } catch {
      throw invalidDocument(error)
    }
  }

  /// Foundation's error for a document that cannot be read at all.
  static func invalidDocument(_ error: any Error) -> DecodingError {
    DecodingError.dataCorrupted(
      .init(codingPath: [], debugDescription: "The given data was not a valid property list.", underlyingError: error))
  }
}

extension PropertyListDecoder: @unchecked Sendable {}
