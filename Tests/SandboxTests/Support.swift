import Foundation
import Sandbox
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A container root in a fresh scratch folder, removed by `remove()` or with the last reference.
struct ScratchRoot {
  let scratch: ScratchFolder
  let root: ContainerRoot

  init() throws {
    scratch = try ScratchFolder("sandbox")
    root = ContainerRoot(path: scratch.path + "/Containers")
  }

  var folder: URL { scratch.url }

  /// A folder beside the root, outside every container.
  var outside: String { scratch.path + "/outside" }

  func remove() { scratch.remove() }
}

func isFolder(_ path: String) -> Bool {
  var status = stat()
  return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
}

func symlink(at path: String, to target: String) throws {
  guard Glibc.symlink(target, path) == 0 else { throw TestFailure("cannot link \(path) -> \(target): \(String(cString: strerror(errno)))") }
}
