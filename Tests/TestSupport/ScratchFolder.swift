public import Foundation

/// A fresh, uniquely named folder under the system's temporary folder for one test, removed with
/// everything in it by ``remove()`` or when the last reference to it goes away.
///
/// Keep a reference for as long as the test uses the folder: as a suite's stored property, with
/// `defer { folder.remove() }`, or through ``withScratchFolder(_:_:)``. (A local that is only
/// read for its path may be released, and the folder removed, right after that read.)
public final class ScratchFolder: Sendable {
  /// The folder.
  public let url: URL

  /// The folder's path.
  public var path: String { url.path }

  /// Creates `<temporary folder>/stasis-<label>-<UUID>`.
  public init(_ label: String = "scratch") throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("stasis-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { remove() }

  /// The path of `name` inside the folder (`name` may hold slashes).
  public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `bytes` to the file `name` inside the folder.
  public func write(_ bytes: [UInt8], to name: String) throws {
    try Data(bytes).write(to: url.appendingPathComponent(name))
  }

  /// The bytes of the file `name` inside the folder.
  public func read(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url.appendingPathComponent(name)))
  }

  /// The names in the folder, sorted.
  public func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// Removes the folder and everything in it; folders a test made read-only are made writable
  /// first. Calling it again does nothing.
  public func remove() {
    let manager = FileManager.default
    guard manager.fileExists(atPath: path) else { return }
    if (try? manager.removeItem(at: url)) != nil { return }
    // A folder without write or search permission keeps its entries: open everything up, retry.
    _ = chmod(path, 0o755)
    if let walker = manager.enumerator(atPath: path) {
      for case let relative as String in walker {
        let entry = url.appendingPathComponent(relative).path
        var status = stat()
        if lstat(entry, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { _ = chmod(entry, 0o755) }
      }
    }
    try? manager.removeItem(at: url)
  }
}

/// Runs `body` with a fresh ``ScratchFolder`` and removes the folder when `body` returns or throws.
public func withScratchFolder<R>(_ label: String = "scratch", _ body: (ScratchFolder) throws -> R) throws -> R {
  let folder = try ScratchFolder(label)
  defer { folder.remove() }
  return try body(folder)
}

/// Runs `body` with a fresh ``ScratchFolder`` and removes the folder when `body` returns or throws.
public func withScratchFolder<R>(_ label: String = "scratch", _ body: (ScratchFolder) async throws -> R) async throws -> R {
  let folder = try ScratchFolder(label)
  defer { folder.remove() }
  return try await body(folder)
}
