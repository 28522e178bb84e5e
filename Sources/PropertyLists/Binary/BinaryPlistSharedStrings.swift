/// The strings of a `bplist00` document's string objects that more than one reference reaches,
/// made once and shared.
///
/// Writers store each distinct string once (CoreFoundation, Python's `plistlib`, Stasis's own
/// writer), so a word that recurs in a document — a tag, a colour, a country — is one object
/// that many containers refer to. In the benchmark item store 94 of 27,000 string objects take
/// 63,000 of its 91,000 string references. Building that string again at every reference
/// transcodes and checks the same bytes again; this keeps it instead.
///
/// A string is kept from its second reference on (a bit per object remembers the first), so the
/// strings of one reference — most of a document's, and its long ones — never enter it. It is
/// direct-mapped by object number: two shared strings in one slot take turns, which costs a
/// rebuild, never a wrong string.
///
/// A class over raw storage, so that the parsers that share it (the Codable decoder keeps two
/// copies of one) share its strings, and a lookup costs no exclusivity or uniqueness check.
final class BinaryPlistSharedStrings {
  /// A bit per object: a string object reached once already.
  private let reached: UnsafeMutablePointer<UInt64>
  /// The object whose string each slot holds (-1: none).
  private let slotObjects: UnsafeMutablePointer<Int>
  private let slotStrings: UnsafeMutablePointer<String>
  private let reachedWords: Int
  private let slotCount: Int

  /// Room for a document of `objectCount` objects: up to 1024 slots, fewer for small documents
  /// (every slot is set up at every read).
  init(objectCount: Int) {
    reachedWords = (objectCount + 63) / 64
    reached = .allocate(capacity: reachedWords)
    reached.initialize(repeating: 0, count: reachedWords)
    var slots = 64
    while slots < 1024 && slots < objectCount / 8 { slots <<= 1 }
    slotCount = slots
    slotObjects = .allocate(capacity: slots)
    slotObjects.initialize(repeating: -1, count: slots)
    slotStrings = .allocate(capacity: slots)
    slotStrings.initialize(repeating: "", count: slots)
  }

  deinit {
    reached.deallocate()
    slotObjects.deallocate()
    slotStrings.deinitialize(count: slotCount)
    slotStrings.deallocate()
  }

  @inline(__always)
  private func slot(_ object: Int) -> Int {
    // Object numbers of shared strings are scattered; a multiplicative hash spreads neighbours.
    Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: object) &* 0x9E37_79B9_7F4A_7C15) >> 40) & (slotCount &- 1)
  }

  /// The kept string of `object`, if any.
  @inline(__always)
  func string(of object: Int) -> String? {
    let slot = self.slot(object)
    return slotObjects[slot] == object ? slotStrings[slot] : nil
  }

  /// Notes that `text` was made for `object` (a valid object number, whose string
  /// ``string(of:)`` did not have): kept when this is the object's second reference or later.
  @inline(__always)
  func made(_ text: String, for object: Int) {
    let word = object >> 6
    let bit: UInt64 = 1 << UInt64(object & 63)
    if reached[word] & bit != 0 {
      let slot = self.slot(object)
      slotObjects[slot] = object
      slotStrings[slot] = text
    } else {
      reached[word] |= bit
    }
  }
}
