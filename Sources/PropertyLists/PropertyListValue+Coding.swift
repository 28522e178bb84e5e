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
  /// Reads a property list, detecting its format from the bytes (binary, XML, OpenStep or JSON;
  /// see ``PropertyListReadingPolicy/automatic``).
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

  /// Reads a property list as `policy` says (see `read(_:policy:)` on a raw buffer).
  public init(decoding data: Data, policy: PropertyListReadingPolicy) throws(PropertyListError) {
    self = try Self.read(data, policy: policy).value
  }

  /// Reads a property list from bytes as `policy` says.
  public init(decoding bytes: [UInt8], policy: PropertyListReadingPolicy) throws(PropertyListError) {
    self = try Self.read(bytes, policy: policy).value
  }

  /// Reads a property list as `policy` says and reports the format it was read in.
  public static func read<Bytes: ContiguousBytes>(
    _ bytes: Bytes, policy: PropertyListReadingPolicy
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    try withContiguousBytes(of: bytes) { (buffer) throws(PropertyListError) in
      try read(buffer, policy: policy)
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
  ///
  /// - Parameters:
  ///   - buffer: the document's bytes.
  ///   - format: read only this format (``PropertyListReadingPolicy/only(_:)``); by default the
  ///     format is detected (``PropertyListReadingPolicy/automatic``).
  ///   - options: the reading limits.
  public static func read(
    _ buffer: UnsafeRawBufferPointer, format: PropertyListFormat? = nil,
    options: PropertyListReadingOptions = .default
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    var policy = format.map(PropertyListReadingPolicy.only) ?? .automatic
    policy.limits = options
    return try read(buffer, policy: policy)
  }

  /// Reads a property list as `policy` says: the ladder chosen by the document's first bytes,
  /// then the policy's last resort; when all fail, the error the policy reports.
  ///
  /// - Throws: `PropertyListError.Code.limitExceeded` when the document is larger than
  ///   `policy.limits.maximumByteCount`; otherwise the error ``PropertyListReadingPolicy/reportedError``
  ///   chooses among the attempts' errors.
  /// - Complexity: O(*n*) in the size of the input for each format tried.
  public static func read(
    _ buffer: UnsafeRawBufferPointer, policy: PropertyListReadingPolicy
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    let options = policy.limits
    guard buffer.count <= options.maximumByteCount else {
      throw PropertyListError(
        .limitExceeded, format: policy.usesContentDetection ? nil : policy.text.first?.format,
        detail: "document of \(buffer.count) bytes is larger than the limit of \(options.maximumByteCount)")
    }
    // The ladder's first failure, and JSON's wherever JSON was tried.
    var ladderError: PropertyListError? = nil
    var jsonError: PropertyListError? = nil
    if let refusal = Self.emptyDocumentError(buffer, policy.emptyDocument) {
      ladderError = refusal
    } else {
      let ladder = policy.usesContentDetection ? policy.ladder(for: PropertyListFormat.detect(buffer)) : policy.text
      for attempt in ladder {
        do {
          return (try read(buffer, attempt: attempt, options: options), attempt.reportedFormat)
        } catch {
          if ladderError == nil { ladderError = error }
          if attempt.format == .json { jsonError = error }
        }
      }
    }
    var lastResortError: PropertyListError? = nil
    if let lastResort = policy.lastResort {
      do {
        return (try read(buffer, attempt: lastResort, options: options), lastResort.reportedFormat)
      } catch {
        lastResortError = error
        if lastResort.format == .json { jsonError = error }
      }
    }
    guard let ladderError else {
      throw lastResortError ?? PropertyListError(.unknownFormat, format: nil, detail: "the reading policy tries no format")
    }
    switch policy.reportedError {
    case .first:
      throw ladderError
    case .firstOrJSONForBracket:
      if let jsonError, startsWithBracket(buffer) { throw jsonError }
      throw ladderError
    case .combined:
      guard let lastResortError, let lastResort = policy.lastResort else { throw ladderError }
      throw PropertyListError(
        ladderError.code, format: nil,
        detail: "Property List error: \(ladderError.description) / \(lastResort.format.description) error: \(lastResortError.description)")
    }
  }

  /// One attempt of a policy's ladder.
  private static func read(
    _ buffer: UnsafeRawBufferPointer, attempt: PropertyListReadingPolicy.Attempt, options: PropertyListReadingOptions
  ) throws(PropertyListError) -> PropertyListValue {
    let value: PropertyListValue
    switch attempt.format {
    case .binary: value = try BinaryPlistReader.read(buffer, options: options)
    case .xml: value = try XMLPlistReader.read(buffer, options: options)
    case .openStep: value = try OpenStepPlistReader.read(buffer, options: options, stringsFile: false)
    case .strings: value = try OpenStepPlistReader.read(buffer, options: options, stringsFile: true)
    case .json: value = try JSONPlistReader.read(buffer, options: options)
    }
    if attempt.requiresNonEmptyDictionary {
      guard case .dictionary(let entries) = value, !entries.isEmpty else {
        throw PropertyListError(
          .unexpectedInput, format: attempt.format, detail: "found \(value.typeName); expected a dictionary with at least one entry")
      }
    }
    return value
  }

  /// The error a policy's ``PropertyListReadingPolicy/emptyDocument`` rule gives `buffer`, if any.
  private static func emptyDocumentError(
    _ buffer: UnsafeRawBufferPointer, _ rule: PropertyListReadingPolicy.EmptyDocument
  ) -> PropertyListError? {
    switch rule {
    case .readAsAnyOther:
      return nil
    case .refusedZeroBytes(let detail):
      return buffer.isEmpty ? PropertyListError(.truncated, format: nil, detail: detail) : nil
    case .refusedWithoutText:
      // Nothing, or only a UTF-8, UTF-16 big-endian or UTF-16 little-endian byte-order mark.
      let marks: [[UInt8]] = [[0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE]]
      guard buffer.isEmpty || marks.contains(where: { buffer.elementsEqual($0) }) else { return nil }
      return PropertyListError(
        .truncated, format: .openStep, position: .byteOffset(buffer.count),
        detail: "the document is empty; expected a property list")
    }
  }

  /// Whether the first byte other than space, tab, CR or LF is `[`.
  private static func startsWithBracket(_ buffer: UnsafeRawBufferPointer) -> Bool {
    let first = buffer.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    return first == UInt8(ascii: "[")
  }

  /// Writes the value in `format`.
  ///
  /// The binary writer keeps its working memory between calls (up to 64 MB), and the XML writer
  /// sizes its output from the last document's length: see <doc:BinaryPropertyLists>.
  ///
  /// - Throws: `PropertyListError.Code.unrepresentable` when the format cannot hold the value
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
  /// anything else is OpenStep. (A ``PropertyListReadingPolicy`` says which formats are tried
  /// after that: ``PropertyListReadingPolicy/automatic`` falls back to JSON when OpenStep fails,
  /// as plutil does.)
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
