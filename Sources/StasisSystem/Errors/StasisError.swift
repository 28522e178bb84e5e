/// The shape every Stasis module's error has: one public struct per module, a code to match,
/// a message for the person holding the file, and the error that caused it.
///
/// Each module declares exactly one conforming type (`PropertyListError`, `KeyedArchiveError`,
/// `AtomicFileError`, …). Its `Code` is an ``ErrorCode`` with static constants, so that a new code does not
/// break a caller's `switch`, and each code matches in a `catch` pattern:
///
/// ```swift
/// do {
///   try KeyedArchiver.archive(store, toFile: path)
/// } catch AtomicFileError.Code.noSpace {
///   // the disk is full: the archive's old contents are still on disk
/// }
/// ```
///
/// A code matches the error itself **and every error in its chain of causes**
/// (``underlying``): a full disk during `KeyedArchiver.archive(_:toFile:)` is thrown as a
/// `KeyedArchiveError` whose cause is a `PropertyListError` whose cause is the `AtomicFileError`,
/// and `catch AtomicFileError.Code.noSpace` catches it. Use ``StasisError/cause(_:)`` to reach a
/// cause by type.
///
/// `description` names the file (when there is one), the position (byte offset, line, object
/// index or key path) and what was found and what was expected. It never includes the user's
/// values, which may be private (preferences, archived documents), and its wording may change
/// between releases: match on ``code``, not on text.
public protocol StasisError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure this is: `ErrorCode<Self>` in every module.
  associatedtype Code: Hashable & Sendable

  /// What kind of failure this is.
  var code: Code { get }

  /// The error that caused this one, if any: the file-system error behind a failed save, the
  /// property-list error behind an unreadable archive.
  var underlying: (any Error & Sendable)? { get }
}

extension StasisError {
  /// This error followed by its causes, outermost first.
  public var chain: [any Error] { ErrorChain.errors(from: self) }

  /// The first error of type `type` in ``chain`` (this error included), if any.
  ///
  /// ```swift
  /// if let disk = error.cause(AtomicFileError.self) { print(disk.path) }
  /// ```
  public func cause<Cause: Error>(_ type: Cause.Type) -> Cause? {
    for error in chain { if let match = error as? Cause { return match } }
    return nil
  }
}

/// Walking an error's chain of causes (``StasisError/underlying``).
public enum ErrorChain {
  /// The longest chain followed; a chain that loops (an error that is its own cause through a
  /// reference type) stops here instead of hanging.
  public static let maximumLength = 32

  /// `error` followed by its causes, outermost first.
  public static func errors(from error: any Error) -> [any Error] {
    var result: [any Error] = [error]
    var current: any Error = error
    while result.count < maximumLength, let shaped = current as? any StasisError, let next = shaped.underlying {
      result.append(next)
      current = next
    }
    return result
  }

  /// The text of `underlying` for an error's description: `" (…)"`, or empty.
  public static func suffix(for underlying: (any Error & Sendable)?) -> String {
    guard let underlying else { return "" }
    return " (" + String(describing: underlying) + ")"
  }
}

/// The code of a Stasis error: a string-backed constant, so that a module can add a code without
/// breaking a caller's `switch`. Every module's error uses it as its `Code`
/// (`typealias Code = ErrorCode<PropertyListError>`), so the codes of two modules are different
/// types and never compare equal.
///
/// A module declares its codes, and the `~=` that lets `catch SomeError.Code.someCode` match the
/// error **or any error in its chain of causes**, in an extension of its own (the operator is
/// declared there so that importing the error's module is enough to use it):
///
/// ```swift
/// extension ErrorCode<PropertyListError> {
///   public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }
///   /// The bytes end before the structure they describe is complete.
///   public static var truncated: Self { Self("truncated") }
/// }
/// ```
public struct ErrorCode<Owner: StasisError>: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The code's name, e.g. `truncated`; stable across releases.
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  /// The code named `rawValue`.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// The code's name, e.g. `truncated`.
  public var description: String { rawValue }

  /// Whether `error`, or any error in its chain of causes, is an `Owner` with this code.
  public func matches(_ error: any Error) -> Bool {
    for link in ErrorChain.errors(from: error) {
      if let shaped = link as? Owner, let code = shaped.code as? ErrorCode<Owner>, code == self { return true }
    }
    return false
  }
}

/// An error's cause, kept so that the error stays `Hashable`: two causes are equal when they read
/// the same (their `description`), which is what a caller comparing errors can see.
public struct ErrorCause: Hashable, Sendable, CustomStringConvertible {
  /// The error that caused the one holding this.
  public let error: any Error & Sendable

  public init(_ error: any Error & Sendable) { self.error = error }

  /// `error` wrapped, or `nil`.
  public init?(_ error: (any Error & Sendable)?) {
    guard let error else { return nil }
    self.error = error
  }

  public var description: String { String(describing: error) }
  public static func == (left: ErrorCause, right: ErrorCause) -> Bool { left.description == right.description }
  public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
