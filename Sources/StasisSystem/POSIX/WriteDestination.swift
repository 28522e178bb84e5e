#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a write to a path really lands, decided before anything is written.
///
/// Only a regular file (or a path where nothing exists yet) is replaced atomically. A symbolic
/// link is followed, so the link stays and its target is written; a character device (`/dev/null`,
/// `/dev/full`, a terminal) or a FIFO is written in place, as the shell's `>` does; and a name for
/// one of the process's own open descriptors (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
/// `/proc/self/fd/N`) writes to that descriptor. Sockets, block devices and folders are refused.
enum WriteDestination: Equatable {
  /// A regular file at this path, or nothing yet: replaced (or created) atomically.
  case file(String)
  /// A character device or FIFO at this path: opened and written in place, never replaced.
  case node(String)
  /// One of this process's open descriptors: written in place, left open.
  case descriptor(Int32)

  /// How many symbolic links are followed before giving up (Linux's own limit is 40).
  static let maximumLinkCount = 40

  /// Where a write to `path` lands.
  ///
  /// - Throws: `.notAFile` for a folder, a socket or a block device; `.ioFailure` (`ELOOP`) for a
  ///   cycle of symbolic links.
  static func resolve(_ path: String) throws(AtomicFileError) -> WriteDestination {
    var current = path
    for _ in 0...maximumLinkCount {
      if let descriptor = descriptorNumber(named: current) { return .descriptor(descriptor) }
      var status = stat()
      guard lstat(current, &status) == 0 else { return .file(current) }
      switch status.st_mode & S_IFMT {
      case S_IFLNK:
        guard let target = linkTarget(current) else { return .file(current) }
        current = target.hasPrefix("/") ? target : SystemCalls.split(current).folder + "/" + target
      case S_IFCHR, S_IFIFO:
        return .node(current)
      case S_IFDIR:
        throw AtomicFileError(.notAFile, path: path, detail: "cannot replace a folder with a file")
      case S_IFSOCK:
        throw AtomicFileError(.notAFile, path: path, detail: "the path names a socket, which cannot be written as a file")
      case S_IFBLK:
        throw AtomicFileError(.notAFile, path: path, detail: "the path names a block device, which Stasis does not write to")
      default:
        return .file(current)
      }
    }
    throw .system(ELOOP, "too many levels of symbolic links", path: path)
  }

  /// The descriptor number a path names when it is one of the process's own descriptors:
  /// `/dev/stdout` 1, `/dev/stderr` 2, `/dev/fd/N` and `/proc/self/fd/N` N.
  static func descriptorNumber(named path: String) -> Int32? {
    switch path {
    case "/dev/stdout": return 1
    case "/dev/stderr": return 2
    default: break
    }
    for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
      let digits = path.dropFirst(prefix.count)
      guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
      return Int32(digits)
    }
    return nil
  }

  /// The text of the symbolic link at `path`, or `nil` if it cannot be read.
  static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension AtomicFile {
  /// How long a write to a FIFO waits for a reader to open it before failing, in milliseconds.
  static let readerWaitMilliseconds = 10_000

  /// Writes `bytes` in place to the character device or FIFO at `path` (never replacing it).
  /// A FIFO that no process opens for reading within ``readerWaitMilliseconds`` is an error,
  /// not a hang.
  static func writeInPlace(
    _ bytes: UnsafeRawBufferPointer, toNode node: String, path: String, readerWait: Int = readerWaitMilliseconds
  ) throws(AtomicFileError) {
    var descriptor: Int32 = -1
    var waited = 0
    while true {
      descriptor = SystemCalls.openRetrying(node, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
      if descriptor >= 0 { break }
      guard errno == ENXIO, waited < readerWait else {
        if errno == ENXIO {
          throw .system(ENXIO, "no process opened the FIFO for reading within \(readerWait) ms", path: path)
        }
        throw .system(errno, "cannot open the device or FIFO for writing", path: path)
      }
      usleep(10_000)
      waited += 10
    }
    defer { close(descriptor) }
    let flags = fcntl(descriptor, F_GETFL)
    if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
    try writeAll(bytes, to: descriptor, path: path, what: "the device or FIFO")
  }

  /// Writes `bytes` to the process's open `descriptor` (`/dev/stdout` and its kin), leaving it
  /// open.
  static func writeInPlace(_ bytes: UnsafeRawBufferPointer, toDescriptor descriptor: Int32, path: String) throws(AtomicFileError) {
    guard fcntl(descriptor, F_GETFD) >= 0 else {
      throw .system(errno, "descriptor \(descriptor) is not open in this process", path: path)
    }
    try writeAll(bytes, to: descriptor, path: path, what: "descriptor \(descriptor)")
  }
}
