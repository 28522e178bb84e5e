import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and atomic whole-file writes, on POSIX calls so that every failure becomes a
/// ``PropertyListError`` with the path and the system's reason.
///
/// Files are read into memory rather than mapped: a mapped file that another process truncates
/// while it is being parsed raises SIGBUS, and no input may crash a reader.
package enum FileAccess {
  /// Reads the whole file at `path` (at most `limit` bytes) and passes its bytes to `body`.
  package static func withContents<R>(
    ofFile path: String, limit: Int, _ body: (UnsafeRawBufferPointer) throws(PropertyListError) -> R
  ) throws(PropertyListError) -> R {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw systemError("cannot open the file for reading", path: path) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw systemError("cannot read the file's status", path: path) }
    guard (status.st_mode & S_IFMT) == S_IFREG || (status.st_mode & S_IFMT) == S_IFIFO || (status.st_mode & S_IFMT) == S_IFCHR else {
      throw PropertyListError(.fileSystem, format: nil, detail: "not a regular file", path: path)
    }
    var capacity = Swift.max(Int(status.st_size), 0) + 1
    guard capacity - 1 <= limit else {
      throw PropertyListError(.limitExceeded, format: nil, detail: "file of \(capacity - 1) bytes is larger than the limit of \(limit)", path: path)
    }
    var storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    defer { storage.deallocate() }
    var filled = 0
    while true {
      if filled == capacity {
        // The file grew (or is a pipe): double the buffer, within the limit.
        guard capacity <= limit else {
          throw PropertyListError(.limitExceeded, format: nil, detail: "input is larger than the limit of \(limit) bytes", path: path)
        }
        let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
        larger.copyMemory(from: storage, byteCount: filled)
        storage.deallocate()
        storage = larger
        capacity *= 2
      }
      let count = read(descriptor, storage + filled, capacity - filled)
      if count < 0 {
        if errno == EINTR { continue }
        throw systemError("cannot read the file", path: path)
      }
      if count == 0 { break }
      filled += count
    }
    guard filled <= limit else {
      throw PropertyListError(.limitExceeded, format: nil, detail: "input is larger than the limit of \(limit) bytes", path: path)
    }
    do {
      return try body(UnsafeRawBufferPointer(start: storage, count: filled))
    } catch {
      throw error.path == nil ? error.inFile(path) : error
    }
  }

  /// Replaces the file at `path` with `bytes` atomically: the bytes go to a new file in the same
  /// folder, which is flushed to disk and renamed over `path`, and then the folder is flushed.
  /// Readers see the complete old file or the complete new one; on any failure the old file is
  /// untouched and the temporary file is removed. An existing file's permission bits are kept.
  package static func writeAtomically(_ bytes: UnsafeRawBufferPointer, toFile path: String) throws(PropertyListError) {
    let folder: String
    let name: String
    if let slash = path.lastIndex(of: "/") {
      folder = slash == path.startIndex ? "/" : String(path[..<slash])
      name = String(path[path.index(after: slash)...])
    } else {
      folder = "."
      name = path
    }
    guard !name.isEmpty else {
      throw PropertyListError(.fileSystem, format: nil, detail: "the path names a folder, not a file", path: path)
    }
    var template = Array((folder + "/." + name + ".stasis-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw systemError("cannot create a temporary file in \(folder)", path: path) }
    let temporaryPath = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    var committed = false
    defer {
      if !committed { unlink(temporaryPath) }
    }
    do {
      defer { close(descriptor) }
      var existing = stat()
      let mode: mode_t
      if stat(path, &existing) == 0 {
        mode = existing.st_mode & 0o7777
      } else {
        let mask = umask(0)
        umask(mask)
        mode = 0o666 & ~mask
      }
      guard fchmod(descriptor, mode) == 0 else { throw systemError("cannot set the new file's permissions", path: path) }
      var written = 0
      while written < bytes.count {
        let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
        if count < 0 {
          if errno == EINTR { continue }
          throw systemError("cannot write the file", path: path)
        }
        written += count
      }
      guard fsync(descriptor) == 0 else { throw systemError("cannot flush the file to disk", path: path) }
    }
    guard rename(temporaryPath, path) == 0 else { throw systemError("cannot move the new file into place", path: path) }
    committed = true
    let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      _ = fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }

  @inline(never)
  static func systemError(_ what: String, path: String) -> PropertyListError {
    let reason = String(cString: strerror(errno))
    return PropertyListError(.fileSystem, format: nil, detail: "\(what): \(reason)", path: path)
  }
}

extension PropertyListValue {
  /// Reads the property list in the file at `path`, detecting its format unless `format` is given
  /// (`NSDictionary(contentsOfFile:)`, `PropertyListSerialization.propertyList(from:…)`).
  ///
  /// - Throws: ``PropertyListError`` whose ``PropertyListError/path`` names the file.
  public init(
    contentsOfFile path: String, format: PropertyListFormat? = nil, options: PropertyListReadingOptions = .default
  ) throws(PropertyListError) {
    self = try Self.read(contentsOfFile: path, format: format, options: options).value
  }

  /// Reads the file at `path` and reports the format it was in.
  public static func read(
    contentsOfFile path: String, format: PropertyListFormat? = nil, options: PropertyListReadingOptions = .default
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    try FileAccess.withContents(ofFile: path, limit: options.maximumByteCount) { (buffer) throws(PropertyListError) in
      try read(buffer, format: format, options: options)
    }
  }

  /// Writes the value to `path` in `format`, atomically (`writeToFile:atomically:YES`): the old
  /// file stays intact until the complete new one replaces it.
  public func write(
    toFile path: String, format: PropertyListFormat, options: PropertyListWritingOptions = .default
  ) throws(PropertyListError) {
    let bytes = try encodedBytes(as: format, options: options)
    try withContiguousBytes(of: bytes) { (buffer) throws(PropertyListError) in
      try FileAccess.writeAtomically(buffer, toFile: path)
    }
  }
}
