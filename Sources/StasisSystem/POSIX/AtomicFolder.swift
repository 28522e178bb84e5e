internal import CRenameAt2
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Crash-safe replacement of a whole folder of files (a compiled storyboard, `OUT.storyboardc`):
/// the new folder is built beside the old one, then the two are swapped in one step.
///
/// 1. Debris of dead writers in the parent folder is swept (``AtomicFile/removeDebris(inFolder:)``).
/// 2. The new folder is filled under a temporary name `.<name>.stasis-tmp.<pid>.<hex>`, its
///    files written plainly (``AtomicFile/writeUnflushed(_:toFile:permissions:)``), then the
///    whole tree is flushed to disk once: every file, then every folder after what it holds
///    (``flushTree(_:reportedAs:)``). Nothing in it is visible under the destination's name
///    yet, so its files need no temporary names and no flushes of their own: a crash before the
///    exchange leaves the old folder and debris.
/// 3. It takes the destination's place: with `renameat2(…, RENAME_EXCHANGE)` where the kernel and
///    the file system have it (Linux 3.15+; ext4, xfs, btrfs, tmpfs), the old and the new folder
///    swap names in a single step; when there is no old folder, a plain `rename`.
/// 4. The parent folder is flushed (a failure is reported: the new folder is in place but its
///    name may not survive a power cut), then the old folder, now under the temporary name, is
///    removed; if that fails, it is debris the next run sweeps.
///
/// A process killed at any moment leaves the destination whole — the old folder or the new one,
/// never none — plus at most one temporary folder that the next run sweeps.
///
/// **The fallback**, where the exchange is refused (`ENOSYS`, `EINVAL`, `ENOTSUP`): the new
/// folder's files are renamed one by one over the old folder's, then the old folder's other
/// entries are removed. The destination then never goes missing and each file in it is always a
/// whole file, but a kill part-way leaves a mix of old and new files until the next run.
public enum AtomicFolder {
  /// Replaces the folder (or file, or nothing) at `path` with a folder that `fill` writes into
  /// the path it is given.
  ///
  /// - Throws: what `fill` throws (the temporary folder is removed and the old one untouched),
  ///   or an ``AtomicFileError`` naming `path` and the step that failed.
  public static func replace(_ path: String, fill: (String) throws -> Void) throws {
    let destination = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    let (parent, name) = SystemCalls.split(destination)
    guard !name.isEmpty, name != ".", name != ".." else {
      throw AtomicFileError(.notAFile, path: path, detail: "the path names no folder entry to replace")
    }
    AtomicFile.removeDebris(inFolder: parent)
    let temporary = try makeTemporaryFolder(in: parent, for: name, reportedAs: destination)
    do {
      try fill(temporary)
      try flushTree(temporary, reportedAs: destination)
    } catch {
      removeTree(temporary)
      throw error
    }
    var status = stat()
    if lstat(destination, &status) != 0 {
      guard rename(temporary, destination) == 0 else {
        let number = errno
        removeTree(temporary)
        throw AtomicFileError.system(number, "cannot rename the new folder into place", path: destination)
      }
    } else if stasis_exchange_paths(temporary, destination) == 0 {
      // The old folder now has the temporary name.
      try flush(parent, reportedAs: destination, what: "the folder holding it", after: { removeTree(temporary) })
      removeTree(temporary)
      return
    } else if [ENOSYS, EINVAL, ENOTSUP, EOPNOTSUPP].contains(errno), (status.st_mode & S_IFMT) == S_IFDIR {
      try mergeInPlace(from: temporary, into: destination)
    } else {
      let number = errno
      removeTree(temporary)
      throw AtomicFileError.system(number, "cannot exchange the new folder with the old one", path: destination)
    }
    try flush(parent, reportedAs: destination, what: "the folder holding it")
  }

