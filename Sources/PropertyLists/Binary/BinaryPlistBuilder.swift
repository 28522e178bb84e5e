package import FoundationEssentials

/// Builds a `bplist00` document object by object, numbering and uniquing exactly as
/// ``PropertyListValue``'s binary writer does for the same value (CF's `__CFBinaryPlistWrite`
/// rules, see `BinaryPlistWriter`), without the value tree: for writers that know their document's
/// shape (the keyed archive table writer) and would otherwise build a tree only to flatten it.
///
/// The caller visits the document in the writer's order — a container first, then (for a
/// dictionary) all its keys, then its values, each value's own members before the next value:
///
/// ```swift
/// var builder = BinaryPlistBuilder()
/// let top = builder.openContainer()                   // {
/// builder.push(builder.key("name"))                   //   "name":
/// builder.push(builder.scalar(.string("Stasis")))     //          "Stasis"
/// builder.closeDictionary(top)                        // }
/// let bytes = builder.finish()                        // == PropertyListValue(…).encoded(as: .binary)
/// ```
///
/// Each member's object number is pushed onto the builder's pending stack; closing a container
/// takes the numbers pushed since it was opened as its members (for a dictionary: keys, then
/// values, half each).
package struct BinaryPlistBuilder {
  /// An open container: its object number and where its members start on the pending stack.
  package struct Container {
    package let number: Int
    fileprivate let mark: Int
  }

  private var flattener = BinaryPlistWriter.Flattener()

  package init() {}

  /// The number of objects so far.
  package var objectCount: Int { flattener.memory.objects.count }

  /// Takes the next object number for an array or a dictionary; its members follow.
  package mutating func openContainer() -> Container {
    let number = flattener.memory.objects.count
    flattener.memory.objects.append(.array(first: 0, count: 0))
    return Container(number: number, mark: flattener.memory.pending.count)
  }

  /// Pushes a member's object number for the innermost open container.
  @inline(__always)
  package mutating func push(_ number: Int) {
    flattener.memory.pending.append(number)
  }

  /// Closes `container` as an array of the numbers pushed since it was opened, and returns its
  /// number (not pushed: push it for its own container).
  @discardableResult
  package mutating func closeArray(_ container: Container) -> Int {
    let count = flattener.memory.pending.count - container.mark
    flattener.closeContainer(
      container.number, mark: container.mark, object: .array(first: flattener.memory.references.count, count: count))
    return container.number
  }

  /// Closes `container` as a dictionary: the numbers pushed since it was opened are its keys,
  /// then its values.
  @discardableResult
  package mutating func closeDictionary(_ container: Container) -> Int {
    let count = (flattener.memory.pending.count - container.mark) / 2
    flattener.closeContainer(
      container.number, mark: container.mark, object: .dictionary(first: flattener.memory.references.count, count: count))
    return container.number
  }

  /// The number of a dictionary key (a string, uniqued with every other string).
  @inline(__always)
  package mutating func key(_ key: String) -> Int {
    flattener.flattenKey(key)
  }

  /// The number of a scalar: uniqued by exact value (strings, numbers, reals, dates, data), a
  /// Boolean's first copy, or a new UID object. Containers are refused (open them instead).
  @inline(__always)
  package mutating func scalar(_ value: PropertyListValue) -> Int {
    switch value {
    case .array, .dictionary: preconditionFailure("containers are opened and closed, not added as scalars")
    case .bool, .uid:
      // The flattener's own rules for these (Booleans' first copy; UIDs never shared); neither recurses.
      do { return try flattener.flatten(value, depth: 0) } catch { preconditionFailure("a scalar cannot nest") }
    default: return flattener.flattenScalar(value)
    }
  }

  /// A new UID object (UIDs are never shared).
  @inline(__always)
  package mutating func uid(_ value: UInt64) -> Int {
    flattener.appendUID(value)
  }

  /// Makes room for `objects` objects and `references` container members, so that neither list
  /// is copied into a larger one as it grows (only what is used is ever touched). The strings and
  /// data are laid out in the flattener's text store, which grows by doubling.
  package mutating func reserve(objects: Int, references: Int) {
    flattener.memory.objects.reserveCapacity(objects)
    flattener.memory.references.reserveCapacity(references)
  }

  /// Announces the array about to be filled as one whose `count` strings differ from one another
  /// (a keyed archive's `$objects`, see ``DistinctStrings``): its strings go through
  /// ``distinctString(_:at:)``, and every other string written from now on looks for an equal one
  /// among them too, so the numbers are those of uniquing every string in one table.
  package mutating func expectDistinctStrings(_ distinct: DistinctStrings, count: Int) {
    flattener.distinct = distinct
    flattener.distinctNumbers = [Int32](repeating: -1, count: count)
  }

  /// The number of `string`, member `position` of the array announced by
  /// ``expectDistinctStrings(_:count:)``: kept out of the uniquing table.
  @inline(__always)
  package mutating func distinctString(_ string: String, at position: Int) -> Int {
    flattener.flattenDistinctString(string, at: position)
  }

  /// Prefetches the uniquing table's slot where a lookup of `value` would start, so that a
  /// caller reading ahead over a run of values lets their cache misses overlap with each other
  /// and with its work on the values before them.
  @inline(__always)
  package func prefetch(_ value: PropertyListValue) {
    flattener.memory.uniques.prefetch(value)
  }

  /// The document's bytes. Every container must be closed; object 0 is the top. The builder is
  /// used up (its objects are overwritten as they are written): make a new one for another document.
  package mutating func finish() -> Data {
    precondition(flattener.memory.pending.isEmpty, "a container is still open")
    return flattener.emit().takeData()
  }
}
