#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Standard input, output and error, as the tools use them. Writes report failure (a closed pipe,
/// a full disk behind a redirection) as `AtomicFileError` with the path `<stdout>`
/// or `<stderr>`, so a caller can decide what a lost line means.
public struct StandardStreams: Sendable {
  /// Everything on standard input, at most `limit` bytes.
  public var readInput: @Sendable (_ limit: Int) throws(AtomicFileError) -> [UInt8]
  /// Writes all of the bytes to standard output.
  public var writeOutput: @Sendable (_ bytes: [UInt8]) throws(AtomicFileError) -> Void
  /// Writes all of the bytes to standard error.
  public var writeError: @Sendable (_ bytes: [UInt8]) throws(AtomicFileError) -> Void

  public init(
    readInput: @escaping @Sendable (_ limit: Int) throws(AtomicFileError) -> [UInt8],
    writeOutput: @escaping @Sendable (_ bytes: [UInt8]) throws(AtomicFileError) -> Void,
    writeError: @escaping @Sendable (_ bytes: [UInt8]) throws(AtomicFileError) -> Void
  ) {
    self.readInput = readInput
    self.writeOutput = writeOutput
    self.writeError = writeError
  }

  /// File descriptors 0, 1 and 2 of this process.
  public static let system = StandardStreams(
    readInput: { (limit) throws(AtomicFileError) in try readAll(from: 0, limit: limit) },
    writeOutput: { (bytes) throws(AtomicFileError) in try writeAll(bytes, to: 1, name: "<stdout>") },
    writeError: { (bytes) throws(AtomicFileError) in try writeAll(bytes, to: 2, name: "<stderr>") })

  static func readAll(from descriptor: Int32, limit: Int) throws(AtomicFileError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw AtomicFileError(
          AtomicFileError.code(for: errno), path: "<stdin>", systemError: errno, detail: "cannot read standard input")
      }
      if count == 0 { return bytes }
      guard count <= limit - bytes.count else {
        throw AtomicFileError(.tooLarge, path: "<stdin>", detail: "standard input is larger than the limit of \(limit) bytes")
      }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: String) throws(AtomicFileError) {
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      var written = 0
      while written < buffer.count {
        let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if count < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        written += count
      }
    }
    if failure != 0 {
      throw AtomicFileError(AtomicFileError.code(for: failure), path: name, systemError: failure, detail: "cannot write")
    }
  }
}

extension StandardStreams {
  /// The system's words for `failure` (`No space left on device`), else its detail.
  static func reason(for failure: AtomicFileError) -> String {
    failure.systemError.map { String(cString: strerror($0)) } ?? failure.detail
  }

  /// Closes the process's standard output (descriptor 1) and reports a failure of the close
  /// itself, where some file systems report a write that failed late (`EIO`, `ENOSPC`,
  /// `EDQUOT`). A tool calls it once, after its last write; an already closed descriptor is not an
  /// error.
  public static func closeStandardOutput() throws(AtomicFileError) {
    guard close(1) != 0, errno != EBADF, errno != EINTR else { return }
    throw AtomicFileError(
      AtomicFileError.code(for: errno), path: "<stdout>", systemError: errno, detail: "cannot close standard output")
  }
}

extension StandardStreams {
  /// Ends a command-line tool's process with `status`, after closing standard output: a close
  /// that fails is reported on standard error as `<toolName>: cannot write to standard output: …`
  /// and the process exits with 1 instead.
  public static func exitClosingStandardOutput(_ status: Int32, toolName: String) -> Never {
    do throws(AtomicFileError) {
      try closeStandardOutput()
    } catch {
      try? system.writeError(Array((toolName + ": " + StandardOutputCheck.message(for: error) + "\n").utf8))
      exit(1)
    }
    exit(status)
  }
}