  /// The fallback: `source`'s entries renamed one by one over `destination`'s, then the entries
  /// the new folder does not have removed, then `source` (now empty) removed.
  static func mergeInPlace(from source: String, into destination: String) throws(AtomicFileError) {
    let names = AtomicFile.entryNames(inFolder: source) ?? []
    for name in names {
      var status = stat()
      if lstat(destination + "/" + name, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
        removeTree(destination + "/" + name)
      }
      guard rename(source + "/" + name, destination + "/" + name) == 0 else {
        throw AtomicFileError.system(errno, "cannot rename the new \(name) into place", path: destination)
      }
    }
    for name in AtomicFile.entryNames(inFolder: destination) ?? [] where !names.contains(name) {
      removeTree(destination + "/" + name)
    }
    try flush(destination, reportedAs: destination, what: "the folder")
    rmdir(source)
  }

  /// A new empty folder `.<name>.stasis-tmp.<pid>.<hex>` in `parent`.
  static func makeTemporaryFolder(in parent: String, for name: String, reportedAs reported: String) throws(AtomicFileError) -> String {
    for _ in 0..<8 {
      let candidate = parent + "/" + TemporaryName.make(for: name, writer: getpid(), unique: UInt64.random(in: 0...UInt64.max))
      if mkdir(candidate, 0o755) == 0 { return candidate }
      if errno != EEXIST && errno != EINTR {
        throw AtomicFileError.system(errno, "cannot create a temporary folder in \(parent)", path: reported)
      }
    }
    throw AtomicFileError.system(EEXIST, "cannot create a temporary folder in \(parent)", path: reported)
  }

  /// Flushes the tree at `root` to disk: each file (`fsync`), each folder after its entries; a
  /// symbolic link is an entry of its folder, flushed with it. A failure names `reported` and
  /// the entry, relative to `root`.
  public static func flushTree(_ root: String, reportedAs reported: String) throws(AtomicFileError) {
    try flushEntry(root, relative: "", reportedAs: reported)
  }

  /// Flushes the entry `relative` of the tree (`""`: its root) at `path`, after its own entries.
  static func flushEntry(_ path: String, relative: String, reportedAs reported: String) throws(AtomicFileError) {
    let name = relative.isEmpty ? "the new folder" : relative
    // O_NONBLOCK: a FIFO is not waited for; fsync then refuses it (EINVAL), as it refuses a folder
    // on some file systems, and neither is a failure.
    let descriptor = SystemCalls.openRetrying(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ELOOP { return }
      throw .system(errno, "cannot open \(name) to flush it to disk", path: reported)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .system(errno, "cannot read the status of \(name)", path: reported) }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      guard let entries = AtomicFile.entryNames(inFolder: path) else { throw .system(errno, "cannot list \(name)", path: reported) }
      for entry in entries {
        try flushEntry(path + "/" + entry, relative: relative.isEmpty ? entry : relative + "/" + entry, reportedAs: reported)
      }
    }
    guard SystemCalls.fsyncRetrying(descriptor) == 0 || errno == EINVAL else {
      throw .system(errno, "cannot flush \(name) to disk", path: reported)
    }
  }

  /// Flushes the folder `folder` to disk (`fsync`); a file system that cannot flush folders
  /// (`EINVAL`) is not a failure. `after` runs before a failure is thrown.
  static func flush(_ folder: String, reportedAs reported: String, what: String, after: () -> Void = {}) throws(AtomicFileError) {
    let descriptor = SystemCalls.openRetrying(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let number = errno
      after()
      throw AtomicFileError.system(number, "cannot open \(what) to flush it to disk", path: reported)
    }
    let result = SystemCalls.fsyncRetrying(descriptor)
    let number = errno
    close(descriptor)
    if result != 0 && number != EINVAL {
      after()
      throw AtomicFileError.system(number, "cannot flush \(what) to disk", path: reported)
    }
  }

  /// Removes the file or folder tree at `path` (no links followed), quietly; answers whether
  /// nothing is left.
  @discardableResult
  public static func removeTree(_ path: String) -> Bool {
    var status = stat()
    guard lstat(path, &status) == 0 else { return errno == ENOENT }
    guard (status.st_mode & S_IFMT) == S_IFDIR else { return unlink(path) == 0 }
    for name in AtomicFile.entryNames(inFolder: path) ?? [] { removeTree(path + "/" + name) }
    return rmdir(path) == 0
  }
}
