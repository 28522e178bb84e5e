import PropertyLists

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The real world: files through `PropertyLists`' file access (whole-file reads, atomic
/// writes), and the process's standard streams.
public struct SystemEnvironment: PlistToolEnvironment {
  public init() {}

  public func readFile(atPath path: String, byteLimit: Int) throws(PlistToolError) -> [UInt8] {
    do {
      return try FileAccess.withContents(ofFile: path, limit: byteLimit) { buffer in Array(buffer) }
    } catch {
      throw PlistToolError(.fileSystem, "(\(error.detail))")
    }
  }

  public func readStandardInput(byteLimit: Int) throws(PlistToolError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw PlistToolError(.fileSystem, "(cannot read standard input: \(String(cString: strerror(errno))))")
      }
      if count == 0 { return bytes }
      guard bytes.count + count <= byteLimit else {
        throw PlistToolError(.fileSystem, "(standard input is larger than the limit of \(byteLimit) bytes)")
      }
      bytes.append(contentsOf: chunk[..<count])
    }
  }

  public func writeFileAtomically(_ bytes: [UInt8], toPath path: String) throws(PlistToolError) {
    let outcome: Result<Void, PropertyListError> = bytes.withUnsafeBytes { buffer in
      Result { () throws(PropertyListError) in try FileAccess.writeAtomically(buffer, toFile: path) }
    }
    if case .failure(let error) = outcome {
      throw PlistToolError(.fileSystem, "(\(error.detail))")
    }
  }

  public func writeStandardOutput(_ bytes: [UInt8]) { Self.writeAll(bytes, to: 1) }
  public func writeStandardError(_ bytes: [UInt8]) { Self.writeAll(bytes, to: 2) }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { buffer in
      var written = 0
      while written < buffer.count {
        let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if count < 0 {
          if errno == EINTR { continue }
          return  // a closed pipe or full disk: nothing useful left to do with this output
        }
        written += count
      }
    }
  }
}
