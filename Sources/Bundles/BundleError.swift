import PropertyLists
public import StasisSystem

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
///
/// `path` is the file or folder involved; `underlying` the `PropertyListError` of
/// `Code.invalidInfoPlist` or `Code.invalidTable`, the file-system error of `Code.fileSystem`.
public typealias BundleError = ModuleError<BundleErrorDomain>

/// The domain of ``BundleError`` (see `ModuleErrorDomain`).
public enum BundleErrorDomain: ModuleErrorDomain {}

extension ErrorCode<BundleError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch BundleError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The path does not name a directory (`Bundle(path:)` returns `nil` on Apple).
  public static var notABundle: Self { Self("not a bundle") }
  /// The Info.plist exists but is not a property list whose root is a dictionary.
  public static var invalidInfoPlist: Self { Self("invalid Info.plist") }
  /// A `.strings` or `.stringsdict` table is not a property list whose root is a dictionary, or
  /// a `.stringsdict` rule dictionary is malformed (CF logs and ignores the table).
  public static var invalidTable: Self { Self("invalid string table") }
  /// A format specifier and its argument disagree: no argument at that position, or an
  /// argument of the wrong type (Foundation's `String(format:)` crashes or prints garbage).
  public static var formatMismatch: Self { Self("format mismatch") }
  /// A format string that cannot be parsed (a bad specifier, mixed positional and sequential
  /// arguments, an unterminated `%#@variable@`).
  public static var invalidFormat: Self { Self("invalid format") }
  /// A directory could not be listed or a file could not be read; `detail` carries the reason.
  public static var fileSystem: Self { Self("file system") }
  /// The bundle folder holds more entries or deeper nesting than ``ResourceScanLimits`` allow.
  public static var limitExceeded: Self { Self("limit exceeded") }
}
