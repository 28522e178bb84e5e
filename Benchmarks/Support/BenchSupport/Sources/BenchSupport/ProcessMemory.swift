// Peak-memory readings for the benchmarks' memory children (Linux /proc).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A `Vm…:` line of /proc/self/status (`VmRSS`, `VmHWM`…), in bytes; `nil` if it cannot be read.
public func procStatus(_ key: String) -> Int? {
  guard let text = readWholeFile("/proc/self/status") else { return nil }
  for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
    return Int(String(line.dropFirst(key.count + 1).filter(\.isNumber))).map { $0 * 1024 }
  }
  return nil
}

/// Resets `VmHWM` to the current resident set (`/proc/self/clear_refs` ← 5, Linux ≥ 4.0).
/// Returns whether the kernel took it.
public func resetPeakResident() -> Bool {
  let descriptor = open("/proc/self/clear_refs", O_WRONLY)
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  return write(descriptor, "5", 1) == 1
}

/// A small text file read whole (files under /proc report no size, so it is read until the end).
func readWholeFile(_ path: String) -> String? {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
    bytes += chunk[..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}
