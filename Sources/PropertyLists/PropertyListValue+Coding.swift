public import FoundationEssentials

/// Options for writers.
public struct PropertyListWritingOptions: Sendable, Hashable {
  /// JSON only: indent nested values (plutil's `-r`, "human-readable"). Default `false`.
  public var prettyPrinted: Bool = false
  /// JSON only: write dictionary keys sorted (plutil sorts them when pretty-printing). Default `false`.
  public var sortedKeys: Bool = false
  public init(prettyPrinted: Bool = false, sortedKeys: Bool = false) {
    self.prettyPrinted = prettyPrinted
    self.sortedKeys = sortedKeys
  }
  public static let `default` = PropertyListWritingOptions()
}

extension PropertyListValue {
  /// Reads a property list, detecting its format from the bytes (binary, XML, OpenStep or JSON,
  /// in CoreFoundation's order: `bplist0` magic first, then XML, then JSON, then OpenStep).
  ///
  /// - Parameters:
  ///   - data: the document's bytes; they are only read during the call.
  ///   - format: read only this format instead of detecting one.
  ///   - options: the limits on depth, object count and size (``PropertyListReadingOptions``).
  /// - Throws: ``PropertyListError`` naming the format, position and what was expected.
  /// - Complexity: O(*n*) in the size of the input.
  public init(
    decoding data: Data, format: PropertyListFormat? = nil, options: PropertyListReadingOptions = .default
  ) throws(PropertyListError) {
    self = try withContiguousBytes(of: data) { (buffer) throws(PropertyListError) in
      try Self.read(buffer, format: format, options: options).value
    }
  }

  /// Reads a property list from bytes; see ``init(decoding:format:options:)``.
  public init(
    decoding bytes: [UInt8], format: PropertyListFormat? = nil, options: PropertyListReadingOptions = .default
  ) throws(PropertyListError) {
    self = try withContiguousBytes(of: bytes) { (buffer) throws(PropertyListError) in
      try Self.read(buffer, format: format, options: options).value
    }
  }

  /// Reads a property list and reports which format it was in.
  public static func decodeWithFormat(
    _ data: Data, options: PropertyListReadingOptions = .default
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    try withContiguousBytes(of: data) { (buffer) throws(PropertyListError) in
      try read(buffer, format: nil, options: options)
    }
  }

  /// Reads a property list from raw bytes. The buffer is only used during the call.
  public static func read(
    _ buffer: UnsafeRawBufferPointer, format: PropertyListFormat? = nil,
    options: PropertyListReadingOptions = .default
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    guard buffer.count <= options.maximumByteCount else {
      throw PropertyListError(
        .limitExceeded, format: format, detail: "document of \(buffer.count) bytes is larger than the limit of \(options.maximumByteCount)")
    }
    let chosen = format ?? PropertyListFormat.detect(buffer)
    if format == nil && chosen == .openStep {
      // Like plutil: what is neither binary nor XML is tried as OpenStep, then as JSON.
      do {
        return (try OpenStepPlistReader.read(buffer, options: options, stringsFile: false), .openStep)
      } catch let openStepError {
        do {
          return (try JSONPlistReader.read(buffer, options: options), .json)
        } catch let jsonError {
          let first = buffer.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
          throw first == UInt8(ascii: "[") ? jsonError : openStepError
        }
      }
    }
    if format == nil && chosen == .xml {
      // CF tries XML, then OpenStep: `<0fbd>` is OpenStep data, not markup.
      do {
        return (try XMLPlistReader.read(buffer, options: options), .xml)
      } catch let xmlError {
        if let openStep = try? OpenStepPlistReader.read(buffer, options: options, stringsFile: false) {
          return (openStep, .openStep)
        }
        throw xmlError
      }
    }
    let value: PropertyListValue
    switch chosen {
    case .binary: value = try BinaryPlistReader.read(buffer, options: options)
    case .xml: value = try XMLPlistReader.read(buffer, options: options)
    case .openStep: value = try OpenStepPlistReader.read(buffer, options: options, stringsFile: false)
    case .strings: value = try OpenStepPlistReader.read(buffer, options: options, stringsFile: true)
    case .json: value = try JSONPlistReader.read(buffer, options: options)
    }
    return (value, chosen)
  }

  /// Writes the value in `format`.
  ///
  /// - Throws: ``PropertyListError/Code/unrepresentable`` when the format cannot hold the value
  ///   (JSON has no dates, data or UIDs; OpenStep has no dates).
  public func encoded(
    as format: PropertyListFormat, options: PropertyListWritingOptions = .default
  ) throws(PropertyListError) -> Data {
    switch format {
    case .binary: try BinaryPlistWriter.writeData(self)
    case .xml: try XMLPlistWriter.writeData(self)
    default: Data(try encodedBytes(as: format, options: options))
    }
  }

  /// Writes the value in `format` as a byte array.
  public func encodedBytes(
    as format: PropertyListFormat, options: PropertyListWritingOptions = .default
  ) throws(PropertyListError) -> [UInt8] {
    switch format {
    case .binary: try BinaryPlistWriter.write(self)
    case .xml: try XMLPlistWriter.write(self)
    case .openStep: try OpenStepPlistWriter.write(self, stringsFile: false)
    case .strings: try OpenStepPlistWriter.write(self, stringsFile: true)
    case .json: try JSONPlistWriter.write(self, options: options)
    }
  }
}

extension PropertyListFormat {
  /// Guesses the format of a document from its first bytes, as CoreFoundation does: `bplist0`
  /// means binary; XML markup (after an optional byte-order mark and whitespace) means XML;
  /// anything else is OpenStep. (``PropertyListValue/read(_:format:options:)`` falls back to
  /// JSON when OpenStep fails, as plutil does.)
  public static func detect(_ buffer: UnsafeRawBufferPointer) -> PropertyListFormat {
    if buffer.count >= 7, buffer.starts(with: "bplist0".utf8) { return .binary }
    if XMLPlistReader.looksLikeXML(buffer) { return .xml }
    return .openStep
  }
}

/// Runs `body` over the bytes of `bytes`, keeping the typed error.
@inline(__always)
package func withContiguousBytes<Bytes: ContiguousBytes, Result>(
  of bytes: Bytes, _ body: (UnsafeRawBufferPointer) throws(PropertyListError) -> Result
) throws(PropertyListError) -> Result {
  let outcome: Swift.Result<Result, PropertyListError> = bytes.withUnsafeBytes { buffer in
    Swift.Result { () throws(PropertyListError) in try body(buffer) }
  }
  return try outcome.get()
}
