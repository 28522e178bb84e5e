import FoundationEssentials
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFile {
  /// Removes the temporary files (and the temporary folders of ``AtomicFolder``) that writers
  /// which died mid-write (their process is gone) left in `folder`, and returns how many were
  /// removed. Temporary files of live writers, including
  /// this process's, are left alone. Call it when opening a folder of user data.
  ///
  /// A temporary file is recognised by its name, `.<name>.stasis-tmp.<pid>.<hex>`; a process is
  /// gone when `kill(pid, 0)` answers `ESRCH`. A file untouched for ``staleAge`` seconds is
  /// debris even if its pid is alive again: the number has been reused by another process.
  @discardableResult
  public static func removeDebris(inFolder folder: String) -> Int {
    removeDebris(inFolder: folder, prefix: ".")
  }

  /// Removes the temporary files of dead writers of `name` in `folder` (every writer sweeps its
  /// own debris before it writes: plutil's, ibtool's, restoration's files are swept this way).
  @discardableResult
  public static func removeDebris(of name: String, inFolder folder: String) -> Int {
    removeDebris(inFolder: folder, prefix: TemporaryName.prefix(for: name))
  }

  static func removeDebris(inFolder folder: String, prefix: String) -> Int {
    var removed = 0
    for name in entryNames(inFolder: folder) ?? [] where name.hasPrefix(prefix) {
      guard let pid = TemporaryName.writer(of: name) else { continue }
      let path = "\(folder)/\(name)"
      guard !isAlive(pid) || isStale(path) else { continue }
      if AtomicFolder.removeTree(path) { removed += 1 }
    }
    return removed
  }

  /// How long (in seconds) a temporary file may go unmodified before it counts as debris
  /// whatever its pid: one day, far beyond any single write.
  public static let staleAge = 24 * 60 * 60

  static func isStale(_ path: String) -> Bool {
    var status = stat()
    guard lstat(path, &status) == 0 else { return false }
    return time(nil) - status.st_mtim.tv_sec > staleAge
  }

  static func isAlive(_ pid: pid_t) -> Bool {
    if pid == getpid() { return true }
    return kill(pid, 0) == 0 || errno != ESRCH
  }
}
