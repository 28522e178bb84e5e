import FoundationEssentials

/// What the decoder's keyed containers learned about where their keys are, by nesting level and
/// by the order in which keys were asked for: the k-th key a container at a level asks for, the
/// position and key object where it was found. The next container at that level (the next item
/// of an array of structs) usually asks for the same keys in the same order and finds them at
/// the same positions, whatever order the document keeps its keys in (Python's `plistlib`
/// sorts them; a synthesized `init(from:)` asks in declaration order), so one comparison of
/// key strings (the same literal: equal at once) and of positions answers most lookups. Only
/// hints: an answer is used only when the key at that position is confirmed to be the one
/// asked for.
final class PlistKeyLookupMemo {
  static let levels = 16
  static let lookupsPerLevel = 32
  private static let entryCount = levels * lookupsPerLevel
  private let keys: UnsafeMutablePointer<String>
  private let positions: UnsafeMutablePointer<Int>
  private let keyObjects: UnsafeMutablePointer<Int>
  /// How many keys the current container at each level has asked for.
  private let asked: UnsafeMutablePointer<Int>

  init() {
    keys = .allocate(capacity: Self.entryCount)
    keys.initialize(repeating: "", count: Self.entryCount)
    positions = .allocate(capacity: Self.entryCount)
    positions.initialize(repeating: -1, count: Self.entryCount)
    keyObjects = .allocate(capacity: Self.entryCount)
    keyObjects.initialize(repeating: -1, count: Self.entryCount)
    asked = .allocate(capacity: Self.levels)
    asked.initialize(repeating: 0, count: Self.levels)
  }

  deinit {
    keys.deinitialize(count: Self.entryCount)
    keys.deallocate()
    positions.deallocate()
    keyObjects.deallocate()
    asked.deallocate()
  }

  /// A new container at `level` starts asking.
  @inline(__always) func begin(level: Int) {
    if level >= 0 && level < Self.levels { asked[level] = 0 }
  }

  /// The entry for the next key the container at `level` asks for, or -1 beyond the memo.
  @inline(__always) func nextEntry(level: Int) -> Int {
    guard level >= 0 && level < Self.levels else { return -1 }
    let count = asked[level]
    asked[level] = count &+ 1
    return count < Self.lookupsPerLevel ? level &* Self.lookupsPerLevel &+ count : -1
  }

  /// Where `key` was found when it was asked for at `entry` last time (-1: it was not there)
  /// and its key object (-1: unknown), if that key was asked for there.
  @inline(__always) func recall(_ entry: Int, key: String) -> (position: Int, keyObject: Int)? {
    guard entry >= 0, positions[entry] >= 0 || keyObjects[entry] >= 0, keys[entry] == key else { return nil }
    return (positions[entry], keyObjects[entry])
  }

  @inline(__always) func learn(_ entry: Int, key: String, position: Int, keyObject: Int) {
    guard entry >= 0 else { return }
    keys[entry] = key
    positions[entry] = position
    keyObjects[entry] = keyObject
  }
}
