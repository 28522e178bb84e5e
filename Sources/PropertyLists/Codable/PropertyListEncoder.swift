public import FoundationEssentials
internal import Synchronization

/// Encodes `Encodable` values as binary or XML property lists.
///
/// The counterpart of Foundation's `PropertyListEncoder`, with the same API and the same output
/// conventions, so that switching between them is a change of import:
///
/// - `nil` is written as the string `$null`; `Date` as a date and `Data` as data; a `Float` as a
///   32-bit real; `UInt64` values above `Int64.max` keep their full range.
/// - `[String: V]` dictionaries are written with their keys sorted (Foundation does this so that
///   the bytes do not depend on hash order); other keyed containers keep the order their keys
///   were encoded in.
/// - A value that encodes nothing is an empty dictionary.
/// - `URL` encodes itself as a dictionary (`relative`, and `base` when it has one), exactly as
///   with Foundation, because that is what its own `encode(to:)` does.
///
/// Errors follow Foundation's: every failure is an `EncodingError.invalidValue` for the
/// top-level value, "Unable to encode the given top-level value as a property list", whose
/// `underlyingError` is the real cause — the error a value's `encode(to:)` threw, an
/// `EncodingError` for a top-level value that is not a container, data or nothing, or a
/// ``PropertyListError`` from the writer.
///
/// Setting options is thread-safe, as in Foundation; one encoder may be shared.
///
/// Unlike Foundation's, an encoder keeps its working memory from one document to the next (up to
/// 64 MB; about 1.8 times a binary document's size), so that encoding again does not write into
/// fresh pages each time; the memory is freed with the encoder. Use a new encoder for a one-off
/// document when that memory matters.
open class PropertyListEncoder {
  struct Options {
    var outputFormat: PropertyListFormat = .binary
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// The last document's sizes (capacity hints for the next, since an encoder is usually
    /// used again on values of the same shape) and the tape encoder's working memory.
    var scratch = PlistTapeScratch()
  }

  private let options = Mutex(Options())

  /// Creates an encoder that writes binary property lists.
  public init() {}

  /// The format ``encode(_:)`` writes: ``PropertyListFormat/binary`` (the default) or
  /// ``PropertyListFormat/xml``. Like Foundation's, the encoder does not write OpenStep (nor
  /// JSON or `.strings`); asking for them makes ``encode(_:)`` throw.
  open var outputFormat: PropertyListFormat {
    get { options.withLock { $0.outputFormat } }
    set { options.withLock { $0.outputFormat = newValue } }
  }

  /// Values handed to every `encode(to:)` through `Encoder.userInfo`.
  @preconcurrency open var userInfo: [CodingUserInfoKey: any Sendable] {
    get { options.withLock { $0.userInfo } }
    set { options.withLock { $0.userInfo = newValue } }
  }

  // MARK: Encoding

  /// Encodes `value` as a property list in ``outputFormat``.
  ///
  /// The top-level value must encode as a dictionary, an array or data: a top-level number,
  /// string, boolean, date or `nil` is rejected, as Foundation rejects it.
  ///
  /// - Throws: `EncodingError.invalidValue` (see the type's documentation for its underlying
  ///   errors).
  /// - Complexity: O(*n*) in the size of the encoded value.
  open func encode<Value: Encodable>(_ value: Value) throws -> Data {
    let (format, userInfo) = snapshot()
    // Straight to bytes when the value suits it (every container written in one go); otherwise
    // again through the tree, which gives the same bytes and Foundation's errors.
    var scratch = options.withLock { $0.scratch.lend() }
    let tapeData = PlistTapeEncoder.encode(value, format: format, userInfo: userInfo, scratch: &scratch)
    scratch.empty()
    options.withLock { $0.scratch.giveBack(scratch) }
    if let tapeData { return tapeData }
    do {
      try Self.checkWritable(format)
      let encoder = Self.makeEncoder(userInfo)
      guard let root = try encoder.encodeTopLevel(value) else {
        throw Self.encodedNothing(value)
      }
      if let kind = root.fragmentKindDescription {
        throw EncodingError.invalidValue(
          value,
          .init(codingPath: [], debugDescription: "Top-level \(Value.self) encoded as \(kind) property list fragment."))
      }
      return try root.encoded(as: format)
    } catch {
      throw Self.wrapped(error, value)
    }
  }

  /// Encodes a value that needs a configuration (Foundation's `EncodableWithConfiguration`).
  ///
  /// As in Foundation, the top-level value is not checked for being a container.
  open func encode<Value: EncodableWithConfiguration>(
    _ value: Value, configuration: Value.EncodingConfiguration
  ) throws -> Data {
    let (format, userInfo) = snapshot()
    do {
      try Self.checkWritable(format)
      let encoder = Self.makeEncoder(userInfo)
      guard let root = try encoder.encodeChild(value, configuration: configuration) else {
        throw Self.encodedNothing(value)
      }
      return try root.encoded(as: format)
    } catch {
      throw Self.wrapped(error, value)
    }
  }

  /// Encodes a value with the configuration a provider type supplies.
  open func encode<Value, Provider>(
    _ value: Value, configuration: Provider.Type
  ) throws -> Data
  where
    Value: EncodableWithConfiguration, Provider: EncodingConfigurationProviding,
    Value.EncodingConfiguration == Provider.EncodingConfiguration
  {
    try encode(value, configuration: Provider.encodingConfiguration)
  }

  /// Encodes `value` as a ``PropertyListValue`` without writing it out (Stasis only; Foundation
  /// has no equivalent). Any value may be the root here, including a scalar.
  ///
  /// - Throws: `EncodingError.invalidValue`, wrapping the cause as ``encode(_:)`` does.
  open func encodeToValue<Value: Encodable>(_ value: Value) throws -> PropertyListValue {
    let (_, userInfo) = snapshot()
    do {
      guard let root = try Self.makeEncoder(userInfo).encodeTopLevel(value) else {
        throw Self.encodedNothing(value)
      }
      return root
    } catch {
      throw Self.wrapped(error, value)
    }
  }

  // MARK: Helpers

  private func snapshot() -> (PropertyListFormat, [CodingUserInfoKey: Any]) {
    options.withLock { options in
      (options.outputFormat, options.userInfo.isEmpty ? [:] : options.userInfo.mapValues { $0 as Any })
    }
  }

  private static func makeEncoder(_ userInfo: [CodingUserInfoKey: Any]) -> PlistValueEncoder {
    PlistValueEncoder(userInfo: userInfo)
  }

  private static func checkWritable(_ format: PropertyListFormat) throws(PropertyListError) {
    switch format {
    case .binary, .xml: return
    case .openStep, .strings, .json:
      throw PropertyListError(
        .unrepresentable, format: format,
        detail: "PropertyListEncoder writes binary and XML property lists only, not this format")
    }
  }

  private static func encodedNothing<Value>(_ value: Value) -> EncodingError {
    .invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(Value.self) did not encode any values."))
  }

  private static func wrapped<Value>(_ error: any Error, _ value: Value) -> EncodingError {
    .invalidValue(
      value,
      .init(
        codingPath: [], debugDescription: "Unable to encode the given top-level value as a property list",
        underlyingError: error))
  }
}

extension PropertyListEncoder: @unchecked Sendable {}
