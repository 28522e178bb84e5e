package import FoundationEssentials
public import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and atomic whole-file writes through the environment's `FileSystem` (the
/// package's bottom module), with every failure turned into a ``PropertyListError`` with the path and the
/// system's reason.
///
/// Files are read into memory rather than mapped: a mapped file that another process truncates
/// while it is being parsed raises SIGBUS, and no input may crash a reader.
package enum FileAccess {
  /// Reads the whole file at `path` (at most `maximumByteCount` bytes) through
  /// `fileSystem`'s `FileSystem/read(contentsOfFile:limit:)`, the package's one whole-file
  /// read, and passes its bytes to `body`.
  package static func withContents<R>(
    ofFile path: String, maximumByteCount: Int, fileSystem: any FileSystem,
    _ body: (UnsafeRawBufferPointer) throws(PropertyListError) -> R
  ) throws(PropertyListError) -> R {
    let data: Data
    do {
      data = try fileSystem.read(contentsOfFile: path, limit: maximumByteCount)
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

  /// Replaces the file at `path` with `data` atomically through `fileSystem`'s
  /// `FileSystem/write(_:toFile:permissions:)`, the package's one atomic-write primitive:
  /// readers see the complete old file or the complete new one; on any failure the old file is
  /// untouched and no temporary file remains.
  package static func writeAtomically(_ data: Data, toFile path: String, fileSystem: any FileSystem) throws(PropertyListError) {
    do {
      try fileSystem.write(data, toFile: path)
    } catch {
      throw PropertyListError(.fileSystem, format: nil, detail: detail(of: error), path: path, underlying: error)
    }
  }

  /// An `AtomicFileError`'s text as this module words file errors: its detail, then the system's
  /// reason.
  static func detail(of error: AtomicFileError) -> String {
    error.detail + (error.systemError.map { ": " + String(cString: strerror($0)) } ?? "")
  }

}

extension PropertyListValue {
  /// Reads the property list in the file at `path`, detecting its format unless `format` is given
  /// (`NSDictionary(contentsOfFile:)`, `PropertyListSerialization.propertyList(from:…)`).
  ///
  /// The file is read through `environment`'s file system.
  ///
  /// - Throws: ``PropertyListError`` whose ``PropertyListError/path`` names the file.
  public init(
    contentsOfFile path: String, format: PropertyListFormat? = nil, options: PropertyListReadingOptions = .default,
    environment: HostEnvironment = .current
  ) throws(PropertyListError) {
    self = try Self.read(contentsOfFile: path, format: format, options: options, environment: environment).value
  }

  /// Reads the file at `path` and reports the format it was in.
  public static func read(
    contentsOfFile path: String, format: PropertyListFormat? = nil, options: PropertyListReadingOptions = .default,
    environment: HostEnvironment = .current
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    var policy = format.map(PropertyListReadingPolicy.only) ?? .automatic
    policy.limits = options
    return try read(contentsOfFile: path, policy: policy, environment: environment)
  }

  /// Reads the file at `path` as `policy` says (at most `policy.limits.maximumByteCount` bytes)
  /// and reports the format it was read in.
  ///
  /// - Throws: ``PropertyListError`` whose ``PropertyListError/path`` names the file.
  public static func read(
    contentsOfFile path: String, policy: PropertyListReadingPolicy, environment: HostEnvironment = .current
  ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
    try FileAccess.withContents(
      ofFile: path, maximumByteCount: policy.limits.maximumByteCount, fileSystem: environment.fileSystem
    ) {
      (buffer) throws(PropertyListError) in
      try read(buffer, policy: policy)
    }
  }

  /// Writes the value to `path` in `format`, atomically (`writeToFile:atomically:YES`): the old
  /// file stays intact until the complete new one replaces it. The file is written through
  /// `environment`'s file system.
  public func write(
    toFile path: String, format: PropertyListFormat, options: PropertyListWritingOptions = .default,
    environment: HostEnvironment = .current
  ) throws(PropertyListError) {
    let data = try encoded(as: format, options: options)
    try FileAccess.writeAtomically(data, toFile: path, fileSystem: environment.fileSystem)
  }
}
