import AtomicFiles
internal import PropertyLists
import Sandbox
public import StasisErrors

/// The one error type of the `Defaults` module.
///
/// `NSUserDefaults` reports almost nothing: it raises `NSInvalidArgumentException` for values that
/// are not property lists and `synchronize` answers `NO`. Stasis throws this instead, from the
/// throwing variants (``UserDefaults/setChecked(_:forKey:)``, ``UserDefaults/synchronizeOrThrow()``,
/// ``UserDefaults/init(bundleIdentifier:configuration:)``). Match it by code:
///
/// ```swift
/// catch DefaultsError.Code.notAPropertyList { … }
/// ```
///
/// `description` names the domain and the key but never a stored value (preferences can be private).
public struct DefaultsError: StasisError, Equatable {
  /// What went wrong.
  public struct Code: StasisErrorCode {
    public typealias Error = DefaultsError
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static func ~= (code: Code, error: any Swift.Error) -> Bool { ErrorChain.contains(code, as: Error.self, in: error) }

    /// The value is not a property-list type (`NSInvalidArgumentException`, "Attempt to insert
    /// non-property list object" on Apple).
    public static let notAPropertyList = Code(rawValue: "notAPropertyList")
    /// The domain or suite name cannot be used (empty, or `NSGlobalDomain` / the app's own
    /// identifier as a suite).
    public static let invalidDomainName = Code(rawValue: "invalidDomainName")
    /// The app container could not be opened or created.
    public static let container = Code(rawValue: "container")
    /// Reading, locking or writing the preferences file failed; the file on disk is unchanged and
    /// the unsaved changes are kept for the next attempt.
    public static let fileSystem = Code(rawValue: "fileSystem")
    /// The preferences file exists but is not a property list holding a dictionary.
    public static let unreadableFile = Code(rawValue: "unreadableFile")
  }

  public let code: Code
  /// The domain involved, when there is one.
  public let domain: String?
  /// What was being done and what failed.
  public let detail: String
  /// The error behind this one: the `AtomicFileError` of a failed save, the
  /// `SandboxError` of a container that cannot be opened, the
  /// `PropertyListError` of an unreadable preferences file.
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(_ code: Code, domain: String?, detail: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.domain = domain
    self.detail = detail
    self.cause = ErrorCause(underlying)
  }

  public var description: String {
    if let domain { return "user defaults (\(domain)): \(detail)" }
    return "user defaults: \(detail)"
  }

  init(_ error: AtomicFileError, domain: String?, doing: String) {
    self.init(.fileSystem, domain: domain, detail: "\(doing): \(error.description)", underlying: error)
  }

  init(_ error: SandboxError, domain: String?) {
    self.init(.container, domain: domain, detail: error.description, underlying: error)
  }

  init(_ error: PropertyListError, domain: String?, path: String) {
    self.init(.unreadableFile, domain: domain, detail: "\(path) is not a readable property list: \(error.description)", underlying: error)
  }
}
