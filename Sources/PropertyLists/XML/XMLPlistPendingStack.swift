/// The children (or keys) of the containers the XML tree reader has open, on one stack in memory
/// it manages itself: each open container's children sit at the end, and closing the container
/// moves them, without retaining or releasing them, into an array of exactly their number.
///
/// So a container's array is allocated once, at its close, at its final size (no capacity
/// guessed at its open, no regrowth, no spare room kept in the tree), and after its children's
/// own allocations, which puts a record's memory in the order in which it is freed later.
///
/// A struct without a deinitializer, so that the reader's hot path has no exclusivity checks:
/// its owner ends it exactly once with ``release()``, which destroys whatever a refused document
/// left on it.
struct XMLPlistPendingStack<Element> {
  private var base: UnsafeMutablePointer<Element>?
  /// The elements on the stack.
  private(set) var count = 0
  private var capacity = 0

  @inline(__always)
  mutating func push(_ element: consuming Element) {
    if count == capacity { grow() }
    (base.unsafelyUnwrapped + count).initialize(to: element)
    count &+= 1
  }

  @inline(never)
  private mutating func grow() {
    let larger = Swift.max(capacity * 2, 64)
    let memory = UnsafeMutablePointer<Element>.allocate(capacity: larger)
    if let base {
      memory.moveInitialize(from: base, count: count)
      base.deallocate()
    }
    base = memory
    capacity = larger
  }

  /// The element at `index`, below ``count``.
  @inline(__always)
  subscript(index: Int) -> Element {
    base.unsafelyUnwrapped[index]
  }

  /// Removes the top element and returns it; the stack must not be empty.
  @inline(__always)
  mutating func popLast() -> Element {
    precondition(count > 0, "popLast on an empty stack")
    count &-= 1
    return (base.unsafelyUnwrapped + count).move()
  }

  /// Moves the elements from `start` on (at most ``count``) into a new array of exactly their
  /// number, in order, and leaves `start` elements on the stack.
  @inline(__always)
  mutating func popArray(from start: Int) -> [Element] {
    let moved = count - start
    precondition(moved >= 0 && start >= 0, "popArray from beyond the top of the stack")
    guard moved > 0 else { return [] }
    let source = base.unsafelyUnwrapped + start
    count = start
    // Appending to an empty array reserves exactly the elements' number. (The standard library's
    // `Array(unsafeUninitializedCapacity:initializingWith:)` would do the same, but reaches an
    // unspecialized buffer initializer that looks the array's type up at run time, every time.)
    var array: [Element] = []
    array.append(contentsOf: Moving(source: source, count: moved))
    return array
  }

  /// Elements that an array takes over by moving them (`Array.append(contentsOf:)` has a
  /// sequence copy itself into the room it reserved): they must not be used again, and the
  /// array must take all of them, which it does from an empty array (it reserves
  /// ``underestimatedCount``).
  private struct Moving: Sequence {
    let source: UnsafeMutablePointer<Element>
    let count: Int

    var underestimatedCount: Int { count }

    func makeIterator() -> EmptyCollection<Element>.Iterator {
      preconditionFailure("pending elements are moved whole, never iterated")
    }

    func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Element>) -> (EmptyCollection<Element>.Iterator, Int) {
      precondition(buffer.count >= count, "the array did not reserve room for every pending element")
      buffer.baseAddress.unsafelyUnwrapped.moveInitialize(from: source, count: count)
      return (EmptyCollection<Element>.Iterator(), count)
    }
  }

  /// Destroys the elements from `start` on (at most ``count``).
  @inline(__always)
  mutating func drop(from start: Int) {
    precondition(start >= 0 && start <= count, "drop from beyond the top of the stack")
    guard start < count else { return }
    (base.unsafelyUnwrapped + start).deinitialize(count: count - start)
    count = start
  }

  /// Destroys every element left and frees the memory; the stack is empty and usable again.
  mutating func release() {
    guard let base else { return }
    base.deinitialize(count: count)
    base.deallocate()
    self.base = nil
    count = 0
    capacity = 0
  }
}

extension XMLPlistPendingStack where Element: Equatable {
  /// Whether the elements from `start` on are `other`'s, in order.
  @inline(__always)
  func elements(from start: Int, equal other: [Element]) -> Bool {
    guard count - start == other.count else { return false }
    return other.withUnsafeBufferPointer { other in
      var index = 0
      while index < other.count {
        if base.unsafelyUnwrapped[start + index] != other[index] { return false }
        index += 1
      }
      return true
    }
  }
}
