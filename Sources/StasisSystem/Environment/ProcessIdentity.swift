internal import FoundationEssentials

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Who a process is: the facts `NSProcessInfo` reports and that `defaults` log headers, the
/// argument domain, the main bundle and restoration metadata need.
public struct ProcessIdentity: Sendable, Hashable {
  /// The process id (`getpid()`, `NSProcessInfo.processIdentifier`).
  public var id: Int32
  /// The program's name (`NSProcessInfo.processName`): the last part of the first argument.
  public var name: String
  /// The command-line arguments, the program first (`CommandLine.arguments`).
  public var arguments: [String]
  /// The running executable's path (`/proc/self/exe` on Linux), when known.
  public var executablePath: String?

  public init(id: Int32, name: String, arguments: [String], executablePath: String?) {
    self.id = id
    self.name = name
    self.arguments = arguments
    self.executablePath = executablePath
  }

  /// This process.
  public static var current: ProcessIdentity {
    let arguments = CommandLine.arguments
    let program = arguments.first ?? ""
    let name = program.split(separator: "/").last.map(String.init) ?? program
    return ProcessIdentity(id: getpid(), name: name, arguments: arguments, executablePath: runningExecutablePath())
  }

  /// `/proc/self/exe`, resolved, or `nil`.
  static func runningExecutablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4097)
    let count = readlink("/proc/self/exe", &buffer, 4096)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
