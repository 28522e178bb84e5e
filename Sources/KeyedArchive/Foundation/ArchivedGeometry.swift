import FoundationEssentials
import PropertyLists

/// A point (`NSPoint`/`CGPoint`) as an `NSValue` holds it: what `+[NSValue valueWithPoint:]`
/// decodes to, and encodes from.
///
/// Archived as `{NS.special: 1, NS.pointval: UID → "{x, y}"}`.
public struct ArchivedPoint: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  /// `NSStringFromPoint`'s form, `{x, y}`.
  public var description: String { GeometryString.point(x, y) }
}

/// A size (`NSSize`/`CGSize`) as an `NSValue` holds it: `+[NSValue valueWithSize:]`.
///
/// Archived as `{NS.special: 2, NS.sizeval: UID → "{width, height}"}`.
public struct ArchivedSize: Hashable, Sendable, CustomStringConvertible {
  public var width: Double
  public var height: Double
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  /// `NSStringFromSize`'s form, `{w, h}`.
  public var description: String { GeometryString.point(width, height) }
}

/// A rectangle (`NSRect`/`CGRect`) as an `NSValue` holds it: `+[NSValue valueWithRect:]`.
///
/// Archived as `{NS.special: 3, NS.rectval: UID → "{{x, y}, {width, height}}"}`.
public struct ArchivedRect: Hashable, Sendable, CustomStringConvertible {
  public var origin: ArchivedPoint
  public var size: ArchivedSize
  public init(origin: ArchivedPoint, size: ArchivedSize) {
    self.origin = origin
    self.size = size
  }
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: ArchivedPoint(x: x, y: y), size: ArchivedSize(width: width, height: height))
  }
  /// `NSStringFromRect`'s form, `{{x, y}, {w, h}}`.
  public var description: String { GeometryString.rect(origin.x, origin.y, size.width, size.height) }
}

/// Edge insets (`NSEdgeInsets`/`UIEdgeInsets`) as an `NSValue` holds them:
/// `+[NSValue valueWithEdgeInsets:]`.
///
/// Archived as `{NS.special: 12, NS.edgeval.top, NS.edgeval.left, NS.edgeval.bottom,
/// NS.edgeval.right}`, four reals stored inline.
public struct ArchivedEdgeInsets: Hashable, Sendable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
}

/// A range (`NSRange`) as an `NSValue` holds it: `+[NSValue valueWithRange:]`.
///
/// Archived as `{NS.special: 4, NS.rangeval.length: UID → integer, NS.rangeval.location: UID →
/// integer}` (Apple's archiver writes the length first). `location` may be `NSNotFound`
/// (`Int.max`).
public struct ArchivedRange: Hashable, Sendable, CustomStringConvertible {
  public var location: Int
  public var length: Int
  public init(location: Int, length: Int) {
    self.location = location
    self.length = length
  }
  /// The range `location ..< location + length`.
  public init(_ range: Range<Int>) {
    self.init(location: range.lowerBound, length: range.count)
  }
  /// `location ..< location + length`, or nil when that overflows or either part is negative.
  public var range: Range<Int>? {
    guard location >= 0, length >= 0, location <= Int.max - length else { return nil }
    return location..<(location + length)
  }
  /// `NSStringFromRange`'s form, `{location, length}`.
  public var description: String { "{\(location), \(length)}" }
}

// MARK: - NSValue encodings

/// The `NS.special` kinds of `NSValue` archives.
enum NSValueSpecial {
  static let point = 1
  static let size = 2
  static let rect = 3
  static let range = 4
  static let edgeInsets = 12
  static let archiveClass = (name: "NSValue", classes: ["NSValue", "NSObject"])
}

/// The values an `NSValue` archive holds: one class (`NSValue`), told apart by `NS.special`,
/// followed by each kind's own keys.
protocol ArchivedNSValue: ArchiveFoundationValue, ArchiveFoundationAliased {
  /// The `NS.special` kind (``NSValueSpecial``).
  static var special: Int { get }
  /// Writes the keys that follow `NS.special`.
  func encodeValueKeys(with coder: ArchiveEncoder) throws
}

extension ArchivedNSValue {
  static var archivedClassNames: [String] { ["NSValue"] }
  public var archiveClass: (name: String, classes: [String]) { NSValueSpecial.archiveClass }
  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.integer(Self.special), forKey: "NS.special")
    try encodeValueKeys(with: coder)
  }
}

