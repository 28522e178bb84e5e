public import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one door through which Stasis touches files: every module that reads or writes a file,
/// lists a folder or takes a lock goes through a `FileSystem` it is given (through
/// ``HostEnvironment/fileSystem``), never through the system calls themselves.
///
/// ``POSIXFileSystem`` is the real one (the process's `open`, `rename`, `fsync`, `flock`, …, and
/// the crash-safe writes of ``AtomicFile`` and ``AtomicFolder``); a test passes another, such as
/// `StasisSystemTesting.InMemoryFileSystem`, which keeps files in memory and fails or "crashes" on
/// demand at any call.
///
/// Every failure is an ``AtomicFileError`` naming the path the caller gave, the step that failed
/// and, for a system call, its `errno` (``AtomicFileError/systemError``).
public protocol FileSystem: Sendable {
  /// The whole file at `path`, at most `limit` bytes (`-[NSData initWithContentsOfFile:]`).
  ///
  /// - Throws: `.notFound` for a missing file, `.notAFile` for a folder, `.tooLarge` beyond `limit`.
  func read(contentsOfFile path: String, limit: Int) throws(AtomicFileError) -> Data

  /// Replaces the file at `path` with `data` atomically (`-[NSData writeToFile:atomically:YES]`):
  /// a reader, or the next start after a crash, finds the whole old file or the whole new one.
  /// A replaced file keeps its permission bits; a new file gets `permissions` (nil: `0o644` less
  /// the umask).
  func write(_ data: Data, toFile path: String, permissions: UInt32?) throws(AtomicFileError)

  /// Writes `data` to the file at `path` as it stands, without a temporary file and without a
  /// flush (`-[NSData writeToFile:atomically:NO]`): the file is created (with `permissions`, nil:
  /// `0o644` less the umask) or truncated, then written. Meant for the files of a folder that
  /// ``replaceFolder(_:fill:)`` is building, which flushes them all once before the folder takes
  /// its place; anywhere else a crash can leave the file empty or half written.
  func writeUnflushed(_ data: Data, toFile path: String, permissions: UInt32?) throws(AtomicFileError)

  /// Replaces the folder (or file, or nothing) at `path` with a folder that `fill` writes into
  /// the path it is given, in one step: the destination is the whole old folder or the whole new
  /// one at every moment (see ``AtomicFolder``). Every file and folder `fill` leaves in the new
  /// folder is flushed to disk before it takes the destination's place, so `fill` writes its
  /// files with ``writeUnflushed(_:toFile:permissions:)``.
  ///
  /// - Throws: what `fill` throws, or an ``AtomicFileError`` naming `path`.
  func replaceFolder(_ path: String, fill: (_ temporaryFolder: String) throws -> Void) throws

  /// The entries of the folder `path` (not `.` and `..`), in the order the file system lists
  /// them, each with its kind, links followed (`-[NSFileManager contentsOfDirectoryAtPath:error:]`,
  /// `readdir` and its `d_type`).
  func entries(inFolder path: String) throws(AtomicFileError) -> [FolderEntry]

  /// What is at `path` (`stat`, or `lstat` when `followingLinks` is false).
  ///
  /// - Throws: `.notFound` when nothing is there.
  func status(of path: String, followingLinks: Bool) throws(AtomicFileError) -> FileStatus

  /// The absolute path of `path` with every symbolic link, `.` and `..` resolved (`realpath(3)`,
  /// `-[NSString stringByResolvingSymlinksInPath]` for a path that exists).
  ///
  /// - Throws: `.notFound` when a component does not exist, a link leads to nothing or a file is
  ///   used as a folder; `.ioFailure` (`ELOOP`) for a loop of links.
  func resolvedPath(_ path: String) throws(AtomicFileError) -> String

  /// Makes the folder `path` with `permissions` (`mkdir`); its parent must exist.
  ///
  /// - Throws: `.alreadyExists` when anything is at `path`, `.notFound` without the parent.
  func makeFolder(_ path: String, permissions: UInt32) throws(AtomicFileError)

  /// Removes the file, symbolic link or empty folder at `path` (`unlink`, `rmdir`).
  ///
  /// - Throws: `.notFound` when nothing is there.
  func removeItem(_ path: String) throws(AtomicFileError)

  /// Renames `source` to `destination`, replacing a file there (`rename`).
  func moveItem(_ source: String, to destination: String) throws(AtomicFileError)

  /// Swaps the names of two existing entries in one step (`renameat2` with `RENAME_EXCHANGE`).
  ///
  /// - Throws: `.notSupported` where the file system cannot, a caller then falls back.
  func exchangeItems(_ first: String, _ second: String) throws(AtomicFileError)

  /// Makes `newPath` a second name (hard link) of the file at `existing` (`link`).
  func makeLink(to existing: String, at newPath: String) throws(AtomicFileError)

  /// Flushes the file or folder at `path` to disk (`fsync`); a file system that cannot flush
  /// folders is no failure.
  func synchronize(_ path: String) throws(AtomicFileError)

  /// The advisory lock on the lock file at `path`, created if missing (see ``FileLock``).
  func lock(_ path: String) throws(AtomicFileError) -> any FileSystemLock

