/// Working space for transcoding a UTF-16 string object, kept for a whole read and grown to the
/// largest string's need (3 bytes a unit). Short strings use the stack instead; what this saves
/// is an allocation of a kilobyte or more per long string, each of which made the allocator
/// sweep its free lists (`malloc_consolidate`) while the previous document's values were being
/// freed.
final class BinaryPlistTranscodingSpace {
  private(set) var bytes: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int

  init() {
    capacity = 0
    bytes = .allocate(capacity: 0)
  }

  deinit { bytes.deallocate() }

  /// Room for at least `count` bytes (the contents need not be kept).
  @inline(__always)
  func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    if count > capacity { grow(to: count) }
    return bytes
  }

  @inline(never)
  private func grow(to count: Int) {
    bytes.deallocate()
    capacity = Swift.max(count, capacity * 2, 4096)
    bytes = .allocate(capacity: capacity)
  }
}
