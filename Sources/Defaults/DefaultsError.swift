public import StasisSystem
internal import PropertyLists
import Sandbox

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
  public typealias Code = ErrorCode<DefaultsError>

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

  /// The failure of a step (`doing`, such as "cannot lock") on `path`: the file-system error
  /// names its path and step itself, so `doing` and `path` are added only when it is about
  /// another path (a folder on the way), and the path is printed once.
  init(_ error: AtomicFileError, domain: String?, doing: String, path: String) {
    let detail = error.path == path ? error.description : "\(doing) \(path): \(error.description)"
    self.init(.fileSystem, domain: domain, detail: detail, underlying: error)
  }

  init(_ error: SandboxError, domain: String?) {
    self.init(.container, domain: domain, detail: error.description, underlying: error)
  }

  init(_ error: PropertyListError, domain: String?, path: String) {
    self.init(.unreadableFile, domain: domain, detail: "\(path) is not a readable property list: \(error.description)", underlying: error)
  }
}

extension ErrorCode<DefaultsError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch DefaultsError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The value is not a property-list type (`NSInvalidArgumentException`, "Attempt to insert
  /// non-property list object" on Apple).
  public static var notAPropertyList: Self { Self("notAPropertyList") }
  /// The domain or suite name cannot be used (empty, or `NSGlobalDomain` / the app's own
  /// identifier as a suite).
  public static var invalidDomainName: Self { Self("invalidDomainName") }
  /// The app container could not be opened or created.
  public static var container: Self { Self("container") }
  /// Reading, locking or writing the preferences file failed; the file on disk is unchanged and
  /// the unsaved changes are kept for the next attempt.
  public static var fileSystem: Self { Self("fileSystem") }
  /// The preferences file exists but is not a property list holding a dictionary.
  public static var unreadableFile: Self { Self("unreadableFile") }
}
