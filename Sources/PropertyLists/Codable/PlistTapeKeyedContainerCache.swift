import FoundationEssentials

// Keyed containers handed out again.
//
// `Encoder.container(keyedBy:)` must return a `KeyedEncodingContainer<Key>`, which the standard
// library makes by boxing the concrete container in a new class instance. In the unspecialized
// code an encoder runs in, that costs two generic-metadata lookups (the concrete container's type
// and the box's), a conformance lookup and an allocation, about 1,400 instructions, for every
// struct encoded: a tenth of the time of the benchmark's small document, whose fifty two-field
// categories are little else. The tape encoder instead keeps, per key type, the last container it
// made, and hands the same box out again once nothing else holds it (it is then uniquely
// referenced: whoever used it has let it go, so no later write can come through it), pointed at
// the new dictionary.

/// Where a keyed container of the tape encoder writes. A class, so that a box handed out again
/// can be pointed at another dictionary.
final class PlistTapeKeyedTarget {
  let encoder: PlistTapeEncoder
  /// The container's header on the tape; writes are only taken while it is the innermost open one.
  var header: Int
  /// How much of the encoder's path was this container's when it was made.
  var depth: Int

  init(encoder: PlistTapeEncoder, header: Int, depth: Int) {
    self.encoder = encoder
    self.header = header
    self.depth = depth
  }
}

/// The keyed containers an encoder may hand out again: one per key type, the last few types.
struct PlistTapeKeyedContainerCache {
  struct Slot {
    /// The key type (`ObjectIdentifier` of its metatype).
    var keyType: ObjectIdentifier
    /// The `KeyedEncodingContainer`'s box (its only stored property).
    var box: AnyObject
    var target: PlistTapeKeyedTarget
  }

  /// How many key types are remembered (an item store has six struct types).
  static let capacity = 8

  private var slots: [Slot] = []
  /// Where the next new key type goes once all slots are taken.
  private var nextSlot = 0

  init() {
    slots.reserveCapacity(Self.capacity)
  }

  /// A container for `Key` pointed at `header` and `depth`: the one made last for this key type
  /// when nothing else holds it any more, otherwise a new one, remembered.
  mutating func container<Key: CodingKey>(
    keyedBy _: Key.Type, encoder: PlistTapeEncoder, header: Int, depth: Int
  ) -> KeyedEncodingContainer<Key> {
    let keyType = ObjectIdentifier(Key.self)
    var index = 0
    while index < slots.count {
      if slots[index].keyType == keyType {
        if isKnownUniquelyReferenced(&slots[index].box) {
          let target = slots[index].target
          target.header = header
          target.depth = depth
          return Self.container(fromBox: slots[index].box, keyedBy: Key.self)
        }
        // Still in use (a container of the same type further out, or one its owner kept): a new
        // one takes the slot.
        break
      }
      index &+= 1
    }
    let target = PlistTapeKeyedTarget(encoder: encoder, header: header, depth: depth)
    let container = KeyedEncodingContainer(PlistTapeKeyedContainer<Key>(target: target))
    let slot = Slot(keyType: keyType, box: Self.box(of: container), target: target)
    if index < slots.count {
      slots[index] = slot
    } else if slots.count < Self.capacity {
      slots.append(slot)
    } else {
      slots[nextSlot] = slot
      nextSlot = (nextSlot &+ 1) % Self.capacity
    }
    return container
  }

  /// Forgets every container (they hold the encoder: a cycle until then).
  mutating func removeAll() {
    slots.removeAll()
    nextSlot = 0
  }

  // `KeyedEncodingContainer` holds its box and nothing else; `unsafeBitCast` checks the sizes
  // agree, so a standard library that stored more would stop here rather than misbehave.
  @inline(__always)
  private static func box<Key: CodingKey>(of container: KeyedEncodingContainer<Key>) -> AnyObject {
    unsafeBitCast(container, to: AnyObject.self)
  }

  @inline(__always)
  private static func container<Key: CodingKey>(fromBox box: AnyObject, keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
    unsafeBitCast(box, to: KeyedEncodingContainer<Key>.self)
  }
}
