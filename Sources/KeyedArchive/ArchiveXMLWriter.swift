import FoundationEssentials
import PropertyLists

/// Writes the archive — `{$version, $objects, $archiver, $top}` with `$objects` in the flat
/// ``ArchiveObjectTable`` — as an XML property list, through the XML writer's own elements
/// (`XMLPlistBuilder`): the same bytes as ``KeyedArchiver/finishedArchive()`` encoded as XML,
/// without building that value.
struct ArchiveXMLWriter {
  let table: ArchiveObjectTable
  let top: PropertyListDictionary
  private var builder: XMLPlistBuilder
  /// Each key layout's order in CF's sorted order (inner `nil`: as stored), once worked out.
  private var orders: [[Int]??]

  init(table: ArchiveObjectTable, top: PropertyListDictionary) {
    self.table = table
    self.top = top
    orders = [[Int]??](repeating: nil, count: table.layouts.count)
    // Room for the whole document to begin with, guessed at a line of some 40 bytes per value
    // (pages not written are never touched).
    builder = XMLPlistBuilder(capacity: 48 * (table.entries.count + table.values.count + 3 * table.uidRuns.count))
  }

  mutating func write() throws(PropertyListError) -> Data {
    do {
      let keys = KeyedArchiver.documentKeys
      builder.openDictionary(count: keys.count, indent: 0)
      let order = XMLPlistBuilder.keyOrder(keys)
      for index in keys.indices {
        let key = keys[order?[index] ?? index]
        builder.key(key, indent: 1)
        switch key {
        case "$version": try builder.value(.integer(PropertyListInteger(Int64(KeyedArchiver.version))), indent: 1)
        case "$objects": try writeObjects()
        case "$archiver": try builder.value(.string("NSKeyedArchiver"), indent: 1)
        default: try builder.value(.dictionary(top), indent: 1)
        }
      }
      builder.closeDictionary(count: keys.count, indent: 0)
    } catch {
      builder.release()
      throw error
    }
    return builder.finish()
  }

  private mutating func writeObjects() throws(PropertyListError) {
    builder.openArray(count: table.entries.count, indent: 1)
    for slot in table.entries {
      guard slot.kind == .object else {
        try member(slot, indent: 2)
        continue
      }
      let layout = Int(slot.extra)
      let keys = table.layouts[layout]
      let order = self.order(of: layout)
      let first = Int(slot.word)
      builder.openDictionary(count: keys.count, indent: 2)
      for index in keys.indices {
        let position = order?[index] ?? index
        builder.key(keys[position], indent: 3)
        try member(table.values[first + position], indent: 3)
      }
      builder.closeDictionary(count: keys.count, indent: 2)
    }
    builder.closeArray(count: table.entries.count, indent: 1)
  }

  /// Key layout `layout`'s order.
  private mutating func order(of layout: Int) -> [Int]? {
    if let known = orders[layout] { return known }
    let order = XMLPlistBuilder.keyOrder(table.layouts[layout])
    orders[layout] = .some(order)
    return order
  }

  /// A value (or a scalar entry) at `indent`.
  @inline(__always)
  private mutating func member(_ slot: ArchiveSlot, indent: Int) throws(PropertyListError) {
    switch slot.kind {
    case .uids:
      let count = Int(slot.extra)
      let first = Int(slot.word)
      builder.openArray(count: count, indent: indent)
      for position in first..<(first + count) { try builder.value(.uid(table.uidRuns[position]), indent: indent + 1) }
      builder.closeArray(count: count, indent: indent)
    case .other: try builder.value(table.others[Int(slot.word)], indent: indent)
    default: try builder.value(table.value(slot), indent: indent)
    }
  }
}
