import Foundation
public import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `defaults` tool's reads and writes through the host environment's streams.
extension HostEnvironment {
  /// Standard input, up to `byteLimit` bytes (`defaults import <domain> -`); what could be read
  /// before a failure.
  func readStandardInput(byteLimit: Int) -> [UInt8] {
    (try? standardStreams.readInput(byteLimit)) ?? []
  }

  /// Writes to standard output; a closed pipe or full disk is not reported (the write's error is
  /// dropped, as it always has been).
  func writeStandardOutput(_ bytes: [UInt8]) { try? standardStreams.writeOutput(bytes) }
  func writeStandardError(_ bytes: [UInt8]) { try? standardStreams.writeError(bytes) }
}

extension DefaultsTool {
  /// The `NSLog` header Apple's `defaults` puts before each message on standard error:
  /// `2016-05-18 09:28:12.188 defaults[4266:54118] ` — the environment's clock in local time, then
  /// its process id, and the main thread's id, which on Linux is the process id.
  public static func logHeader(in environment: HostEnvironment) -> String {
    let now = environment.clock.now().timeIntervalSince1970
    var seconds = time_t(now.rounded(.down))
    let milliseconds = Int32(((now - now.rounded(.down)) * 1000).rounded(.down))
    var parts = tm()
    localtime_r(&seconds, &parts)
    func padded(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let date = "\(parts.tm_year + 1900)-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
    let time = "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(milliseconds, 3))"
    let process = environment.process.id
    return "\(date) \(time) defaults[\(process):\(process)] "
  }
}
