import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// What the XML reader accepts and how it interprets it (CoreFoundation's rules), and the writer's exact
/// bytes (§2.1, §2.3). Every expectation here is CoreFoundation's behaviour as its source reads.
@Suite("XML property lists: syntax and exact output")
struct XMLPlistSyntaxTests {
  static func read(_ text: String, options: PropertyListReadingOptions = .default) throws(PropertyListError) -> PropertyListValue {
    try PropertyListValue(decoding: Array(text.utf8), format: .xml, options: options)
  }

  static func plist(_ body: String) -> String { "<plist version=\"1.0\">\n\(body)\n</plist>\n" }

  static func xml(_ value: PropertyListValue) throws -> String {
    String(decoding: try value.encodedBytes(as: .xml), as: UTF8.self)
  }

  // MARK: Markup

  @Test func prologCommentsAndInstructionsAreSkipped() throws {
    let text = """
      \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
      <!-- a comment -->
      <?some-instruction with data?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0"><!-- before --><?pi?>
      <array><!-- inside --><string>a</string><?pi x?><string>b</string></array>
      <!-- after -->
      </plist>
      """
    #expect(try Self.read(text) == ["a", "b"])
  }

  @Test func internalSubsetIsSkippedAndItsEntitiesAreNeverExpanded() throws {
    let subset = """
      <!DOCTYPE plist [
        <!ENTITY lol "lol">
        <!ENTITY lol2 "&lol;&lol;&lol;>">
        <!-- a comment with ] and > -->
        <?pi ] ?>
        %parameter;
        <!ELEMENT plist (dict)>
      ]>
      """
    #expect(try Self.read(subset + Self.plist("<string>plain</string>")) == "plain")
    expectError(PropertyListError.self, .unexpectedInput, "declared entities are not expanded") {
      try Self.read(subset + Self.plist("<string>&lol2;</string>"))
    }
  }

  @Test func theFirstElementIsTheDocumentWhateverItsName() throws {
    #expect(try Self.read("<dict><key>a</key><integer>1</integer></dict>") == ["a": 1])
    #expect(try Self.read("  \n<string>top</string>") == "top")
    #expect(try Self.read("<key>k</key>") == "k")
    // Anything after the first element is ignored, even garbage.
    #expect(try Self.read(Self.plist("<true/>") + "<<<garbage & more") == true)
    // A <plist> may appear as a value and holds exactly one value.
    #expect(try Self.read(Self.plist("<array><plist><integer>1</integer></plist><false/></array>")) == [1, false])
  }

  @Test func attributesAreIgnoredAndTagsEndAtTheFirstGreaterThan() throws {
    #expect(try Self.read(Self.plist("<string id=\"1\" lang='en'>x</string>")) == "x")
    #expect(try Self.read(Self.plist("<array\n\t><true\t/><false /></array >")) == [true, false])
    #expect(try Self.read(Self.plist("<true></true>")) == true)
    #expect(try Self.read(Self.plist("<string/>")) == "")
    #expect(try Self.read(Self.plist("<dict><key/><string></string></dict>")) == ["": ""])
    #expect(try Self.read(Self.plist("<array/>")) == [])
    #expect(try Self.read(Self.plist("<dict/>")) == .dictionary([:]))
    // Empty containers written with a close tag (a crash once: regression test).
    #expect(try Self.read(Self.plist("<dict></dict>")) == .dictionary([:]))
    #expect(try Self.read(Self.plist("<dict>\n\t<!-- nothing -->\n</dict>")) == .dictionary([:]))
    #expect(try Self.read(Self.plist("<array></array>")) == [])
    #expect(try Self.read(Self.plist("<array><dict></dict><array> </array></array>")) == [.dictionary([:]), []])
    #expect(try Self.read("<dict></dict>") == .dictionary([:]))
  }

  // MARK: Text

