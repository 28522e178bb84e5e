import FoundationEssentials
internal import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and atomic whole-file writes through ``AtomicFile`` (the package's bottom
/// module), with every failure turned into a ``PropertyListError`` with the path and the
/// system's reason.
///
/// Files are read into memory rather than mapped: a mapped file that another process truncates
/// while it is being parsed raises SIGBUS, and no input may crash a reader.
package enum FileAccess {
  /// Reads the whole file at `path` (at most `maximumByteCount` bytes) through
  /// ``AtomicFile/read(contentsOfFile:limit:)``, the package's one whole-file read, and passes its
  /// bytes to `body`.
  package static func withContents<R>(
    ofFile path: String, maximumByteCount: Int, _ body: (UnsafeRawBufferPointer) throws(PropertyListError) -> R
  ) throws(PropertyListError) -> R {
    let data: Data
    do {
      data = try AtomicFile.read(contentsOfFile: path, limit: maximumByteCount)
    } catch {
      throw PropertyListError(
        error.code == .tooLarge ? .limitExceeded : .fileSystem, format: nil, detail: detail(of: error), path: path,
        underlying: error)
    }
    let outcome = data.withUnsafeBytes { buffer in Result { () throws(PropertyListError) in try body(buffer) } }
    do {
      return try outcome.get()
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
      throw PropertyListError(.fileSystem, format: nil, detail: detail(of: error), path: path, underlying: error)
    }
  }

  /// An ``AtomicFileError``'s text as this module words file errors: its detail, then the system's
  /// reason.
  static func detail(of error: AtomicFileError) -> String {
    error.detail + (error.systemError.map { ": " + String(cString: strerror($0)) } ?? "")
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
    var policy = format.map(PropertyListReadingPolicy.only) ?? .automatic
    policy.limits = options
    return try read(contentsOfFile: path, policy: policy)
  }

  /// Reads the file at `path` as `policy` says (at most `policy.limits.maximumByteCount` bytes)
  /// and reports the format it was read in.
  ///
  /// - Throws: ``PropertyListError`` whose ``PropertyListError/path`` names the file.
  public static func read(
    contentsOfFile path: String, policy: PropertyListReadingPolicy
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    try FileAccess.withContents(ofFile: path, maximumByteCount: policy.limits.maximumByteCount) {
      (buffer) throws(PropertyListError) in
      try read(buffer, policy: policy)
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
