import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// The XML property-list reader and writer against real files and seeded values.
@Suite("XML property lists: corpus and round trips")
struct XMLPlistTests {
  /// The goplist "unusual" files that CoreFoundation rejects, with the CF rule that rejects them.
  /// (plistlib rejects s05–s10 for being ill-formed XML; CF is laxer in some places and stricter
  /// in others, so the two sets differ.)
  static let rejectedLikeCF: [String: (code: PropertyListError.Code, line: Int, reason: String)] = [
    "xmlplist/goplist_unusual/s04.plist": (
      .unexpectedInput, 3,
      "a comment inside <key> text: CF's parseStringTag treats every <! in text as the start of <![CDATA[ and fails otherwise (plistlib accepts it)"
    ),
    "xmlplist/goplist_unusual/s05.plist": (.unexpectedInput, 3, "<!test> inside <key> text is not a CDATA section"),
    "xmlplist/goplist_unusual/s06.plist": (.unexpectedInput, 3, "&amp without its ; is not one of CF's entity references"),
  ]

  /// The goplist "unusual" files that CF reads, with the value CF gives. plistlib rejects s07–s10.
  static let acceptedUnusual: [String: PropertyListValue] = [
    // &#169; is a numeric character reference.
    "xmlplist/goplist_unusual/s01.plist": ["copyright": "©"],
    // Whitespace before the > of a close tag is allowed.
    "xmlplist/goplist_unusual/s02.plist": ["name": "value"],
    // An empty key.
    "xmlplist/goplist_unusual/s03.plist": ["": "value"],
    // `<plist Q=">`: CF ends a start tag at its first >, quotes or not; attributes are ignored.
    "xmlplist/goplist_unusual/s07.plist": ["test": "value"],
    // Text after the first element is never looked at.
    "xmlplist/goplist_unusual/s08.plist": ["test": "value"],
    // `<!DOCTYPE test ">`: CF skips a DOCTYPE up to its first >.
    "xmlplist/goplist_unusual/s09.plist": ["test": "value"],
    // `<string =">apple</string>`: the tag ends at the first >, so the text is "apple"; the
    // comment after it ends at the first -->.
    "xmlplist/goplist_unusual/s10.plist": ["test": "apple"],
    // Duplicate keys: the last one wins. `<key Q=">">test</key>`: the tag ends at the > inside
    // the quotes, so the key's text is `">test`.
    "xmlplist/goplist_unusual/s11.plist": ["test": "apple", "\">test": "libplist"],
  ]

  static let xmlFiles: [CorpusFile] = Corpus.files(in: "xmlplist")

  /// The per-file test below has one case per file; this keeps a missing or emptied folder from
  /// passing with no cases, and checks that every file the tables name is there (so that the
  /// files read are exactly the others).
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func corpusHoldsTheXMLFiles() {
    let files = Self.xmlFiles
    #expect(files.count >= 39, "expected the xmlplist corpus, found \(files.count) files")
    let names = Set(files.map(\.name))
    #expect(Set(Self.rejectedLikeCF.keys).subtracting(names).isEmpty, "missing: \(Set(Self.rejectedLikeCF.keys).subtracting(names).sorted())")
    #expect(Set(Self.acceptedUnusual.keys).subtracting(names).isEmpty, "missing: \(Set(Self.acceptedUnusual.keys).subtracting(names).sorted())")
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: xmlFiles)
  func everyCorpusFileReadsAsCFWouldAndRoundTrips(_ file: CorpusFile) throws {
    let name = file.name
    let bytes = try file.data()
    #expect(bytes.withUnsafeBytes { PropertyListFormat.detect($0) } == .xml, "\(name) is not detected as XML")
    if let rejection = Self.rejectedLikeCF[name] {
      let error = expectError(PropertyListError.self, rejection.code, "\(name) was read, but CF rejects it: \(rejection.reason)") {
        try PropertyListValue(decoding: bytes, format: .xml)
      }
      if let error {
        #expect(error.format == .xml && error.position == .line(rejection.line), "\(name): \(error)")
      }
      return
    }
    let value: PropertyListValue
    do {
      value = try PropertyListValue(decoding: bytes)
    } catch {
      Issue.record("\(name): \(error)")
      return
    }
    if let expected = Self.acceptedUnusual[name] {
      #expect(value == expected, "\(name) reads as \(value)")
    }
    let encoded = try value.encodedBytes(as: .xml)
    let again = try PropertyListValue(decoding: encoded)
    #expect(again == value, "\(name) changed after re-encoding as XML")
    let encodedAgain = try again.encodedBytes(as: .xml)
    #expect(encodedAgain == encoded, "\(name): re-encoding is not stable")
  }