  @Test func entitiesAndCDATA() throws {
    #expect(try Self.read(Self.plist("<string>&lt;&gt;&amp;&apos;&quot;</string>")) == "<>&'\"")
    #expect(try Self.read(Self.plist("<string>&#65;&#x42;&#x1F600;&#169;&#xe9;</string>")) == "AB😀©é")
    #expect(try Self.read(Self.plist("<string>&#;</string>")) == "\u{0}")
    #expect(try Self.read(Self.plist("<string>a<![CDATA[<&>]]]]>b</string>")) == "a<&>]]b")
    #expect(try Self.read(Self.plist("<key>x<![CDATA[]]>y</key>")) == "xy")
    // Whitespace, including CR and CRLF, is kept exactly.
    #expect(try Self.read(Self.plist("<string> \t\r\n a \n</string>")) == " \t\r\n a \n")
    #expect(try Self.read(Self.plist("<string>é中😀\u{0}\u{1}</string>")) == "é中😀\u{0}\u{1}")
  }

  @Test func referencesCFRejects() {
    for body in ["&nbsp;", "&amp", "&#X41;", "&#123456789;", "&#x12g;", "&#xD800;", "&#x110000;", "&LT;", "&"] {
      #expect(throws: PropertyListError.self, "\(body)") { try Self.read(Self.plist("<string>\(body)</string>")) }
    }
  }

  // MARK: Numbers

  @Test func integers() throws {
    let cases: [(String, PropertyListInteger)] = [
      ("42", 42), ("-42", -42), ("+7", 7), (" \t\n 5", 5), ("- 5", -5), ("0", 0), ("-0", 0), ("000", 0),
      ("0x1F", 31), ("0XfF", 255), ("-0x10", -16), ("0x0", 0),
      ("007", 7), ("9223372036854775807", PropertyListInteger(Int64.max)),
      ("-9223372036854775808", PropertyListInteger(Int64.min)),
      ("18446744073709551615", PropertyListInteger(UInt64.max)), ("0xFFFFFFFFFFFFFFFF", PropertyListInteger(UInt64.max)),
      ("9223372036854775808", PropertyListInteger(UInt64(1) << 63)),
      ("\u{0}\u{1}\u{7F}12", 12),  // CF counts every byte below 0x21 and 0x7F-0xA0 as white space
      ("\u{3000}3", 3), ("\u{2009}4", 4),
    ]
    for (text, expected) in cases {
      #expect(try Self.read(Self.plist("<integer>\(text)</integer>")) == .integer(expected), "\(text)")
    }
    for bad in ["", " ", "0x", "+", "1 ", "1.0", "1e3", "12a", "0x1G", "18446744073709551616", "-9223372036854775809",
                "0x10000000000000000", "\u{A0}1", "\u{202F}1", "1<!-- -->"] {
      #expect(throws: PropertyListError.self, "<integer>\(bad)</integer>") { try Self.read(Self.plist("<integer>\(bad)</integer>")) }
    }
  }

  @Test func reals() throws {
    let cases: [(String, Double)] = [
      ("1", 1), ("0.5", 0.5), ("-2.5e-3", -0.0025), ("1E3", 1000), (".5", 0.5), ("5.", 5), ("+1", 1),
      ("  1.5", 1.5), ("\u{2003}2", 2), ("1e400", .infinity), ("-1e400", -.infinity), ("1e-400", 0),
      ("37.766800000000003", 37.766800000000003), ("inf", .infinity), ("+Inf", .infinity), ("INFINITY", .infinity),
      ("-inf", -.infinity), ("-Infinity", -.infinity), ("+infinity", .infinity),
      ("1&#46;25", 1.25), ("<![CDATA[2.5]]>", 2.5),
    ]
    for (text, expected) in cases {
      #expect(try Self.read(Self.plist("<real>\(text)</real>")) == .real(expected), "\(text)")
    }
    let nan = try Self.read(Self.plist("<real>NaN</real>"))
    #expect(nan.doubleValue?.isNaN == true)
    for bad in ["", " ", "abc", "1.5 ", "1e", "1e+", "0x1p3", "nan(1)", "--1", "1.2.3", "infinit", " inf", ".", "e5", "1,5"] {
      #expect(throws: PropertyListError.self, "<real>\(bad)</real>") { try Self.read(Self.plist("<real>\(bad)</real>")) }
    }
  }

