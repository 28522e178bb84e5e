import Foundation
import KeyedArchive
import PropertyLists
import Testing
import TestSupport

/// GNUstep Base's NSKeyedArchiver, through the peer program Benchmarks/GNUstepPeer (built here with
/// its build.sh; the CI setup script installs gobjc and libgnustep-base-dev).
enum GNUstepPeer {
  /// The built peer, or nil when GNUstep is not installed (or the build failed: `buildMessage`).
  static let executable: String? = {
    let script = Corpus.repositoryRoot.appendingPathComponent("Benchmarks/GNUstepPeer/build.sh").path
    guard let outcome = try? ToolProcess.run("/bin/bash", [script]), outcome.status == 0 else { return nil }
    let path = outcome.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }()

  static let missingReason: Comment =
    "GNUstep Base not installed or the peer did not build (apt-get install gobjc libgnustep-base-dev; Benchmarks/GNUstepPeer/build.sh)"

  /// Runs the peer; its standard output, or a test failure naming its status and standard error.
  static func run(_ arguments: [String]) throws -> String {
    let executable = try #require(executable)
    let outcome = try ToolProcess.run(executable, arguments)
    guard outcome.status == 0 else {
      throw TestFailure("gnustep-archive-peer \(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.stderr)")
    }
    return outcome.stdoutText
  }

  /// The archive the peer writes of the `count`-item graph.
  static func archive(_ format: String, count: Int, objcNames: Bool) throws -> Data {
    try withScratchFolder("gnustep-peer") { folder in
      let path = folder.file("archive")
      _ = try run(["write", format, String(count), path] + (objcNames ? ["objc-names"] : []))
      return try Data(contentsOf: URL(fileURLWithPath: path))
    }
  }
}

@Suite("GNUstep NSKeyedArchiver interoperability", .enabled(if: GNUstepPeer.executable != nil, GNUstepPeer.missingReason))
struct GNUstepInteropTests {
  /// 2,500 items: three cycle parents, every category shared, CJK and emoji names.
  static let count = 2500

  @Test("Stasis's archive is read by GNUstep to the same graph", arguments: [PropertyListFormat.binary, .xml])
  func stasisArchiveReadByGNUstep(format: PropertyListFormat) throws {
    let store = Store.make(count: Self.count)
    let data = try KeyedArchiver.archivedData(withRootObject: store, registry: Store.registry(), format: format)
    let dump = try withScratchFolder("gnustep-interop") { folder in
      try folder.write(Array(data), to: "stasis.archive")
      return try GNUstepPeer.run(["dump", folder.file("stasis.archive")])
    }
    #expect(dump == store.dump)
  }

