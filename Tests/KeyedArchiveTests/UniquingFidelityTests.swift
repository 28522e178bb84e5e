import Foundation
import KeyedArchive
import PropertyLists
import Testing

/// Issue 14, findings 1–3: the archiver uniques scalars by exact identity (as CF's binary writer
/// and Stasis's own binary plist writer do) and never writes `$null` inside a collection.
@Suite("Keyed archiver: exact uniquing, nil in collections")
struct UniquingFidelityTests {
  /// The `$objects` of an archive.
  static func objects(_ data: Data) throws -> [PropertyListValue] {
    let archive = try PropertyListValue(decoding: data)
    return try #require(archive["$objects"]?.arrayValue)
  }

  static func roundTrip(_ root: [Any]) throws -> [Any] {
    let data = try KeyedArchiver.archivedData(withRootObject: root)
    return try #require(try KeyedUnarchiver.unarchiveTopLevelObject(from: data) as? [Any])
  }

  @Test(arguments: [[0.0, -0.0], [-0.0, 0.0]])
  func negativeZeroStaysApart(_ values: [Double]) throws {
    let back = try Self.roundTrip(values)
    let doubles = back.compactMap { $0 as? Double }
    #expect(doubles.count == 2)
    #expect(doubles.map { $0.sign } == values.map { $0.sign }, "signs \(doubles.map { $0.sign }) after the round trip")
    let reals = try Self.objects(KeyedArchiver.archivedData(withRootObject: values)).filter {
      if case .real = $0 { return true } else { return false }
    }
    #expect(reals.count == 2)
  }

  @Test func canonicallyEquivalentStringsStayApart() throws {
    let strings = ["\u{E9}", "e\u{301}"]
    let back = try Self.roundTrip(strings).compactMap { $0 as? String }
    #expect(back.map { Array($0.unicodeScalars) } == strings.map { Array($0.unicodeScalars) })
    let stored = try Self.objects(KeyedArchiver.archivedData(withRootObject: strings)).compactMap(\.stringValue)
    #expect(stored.contains { Array($0.unicodeScalars) == ["e", "\u{301}"] })
  }

  @Test func aFloatAndADoubleOfOneValueStayApart() throws {
    let objects = try Self.objects(KeyedArchiver.archivedData(withRootObject: [Float(1.5), 1.5] as [Any]))
    let widths = objects.compactMap { value -> PropertyListValue.RealWidth? in
      if case .real(_, let width) = value { return width } else { return nil }
    }
    #expect(widths.count == 2 && Set(widths).count == 2, "one float32 and one float64 object, got \(widths)")
  }

  @Test func equalScalarsAreStillStoredOnce() throws {
    let objects = try Self.objects(KeyedArchiver.archivedData(withRootObject: ["a", "a", 1, 1, 2.5, 2.5, true, true] as [Any]))
    #expect(objects.filter { $0 == .string("a") }.count == 1)
    #expect(objects.filter { $0 == .integer(1) }.count == 1)
    #expect(objects.filter { $0 == .real(2.5) }.count == 1)
    #expect(objects.filter { $0 == .bool(true) }.count == 1)
  }

  /// `[1, nil, 2]` was written with `$null` in `NS.objects`, which the unarchiver then refused.
  @Test func nilInACollectionIsArchivedAsNSNull() throws {
    let root: [Any] = [1, Optional<Int>.none as Any, 2]
    let data = try KeyedArchiver.archivedData(withRootObject: root)
    let back = try Self.roundTrip(root)
    #expect(back.count == 3)
    #expect(back[0] as? Int == 1 && back[2] as? Int == 2)
    #expect(back[1] is ArchiveNull, "got \(type(of: back[1]))")
    let classNames = try Self.objects(data).compactMap { $0["$classname"]?.stringValue }
    #expect(classNames.contains("NSNull"))
    let dictionary: [String: Any] = ["present": 1, "absent": Optional<String>.none as Any]
    let dictionaryBack = try #require(
      try KeyedUnarchiver.unarchiveTopLevelObject(from: KeyedArchiver.archivedData(withRootObject: dictionary)) as? [String: Any])
    #expect(dictionaryBack["absent"] is ArchiveNull)
  }

  /// Apple's Foundation has one NSTimeZone / NSLocale instance per identifier, so an archive
  /// holds each once; Swift's value types are shared the same way.
  @Test func timeZonesAndLocalesAreWrittenOnce() throws {
    let gmt = TimeZone(secondsFromGMT: 0)!
    let data = try KeyedArchiver.archivedData(withRootObject: [gmt, gmt, Locale(identifier: "fr_FR"), Locale(identifier: "fr_FR")] as [Any])
    let classNames = try Self.objects(data).compactMap { $0["$classname"]?.stringValue }
    let objects = try Self.objects(data)
    #expect(classNames.contains("NSTimeZone") && classNames.contains("NSLocale"))
    let lists = objects.compactMap { $0["NS.objects"]?.arrayValue }
    let references = try #require(lists.first)
    #expect(references.count == 4)
    #expect(references[0] == references[1] && references[2] == references[3] && references[0] != references[2])
  }
}
