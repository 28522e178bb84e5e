public import FoundationEssentials
public import PropertyLists
public import StasisSystem
import Synchronization

/// A bundle folder: an app, framework or plug-in with its Info.plist, executable and resources —
/// Stasis's counterpart of `NSBundle` / `CFBundle`.
///
/// Opening a bundle reads its Info.plist. The first resource or string lookup lists the resources
/// folder once, recursively, into an in-memory index; after that no lookup touches the
/// disk until ``invalidateResourceCache()``. String tables are read on first use and kept.
///
/// ```swift
/// let bundle = try Bundle(path: "/opt/MyApp.app", environment: .languages(["fr-CA", "en"]))
/// bundle.path(forResource: "Icon", ofType: "png")           // fr.lproj/Icon.png, or the plain one
/// bundle.localizedString(forKey: "Hello", value: nil, table: nil)
/// ```
///
/// Instances are thread-safe; the caches sit behind one lock.
public final class Bundle: Sendable, CustomStringConvertible {
  /// How the bundle folder is laid out, in CF's detection order (CFBundle "versions").
  public enum Layout: Int, Sendable, Hashable {
    /// CF version 0: a `Resources/` folder at the top (macOS frameworks).
    case resourcesFolder = 0
    /// CF version 1: the obsolete `Support Files/` layout.
    case supportFiles = 1
    /// CF version 2: `Contents/` with `Info.plist`, `MacOS/` and `Resources/` (macOS apps).
    case contents = 2
    /// CF version 3: everything at the top (iOS apps and frameworks).
    case flat = 3
  }

  /// The bundle folder (`NSBundle.bundlePath`).
  public let bundlePath: String
  /// The layout detected when the bundle was opened.
  public let layout: Layout
  /// The folder holding the bundle's resources (`NSBundle.resourcePath`).
  public let resourcePath: String
  /// The environment the bundle was opened with (device, scale, languages).
  public let environment: HostEnvironment
  /// The main bundle whose chosen localizations this bundle follows (see
  /// ``preferredLocalizations``), or `nil` for none.
  let mainBundle: (@Sendable () -> Bundle?)?
  /// The Info.plist after Apple's key overrides (`NSBundle.infoDictionary`): for a base key `K`
  /// the first present of `K-<platform>~<product>`, `K~<product>`, `K-<platform>` replaces `K`,
  /// and suffixed keys are removed. `CFBundleIdentifier` and `CFBundleExecutable` are never
  /// overridden. Empty when the bundle has no Info.plist.
  public let infoDictionary: PropertyListDictionary
  /// The path of the Info.plist that was read, if any.
  public let infoPlistPath: String?

  let modifiers: DeviceModifiers
  let limits: ResourceScanLimits
  let state = Mutex(BundleState())

  /// Opens the bundle at `path` (`Bundle(path:)` / `CFBundleCreate`).
  ///
  /// - Parameters:
  ///   - path: the bundle's folder; trailing slashes are ignored.
  ///   - environment: the device, scale and languages to look resources up for; `nil` (the
  ///     default) is `HostEnvironment.current`.
  ///   - mainBundle: the program's main bundle, whose chosen localizations a framework or
  ///     plug-in follows (``preferredLocalizations``). By default ``Bundle/main`` when
  ///     `environment` is `nil`, and none when an environment is given.
  ///   - limits: how many files and how deep the resource listing may go.
  /// - Throws: `BundleError.Code.notABundle` if `path` is not a folder;
  ///   `BundleError.Code.invalidInfoPlist` if the Info.plist cannot be read or its root is not
  ///   a dictionary (CF treats the bundle as having no Info.plist; Stasis reports it).
  public init(
    path: String, environment: HostEnvironment? = nil, mainBundle: (@Sendable () -> Bundle?)? = nil,
    limits: ResourceScanLimits = .default
  ) throws(BundleError) {
    var trimmed = path
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    let files = (environment ?? .current).fileSystem
    guard files.isFolder(trimmed) else {
      let exists = files.exists(trimmed)
      throw BundleError(.notABundle, detail: exists ? "not a folder" : "no such file or folder", path: path)
    }
    bundlePath = trimmed
    if let mainBundle {
      self.mainBundle = mainBundle
    } else if environment == nil {
      self.mainBundle = { Bundle.main }
    } else {
      self.mainBundle = nil
    }
    let environment = environment ?? .current
    self.environment = environment
    self.limits = limits
    modifiers = DeviceModifiers(environment.device)
    let layout = Bundle.detectLayout(trimmed, fileSystem: files)
    self.layout = layout
    switch layout {
    case .resourcesFolder: resourcePath = trimmed + "/Resources"
    case .supportFiles: resourcePath = trimmed + "/Support Files/Resources"
    case .contents: resourcePath = trimmed + "/Contents/Resources"
    case .flat: resourcePath = trimmed
    }
    let infoFolder: String
    switch layout {
    case .resourcesFolder: infoFolder = trimmed + "/Resources"
    case .supportFiles: infoFolder = trimmed + "/Support Files"
    case .contents: infoFolder = trimmed + "/Contents"
    case .flat: infoFolder = trimmed
    }
    // CF reads a platform Info file (`Info-macos.plist`) before `Info.plist`.
    var found: String?
    for candidate in [infoFolder + "/Info-" + environment.device.platform + ".plist", infoFolder + "/Info.plist"]
    where files.isFile(candidate) {
      found = candidate
      break
    }
    infoPlistPath = found
    if let found {
      let bytes = try files.bundleFileContents(of: found, maximumByteCount: 64 << 20)
      let value: PropertyListValue
      do {
        value = try PropertyListValue(decoding: bytes)
      } catch {
        throw BundleError(.invalidInfoPlist, detail: "Info.plist is not a property list", path: found, underlying: error)
      }
      guard let dictionary = value.dictionaryValue else {
        throw BundleError(
          .invalidInfoPlist, detail: "Info.plist root is \(value.typeName), expected a dictionary", path: found)
      }
      infoDictionary = InfoDictionaryOverrides.apply(to: dictionary, modifiers: modifiers)
    } else {
      infoDictionary = PropertyListDictionary()
    }
  }

