public import FoundationEssentials
internal import CRenameAt2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFile {
  /// Writes `data` to the file at `path` as it stands (`-[NSData writeToFile:atomically:NO]`):
  /// created or truncated, then written, never flushed (on Linux the kernel is told to start
  /// writing it out, `sync_file_range`, and not waited for). The file gets `permissions` exactly when
  /// they are given; else a new file gets `0o644` less the umask and a truncated one keeps its own.
  ///
  /// This is the write for the files of a folder that ``AtomicFolder/replace(_:fill:)`` is
  /// building: the folder is flushed as a whole (every file once, ``AtomicFolder/flushTree(_:reportedAs:)``)
  /// before it takes its place, so no file needs a temporary name and a flush of its own.
  /// Anywhere else a crash can leave the file empty or half written.
  ///
  /// - Throws: ``AtomicFileError`` naming `path` and the step that failed.
  public static func writeUnflushed(_ data: Data, toFile path: String, permissions: UInt32? = nil) throws(AtomicFileError) {
    let descriptor = SystemCalls.openRetrying(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(permissions ?? 0o644))
    guard descriptor >= 0 else { throw .system(errno, "cannot create the file", path: path) }
    var isOpen = true
    defer { if isOpen { close(descriptor) } }
    if let permissions, fchmod(descriptor, mode_t(permissions)) != 0 {
      throw .system(errno, "cannot set the file's permissions", path: path)
    }
    var failure: AtomicFileError?
    data.withUnsafeBytes { bytes in
      do throws(AtomicFileError) { try writeAll(bytes, to: descriptor, path: path, what: "the file") } catch { failure = error }
    }
    if let failure { throw failure }
    // The bytes start on their way to the disk now, so the folder's flush finds them written
    // (a hint: a failure here is the flush's to report).
    _ = stasis_start_writeback(descriptor)
    isOpen = false
    // close(2) must not be retried on Linux: the descriptor is released even when it fails.
    guard close(descriptor) == 0 || errno == EINTR else { throw .system(errno, "cannot close the file", path: path) }
  }
}
