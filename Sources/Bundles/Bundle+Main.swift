public import StasisSystem
import Synchronization

private let mainBundleState = Mutex<Bundle?>(nil)
/// Counts ``Bundle/configureMainBundle(path:environment:)`` calls, so that bundles following the
/// main bundle's localizations know when their cached choice is out of date.
private let mainBundleGenerationCounter = Atomic<Int>(0)

extension Bundle {
  /// The bundle of the running program (`NSBundle.mainBundle`, `CFBundleGetMainBundle`).
  ///
  /// Unless ``configureMainBundle(path:environment:)`` named one, it is found from the executable
  /// (`/proc/self/exe`): `X.app/Contents/MacOS/x` gives `X.app`; otherwise the executable's own
  /// folder (a flat bundle when it holds an Info.plist, else a bare folder — what
  /// swift-corelibs-foundation uses on Linux). The environment is `HostEnvironment.current`.
  /// If no folder can be opened, the current directory is used.
  public static var main: Bundle {
    mainBundleState.withLock { main in
      if let main { return main }
      let path = mainBundlePathFromExecutable() ?? "."
      let bundle = (try? Bundle(path: path, environment: .current)) ?? Bundle(emptyAt: path, environment: .current)
      main = bundle
      return bundle
    }
  }

  /// Makes `path` the main bundle (for tools and tests, or a program installed away from its
  /// resources). Replaces a main bundle already opened.
  ///
  /// - Throws: ``BundleError`` if the bundle cannot be opened; the main bundle is then unchanged.
  public static func configureMainBundle(path: String, environment: HostEnvironment = .current) throws(BundleError) {
    let bundle = try Bundle(path: path, environment: environment)
    mainBundleState.withLock { $0 = bundle }
    mainBundleGenerationCounter.add(1, ordering: .releasing)
  }

  /// How many times the main bundle was replaced (see ``localizationSearchList``).
  static var mainBundleGeneration: Int { mainBundleGenerationCounter.load(ordering: .acquiring) }

  static func mainBundlePathFromExecutable() -> String? {
    guard let executable = HostEnvironment.current.process.executablePath, let slash = executable.lastIndex(of: "/") else { return nil }
    let folder = String(executable[..<slash])
    if folder.hasSuffix("/Contents/MacOS") {
      return String(folder.dropLast("/Contents/MacOS".count))
    }
    return folder.isEmpty ? "/" : folder
  }
}