  /// The reader's fast decimal conversion must give exactly strtod's (here: Swift's `Double(_:)`)
  /// answer for every kind of decimal.
  @Test func realConversionAgreesWithStrtod() {
    var generator = SplitMix64(seed: 99)
    for _ in 0..<20_000 {
      let digits = Int.random(in: 1...20, using: &generator)
      var text = Bool.random(using: &generator) ? "-" : ""
      let point = Int.random(in: 0...digits, using: &generator)
      for index in 0..<digits {
        if index == point { text += "." }
        text += String(Int.random(in: 0...9, using: &generator))
      }
      if Int.random(in: 0..<3, using: &generator) == 0 {
        text += "e" + (Bool.random(using: &generator) ? "-" : "") + String(Int.random(in: 0...40, using: &generator))
      }
      let parsed = Array(text.utf8).withUnsafeBufferPointer { XMLPlistScanner.realValue($0) }
      #expect(parsed?.bitPattern == Double(text)?.bitPattern, "\(text)")
    }
  }

  // MARK: Dates

  @Test func dates() throws {
    func date(_ text: String) throws -> Double? {
      try Self.read(Self.plist("<date>\(text)</date>")).dateValue?.timeIntervalSinceReferenceDate
    }
    #expect(try date("2001-01-01T00:00:00Z") == 0)
    #expect(try date("2000-12-31T23:59:59Z") == -1)
    #expect(try date("2024-02-29T12:34:56Z") == 730_902_896)
    #expect(try date("1970-01-01T00:00:00Z") == -978_307_200)
    // CF does not range-check the fields: they are added up.
    #expect(try date("2001-01-01T25:00:00Z") == 90_000)
    #expect(try date("2001-01-32T00:00:00Z") == 31 * 86_400)
    #expect(try date("2001-13-01T00:00:00Z") == 365 * 86_400)
    #expect(try date("2001-00-01T00:00:00Z") == 0)
    #expect(try date("0001-01-01T00:00:00Z") == -63_113_904_000)
    #expect(try date("-0001-01-01T00:00:00Z") == -63_177_062_400)
    #expect(try date("12345-06-07T08:09:10Z") != nil)
    for bad in ["2001-01-01T00:00:00", "2001-01-01T00:00:00.5Z", "2001-1-01T00:00:00Z", "2001-01-01 00:00:00Z",
                "2001-01-01T00:00:00+0000", "2001-01-01T00:00Z", "", "x", "2001-01-01T00:00:00Z ", "99999999999-01-01T00:00:00Z"] {
      #expect(throws: PropertyListError.self, "<date>\(bad)</date>") { try Self.read(Self.plist("<date>\(bad)</date>")) }
    }
  }

  // MARK: Data

  @Test func dataIsReadWithCFsForgivingBase64() throws {
    func data(_ text: String) throws -> [UInt8]? {
      try Self.read(Self.plist("<data>\(text)</data>")).dataValue.map(Array.init)
    }
    #expect(try data("AAEC") == [0, 1, 2])
    #expect(try data("\n\tAA EC\n") == [0, 1, 2])
    #expect(try data("AQ==") == [1])
    #expect(try data("AQI=") == [1, 2])
    #expect(try data("AQ=\n=") == [1])
    #expect(try data("AQ") == [])  // an unfinished group produces nothing
    #expect(try data("AAECAw") == [0, 1, 2])
    #expect(try data("A.A!E~C") == [0, 1, 2])  // punctuation is skipped
    #expect(try data("") == [])
    #expect(try data("qrvM3QARIjM=") == [0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33])
    expectError(PropertyListError.self, .invalidValue) { try Self.read(Self.plist("<data>AA\u{E9}C</data>")) }
    expectError(PropertyListError.self, .invalidValue) { try Self.read(Self.plist("<data>\u{E9}</data>")) }
    expectError(PropertyListError.self, .invalidValue) { try Self.read(Self.plist("<data/>")) }
  }

