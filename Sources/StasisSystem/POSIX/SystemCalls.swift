import FoundationEssentials

import Glibc

/// Small wrappers that retry system calls interrupted by a signal (`EINTR`).
package enum SystemCalls {
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
