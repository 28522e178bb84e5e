import Foundation

/// The Linux immutable flag (`chattr +i`), which stops even root from creating, removing or
/// renaming entries in a folder — the way to get EPERM when tests run as root, who ignores
/// permission bits.
public enum ImmutableFlag {
  /// `chattr`, if installed.
  public static let tool: String? = ["/usr/bin/chattr", "/bin/chattr"].first { FileManager.default.isExecutableFile(atPath: $0) }

  /// Whether the flag can be used here: running as root with `chattr` installed.
  public static var isUsable: Bool { getuid() == 0 && tool != nil }

  /// Sets (`true`) or clears (`false`) the flag on `path`; false if `chattr` failed (for example
  /// on a file system without the flag).
  @discardableResult
  public static func set(_ on: Bool, on path: String) -> Bool {
    guard let tool else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = [on ? "+i" : "-i", path]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
