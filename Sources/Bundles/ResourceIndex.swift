import StasisSystem
/// Bounds on the one directory scan a bundle makes (a bundle folder is input too: a symlink loop
/// or a million files must not hang or exhaust memory).
public struct ResourceScanLimits: Sendable, Hashable {
  /// Entries (files and folders) indexed in all, across all folders. Default 1,000,000.
  public var maximumEntryCount: Int
  /// Folder nesting below the resources folder. Default 32.
  public var maximumDepth: Int

  public init(maximumEntryCount: Int = 1_000_000, maximumDepth: Int = 32) {
    self.maximumEntryCount = maximumEntryCount
    self.maximumDepth = maximumDepth
  }

  public static let `default` = ResourceScanLimits()
}

/// The listing of a bundle's resources folder, read once (one recursive scan) into one
/// dictionary per folder keyed by resource name.
///
/// A file with a device suffix for this device (`Icon~ipad.png` on an iPad, `Icon-linux.png` on
/// Linux) is filed under its plain name (`Icon.png`) with a rank, so that a lookup is one
/// dictionary probe per folder: the best-ranked variant is already chosen. Its own full name stays
/// findable too. Lookups never touch the disk.
final class ResourceIndex: Sendable {
  struct Entry: Sendable {
    /// The full path of the file or folder.
    let path: String
    /// 0 platform + product, 1 product, 2 platform, 3 plain.
    let rank: UInt8
    /// Whether the entry is a folder (so that URLs end in `/` without asking the disk again).
    let isFolder: Bool
  }

  final class Folder: Sendable {
    /// Resource name (with extension, device suffix removed) → best entry.
    let entries: [String: Entry]
    /// The names a listing shows (no aliases of device-specific files), in directory order
    /// (listings sort their matches; sorting every folder here would slow the first lookup).
    let listedNames: [String]

    init(entries: [String: Entry], listedNames: [String]) {
      self.entries = entries
      self.listedNames = listedNames
    }
  }

  /// Relative folder path (`""` for the resources folder, `en.lproj`, `images/icons`) → folder.
  let folders: [String: Folder]
  /// The names of the `.lproj` folders at the top of the resources folder, without extension.
  let localizationFolders: [String]
  /// How many entries the scan found.
  let entryCount: Int

  init(folders: [String: Folder], localizationFolders: [String], entryCount: Int) {
    self.folders = folders
    self.localizationFolders = localizationFolders
    self.entryCount = entryCount
  }

  /// Scans `root` and everything under it.
  ///
  /// - Throws: `BundleError.Code.limitExceeded` past `limits`. A missing root gives an empty index.
  static func scan(
    root: String, modifiers: DeviceModifiers, limits: ResourceScanLimits, fileSystem: any FileSystem
  ) throws(BundleError) -> ResourceIndex {
    var builder = Builder(modifiers: modifiers, limits: limits, fileSystem: fileSystem)
    try builder.scanFolder(absolute: root, relative: "", depth: 0)
    let lprojs = builder.localizationFolders
    var folders: [String: Folder] = [:]
    folders.reserveCapacity(builder.folders.count)
    for (relative, pending) in builder.folders {
      folders[relative] = Folder(entries: pending.entries, listedNames: pending.names)
    }
    return ResourceIndex(folders: folders, localizationFolders: lprojs.sorted(), entryCount: builder.entryCount)
  }

  private struct PendingFolder {
    var entries: [String: Entry] = [:]
    var names: [String] = []
  }

  private struct Builder {
    let modifiers: DeviceModifiers
    let limits: ResourceScanLimits
    let fileSystem: any FileSystem
    var folders: [String: PendingFolder] = [:]
    var entryCount = 0
    var localizationFolders: [String] = []

    init(modifiers: DeviceModifiers, limits: ResourceScanLimits, fileSystem: any FileSystem) {
      self.modifiers = modifiers
      self.limits = limits
      self.fileSystem = fileSystem
    }

    mutating func scanFolder(absolute: String, relative: String, depth: Int) throws(BundleError) {
      // Names first, so that the folder's dictionary is sized once.
      var listing: [(name: String, isFolder: Bool)] = []
      var subfolders: [String] = []
      // A folder that cannot be listed has no entries.
      for entry in (try? fileSystem.entries(inFolder: absolute)) ?? [] {
        let (name, isFolder) = (entry.name, entry.kind == .folder)
        entryCount += 1
        if entryCount > limits.maximumEntryCount {
          throw BundleError(
            .limitExceeded, detail: "more than \(limits.maximumEntryCount) files and folders in the bundle", path: absolute)
        }
        listing.append((name, isFolder))
        if isFolder {
          subfolders.append(name)
          if depth == 0, let localization = Bundle.localizationName(ofFolder: name) { localizationFolders.append(localization) }
        }
      }
      var folder = PendingFolder()
      folder.entries.reserveCapacity(listing.count)
      folder.names.reserveCapacity(listing.count)
      let prefix = absolute.hasSuffix("/") ? absolute : absolute + "/"
      for (name, isFolder) in listing {
        add(name: name, path: prefix + name, isFolder: isFolder, to: &folder)
      }
      folders[relative] = folder
      guard depth < limits.maximumDepth else {
        if !subfolders.isEmpty {
          throw BundleError(
            .limitExceeded, detail: "folders nested deeper than \(limits.maximumDepth) levels", path: absolute)
        }
        return
      }
      for name in subfolders {
        let childRelative = relative.isEmpty ? name : relative + "/" + name
        let childAbsolute = absolute.hasSuffix("/") ? absolute + name : absolute + "/" + name
        try scanFolder(absolute: childAbsolute, relative: childRelative, depth: depth + 1)
      }
    }

    /// Files a name under itself, or — with a suffix for this device — under its plain name too.
    func add(name: String, path: String, isFolder: Bool, to folder: inout PendingFolder) {
      let stem: Substring
      let fileExtension: Substring
      if let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex {
        stem = name[..<dot]
        fileExtension = name[dot...]
      } else {
        stem = name[...]
        fileExtension = ""
      }
      switch modifiers.match(stem) {
      case .plain:
        insert(name, Entry(path: path, rank: 3, isFolder: isFolder), listed: true, into: &folder)
      case .variant(let base, let rank):
        insert(String(base) + fileExtension, Entry(path: path, rank: rank, isFolder: isFolder), listed: true, into: &folder)
        insert(name, Entry(path: path, rank: 3, isFolder: isFolder), listed: false, into: &folder)
      case .otherDevice:
        insert(name, Entry(path: path, rank: 3, isFolder: isFolder), listed: false, into: &folder)
      }
    }

    func insert(_ key: String, _ entry: Entry, listed: Bool, into folder: inout PendingFolder) {
      if let existing = folder.entries[key] {
        if entry.rank < existing.rank { folder.entries[key] = entry }
        return
      }
      folder.entries[key] = entry
      if listed { folder.names.append(key) }
    }
  }
}
