import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small wrappers that retry system calls interrupted by a signal (`EINTR`).
package enum SystemCalls {
  /// `write(2)`, once: returns the count written or -1 with `errno` set (a name of its own, as
  /// `AtomicFile.write` would hide the C function's).
  static func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
  }

  /// `read(2)`, once: returns the count read, 0 at the end, or -1 with `errno` set.
  static func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
  }

  /// `open(2)`, retried on `EINTR`; returns the descriptor or -1 with `errno` set.
  static func openRetrying(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    while true {
      let descriptor = open(path, flags, mode)
      if descriptor >= 0 || errno != EINTR { return descriptor }
    }
  }

  /// `fsync(2)`, retried on `EINTR`.
  static func fsyncRetrying(_ descriptor: Int32) -> Int32 {
    while true {
      let result = fsync(descriptor)
      if result == 0 || errno != EINTR { return result }
    }
  }

  /// `flock(2)`, retried on `EINTR`.
  static func flockRetrying(_ descriptor: Int32, _ operation: Int32) -> Int32 {
    while true {
      let result = flock(descriptor, operation)
      if result == 0 || errno != EINTR { return result }
    }
  }

  /// Splits `path` into its folder and last component (`"."` when there is no slash, `"/"` for a
  /// file at the root); the one place the package does this.
  package static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
    let folder = slash == path.startIndex ? "/" : String(path[..<slash])
    return (folder, String(path[path.index(after: slash)...]))
  }
}
