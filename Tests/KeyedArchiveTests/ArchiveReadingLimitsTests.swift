import Foundation
import Testing
import TestSupport

import KeyedArchive
import PropertyLists
import StasisSystem

/// The unarchiver reads an archive's property list under its own limits (depth, object count,
/// bytes), so a hostile plist inside an archive meets the limit its caller chose.
@Suite("Keyed archives: the property list is read under the archive's limits")
struct ArchiveReadingLimitsTests {
  /// A valid archive whose one string object sits beside an entry holding arrays nested
  /// `depth` deep (plist containers, not archived objects).
  static func archive(nestedArrays depth: Int) throws -> Data {
    var deep: PropertyListValue = "bottom"
    for _ in 0..<depth { deep = [deep] }
    let plist = handMadeArchive(["$null", "root string", ["padding": deep]])
    return try plist.encoded(as: .binary)
  }

  @Test func limitsMapOntoTheReadersOptions() {
    let limits = KeyedUnarchiver.Limits(maximumDepth: 7, maximumObjectCount: 9, maximumByteCount: 11)
    #expect(limits.propertyListReadingOptions == PropertyListReadingOptions(
      maximumDepth: 7, maximumObjectCount: 9, maximumByteCount: 11))
    #expect(KeyedUnarchiver.Limits.default == KeyedUnarchiver.Limits())
    #expect(KeyedUnarchiver.Limits().maximumDepth == 512)
    #expect(KeyedUnarchiver.Limits().maximumObjectCount == 1 << 22)
    #expect(KeyedUnarchiver.Limits().maximumByteCount == 256 << 20)
  }

  @Test func aDeepPlistInsideAnArchiveIsRefusedWithTheArchivesDepthLimit() throws {
    let data = try Self.archive(nestedArrays: 40)
    // Within the default limits the archive opens and its root decodes.
    let opened = try KeyedUnarchiver(data: data)
    #expect(try opened.decodeObject(forKey: "root") as? String == "root string")
    // With the archive's depth limit below the plist's nesting, reading the plist fails.
    let limits = KeyedUnarchiver.Limits(maximumDepth: 20)
    let error = expectError(KeyedArchiveError.self, .limitExceeded) { try KeyedUnarchiver(data: data, limits: limits) }
    let cause = error?.cause(PropertyListError.self)
    #expect(cause?.code == .tooDeep, "underlying: \(String(describing: error?.underlying))")
    // The same archive through the file entry point.
    let folder = try ScratchFolder("archive-limits")
    defer { folder.remove() }
    let path = folder.file("deep.archive")
    try data.write(to: URL(fileURLWithPath: path))
    expectError(KeyedArchiveError.self, .limitExceeded) {
      try KeyedUnarchiver.unarchivedObject(ofClass: String.self, fromFile: path, limits: limits)
    }
    #expect(try KeyedUnarchiver.unarchivedObject(ofClass: String.self, fromFile: path) == "root string")
  }

  @Test func theArchivesOwnStructureFitsSmallDepthLimits() throws {
    // Root dictionary, $objects, an object, an array in it: four levels.
    let data = try KeyedArchiver.archivedData(withRootObject: ["a", "b"] as [Any])
    let value = try KeyedUnarchiver.unarchiveTopLevelObject(from: data, limits: KeyedUnarchiver.Limits(maximumDepth: 4))
    #expect(value as? [String] == ["a", "b"])
  }
}
