public import StasisSystem

/// The one error type of the `PlistTool` module: a failure that plutil reports and then exits 1.
///
/// ``description`` is the text plutil prints. Errors about one input file are printed after the
/// file's name (`Info.plist: …`, or `<stdin>: …` for standard input); usage errors are printed
/// alone and stop the tool before any file is read.
public struct PlistToolError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<PlistToolError>

  public var code: Code
  /// The message, without the file name that plutil puts in front of per-file errors.
  public var message: String
  /// The library error behind this one (a `PropertyListError`, a file-system
  /// error); plutil prints only ``message``.
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.message = message
    self.cause = ErrorCause(underlying)
  }

  public var description: String { message }

  static func usage(_ message: String) -> PlistToolError { PlistToolError(.usage, message) }
}

extension ErrorCode<PlistToolError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch PlistToolError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The command line is not something plutil understands (unknown option, missing argument).
  public static var usage: Self { Self("usage") }
  /// A file could not be read or written.
  public static var fileSystem: Self { Self("file system") }
  /// The input is not a property list (or, where JSON is allowed, not JSON either).
  public static var unreadable: Self { Self("unreadable") }
  /// A key path does not lead where the command needs it to.
  public static var keyPath: Self { Self("key path") }
  /// The value is not of the type `-expect` asked for.
  public static var unexpectedType: Self { Self("unexpected type") }
  /// The value cannot be written in the requested format.
  public static var unrepresentable: Self { Self("unrepresentable") }
}
