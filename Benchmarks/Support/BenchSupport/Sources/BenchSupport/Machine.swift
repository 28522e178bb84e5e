// The machine and load lines at the top of every benchmark report.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The 1, 5 and 15-minute load averages from /proc/loadavg, space-separated.
public func loadAverage() -> String {
  (readWholeFile("/proc/loadavg") ?? "").split(separator: " ").prefix(3).joined(separator: " ")
}

/// What the report calls the machine: `uname -m`, the kernel release, the online processors and
/// the CPU model from /proc/cpuinfo.
public struct MachineDescription: Sendable {
  public let architecture: String
  public let kernelRelease: String
  public let processors: Int
  public let cpuModel: String

  public init() {
    var name = utsname()
    uname(&name)
    architecture = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    kernelRelease = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    processors = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    let modelLine = (readWholeFile("/proc/cpuinfo") ?? "").split(separator: "\n").first { $0.hasPrefix("model name") }
    cpuModel = modelLine.flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { String($0.drop { $0 == " " || $0 == "\t" }) } ?? "unknown CPU"
  }
}
