/// The user-domain folders ``AppContainer/searchPaths(for:expandTilde:)`` knows, named after the
/// `NSSearchPathDirectory` cases they stand for. Inside a container each is the folder of the same
/// name under the container's home, as on iOS.
public enum SearchPathDirectory: Sendable, CaseIterable {
  /// `NSApplicationDirectory`: `~/Applications`.
  case applicationDirectory
  /// `NSDocumentDirectory`: `~/Documents`.
  case documentDirectory
  /// `NSLibraryDirectory`: `~/Library`.
  case libraryDirectory
  /// `NSCachesDirectory`: `~/Library/Caches`.
  case cachesDirectory
  /// `NSApplicationSupportDirectory`: `~/Library/Application Support`.
  case applicationSupportDirectory
  /// `NSAutosavedInformationDirectory`: `~/Library/Autosave Information`.
  case autosavedInformationDirectory
  /// `NSDesktopDirectory`: `~/Desktop`.
  case desktopDirectory
  /// `NSDownloadsDirectory`: `~/Downloads`.
  case downloadsDirectory
  /// `NSMoviesDirectory`: `~/Movies`.
  case moviesDirectory
  /// `NSMusicDirectory`: `~/Music`.
  case musicDirectory
  /// `NSPicturesDirectory`: `~/Pictures`.
  case picturesDirectory
  /// `NSSharedPublicDirectory`: `~/Public`.
  case sharedPublicDirectory
  /// `NSAllLibrariesDirectory`: `~/Library` and `~/Developer`.
  case allLibrariesDirectory

  /// The folders relative to the home, in Apple's order.
  var relativePaths: [String] {
    switch self {
    case .applicationDirectory: ["Applications"]
    case .documentDirectory: ["Documents"]
    case .libraryDirectory: ["Library"]
    case .cachesDirectory: ["Library/Caches"]
    case .applicationSupportDirectory: ["Library/Application Support"]
    case .autosavedInformationDirectory: ["Library/Autosave Information"]
    case .desktopDirectory: ["Desktop"]
    case .downloadsDirectory: ["Downloads"]
    case .moviesDirectory: ["Movies"]
    case .musicDirectory: ["Music"]
    case .picturesDirectory: ["Pictures"]
    case .sharedPublicDirectory: ["Public"]
    case .allLibrariesDirectory: ["Library", "Developer"]
    }
  }
}

extension AppContainer {
  /// The paths of `directory` in the user domain, inside this container —
  /// `NSSearchPathForDirectoriesInDomains(directory, NSUserDomainMask, expandTilde)`.
  ///
  /// With `expandTilde` the paths are absolute (`<home>/Documents`); without it they start with
  /// `~` standing for the container's home (`~/Documents`), which ``resolve(_:)`` accepts. Like
  /// Apple's function, this does not create the folders; the standard ones exist already.
  public func searchPaths(for directory: SearchPathDirectory, expandTilde: Bool = true) -> [String] {
    directory.relativePaths.map { (expandTilde ? homePath : "~") + "/" + $0 }
  }
}
