import StasisSystem
import Glibc

/// Creating and checking the folders of containers with POSIX calls.
enum Folders {
  /// New folders are private to the user, as the XDG Base Directory specification asks.
  static let mode: mode_t = 0o700

  /// Creates `path` and any missing parents (`mkdir -p`).
  static func create(_ path: String) throws(SandboxError) {
    var status = stat()
    if stat(path, &status) == 0 {
      guard (status.st_mode & S_IFMT) == S_IFDIR else { throw failure(path, "exists and is not a folder") }
      return
    }
    let (parent, _) = SystemCalls.split(path)
    if parent != path { try create(parent) }
    if mkdir(path, mode) != 0 && errno != EEXIST { throw failure(path, "cannot create the folder", errno) }
  }

  /// Creates the folder `path` inside an existing one; an existing entry must be a real folder,
  /// not a symbolic link, so a container's standard folders cannot be redirected elsewhere.
  static func createChild(_ path: String) throws(SandboxError) {
    if mkdir(path, mode) == 0 { return }
    let number = errno
    guard number == EEXIST else { throw failure(path, "cannot create the folder", number) }
    var status = stat()
    guard lstat(path, &status) == 0 else { throw failure(path, "cannot inspect the folder", errno) }
    guard (status.st_mode & S_IFMT) == S_IFDIR else {
      throw failure(path, (status.st_mode & S_IFMT) == S_IFLNK ? "is a symbolic link, not a folder" : "exists and is not a folder")
    }
  }

  /// Removes everything inside the folder `path` (not the folder itself), never following
  /// symbolic links: a link is removed, not what it points to.
  static func removeContents(of path: String) throws(SandboxError) {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      if errno == ENOENT { return }
      throw failure(path, "cannot inspect the folder", errno)
    }
    guard (status.st_mode & S_IFMT) == S_IFDIR else { throw failure(path, "is not a folder (a symbolic link?); not purged") }
    guard let directory = opendir(path) else { throw failure(path, "cannot list the folder", errno) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
      if name != "." && name != ".." { names.append(name) }
    }
    closedir(directory)
    for name in names { try removeItem(path + "/" + name) }
  }

  private static func removeItem(_ path: String) throws(SandboxError) {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      if errno == ENOENT { return }
      throw failure(path, "cannot inspect the item", errno)
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      try removeContents(of: path)
      guard rmdir(path) == 0 || errno == ENOENT else { throw failure(path, "cannot remove the folder", errno) }
    } else {
      guard unlink(path) == 0 || errno == ENOENT else { throw failure(path, "cannot remove the file", errno) }
    }
  }

  static func failure(_ path: String, _ detail: String, _ number: Int32? = nil) -> SandboxError {
    let reason = number.map { ": " + String(cString: strerror($0)) } ?? ""
    return SandboxError(.fileSystem, path: path, detail: detail + reason)
  }
}