  /// A fact of GNUstep Base 1.28, not worked around: its archiver writes an NSDate as a bare
  /// property-list date in `$objects` (Apple's and Stasis's write an object of class NSDate with
  /// `NS.time`), which a keyed archive does not hold, so Stasis refuses GNUstep's archive with its
  /// typed error naming that `$objects` entry. GNUstep reads its own archive back to the graph.
  /// The archive is under GNUstep's own class names (PeerStore, PeerCategory, PeerItem), which its
  /// archiver writes correctly; binary at 300 items because GNUstep's binary writer is quadratic.
  @Test("GNUstep's archive stores dates as bare plist dates, which Stasis refuses", arguments: [("binary", 300), ("xml", count)])
  func gnustepArchiveReadByStasis(format: String, count: Int) throws {
    let data = try GNUstepPeer.archive(format, count: count, objcNames: true)
    #expect(data.starts(with: Array((format == "xml" ? "<?xml" : "bplist00").utf8)))
    let objects = try archivedObjects(data)
    let item = try #require(objects.first { $0["serialNumber"] != nil })
    let date = try resolve(item["dateCreated"], in: data)
    #expect(date.dateValue == Date(timeIntervalSinceReferenceDate: 700_000_000))
    #expect(!objects.contains { $0["$classname"]?.stringValue == "NSDate" })
    let registry = Store.registry(store: "PeerStore", category: "PeerCategory", item: "PeerItem")
    let error = try #require(throws: KeyedArchiveError.self) {
      try KeyedUnarchiver.unarchivedObject(ofClass: Store.self, from: data, registry: registry)
    }
    #expect("\(error)".contains("is a date"))
    // GNUstep reads its own archive to the graph Stasis builds from GRAPH.md, except (XML only)
    // the names with an emoji (items i % 10 == 7, below).
    let peerDump = try withScratchFolder("gnustep-interop") { folder in
      try folder.write(Array(data), to: "gnustep.archive")
      return try GNUstepPeer.run(["dump", folder.file("gnustep.archive")])
    }
    let expected = Store.make(count: count).dump.split(separator: "\n")
    let differing = zip(peerDump.split(separator: "\n"), expected).filter { $0 != $1 }.map(\.1)
    #expect(peerDump.split(separator: "\n").count == expected.count)
    if format == "xml" {
      #expect(differing.count == count / 10)
      #expect(differing.allSatisfy { $0.contains("🎁") })
    } else {
      #expect(differing.isEmpty)
    }
  }

  /// A fact of GNUstep Base 1.28's XML property-list writer, not worked around: a character
  /// outside the Basic Multilingual Plane (🎁, U+1F381) is written as the escapes `\UD83C\UDF81`
  /// (its surrogate pair), which XML property lists do not have: Apple's reader and Stasis's read
  /// the twelve characters as they are, and GNUstep's own reader gives back "\UDF81".
  @Test("GNUstep's XML writer escapes a non-BMP character as \\U surrogates")
  func gnustepXMLEscapesSurrogates() throws {
    let data = try GNUstepPeer.archive("xml", count: 8, objcNames: true)
    let strings = try archivedObjects(data).compactMap(\.stringValue)
    #expect(strings.contains("商品 7 \\UD83C\\UDF81"))
    #expect(!strings.contains("商品 7 🎁"))
    let dump = try withScratchFolder("gnustep-interop") { folder in
      try folder.write(Array(data), to: "gnustep.archive")
      return try GNUstepPeer.run(["dump", folder.file("gnustep.archive")])
    }
    #expect(dump.contains("item 7 商品 7 \\UDF81 "))
  }

  /// A fact of GNUstep Base 1.28, not worked around: with -setClassName:forClass: for Store,
  /// Category and Item (as GRAPH.md asks), its archiver writes one class entry for all three
  /// (`$classname` "Category", `$classes` empty), so every object names the same class. Stasis
  /// then refuses the root (a Category where a Store is asked for) with its typed error; Apple's
  /// and Stasis's archivers write one entry per class.
  @Test("GNUstep's -setClassName:forClass: collapses the mapped classes into one class entry")
  func gnustepMappedClassNamesCollapse() throws {
    let data = try GNUstepPeer.archive("xml", count: 30, objcNames: false)
    let objects = try archivedObjects(data)
    let classEntries = objects.filter { $0["$classname"] != nil }
    let userEntries = classEntries.filter { !(($0["$classname"]?.stringValue ?? "").hasPrefix("NS")) }
    #expect(userEntries.count == 1)
    #expect(userEntries.first?["$classname"]?.stringValue == "Category")
    #expect(userEntries.first?["$classes"]?.arrayValue?.isEmpty == true)
    let (root, rootClass) = try rootObject(data)
    #expect(root["items"] != nil)
    #expect(rootClass?["$classname"]?.stringValue == "Category")
    #expect(throws: KeyedArchiveError.self) {
      try KeyedUnarchiver.unarchivedObject(ofClass: Store.self, from: data, registry: Store.registry())
    }
    // Stasis's own archive of the same graph has one entry per class.
    let stasis = try KeyedArchiver.archivedData(
      withRootObject: Store.make(count: 30), registry: Store.registry(), format: .xml)
    let stasisNames = Set(try archivedObjects(stasis).compactMap { $0["$classname"]?.stringValue })
    #expect(stasisNames.isSuperset(of: ["Store", "Category", "Item"]))
  }
}
