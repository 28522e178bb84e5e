import Foundation
import Glibc
import Sandbox
import Testing
import TestSupport

/// A container root in a fresh temporary folder, removed by `remove()`.
struct ScratchRoot {
  let folder: URL
  let root: ContainerRoot

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("stasis-sandbox-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    root = ContainerRoot(path: folder.path + "/Containers")
  }

  /// A folder beside the root, outside every container.
  var outside: String { folder.path + "/outside" }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

func isFolder(_ path: String) -> Bool {
  var status = stat()
  return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
}

func symlink(at path: String, to target: String) throws {
  guard Glibc.symlink(target, path) == 0 else { throw TestFailure("cannot link \(path) -> \(target): \(String(cString: strerror(errno)))") }
}

/// Runs `body` expecting a `SandboxError` with `code`, and returns it.
@discardableResult
func expectSandboxError(
  _ code: SandboxError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws(SandboxError) -> Void
) -> SandboxError? {
  do {
    try body()
    Issue.record("expected SandboxError .\(code), but nothing was thrown. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    return nil
  } catch {
    #expect(error.code == code, "\(error) \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    return error
  }
}
