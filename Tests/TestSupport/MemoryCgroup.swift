import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A memory cgroup of this process's own (cgroup v1's memory controller here; v2 where it is
/// writable), made for one test and removed after.
public struct MemoryCgroup {
  public let path: String

  /// This process's memory cgroup folder (v1 memory controller, else v2 unified).
  public static var parent: String? {
    guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      if parts.count == 3, parts[1].split(separator: ",").contains("memory") { return "/sys/fs/cgroup/memory" + parts[2] }
    }
    for line in text.split(separator: "\n") where line.hasPrefix("0::") {
      let path = "/sys/fs/cgroup" + line.dropFirst(3)
      if FileManager.default.fileExists(atPath: path + "/memory.max") || FileManager.default.fileExists(atPath: path + "/cgroup.controllers") {
        return path
      }
    }
    return nil
  }

  /// Why no cgroup can be made here, or `nil` when one can.
  public static let unavailableReason: String? = {
    guard let parent else { return "no memory cgroup in /proc/self/cgroup" }
    let probe = parent + "/stasis-probe-\(getpid())"
    guard mkdir(probe, 0o755) == 0 else { return "cannot create a cgroup under \(parent): \(String(cString: strerror(errno)))" }
    rmdir(probe)
    return nil
  }()

  public init(limitBytes: Int) throws {
    guard let parent = Self.parent else { throw TestFailure("no memory cgroup in /proc/self/cgroup") }
    path = parent + "/stasis-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    guard mkdir(path, 0o755) == 0 else { throw TestFailure("cannot create \(path)") }
    if FileManager.default.fileExists(atPath: path + "/memory.limit_in_bytes") {
      try Data("\(limitBytes)".utf8).write(to: URL(fileURLWithPath: path + "/memory.limit_in_bytes"))
    } else {
      // cgroup v2: the hard limit, and `memory.high` at 80 % of it, whose crossings the monitor hears.
      try Data("\(limitBytes)".utf8).write(to: URL(fileURLWithPath: path + "/memory.max"))
      try Data("\(limitBytes / 10 * 8)".utf8).write(to: URL(fileURLWithPath: path + "/memory.high"))
    }
  }

  public func remove() {
    for _ in 0..<50 where rmdir(path) != 0 { usleep(100_000) }
  }
}
