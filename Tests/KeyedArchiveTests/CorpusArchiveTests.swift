import Foundation
import Testing
import TestSupport

import KeyedArchive
import PropertyLists

/// What one Apple-made archive in `corpus/keyedarchive` holds.
struct CorpusArchive: Sendable, CustomTestStringConvertible {
  /// The path under `keyedarchive/`.
  var name: String
  /// Decodes the root securely, naming the classes a careful caller would.
  var decodeSecurely: @Sendable (Data) throws -> Any?
  /// Checks a decoded root against the values the file holds.
  var check: @Sendable (Any?) throws -> Void

  var testDescription: String { name }
}

private func secure<T>(_ type: T.Type) -> @Sendable (Data) throws -> Any? {
  { try KeyedUnarchiver.unarchivedObject(ofClass: T.self, from: $0, registry: corpusRegistry) }
}

private func secure(_ types: [Any.Type]) -> @Sendable (Data) throws -> Any? {
  return { try KeyedUnarchiver.unarchivedObject(ofClasses: types, from: $0, registry: corpusRegistry) }
}

private func expectSet(_ root: Any?, _ expected: Set<Int>) throws {
  let set = try #require(root as? Set<AnyHashable>)
  #expect(set == Set(expected.map { AnyHashable($0) }))
}

private func expectIndexSet(_ root: Any?, _ ranges: [Range<Int>]) throws {
  let set = try #require(root as? ArchivedIndexSet)
  #expect(set.ranges == ranges)
}

private func expectOrderedSet(_ root: Any?, _ elements: [AnyHashable]) throws {
  let set = try #require(root as? ArchivedOrderedSet)
  #expect(set.elements == elements)
}

private func expectGMT(_ zone: TimeZone?) {
  #expect(zone?.identifier == "GMT")
  #expect(zone?.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: 0)) == 0)
}

private func expectDateIntervalFormatter(
  _ root: Any?, dateStyle: Int, timeStyle: Int, template: String, fromStyles: String, useTemplate: Bool, locale: String,
  zoneOffset: Int
) throws {
  let formatter = try #require(root as? DateIntervalFormatterArchive)
  #expect(formatter.dateStyle == dateStyle && formatter.timeStyle == timeStyle)
  #expect(formatter.dateTemplate == template)
  #expect(formatter.dateTemplateFromStyles == fromStyles)
  #expect(formatter.modified && formatter.useTemplate == useTemplate)
  #expect(formatter.locale?.identifier == locale)
  #expect(formatter.timeZone?.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: 0)) == zoneOffset)
  let calendar = try #require(formatter.calendar)
  #expect(calendar.identifier == "gregorian")
  #expect(calendar.locale?.identifier == locale)
  #expect(calendar.firstWeekday == 1 && calendar.minimumDaysInFirstWeek == 1)
  #expect(calendar.gregorianStartDate == Date(timeIntervalSinceReferenceDate: -13_197_600_000))
  expectGMT(calendar.timeZone)
}

private func expectMeasurement(_ root: Any?, value: Double, symbol: String, converter: (Double, Double)?, specifier: Int) throws {
  // Foundation's own NSMeasurement support, no longer the test's stand-in classes.
  let measurement = try #require(root as? ArchivedMeasurement)
  #expect(measurement.value == value)
  #expect(measurement.unit.symbol == symbol)
  if let converter {
    #expect(measurement.unit.className != "NSUnit")
    #expect(measurement.unit.converter == ArchivedUnitConverter(coefficient: converter.0, constant: converter.1))
    #expect(measurement.unit.specifier == specifier)
  } else {
    #expect(measurement.unit.className == "NSUnit" && measurement.unit.converter == nil)
  }
}

private func expectTextCheckingResult(_ root: Any?, pattern: String, ranges: [(Int, Int)]) throws {
  let result = try #require(root as? TextCheckingResultArchive)
  #expect(result.regularExpression?.pattern == pattern)
  #expect(result.regularExpression?.options == 0)
  #expect(result.range == ArchivedRange(location: ranges[0].0, length: ranges[0].1))
  #expect(result.ranges == ranges.map { ArchivedRange(location: $0.0, length: $0.1) })
}

