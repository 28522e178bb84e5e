public import StasisSystem
internal import Foundation

/// The folder that holds every app's container, one subfolder per bundle identifier — the
/// counterpart of `~/Library/Containers` on macOS and the data-container folder on iOS.
///
/// ``standard(environment:)`` chooses it the way tools and tests expect: `$STASIS_CONTAINERS_ROOT`
/// if set, else `$XDG_DATA_HOME/stasis/Containers` (when that variable is an absolute path, as the
/// XDG Base Directory specification requires), else `~/.local/share/stasis/Containers`.
public struct ContainerRoot: Sendable {
  /// The environment variable that overrides the location.
  public static let environmentVariable = HostEnvironment.containersRootVariable

  public let path: String
  /// The file system the root and its containers are on.
  public let fileSystem: any FileSystem

  /// A root at `path` (created when the first container is opened) on `fileSystem` (by default
  /// the current environment's). Trailing slashes are dropped.
  public init(path: String, fileSystem: any FileSystem = HostEnvironment.current.fileSystem) {
    var path = path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    self.path = path
    self.fileSystem = fileSystem
  }

  /// The root an environment names (`HostEnvironment.containersRoot`), on its file system.
  public init(environment: HostEnvironment) {
    self.init(path: environment.containersRoot, fileSystem: environment.fileSystem)
  }

  /// The root chosen from `environment`: `$STASIS_CONTAINERS_ROOT`, else
  /// `$XDG_DATA_HOME/stasis/Containers`, else `$HOME/.local/share/stasis/Containers` (the home
  /// folder from the password database when `HOME` is unset) — the rule of
  /// `HostEnvironment.containersRoot(from:home:)`.
  public static func standard(environment: [String: String] = HostEnvironment.current.variables) -> ContainerRoot {
    ContainerRoot(path: HostEnvironment(variables: environment).containersRoot)
  }

  /// The file of `NSGlobalDomain`, the defaults shared by every app under this root:
  /// `<root>/.GlobalPreferences/.GlobalPreferences.plist` (`~/Library/Preferences/.GlobalPreferences.plist` on macOS).
  public var globalPreferencesPath: String { globalPreferencesFolder + "/.GlobalPreferences.plist" }

  var globalPreferencesFolder: String { path + "/.GlobalPreferences" }

  /// Opens the container of `bundleIdentifier`, creating its folders on first use, and sweeps the
  /// temporary files that writers killed mid-write left in them.
  ///
  /// - Parameters:
  ///   - bundleIdentifier: reverse-DNS name (`com.example.Notes`): letters, digits, `-`, `_` and
  ///     dots between non-empty parts.
  ///   - appName: the name of the bundle folder `<appName>.app`; by default the identifier's last part.
  /// - Throws: ``SandboxError`` `.invalidIdentifier` for an unsafe identifier or app name,
  ///   `.fileSystem` when a folder cannot be created or a standard folder is not a real folder.
  public func container(for bundleIdentifier: String, appName: String? = nil) throws(SandboxError) -> AppContainer {
    try BundleIdentifier.validate(bundleIdentifier)
    let name = appName ?? String(bundleIdentifier.split(separator: ".").last ?? "")
    try BundleIdentifier.validateAppName(name)
    try Folders.create(path, in: fileSystem)
    try Folders.createChild(globalPreferencesFolder, in: fileSystem)
    fileSystem.removeDebris(inFolder: globalPreferencesFolder)
    let container = AppContainer(
      bundleIdentifier: bundleIdentifier, homePath: path + "/" + bundleIdentifier, appName: name, fileSystem: fileSystem)
    try container.createFolders()
    return container
  }

  /// Where the preferences file of `bundleIdentifier`'s container is (``AppContainer/preferencesFilePath``),
  /// without creating the container or anything else: for readers that only look.
  ///
  /// - Throws: `SandboxError.Code.invalidIdentifier` as ``container(for:appName:)`` does.
  public func preferencesFilePath(for bundleIdentifier: String) throws(SandboxError) -> String {
    try BundleIdentifier.validate(bundleIdentifier)
    return path + "/" + bundleIdentifier + "/Library/Preferences/" + bundleIdentifier + ".plist"
  }

  /// The bundle identifiers whose containers exist under this root, sorted (for `defaults domains`).
  public func bundleIdentifiers() -> [String] {
    guard let names = try? fileSystem.entryNames(inFolder: path) else { return [] }
    return names.filter { name in
      (try? BundleIdentifier.validate(name)) != nil
        && (try? fileSystem.status(of: path + "/" + name, followingLinks: false))?.kind == .folder
    }.sorted()
  }
}
