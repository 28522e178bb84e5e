import StasisSystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// plutil's reads and writes through the host environment's file system and streams, with each
/// failure worded as plutil prints it: `(<what failed>: <the system's reason>)`.
extension HostEnvironment {
  func readFile(atPath path: String, byteLimit: Int) throws(PlistToolError) -> [UInt8] {
    do {
      return [UInt8](try fileSystem.read(contentsOfFile: path, limit: byteLimit))
    } catch {
      throw PlistToolError(.fileSystem, Self.parenthesized(error), underlying: error)
    }
  }

  func readStandardInput(byteLimit: Int) throws(PlistToolError) -> [UInt8] {
    do {
      return try standardStreams.readInput(byteLimit)
    } catch {
      throw PlistToolError(.fileSystem, Self.parenthesized(error), underlying: error)
    }
  }

  /// Writes `bytes` to `path` atomically. plutil prints a failure after the input file's name;
  /// when the file written is another one (`-o`, `-e`, a header), the message names it:
  /// `in/Info.bplist: (out/Info.plist: cannot rename the temporary file over the destination: Read-only file system)`.
  func writeFileAtomically(_ bytes: [UInt8], toPath path: String, input: String? = nil) throws(PlistToolError) {
    do {
      try fileSystem.write(Data(bytes), toFile: path)
    } catch {
      throw PlistToolError(.fileSystem, Self.parenthesized(error, naming: input.map { $0 != path } ?? false ? path : nil), underlying: error)
    }
  }

  /// Writes to standard output; a closed pipe or full disk is not reported (the write's error is
  /// dropped, as it always has been).
  func writeStandardOutput(_ bytes: [UInt8]) { try? standardStreams.writeOutput(bytes) }
  func writeStandardError(_ bytes: [UInt8]) { try? standardStreams.writeError(bytes) }
  func writeStandardOutput(_ text: String) { writeStandardOutput(Array(text.utf8)) }
  func writeStandardError(_ text: String) { writeStandardError(Array(text.utf8)) }

  static func parenthesized(_ error: AtomicFileError, naming path: String? = nil) -> String {
    "(" + (path.map { $0 + ": " } ?? "") + error.detail + (error.systemError.map { ": " + String(cString: strerror($0)) } ?? "") + ")"
  }
}
