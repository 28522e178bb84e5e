import FoundationEssentials
internal import AtomicFiles

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

  /// Replaces the file at `path` with `bytes` atomically through ``AtomicFile/write(_:toFile:permissions:)``,
  /// the package's one atomic-write primitive: readers see the complete old file or the complete
  /// new one; on any failure the old file is untouched and no temporary file remains.
  package static func writeAtomically(_ bytes: UnsafeRawBufferPointer, toFile path: String) throws(PropertyListError) {
    do {
      try AtomicFile.write(bytes, toFile: path)
    } catch {
      throw PropertyListError(.fileSystem, format: nil, detail: error.detail + (error.systemError.map { ": " + String(cString: strerror($0)) } ?? ""), path: path)
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
