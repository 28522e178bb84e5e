import Foundation
import Testing
import TestSupport

/// Issue 13, findings 1 and 2, through the built `defaults`, as root and as `nobody`: export onto
/// `/dev/full`, `/dev/null` and `/dev/stdout` keeps the device, and a failed write to standard
/// output (`export … -`, `read`) is exit status 1.
@Suite("defaults output onto devices", .enabled(if: BuiltDefaults.path != nil, "the built defaults was not found next to the tests"))
struct DefaultsOutputNodeTests {
  /// A containers root anyone may use, with the domain `com.ex.E` written by `user`.
  static func root(for user: ToolUser) throws -> ScratchFolder {
    let folder = try ScratchFolder("defaults-nodes")
    chmod(folder.path, 0o777)
    let outcome = try run(["write", "com.ex.E", "Key", "-int", "14"], as: user, root: folder)
    guard outcome.status == 0 else { throw TestFailure("defaults write failed: \(outcome.stderr)") }
    return folder
  }

  static func run(_ arguments: [String], as user: ToolUser, root: ScratchFolder, stdout: ToolProcess.Output = .captured)
    throws -> ToolOutcome
  {
    try ToolProcess.run(
      try #require(BuiltDefaults.path), arguments, in: root.path,
      environment: ["STASIS_CONTAINERS_ROOT": root.path + "/Containers", "HOME": root.path], stdout: stdout,
      asNobody: user == .nobody)
  }

  /// `defaults export com.ex.E /dev/full` replaced `/dev/full` (as root).
  @Test(arguments: ToolUser.allCases)
  func exportOntoAFullDeviceFailsAndKeepsIt(_ user: ToolUser) throws {
    guard user.isPossible else { return }
    let root = try Self.root(for: user)
    defer { root.remove() }
    let outcome = try Self.run(["export", "com.ex.E", "/dev/full"], as: user, root: root)
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("No space left on device"), "\(outcome.stderr)")
    #expect(fileKind("/dev/full") == S_IFCHR)
  }

  @Test(arguments: ToolUser.allCases)
  func exportOntoDevNullAndDevStdout(_ user: ToolUser) throws {
    guard user.isPossible else { return }
    let root = try Self.root(for: user)
    defer { root.remove() }
    let null = try Self.run(["export", "com.ex.E", "/dev/null"], as: user, root: root)
    #expect(null.status == 0, "\(null.stderr)")
    #expect(fileKind("/dev/null") == S_IFCHR)
    let stdout = try Self.run(["export", "com.ex.E", "/dev/stdout"], as: user, root: root)
    #expect(stdout.status == 0, "\(stdout.stderr)")
    #expect(stdout.stdout.starts(with: Array("bplist00".utf8)), "export writes a binary plist")
    #expect(fileKind("/dev/stdout") == S_IFLNK)
  }

  /// `defaults export com.ex.E - > /dev/full` and `defaults read > /dev/full` exited 0.
  @Test(arguments: ToolUser.allCases, [["export", "com.ex.E", "-"], ["read", "com.ex.E"], ["read"], ["read", "com.ex.E", "Key"]])
  func standardOutputOnAFullDeviceIsExitStatusOne(_ user: ToolUser, _ arguments: [String]) throws {
    guard user.isPossible else { return }
    let root = try Self.root(for: user)
    defer { root.remove() }
    let outcome = try Self.run(arguments, as: user, root: root, stdout: .path("/dev/full"))
    #expect(outcome.status == 1)
    #expect(outcome.stderr.hasSuffix("cannot write to standard output: No space left on device\n"), "\(outcome.stderr)")
  }
}
