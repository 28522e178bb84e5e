public import StasisSystem

/// The one error type of the `InterfaceBuilder` module: a `.xib` or `.storyboard` that cannot be
/// read, compiled or localized. The `description` names the file, the line and the element, and
/// what was expected.
public struct InterfaceBuilderError: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<InterfaceBuilderError>

  public var code: Code
  /// The document involved, when there is one.
  public var path: String?
  /// The 1-based line of the element or byte where the problem is, when known.
  public var line: Int?
  /// What was found and what was expected, in words.
  public var detail: String
  /// The error behind this one (a file-system or nib-writing error).
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?
  /// For an `.unsupported` refusal: the element (and attribute) refused and the innermost object
  /// element being compiled, which lenient compiling works from (``LenientPlan``).
  var refusal: Refusal?

  public init(_ code: Code, path: String? = nil, line: Int? = nil, detail: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.path = path
    self.line = line
    self.detail = detail
    self.cause = ErrorCause(underlying)
  }

  public var description: String {
    var text = path ?? "<document>"
    if let line { text += ":\(line)" }
    return text + ": " + detail + ErrorChain.suffix(for: underlying)
  }
}

extension ErrorCode<InterfaceBuilderError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch InterfaceBuilderError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The bytes are not well-formed XML (libxml2's message and line are in the detail), or they
  /// hold a document type declaration, which Interface Builder never writes.
  public static var malformedXML: Self { Self("malformed XML") }
  /// Well-formed XML that is not an Interface Builder document of format 3.0, or an element
  /// or attribute that does not have the shape Interface Builder writes.
  public static var invalidDocument: Self { Self("invalid document") }
  /// An element or attribute the compiler does not know how Apple compiles; refused rather
  /// than guessed.
  public static var unsupported: Self { Self("unsupported") }
  /// The document is larger, deeper or has more elements than the reader's limits allow.
  public static var limitExceeded: Self { Self("limit exceeded") }
  /// A `.strings` file for `--import-strings-file` cannot be used.
  public static var invalidStrings: Self { Self("invalid strings") }
  /// The document or an output could not be read or written.
  public static var fileSystem: Self { Self("file system") }
}
