public import StasisSystem

/// The one error type of the `Interface` module: a compiled nib (or, later, a xib) that cannot be
/// read or written. The `description` names the file, the byte offset and what was expected.
public struct InterfaceError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<InterfaceError>

  public var code: Code
  /// The file involved, when there is one.
  public var path: String?
  /// The byte offset in the file where the problem is, when it has one.
  public var offset: Int?
  /// What was found and what was expected, in words.
  public var detail: String
  /// The error behind this one (a file-system error).
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(_ code: Code, path: String? = nil, offset: Int? = nil, detail: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.path = path
    self.offset = offset
    self.detail = detail
    self.cause = ErrorCause(underlying)
  }

  public var description: String {
    var text = path.map { $0 + ": " } ?? ""
    if let offset { text += "byte \(offset): " }
    return text + detail + ErrorChain.suffix(for: underlying)
  }
}

extension ErrorCode<InterfaceError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch InterfaceError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The bytes are not a NIBArchive (no `NIBArchive` magic, or an unknown format version).
  public static var notANib: Self { Self("not a nib") }
  /// The bytes end before a table, entry or value they announce.
  public static var truncated: Self { Self("truncated") }
  /// An index points outside its table, a varint is too long, or a value type is unknown.
  public static var corrupt: Self { Self("corrupt") }
  /// The file is larger than the reader's limit, or holds more entries than allowed.
  public static var limitExceeded: Self { Self("limit exceeded") }
  /// The file could not be read or written.
  public static var fileSystem: Self { Self("file system") }
}
