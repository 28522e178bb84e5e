public import Foundation
public import Testing

/// Python modules the tests use as independent oracles (`babel`, `nibarchive`); `.ci/run` installs them.
public enum PythonModule {
  /// Whether `python3 -c "import <name>"` succeeds here.
  public static func isAvailable(_ name: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import \(name)"]
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}

/// The file type bits (`S_IFREG`, `S_IFLNK`, `S_IFCHR`, …) of `path` itself, not following a
/// link; `nil` when nothing is there. What the output-node tests check a node against.
public func fileKind(_ path: String) -> mode_t? {
  var status = stat()
  return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
}

/// Who runs a tool in a test: the test's own user, or `nobody` through `setpriv`.
public enum ToolUser: String, CustomTestStringConvertible, CaseIterable, Sendable {
  case current, nobody
  public var testDescription: String { rawValue }
  /// Whether this user can run a tool here (`nobody` needs root and setpriv).
  public var isPossible: Bool { self == .current || ToolProcess.canRunAsNobody }
}
