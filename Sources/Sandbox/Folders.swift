import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Creating, checking and emptying the folders of containers through the environment's
/// `FileSystem`.
enum Folders {
  /// New folders are private to the user, as the XDG Base Directory specification asks.
  static let mode: UInt32 = 0o700

  /// Creates `path` and any missing parents (`mkdir -p`).
  static func create(_ path: String, in fileSystem: any FileSystem) throws(SandboxError) {
    if let found = fileSystem.status(of: path) {
      guard found.kind == .folder else { throw failure(path, "exists and is not a folder") }
      return
    }
    let (parent, _) = SystemCalls.split(path)
    if parent != path { try create(parent, in: fileSystem) }
    do {
      try fileSystem.makeFolder(path, permissions: mode)
    } catch where error.code == .alreadyExists {
    } catch {
      throw failure(path, "cannot create the folder", error)
    }
  }

  /// Creates the folder `path` inside an existing one; an existing entry must be a real folder,
  /// not a symbolic link, so a container's standard folders cannot be redirected elsewhere.
  static func createChild(_ path: String, in fileSystem: any FileSystem) throws(SandboxError) {
    do {
      try fileSystem.makeFolder(path, permissions: mode)
      return
    } catch where error.code == .alreadyExists {
    } catch {
      throw failure(path, "cannot create the folder", error)
    }
    let found: FileStatus
    do {
      found = try fileSystem.status(of: path, followingLinks: false)
    } catch {
      throw failure(path, "cannot inspect the folder", error)
    }
    guard found.kind == .folder else {
      throw failure(path, found.kind == .symbolicLink ? "is a symbolic link, not a folder" : "exists and is not a folder")
    }
  }

  /// Removes everything inside the folder `path` (not the folder itself), never following
  /// symbolic links: a link is removed, not what it points to.
  static func removeContents(of path: String, in fileSystem: any FileSystem) throws(SandboxError) {
    guard let found = try entry(at: path, in: fileSystem, what: "the folder") else { return }
    guard found.kind == .folder else { throw failure(path, "is not a folder (a symbolic link?); not purged") }
    let names: [String]
    do {
      names = try fileSystem.entryNames(inFolder: path)
    } catch {
      throw failure(path, "cannot list the folder", error)
    }
    for name in names { try removeItem(path + "/" + name, in: fileSystem) }
  }

  private static func removeItem(_ path: String, in fileSystem: any FileSystem) throws(SandboxError) {
    guard let found = try entry(at: path, in: fileSystem, what: "the item") else { return }
    if found.kind == .folder { try removeContents(of: path, in: fileSystem) }
    do {
      try fileSystem.removeItem(path)
    } catch where error.code == .notFound {
    } catch {
      throw failure(path, found.kind == .folder ? "cannot remove the folder" : "cannot remove the file", error)
    }
  }

  /// What is at `path` (links not followed), nil when nothing is there; `what` names it in the
  /// error of a failed look.
  private static func entry(at path: String, in fileSystem: any FileSystem, what: String) throws(SandboxError) -> FileStatus? {
    do {
      return try fileSystem.status(of: path, followingLinks: false)
    } catch where error.code == .notFound {
      return nil
    } catch {
      throw failure(path, "cannot inspect \(what)", error)
    }
  }

  /// The error for `path`: `detail`, then the system's words for the failed call.
  static func failure(_ path: String, _ detail: String, _ error: AtomicFileError? = nil) -> SandboxError {
    let reason = error.map { ": " + ($0.systemError.map { String(cString: strerror($0)) } ?? $0.detail) } ?? ""
    return SandboxError(.fileSystem, path: path, detail: detail + reason)
  }
}
