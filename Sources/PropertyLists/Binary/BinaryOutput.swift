import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The binary writer's output buffer: `malloc`ed, grown with `realloc` (which moves large blocks
/// by remapping pages rather than copying), and handed to `Data` without a copy.
struct BinaryOutput {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 64)
    guard let memory = malloc(self.capacity) else { fatalError("out of memory for \(self.capacity) bytes") }
    base = memory.assumingMemoryBound(to: UInt8.self)
  }

  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if capacity &- count < extra { grow(extra) }
  }

  @inline(never)
  private mutating func grow(_ extra: Int) {
    let wanted = Swift.max(capacity * 2, count + extra)
    guard let memory = realloc(base, wanted) else { fatalError("out of memory for \(wanted) bytes") }
    base = memory.assumingMemoryBound(to: UInt8.self)
    capacity = wanted
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count &+= 1
  }

  @inline(__always)
  mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    count &+= bytes.count
  }

  @inline(__always)
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    append(contentsOf: UnsafeRawBufferPointer(bytes))
  }

  mutating func append(contentsOf data: Data) {
    data.withUnsafeBytes { append(contentsOf: $0) }
  }

  mutating func append(contentsOf bytes: [UInt8]) {
    bytes.withUnsafeBytes { append(contentsOf: $0) }
  }

  /// Makes room for `byteCount` bytes written through the returned pointer.
  @inline(__always)
  mutating func extend(by byteCount: Int) -> UnsafeMutablePointer<UInt8> {
    reserve(byteCount)
    let start = base + count
    count &+= byteCount
    return start
  }

  /// The bytes as `Data`, which takes ownership of the buffer; the output must not be used again.
  consuming func takeData() -> Data {
    Data(bytesNoCopy: base, count: count, deallocator: .free)
  }

  /// The bytes copied into an array; frees the buffer.
  consuming func takeArray() -> [UInt8] {
    let result = [UInt8](UnsafeBufferPointer(start: base, count: count))
    free(base)
    return result
  }
}
