public import StasisSystem

/// The one error type of the `PropertyLists` module.
///
/// Every failure to read or write a property list is thrown as this error. Match it by code:
///
/// ```swift
/// do { _ = try PropertyListValue(decoding: bytes) }
/// catch PropertyListError.Code.truncated { … }
/// ```
///
/// The `description` names the file (when known), the format, the position, what was found and
/// what was expected. It never includes values from the document, which may be private.
/// Its wording may change between releases; match on ``code`` instead.
public struct PropertyListError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<PropertyListError>

  /// Where in the document the problem was found.
  public enum Position: Hashable, Sendable {
    /// A byte offset from the start of the document (binary formats, and text formats before lines are counted).
    case byteOffset(Int)
    /// A 1-based line number (text formats).
    case line(Int)
  }

  public var code: Code
  /// The format being read or written when the error happened; `nil` when not yet known.
  public var format: PropertyListFormat?
  public var position: Position?
  /// What was found and what was expected, in words.
  public var detail: String
  /// The file being read or written, when the error came through a file API.
  public var path: String?
  /// The error behind this one: the `AtomicFileError` of a `Code.fileSystem`
  /// error (a full disk, a missing folder), or the error a value's `encode(to:)` threw.
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(
    _ code: Code, format: PropertyListFormat?, position: Position? = nil, detail: String,
    path: String? = nil, underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.format = format
    self.position = position
    self.detail = detail
    self.path = path
    self.cause = ErrorCause(underlying)
  }

  /// The same error, naming the file it came from.
  public func inFile(_ path: String) -> PropertyListError {
    var copy = self
    copy.path = path
    return copy
  }

  public var description: String {
    var text = ""
    if let path { text += path + ": " }
    if let format { text += format.description + ": " }
    text += detail
    switch position {
    case .byteOffset(let offset)?: text += " (at byte \(offset), 0x\(String(offset, radix: 16)))"
    case .line(let line)?: text += " (line \(line))"
    case nil: break
    }
    return text
  }
}

extension ErrorCode<PropertyListError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch PropertyListError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The bytes end before the structure they describe is complete.
  public static var truncated: Self { Self("truncated") }
  /// A byte, tag or token that is not allowed at this position.
  public static var unexpectedInput: Self { Self("unexpected input") }
  /// A value that is syntactically in place but not valid (bad number, bad date, bad base64…).
  public static var invalidValue: Self { Self("invalid value") }
  /// An object reference or offset that points outside the document.
  public static var badReference: Self { Self("bad reference") }
  /// A container that contains itself.
  public static var cycle: Self { Self("cycle") }
  /// Nesting deeper than ``PropertyListReadingOptions/maximumDepth``.
  public static var tooDeep: Self { Self("too deep") }
  /// More objects or bytes than the reading limits allow.
  public static var limitExceeded: Self { Self("limit exceeded") }
  /// The bytes are not in any format this reader knows, or not in the one requested.
  public static var unknownFormat: Self { Self("unknown format") }
  /// The value cannot be written in the requested format (a date in JSON, a non-string key…).
  public static var unrepresentable: Self { Self("unrepresentable") }
  /// Text that is not valid in its declared or detected encoding.
  public static var badEncoding: Self { Self("bad encoding") }
  /// A file could not be read or written; `detail` carries the system's reason.
  public static var fileSystem: Self { Self("file system") }
  /// A key path does not lead to a value, or leads through a value that is not a container.
  public static var keyPathNotFound: Self { Self("key path not found") }
}