extension CorpusArchive {
  static let all: [CorpusArchive] = [
    CorpusArchive(name: "NSKeyedUnarchiver-ArrayTest.plist", decodeSecurely: secure([String].self)) { root in
      #expect(root as? [String] == ["baa", "baa", "black", "sheep"])
    },
    CorpusArchive(name: "NSKeyedUnarchiver-ComplexTest.plist",
                  decodeSecurely: secure([[String: Any].self, [Any].self, ArchiveNull.self, URL.self, UUID.self])) { root in
      let dictionary = try #require(root as? [AnyHashable: Any])
      #expect(dictionary.count == 4)
      #expect(dictionary["string"] as? String == "hello")
      let array = try #require(dictionary["array"] as? [Any])
      #expect(array.count == 4)
      #expect(array[0] is ArchiveNull)
      #expect(array[1] as? String == "hello")
      #expect(array[2] as? Int == 34545)
      #expect(array[3] as? [AnyHashable: Any] as? [AnyHashable: String] == ["key": "val"])
      let url = try #require(dictionary["url"] as? URL)
      #expect(url == URL(string: "index.xml", relativeTo: URL(string: "https://www.swift.org")))
      #expect(url.absoluteString == "https://www.swift.org/index.xml")
      #expect(dictionary["uuid"] as? UUID == UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"))
    },
    CorpusArchive(name: "NSKeyedUnarchiver-ConcreteValueTest.plist", decodeSecurely: secure(ArchivedTypedValue.self)) { root in
      #expect(root as? ArchivedTypedValue == ArchivedTypedValue(objCType: "[3i]", fields: [
        .array(ArchivedCArray(elementType: UInt8(ascii: "i"), elementSize: 4, elements: [1, 2, 3])),
      ]))
    },
    CorpusArchive(name: "NSKeyedUnarchiver-EdgeInsetsTest.plist", decodeSecurely: secure(ArchivedEdgeInsets.self)) { root in
      #expect(root as? ArchivedEdgeInsets == ArchivedEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    },
    CorpusArchive(name: "NSKeyedUnarchiver-NotificationTest.plist", decodeSecurely: secure(NotificationArchive.self)) { root in
      let notification = try #require(root as? NotificationArchive)
      #expect(notification.name == "notification-name")
      #expect(notification.object as? String == "notification-object")
      #expect(notification.userInfo as? [AnyHashable: String] == ["notification-key": "notification-val"])
    },
    CorpusArchive(name: "NSKeyedUnarchiver-OrderedSetTest.plist", decodeSecurely: secure(ArchivedOrderedSet.self)) { root in
      try expectOrderedSet(root, ["valgeir", "nico", "puzzle"])
    },
    CorpusArchive(name: "NSKeyedUnarchiver-RangeTest.plist", decodeSecurely: secure(ArchivedRange.self)) { root in
      #expect(root as? ArchivedRange == ArchivedRange(location: 97345, length: 98345))
    },
    CorpusArchive(name: "NSKeyedUnarchiver-RectTest.plist", decodeSecurely: secure(ArchivedRect.self)) { root in
      #expect(root as? ArchivedRect == ArchivedRect(x: 400, y: 300, width: 200, height: 300))
    },
    CorpusArchive(name: "NSKeyedUnarchiver-URLTest.plist", decodeSecurely: secure(URL.self)) { root in
      let url = try #require(root as? URL)
      #expect(url.relativeString == "foo.xml")
      #expect(url.baseURL == URL(string: "https://www.example.com"))
      #expect(url.absoluteString == "https://www.example.com/foo.xml")
    },
    CorpusArchive(name: "NSKeyedUnarchiver-UUIDTest.plist", decodeSecurely: secure(UUID.self)) { root in
      #expect(root as? UUID == UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
    },
    CorpusArchive(name: "macOS-10.14/ByteCountFormatter-AllFieldsSet.archive", decodeSecurely: secure(ByteCountFormatterArchive.self)) { root in
      var expected = ByteCountFormatterArchive()
      (expected.allowedUnits, expected.countStyle, expected.formattingContext) = (3, 2, 4)
      (expected.zeroPads, expected.includesUnit, expected.includesCount) = (true, false, false)
      (expected.isAdaptive, expected.allowsNonnumericFormatting) = (false, false)
      #expect(root as? ByteCountFormatterArchive == expected)
    },
    CorpusArchive(name: "macOS-10.14/ByteCountFormatter-Default.archive", decodeSecurely: secure(ByteCountFormatterArchive.self)) { root in
      #expect(root as? ByteCountFormatterArchive == ByteCountFormatterArchive())
    },
    CorpusArchive(name: "macOS-10.14/DateIntervalFormatter-Default.archive", decodeSecurely: secure(DateIntervalFormatterArchive.self)) { root in
      try expectDateIntervalFormatter(root, dateStyle: 1, timeStyle: 1, template: "", fromStyles: "y-MM-dd HH:mm", useTemplate: false,
                                      locale: "", zoneOffset: 0)
      expectGMT((root as? DateIntervalFormatterArchive)?.timeZone)
    },
    CorpusArchive(name: "macOS-10.14/DateIntervalFormatter-ValuesSetWithTemplate.archive",
                  decodeSecurely: secure(DateIntervalFormatterArchive.self)) { root in
      try expectDateIntervalFormatter(root, dateStyle: 1, timeStyle: 1, template: "dd mm yyyy HH:MM", fromStyles: "y/MM/dd H:mm",
                                      useTemplate: true, locale: "ja-JP", zoneOffset: 3600)
    },
    CorpusArchive(name: "macOS-10.14/DateIntervalFormatter-ValuesSetWithoutTemplate.archive",
                  decodeSecurely: secure(DateIntervalFormatterArchive.self)) { root in
      try expectDateIntervalFormatter(root, dateStyle: 3, timeStyle: 0, template: "", fromStyles: "y年M月d日", useTemplate: false,
                                      locale: "ja-JP", zoneOffset: 3600)
    },
    CorpusArchive(name: "macOS-10.14/ISO8601DateFormatter-Default.archive", decodeSecurely: secure(ISO8601DateFormatterArchive.self)) { root in
      let formatter = try #require(root as? ISO8601DateFormatterArchive)
      #expect(formatter.formatOptions == 1907)
      expectGMT(formatter.timeZone)
    },
    CorpusArchive(name: "macOS-10.14/ISO8601DateFormatter-OptionsSet.archive", decodeSecurely: secure(ISO8601DateFormatterArchive.self)) { root in
      let formatter = try #require(root as? ISO8601DateFormatterArchive)
      #expect(formatter.formatOptions == 1366)
      expectGMT(formatter.timeZone)
    },
    CorpusArchive(name: "macOS-10.14/NSAttributedString.archive", decodeSecurely: secure(ArchivedAttributedString.self)) { root in
      let text = try #require(root as? ArchivedAttributedString)
      #expect(text.string == "0123456789")
      let helvetica: [String: Any] = ["Font": "Helvetica", "Size": 123]
      let times: [String: Any] = ["Font": "Times", "Size": 456]
      let expected: [(Range<Int>, [String: Any])] = [
        (0..<1, [:]), (1..<2, helvetica), (2..<6, times), (6..<8, helvetica), (8..<9, times), (9..<10, [:]),
      ]
      #expect(text.runs.count == expected.count)
      for (run, (range, attributes)) in zip(text.runs, expected) {
        #expect(run.range == range)
        #expect(archiveEqual(run.attributes, attributes), "run \(range): \(run.attributes)")
      }
    },
    CorpusArchive(name: "macOS-10.14/NSCountedSet-Empty.archive", decodeSecurely: secure(ArchivedCountedSet.self)) { root in
      let set = try #require(root as? ArchivedCountedSet)
      #expect(set.isEmpty)
    },
    CorpusArchive(name: "macOS-10.14/NSCountedSet-NumbersAppearingOnce.archive", decodeSecurely: secure(ArchivedCountedSet.self)) { root in
      #expect(root as? ArchivedCountedSet == ArchivedCountedSet([1, 2, 3, 4, 5]))
    },
    CorpusArchive(name: "macOS-10.14/NSIndexPath-Empty.archive", decodeSecurely: secure(IndexPath.self)) { root in
      #expect(root as? IndexPath == [])
    },
    CorpusArchive(name: "macOS-10.14/NSIndexPath-OneIndex.archive", decodeSecurely: secure(IndexPath.self)) { root in
      #expect(root as? IndexPath == [52])
    },
    CorpusArchive(name: "macOS-10.14/NSIndexSet-Empty.archive", decodeSecurely: secure(ArchivedIndexSet.self)) { root in
      try expectIndexSet(root, [])
    },
    CorpusArchive(name: "macOS-10.14/NSIndexSet-OneRange.archive", decodeSecurely: secure(ArchivedIndexSet.self)) { root in
      try expectIndexSet(root, [0..<50])
    },
    CorpusArchive(name: "macOS-10.14/NSMeasurement-Angle.archive", decodeSecurely: secure(ArchivedMeasurement.self)) { root in
      try expectMeasurement(root, value: 90, symbol: "°", converter: (1, 0), specifier: 256)
    },
    CorpusArchive(name: "macOS-10.14/NSMeasurement-Frequency.archive", decodeSecurely: secure(ArchivedMeasurement.self)) { root in
      try expectMeasurement(root, value: 1400, symbol: "MHz", converter: (1_000_000, 0), specifier: 4098)
    },
    CorpusArchive(name: "macOS-10.14/NSMeasurement-Zero.archive", decodeSecurely: secure(ArchivedMeasurement.self)) { root in
      try expectMeasurement(root, value: 0, symbol: "", converter: nil, specifier: 0)
    },
    CorpusArchive(name: "macOS-10.14/NSMutableIndexSet-Empty.archive", decodeSecurely: secure(ArchivedIndexSet.self)) { root in
      try expectIndexSet(root, [])
    },
    CorpusArchive(name: "macOS-10.14/NSMutableIndexSet-ManyRanges.archive", decodeSecurely: secure(ArchivedIndexSet.self)) { root in
      // The last range ends at NSIntegerMax: its location is a nine-byte varint.
      try expectIndexSet(root, [0..<50, 100..<150, 1000..<1050, (Int.max - 50)..<Int.max])
    },
    CorpusArchive(name: "macOS-10.14/NSMutableIndexSet-OneRange.archive", decodeSecurely: secure(ArchivedIndexSet.self)) { root in
      try expectIndexSet(root, [0..<50])
    },
    CorpusArchive(name: "macOS-10.14/NSMutableOrderedSet-Empty.archive", decodeSecurely: secure(ArchivedOrderedSet.self)) { root in
      try expectOrderedSet(root, [])
    },
    CorpusArchive(name: "macOS-10.14/NSMutableSet-Empty.archive", decodeSecurely: secure(Set<Int>.self)) { root in
      try expectSet(root, [])
    },
    CorpusArchive(name: "macOS-10.14/NSMutableSet-Numbers.archive", decodeSecurely: secure(Set<Int>.self)) { root in
      try expectSet(root, [1, 2, 3, 4, 5])
    },
    CorpusArchive(name: "macOS-10.14/NSOrderedSet-Empty.archive", decodeSecurely: secure(ArchivedOrderedSet.self)) { root in
      try expectOrderedSet(root, [])
    },
    CorpusArchive(name: "macOS-10.14/NSOrderedSet-Numbers.archive", decodeSecurely: secure(ArchivedOrderedSet.self)) { root in
      try expectOrderedSet(root, [1, 2, 3, 4, 5])
    },
    CorpusArchive(name: "macOS-10.14/NSSet-Empty.archive", decodeSecurely: secure(Set<Int>.self)) { root in
      try expectSet(root, [])
    },
    CorpusArchive(name: "macOS-10.14/NSSet-Numbers.archive", decodeSecurely: secure(Set<Int>.self)) { root in
      try expectSet(root, [1, 2, 3, 4, 5])
    },
    CorpusArchive(name: "macOS-10.14/NSTextCheckingResult-ComplexRegex.archive", decodeSecurely: secure(TextCheckingResultArchive.self)) { root in
      try expectTextCheckingResult(root, pattern: "a(a(a(a(a(a(a(a(a))))))))",
                                   ranges: [(0, 9), (1, 8), (2, 7), (3, 6), (4, 5), (5, 4), (6, 3), (7, 2), (8, 1)])
    },
    CorpusArchive(name: "macOS-10.14/NSTextCheckingResult-ExtendedRegex.archive", decodeSecurely: secure(TextCheckingResultArchive.self)) { root in
      try expectTextCheckingResult(root, pattern: "a(a(a(a(a(a)))))", ranges: [(0, 6), (1, 5), (2, 4), (3, 3), (4, 2), (5, 1)])
    },
    CorpusArchive(name: "macOS-10.14/NSTextCheckingResult-SimpleRegex.archive", decodeSecurely: secure(TextCheckingResultArchive.self)) { root in
      try expectTextCheckingResult(root, pattern: "aaa", ranges: [(0, 3)])
    },
  ]
}