  /// A bundle with no Info.plist and no resources, for a main bundle whose folder cannot be opened.
  init(emptyAt path: String, environment: HostEnvironment) {
    bundlePath = path
    mainBundle = nil
    layout = .flat
    resourcePath = path
    self.environment = environment
    limits = .default
    modifiers = DeviceModifiers(environment.device)
    infoDictionary = PropertyListDictionary()
    infoPlistPath = nil
    state.withLock { $0.index = ResourceIndex(folders: [:], localizationFolders: [], entryCount: 0) }
  }

  /// Opens the bundle at `url` (`Bundle(url:)`).
  public convenience init(
    url: URL, environment: HostEnvironment? = nil, mainBundle: (@Sendable () -> Bundle?)? = nil,
    limits: ResourceScanLimits = .default
  ) throws(BundleError) {
    try self.init(path: url.path, environment: environment, mainBundle: mainBundle, limits: limits)
  }

  /// CF's order: `Resources/` (version 0), `Support Files/` (1), `Contents/` (2), else flat (3).
  static func detectLayout(_ path: String, fileSystem: any FileSystem) -> Layout {
    if fileSystem.isFolder(path + "/Resources") { return .resourcesFolder }
    if fileSystem.isFolder(path + "/Support Files") { return .supportFiles }
    if fileSystem.isFolder(path + "/Contents") { return .contents }
    return .flat
  }

  /// The bundle folder as a file URL (`NSBundle.bundleURL`).
  public var bundleURL: URL { URL(fileURLWithPath: bundlePath, isDirectory: true) }
  /// The resources folder as a file URL (`NSBundle.resourceURL`).
  public var resourceURL: URL { URL(fileURLWithPath: resourcePath, isDirectory: true) }

  /// `CFBundleIdentifier` (`NSBundle.bundleIdentifier`).
  public var bundleIdentifier: String? { infoDictionary["CFBundleIdentifier"]?.stringValue }
  /// `CFBundleExecutable`, the executable's file name.
  public var executableName: String? { infoDictionary["CFBundleExecutable"]?.stringValue }
  /// `CFBundleDevelopmentRegion` (`NSBundle.developmentLocalization`), the last-resort localization.
  public var developmentLocalization: String? { infoDictionary["CFBundleDevelopmentRegion"]?.stringValue }

  /// The executable's path (`NSBundle.executablePath`): `Contents/MacOS/<name>` in the Contents
  /// layout, `<bundle>/<name>` otherwise; `nil` when Info.plist names none or the file is missing.
  public var executablePath: String? {
    guard let name = executableName, !name.isEmpty else { return nil }
    let path = layout == .contents ? bundlePath + "/Contents/MacOS/" + name : bundlePath + "/" + name
    return environment.fileSystem.isFile(path) ? path : nil
  }

  /// The value for `key`, localized through `InfoPlist.strings` when the chosen localization
  /// has one, else from ``infoDictionary`` (`NSBundle.object(forInfoDictionaryKey:)`).
  public func object(forInfoDictionaryKey key: String) -> PropertyListValue? {
    if let localized = localizedInfoStrings()[key] { return .string(localized) }
    return infoDictionary[key]
  }

  /// `InfoPlist.strings` of the chosen localization, with key overrides applied
  /// (`NSBundle.localizedInfoDictionary`, strings only).
  public var localizedInfoDictionary: [String: String] { localizedInfoStrings() }

  public var description: String { "Bundle <\(bundlePath)> (\(layout))" }
}

/// The mutable part of a bundle, behind its lock.
struct BundleState {
  var index: ResourceIndex?
  var indexError: BundleError?
  /// The main-bundle generation (``Bundle/mainBundleGeneration``) the localization caches below
  /// were made under.
  var mainGeneration = 0
  var searchList: [String]?
  /// Relative subfolder → the folders to search, in order.
  var searchFolders: [String: [ResourceIndex.Folder]] = [:]
  var tables: [String: StringTable] = [:]
  /// `Localizable` for the preferred localization, the table most lookups use.
  var defaultTable: StringTable?
  var localizedInfo: [String: String]?
  /// Resource path → URL, made on first request (building a URL costs far more than the lookup).
  var urls: [String: URL] = [:]

  /// Drops what depends on the localization choice (which follows the main bundle): the search
  /// list, the search folders, the string tables and the localized Info.plist strings. The
  /// resource index and the URLs stay.
  mutating func dropLocalizationChoice(madeUnder generation: Int) {
    mainGeneration = generation
    searchList = nil
    searchFolders = [:]
    tables = [:]
    defaultTable = nil
    localizedInfo = nil
  }
}
