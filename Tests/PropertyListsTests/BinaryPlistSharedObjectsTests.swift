import Foundation
import Testing
import TestSupport

@_spi(Testing) @testable import PropertyLists

// The binary reader makes the string of a string object that several references reach once and
// shares it (`BinaryPlistSharedStrings`, direct-mapped by object number), and the Codable
// decoder's validating pass tells keys apart by key object unless two key objects have one text. These tests check that none of it changes a
// value or an error.

/// A `bplist00` document made object by object: 2-byte references, 4-byte offsets.
private func document(_ objects: [[UInt8]], top: Int = 0) -> Data {
  handMadeBinaryPlist(objects, top: top, offsetSize: 4, referenceSize: 2)
}

/// A marker byte with its count (extended by an integer object when 15 or more).
private func marker(_ kind: UInt8, count: Int) -> [UInt8] {
  if count < 15 { return [kind << 4 | UInt8(count)] }
  return [kind << 4 | 0x0F, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)]
}

private func reference(_ object: Int) -> [UInt8] { [UInt8(object >> 8), UInt8(object & 0xFF)] }

/// A string object as writers store it: ASCII when it is, otherwise big-endian UTF-16.
private func stringObject(_ text: String) -> [UInt8] {
  if text.utf8.allSatisfy({ $0 < 0x80 }) { return marker(5, count: text.utf8.count) + Array(text.utf8) }
  let units = Array(text.utf16)
  return marker(6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
}

private func arrayObject(_ members: [Int]) -> [UInt8] { marker(0xA, count: members.count) + members.flatMap(reference) }

private func dictionaryObject(keys: [Int], values: [Int]) -> [UInt8] {
  marker(0xD, count: keys.count) + keys.flatMap(reference) + values.flatMap(reference)
}

/// Texts of every kind the reader treats apart: empty, inline ASCII, long ASCII, short and long
/// UTF-16 (long enough for scratch space on the heap), astral characters.
private func randomText(_ rng: inout SplitMix64) -> String {
  let pieces = ["a", "Zq", "tag", " ", "é", "中文", "😀", "🇯🇵", "\u{FFFD}", "ß"]
  let length =
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: 0
    case 1, 2: Int.random(in: 1...6, using: &rng)
    case 3: Int.random(in: 7...40, using: &rng)
    default: Int.random(in: 250...500, using: &rng)
    }
  let asciiOnly = Bool.random(using: &rng)
  var text = ""
  for _ in 0..<length {
    let piece = pieces.randomElement(using: &rng)!
    text += asciiOnly ? String(piece.unicodeScalars.filter(\.isASCII)) : piece
  }
  return text
}

/// A document of `poolSize` string objects, each reached from several random places among
/// nested arrays and dictionaries, with the value the reader must make of it. Some objects hold
/// an unpaired surrogate, which the reader decodes as U+FFFD.
private func sharedStringDocument(seed: UInt64, poolSize: Int) -> (Data, PropertyListValue) {
  var rng = SplitMix64(seed: seed)
  var texts = (0..<poolSize).map { _ in randomText(&rng) }
  // Surrogates never survive a Swift String; build those objects from UTF-16 units instead.
  var objects: [[UInt8]] = [[]]  // object 0: the top array, filled in last
  var expected: [String] = []
  for index in texts.indices {
    if index % 7 == 3 {
      // A lone high surrogate between two letters: "a\u{FFFD}b".
      objects.append([0x63, 0x00, 0x61, 0xD8, 0x3D, 0x00, 0x62])
      texts[index] = "a\u{FFFD}b"
    } else {
      objects.append(stringObject(texts[index]))
    }
    expected.append(texts[index])
  }
  let keyObject = objects.count
  objects.append(stringObject("k"))
  var topMembers: [Int] = []
  var topValues: [PropertyListValue] = []
  for _ in 0..<(poolSize * 3) {
    let pick = Int.random(in: 0..<poolSize, using: &rng)
    switch Int.random(in: 0..<3, using: &rng) {
    case 0:
      topMembers.append(1 + pick)
      topValues.append(.string(expected[pick]))
    case 1:
      let second = Int.random(in: 0..<poolSize, using: &rng)
      topMembers.append(objects.count)
      objects.append(arrayObject([1 + pick, 1 + second, 1 + pick]))
      topValues.append(.array([.string(expected[pick]), .string(expected[second]), .string(expected[pick])]))
    default:
      topMembers.append(objects.count)
      objects.append(dictionaryObject(keys: [keyObject], values: [1 + pick]))
      topValues.append(.dictionary(PropertyListDictionary(keys: ["k"], values: [.string(expected[pick])])))
    }
  }
  objects[0] = arrayObject(topMembers)
  return (document(objects), .array(topValues))
}

/// Models for the Codable decoder: a string reached from many places, as a struct field, an
/// array element and a dictionary value and key.
private struct Tagged: Codable, Equatable {
  var name: String
  var tags: [String]
  var attributes: [String: String]
}

