/// Everything plutil needs from the outside world: files, standard input, output and error.
///
/// ``SystemEnvironment`` is the real one. Tests pass their own, so that every command and error
/// path can be exercised without touching the disk or spawning a process.
public protocol PlistToolEnvironment {
  /// The whole contents of the file at `path`.
  ///
  /// - Throws: ``PlistToolError/Code/fileSystem`` when the file cannot be read, is a directory,
  ///   or is larger than `byteLimit` bytes.
  func readFile(atPath path: String, byteLimit: Int) throws(PlistToolError) -> [UInt8]

  /// Everything on standard input, up to `byteLimit` bytes.
  func readStandardInput(byteLimit: Int) throws(PlistToolError) -> [UInt8]

  /// Replaces the file at `path` with `bytes` so that a reader sees either the old contents or
  /// the new ones, never a mixture (temporary file in the same folder, `fsync`, `rename`).
  func writeFileAtomically(_ bytes: [UInt8], toPath path: String) throws(PlistToolError)

  func writeStandardOutput(_ bytes: [UInt8])
  func writeStandardError(_ bytes: [UInt8])
}

extension PlistToolEnvironment {
  func writeStandardOutput(_ text: String) { writeStandardOutput(Array(text.utf8)) }
  func writeStandardError(_ text: String) { writeStandardError(Array(text.utf8)) }
}
