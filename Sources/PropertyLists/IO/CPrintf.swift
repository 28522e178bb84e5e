#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One double rendered by the C library's `snprintf`, for the package's modules that must print
/// numbers exactly as C does (`%.17g` in geometry strings, `%e`/`%f`/`%g`/`%a` in localized
/// formats), so that only this file imports the C library for it.
package enum CPrintf {
  /// `value` rendered by `specifier`, a printf conversion for one `double` (`%.17g`, `%+.3f`);
  /// the buffer grows to fit any precision. Empty if the C library reports an error.
  package static func format(_ value: Double, specifier: String) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: 128)
    func render() -> Int32 {
      buffer.withUnsafeMutableBufferPointer { pointer in
        withVaList([value]) { vsnprintf(pointer.baseAddress, pointer.count, specifier, $0) }
      }
    }
    var count = render()
    if count >= Int32(buffer.count) {
      buffer = [CChar](repeating: 0, count: Int(count) + 1)
      count = render()
    }
    guard count > 0 else { return [] }
    return buffer[..<min(Int(count), buffer.count - 1)].map { UInt8(bitPattern: $0) }
  }
}
