import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The writers' output buffer: `malloc`ed and grown with `realloc` while small, and handed to
/// `Data` without a copy.
///
/// On Linux, an output that outgrows ``mappedThreshold`` moves to its own anonymous mapping,
/// reserved generously (address space only: pages are backed when written) and advised to use
/// transparent huge pages. Writing a 20 MB document into freshly `malloc`ed pages otherwise takes
/// one page fault per 4 KB, which on this kind of virtual machine cost about a third of the
/// writer's time; with 2 MB pages it is a few faults, and no copies while the output grows
/// within its reservation.
///
/// It is a struct passed `inout`, so the hot path has no exclusivity checks. Its owner ends it
/// exactly once: ``takeData()``, ``takeArray()`` or ``release()``.
struct ByteOutput {
  private(set) var base: UnsafeMutablePointer<UInt8>
  /// Bytes written so far; the format-specific appends advance it after writing into reserved room.
  var count = 0
  /// The bytes `base` points to: `malloc`ed, or (when ``isMapped``) the whole mapping.
  private var capacity: Int
  /// Whether the buffer has moved to its own mapping (Linux), whose length is `capacity`.
  private(set) var isMapped = false

  /// Outputs that grow beyond this many bytes move to their own mapping (Linux only).
  static let mappedThreshold = 1 << 20
  /// Huge-page size, the alignment and granularity of mappings.
  private static let hugePage = 1 << 21

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
    #if os(Linux)
      if wanted > Self.mappedThreshold {
        // A fresh mapping, or (none to be had) `malloc`ed memory; either way the bytes move.
        let mapping = Self.map(Swift.max(wanted * 2, 32 << 20))
        guard mapping != nil || isMapped else { return growInPlace(to: wanted) }
        guard let memory = mapping?.base ?? malloc(wanted) else { fatalError("out of memory for \(wanted) bytes of output") }
        memory.copyMemory(from: base, byteCount: count)
        release()
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = mapping?.length ?? wanted
        isMapped = mapping != nil
        return
      }
    #endif
    growInPlace(to: wanted)
  }

  /// `realloc`, for a buffer that is not mapped.
  private mutating func growInPlace(to wanted: Int) {
    guard let memory = realloc(base, wanted) else { fatalError("out of memory for \(wanted) bytes of output") }
    base = memory.assumingMemoryBound(to: UInt8.self)
    capacity = wanted
  }

  #if os(Linux)
    /// `length` rounded up to whole huge pages.
    private static func hugePages(_ length: Int) -> Int { (length + hugePage - 1) & ~(hugePage - 1) }

    /// A private anonymous mapping of at least `length` bytes, starting on a huge-page boundary
    /// and advised to use huge pages; `nil` if the system refuses (the caller then uses `malloc`).
    private static func map(_ length: Int) -> (base: UnsafeMutableRawPointer, length: Int)? {
      let rounded = hugePages(length)
      // Map one huge page more than needed, then unmap the unaligned head and the rest of the tail.
      let padded = rounded + hugePage
      guard let raw = mmap(nil, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
        raw != MAP_FAILED
      else { return nil }
      let address = UInt(bitPattern: raw)
      let aligned = (address + UInt(hugePage) - 1) & ~UInt(hugePage - 1)
      let head = Int(aligned - address)
      if head > 0 { munmap(raw, head) }
      let start = raw + head
      let tail = padded - head - rounded
      if tail > 0 { munmap(start + rounded, tail) }
      _ = madvise(start, rounded, 14)  // MADV_HUGEPAGE; advice only, so failure is harmless
      return (start, rounded)
    }
  #endif

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

  /// The bytes written so far, copied; the buffer stays the caller's to end.
  func bytes() -> [UInt8] {
    [UInt8](UnsafeBufferPointer(start: base, count: count))
  }

  /// Frees the buffer; the output must not be used afterwards.
  func release() {
    #if os(Linux)
      if isMapped {
        munmap(base, capacity)
        return
      }
    #endif
    free(base)
  }

  /// The bytes as `Data`, which takes over the buffer. A mapping is first cut down to the huge
  /// pages the bytes occupy, so that the `Data` does not hold the rest of the reservation.
  consuming func takeData() -> Data {
    #if os(Linux)
      if isMapped {
        let used = Swift.max(Self.hugePage, Self.hugePages(count))
        if used < capacity { munmap(base + used, capacity - used) }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in munmap(pointer, used) })
      }
    #endif
    return Data(bytesNoCopy: base, count: count, deallocator: .free)
  }

  /// The bytes copied into an array; frees the buffer.
  consuming func takeArray() -> [UInt8] {
    let result = bytes()
    release()
    return result
  }
}
