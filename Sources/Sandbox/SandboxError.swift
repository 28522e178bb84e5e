/// The one error type of the `Sandbox` module: a container could not be opened, or a path was
/// refused because it would leave the container.
///
/// Match it by ``code`` (`catch let error where error.code == .escapesContainer`). The
/// `description` is `<path>: <detail>`.
public struct SandboxError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What kind of failure this is.
  public enum Code: Equatable, Sendable {
    /// The path leads out of the container: `..` above its home, an absolute path, or a symbolic
    /// link whose target is outside (or missing, so it cannot be checked).
    case escapesContainer
    /// The path cannot name a file at all: empty, a NUL byte, `~user`, a component or the whole
    /// path too long.
    case invalidPath
    /// The bundle identifier or app name is not a safe folder name (reverse-DNS characters only).
    case invalidIdentifier
    /// A folder of the container could not be created, inspected or purged.
    case fileSystem
  }

  public let code: Code
  /// The path (or identifier) the error is about.
  public let path: String
  /// What was wrong or what failed, in words.
  public let detail: String

  public init(_ code: Code, path: String, detail: String) {
    self.code = code
    self.path = path
    self.detail = detail
  }

  public var description: String { "\(path): \(detail)" }
}
