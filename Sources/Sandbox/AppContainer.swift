public import StasisSystem

/// One app's container: `<root>/<bundleIdentifier>/` holding the bundle `<Name>.app`,
/// `Documents`, `Library/Preferences`, `Library/Caches`, `Library/Application Support` and `tmp`,
/// as an iOS app's data container is laid out. Open one with ``ContainerRoot/container(for:appName:)``.
public struct AppContainer: Sendable {
  public let bundleIdentifier: String
  /// The container's home folder (`NSHomeDirectory()` inside the app).
  public let homePath: String
  /// The app's bundle, `<home>/<Name>.app`.
  public let bundlePath: String
  /// `<home>/Documents` (`NSDocumentDirectory`).
  public let documentsPath: String
  /// `<home>/Library` (`NSLibraryDirectory`).
  public let libraryPath: String
  /// `<home>/Library/Preferences`, where the app's user defaults are kept.
  public let preferencesPath: String
  /// `<home>/Library/Caches` (`NSCachesDirectory`); emptied by ``purgeCaches()``.
  public let cachesPath: String
  /// `<home>/Library/Application Support` (`NSApplicationSupportDirectory`).
  public let applicationSupportPath: String
  /// `<home>/tmp` (`NSTemporaryDirectory()`, without its trailing slash); emptied by ``purgeTemporaryFiles()``.
  public let temporaryPath: String
  /// The file system the container is on (its root's).
  public let fileSystem: any FileSystem

  init(
    bundleIdentifier: String, homePath: String, appName: String,
    fileSystem: any FileSystem = HostEnvironment.current.fileSystem
  ) {
    self.fileSystem = fileSystem
    self.bundleIdentifier = bundleIdentifier
    self.homePath = homePath
    bundlePath = homePath + "/" + appName + ".app"
    documentsPath = homePath + "/Documents"
    libraryPath = homePath + "/Library"
    preferencesPath = libraryPath + "/Preferences"
    cachesPath = libraryPath + "/Caches"
    applicationSupportPath = libraryPath + "/Application Support"
    temporaryPath = homePath + "/tmp"
  }

  /// The file of the app's own defaults domain, `Library/Preferences/<bundleIdentifier>.plist`
  /// (a binary property list, as `cfprefsd` writes it).
  public var preferencesFilePath: String { preferencesPath + "/" + bundleIdentifier + ".plist" }

  /// The temporary folder with a trailing slash, as `NSTemporaryDirectory()` returns it.
  public func temporaryDirectory() -> String { temporaryPath + "/" }

  var standardFolders: [String] {
    [homePath, bundlePath, documentsPath, libraryPath, preferencesPath, cachesPath, applicationSupportPath, temporaryPath]
  }

  /// Creates the folders that are missing and sweeps debris of killed writers from each.
  func createFolders() throws(SandboxError) {
    for folder in standardFolders {
      try Folders.createChild(folder, in: fileSystem)
      fileSystem.removeDebris(inFolder: folder)
    }
  }

  /// Removes everything in `Library/Caches`, which the system may do at any time when disk space
  /// runs low. Symbolic links are removed, never followed.
  ///
  /// - Throws: ``SandboxError`` `.fileSystem` when something cannot be removed.
  public func purgeCaches() throws(SandboxError) {
    try Folders.removeContents(of: cachesPath, in: fileSystem)
  }

  /// Removes everything in `tmp`, as the system does between launches.
  ///
  /// - Throws: ``SandboxError`` `.fileSystem` when something cannot be removed.
  public func purgeTemporaryFiles() throws(SandboxError) {
    try Folders.removeContents(of: temporaryPath, in: fileSystem)
  }
}
