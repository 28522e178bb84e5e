import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The writers' output buffer: `malloc`ed, grown with `realloc`, and handed to `Data` without a
/// copy.
///
/// A large buffer is its own mapping inside `malloc`, which `realloc` moves with `mremap` (glibc):
/// growing copies no bytes and backs only the pages written. It keeps the system's ordinary
/// 4 KB pages. Advising huge pages for large outputs (as this buffer once did) made a 190 MB
/// document's write 1.7 times slower on virtual machines that hand freed memory back to the host
/// (free page reporting): a fresh 2 MB page then cost four times as much per byte as fresh 4 KB
/// pages (about 500 MB/s against 2 GB/s, measured on the benchmark machine), and huge pages were
/// only quicker when a loop reused them within a second or two. Outputs of a few megabytes are
/// reused from `malloc`'s heap without any page fault when documents are written one after
/// another.
///
/// It is a struct passed `inout`, so the hot path has no exclusivity checks. Its owner ends it
/// exactly once: ``takeData()``, ``takeArray()`` or ``release()``.
struct ByteOutput {
  private(set) var base: UnsafeMutablePointer<UInt8>
  /// Bytes written so far; the format-specific appends advance it after writing into reserved room.
  var count = 0
  /// The bytes `base` points to.
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 64)
    guard let memory = malloc(self.capacity) else { fatalError("out of memory for \(self.capacity) bytes of output") }
    base = memory.assumingMemoryBound(to: UInt8.self)
  }

  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if capacity &- count < extra { grow(extra) }
  }

  @inline(never)
  private mutating func grow(_ extra: Int) {
    let wanted = Swift.max(capacity * 2, count + extra)
    guard let memory = realloc(base, wanted) else { fatalError("out of memory for \(wanted) bytes of output") }
    base = memory.assumingMemoryBound(to: UInt8.self)
    capacity = wanted
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count &+= 1
  }

  /// Four bytes into room already reserved.
  @inline(__always)
  mutating func appendUnchecked(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
    base[count] = a
    base[count + 1] = b
    base[count + 2] = c
    base[count + 3] = d
    count += 4
  }

  @inline(__always)
  mutating func append(_ literal: StaticString) {
    append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    (base + count).update(from: start, count: bytes.count)
    count &+= bytes.count
  }

  mutating func append(_ data: Data) {
    data.withUnsafeBytes { append($0.bindMemory(to: UInt8.self)) }
  }

  mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// Makes room for `byteCount` bytes written through the returned pointer.
  @inline(__always)
  mutating func extend(by byteCount: Int) -> UnsafeMutablePointer<UInt8> {
    reserve(byteCount)
    let start = base + count
    count &+= byteCount
    return start
  }

  /// The bytes the buffer holds.
  var reservedCount: Int { capacity }

  /// Forgets the bytes written, keeping the buffer.
  mutating func removeAll() { count = 0 }

  /// The bytes written so far, copied; the buffer stays the caller's to end.
  func bytes() -> [UInt8] {
    [UInt8](UnsafeBufferPointer(start: base, count: count))
  }

  /// Frees the buffer; the output must not be used afterwards.
  func release() {
    free(base)
  }

  /// The bytes as `Data`, which takes over the buffer. A buffer much larger than its bytes (sized
  /// from an estimate, or from an earlier and larger document) is first cut to them, so that the
  /// `Data` does not keep the unused end alive: `realloc` to a smaller size splits the block where
  /// it is (or shrinks its mapping), without copying.
  consuming func takeData() -> Data {
    let unused = capacity - count
    if unused > Swift.max(1 << 16, count / 4), let shrunk = realloc(base, Swift.max(count, 1)) {
      base = shrunk.assumingMemoryBound(to: UInt8.self)
      capacity = Swift.max(count, 1)
    }
    return Data(bytesNoCopy: base, count: count, deallocator: .free)
  }

  /// The bytes copied into an array; frees the buffer.
  consuming func takeArray() -> [UInt8] {
    let result = bytes()
    release()
    return result
  }
}
