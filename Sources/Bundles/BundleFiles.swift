import StasisSystem
internal import PropertyLists

/// What the bundle code asks of the environment's file system beyond its plain calls.
extension FileSystem {
  /// The `.lproj` folders at the top level of `folder`, without the extension, sorted (what the
  /// resource index would call its localization folders), from one listing of that folder alone.
  /// At most `limit` entries are looked at; a folder that cannot be listed has none.
  func localizationFolderNames(in folder: String, limit: Int = 100_000) -> [String] {
    let listed = (try? entries(inFolder: folder)) ?? []
    return listed.prefix(limit).compactMap { $0.kind == .folder ? Bundle.localizationName(ofFolder: $0.name) : nil }.sorted()
  }

  /// The whole file at `path`, at most `maximumByteCount` bytes, read through the property-list
  /// module's `FileAccess`, so that its errors read as the property-list module words them.
  func bundleFileContents(of path: String, maximumByteCount: Int) throws(BundleError) -> [UInt8] {
    do {
      return try FileAccess.withContents(ofFile: path, maximumByteCount: maximumByteCount, fileSystem: self) {
        (buffer) throws(PropertyListError) in [UInt8](buffer)
      }
    } catch {
      throw BundleError(
        error.code == .limitExceeded ? .limitExceeded : .fileSystem, detail: error.detail, path: path, underlying: error)
    }
  }
}

extension Bundle {
  /// `fr` for a folder named `fr.lproj`, else `nil`.
  static func localizationName(ofFolder name: String) -> String? {
    guard name.utf8.count > 6, name.utf8.suffix(6).elementsEqual(".lproj".utf8) else { return nil }
    return String(name.dropLast(6))
  }
}