/// The `NSValue`s archived as one string, `NSStringFromPoint`'s (`NSStringFromSize`'s,
/// `NSStringFromRect`'s) form (their `description`), under a key of their kind.
protocol ArchivedGeometryString: ArchivedNSValue, CustomStringConvertible {
  /// `NS.pointval`, `NS.sizeval` or `NS.rectval`.
  static var stringKey: String { get }
}

extension ArchivedGeometryString {
  func encodeValueKeys(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.uid(try coder.reference(to: description)), forKey: Self.stringKey)
  }
}

extension ArchivedPoint: ArchivedGeometryString {
  static var special: Int { NSValueSpecial.point }
  static var stringKey: String { "NS.pointval" }
}

extension ArchivedSize: ArchivedGeometryString {
  static var special: Int { NSValueSpecial.size }
  static var stringKey: String { "NS.sizeval" }
}

extension ArchivedRect: ArchivedGeometryString {
  static var special: Int { NSValueSpecial.rect }
  static var stringKey: String { "NS.rectval" }
}

extension ArchivedEdgeInsets: ArchivedNSValue {
  static var special: Int { NSValueSpecial.edgeInsets }
  func encodeValueKeys(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.real(top), forKey: "NS.edgeval.top")
    coder.encodeRaw(.real(left), forKey: "NS.edgeval.left")
    coder.encodeRaw(.real(bottom), forKey: "NS.edgeval.bottom")
    coder.encodeRaw(.real(right), forKey: "NS.edgeval.right")
  }
}

extension ArchivedRange: ArchivedNSValue {
  static var special: Int { NSValueSpecial.range }
  func encodeValueKeys(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.uid(try coder.reference(to: length)), forKey: "NS.rangeval.length")
    coder.encodeRaw(.uid(try coder.reference(to: location)), forKey: "NS.rangeval.location")
  }
}

extension ArchiveDecoder {
  /// Decodes an `NSValue`: a point, size, rect, range or edge insets by its `NS.special`, or, with
  /// no `NS.special`, a value of any other Objective-C type (``ArchivedTypedValue``).
  func foundationValue() throws -> Any {
    guard let special = try storedInteger("NS.special", of: "NSValue") else {
      return try ArchivedTypedValue(archivedBy: self)
    }
    switch special {
    case NSValueSpecial.point:
      let numbers = try geometry("NS.pointval", count: 2)
      return ArchivedPoint(x: numbers[0], y: numbers[1])
    case NSValueSpecial.size:
      let numbers = try geometry("NS.sizeval", count: 2)
      return ArchivedSize(width: numbers[0], height: numbers[1])
    case NSValueSpecial.rect:
      let numbers = try geometry("NS.rectval", count: 4)
      return ArchivedRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    case NSValueSpecial.range:
      guard let location = try decode(Int.self, forKey: "NS.rangeval.location"),
        let length = try decode(Int.self, forKey: "NS.rangeval.length")
      else {
        throw corrupt("NSValue", "is a range without NS.rangeval.location and NS.rangeval.length")
      }
      guard location >= 0, length >= 0 else {
        throw corrupt("NSValue", "is a range with a negative location or length")
      }
      return ArchivedRange(location: location, length: length)
    case NSValueSpecial.edgeInsets:
      var sides: [Double] = []
      for key in ["NS.edgeval.top", "NS.edgeval.left", "NS.edgeval.bottom", "NS.edgeval.right"] {
        guard let side = try storedReal(key, of: "NSValue") else {
          throw corrupt("NSValue", "is edge insets without \(key)")
        }
        sides.append(side)
      }
      return ArchivedEdgeInsets(top: sides[0], left: sides[1], bottom: sides[2], right: sides[3])
    default:
      throw KeyedArchiveError(.unknownClass, "\(location) is an NSValue of NS.special kind \(special), which is not modelled (known: 1 point, 2 size, 3 rect, 4 range, 12 edge insets)")
    }
  }

  private func geometry(_ key: String, count: Int) throws -> [Double] {
    guard let text = try decode(String.self, forKey: key) else {
      throw corrupt("NSValue", "has NS.special for \(key) but no \(key) string")
    }
    guard let numbers = GeometryString.numbers(in: text, count: count) else {
      throw corrupt("NSValue", "has a \(key) that is not of the form \(count == 2 ? "{a, b}" : "{{x, y}, {w, h}}")")
    }
    return numbers
  }
}