  /// The reader's four-characters-at-a-time base64 path against a direct transcription of CF's
  /// per-character loop, on text with white space, punctuation and `=` sprinkled in.
  @Test func base64FastPathAgreesWithCFsLoop() throws {
    func reference(_ text: [UInt8]) -> [UInt8] {
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
      var output: [UInt8] = []
      var accumulator = 0
      var digits = 0
      var equals = 0
      for byte in text {
        if byte == UInt8(ascii: "=") {
          equals += 1
        } else if ![0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(byte) {
          equals = 0
        }
        let value = byte == UInt8(ascii: "=") ? 0 : alphabet.firstIndex(of: byte)
        guard let value else { continue }
        digits += 1
        accumulator = accumulator << 6 + value
        if digits % 4 == 0 {
          output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
          if equals < 2 { output.append(UInt8(truncatingIfNeeded: accumulator >> 8)) }
          if equals < 1 { output.append(UInt8(truncatingIfNeeded: accumulator)) }
        }
      }
      return output
    }
    var generator = SplitMix64(seed: 5)
    let noise = Array(" \n\t=.-!=".utf8)
    for round in 0..<2000 {
      let bytes = (0..<Int.random(in: 0...60, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      var text = Array(Data(bytes).base64EncodedString().utf8)
      for _ in 0..<Int.random(in: 0...4, using: &generator) {
        text.insert(noise.randomElement(using: &generator)!, at: Int.random(in: 0...text.count, using: &generator))
      }
      let read = try Self.read(Self.plist("<data>" + String(decoding: text, as: UTF8.self) + "</data>")).dataValue.map(Array.init)
      #expect(read == reference(text), "round \(round): \(String(decoding: text, as: UTF8.self))")
    }
  }

  // MARK: Dictionaries

  @Test func dictionaries() throws {
    let duplicate = try Self.read(Self.plist("<dict><key>a</key><integer>1</integer><key>b</key><true/><key>a</key><integer>2</integer></dict>"))
    #expect(duplicate == ["a": 2, "b": true])
    #expect(duplicate.dictionaryValue?.keys == ["a", "b"])
    // A <key> in value position is a string value.
    #expect(try Self.read(Self.plist("<dict><key>a</key><key>b</key></dict>")) == ["a": "b"])
    expectError(PropertyListError.self, .unexpectedInput) { try Self.read(Self.plist("<dict><string>a</string><true/></dict>")) }
    expectError(PropertyListError.self, .unexpectedInput) { try Self.read(Self.plist("<dict><key>a</key></dict>")) }
  }

  @Test func keyedArchiverUIDs() throws {
    func uid(_ body: String) throws -> PropertyListValue { try Self.read(Self.plist("<dict><key>CF$UID</key>\(body)</dict>")) }
    #expect(try uid("<integer>7</integer>") == .uid(7))
    #expect(try uid("<integer>4294967295</integer>") == .uid(4_294_967_295))
    #expect(try uid("<integer>-1</integer>") == .uid(0xFFFF_FFFF))
    #expect(try uid("<integer>-9999999999</integer>") == .uid(0x8000_0000))
    #expect(try uid("<real>3.9</real>") == .uid(3))
    #expect(try uid("<string>7</string>") == ["CF$UID": "7"])
    #expect(try uid("<true/>") == ["CF$UID": true])
    #expect(try Self.read(Self.plist("<dict><key>CF$UID</key><integer>1</integer><key>x</key><integer>1</integer></dict>"))
            == ["CF$UID": 1, "x": 1])
    // Duplicates collapse first: the one remaining entry makes a UID.
    #expect(try Self.read(Self.plist("<dict><key>CF$UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict>")) == .uid(2))
  }

  // MARK: Limits

  @Test func depthAndObjectCountLimits() throws {
    func nested(_ depth: Int) -> String { String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) }
    #expect(throws: Never.self) { try Self.read(Self.plist(nested(512))) }
    expectError(PropertyListError.self, .tooDeep) { try Self.read(Self.plist(nested(513))) }
    expectError(PropertyListError.self, .tooDeep) { try Self.read(nested(513)) }
    expectError(PropertyListError.self, .tooDeep) { try Self.read(Self.plist(nested(3)), options: .init(maximumDepth: 2)) }
    #expect(throws: Never.self) { try Self.read(Self.plist(nested(2)), options: .init(maximumDepth: 2)) }
    // Nested <plist> elements count as levels too, so they cannot exhaust memory either.
    expectError(PropertyListError.self, .tooDeep) {
      try Self.read(String(repeating: "<plist>", count: 600) + "<true/>" + String(repeating: "</plist>", count: 600))
    }
    // A thousand levels are fine when allowed: the reader keeps its own stack.
    let deep = try Self.read(Self.plist(nested(1000)), options: .init(maximumDepth: 1000))
    var depth = 0
    var cursor = deep
    while case .array(let inner) = cursor, let first = inner.first {
      depth += 1
      cursor = first
    }
    #expect(depth == 999)

    let five = Self.plist("<dict><key>a</key><integer>1</integer><key>b</key><integer>2</integer></dict>")
    #expect(throws: Never.self) { try Self.read(five, options: .init(maximumObjectCount: 5)) }
    expectError(PropertyListError.self, .limitExceeded) { try Self.read(five, options: .init(maximumObjectCount: 4)) }
  }

  // MARK: Encodings

  @Test func encodingsAreDetectedAndConverted() throws {
    let text = Self.plist("<string>é€😀</string>")
    let expected: PropertyListValue = "é€😀"
    let utf16LE: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let utf16BE: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let bareLE: [UInt8] = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let bareBE: [UInt8] = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let utf32BE: [UInt8] = [0, 0, 0xFE, 0xFF] + text.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (24 - 8 * $0)) } }
    let utf32LE: [UInt8] = [0xFF, 0xFE, 0, 0] + text.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) } }
    let variants: [(String, [UInt8])] = [("UTF-16LE", utf16LE), ("UTF-16BE", utf16BE), ("UTF-16LE without BOM", bareLE), ("UTF-16BE without BOM", bareBE),
                          ("UTF-32BE", utf32BE), ("UTF-32LE", utf32LE), ("UTF-8 BOM", [0xEF, 0xBB, 0xBF] + Array(text.utf8))]
    for (name, bytes) in variants {
      #expect(bytes.withUnsafeBytes { PropertyListFormat.detect($0) } == .xml, "\(name)")
      #expect(try PropertyListValue(decoding: bytes) == expected, "\(name)")
    }
    // 8-bit encodings named in the declaration.
    func declared(_ name: String, _ body: [UInt8]) throws -> PropertyListValue {
      try PropertyListValue(decoding: Array("<?xml version=\"1.0\" encoding=\"\(name)\"?>\n<plist><string>".utf8) + body + Array("</string></plist>".utf8))
    }
    #expect(try declared("ISO-8859-1", [0x63, 0x61, 0x66, 0xE9]) == "café")
    #expect(try declared("windows-1252", [0x80, 0x20, 0x93, 0x94]) == "€ \u{201C}\u{201D}")
    #expect(try declared("macintosh", [0x8E, 0xA5, 0xDB, 0xF0]) == "é•€\u{F8FF}")
    #expect(try declared("UTF-8", Array("ü".utf8)) == "ü")
    #expect(try declared("us-ascii", Array("plain".utf8)) == "plain")
    // Names compare as ICU compares aliases: case, punctuation and white space do not matter.
    #expect(try declared("UTF_8", [0xC3, 0xBC]) == "ü")
    #expect(try declared(" Utf 8", [0xC3, 0xBC]) == "ü")
    #expect(try declared("iso-8859-01", [0xFC]) == "ü")
    #expect(try declared("Latin-1", [0xFC]) == "ü")
    expectError(PropertyListError.self, .badEncoding) { try declared("us-ascii", [0xE9]) }
    expectError(PropertyListError.self, .badEncoding) { try declared("EBCDIC-CP-US", [0x41]) }
    expectError(PropertyListError.self, .badEncoding) { try declared("windows-1252", [0x81]) }
    // Broken UTF-16: odd length, unpaired surrogate.
    expectError(PropertyListError.self, .badEncoding) { try PropertyListValue(decoding: utf16LE + [0x3C]) }
    expectError(PropertyListError.self, .badEncoding) { try PropertyListValue(decoding: [0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x3E, 0x00]) }
    // Invalid UTF-8 inside text, including a four-byte sequence cut to three bytes (which the
    // standard library repairs to a replacement character of the same length).
    for bad: [UInt8] in [[0xF0, 0x9F, 0x98, 0x41], [0x41, 0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF5, 0x80, 0x80, 0x80],
                         [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80, 0xAF], Array("0123456789".utf8) + [0xF0, 0x9F, 0x98]] {
      expectError(PropertyListError.self, .badEncoding, "\(bad)") { try PropertyListValue(decoding: Array("<plist><string>".utf8) + bad + Array("</string></plist>".utf8)) }
    }
    // CF's one leniency: a stray 0xA9 byte (a Latin-1 or Mac OS Roman ©) reads as U+FFFD.
    #expect(try PropertyListValue(decoding: Array("<plist><string>x".utf8) + [0xA9] + Array("y</string></plist>".utf8)) == "x\u{FFFD}y")
    #expect(try PropertyListValue(decoding: Array("<plist><key>".utf8) + [0xA9, 0xC2, 0xA9] + Array("&amp;</key></plist>".utf8)) == "\u{FFFD}©&")
    expectError(PropertyListError.self, .badEncoding) { try PropertyListValue(decoding: Array("<plist><string>".utf8) + [0xA8] + Array("</string></plist>".utf8)) }
    #expect(try PropertyListValue(decoding: Array("<plist><string>0123456789😀\u{10FFFF}\u{FFFD}</string></plist>".utf8)) == "0123456789😀\u{10FFFF}\u{FFFD}")
    // Invalid UTF-8 inside text.
    expectError(PropertyListError.self, .badEncoding) { try PropertyListValue(decoding: Array("<plist><string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8)) }
  }

  @Test func formatDetection() {
    func detect(_ bytes: [UInt8]) -> PropertyListFormat { bytes.withUnsafeBytes { PropertyListFormat.detect($0) } }
    #expect(detect(Array("<plist>".utf8)) == .xml)
    #expect(detect(Array(" \n\t<?xml".utf8)) == .xml)
    #expect(detect(Array("<!-- c --><plist>".utf8)) == .xml)
    #expect(detect([0xEF, 0xBB, 0xBF] + Array("<plist>".utf8)) == .xml)
    #expect(detect([0xFF, 0xFE, 0x3C, 0x00, 0x70, 0x00]) == .xml)
    // Not XML: OpenStep text and data, including in UTF-16.
    #expect(detect(Array("{ a = b; }".utf8)) != .xml)
    #expect(detect(Array("<0fbd 77 AA>".utf8)) != .xml)
    #expect(detect(Array("<>".utf8)) != .xml)
    #expect(detect(Array("<abcdef".utf8)) != .xml)
    #expect(detect([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]) != .xml)
    #expect(detect([]) != .xml)
    // A tag whose name happens to start with hex letters is still XML.
    #expect(detect(Array("<dict>".utf8)) == .xml)
    #expect(detect(Array("<data>AA</data>".utf8)) == .xml)
  }

  // MARK: Writer

  @Test func writerSkeletonMatchesCF() throws {
    let value: PropertyListValue = ["Name": "A & B", "Items": []]
    #expect(try Self.xml(value) == """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>Items</key>
      \t<array/>
      \t<key>Name</key>
      \t<string>A &amp; B</string>
      </dict>
      </plist>

      """)
  }

  @Test func writerScalars() throws {
    func body(_ value: PropertyListValue) throws -> String {
      let text = try Self.xml(value)
      let start = text.range(of: "<plist version=\"1.0\">\n")!.upperBound
      let end = text.range(of: "</plist>\n", options: .backwards)!.lowerBound
      return String(text[start..<end])
    }
    let reals: [(Double, String)] = [
      (1, "1"), (0.5, "0.5"), (0.1, "0.10000000000000001"), (1e100, "1e+100"), (-0.0, "0.0"), (0, "0.0"),
      (.nan, "nan"), (.infinity, "+infinity"), (-.infinity, "-infinity"), (37.7668, "37.766800000000003"),
      (Double("-122.39590000000001")!, "-122.39590000000001"), (1e-5, "1.0000000000000001e-05"), (Double("123456789012345678")!, "1.2345678901234568e+17"),
      (Double(Float(0.1)), "0.10000000149011612"), (.leastNonzeroMagnitude, "4.9406564584124654e-324"), (100, "100"), (1e16, "10000000000000000"),
      (1e17, "1e+17"), (0.0001, "0.0001"), (0.00001, "1.0000000000000001e-05"), (-2.5, "-2.5"),
    ]
    for (real, text) in reals {
      #expect(try body(.real(real)) == "<real>\(text)</real>\n", "\(real)")
    }
    // A 32-bit real is written as the float it is: 0.1 as a float is 0.100000001490116…
    #expect(try body(.real(0.1, width: .single)) == "<real>0.10000000149011612</real>\n")
    #expect(try body(.integer(PropertyListInteger(UInt64.max))) == "<integer>18446744073709551615</integer>\n")
    #expect(try body(.integer(PropertyListInteger(Int64.min))) == "<integer>-9223372036854775808</integer>\n")
    #expect(try body(.integer(0)) == "<integer>0</integer>\n")
    #expect(try body(true) == "<true/>\n")
    #expect(try body(false) == "<false/>\n")
    #expect(try body("") == "<string></string>\n")
    #expect(try body("<a href=\"x\">'&'</a>\u{1}\r") == "<string>&lt;a href=\"x\"&gt;'&amp;'&lt;/a&gt;\u{1}\r</string>\n")
    #expect(try body(.data(Data())) == "<data>\n</data>\n")
    #expect(try body(.uid(42)) == "<dict>\n\t<key>CF$UID</key>\n\t<integer>42</integer>\n</dict>\n")
    #expect(try body([.uid(0)]) == "<array>\n\t<dict>\n\t\t<key>CF$UID</key>\n\t\t<integer>0</integer>\n\t</dict>\n</array>\n")
    func date(_ seconds: Double) throws -> String { try body(.date(Date(timeIntervalSinceReferenceDate: seconds))) }
    #expect(try date(0) == "<date>2001-01-01T00:00:00Z</date>\n")
    #expect(try date(0.999) == "<date>2001-01-01T00:00:00Z</date>\n")
    #expect(try date(-0.5) == "<date>2000-12-31T23:59:59Z</date>\n")
    #expect(try date(730_902_896) == "<date>2024-02-29T12:34:56Z</date>\n")
    #expect(try date(-63_113_904_000) == "<date>0001-01-01T00:00:00Z</date>\n")
    #expect(try date(-63_177_062_400) == "<date>-001-01-01T00:00:00Z</date>\n")
    #expect(try date(-63_113_904_001) == "<date>0000-12-31T23:59:59Z</date>\n")
    #expect(try date(3e11) == "<date>11507-08-17T05:20:00Z</date>\n")
    expectError(PropertyListError.self, .unrepresentable) { try Self.xml(.date(Date(timeIntervalSinceReferenceDate: .nan))) }
    expectError(PropertyListError.self, .unrepresentable) { try Self.xml(.date(Date(timeIntervalSinceReferenceDate: .infinity))) }
  }

  /// The writer's exact-integer `%.17g` against the C library's, on edge values and on random
  /// bit patterns and magnitudes.
  @Test func realFormattingAgreesWithTheCLibrary() {
    func text(_ value: Double, fast: Bool) -> String {
      var out = XMLPlistOutput(capacity: 64)
      defer { out.release() }
      if fast { out.appendReal(value) } else { out.appendRealWithCLibrary(value) }
      return String(decoding: out.bytes(), as: UTF8.self)
    }
    var values: [Double] = [1, 0.5, 0.1, 1e-4, 1e-5, 9.9999999999999995e-5, 1e16, 1e17, Double("99999999999999999")!, 9.999999999999999e16,
                            Double("123456789012345678")!, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .leastNormalMagnitude, Double("9007199254740993")!,
                            0.30000000000000004, 2.5, 1e22, 1e23, 1e38, 3.4e38, 1e-6, 1.5e-7, 4.35, 0.001, 1e300, 37.7668]
    for exponent in -30...40 {
      values.append(pow(10, Double(exponent)))
      values.append(pow(10, Double(exponent)).nextUp)
      values.append(pow(10, Double(exponent)).nextDown)
    }
    var generator = SplitMix64(seed: 3)
    for _ in 0..<100_000 {
      let bits = UInt64.random(in: 0...UInt64.max, using: &generator)
      let random = Double(bitPattern: bits)
      if random.isFinite && random != 0 { values.append(random) }
      values.append(Double.random(in: -1e6...1e6, using: &generator))
      values.append(Double.random(in: 0..<1, using: &generator) * pow(10, Double(Int.random(in: -8...40, using: &generator))))
    }
    var mismatches = 0
    for value in values {
      let fast = text(value, fast: true)
      let reference = text(value, fast: false)
      if fast != reference {
        mismatches += 1
        if mismatches <= 10 { Issue.record("\(value.bitPattern): \(fast) vs C library \(reference)") }
      }
    }
    #expect(mismatches == 0)
  }

  @Test func datesRoundTripAcrossTheCalendar() throws {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<2000 {
      let seconds = Double(Int64.random(in: -400_000_000_000...400_000_000_000, using: &generator))
      let value = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: seconds))
      #expect(try PropertyListValue(decoding: value.encodedBytes(as: .xml)) == value, "\(seconds)")
    }
  }

  @Test func keysAreSortedByUTF16CodeUnits() throws {
    let value: PropertyListValue = ["\u{E000}": 1, "😀": 2, "é": 3, "a": 4, "B": 5, "aa": 6, "": 7]
    let keys = try Self.xml(value).split(separator: "\n").filter { $0.hasPrefix("\t<key>") }
      .map { $0.dropFirst("\t<key>".count).dropLast("</key>".count) }
    // UTF-16: "" < B < a < aa < é < 😀 (D83D…) < U+E000; code-point order would put 😀 last.
    #expect(keys == ["", "B", "a", "aa", "é", "😀", "\u{E000}"])
  }

  @Test func keyOrderOnUTF8AgreesWithUTF16() {
    let alphabet: [Character] = ["a", "B", "\u{0}", "é", "\u{7FF}", "\u{800}", "中", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}", "😀", "\u{10000}", "\u{10FFFF}"]
    var generator = SplitMix64(seed: 11)
    for _ in 0..<5000 {
      let a = String((0..<Int.random(in: 0...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
      let b = String((0..<Int.random(in: 0...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
      #expect(XMLPlistWriter.utf16Precedes(a, b) == a.utf16.lexicographicallyPrecedes(b.utf16), "\(a.unicodeScalars.map(\.value)) \(b.unicodeScalars.map(\.value))")
    }
  }

  @Test func base64LineWidthDependsOnIndentation() throws {
    let data = Data((0..<200).map { UInt8($0) })
    var value = PropertyListValue.data(data)
    for level in 0...11 {
      let lines = try Self.xml(value).split(separator: "\n", omittingEmptySubsequences: false)
      let open = lines.firstIndex { $0.hasSuffix("<data>") }!
      let close = lines.firstIndex { $0.hasSuffix("</data>") }!
      #expect(lines[open] == Substring(String(repeating: "\t", count: level) + "<data>"), "level \(level)")
      #expect(lines[close] == Substring(String(repeating: "\t", count: level) + "</data>"), "level \(level)")
      let tabs = min(level, 8)
      let width = 76 - 8 * tabs
      let body = lines[(open + 1)..<close]
      for (index, line) in body.enumerated() {
        #expect(line.prefix(tabs).allSatisfy { $0 == "\t" } && line.dropFirst(tabs).first != "\t", "level \(level)")
        let characters = line.count - tabs
        if index < body.count - 1 {
          #expect(characters == width, "level \(level), line \(index)")
        } else {
          #expect(characters <= width && characters > 0, "level \(level), last line")
        }
      }
      #expect(Data(base64Encoded: body.map { $0.dropFirst(tabs) }.joined()) == data, "level \(level)")
      #expect(try PropertyListValue(decoding: value.encodedBytes(as: .xml)) == value)
      value = [value]
    }
    // Exactly one full line: no empty line after it.
    #expect(try Self.xml(.data(Data(count: 57))).contains("<data>\n" + String(repeating: "A", count: 76) + "\n</data>\n"))
  }

  @Test func deepValuesAreWrittenWithoutRecursion() throws {
    var value: PropertyListValue = "leaf"
    for _ in 0..<1000 { value = ["k": [value]] }
    let bytes = try value.encodedBytes(as: .xml)
    let decoded = try PropertyListValue(decoding: bytes, options: .init(maximumDepth: 2000))
    #expect(decoded == value)
  }
}
