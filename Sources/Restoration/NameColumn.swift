/// A column of names, one member per node (identifiers, class names, restoration classes,
/// storyboards): each member an index into a table of strings that holds each name once, as a
/// snapshot stores them (`StasisStrings` and the packed index columns), so that reading a
/// snapshot copies no string per node.
///
/// A restore of 10,000 nodes made five columns of 10,000 strings each (a retain per string while
/// reading, a release per string when the restore ended, and 800 KB of working memory); the
/// indexes are the packed columns as read.
struct NameColumn: Sendable {
  /// The names, each once (a snapshot's string table), or one per node (`init(_:)`).
  private let strings: [String]
  /// Each member's index into `strings`, every one in range.
  private let indexes: [Int]

  /// The column whose member `i` is `strings[indexes[i]]`; the first index out of range, if
  /// any, is thrown as `OutOfRange` (nothing is made from an unchecked index).
  init(strings: [String], indexes: [Int]) throws(OutOfRange) {
    let count = strings.count
    for index in indexes where index < 0 || index >= count { throw OutOfRange(index: index) }
    self.strings = strings
    self.indexes = indexes
  }

  /// An index that names no string of the table.
  struct OutOfRange: Error {
    let index: Int
  }

  /// The column of `names`, one per member (snapshots of format 1, nodes made by hand).
  init(_ names: [String]) {
    strings = names
    indexes = Array(names.indices)
  }

  /// `count` members, all `name`.
  init(repeating name: String, count: Int) {
    strings = [name]
    indexes = [Int](repeating: 0, count: count)
  }

  var count: Int { indexes.count }

  subscript(member: Int) -> String { strings[indexes[member]] }

  /// Member `member`, `nil` for the empty string (an optional field left out).
  func nonEmpty(_ member: Int) -> String? {
    let name = strings[indexes[member]]
    return name.isEmpty ? nil : name
  }

  /// Numbers for the members, equal for equal names and different for different ones: the
  /// indexes themselves when the table holds each string once, else numbers made by hashing.
  var numbers: [Int] {
    if Set(strings).count == strings.count { return indexes }
    var known: [String: Int] = [:]
    var numbers: [Int] = []
    numbers.reserveCapacity(indexes.count)
    for index in indexes {
      let name = strings[index]
      if let number = known[name] {
        numbers.append(number)
      } else {
        known[name] = known.count
        numbers.append(known.count - 1)
      }
    }
    return numbers
  }
}
