public import FoundationEssentials
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and crash-safe whole-file writes, the one atomic-write primitive every module
/// that writes user data goes through (`-[NSData writeToFile:atomically:YES]`,
/// `Data.write(to:options: .atomic)`).
///
/// A write goes to a temporary file `.<name>.stasis-tmp.<pid>.<random>` in the destination's
/// folder, which is written completely, flushed to disk (`fsync`), renamed over the destination
/// and followed by a flush of the folder (a failed flush is reported). A reader — or the next start after a crash — sees the
/// complete old file or the complete new one, never a mix, never an empty file. On any failure the
/// temporary file is removed and the old file is untouched; a writer killed mid-write leaves a
/// temporary file that the next write of the same file (or ``removeDebris(inFolder:)``) sweeps
/// once its process is gone.
public enum AtomicFile {
  /// Replaces the file at `path` with `bytes` atomically (`writeToFile:atomically:YES`).
  ///
  /// The replaced file's permission bits (and, when running as root, its owner) are kept; a new
  /// file gets `permissions` exactly, or `0o644` less the process's umask when `permissions` is nil.
  ///
  /// Only a regular file is replaced. A symbolic link is followed and its target replaced (the
  /// link stays); a character device or FIFO (`/dev/null`, `/dev/full`, a terminal, `mkfifo`) is
  /// written in place, and `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` write
  /// to the process's own descriptor, as the shell's `>` would — nothing that is not a regular
  /// file is ever replaced by one.
  ///
  /// - Throws: ``AtomicFileError`` naming `path` and the step that failed: `.noSpace` when the
  ///   disk (or `/dev/full`) is full, `.permissionDenied` for a read-only or forbidden folder,
  ///   `.notFound` when the folder is missing, `.notAFile` when `path` is a folder, a socket or a
  ///   block device, `.ioFailure` when a FIFO has no reader within 10 seconds.
  public static func write(_ bytes: UnsafeRawBufferPointer, toFile path: String, permissions: UInt32? = nil) throws(AtomicFileError) {
    switch try WriteDestination.resolve(path) {
    case .descriptor(let descriptor): try writeInPlace(bytes, toDescriptor: descriptor, path: path)
    case .node(let node): try writeInPlace(bytes, toNode: node, path: path)
    case .file(let file): try replace(file, with: bytes, permissions: permissions, reportedAs: path)
    }
  }

  /// Replaces the regular file (or nothing) at `path` atomically; errors name `reported` (the
  /// path the caller gave, which may be a link to `path`).
  static func replace(
    _ path: String, with bytes: UnsafeRawBufferPointer, permissions: UInt32?, reportedAs reported: String
  ) throws(AtomicFileError) {
    do throws(AtomicFileError) {
      try replace(path, with: bytes, permissions: permissions)
    } catch let error where reported != path {
      throw AtomicFileError(error.code, path: reported, systemError: error.systemError, detail: error.detail + " (writing \(path))")
    }
  }

