public import FoundationEssentials
import Synchronization
public import StasisSystem

extension Bundle {
  /// The resource index, scanning the resources folder on first use.
  func resourceIndex() -> ResourceIndex {
    state.withLock { state in
      if let index = state.index { return index }
      let index: ResourceIndex
      let scanned = Result { () throws(BundleError) in
        try ResourceIndex.scan(root: resourcePath, modifiers: modifiers, limits: limits, fileSystem: environment.fileSystem)
      }
      switch scanned {
      case .success(let value): index = value
      case .failure(let error):
        state.indexError = error
        index = ResourceIndex(folders: [:], localizationFolders: [], entryCount: 0)
      }
      state.index = index
      return index
    }
  }

  /// Lists the resources folder now (instead of at the first lookup) and reports a failure:
  /// a folder over ``ResourceScanLimits`` leaves the bundle with no resources.
  ///
  /// - Throws: `BundleError.Code.limitExceeded`.
  public func loadResourceIndex() throws(BundleError) {
    _ = resourceIndex()
    if let error = state.withLock({ $0.indexError }) { throw error }
  }

  /// How many files and folders the resource index holds (listing the folder if not yet done).
  public var resourceCount: Int { resourceIndex().entryCount }

  /// `state` under its lock, after dropping the caches that depend on the localization choice if
  /// ``configureMainBundle(path:environment:)`` replaced the main bundle since they were made
  /// (a bundle that follows the main bundle's localizations would otherwise keep the old
  /// choice). One atomic load when nothing changed.
  func withLocalizedState<R>(_ body: (inout BundleState) -> R) -> R {
    let generation = Bundle.mainBundleGeneration
    return state.withLock { state in
      if state.mainGeneration != generation { state.dropLocalizationChoice(madeUnder: generation) }
      return body(&state)
    }
  }

  /// Forgets the resource listing, the localization choice and the string tables, so that the
  /// next lookup reads the disk again (files were added, or the user's languages changed).
  public func invalidateResourceCache() {
    state.withLock { $0 = BundleState() }
  }

  /// The folders a lookup searches, in CF's order: the resources folder (+ subfolder), the first
  /// localization's `.lproj`, `Base.lproj`, then the remaining localizations (ending with the
  /// development region). With `localization`, only the resources folder and that `.lproj`.
  func searchFolders(subdirectory: String, localization: String?) -> [ResourceIndex.Folder] {
    if localization == nil, let cached = withLocalizedState({ $0.searchFolders[subdirectory] }) { return cached }
    let index = resourceIndex()
    var result: [ResourceIndex.Folder] = []
    func add(_ relative: String) {
      let path = subdirectory.isEmpty ? relative : (relative.isEmpty ? subdirectory : relative + "/" + subdirectory)
      if let folder = index.folders[path], !result.contains(where: { $0 === folder }) { result.append(folder) }
    }
    add("")
    if let localization {
      add(localization + ".lproj")
      return result
    }
    let list = localizationSearchList
    if let first = list.first { add(first + ".lproj") }
    add("Base.lproj")
    for name in list.dropFirst() { add(name + ".lproj") }
    withLocalizedState { $0.searchFolders[subdirectory] = result }
    return result
  }

  /// Splits `images/icon` into subfolder `images` and name `icon`, joined to `subpath`.
  private static func normalize(name: String, subpath: String?) -> (name: String, subdirectory: String) {
    var subdirectory = subpath ?? ""
    while subdirectory.hasPrefix("/") { subdirectory.removeFirst() }
    while subdirectory.hasSuffix("/") { subdirectory.removeLast() }
    guard name.utf8.contains(UInt8(ascii: "/")), let slash = name.lastIndex(of: "/") else { return (name, subdirectory) }
    let folder = String(name[..<slash])
    let last = String(name[name.index(after: slash)...])
    return (last, subdirectory.isEmpty ? folder : subdirectory + "/" + folder)
  }

  private static func key(name: String, type: String?) -> String {
    guard var type, !type.isEmpty else { return name }
    if type.hasPrefix(".") { type.removeFirst() }
    return name + "." + type
  }

  func entry(forResource name: String, ofType type: String?, inDirectory subpath: String?, forLocalization localization: String?)
    -> ResourceIndex.Entry?
  {
    let (plainName, subdirectory) = Bundle.normalize(name: name, subpath: subpath)
    let key = Bundle.key(name: plainName, type: type)
    for folder in searchFolders(subdirectory: subdirectory, localization: localization) {
      if let entry = folder.entries[key] { return entry }
    }
    return nil
  }

  /// The path of a resource (`NSBundle.path(forResource:ofType:inDirectory:forLocalization:)`,
  /// `CFBundleCopyResourceURL`).
  ///
  /// Searches in lookup order and returns the first folder's file; within a folder a variant for
  /// this device (`name-linux.ext`, `name~ipad.ext` on an iPad) beats the plain name. `type`
  /// may be `nil` or empty when `name` carries its extension, and may start with a dot. With
  /// `name` `nil`, the first resource of the type is returned. Never touches the disk after the
  /// first lookup.
  ///
  /// - Complexity: O(*k*) dictionary probes, *k* the number of folders searched.
  public func path(
    forResource name: String?, ofType type: String?, inDirectory subpath: String? = nil,
    forLocalization localization: String? = nil
  ) -> String? {
    guard let name, !name.isEmpty else {
      return paths(forResourcesOfType: type, inDirectory: subpath, forLocalization: localization).first
    }
    return entry(forResource: name, ofType: type, inDirectory: subpath, forLocalization: localization)?.path
  }

