import Foundation
import Testing
import TestSupport

@testable import PropertyLists

// The Codable decoder reads UTF-8 XML documents from a flat record of their elements
// (`XMLPlistTape`) instead of a value tree. Both paths must give the same value, or the same
// error — kind, coding path, description and, for an unreadable document, the reader's error —
// for any document and any type. These tests decode each document both ways and compare (the
// helpers are CodableInPlaceDecodingTests').

private let limits = PropertyListReadingPolicy.foundationDecoder.limits

private func xml(_ body: String) -> Data {
  Data(
    ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
      + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n\(body)\n</plist>\n").utf8)
}

@Suite struct CodableXMLInPlaceDecodingTests {
  @Test(arguments: 1...12 as ClosedRange<UInt64>)
  func generatedModelsDecodeAlikeBothWays(seed: UInt64) throws {
    let encoder = PropertyLists.PropertyListEncoder()
    encoder.outputFormat = .xml
    let model = RichModel.random(seed: seed)
    let data = try encoder.encode(model)
    #expect(XMLPlistTape(data, options: limits) != nil, "read in place")
    #expect(expectSameBothWays(RichModel.self, data, "seed \(seed)") == .success(model))
    let store = ItemStore.generate(seed: seed, itemCount: Int(seed) * 2)
    #expect(expectSameBothWays(ItemStore.self, try encoder.encode(store), "store, seed \(seed)") == .success(store))
  }

  /// Random documents of every kind XML holds, decoded through every kind of container.
  @Test(arguments: 1...20 as ClosedRange<UInt64>)
  func randomDocumentsDecodeAlikeBothWays(seed: UInt64) throws {
    var random = RandomPropertyList(seed: seed, kinds: .xml, maximumDepth: 4, maximumWidth: 5)
    let data = try random.document().encoded(as: .xml)
    let readable = (try? PropertyListValue.read(data, policy: .foundationDecoder)) != nil
    #expect(readable)
    expectSameBothWays(XMLProbe.self, data, "seed \(seed)")
    expectSameBothWays([String: XMLProbe].self, data, "seed \(seed), as a dictionary")
    expectSameBothWays([XMLProbe].self, data, "seed \(seed), as an array")
  }

  /// Documents of the right shape with one value swapped for a random one (wrong kinds, nulls,
  /// numbers out of range, missing containers): the errors' kinds, paths and texts agree.
  @Test(arguments: 1...30 as ClosedRange<UInt64>)
  func mutatedDocumentsFailAlikeBothWays(seed: UInt64) throws {
    for (round, mutated) in try mutatedItemStores(seed: seed, kinds: .xml, uids: true).enumerated() {
      let data = try mutated.encoded(as: .xml)
      #expect(XMLPlistTape(data, options: limits) != nil)
      expectSameBothWays(ItemStore.self, data, "seed \(seed), round \(round)")
      expectSameBothWays(RichModel.self, data, "seed \(seed), round \(round), as RichModel")
    }
  }

  /// Damaged documents: bytes changed, inserted or cut. A document the in-place path accepts
  /// must be one the tree reader reads, and both paths must fail alike on the rest.
  @Test(arguments: 1...30 as ClosedRange<UInt64>)
  func damagedDocumentsFailAlikeBothWays(seed: UInt64) throws {
    let original = try encodedItemStore(seed: seed, itemCount: 2, format: .xml)
    let markup: [UInt8] = Array("<>/&;![]-?\"' \n\u{E9}".utf8) + [0xA9, 0xFF, 0x00]
    for (round, data) in damagedCopies(of: original, seed: seed, rounds: 24, protected: 40, alphabet: markup).enumerated() {
      if XMLPlistTape(data, options: limits) != nil {
        let readable = (try? PropertyListValue.read(data, policy: .foundationDecoder)) != nil
        #expect(readable, "seed \(seed), round \(round): accepted in place but not readable as a tree")
      }
      expectSameBothWays(ItemStore.self, data, "seed \(seed), round \(round)")
      expectSameBothWays(XMLProbe.self, data, "seed \(seed), round \(round), probed")
    }
  }

  /// A dictionary that repeats a key keeps the key's first position and its last value (CF's
  /// XML reader), compared as strings: canonically equivalent spellings are one key, spelled as
  /// it first was. Small dictionaries and ones large enough for an index alike.
  @Test func repeatedKeysKeepTheirLastValue() throws {
    let small = xml(
      "<dict><key>a</key><integer>1</integer><key>b</key><integer>2</integer><key>a</key><integer>3</integer>"
        + "<key>caf\u{E9}</key><integer>4</integer><key>cafe\u{301}</key><integer>5</integer></dict>")
    #expect(XMLPlistTape(small, options: limits) != nil)
    let both = try probe(small, keys: ["b", "a", "caf\u{E9}", "c"])
    #expect(both.inPlace == both.tree)
    #expect(both.inPlace.found == [2, 3, 5, nil])
    #expect(both.inPlace.allKeys == ["a", "b", "caf\u{E9}"])
    #expect(expectSameBothWays([String: Int].self, small, "as a dictionary") == .success(["a": 3, "b": 2, "caf\u{E9}": 5]))

    let entries = (0..<30).map { "<key>k\($0 % 25)</key><integer>\($0)</integer>" }.joined()
    let large = xml("<dict>\(entries)</dict>")
    let keys = (0..<26).reversed().map { "k\($0)" }
    let bothLarge = try probe(large, keys: keys)
    #expect(bothLarge.inPlace == bothLarge.tree)
    let expected: [Int?] = [nil] + (0..<25).reversed().map { number -> Int? in number < 5 ? number + 25 : number }
    #expect(bothLarge.inPlace.found == expected)
    #expect(bothLarge.inPlace.allKeys == (0..<25).map { "k\($0)" })
  }

  /// Keys compare as Swift strings do, however the document spells them (ASCII, UTF-8,
  /// references, CDATA) and whatever the coding key's spelling.
  @Test func keysCompareAsStrings() throws {
    let data = xml(
      "<dict><key>caf\u{E9}</key><integer>1</integer><key>K</key><integer>2</integer>"
        + "<key>\u{1F600}</key><integer>3</integer><key>pl&#97;in</key><integer>4</integer>"
        + "<key/><integer>5</integer><key>\u{212B}</key><integer>6</integer>"
        + "<key><![CDATA[a<b]]></key><integer>7</integer><key>x&amp;y</key><integer>8</integer></dict>")
    let keys = ["cafe\u{301}", "\u{212A}", "\u{1F600}", "plain", "", "A\u{30A}", "\u{C5}", "missing", "caf", "a<b", "x&y"]
    let both = try probe(data, keys: keys)
    #expect(both.inPlace == both.tree)
    #expect(both.inPlace.found == [1, 2, 3, 4, 5, 6, 6, nil, nil, 7, 8])
  }

  /// Keyed-archiver references (`CF$UID` dictionaries, written plainly or not) are UIDs either
  /// way, and decoding them as something else fails alike.
  @Test func keyedArchiverReferences() throws {
    let data = xml(
      "<array><dict><key>CF$UID</key><integer>5</integer></dict>"
        + "<dict><key>CF&#36;UID</key><integer>6</integer></dict>"
        + "<dict><key>CF$UID</key><integer>7</integer><key>CF$UID</key><real>-2.7</real></dict>"
        + "<dict><key>CF$UID</key><string>8</string></dict>"
        + "<dict><!-- c --><key>CF$UID</key><integer>9</integer></dict></array>")
    #expect(XMLPlistTape(data, options: limits) != nil)
    expectSameBothWays([Int].self, data, "as integers")
    expectSameBothWays(XMLProbe.self, data, "probed")
    let tree = try PropertyListValue(decoding: data, policy: .foundationDecoder)
    #expect(tree == [.uid(5), .uid(6), .uid(0xFFFF_FFFE), ["CF$UID": "8"], .uid(9)])
  }

  /// What the tape leaves to the tree: other encodings, tiny documents, and text that is not
  /// an XML property list; the decoder reads them all as before.
  @Test func documentsReadAsTrees() throws {
    let text = "<plist><array><string>\u{E9}t\u{E9}</string><string>x</string></array></plist>"
    let utf16 = Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    #expect(XMLPlistTape(utf16, options: limits) == nil)
    #expect(expectSameBothWays([String].self, utf16, "UTF-16") == .success(["\u{E9}t\u{E9}", "x"]))
    let tiny = Data("<array><true/></array>".utf8)
    #expect(XMLPlistTape(tiny, options: limits) == nil)
    #expect(try PropertyLists.PropertyListDecoder().decode([Bool].self, from: tiny) == [true])
    let openStep = Data("{ a = 1; b = (x, y); c = <0fbd>; dd = \"some longer text here\"; }".utf8)
    #expect(XMLPlistTape(openStep, options: limits) == nil)
    expectSameBothWays([String: XMLProbe].self, openStep, "OpenStep")
  }

  /// Nested `<plist>` elements, comments and processing instructions between values, and every
  /// scalar kind, as the tree reader reads them.
  @Test func unusualButValidDocuments() throws {
    let data = xml(
      "<array><plist><string>inner</string></plist><!-- note --><?pi x?><integer> -0x10</integer>"
        + "<real>1e300</real><real>nan</real><date>2001-01-01T00:00:00Z</date><data>AAEC\nAw==</data>"
        + "<true></true><false/><string>&lt;&#x1F600;&gt;</string><string/><key>as value</key>"
        + "<dict/><array/><integer>18446744073709551615</integer><string>$null</string></array>")
    #expect(XMLPlistTape(data, options: limits) != nil)
    expectSameBothWays(XMLProbe.self, data, "probed")
    expectSameBothWays([XMLProbe].self, data, "as an array")
  }
}

/// Whatever the document holds, through every kind of container: dictionaries by `allKeys` and
/// by key, arrays to their end, scalars as each type in turn.
struct XMLProbe: Codable, Equatable {
  typealias AnyKey = KeyProbe.AnyKey
  let rendered: String

  init(from decoder: any Decoder) throws {
    if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
      var parts: [String] = []
      for key in keyed.allKeys {
        parts.append("\(key.stringValue)=\(try keyed.decode(XMLProbe.self, forKey: key).rendered)")
      }
      let id = (try? keyed.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "id"))).map { "\($0 as Any)" } ?? "error"
      let items = (try? keyed.nestedUnkeyedContainer(forKey: AnyKey(stringValue: "items")))?.count.map(String.init) ?? "-"
      parts.append("#id=\(id) #items=\(items) #has=\(keyed.contains(AnyKey(stringValue: "name")))")
      rendered = "{" + parts.joined(separator: ",") + "}"
    } else if var unkeyed = try? decoder.unkeyedContainer() {
      var parts: [String] = []
      while !unkeyed.isAtEnd {
        parts.append(try unkeyed.decodeNil() ? "nil" : try unkeyed.decode(XMLProbe.self).rendered)
      }
      rendered = "[" + parts.joined(separator: ",") + "]"
    } else {
      let single = try decoder.singleValueContainer()
      func attempt<T: Decodable>(_ type: T.Type, _ shown: (T) -> String = { "\($0)" }) -> String {
        (try? single.decode(type)).map(shown) ?? "-"
      }
      let parts = [
        single.decodeNil() ? "nil" : "some", attempt(String.self), attempt(Int8.self), attempt(UInt64.self),
        attempt(Int64.self), attempt(Double.self) { "\($0.bitPattern)" }, attempt(Float.self) { "\($0.bitPattern)" },
        attempt(Bool.self), attempt(Date.self) { "\($0.timeIntervalSinceReferenceDate.bitPattern)" },
        attempt(Data.self) { "\(Array($0))" },
      ]
      rendered = parts.joined(separator: " ")
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rendered)
  }
}
