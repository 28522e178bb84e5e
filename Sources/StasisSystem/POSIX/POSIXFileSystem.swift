public import FoundationEssentials
internal import CRenameAt2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real file system: the process's own system calls, the crash-safe writes of ``AtomicFile``
/// and ``AtomicFolder``, ``FileLock`` and the sweeping of dead writers' temporary files. What
/// ``HostEnvironment/current`` carries.
public struct POSIXFileSystem: FileSystem {
  public init() {}

  public func read(contentsOfFile path: String, limit: Int) throws(AtomicFileError) -> Data {
    try AtomicFile.read(contentsOfFile: path, limit: limit)
  }

  public func write(_ data: Data, toFile path: String, permissions: UInt32?) throws(AtomicFileError) {
    try AtomicFile.write(data, toFile: path, permissions: permissions)
  }

  public func writeUnflushed(_ data: Data, toFile path: String, permissions: UInt32?) throws(AtomicFileError) {
    try AtomicFile.writeUnflushed(data, toFile: path, permissions: permissions)
  }

  public func replaceFolder(_ path: String, fill: (String) throws -> Void) throws {
    try AtomicFolder.replace(path, fill: fill)
  }

  public func entries(inFolder path: String) throws(AtomicFileError) -> [FolderEntry] {
    guard let stream = opendir(path) else { throw .system(errno, "cannot list the folder", path: path) }
    defer { closedir(stream) }
    let prefix = path.hasSuffix("/") ? path : path + "/"
    var found: [FolderEntry] = []
    while let entry = readdir(stream) {
      let (name, type) = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: CChar.self, capacity: 256) { (String(cString: $0), Int32(entry.pointee.d_type)) }
      }
      if name == "." || name == ".." { continue }
      let kind: FileKind
      switch type {
      case Int32(DT_REG): kind = .file
      case Int32(DT_DIR): kind = .folder
      case Int32(DT_CHR), Int32(DT_FIFO): kind = .device
      case Int32(DT_LNK), Int32(DT_UNKNOWN): kind = (try? status(of: prefix + name, followingLinks: true))?.kind ?? .symbolicLink
      default: kind = .other
      }
      found.append(FolderEntry(name: name, kind: kind))
    }
    return found
  }

  public func status(of path: String, followingLinks: Bool) throws(AtomicFileError) -> FileStatus {
    var found = stat()
    guard (followingLinks ? stat(path, &found) : lstat(path, &found)) == 0 else {
      throw .system(errno, "cannot read the status", path: path)
    }
    let kind: FileKind =
      switch found.st_mode & S_IFMT {
      case S_IFREG: .file
      case S_IFDIR: .folder
      case S_IFLNK: .symbolicLink
      case S_IFCHR, S_IFIFO: .device
      default: .other
      }
    return FileStatus(
      kind: kind, size: Int64(found.st_size), permissions: UInt32(found.st_mode & 0o7777),
      modificationSeconds: Int64(found.st_mtim.tv_sec), modificationNanoseconds: Int64(found.st_mtim.tv_nsec),
      device: UInt64(found.st_dev), fileNumber: UInt64(found.st_ino))
  }

  public func resolvedPath(_ path: String) throws(AtomicFileError) -> String {
    guard let resolved = realpath(path, nil) else { throw .system(errno, "cannot resolve the path", path: path) }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  public func makeFolder(_ path: String, permissions: UInt32) throws(AtomicFileError) {
    guard mkdir(path, mode_t(permissions)) == 0 else { throw .system(errno, "cannot make the folder", path: path) }
  }

  public func removeItem(_ path: String) throws(AtomicFileError) {
    if unlink(path) == 0 { return }
    guard errno == EISDIR || errno == EPERM, rmdir(path) == 0 else {
      throw .system(errno == ENOTEMPTY ? ENOTEMPTY : errno, "cannot remove it", path: path)
    }
  }

  public func moveItem(_ source: String, to destination: String) throws(AtomicFileError) {
    guard rename(source, destination) == 0 else { throw .system(errno, "cannot rename it to \(destination)", path: source) }
  }

  public func exchangeItems(_ first: String, _ second: String) throws(AtomicFileError) {
    guard stasis_exchange_paths(first, second) == 0 else {
      // EINVAL: the file system has no RENAME_EXCHANGE.
      let number = errno == EINVAL ? ENOTSUP : errno
      throw .system(number, "cannot exchange it with \(second)", path: first)
    }
  }

  public func makeLink(to existing: String, at newPath: String) throws(AtomicFileError) {
    guard link(existing, newPath) == 0 else { throw .system(errno, "cannot make a link to \(existing)", path: newPath) }
  }

  public func synchronize(_ path: String) throws(AtomicFileError) {
    try AtomicFolder.flush(path, reportedAs: path, what: "it")
  }

  public func lock(_ path: String) throws(AtomicFileError) -> any FileSystemLock {
    try FileLock(path: path)
  }

  @discardableResult
  public func removeDebris(inFolder folder: String, of name: String?) -> Int {
    if let name { return AtomicFile.removeDebris(of: name, inFolder: folder) }
    return AtomicFile.removeDebris(inFolder: folder)
  }
}

extension FileLock: FileSystemLock {}
