#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFile {
  /// The names of the entries of `folder` (not `.` and `..`), in the order the file system lists
  /// them, or `nil` when it cannot be opened as a folder.
  public static func entryNames(inFolder folder: String) -> [String]? {
    guard let directory = opendir(folder) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}
