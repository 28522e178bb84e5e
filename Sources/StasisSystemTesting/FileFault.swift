#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure an ``InMemoryFileSystem`` injects: calls number `firstCall` through `lastCall`
/// (counting from 1, every call the file system answers) fail with the system error of `kind`.
///
/// `.noSpace` and `.readOnly` fail only calls that change the disk (create, write, flush, rename,
/// link, remove, make a folder), as a full or read-only disk still lets a reader list and read;
/// `.permissionDenied` and `.ioError` fail any call.
public struct FileFault: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The disk is full (`ENOSPC`).
    case noSpace
    /// The file system is mounted read-only (`EROFS`).
    case readOnly
    /// The folder or file may not be touched (`EACCES`).
    case permissionDenied
    /// The device failed (`EIO`).
    case ioError

    /// The `errno` the failed call reports.
    public var systemError: Int32 {
      switch self {
      case .noSpace: ENOSPC
      case .readOnly: EROFS
      case .permissionDenied: EACCES
      case .ioError: EIO
      }
    }

    /// Whether calls that do not change the disk fail too.
    var hitsReads: Bool { self == .permissionDenied || self == .ioError }
  }

  public var kind: Kind
  public var firstCall: Int
  /// The last failing call; `nil`: every call from `firstCall` on.
  public var lastCall: Int?

  public init(_ kind: Kind, firstCall: Int, lastCall: Int?) {
    self.kind = kind
    self.firstCall = firstCall
    self.lastCall = lastCall
  }

  /// Only call number `call` fails (a transient error).
  public static func at(_ call: Int, _ kind: Kind) -> FileFault { FileFault(kind, firstCall: call, lastCall: call) }

  /// Every call from number `call` on fails (the disk filled up, was remounted read-only, …).
  public static func from(_ call: Int, _ kind: Kind) -> FileFault { FileFault(kind, firstCall: call, lastCall: nil) }

  /// Whether call number `call` fails.
  func hits(call: Int, changesDisk: Bool) -> Bool {
    call >= firstCall && call <= (lastCall ?? Int.max) && (changesDisk || kind.hitsReads)
  }

  public var description: String {
    "\(kind) at call \(firstCall)" + (lastCall == firstCall ? "" : lastCall.map { "…\($0)" } ?? " on")
  }
}

/// What survives when an ``InMemoryFileSystem`` "crashes" (``InMemoryFileSystem/crash(afterCalls:)``)
/// and the next process looks at the disk (``InMemoryFileSystem/restarted(after:)``).
public enum CrashModel: Sendable, Hashable, CaseIterable {
  /// The process was killed (`SIGKILL`, a crash): the kernel completed every call the process
  /// made, flushed or not, so the disk is exactly as the last completed call left it.
  case processKill
  /// The machine lost power: only what was flushed survives. A file keeps the bytes it had at
  /// its last flush (none if it was never flushed); a folder keeps the entries it had at its
  /// last flush (entries made or renamed since are undone). This is the strictest reading of
  /// POSIX (ext4 with `data=writeback`); real file systems usually keep more.
  case powerCut
}
