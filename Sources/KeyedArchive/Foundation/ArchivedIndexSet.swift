import FoundationEssentials
import PropertyLists

/// A set of non-negative integers kept as sorted ranges: what `NSIndexSet` and
/// `NSMutableIndexSet` decode to, and encode from.
///
/// Archived as `{NSRangeCount: 0}` when empty; `{NSRangeCount: 1, NSLocation, NSLength}` for one
/// range; otherwise `{NSRangeCount: n, NSRangeData: UID → NSMutableData}` whose bytes are the
/// ranges' (location, length) pairs as base-128 varints.
public struct ArchivedIndexSet: Hashable, Sendable, Sequence, CustomStringConvertible {
  /// The ranges, sorted, non-empty, and neither overlapping nor touching.
  public private(set) var ranges: [Range<Int>]

  public init() { ranges = [] }

  /// The indexes of `sequence` (negative ones are not allowed).
  public init<S: Sequence>(_ sequence: S) where S.Element == Int {
    self.init(ranges: sequence.map { $0..<($0 + 1) })
  }

  /// The union of `ranges` (negative bounds are not allowed).
  public init<S: Sequence>(ranges: S) where S.Element == Range<Int> {
    self.init(normalizing: Array(ranges))
  }

  init(normalizing input: [Range<Int>]) {
    var sorted = input.filter { !$0.isEmpty }
    precondition(sorted.allSatisfy { $0.lowerBound >= 0 }, "index sets hold non-negative indexes")
    sorted.sort { $0.lowerBound < $1.lowerBound }
    var merged: [Range<Int>] = []
    merged.reserveCapacity(sorted.count)
    for range in sorted {
      if let last = merged.last, range.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    ranges = merged
  }

  /// Adds `index` (`addIndex:`).
  public mutating func insert(_ index: Int) {
    insert(contentsOf: index..<(index + 1))
  }

  /// Adds every index of `range` (`addIndexesInRange:`).
  public mutating func insert(contentsOf range: Range<Int>) {
    guard !range.isEmpty else { return }
    if let last = ranges.last, range.lowerBound >= last.lowerBound {
      // Appending at the end, the usual way sets are built: no re-sorting.
      if range.lowerBound <= last.upperBound {
        ranges[ranges.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
      } else {
        ranges.append(range)
      }
      return
    }
    self = ArchivedIndexSet(normalizing: ranges + [range])
  }

  /// Whether `index` is in the set (`containsIndex:`). O(log *n*) in the number of ranges.
  public func contains(_ index: Int) -> Bool {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound <= index { low = middle + 1 } else { high = middle }
    }
    return low < ranges.count && ranges[low].contains(index)
  }

  /// The number of indexes (`count`).
  public var count: Int { ranges.reduce(0) { $0 + $1.count } }
  public var isEmpty: Bool { ranges.isEmpty }

  public func makeIterator() -> FlattenSequence<[Range<Int>]>.Iterator { ranges.joined().makeIterator() }

  public var description: String {
    "ArchivedIndexSet(" + ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ", ") + ")"
  }
}

extension ArchivedIndexSet: ArchiveFoundationValue, ArchiveMutableFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSIndexSet", ["NSIndexSet", "NSObject"]) }
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableIndexSet", ["NSMutableIndexSet", "NSIndexSet", "NSObject"])
  }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.integer(ranges.count), forKey: "NSRangeCount")
    switch ranges.count {
    case 0:
      break
    case 1:
      coder.encodeRaw(.integer(ranges[0].lowerBound), forKey: "NSLocation")
      coder.encodeRaw(.integer(ranges[0].count), forKey: "NSLength")
    default:
      var bytes: [UInt8] = []
      bytes.reserveCapacity(ranges.count * 4)
      for range in ranges {
        ArchiveVarint.append(UInt64(range.lowerBound), to: &bytes)
        ArchiveVarint.append(UInt64(range.count), to: &bytes)
      }
      coder.encodeRaw(.uid(try coder.reference(to: ArchiveMutable(Data(bytes)))), forKey: "NSRangeData")
    }
  }

  init(archivedBy coder: ArchiveDecoder, className: String) throws {
    guard let rangeCount = try coder.storedInteger("NSRangeCount", of: className) else {
      throw coder.corrupt(className, "has no NSRangeCount")
    }
    switch rangeCount {
    case 0:
      self.init()
    case 1:
      guard let location = try coder.storedInteger("NSLocation", of: className),
        let length = try coder.storedInteger("NSLength", of: className)
      else {
        throw coder.corrupt(className, "has one range but no NSLocation and NSLength")
      }
      self.init(normalizing: [try Self.range(location, length, coder, className)])
    case 2...:
      guard let data = try coder.storedBytes("NSRangeData", of: className) else {
        throw coder.corrupt(className, "has \(rangeCount) ranges but no NSRangeData")
      }
      // Each range takes at least two bytes, which bounds any honest count before decoding.
      guard rangeCount <= data.count / 2 else {
        throw coder.corrupt(className, "has NSRangeCount \(rangeCount), more ranges than its \(data.count) bytes of NSRangeData can hold")
      }
      let numbers: [UInt64]
      switch ArchiveVarint.decodeAll(data) {
      case .success(let values): numbers = values
      case .failure(let failure): throw coder.corrupt(className, "has NSRangeData in which \(failure.description)")
      }
      guard numbers.count == rangeCount * 2 else {
        throw coder.corrupt(className, "has NSRangeCount \(rangeCount) but NSRangeData holds \(numbers.count) numbers")
      }
      var ranges: [Range<Int>] = []
      ranges.reserveCapacity(rangeCount)
      for pair in 0..<rangeCount {
        guard let location = Int(exactly: numbers[2 * pair]), let length = Int(exactly: numbers[2 * pair + 1]) else {
          throw coder.corrupt(className, "has a range in NSRangeData beyond Int.max")
        }
        ranges.append(try Self.range(location, length, coder, className))
      }
      self.init(normalizing: ranges)
    default:
      throw coder.corrupt(className, "has a negative NSRangeCount \(rangeCount)")
    }
  }

  private static func range(_ location: Int, _ length: Int, _ coder: ArchiveDecoder, _ className: String) throws -> Range<Int> {
    guard location >= 0, length >= 0, location <= Int.max - length else {
      throw coder.corrupt(className, "has a range at \(location) of length \(length), which is not a range of non-negative integers")
    }
    return location..<(location + length)
  }
}
