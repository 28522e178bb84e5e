import FoundationEssentials
import PropertyLists

/// A set that counts how often each member was added: what `NSCountedSet` decodes to, and
/// encodes from.
///
/// Archived as `{NS.count: distinct members, NS.object0: UID, NS.count0: occurrences,
/// NS.object1…}`. Members are decoded with the classes the enclosing decode call allows.
public struct ArchivedCountedSet: Hashable, CustomStringConvertible {
  /// Occurrences of each member (always at least 1).
  public private(set) var counts: [AnyHashable: Int]
  /// Members in the order they were first added, so archives come out the same every time.
  public private(set) var members: [AnyHashable]

  public init() {
    counts = [:]
    members = []
  }

  /// Counts the elements of `sequence`.
  public init<S: Sequence>(_ sequence: S) where S.Element: Hashable {
    self.init()
    for element in sequence { insert(AnyHashable(element)) }
  }

  /// Adds `count` occurrences of `member` (`addObject:` repeated).
  public mutating func insert(_ member: AnyHashable, count: Int = 1) {
    precondition(count > 0, "a counted set adds at least one occurrence")
    if let existing = counts[member] {
      counts[member] = existing + count
    } else {
      counts[member] = count
      members.append(member)
    }
  }

  /// How many times `member` was added (`countForObject:`); 0 for a non-member.
  public func count(for member: AnyHashable) -> Int { counts[member] ?? 0 }

  /// The number of distinct members.
  public var count: Int { members.count }
  public var isEmpty: Bool { members.isEmpty }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.counts == rhs.counts }
  public func hash(into hasher: inout Hasher) { hasher.combine(counts) }

  public var description: String { "ArchivedCountedSet(\(counts))" }
}

extension ArchivedCountedSet: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) {
    ("NSCountedSet", ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"])
  }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.integer(members.count), forKey: "NS.count")
    for (index, member) in members.enumerated() {
      coder.encodeRaw(.uid(try coder.reference(to: member.base)), forKey: "NS.object\(index)")
      coder.encodeRaw(.integer(counts[member] ?? 1), forKey: "NS.count\(index)")
    }
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    self.init()
    let className = "NSCountedSet"
    guard let distinct = try coder.storedInteger("NS.count", of: className) else {
      throw coder.corrupt(className, "has no NS.count")
    }
    // Each member takes two keys of the object's dictionary, which bounds any honest count.
    guard distinct >= 0, distinct <= coder.currentKeyCount / 2 else {
      throw coder.corrupt(className, "has NS.count \(distinct), but its dictionary holds only \(coder.currentKeyCount) keys")
    }
    for index in 0..<distinct {
      guard case .uid(let uid)? = coder.storedValue(forKey: "NS.object\(index)") else {
        throw coder.corrupt(className, "has no object reference under NS.object\(index) (NS.count is \(distinct))")
      }
      guard let occurrences = try coder.storedInteger("NS.count\(index)", of: className), occurrences > 0 else {
        throw coder.corrupt(className, "has no positive NS.count\(index)")
      }
      guard let member = try coder.object(atReference: uid, key: "NS.object\(index)") else {
        throw coder.corrupt(className, "has a $null member at NS.object\(index); sets cannot hold nil")
      }
      guard let hashable = member as? AnyHashable else {
        throw KeyedArchiveError(.typeMismatch, "\(coder.location) (\(className)) holds a \(type(of: member)), which cannot be a set member in Swift")
      }
      let (total, overflow) = self.count(for: hashable).addingReportingOverflow(occurrences)
      guard !overflow else { throw coder.corrupt(className, "counts a member more than Int.max times") }
      if counts[hashable] == nil { members.append(hashable) }
      counts[hashable] = total
    }
  }
}
