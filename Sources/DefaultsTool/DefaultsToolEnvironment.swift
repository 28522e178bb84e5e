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
  /// The `NSLog` header Apple's `defaults` puts before each message on standard error:
  /// `2016-05-18 09:28:12.188 defaults[4266:54118] ` (local time, process and thread ids).
  func logHeader() -> String
}

extension DefaultsToolEnvironment {
  public func logHeader() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    localtime_r(&seconds, &parts)
    func padded(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let milliseconds = Int32(now.tv_nsec / 1_000_000)
    let date = "\(parts.tm_year + 1900)-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
    let time = "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(milliseconds, 3))"
    // The tool runs on its main thread, whose Linux thread id is the process id.
    let thread = Int(getpid())
    return "\(date) \(time) defaults[\(getpid()):\(thread)] "
  }
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
