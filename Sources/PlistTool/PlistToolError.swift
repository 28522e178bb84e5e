public import StasisErrors

/// The one error type of the `PlistTool` module: a failure that plutil reports and then exits 1.
///
/// ``description`` is the text plutil prints. Errors about one input file are printed after the
/// file's name (`Info.plist: …`, or `<stdin>: …` for standard input); usage errors are printed
/// alone and stop the tool before any file is read.
public struct PlistToolError: StasisError, Hashable {
  /// What kind of failure this is.
  public struct Code: StasisErrorCode {
    public typealias Error = PlistToolError
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static func ~= (code: Code, error: any Swift.Error) -> Bool { ErrorChain.contains(code, as: Error.self, in: error) }

    /// The command line is not something plutil understands (unknown option, missing argument).
    public static let usage = Code(rawValue: "usage")
    /// A file could not be read or written.
    public static let fileSystem = Code(rawValue: "file system")
    /// The input is not a property list (or, where JSON is allowed, not JSON either).
    public static let unreadable = Code(rawValue: "unreadable")
    /// A key path does not lead where the command needs it to.
    public static let keyPath = Code(rawValue: "key path")
    /// The value is not of the type `-expect` asked for.
    public static let unexpectedType = Code(rawValue: "unexpected type")
    /// The value cannot be written in the requested format.
    public static let unrepresentable = Code(rawValue: "unrepresentable")
  }

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
