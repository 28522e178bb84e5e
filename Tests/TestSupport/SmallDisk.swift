import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small tmpfs used as a container root (needs root with CAP_SYS_ADMIN).
public final class SmallDisk {
  public let folder: ScratchFolder
  public var path: String { folder.path }

  public static let canMount: Bool = {
    guard getuid() == 0 else { return false }
    guard let probe = try? ScratchFolder("defaults-mount-probe") else { return false }
    defer { probe.remove() }
    guard mount("tmpfs", probe.path, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount2(probe.path, Int32(MNT_DETACH))
    return true
  }()

  public init(size: String) throws {
    folder = try ScratchFolder("defaults-tmpfs")
    guard mount("tmpfs", folder.path, "tmpfs", 0, "size=\(size),mode=0755") == 0 else {
      throw DiskFailure("cannot mount a tmpfs: \(String(cString: strerror(errno)))")
    }
  }

  deinit {
    umount2(path, Int32(MNT_DETACH))
    folder.remove()
  }

  /// Fills the disk with a plain file until it is full.
  public func fill() throws {
    let descriptor = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw DiskFailure("cannot create the filler") }
    defer { close(descriptor) }
    let block = [UInt8](repeating: 0xAB, count: 4096)
    while true {
      let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
      if written < 0 && errno == ENOSPC { return }
      if written <= 0 { throw DiskFailure("filling stopped with errno \(errno)") }
    }
  }

  public func emptyFiller() { unlink(path + "/filler") }

  public func remountReadOnly(_ readOnly: Bool) throws {
    let flags = UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0)
    guard mount("tmpfs", path, "tmpfs", flags, nil) == 0 else {
      throw DiskFailure("cannot remount: \(String(cString: strerror(errno)))")
    }
  }

  public struct DiskFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }
}
