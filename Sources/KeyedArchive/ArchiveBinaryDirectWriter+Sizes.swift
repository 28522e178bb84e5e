import PropertyLists

/// What ``ArchiveBinaryDirectWriter`` works out before its first object: the reference width
/// (from bounds on the object count) and the size of its number table.
extension ArchiveBinaryDirectWriter {
  /// Objects counted exactly (`certain`: containers, UIDs, Booleans — CF writes a new object for
  /// each Boolean — and `$objects` entries, each distinct from the others) and objects that may
  /// share an equal one's (`uncertain`: numbers, strings and data outside `$objects`, keys).
  struct ObjectCount {
    var certain = 0
    var uncertain = 0
  }

  /// The least and most objects the document can have, when both take the same reference width
  /// (nil otherwise). First from the lists' sizes alone (enough from some 70,000 entries on,
  /// where both are between 65,536 and 2^32); then, if those straddle a width, from a count of
  /// what the entries' values are.
  static func objectCountBounds(table: ArchiveObjectTable, top: PropertyListDictionary) -> (lower: Int, upper: Int)? {
    var fixed = ObjectCount(certain: 2 + table.entries.count, uncertain: 6)
    for keys in table.layouts { fixed.uncertain += keys.count }
    count(.dictionary(top), into: &fixed, depth: 1)
    var others = ObjectCount()
    for value in table.others { count(value, into: &others, depth: 2) }
    let listed = table.values.count + table.uidRuns.count + others.certain + others.uncertain
    let rough = (lower: fixed.certain, upper: fixed.certain + fixed.uncertain + listed)
    if binaryPlistByteWidth(UInt64(rough.lower)) == binaryPlistByteWidth(UInt64(rough.upper)) { return rough }
    var counted = fixed
    for slot in table.entries {
      switch slot.kind {
      case .object:
        let first = Int(slot.word)
        for position in first..<(first + table.layouts[Int(slot.extra)].count) {
          count(table.values[position], in: table, into: &counted)
        }
      case .other:
        // Counted once as an entry; its members (if it has any) as possibly more.
        var nested = ObjectCount()
        count(table.others[Int(slot.word)], into: &nested, depth: 2)
        counted.uncertain += nested.certain + nested.uncertain
      default: break
      }
    }
    let exact = (lower: counted.certain, upper: counted.certain + counted.uncertain)
    guard binaryPlistByteWidth(UInt64(exact.lower)) == binaryPlistByteWidth(UInt64(exact.upper)) else { return nil }
    return exact
  }

  /// Counts the objects an object's value adds.
  private static func count(_ slot: ArchiveSlot, in table: ArchiveObjectTable, into counted: inout ObjectCount) {
    switch slot.kind {
    case .uid, .bool: counted.certain += 1
    case .positive, .negative, .single, .double, .string: counted.uncertain += 1
    case .uids: counted.certain += 1 + Int(slot.extra)
    case .other: count(table.others[Int(slot.word)], into: &counted, depth: 3)
    case .object: break
    }
  }

  /// Counts the objects a value of any shape adds (containers deeper than the writer takes are
  /// not counted: it refuses them).
  private static func count(_ value: PropertyListValue, into counted: inout ObjectCount, depth: Int) {
    switch value {
    case .array(let members):
      guard depth < 512 * 2 else { return }
      counted.certain += 1
      for member in members { count(member, into: &counted, depth: depth + 1) }
    case .dictionary(let dictionary):
      guard depth < 512 * 2 else { return }
      counted.certain += 1
      counted.uncertain += dictionary.count
      for member in dictionary.values { count(member, into: &counted, depth: depth + 1) }
    case .uid, .bool: counted.certain += 1
    case .integer, .real, .date, .string, .data: counted.uncertain += 1
    }
  }

  /// About how many numbers the document holds, for sizing the number table: all of them in a
  /// table of up to 8,192 entries, else those of 4,096 entries picked at random (spread by a
  /// fixed hash of their position, so that a graph repeating every few entries is not sampled
  /// at the same place of each repetition), scaled up. A table whose estimate falls short grows.
  static func estimatedNumberCount(_ table: ArchiveObjectTable) -> Int {
    let entries = table.entries
    guard !entries.isEmpty else { return 16 }
    let samples = entries.count <= 8192 ? entries.count : 4096
    var found = 0
    for sample in 0..<samples {
      var index = sample
      if samples != entries.count {
        var mixed = UInt64(sample) &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 31)) &* 0xBF58_476D_1CE4_E5B9
        index = Int((mixed >> 11) % UInt64(entries.count))
      }
      let slot = entries[index]
      guard slot.kind == .object else {
        if isNumber(slot) { found += 1 }
        continue
      }
      let first = Int(slot.word)
      for position in first..<(first + table.layouts[Int(slot.extra)].count) where isNumber(table.values[position]) {
        found += 1
      }
    }
    return 16 + Int(Double(found) * Double(entries.count) / Double(samples))
  }

  @inline(__always)
  private static func isNumber(_ slot: ArchiveSlot) -> Bool {
    switch slot.kind {
    case .positive, .negative, .single, .double: true
    default: false
    }
  }
}
