public import PropertyLists
public import StasisErrors

/// The one error type of the `Bundles` module.
///
/// Opening a bundle, reading its Info.plist or a string table, and formatting a localized string
/// all throw this error. Match it by code:
///
/// ```swift
/// do { _ = try StringFormat.format("%d files", [.string("x")]) }
/// catch BundleError.Code.formatMismatch { … }
/// ```
///
/// Apple's `NSBundle` / `CFBundle` report most of these conditions by returning `nil` or logging;
/// Stasis throws so that the caller learns which file or specifier was at fault. The
/// `description` names the file or the specifier and what was expected; its wording may change.
public struct BundleError: StasisError, Hashable {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The path does not name a directory (`Bundle(path:)` returns `nil` on Apple).
    public static let notABundle = Code("not a bundle")
    /// The Info.plist exists but is not a property list whose root is a dictionary.
    public static let invalidInfoPlist = Code("invalid Info.plist")
    /// A `.strings` or `.stringsdict` table is not a property list whose root is a dictionary, or
    /// a `.stringsdict` rule dictionary is malformed (CF logs and ignores the table).
    public static let invalidTable = Code("invalid string table")
    /// A format specifier and its argument disagree: no argument at that position, or an
    /// argument of the wrong type (Foundation's `String(format:)` crashes or prints garbage).
    public static let formatMismatch = Code("format mismatch")
    /// A format string that cannot be parsed (a bad specifier, mixed positional and sequential
    /// arguments, an unterminated `%#@variable@`).
    public static let invalidFormat = Code("invalid format")
    /// A directory could not be listed or a file could not be read; `detail` carries the reason.
    public static let fileSystem = Code("file system")
    /// The bundle folder holds more entries or deeper nesting than ``ResourceScanLimits`` allow.
    public static let limitExceeded = Code("limit exceeded")

    /// Lets `catch BundleError.Code.formatMismatch` match a thrown error, or an error of another
    /// module that it caused.
    public static func ~= (code: Code, error: any Error) -> Bool {
      ErrorChain.contains(code, as: BundleError.self, in: error)
    }
  }

  public var code: Code
  /// What was found and what was expected, in words.
  public var detail: String
  /// The file or folder involved, when there is one.
  public var path: String?
  /// The error behind this one: the ``PropertyLists/PropertyListError`` of
  /// ``Code/invalidInfoPlist`` or ``Code/invalidTable``, the file-system error of
  /// ``Code/fileSystem``.
  public var underlying: (any Error & Sendable)?

  public init(_ code: Code, detail: String, path: String? = nil, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.detail = detail
    self.path = path
    self.underlying = underlying
  }

  public var description: String {
    var text = ""
    if let path { text += path + ": " }
    text += detail
    text += ErrorChain.suffix(for: underlying)
    return text
  }

  public static func == (left: BundleError, right: BundleError) -> Bool {
    left.code == right.code && left.detail == right.detail && left.path == right.path
      && ErrorChain.sameDescription(left.underlying, right.underlying)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(detail)
    hasher.combine(path)
  }
}