@Suite("Apple-made keyed archives", .enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct CorpusArchiveTests {
  static func data(_ archive: CorpusArchive) throws -> Data {
    try Data(contentsOf: Corpus.root.appendingPathComponent("keyedarchive").appendingPathComponent(archive.name))
  }

  @Test func everyCorpusArchiveHasExpectations() {
    let files = Set(Corpus.files(in: "keyedarchive").map { String($0.name.dropFirst("keyedarchive/".count)) })
    let covered = Set(CorpusArchive.all.map(\.name))
    #expect(files == covered, "without expectations: \(files.subtracting(covered).sorted()); missing files: \(covered.subtracting(files).sorted())")
    #expect(files.count == 40)
  }

  @Test(arguments: CorpusArchive.all)
  func decodesToTheValuesTheFileHolds(_ archive: CorpusArchive) throws {
    let data = try Self.data(archive)
    try archive.check(try KeyedUnarchiver.unarchiveTopLevelObject(from: data, registry: corpusRegistry))
    try archive.check(try archive.decodeSecurely(data))
  }

  @Test(arguments: CorpusArchive.all)
  func reArchivingGivesTheSameValues(_ archive: CorpusArchive) throws {
    let decoded = try KeyedUnarchiver.unarchiveTopLevelObject(from: try Self.data(archive), registry: corpusRegistry)
    for format in [PropertyListFormat.binary, .xml] {
      let again = try KeyedArchiver.archivedData(withRootObject: decoded, registry: corpusRegistry, format: format)
      try archive.check(try KeyedUnarchiver.unarchiveTopLevelObject(from: again, registry: corpusRegistry))
      try archive.check(try archive.decodeSecurely(again))
    }
  }

  @Test func appleWritesFoundationClassesAsStasisDoes() throws {
    // Where Stasis's layout is fully determined, re-archiving an Apple archive gives the same
    // $objects, entry for entry (class entries included).
    let exact = [
      "NSKeyedUnarchiver-ArrayTest.plist", "NSKeyedUnarchiver-EdgeInsetsTest.plist", "NSKeyedUnarchiver-RangeTest.plist",
      "NSKeyedUnarchiver-RectTest.plist", "NSKeyedUnarchiver-UUIDTest.plist", "NSKeyedUnarchiver-URLTest.plist",
      "NSKeyedUnarchiver-OrderedSetTest.plist", "NSKeyedUnarchiver-ConcreteValueTest.plist",
      "macOS-10.14/NSIndexSet-OneRange.archive", "macOS-10.14/NSIndexPath-OneIndex.archive",
      "macOS-10.14/NSOrderedSet-Numbers.archive", "macOS-10.14/NSIndexSet-Empty.archive",
    ]
    for name in exact {
      let archive = try #require(CorpusArchive.all.first { $0.name == name })
      let original = try Self.data(archive)
      let decoded = try KeyedUnarchiver.unarchiveTopLevelObject(from: original, registry: corpusRegistry)
      let again = try KeyedArchiver.archivedData(withRootObject: decoded, registry: corpusRegistry)
      #expect(try archivedObjects(again) == archivedObjects(original), "\(name)")
    }
  }
}
