import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The direct binary writer's output (``ArchiveBinaryDirectWriter``): bytes in one `malloc`ed
/// block, grown with `realloc` (a block past glibc's `mmap` threshold is its own mapping, which
/// `realloc` moves with `mremap` without copying a byte), handed to `Data` without a copy.
///
/// Room is reserved before it is written (`extend(by:)`), and positions are offsets, never
/// pointers kept across a call that may grow the block: a container's references are filled in at
/// their offset after its members are numbered. Its owner ends it once: ``takeData()`` or
/// ``release()``.
struct ArchiveByteBuffer {
  private(set) var base: UnsafeMutablePointer<UInt8>
  /// Bytes written so far.
  private(set) var count = 0
  private var capacity: Int

  /// A buffer with room for `capacity` bytes before it grows (pages not written are never touched).
  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 64)
    guard let memory = malloc(self.capacity) else { fatalError("out of memory for \(self.capacity) bytes of archive") }
    base = memory.assumingMemoryBound(to: UInt8.self)
  }

  /// Makes room for `byteCount` more bytes and returns where they start; the caller writes them all.
  @inline(__always)
  mutating func extend(by byteCount: Int) -> UnsafeMutablePointer<UInt8> {
    if capacity &- count < byteCount { grow(byteCount) }
    let start = base + count
    count &+= byteCount
    return start
  }

  @inline(never)
  private mutating func grow(_ extra: Int) {
    let wanted = Swift.max(capacity * 2, count + extra)
    guard let memory = realloc(base, wanted) else { fatalError("out of memory for \(wanted) bytes of archive") }
    base = memory.assumingMemoryBound(to: UInt8.self)
    capacity = wanted
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    extend(by: 1).pointee = byte
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let start = bytes.baseAddress, bytes.count > 0 else { return }
    UnsafeMutableRawPointer(extend(by: bytes.count)).copyMemory(from: start, byteCount: bytes.count)
  }

  /// `value` big-endian in `width` bytes (1, 2, 4 or 8) at `offset`, inside what was written.
  @inline(__always)
  func store(_ value: UInt64, width: Int, at offset: Int) {
    let target = UnsafeMutableRawPointer(base + offset)
    switch width {
    case 1: target.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
    case 2: target.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
    case 4: target.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
    default: target.storeBytes(of: value.bigEndian, as: UInt64.self)
    }
  }

  /// Appends `value` big-endian in `width` bytes.
  @inline(__always)
  mutating func append(_ value: UInt64, width: Int) {
    let offset = count
    _ = extend(by: width)
    store(value, width: width, at: offset)
  }

  /// The bytes as `Data`, which takes over the block (cut to its bytes first when much larger).
  consuming func takeData() -> Data {
    if capacity - count > Swift.max(1 << 16, count / 4), let shrunk = realloc(base, Swift.max(count, 1)) {
      base = shrunk.assumingMemoryBound(to: UInt8.self)
    }
    return Data(bytesNoCopy: base, count: count, deallocator: .free)
  }

  /// Frees the block, for a document abandoned on the way.
  consuming func release() {
    free(base)
  }
}
