/// The error struct of the modules whose failures are a code, what was found and expected
/// (`detail`), the file involved when there is one (`path`) and a cause: each such module names
/// its one error type as a `ModuleError` of a domain of its own (`typealias BundleError =
/// ModuleError<BundleErrorDomain>`), so that its codes are a type of their own and never compare
/// equal to another module's — as `NSError`'s domain keeps apart codes of the same number.
///
/// The `description` is `path: detail (cause)`; without a path, `detail (cause)`.
public struct ModuleError<Domain: ModuleErrorDomain>: StasisError, Hashable {
  /// What kind of failure this is.
  public typealias Code = ErrorCode<ModuleError>

  public var code: Code
  /// What was found and what was expected, in words.
  public var detail: String
  /// The file or folder involved, when there is one.
  public var path: String?
  /// The error behind this one.
  public var underlying: (any Error & Sendable)? { cause?.error }
  let cause: ErrorCause?

  public init(_ code: Code, detail: String, path: String? = nil, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.detail = detail
    self.path = path
    self.cause = ErrorCause(underlying)
  }

  public var description: String {
    if Domain.namesPathOnce, let path, let underlying {
      let cause = String(describing: underlying)
      if cause.hasPrefix(path + ": ") { return path + ": " + detail + ": " + cause.dropFirst(path.count + 2) }
    }
    return (path.map { $0 + ": " } ?? "") + detail + ErrorChain.suffix(for: underlying)
  }
}

/// The domain of a module's ``ModuleError``: an empty type per module that keeps the module's
/// codes apart from every other module's (the role of `NSError`'s `domain`).
public protocol ModuleErrorDomain: Sendable {
  /// Whether a cause whose own description begins with the same path is written without it:
  /// `…/data.archive: cannot write the snapshot: cannot create a temporary file in …` instead of
  /// naming the file twice. `false` unless the domain says otherwise.
  static var namesPathOnce: Bool { get }
}

extension ModuleErrorDomain {
  public static var namesPathOnce: Bool { false }
}
