import Foundation
import Testing
import TestSupport

import KeyedArchive
import PropertyLists

/// A keyed archive built by hand: `$objects` as given (entry 0 must be supplied by the caller,
/// normally `"$null"`), `$top` = `{root: UID 1}` unless told otherwise.
func handMadeArchive(_ objects: [PropertyListValue], top: PropertyListValue = ["root": .uid(1)]) -> PropertyListValue {
  ["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": top, "$objects": .array(objects)]
}

/// A class entry `{$classname, $classes}`.
func classEntry(_ names: String...) -> PropertyListValue {
  ["$classname": .string(names[0]), "$classes": .array(names.map { .string($0) })]
}

/// `$objects` of an archive written by Stasis.
func archivedObjects(_ data: Data) throws -> [PropertyListValue] {
  try #require(try PropertyListValue(decoding: data)["$objects"]?.arrayValue)
}

/// The object `$top.root` refers to, and the class entry its `$class` refers to.
func rootObject(_ data: Data) throws -> (object: PropertyListValue, classEntry: PropertyListValue?) {
  let archive = try PropertyListValue(decoding: data)
  let objects = try #require(archive["$objects"]?.arrayValue)
  let root = try #require(archive["$top"]?["root"]?.uidValue)
  let object = objects[Int(root)]
  let classEntry = object["$class"]?.uidValue.map { objects[Int($0)] }
  return (object, classEntry)
}

/// Follows a UID found in an archive's `$objects`.
func resolve(_ value: PropertyListValue?, in data: Data) throws -> PropertyListValue {
  let objects = try archivedObjects(data)
  let uid = try #require(value?.uidValue)
  return objects[Int(uid)]
}

/// Archives `value` with Stasis and decodes the root back without class restrictions.
func stasisRoundTrip(_ value: Any?, registry: ArchiveClassRegistry = .foundation, format: PropertyListFormat = .binary) throws -> Any? {
  let data = try KeyedArchiver.archivedData(withRootObject: value, registry: registry, format: format)
  return try KeyedUnarchiver.unarchiveTopLevelObject(from: data, registry: registry)
}

/// Whether two decoded archive values are equal: `Hashable` values by `==`, arrays and
/// dictionaries member by member, attributed strings and errors field by field, class
/// instances by identity.
func archiveEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
  switch (lhs, rhs) {
  case (nil, nil): return true
  case (nil, _), (_, nil): return false
  case let (left?, right?):
    if let left = left as? [Any], let right = right as? [Any] {
      return left.count == right.count && zip(left, right).allSatisfy { archiveEqual($0, $1) }
    }
    if let left = left as? [AnyHashable: Any], let right = right as? [AnyHashable: Any] {
      return left.count == right.count && left.allSatisfy { key, value in archiveEqual(value, right[key]) }
    }
    if let left = left as? [String: Any], let right = right as? [String: Any] {
      return left.count == right.count && left.allSatisfy { key, value in archiveEqual(value, right[key]) }
    }
    if let left = left as? ArchivedAttributedString, let right = right as? ArchivedAttributedString {
      return left.string == right.string && left.runs.count == right.runs.count
        && zip(left.runs, right.runs).allSatisfy { $0.range == $1.range && archiveEqual($0.attributes, $1.attributes) }
    }
    if let left = left as? ArchivedError, let right = right as? ArchivedError {
      return left.domain == right.domain && left.code == right.code && archiveEqual(left.userInfo, right.userInfo)
    }
    if type(of: left) is AnyClass, type(of: right) is AnyClass { return (left as AnyObject) === (right as AnyObject) }
    if let left = left as? AnyHashable, let right = right as? AnyHashable { return left == right }
    return false
  }
}
