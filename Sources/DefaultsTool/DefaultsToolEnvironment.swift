import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the `defaults` tool needs from the outside world, so tests can run it in-process.
public protocol DefaultsToolEnvironment {
  /// The process environment (`STASIS_CONTAINERS_ROOT`, `XDG_DATA_HOME`, `HOME`).
  var variables: [String: String] { get }
  /// The folder relative domain paths are resolved against.
  var currentDirectory: String { get }
  /// Standard input, up to `byteLimit` bytes (`defaults import <domain> -`).
  func readStandardInput(byteLimit: Int) -> [UInt8]
  func writeStandardOutput(_ bytes: [UInt8])
  func writeStandardError(_ bytes: [UInt8])
}

/// The real process: its environment, working folder and standard streams.
public struct SystemDefaultsEnvironment: DefaultsToolEnvironment {
  public init() {}

  public var variables: [String: String] { ProcessInfo.processInfo.environment }

  public var currentDirectory: String { FileManager.default.currentDirectoryPath }

  public func readStandardInput(byteLimit: Int) -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while result.count <= byteLimit {
      let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      result += buffer[0..<count]
    }
    return result
  }

  public func writeStandardOutput(_ bytes: [UInt8]) { writeAll(1, bytes) }
  public func writeStandardError(_ bytes: [UInt8]) { writeAll(2, bytes) }

  private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }
}
