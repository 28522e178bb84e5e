public import StasisSystem

/// The one error type of Homepwner's model: a store that cannot be read or written.
public struct HomepwnerError: StasisError, Hashable {
  public typealias Code = ErrorCode<HomepwnerError>
  public var code: Code
  /// What was found and what was expected.
  public var detail: String
  /// The file involved.
  public var path: String?
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(_ code: Code, detail: String, path: String? = nil, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.detail = detail
    self.path = path
    self.cause = ErrorCause(underlying)
  }

  public var description: String { (path.map { $0 + ": " } ?? "") + detail + ErrorChain.suffix(for: underlying) }
}

extension ErrorCode<HomepwnerError> {
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }
  /// The items archive or an image could not be read (it is kept aside, never deleted).
  public static var unreadable: Self { Self("unreadable") }
  /// The store could not be written (the previous file is intact).
  public static var writeFailed: Self { Self("write failed") }
}
