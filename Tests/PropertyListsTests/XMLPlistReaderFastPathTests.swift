import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// The XML reader's shortcuts (key cache, duplicate-key fingerprints, `strtod` for long reals)
/// against the slow paths they stand in for.
@Suite("XML property lists: reader fast paths")
struct XMLPlistReaderFastPathTests {
  private func decode(_ text: String) throws -> PropertyListValue {
    try PropertyListValue(decoding: Data(text.utf8), format: .xml)
  }

  private func document(_ body: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n"
  }

  @Test("long reals parse bit-identically to Double(String)", arguments: [UInt64(1), 2, 3])
  func longRealsMatchSwift(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var texts: [String] = []
    for _ in 0..<3000 {
      let bits = random.next()
      let double = Double(bitPattern: bits)
      guard double.isFinite else { continue }
      texts.append("\(double)")
      // 16–17 significant digits and exponents of every size, as C's %.17g prints them.
      texts.append(String(format: "%.17g", double))
      texts.append(String(format: "%.16e", double))
      let mantissa = random.next() % 100_000_000_000_000_000
      let exponent = Int(random.next() % 700) - 350
      texts.append("\(random.next() & 1 == 0 ? "-" : "")\(mantissa)e\(exponent)")
      texts.append("0.\(mantissa)")
      // Clinger's fast path: up to 19 digits around 2^53 (exact only up to it) and powers of ten
      // within ±22.
      let scale = Int(random.next() % 45) - 22
      let nearLimit = (UInt64(1) << 53) &- 50 &+ random.next() % 100
      texts.append("\(nearLimit)e\(scale)")
      texts.append("\(random.next() % 10_000_000_000_000_000_000)e\(scale)")
      texts.append("0.\(random.next() % (UInt64(1) << 53))")
      texts.append("\(random.next() % 1_000_000_000_000).\(random.next() % 10_000_000)")
    }
    var body = "<array>\n"
    for text in texts { body += "<real>\(text)</real>\n" }
    body += "</array>"
    guard case .array(let values) = try decode(document(body)) else {
      Issue.record("not an array")
      return
    }
    #expect(values.count == texts.count)
    for (text, value) in zip(texts, values) {
      guard case .real(let real, _) = value, let expected = Double(text) else {
        Issue.record("\(text) did not give a real (seed \(seed))")
        continue
      }
      #expect(real.bitPattern == expected.bitPattern, "\(text) (seed \(seed))")
    }
  }

  @Test("tags in CF's spelling and in every other legal spelling read alike, also at the very end")
  func tagSpellings() throws {
    let plain = "<plist><array><dict><key>k</key><string>s</string><key>i</key><integer>1</integer></dict><true/><false/><real>1.5</real><date>2001-01-01T00:00:00Z</date><data>AA==</data><array></array><dict></dict></array></plist>"
    let spaced = "<plist version=\"1.0\"><array ><dict\n><key >k</key ><string\t>s</string\n><key>i</key><integer>1</integer ></dict ><true /><false\t/><true></true><real >1.5</real\r\n><date>2001-01-01T00:00:00Z</date ><data >AA==</data ><array/><dict/></array></plist >"
    let expected: PropertyListValue = [["k": "s", "i": 1], true, false, .real(1.5, width: .double), .date(Date(timeIntervalSinceReferenceDate: 0)), .data(Data([0])), [], [:]]
    #expect(try decode(plain) == expected)
    var withTrue = expected
    if case .array(var elements) = withTrue {
      elements.insert(true, at: 3)
      withTrue = .array(elements)
    }
    #expect(try decode(spaced) == withTrue)
    // Tags within eight bytes of the end go the general way.
    #expect(try decode("<plist><true/></plist>") == true)
    #expect(try decode("<key>k</key>") == "k")
    #expect(try decode("<string>s</string>") == "s")
    #expect(throws: PropertyListError.self) { try decode("<string>s</strin>") }
    #expect(throws: PropertyListError.self) { try decode("<plist><string>s</key></plist>") }
    #expect(throws: PropertyListError.self) { try decode("<plist><integer>1</integex></plist>") }
  }