  /// Spot checks that the corpus values are read correctly, not just read.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func corpusValuesAreRight() throws {
    func value(_ path: String) throws -> PropertyListValue {
      try PropertyListValue(decoding: Data(contentsOf: Corpus.root.appendingPathComponent(path)))
    }
    let generic = try value("xmlplist/Generic_XML_Properties.plist")
    #expect(generic["item1"] == "value1")
    #expect(generic["array1"]?[1] == 42)
    #expect(generic["array1"]?[2] == false)
    // 1976-04-01T12:00:00Z is 781 099 200 seconds before 2001.
    #expect(generic["array1"]?[3] == .date(Date(timeIntervalSinceReferenceDate: -781_099_200)))
    #expect(generic["array1"]?[4] == .data(Data([0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33])))

    // The same JSON test document stored in five encodings reads the same.
    let utf8 = try value("xmlplist/json_pass/pass1-utf8.plist")
    for other in ["utf16be", "utf16le", "utf32be", "utf32le"] {
      #expect(try value("xmlplist/json_pass/pass1-\(other).plist") == utf8, "pass1-\(other)")
    }
    let nonBMP = try value("xmlplist/gnustep/non_baseplane_utf8.plist")
    #expect(Self.containsAstral(nonBMP), "the GNUstep file's characters outside the BMP are lost")
  }

  static func containsAstral(_ value: PropertyListValue) -> Bool {
    switch value {
    case .string(let string): string.unicodeScalars.contains { $0.value > 0xFFFF }
    case .array(let array): array.contains(where: containsAstral)
    case .dictionary(let dictionary): dictionary.keys.contains { $0.unicodeScalars.contains { $0.value > 0xFFFF } } || dictionary.values.contains(where: containsAstral)
    default: false
    }
  }

  /// Apple-written XML files (Xcode, CF's writer in the swift-corelibs-foundation and
  /// swift-foundation fixtures, NSKeyedArchiver's XML output): which re-encode to exactly the
  /// same bytes, and why the others do not. Every expected difference is checked, not assumed.
  static let appleWritten: [String: String?] = [
    "xmlplist/Generic_XML_Properties.plist": nil,
    "xmlplist/scf_CoreFoundation_Info.plist": nil,
    "xmlplist/scf_Resources_Info.plist": nil,
    "xmlplist/scf_Resources_NSURLTestData.plist": "apostrophes written as &apos; (17 times) by whatever wrote this fixture; CF escapes only < > &",
    "xmlplist/scf_Resources_Test.plist": "keys in hand-edited order (Foo, emptyValue, Baz); CF sorts them",
    "xmlplist/apps/Kraftstoff.IDEWorkspaceChecks.plist": nil,
    "xmlplist/apps/NetNewsWire.Mac_Resources_Info.plist": "keys in Xcode's editing order, not sorted",
    "xmlplist/apps/NetNewsWire.Mac_Resources_NetNewsWire.entitlements": nil,
    "xmlplist/apps/Rectangle.IDETemplateMacros.plist": "indented with four spaces and ends with a blank line (hand-edited)",
    "xmlplist/apps/Rectangle.Rectangle.entitlements": nil,
    "xmlplist/apps/Sparkle.Downloader_Downloader.entitlements": nil,
  ]

  /// The files of ``appleWritten`` and the keyed archives written as XML.
  static let appleWrittenFiles: [CorpusFile] = {
    guard Corpus.isAvailable else { return [] }
    let keyedArchives = Corpus.files(in: "keyedarchive").filter {
      $0.pathExtension == "plist" && !((try? $0.data().starts(with: Data("bplist".utf8))) ?? true)
    }
    return Self.appleWritten.keys.sorted().map(Corpus.file) + keyedArchives
  }()

  /// Each file is identical exactly when the table gives no reason, so the number of identical
  /// files is the number of files less the number of reasons.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: appleWrittenFiles)
  func appleWrittenFilesReencodeByteIdentically(_ file: CorpusFile) throws {
    let name = file.name
    let bytes = try file.data()
    let encoded = try PropertyListValue(decoding: bytes).encoded(as: .xml)
    let reason = Self.appleWritten[name] ?? nil
    if encoded == bytes {
      #expect(reason == nil, "\(name) is identical although the table says: \(reason ?? "")")
      print("XML re-encoding of an Apple-written file: \(name) is byte-identical")
    } else {
      print("XML re-encoding of an Apple-written file: \(name) differs: \(reason ?? "UNEXPECTED")")
      #expect(reason != nil, "\(name) differs from Apple's bytes at offset \(Self.firstDifference(bytes, encoded))")
      if let reason { try Self.check(reason, name: name, apple: bytes, ours: encoded) }
    }
  }

  /// Confirms the stated reason for a difference: with the same lines in the same order (modulo
  /// indentation), or the same lines in another order.
  static func check(_ reason: String, name: String, apple: Data, ours: Data) throws {
    let appleLines = String(decoding: apple, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let ourLines = String(decoding: ours, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    if reason.hasPrefix("apostrophes") {
      let unescaped = String(decoding: apple, as: UTF8.self).replacingOccurrences(of: "&apos;", with: "'")
      #expect(Data(unescaped.utf8) == ours, "\(name): differs in more than &apos;")
    } else if reason.hasPrefix("keys") {
      #expect(appleLines.count == ourLines.count && appleLines.sorted() == ourLines.sorted(),
              "\(name): not just a reordering of the same lines")
      #expect(appleLines != ourLines)
    } else {
      let trimmed = appleLines.map { $0.drop { $0 == " " || $0 == "\t" } }.filter { !$0.isEmpty }
      let ourTrimmed = ourLines.map { $0.drop { $0 == " " || $0 == "\t" } }.filter { !$0.isEmpty }
      #expect(trimmed == ourTrimmed, "\(name): differs in more than indentation and blank lines")
    }
  }

  static func firstDifference(_ a: Data, _ b: Data) -> Int {
    zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
  }

  // MARK: Seeded values

  @Test(arguments: 0..<600 as Range<UInt64>)
  func seededValuesRoundTrip(seed: UInt64) throws {
    var generator = RandomPropertyList(seed: seed, kinds: .xml, maximumDepth: 5)
    let value = seed % 3 == 0 ? generator.value() : generator.document()
    let encoded = try value.encodedBytes(as: .xml)
    let decoded = try PropertyListValue(decoding: encoded)
    #expect(decoded == value, "seed \(seed)")
    let encodedAgain = try decoded.encodedBytes(as: .xml)
    #expect(encodedAgain == encoded, "seed \(seed): second encoding differs")
  }

  /// Binary-only kinds come back as XML defines them: 32-bit reals as 64-bit ones, fractional
  /// seconds floored.
  @Test(arguments: 0..<100 as Range<UInt64>)
  func binaryOnlyKindsComeBackAsXMLDefinesThem(seed: UInt64) throws {
    var generator = RandomPropertyList(seed: seed, kinds: .binary, maximumDepth: 4)
    let value = generator.document()
    let decoded = try PropertyListValue(decoding: value.encodedBytes(as: .xml))
    #expect(decoded == Self.asXMLStoresIt(value), "seed \(seed)")
  }

  static func asXMLStoresIt(_ value: PropertyListValue) -> PropertyListValue {
    switch value {
    case .real(let real, _): return .real(real, width: .double)
    case .date(let date): return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
    case .array(let array): return .array(array.map(asXMLStoresIt))
    case .dictionary(let dictionary): return .dictionary(PropertyListDictionary(dictionary.map { ($0.key, asXMLStoresIt($0.value)) }))
    default: return value
    }
  }
}
