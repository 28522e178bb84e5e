// The tape encoder's open containers, innermost last, in memory of their own.
//
// Every member of every container updates the innermost frame (its member count, how far its keys
// follow the template) two or three times. In an `Array` each of those writes checked the array's
// storage for uniqueness and the index for bounds: `callgrind` put that at about a sixth of the
// cost of encoding one scalar field. Here the frames are read and written in place.

/// A stack of ``CodableTapeFrame``s, read and written in place. Its memory is freed by
/// ``release()`` (the encoder's state calls it once, as it is torn down): a copy of the stack
/// shares that memory, so only one may be used and released.
struct CodableTapeFrameStack {
  private var base: UnsafeMutablePointer<CodableTapeFrame>
  private var capacity: Int
  /// How many frames are open.
  private(set) var count = 0

  init(capacity: Int = 16) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  /// Frees the memory, ending the frames still open.
  func release() {
    base.deinitialize(count: count)
    base.deallocate()
  }

  var isEmpty: Bool { count == 0 }

  /// The innermost frame's header, or -1 when none is open.
  @inline(__always) var lastHeader: Int { count > 0 ? base[count &- 1].header : -1 }

  /// The frame at `index` (below `count`), in place.
  subscript(index: Int) -> CodableTapeFrame {
    @inline(__always) unsafeAddress {
      precondition(index >= 0 && index < count, "frame index out of range")
      return UnsafePointer(base + index)
    }
    @inline(__always) unsafeMutableAddress {
      precondition(index >= 0 && index < count, "frame index out of range")
      return base + index
    }
  }

  mutating func append(_ frame: CodableTapeFrame) {
    if count == capacity { grow() }
    (base + count).initialize(to: frame)
    count &+= 1
  }

  mutating func removeLast() -> CodableTapeFrame {
    precondition(count > 0, "no open frame")
    count &-= 1
    return (base + count).move()
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<CodableTapeFrame>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }
}