@Suite struct BinaryPlistSharedObjectsTests {
  /// Strings reached from many places read as the same values, whatever their kind, with more
  /// shared strings than the cache has slots (so that slots are taken over).
  @Test(arguments: [(1, 40), (2, 40), (3, 300), (4, 2_000), (5, 2_000)] as [(UInt64, Int)])
  func sharedStringsReadAlikeEverywhere(seed: UInt64, poolSize: Int) throws {
    let (data, expected) = sharedStringDocument(seed: seed, poolSize: poolSize)
    let value = try PropertyListValue(decoding: data)
    #expect(value == expected, "seed \(seed)")
    // The Codable decoder reads the same strings in place.
    let strings = try PropertyLists.PropertyListDecoder().decode([SharedStringEntry].self, from: data)
    guard case .array(let entries) = expected else { return }
    #expect(strings.count == entries.count)
    for (decoded, entry) in zip(strings, entries) { #expect(decoded.value == entry, "seed \(seed)") }
  }

  /// A long string reached four times: from its second reference on, the reader hands out the
  /// one string it kept (the same storage), not a new copy.
  @Test func aLongSharedStringIsKept() throws {
    let text = String(repeating: "shared 中文 ", count: 40)
    let data = document([arrayObject([1, 1, 1, 1]), stringObject(text)])
    guard case .array(let values) = try PropertyListValue(decoding: data) else {
      Issue.record("not an array")
      return
    }
    let storages = values.map { value -> UnsafeRawPointer? in
      guard case .string(var string) = value else { return nil }
      #expect(string == text)
      return string.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
    #expect(storages[1] != nil && storages[1] == storages[2] && storages[2] == storages[3])
    // The Codable decoder, reading in place, keeps it the same way.
    let decoded = try PropertyLists.PropertyListDecoder().decode([String].self, from: data)
    #expect(decoded == [text, text, text, text])
    let decodedStorages = decoded.map { string -> UnsafeRawPointer? in
      var copy = string
      return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
    #expect(decodedStorages[1] != nil && decodedStorages[1] == decodedStorages[2] && decodedStorages[2] == decodedStorages[3])
  }

  /// A damaged string reached from many places fails at its first reference with the error it
  /// always gave (a string is kept only once it has been made).
  @Test func damagedSharedStringsFailAtTheirObject() throws {
    // An ASCII string with a byte above 0x7F, reached from three places.
    let badASCII = document([arrayObject([1, 1, 1]), [0x53, 0x61, 0xC3, 0x62]])
    do {
      _ = try PropertyListValue(decoding: badASCII)
      Issue.record("a string with a byte above 0x7F read")
    } catch {
      #expect(error.code == .badEncoding)
      #expect(error.position == .byteOffset(8 + 7))
    }
    // A UTF-16 string whose units run into the offset table, reached twice.
    let cut = document([arrayObject([1, 1]), [0x6F, 0x11, 0x7F, 0x00, 0x41]])
    do {
      _ = try PropertyListValue(decoding: cut)
      Issue.record("a cut string read")
    } catch {
      #expect(error.code == .truncated)
      #expect(error.position == .byteOffset(8 + 5))
    }
  }

  /// Two key objects of one text: in one dictionary they repeat a key (its first value wins, as
  /// CF's reader keeps it), in two dictionaries they do not; both decode alike in place and
  /// through the tree.
  @Test func twoKeyObjectsOfOneText() throws {
    // [{a: 1, b: 2, a': 3}, {a': 4}] with a and a' distinct objects of text "a".
    let data = document([
      arrayObject([1, 2]),
      dictionaryObject(keys: [3, 4, 5], values: [6, 7, 8]),
      dictionaryObject(keys: [5], values: [9]),
      stringObject("a"), stringObject("b"), stringObject("a"),
      [0x10, 1], [0x10, 2], [0x10, 3], [0x10, 4],
    ])
    let decoder = PropertyLists.PropertyListDecoder()
    let expected: [[String: Int]] = [["a": 1, "b": 2], ["a": 4]]
    #expect(try decoder.decode([[String: Int]].self, from: data) == expected)
    #expect(try decoder.decodeThroughTree([[String: Int]].self, from: data) == expected)
    struct AB: Codable, Equatable {
      var a: Int
      var b: Int?
    }
    #expect(try decoder.decode([AB].self, from: data) == [AB(a: 1, b: 2), AB(a: 4, b: nil)])
    // An integer key and a string key of the same text repeat a key too.
    let mixed = document([dictionaryObject(keys: [1, 2], values: [3, 4]), [0x10, 7], stringObject("7"), [0x10, 1], [0x10, 2]])
    #expect(try decoder.decode([String: Int].self, from: mixed) == ["7": 1])
    #expect(try decoder.decodeThroughTree([String: Int].self, from: mixed) == ["7": 1])
  }

  /// Generated item stores whose tags and attributes repeat across items (the writer stores
  /// each string once): in place and through the tree give the same values.
  @Test(arguments: 1...6 as ClosedRange<UInt64>)
  func repeatedStringsInCodableModels(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let words = ["red", "green", "紅", "緑", "steel", "竹", String(repeating: "long shared text ", count: 30)]
    let models = (0..<200).map { index in
      Tagged(
        name: "item \(index)",
        tags: (0..<Int.random(in: 0...4, using: &rng)).map { _ in words.randomElement(using: &rng)! },
        attributes: ["color": words.randomElement(using: &rng)!, "material": words.randomElement(using: &rng)!])
    }
    let encoder = PropertyLists.PropertyListEncoder()
    encoder.outputFormat = .binary
    let data = try encoder.encode(models)
    let decoder = PropertyLists.PropertyListDecoder()
    #expect(try decoder.decode([Tagged].self, from: data) == models)
    #expect(try decoder.decodeThroughTree([Tagged].self, from: data) == models)
    #expect(try PropertyListValue(decoding: data) == (try encoder.encodeToValue(models)))
  }
}

/// Any value of the shared-string documents, compared as a ``PropertyListValue``.
private struct SharedStringEntry: Decodable {
  var value: PropertyListValue

  init(from decoder: any Decoder) throws {
    if let text = try? decoder.singleValueContainer().decode(String.self) {
      value = .string(text)
    } else if let list = try? decoder.singleValueContainer().decode([String].self) {
      value = .array(list.map(PropertyListValue.string))
    } else {
      let entries = try decoder.singleValueContainer().decode([String: String].self)
      value = .dictionary(PropertyListDictionary(keys: Array(entries.keys), values: entries.values.map(PropertyListValue.string)))
    }
  }
}
