import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// Differential tests against the CoreFoundation on this machine: swift-corelibs-foundation's
/// `PropertyListSerialization` runs Apple's `CFPropertyList.c` (the same XML parser and writer as
/// macOS; its error messages are CF's, e.g. "Encountered improper CDATA opening"). Values travel
/// through ``FoundationPlistBridge``, never through Stasis's own XML code.
@Suite("XML property lists: agreement with CoreFoundation")
struct XMLPlistCoreFoundationTests {
  /// CF's XML writer, or `nil` where the bridge has no Foundation object for the value (UIDs).
  static func coreFoundationXML(_ value: PropertyListValue) throws -> [UInt8] {
    [UInt8](try FoundationPlistBridge.write(value, xml: true))
  }

  /// CF's reading of `bytes` when CF reads it as XML; `nil` when CF rejects it or only its
  /// OpenStep fallback accepts it.
  static func coreFoundationRead(_ bytes: [UInt8]) -> PropertyListValue? {
    var format = PropertyListSerialization.PropertyListFormat.binary
    guard let object = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format),
      format == .xml
    else { return nil }
    return try? FoundationPlistBridge.value(from: object)
  }

  /// Stasis writes exactly CF's bytes for seeded values (every kind but UIDs, which Foundation
  /// cannot hand to CF from Swift).
  @Test func writerBytesEqualCoreFoundations() throws {
    var identical = 0
    for seed in 0..<500 as Range<UInt64> {
      var kinds = RandomPropertyList.Kinds.xml
      kinds.remove(.uids)
      var generator = RandomPropertyList(seed: seed, kinds: kinds, maximumDepth: 4)
      let value = seed % 4 == 0 ? generator.value() : generator.document()
      let ours = try value.encodedBytes(as: .xml)
      let theirs = try Self.coreFoundationXML(value)
      #expect(ours == theirs, "seed \(seed):\n\(String(decoding: ours, as: UTF8.self))\n--- CF:\n\(String(decoding: theirs, as: UTF8.self))")
      if ours == theirs { identical += 1 }
    }
    print("CoreFoundation XML writer: \(identical) of 500 seeded values byte-identical")
  }

  /// The cases where CF's formatting rules matter most, one by one.
  @Test func writerEdgeCasesEqualCoreFoundations() throws {
    var values: [PropertyListValue] = [
      ["\u{E000}": 1, "😀": 2, "é": 3, "a": 4, "B": 5, "aa": 6, "": 7, "\u{FFFF}": 8, "\u{10FFFF}": 9],
      [.real(-0.0), .real(.nan), .real(.infinity), .real(-.infinity), .real(1e-5), .real(1e17), .real(1e16), .real(.leastNonzeroMagnitude),
       .real(.greatestFiniteMagnitude), .real(37.7668), .real(1), .real(0.1, width: .single)],
      [.integer(PropertyListInteger(UInt64.max)), .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64(1) << 63))],
      [.date(Date(timeIntervalSinceReferenceDate: -0.5)), .date(Date(timeIntervalSinceReferenceDate: 0.999)),
       .date(Date(timeIntervalSinceReferenceDate: -63_113_904_001)), .date(Date(timeIntervalSinceReferenceDate: -63_177_062_400)),
       .date(Date(timeIntervalSinceReferenceDate: 3e11)), .date(Date(timeIntervalSinceReferenceDate: -123_456.75))],
      ["\u{0}\u{1}\r\n\t <>&\"' ]]> \u{7F}\u{2028}"],
      .data(Data()), .data(Data(count: 57)), .data(Data(count: 58)),
    ]
    var nested = PropertyListValue.data(Data((0..<100).map { UInt8($0) }))
    for _ in 0..<11 {
      nested = [nested]
      values.append(nested)
    }
    for (index, value) in values.enumerated() {
      let ours = try value.encodedBytes(as: .xml)
      let theirs = try Self.coreFoundationXML(value)
      #expect(ours == theirs, "case \(index):\n\(String(decoding: ours, as: UTF8.self))\n--- CF:\n\(String(decoding: theirs, as: UTF8.self))")
    }
  }

  static let documents: [String] = [
    XMLPlistMalformedTests.good,
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <array>
    \t<string>x &lt;y&gt; &#169; &#x1F600; <![CDATA[<z>]]></string>
    \t<integer> -0x1F</integer>
    \t<real>-1.5e3</real>
    \t<date>1999-12-31T23:59:59Z</date>
    \t<dict>
    \t\t<key>k</key>
    \t\t<array/>
    \t\t<key>k</key>
    \t\t<dict/>
    \t</dict>
    \t<!-- comment --><?pi data?>
    \t<data>AAEC AwQF</data>
    \t<true></true>
    </array>
    </plist>

    """,
  ]

  /// Damaged documents: whenever CF reads one as XML, Stasis reads the same value; whenever CF
  /// refuses it, so does Stasis.
  @Test func readerAcceptsExactlyWhatCoreFoundationAccepts() throws {
    let interesting = Array("<>/&;!?-[]\"'=#x0 \n\tZT:.e+".utf8) + [0x00, 0xFF, 0xC3, 0xE2]
    var generator = SplitMix64(seed: 31)
    var agreedAccepted = 0
    var agreedRejected = 0
    for round in 0..<4000 {
      var bytes = Array(Self.documents[round % Self.documents.count].utf8)
      for _ in 0...Int.random(in: 0...1, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        let byte = Int.random(in: 0..<4, using: &generator) > 0
          ? interesting.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[index] = byte
        case 1: bytes.remove(at: index)
        default: bytes.insert(byte, at: index)
        }
      }
      let theirs = Self.coreFoundationRead(bytes)
      let ours = try? PropertyListValue(decoding: bytes, format: .xml)
      switch (theirs, ours) {
      case (let theirs?, let ours?):
        #expect(ours == theirs, "round \(round): Stasis and CF read different values from\n\(String(decoding: bytes, as: UTF8.self))")
        agreedAccepted += 1
      case (nil, nil):
        agreedRejected += 1
      case (let theirs?, nil):
        Issue.record("round \(round): CF reads \(theirs) but Stasis rejects\n\(String(decoding: bytes, as: UTF8.self))")
      case (nil, let ours?):
        Issue.record("round \(round): Stasis reads \(ours) but CF rejects\n\(String(decoding: bytes, as: UTF8.self))")
      }
    }
    print("CoreFoundation reader agreement: \(agreedAccepted) accepted and \(agreedRejected) rejected by both, of 4000 damaged documents")
  }

  /// Element contents at the edges of CF's grammar: Stasis and CF give the same verdict and value.
  @Test func grammarEdgesAgreeWithCoreFoundation() {
    let integers = ["42", "-42", "+7", " \t\n 5", "- 5", "0", "-0", "000", "0x1F", "0XfF", "-0x10", "0x0", "007", "\u{1}\u{7F}12",
                    "\u{3000}3", "\u{2009}4", "\u{A0}1", "\u{202F}1", "", " ", "0x", "+", "1 ", "1.0", "12a", "0x1G",
                    "18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809", "9223372036854775808",
                    "&#x35;", "1<!-- -->"]
    let reals = ["1", "0.5", "-2.5e-3", "1E3", ".5", "5.", "+1", "  1.5", "\u{2003}2", "1e400", "-1e400", "1e-400", "inf", "+Inf",
                 "INFINITY", "-inf", "-Infinity", "NaN", "1&#46;25", "<![CDATA[2.5]]>", "", " ", "abc", "1.5 ", "1e", "1e+",
                 "0x1p3", "nan(1)", "--1", "1.2.3", " inf", ".", "e5", "1,5", "-0.0", "123456789012345678901234567890"]
    let dates = ["2001-01-01T00:00:00Z", "2024-02-29T12:34:56Z", "2001-01-01T25:00:00Z", "2001-01-32T00:00:00Z", "2001-13-01T00:00:00Z",
                 "2001-00-01T00:00:00Z", "2001-14-01T00:00:00Z", "2001-99-99T99:99:99Z", "0001-01-01T00:00:00Z", "-0001-01-01T00:00:00Z",
                 "12345-06-07T08:09:10Z", "-01-01T00:00:00Z", "2001-01-01T00:00:00", "2001-01-01T00:00:00.5Z", "2001-1-01T00:00:00Z",
                 "2001-01-01 00:00:00Z", "2001-01-01T00:00Z", "", "2001-01-01T00:00:00Z "]
    let data = ["AAEC", "\n\tAA EC\n", "AQ==", "AQI=", "AQ=\n=", "AQ", "AAECAw", "A.A!E~C", "", "==AQ", "A=Q=", "AQ==AQ==", "====", "AAE\u{E9}C"]
    let strings = ["&lt;&gt;&amp;&apos;&quot;", "&#65;&#x42;&#x1F600;", "&#;", "&#x;", "a<![CDATA[<&>]]]]>b", "&nbsp;", "&amp", "&#X41;",
                   "&#123456789;", "&#12345678;", "&#x12g;", "&#xD800;", "&#x110000;", "&LT;", "&", " \r\n ", "<!-- c -->", "<![CDATA[x"]
    var snippets: [String] = []
    snippets += integers.map { "<integer>\($0)</integer>" }
    snippets += reals.map { "<real>\($0)</real>" }
    snippets += dates.map { "<date>\($0)</date>" }
    snippets += data.map { "<data>\($0)</data>" }
    snippets += strings.map { "<string>\($0)</string>" }
    snippets += ["<true></true>", "<true />", "<true>x</true>", "<string/>", "<data/>", "<date/>", "<integer/>", "<real/>", "<dict/>",
                 "<array\n/>", "<array><plist><integer>1</integer></plist></array>", "<plist/>", "<dict><key>a</key></dict>",
                 "<dict><key>a</key><key>b</key></dict>", "<dict><string>a</string><true/></dict>", "<dict><key/><string/></dict>",
                 "<String>x</String>", "<string id='1'>x</string >", "<string>x</string x>", "<array><!-- c --><?pi?></array>",
                 "<array><!DOCTYPE x></array>", "<array><![CDATA[x]]></array>"]
    var agreed = 0
    for snippet in snippets {
      for document in ["<plist>\(snippet)</plist>", "<?xml version=\"1.0\"?>\n<!DOCTYPE plist>\n<plist version=\"1.0\">\n\(snippet)\n</plist>\n"] {
        let bytes = Array(document.utf8)
        let theirs = Self.coreFoundationRead(bytes)
        let ours = try? PropertyListValue(decoding: bytes, format: .xml)
        #expect(ours == theirs, "\(snippet): Stasis \(ours.map { "reads \($0)" } ?? "rejects"), CF \(theirs.map { "reads \($0)" } ?? "rejects")")
        if ours == theirs { agreed += 1 }
      }
    }
    print("CoreFoundation grammar edges: \(agreed) of \(snippets.count * 2) documents agree")
  }

  /// The corpus: same verdict and value as CF.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: Corpus.files(in: "xmlplist"))
  func corpusFilesAgreeWithCoreFoundation(_ file: CorpusFile) throws {
    Self.expectAgreement(file.name, try file.bytes())
  }

  /// The hand-broken documents: same verdict and value as CF.
  @Test func brokenDocumentsAgreeWithCoreFoundation() {
    for breakage in XMLPlistMalformedTests.breakages {
      Self.expectAgreement(breakage.name, breakage.apply(to: XMLPlistMalformedTests.good))
    }
  }

  static func expectAgreement(_ name: String, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    let theirs = coreFoundationRead(bytes)
    let ours = try? PropertyListValue(decoding: bytes, format: .xml)
    #expect(ours == theirs, "\(name): Stasis \(ours.map { "reads \($0)" } ?? "rejects"), CF \(theirs.map { "reads \($0)" } ?? "rejects")",
            sourceLocation: sourceLocation)
  }
}
