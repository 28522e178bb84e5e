import FoundationEssentials
import PropertyLists

/// An ordered collection of distinct members: what `NSOrderedSet` and `NSMutableOrderedSet`
/// decode to, and encode from.
///
/// Archived as `{NS.object.0: UID, NS.object.1: UID, …}`, one key per member in order, and no
/// count (an empty set has no keys but `$class`). Members are decoded with the classes the
/// enclosing decode call allows, like `NSArray`'s.
public struct ArchivedOrderedSet: Hashable, RandomAccessCollection, ExpressibleByArrayLiteral, CustomStringConvertible {
  /// The members, in order.
  public private(set) var elements: [AnyHashable]
  private var members: Set<AnyHashable>

  public init() {
    elements = []
    members = []
  }

  /// The distinct members of `sequence`, in the order of their first occurrence.
  public init<S: Sequence>(_ sequence: S) where S.Element: Hashable {
    self.init()
    for element in sequence { append(AnyHashable(element)) }
  }

  public init(arrayLiteral elements: AnyHashable...) {
    self.init(elements)
  }

  /// Adds `element` at the end unless it is already a member; returns whether it was added.
  @discardableResult
  public mutating func append(_ element: AnyHashable) -> Bool {
    guard members.insert(element).inserted else { return false }
    elements.append(element)
    return true
  }

  public func contains(_ element: AnyHashable) -> Bool { members.contains(element) }
  /// The members as a Swift set (``ArchivedSet``'s value).
  var memberSet: Set<AnyHashable> { members }

  public var startIndex: Int { 0 }
  public var endIndex: Int { elements.count }
  public subscript(position: Int) -> AnyHashable { elements[position] }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }
  public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

  public var description: String { "ArchivedOrderedSet(\(elements))" }
}

extension ArchivedOrderedSet: ArchiveFoundationValue, ArchiveMutableFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSOrderedSet", ["NSOrderedSet", "NSObject"]) }
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableOrderedSet", ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"])
  }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    for (index, element) in elements.enumerated() {
      coder.encodeRaw(.uid(try coder.reference(to: element.base)), forKey: "NS.object.\(index)")
    }
  }

  /// Reads `NS.object.0`, `NS.object.1`, … until a key is missing.
  init(archivedBy coder: ArchiveDecoder, className: String) throws {
    self.init()
    var index = 0
    while let stored = coder.storedValue(forKey: "NS.object.\(index)") {
      guard case .uid(let uid) = stored else {
        throw KeyedArchiveError(.typeMismatch, "\(coder.location) (\(className)) key \"NS.object.\(index)\" holds a \(stored.typeName); expected an object reference")
      }
      guard let member = try coder.object(atReference: uid, key: "NS.object.\(index)") else {
        throw coder.corrupt(className, "has a $null member at NS.object.\(index); ordered sets cannot hold nil")
      }
      guard let hashable = member as? AnyHashable else {
        throw KeyedArchiveError(.typeMismatch, "\(coder.location) (\(className)) holds a \(type(of: member)), which cannot be a set member in Swift")
      }
      append(hashable)
      index += 1
    }
  }
}