  static func replace(_ path: String, with bytes: UnsafeRawBufferPointer, permissions: UInt32?) throws(AtomicFileError) {
    let (folder, name) = SystemCalls.split(path)
    guard !name.isEmpty, name != ".", name != ".." else {
      throw AtomicFileError(.notAFile, path: path, detail: "the path names a folder, not a file")
    }
    var existing = stat()
    let replacing = stat(path, &existing) == 0
    if replacing && (existing.st_mode & S_IFMT) == S_IFDIR {
      throw AtomicFileError(.notAFile, path: path, detail: "cannot replace a folder with a file")
    }

    // What a writer of this file killed mid-write left is swept first.
    removeDebris(of: name, inFolder: folder)
    // Create the temporary file under a name nobody else can be using.
    var temporaryPath = ""
    var descriptor: Int32 = -1
    for _ in 0..<8 {
      temporaryPath = folder + "/" + TemporaryName.make(for: name, writer: getpid(), unique: UInt64.random(in: 0...UInt64.max))
      descriptor = SystemCalls.openRetrying(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions ?? 0o644))
      if descriptor >= 0 || errno != EEXIST { break }
    }
    guard descriptor >= 0 else {
      throw .system(errno, "cannot create a temporary file in \(folder)", path: path)
    }
    var committed = false
    defer { if !committed { unlink(temporaryPath) } }
    do {
      var isOpen = true
      defer { if isOpen { close(descriptor) } }
      if replacing {
        // Owner first: changing it clears the set-user-id bits that fchmod then restores.
        if geteuid() == 0 && (existing.st_uid != geteuid() || existing.st_gid != getegid()) {
          _ = fchown(descriptor, existing.st_uid, existing.st_gid)
        }
        guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else {
          throw .system(errno, "cannot give the temporary file the permissions of the file it replaces", path: path)
        }
      } else if let permissions {
        guard fchmod(descriptor, mode_t(permissions)) == 0 else {
          throw .system(errno, "cannot set the temporary file's permissions", path: path)
        }
      }
      try writeAll(bytes, to: descriptor, path: path, what: "the temporary file")
      guard SystemCalls.fsyncRetrying(descriptor) == 0 else {
        throw .system(errno, "cannot flush the temporary file to disk", path: path)
      }
      isOpen = false
      // close(2) must not be retried on Linux: the descriptor is released even when it fails.
      guard close(descriptor) == 0 || errno == EINTR else {
        throw .system(errno, "cannot close the temporary file", path: path)
      }
    }
    guard rename(temporaryPath, path) == 0 else {
      throw .system(errno, "cannot rename the temporary file over the destination", path: path)
    }
    committed = true
    // Make the rename itself durable. Some file systems refuse fsync on folders (EINVAL), which
    // is no failure; any other failure is reported: the new file is in place, but its name may
    // not survive a power cut.
    try AtomicFolder.flush(folder, reportedAs: path, what: "the folder holding it")
  }

  /// Replaces the file at `path` with `data` atomically (`-[NSData writeToFile:atomically:YES]`).
  ///
  /// - Throws: ``AtomicFileError``; see ``write(_:toFile:permissions:)-(UnsafeRawBufferPointer,_,_)``.
  public static func write(_ data: Data, toFile path: String, permissions: UInt32? = nil) throws(AtomicFileError) {
    var failure: AtomicFileError?
    data.withUnsafeBytes { buffer in
      do throws(AtomicFileError) { try write(buffer, toFile: path, permissions: permissions) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Writes every byte, going on after short writes and signals.
  static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String, what: String) throws(AtomicFileError) {
    guard var next = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let count = SystemCalls.writeBytes(descriptor, next, remaining)
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(errno, "cannot write \(what) (\(bytes.count - remaining) of \(bytes.count) bytes written)", path: path)
      }
      if count == 0 {
        throw AtomicFileError(.ioFailure, path: path, detail: "the system accepted no bytes for \(what)")
      }
      next += count
      remaining -= count
    }
  }

  /// Reads the whole file at `path` into memory (`-[NSData initWithContentsOfFile:]`) with
  /// `read(2)`, not a mapping: a mapped file truncated by another process would crash the reader.
  ///
  /// - Parameters:
  ///   - path: the file to read.
  ///   - limit: the largest file accepted, in bytes.
  /// - Throws: ``AtomicFileError``: `.notFound` for a missing file, `.notAFile` for a folder,
  ///   `.tooLarge` when the file holds more than `limit` bytes.
  public static func read(contentsOfFile path: String, limit: Int) throws(AtomicFileError) -> Data {
    let descriptor = SystemCalls.openRetrying(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(errno, "cannot open the file for reading", path: path) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .system(errno, "cannot read the file's status", path: path) }
    let kind = status.st_mode & S_IFMT
    guard kind == S_IFREG || kind == S_IFIFO || kind == S_IFCHR else {
      throw AtomicFileError(.notAFile, path: path, detail: kind == S_IFDIR ? "the path names a folder, not a file" : "not a regular file")
    }
    let size = max(Int(status.st_size), 0)
    guard size <= limit else {
      throw AtomicFileError(.tooLarge, path: path, detail: "file of \(size) bytes is larger than the limit of \(limit)")
    }
    // One byte more than the size shows whether the file grew since fstat.
    var data = Data(count: size + 1)
    var filled = 0
    while true {
      if filled == data.count {
        guard filled <= limit else {
          throw AtomicFileError(.tooLarge, path: path, detail: "input is larger than the limit of \(limit) bytes")
        }
        data.count += min(max(data.count, 4096), limit + 1 - filled)
      }
      let count = data.withUnsafeMutableBytes { SystemCalls.readBytes(descriptor, $0.baseAddress! + filled, $0.count - filled) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(errno, "cannot read the file", path: path)
      }
      if count == 0 { break }
      filled += count
    }
    guard filled <= limit else {
      throw AtomicFileError(.tooLarge, path: path, detail: "input is larger than the limit of \(limit) bytes")
    }
    data.count = filled
    return data
  }
}
