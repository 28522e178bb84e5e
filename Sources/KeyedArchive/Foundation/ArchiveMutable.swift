public import FoundationEssentials
import PropertyLists

/// A Swift value that has a mutable Foundation counterpart (`NSMutableString` for `String`,
/// `NSMutableArray` for `Array`…), so that ``ArchiveMutable`` can archive it under that class.
public protocol ArchiveMutableFoundationValue {
  /// `$classname` and `$classes` of the mutable class.
  var mutableArchiveClass: (name: String, classes: [String]) { get }
  /// Writes the mutable class's keys; by default the same keys as the immutable class.
  func encodeMutableArchiveContents(with coder: ArchiveEncoder) throws
}

extension ArchiveMutableFoundationValue where Self: ArchiveFoundationValue {
  public func encodeMutableArchiveContents(with coder: ArchiveEncoder) throws {
    try encodeArchiveContents(with: coder)
  }
}

/// Archives a value as the *mutable* Foundation class: `NSMutableString`, `NSMutableData`,
/// `NSMutableArray`, `NSMutableDictionary`, `NSMutableSet`, `NSMutableOrderedSet`,
/// `NSMutableIndexSet` or `NSMutableAttributedString`.
///
/// Swift values carry no mutability, so an archiver writes the immutable class for them
/// (`NSArray` for an array). Wrap a value to record the mutable class instead, for readers that
/// insist on it:
///
/// ```swift
/// try coder.encode(ArchiveMutable(tags), forKey: "tags")       // {NS.objects, $class → NSMutableArray}
/// try coder.encode(ArchiveMutable("draft"), forKey: "title")   // {NS.string: "draft", $class → NSMutableString}
/// ```
///
/// Strings and data, which are stored inline when immutable, become objects of their own:
/// `{NS.string: "…"}` and `{NS.data: <bytes>}`. Decoding gives back the plain Swift value.
public struct ArchiveMutable<Value: ArchiveMutableFoundationValue>: ArchiveFoundationValue {
  public var value: Value

  public init(_ value: Value) { self.value = value }

  public var archiveClass: (name: String, classes: [String]) { value.mutableArchiveClass }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    try value.encodeMutableArchiveContents(with: coder)
  }
}

extension ArchiveMutable: Equatable where Value: Equatable {}
extension ArchiveMutable: Hashable where Value: Hashable {}
extension ArchiveMutable: Sendable where Value: Sendable {}

extension String: ArchiveMutableFoundationValue {
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableString", ["NSMutableString", "NSString", "NSObject"])
  }
  /// `{NS.string: "…"}`, the string inline.
  public func encodeMutableArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.string(self), forKey: "NS.string")
  }
}

extension Data: ArchiveMutableFoundationValue {
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableData", ["NSMutableData", "NSData", "NSObject"])
  }
  /// `{NS.data: <bytes>}`, the bytes inline.
  public func encodeMutableArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.data(self), forKey: "NS.data")
  }
}

extension Array: ArchiveMutableFoundationValue {
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableArray", ["NSMutableArray", "NSArray", "NSObject"])
  }
}

extension Dictionary: ArchiveMutableFoundationValue {
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"])
  }
}

extension Set: ArchiveMutableFoundationValue {
  public var mutableArchiveClass: (name: String, classes: [String]) {
    ("NSMutableSet", ["NSMutableSet", "NSSet", "NSObject"])
  }
}
