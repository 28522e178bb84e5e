import FoundationEssentials
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory lock on a lock file, excluding other processes (`flock(2)` on the file, created if
/// missing) and other threads of this process (a read-write lock), in the spirit of
/// `NSDistributedLock` and the file coordination `cfprefsd` does for preferences.
///
/// Shared holders may run together; an exclusive holder runs alone. The lock is not re-entrant:
/// taking it again on the same thread while holding it deadlocks. Only processes that take the
/// lock are excluded — it does not stop plain reads and writes of other files.
public final class FileLock: @unchecked Sendable {
  /// The lock file.
  public let path: String
  private let descriptor: Int32
  /// Threads of this process: readers share, a writer excludes.
  private let threads: UnsafeMutablePointer<pthread_rwlock_t>
  /// Guards `sharedHolders`, the threads of this process that hold the shared `flock`.
  private let counter: UnsafeMutablePointer<pthread_mutex_t>
  private var sharedHolders = 0

  /// Opens (creating if needed, mode 0o644) the lock file at `path`.
  ///
  /// - Throws: ``AtomicFileError`` if the file cannot be opened or created.
  public init(path: String) throws(AtomicFileError) {
    let descriptor = SystemCalls.openRetrying(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      // A lock file in a read-only place can still be locked through a read-only descriptor.
      let number = errno
      let readOnly = SystemCalls.openRetrying(path, O_RDONLY | O_CLOEXEC)
      guard readOnly >= 0 else { throw .system(number, "cannot open or create the lock file", path: path) }
      self.descriptor = readOnly
      self.path = path
      (threads, counter) = Self.makeLocks()
      return
    }
    self.descriptor = descriptor
    self.path = path
    (threads, counter) = Self.makeLocks()
  }

  private static func makeLocks() -> (UnsafeMutablePointer<pthread_rwlock_t>, UnsafeMutablePointer<pthread_mutex_t>) {
    let threads = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    threads.initialize(to: pthread_rwlock_t())
    pthread_rwlock_init(threads, nil)
    let counter = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    counter.initialize(to: pthread_mutex_t())
    pthread_mutex_init(counter, nil)
    return (threads, counter)
  }

  deinit {
    close(descriptor)
    pthread_rwlock_destroy(threads)
    threads.deallocate()
    pthread_mutex_destroy(counter)
    counter.deallocate()
  }

  /// Runs `body` while holding the lock alone: no other thread or process holding this lock file
  /// runs at the same time.
  ///
  /// - Throws: ``AtomicFileError`` with code `.lockFailure` if the lock cannot be taken, or what
  ///   `body` throws.
  public func withExclusiveLock<R>(_ body: () throws -> R) throws -> R {
    pthread_rwlock_wrlock(threads)
    defer { pthread_rwlock_unlock(threads) }
    guard SystemCalls.flockRetrying(descriptor, LOCK_EX) == 0 else {
      throw AtomicFileError(.lockFailure, path: path, systemError: errno, detail: "cannot take the exclusive lock")
    }
    defer { _ = SystemCalls.flockRetrying(descriptor, LOCK_UN) }
    return try body()
  }

  /// Runs `body` while holding the lock shared: other shared holders may run at the same time,
  /// exclusive holders may not.
  ///
  /// - Throws: ``AtomicFileError`` with code `.lockFailure` if the lock cannot be taken, or what
  ///   `body` throws.
  public func withSharedLock<R>(_ body: () throws -> R) throws -> R {
    pthread_rwlock_rdlock(threads)
    defer { pthread_rwlock_unlock(threads) }
    // The flock belongs to the descriptor, which all threads share: the first shared holder takes
    // it and the last one releases it.
    pthread_mutex_lock(counter)
    if sharedHolders == 0 {
      guard SystemCalls.flockRetrying(descriptor, LOCK_SH) == 0 else {
        let number = errno
        pthread_mutex_unlock(counter)
        throw AtomicFileError(.lockFailure, path: path, systemError: number, detail: "cannot take the shared lock")
      }
    }
    sharedHolders += 1
    pthread_mutex_unlock(counter)
    defer {
      pthread_mutex_lock(counter)
      sharedHolders -= 1
      if sharedHolders == 0 { _ = SystemCalls.flockRetrying(descriptor, LOCK_UN) }
      pthread_mutex_unlock(counter)
    }
    return try body()
  }
}
