/// The file system a ``HostEnvironment`` carries (``HostEnvironment/fileSystem``): any
/// ``FileSystem``, ``POSIXFileSystem`` (`.system`) unless a test or tool states another.
public typealias HostFileSystem = any FileSystem

extension FileSystem where Self == POSIXFileSystem {
  /// The real file system of the process.
  public static var system: POSIXFileSystem { POSIXFileSystem() }
}