  /// The URL of a resource (`NSBundle.url(forResource:withExtension:subdirectory:localization:)`);
  /// see ``path(forResource:ofType:inDirectory:forLocalization:)``.
  public func url(
    forResource name: String?, withExtension type: String?, subdirectory subpath: String? = nil,
    localization: String? = nil
  ) -> URL? {
    guard let name, !name.isEmpty else {
      return urls(forResourcesWithExtension: type, subdirectory: subpath, localization: localization).first
    }
    guard let entry = entry(forResource: name, ofType: type, inDirectory: subpath, forLocalization: localization) else {
      return nil
    }
    return url(for: entry)
  }

  /// The entry's URL, made once per bundle.
  func url(for entry: ResourceIndex.Entry) -> URL {
    if let cached = state.withLock({ $0.urls[entry.path] }) { return cached }
    let made = URL(fileURLWithPath: entry.path, isDirectory: entry.isFolder)
    state.withLock { $0.urls[entry.path] = made }
    return made
  }

  func entries(ofType type: String?, inDirectory subpath: String?, forLocalization localization: String?) -> [ResourceIndex.Entry] {
    let (_, subdirectory) = Bundle.normalize(name: "", subpath: subpath)
    var suffix = type ?? ""
    if suffix.hasPrefix(".") { suffix.removeFirst() }
    let wanted = suffix.isEmpty ? "" : "." + suffix
    var seen: Set<String> = []
    var result: [ResourceIndex.Entry] = []
    let wantedBytes = wanted.utf8
    for folder in searchFolders(subdirectory: subdirectory, localization: localization) {
      var matches: [String] = []
      for name in folder.listedNames
      where wanted.isEmpty || (name.utf8.count > wantedBytes.count && name.utf8.suffix(wantedBytes.count).elementsEqual(wantedBytes)) {
        matches.append(name)
      }
      for name in matches.sorted() {
        guard seen.insert(name).inserted, let entry = folder.entries[name] else { continue }
        result.append(entry)
      }
    }
    return result
  }

  /// Every resource of a type (`NSBundle.paths(forResourcesOfType:inDirectory:forLocalization:)`):
  /// one path per name, the first folder's in lookup order, names sorted within a folder, the
  /// device's variant in place of the plain file. `type` `nil` or empty lists everything.
  /// Files for another device of the family are not listed.
  public func paths(forResourcesOfType type: String?, inDirectory subpath: String? = nil, forLocalization localization: String? = nil)
    -> [String]
  {
    entries(ofType: type, inDirectory: subpath, forLocalization: localization).map(\.path)
  }

  /// The URLs of every resource of a type (`NSBundle.urls(forResourcesWithExtension:subdirectory:localization:)`).
  public func urls(forResourcesWithExtension type: String?, subdirectory subpath: String? = nil, localization: String? = nil)
    -> [URL]
  {
    entries(ofType: type, inDirectory: subpath, forLocalization: localization).map { url(for: $0) }
  }

  /// The scales an image lookup tries, best first: the display scale, then larger scales
  /// (shrinking a larger image looks better), then smaller ones down to 1×.
  func scaleOrder() -> [Int] {
    let preferred = min(max(environment.device.displayScale, 1), 3)
    var order = [preferred]
    for scale in stride(from: preferred + 1, through: 3, by: 1) { order.append(scale) }
    for scale in stride(from: preferred - 1, through: 1, by: -1) { order.append(scale) }
    return order
  }

  /// The path of an image the way `UIImage(named:in:)` finds it: names are
  /// `base[@Nx][-platform][~product].ext` (the scale before the device suffix,
  /// `button@2x~ipad.png`). The display scale's file wins, then larger scales, then smaller ones
  /// down to the plain 1× name; each scale is looked for across all folders (lookup order) before
  /// the next is tried. `type` `nil` takes the extension from `name`, else `png`.
  ///
  /// Apple does not document its exact cross-scale fallback order; this order is Stasis's
  /// choice.
  public func path(forImageResource name: String, ofType type: String? = nil, inDirectory subpath: String? = nil) -> String? {
    imageEntry(name, type, subpath)?.path
  }

  /// The image's URL; see ``path(forImageResource:ofType:inDirectory:)``.
  public func url(forImageResource name: String, withExtension type: String? = nil, subdirectory subpath: String? = nil) -> URL? {
    imageEntry(name, type, subpath).map { url(for: $0) }
  }

  private func imageEntry(_ name: String, _ type: String?, _ subpath: String?) -> ResourceIndex.Entry? {
    var base = name
    var fileExtension = type ?? ""
    if fileExtension.isEmpty {
      if let dot = name.lastIndex(of: "."), dot != name.startIndex {
        base = String(name[..<dot])
        fileExtension = String(name[name.index(after: dot)...])
      } else {
        fileExtension = "png"
      }
    }
    // A name that already states its scale is looked up as given.
    if base.hasSuffix("@2x") || base.hasSuffix("@3x") {
      return entry(forResource: base, ofType: fileExtension, inDirectory: subpath, forLocalization: nil)
    }
    for scale in scaleOrder() {
      let scaled = scale == 1 ? base : base + "@\(scale)x"
      if let found = entry(forResource: scaled, ofType: fileExtension, inDirectory: subpath, forLocalization: nil) {
        return found
      }
    }
    return nil
  }
}