  /// Removes the temporary files and folders that writers which died mid-write left in `folder`
  /// (`.<name>.stasis-tmp.<pid>.<hex>`), only those of `name` when it is given; answers how many
  /// went (see ``AtomicFile/removeDebris(inFolder:)``).
  @discardableResult
  func removeDebris(inFolder folder: String, of name: String?) -> Int
}

/// An advisory lock shared by the processes and threads that take it (``FileLock`` on the real
/// file system).
public protocol FileSystemLock: AnyObject, Sendable {
  /// Runs `body` while holding the lock alone.
  func withExclusiveLock<R>(_ body: () throws -> R) throws -> R
  /// Runs `body` while holding the lock shared with other shared holders.
  func withSharedLock<R>(_ body: () throws -> R) throws -> R
}

/// One entry of a folder: its name and what it is (links followed; a dangling link is `.symbolicLink`).
public struct FolderEntry: Sendable, Hashable {
  public var name: String
  public var kind: FileKind

  public init(name: String, kind: FileKind) {
    self.name = name
    self.kind = kind
  }
}

/// What kind of entry a path names (`st_mode & S_IFMT`).
public enum FileKind: Sendable, Hashable {
  case file, folder, symbolicLink
  /// A character device or FIFO (written in place, never replaced).
  case device
  /// A socket or block device.
  case other
}

/// What `stat` says about an entry: its kind, size, permission bits, modification time and
/// identity (`NSFileType`, `NSFileSize`, `NSFilePosixPermissions`, `NSFileModificationDate`,
/// `NSFileSystemFileNumber`).
public struct FileStatus: Sendable, Hashable {
  public var kind: FileKind
  /// The size in bytes (`st_size`).
  public var size: Int64
  /// The permission bits (`st_mode & 0o7777`).
  public var permissions: UInt32
  /// The modification time: seconds and nanoseconds since 1970 (`st_mtim`).
  public var modificationSeconds: Int64
  public var modificationNanoseconds: Int64
  /// The device and the file number (`st_dev`, `st_ino`): a replaced file has a new number.
  public var device: UInt64
  public var fileNumber: UInt64

  public init(
    kind: FileKind, size: Int64, permissions: UInt32, modificationSeconds: Int64, modificationNanoseconds: Int64 = 0,
    device: UInt64 = 0, fileNumber: UInt64 = 0
  ) {
    self.kind = kind
    self.size = size
    self.permissions = permissions
    self.modificationSeconds = modificationSeconds
    self.modificationNanoseconds = modificationNanoseconds
    self.device = device
    self.fileNumber = fileNumber
  }
}

extension FileSystem {
  /// The names of the entries of the folder `path`, in the order the file system lists them.
  public func entryNames(inFolder path: String) throws(AtomicFileError) -> [String] {
    try entries(inFolder: path).map(\.name)
  }

  /// ``write(_:toFile:permissions:)`` with the default permissions.
  public func write(_ data: Data, toFile path: String) throws(AtomicFileError) {
    try write(data, toFile: path, permissions: nil)
  }

  /// ``status(of:followingLinks:)`` following links, or `nil` when nothing can be found there.
  public func status(of path: String) -> FileStatus? {
    try? status(of: path, followingLinks: true)
  }

  /// Whether anything is at `path` (links followed), like `access(path, F_OK)`.
  public func exists(_ path: String) -> Bool { status(of: path) != nil }

  /// Whether `path` is a folder (links followed).
  public func isFolder(_ path: String) -> Bool { status(of: path)?.kind == .folder }

  /// Whether `path` is a regular file (links followed).
  public func isFile(_ path: String) -> Bool { status(of: path)?.kind == .file }

  /// Makes the folder `path` and its missing parents (`mkdir -p`, `createDirectory(atPath:
  /// withIntermediateDirectories: true)`); an existing folder is no failure.
  ///
  /// - Throws: the failure of the first folder that could not be made or looked at, naming it;
  ///   `.notAFile` when a file is in the way.
  public func makeFolders(_ path: String, permissions: UInt32) throws(AtomicFileError) {
    var made = path.hasPrefix("/") ? "" : "."
    let components = path.split(separator: "/")
    for (index, component) in components.enumerated() {
      made += "/" + component
      do {
        try makeFolder(made, permissions: permissions)
      } catch where error.code == .alreadyExists {
        // A file on the way makes the next folder fail with ENOTDIR, naming it, as mkdir -p says.
        guard index == components.count - 1 else { continue }
        guard try status(of: made, followingLinks: true).kind == .folder else {
          throw .system(ENOTDIR, "exists and is not a folder", path: made)
        }
      }
    }
  }

  /// Removes the file or the folder tree at `path`, never following links; nothing there is no
  /// failure.
  public func removeTree(_ path: String) throws(AtomicFileError) {
    let found: FileStatus
    do {
      found = try status(of: path, followingLinks: false)
    } catch where error.code == .notFound {
      return
    }
    if found.kind == .folder {
      for name in try entryNames(inFolder: path) { try removeTree(path + "/" + name) }
    }
    do {
      try removeItem(path)
    } catch where error.code == .notFound {}
  }

  /// ``removeDebris(inFolder:of:)`` of every writer.
  @discardableResult
  public func removeDebris(inFolder folder: String) -> Int { removeDebris(inFolder: folder, of: nil) }
}
