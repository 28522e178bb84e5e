public import FoundationEssentials

/// The file-system entry points the tools and modules read and write user files through: a
/// whole-file read with a limit and an atomic whole-file replacement, both with
/// `AtomicFileError` as their one error. ``system`` is `AtomicFile` and its siblings; a test
/// may pass files held in memory, or a disk that fails on demand.
public struct HostFileSystem: Sendable {
  /// The whole file at a path, at most `limit` bytes (`AtomicFile.read(contentsOfFile:limit:)`).
  public var read: @Sendable (_ path: String, _ limit: Int) throws(AtomicFileError) -> Data
  /// Replaces the file at a path atomically (`AtomicFile.write(_:toFile:permissions:)`).
  public var writeAtomically: @Sendable (_ data: Data, _ path: String) throws(AtomicFileError) -> Void

  public init(
    read: @escaping @Sendable (_ path: String, _ limit: Int) throws(AtomicFileError) -> Data,
    writeAtomically: @escaping @Sendable (_ data: Data, _ path: String) throws(AtomicFileError) -> Void
  ) {
    self.read = read
    self.writeAtomically = writeAtomically
  }

  /// The real file system, through `AtomicFile`.
  public static let system = HostFileSystem(
    read: { (path, limit) throws(AtomicFileError) in try AtomicFile.read(contentsOfFile: path, limit: limit) },
    writeAtomically: { (data, path) throws(AtomicFileError) in try AtomicFile.write(data, toFile: path) })
}