  @Test("white space is skipped a word at a time, and only XML's four white-space bytes count")
  func whiteSpaceRuns() throws {
    let white = [" ", "\t", "\n", "\r"]
    var random = SplitMix64(seed: 7)
    for length in 0..<40 {
      let run = (0..<length).map { _ in white[Int(random.next() % 4)] }.joined()
      #expect(try decode("<plist>\(run)<array>\(run)<true/>\(run)</array>\(run)</plist>") == [true], "run of \(length)")
      // A control byte right after white space (the borrow trick would take 0x08 after a tab,
      // or 0x0B after a line feed, for white space) is an error wherever it falls in the word.
      for control in ["\u{08}", "\u{0B}", "\u{0C}", "\u{1F}", "\u{21}"] {
        #expect(throws: PropertyListError.self, "\(length) then \(control.unicodeScalars.first!.value)") {
          try decode("<plist><array>\(run)\(control)<true/></array></plist>")
        }
      }
    }
  }

  @Test("keyed-archiver references read straight into UIDs agree with the general reading")
  func keyedArchiverReferences() throws {
    // Each pair: the shape the shortcut reads, and the same dictionary with a comment that sends
    // it the general way.
    let integers = ["0", "7", "+12", " 42", "4294967295", "4294967296", "18446744073709551615", "-1", "-2147483649", "0x10"]
    for integer in integers {
      let plain = "<plist><array><dict>\n\t<key>CF$UID</key>\n\t<integer>\(integer)</integer>\n</dict></array></plist>"
      let general = "<plist><array><dict><!-- c --><key>CF$UID</key><integer>\(integer)</integer></dict></array></plist>"
      #expect(try decode(plain) == decode(general), "\(integer)")
    }
    // Not references, or not only: the general reading decides.
    let others = [
      "<dict><key>CF$UID</key><integer>1</integer><key>x</key><true/></dict>",
      "<dict><key>CF$UID</key><integer>1</integer ></dict>",
      "<dict><key>CF$UID</key><integer>1</integer></dict >",
      "<dict><key>CF$UID</key><real>3.9</real></dict>",
      "<dict><key>CF$UID</key><string>1</string></dict>",
      "<dict><key>CF$UIDx</key><integer>1</integer></dict>",
      "<dict><key>CF$UID</key><integer>1</integer><key>CF$UID</key><integer>2</integer></dict>",
    ]
    #expect(try decode("<plist><array>\(others.joined())</array></plist>") == [["CF$UID": 1, "x": true], .uid(1), .uid(1), .uid(3), ["CF$UID": "1"], ["CF$UIDx": 1], .uid(2)])
    // Bad integers fail the same way both ways; so does the object limit.
    for bad in ["", "x", "1.5", "99999999999999999999"] {
      let plain = "<plist><array><dict><key>CF$UID</key><integer>\(bad)</integer></dict></array></plist>"
      let general = "<plist><array><dict><key>CF$UID</key><!--c--><integer>\(bad)</integer></dict></array></plist>"
      let first = #expect(throws: PropertyListError.self) { try decode(plain) }
      let second = #expect(throws: PropertyListError.self) { try decode(general) }
      #expect(first?.code == second?.code, "\(bad)")
    }
    var options = PropertyListReadingOptions()
    options.maximumObjectCount = 3
    let limited = "<plist><array><dict><key>CF$UID</key><integer>1</integer></dict></array></plist>"
    #expect(throws: PropertyListError.self) { try PropertyListValue(decoding: Data(limited.utf8), format: .xml, options: options) }
    options.maximumObjectCount = 4
    #expect(try PropertyListValue(decoding: Data(limited.utf8), format: .xml, options: options) == [.uid(1)])
  }

  @Test("runs of dictionaries that repeat, extend, cut short, reorder or repeat the previous one's keys read as written, in order", arguments: [UInt64(11), 12, 13])
  func repeatedShapes(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let pool = ["id", "name", "serialNumber", "valueInDollars", "dateCreated", "a", "", "k&amp;", "ключ"]
    var previous = ["id", "name", "serialNumber"]
    var expected: [PropertyListDictionary] = []
    var body = "<array>\n"
    for _ in 0..<400 {
      var keys = previous
      switch random.next() % 7 {
      case 0: break  // the same keys
      case 1: if !keys.isEmpty { keys.removeLast() }  // a prefix
      case 2: keys.append(pool[Int(random.next() % UInt64(pool.count))])  // longer, maybe a repeat
      case 3: if keys.count >= 2 { keys.swapAt(0, keys.count - 1) }  // reordered
      case 4: if !keys.isEmpty { keys[Int(random.next() % UInt64(keys.count))] = pool[Int(random.next() % UInt64(pool.count))] }
      case 5: keys = (0..<Int(random.next() % 5)).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
      default: if let first = keys.first { keys.append(first) }  // a repeated key
      }
      previous = keys
      let values = keys.indices.map { _ in PropertyListValue.integer(PropertyListInteger(Int64(random.next() % 1000))) }
      body += "<dict>"
      for (key, value) in zip(keys, values) {
        guard case .integer(let integer) = value else { continue }
        body += key.isEmpty ? "<key/>" : "<key>\(key)</key>"
        body += "<integer>\(integer)</integer>"
      }
      body += "</dict>\n"
      let decodedKeys = keys.map { $0.replacingOccurrences(of: "&amp;", with: "&") }
      expected.append(PropertyListDictionary(keys: decodedKeys, values: values))
    }
    body += "</array>"
    guard case .array(let elements) = try decode(document(body)) else {
      Issue.record("not an array")
      return
    }
    #expect(elements.count == expected.count)
    for (index, (element, wanted)) in zip(elements, expected).enumerated() {
      guard case .dictionary(let dictionary) = element else {
        Issue.record("element \(index) is not a dictionary (seed \(seed))")
        continue
      }
      #expect(dictionary == wanted, "element \(index) (seed \(seed))")
      #expect(dictionary.keys == wanted.keys, "key order of element \(index) (seed \(seed))")
    }
  }

  @Test("repeated keys keep the first position and the last value, also through the key cache")
  func duplicateKeys() throws {
    let body = """
      <array>
      <dict><key>a</key><integer>1</integer><key>b</key><integer>2</integer><key>a</key><integer>3</integer></dict>
      <dict><key>a</key><integer>4</integer><key>b</key><integer>5</integer></dict>
      <dict><key></key><integer>6</integer><key/><integer>7</integer></dict>
      <dict><key>a&amp;b</key><integer>8</integer><key><![CDATA[a&b]]></key><integer>9</integer></dict>
      <dict><key>caf\u{E9}</key><integer>10</integer><key>cafe\u{301}</key><integer>11</integer></dict>
      <dict><key>K</key><integer>12</integer><key>\u{212A}</key><integer>13</integer></dict>
      <dict><key>a-rather-long-key-that-is-longer-than-sixty-four-bytes-in-all-of-its-length</key><integer>14</integer>
      <key>a-rather-long-key-that-is-longer-than-sixty-four-bytes-in-all-of-its-length</key><integer>15</integer></dict>
      </array>
      """
    guard case .array(let dicts) = try decode(document(body)) else {
      Issue.record("not an array")
      return
    }
    let expected: [[(String, Int)]] = [
      [("a", 3), ("b", 2)],
      [("a", 4), ("b", 5)],
      [("", 7)],
      [("a&b", 9)],
      // Swift compares strings by canonical equivalence, as PropertyListDictionary(keys:values:) does.
      [("caf\u{E9}", 11)],
      [("K", 13)],
      [("a-rather-long-key-that-is-longer-than-sixty-four-bytes-in-all-of-its-length", 15)],
    ]
    #expect(dicts.count == expected.count)
    for (value, entries) in zip(dicts, expected) {
      guard case .dictionary(let dict) = value else {
        Issue.record("not a dictionary: \(value)")
        continue
      }
      #expect(dict.keys.map { $0 } == entries.map(\.0))
      for (key, number) in entries {
        #expect(dict[key] == .integer(PropertyListInteger(Int64(number))), "\(key)")
      }
    }
  }

  @Test("many dictionaries with shared and colliding keys read as the slow path would build them")
  func keyCacheAgainstModel() throws {
    var random = SplitMix64(seed: 7)
    var body = "<array>\n"
    var expected: [PropertyListValue] = []
    for _ in 0..<400 {
      var keys: [String] = []
      var values: [PropertyListValue] = []
      body += "<dict>"
      for _ in 0..<Int(random.next() % 24) {
        // A small alphabet so that keys repeat within and across dictionaries.
        let length = Int(random.next() % 12)
        let key = String((0..<length).map { _ in "abcXY"[Int(random.next() % 5)] })
        let number = Int(random.next() % 1000)
        body += "<key>\(key)</key><integer>\(number)</integer>"
        keys.append(key)
        values.append(.integer(PropertyListInteger(Int64(number))))
      }
      body += "</dict>\n"
      expected.append(.dictionary(PropertyListDictionary(keys: keys, values: values)))
    }
    body += "</array>"
    let value = try decode(document(body))
    #expect(value == .array(expected))
    guard case .array(let dicts) = value else { return }
    for (got, want) in zip(dicts, expected) {
      guard case .dictionary(let a) = got, case .dictionary(let b) = want else { continue }
      #expect(Array(a.keys) == Array(b.keys))
    }
  }
}

extension String {
  fileprivate subscript(_ index: Int) -> Character { self[self.index(startIndex, offsetBy: index)] }
}
