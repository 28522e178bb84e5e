internal import PropertyLists

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The few POSIX calls the module makes outside the resource scan.
enum FileSystem {
  static func isFolder(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  /// Whether anything (a file, folder, link target) exists at `path`.
  static func exists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  static func isFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// The `.lproj` folders at the top level of `folder`, without the extension, sorted (what the
  /// resource index would call its localization folders), from one listing of that folder alone.
  /// At most `limit` entries are looked at.
  static func localizationFolderNames(in folder: String, limit: Int = 100_000) -> [String] {
    var names: [String] = []
    var seen = 0
    forEachEntry(in: folder) { (name, isFolder) in
      seen += 1
      if isFolder, let localization = localizationName(ofFolder: name) { names.append(localization) }
      return seen < limit
    }
    return names.sorted()
  }

  /// `fr` for a folder named `fr.lproj`, else `nil`.
  static func localizationName(ofFolder name: String) -> String? {
    guard name.utf8.count > 6, name.utf8.suffix(6).elementsEqual(".lproj".utf8) else { return nil }
    return String(name.dropLast(6))
  }

  /// Calls `body` with the name of each entry of `folder` (`.` and `..` left out) and whether it
  /// is a folder (symbolic links followed), until `body` returns `false`. A folder that cannot
  /// be opened has no entries.
  static func forEachEntry<Failure: Error>(
    in folder: String, _ body: (_ name: String, _ isFolder: Bool) throws(Failure) -> Bool
  ) throws(Failure) {
    guard let stream = opendir(folder) else { return }
    defer { closedir(stream) }
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    while let entry = readdir(stream) {
      let (name, type) = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: CChar.self, capacity: 256) { (String(cString: $0), entry.pointee.d_type) }
      }
      if name == "." || name == ".." { continue }
      var isFolder = Int32(type) == Int32(DT_DIR)
      if Int32(type) == Int32(DT_LNK) || Int32(type) == Int32(DT_UNKNOWN) { isFolder = Self.isFolder(prefix + name) }
      guard try body(name, isFolder) else { return }
    }
  }


  /// The whole file at `path`, at most `maximumByteCount` bytes, read through the property-list
  /// module's ``FileAccess`` (which reads through ``AtomicFile``).
  static func contents(of path: String, maximumByteCount: Int) throws(BundleError) -> [UInt8] {
    do {
      return try FileAccess.withContents(ofFile: path, maximumByteCount: maximumByteCount) { (buffer) throws(PropertyListError) in [UInt8](buffer) }
    } catch {
      throw BundleError(
        error.code == .limitExceeded ? .limitExceeded : .fileSystem, detail: error.detail, path: path, underlying: error)
    }
  }

  /// The running executable's path (`/proc/self/exe`), or `nil`.
  static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4097)
    let count = readlink("/proc/self/exe", &buffer, 4096)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
