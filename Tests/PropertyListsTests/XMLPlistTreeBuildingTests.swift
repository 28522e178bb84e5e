import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// How the XML reader builds its tree (`XMLPlistTreeSink`): the children of open containers on
/// one stack, moved into arrays at each close, and dictionaries of one shape sharing a keys
/// array. Checked against the documents' own writer (each generated document comes with the
/// value it spells, key order included) and against Foundation's `PropertyListSerialization`
/// (swift-corelibs-foundation's CF reader).
@Suite("XML property lists: building the tree")
struct XMLPlistTreeBuildingTests {
  private func decode(_ text: String) throws -> PropertyListValue {
    try PropertyListValue(decoding: Data(text.utf8), format: .xml)
  }

  /// The storage of a dictionary's keys array, to tell shared arrays apart.
  private func keysStorage(_ value: PropertyListValue?) -> UnsafePointer<String>? {
    value?.dictionaryValue?.keys.withUnsafeBufferPointer { $0.baseAddress }
  }

  @Test("records of one shape share one keys array; other shapes and orders get their own")
  func recordsShareTheirKeys() throws {
    let record = "<dict><key>id</key><integer>%d</integer><key>name</key><string>n%d</string><key>tags</key><array><string>a</string></array></dict>"
    var body = "<plist><array>"
    for index in 0..<6 { body += String(format: record, index, index) }
    // The same keys in another order, a subset, and the first shape again.
    body += "<dict><key>name</key><string>x</string><key>id</key><integer>6</integer><key>tags</key><array/></dict>"
    body += "<dict><key>id</key><integer>7</integer><key>name</key><string>y</string></dict>"
    body += String(format: record, 8, 8)
    body += "</array></plist>"
    let value = try decode(body)
    guard let records = value.arrayValue, records.count == 9 else {
      Issue.record("expected nine records, got \(value)")
      return
    }
    let first = keysStorage(records[0])
    #expect(first != nil)
    for index in [1, 2, 3, 4, 5, 8] {
      #expect(keysStorage(records[index]) == first, "record \(index) does not share the first record's keys")
      #expect(records[index].dictionaryValue?.keys == ["id", "name", "tags"])
      #expect(records[index]["id"] == .integer(index))
      #expect(records[index]["name"] == .string("n\(index)"))
    }
    #expect(records[6].dictionaryValue?.keys == ["name", "id", "tags"])
    #expect(keysStorage(records[6]) != first)
    #expect(records[6]["tags"] == .array([]))
    #expect(records[7].dictionaryValue?.keys == ["id", "name"])
    #expect(records[7]["name"] == "y")
    // A shared keys array is copied on write: changing one record leaves the others alone.
    var changed = records[1].dictionaryValue!
    changed["extra"] = true
    changed["id"] = nil
    #expect(changed.keys == ["name", "tags", "extra"])
    #expect(records[2].dictionaryValue?.keys == ["id", "name", "tags"])
    #expect(keysStorage(records[2]) == first)
  }

  @Test("repeated keys, CF$UID, empty and non-ASCII keys are read the same whether a shape is shared or not")
  func specialDictionaries() throws {
    // A repeated key keeps its first position and its last value, also in a record whose keys
    // came before without repetition.
    let repeated = try decode("<array><dict><key>a</key><integer>1</integer><key>b</key><integer>2</integer></dict><dict><key>a</key><integer>3</integer><key>a</key><integer>4</integer></dict><dict><key>a</key><integer>5</integer><key>b</key><integer>6</integer></dict></array>")
    #expect(repeated[0]?.dictionaryValue?.keys == ["a", "b"])
    #expect(repeated[1]?.dictionaryValue?.keys == ["a"])
    #expect(repeated[1]?["a"] == 4)
    #expect(repeated[2]?["b"] == 6)
    #expect(keysStorage(repeated[2]) == keysStorage(repeated[0]))
    // A comment keeps the keyed-archiver shortcut from reading the UID; the dictionary is then
    // closed the general way and still becomes a UID. Its keys are not taken for a shape.
    let uids = try decode("<array><dict><!-- c --><key>CF$UID</key><integer>7</integer></dict><dict><key>CF$UID</key><integer>8</integer></dict><dict><key>CF$UID</key><string>s</string></dict><dict> <key>CF$UID</key> <integer>9</integer> <!-- c --> </dict></array>")
    #expect(uids[0] == .uid(7))
    #expect(uids[1] == .uid(8))
    #expect(uids[2]?["CF$UID"] == "s")
    #expect(uids[3] == .uid(9))
    // Keys that are not plain ASCII or come through references or CDATA are never shared (their
    // fingerprints are unknown) but read the same.
    let odd = try decode("<array><dict><key>ключ</key><true/><key/><false/></dict><dict><key>ключ</key><false/><key></key><true/></dict><dict><key>a&amp;b</key><integer>1</integer><key><![CDATA[<c>]]></key><integer>2</integer></dict></array>")
    #expect(odd[0]?.dictionaryValue?.keys == ["ключ", ""])
    #expect(odd[1]?["ключ"] == false)
    #expect(odd[1]?[""] == true)
    #expect(odd[2]?.dictionaryValue?.keys == ["a&b", "<c>"])
    #expect(odd[2]?["<c>"] == 2)
  }

  @Test("generated documents read as written, key order included", arguments: Array(UInt64(1)...40))
  func generatedDocuments(seed: UInt64) throws {
    var generator = DocumentGenerator(seed: seed)
    let (text, expected) = generator.document()
    let value = try decode(text)
    #expect(Self.sameInOrder(value, expected), "seed \(seed): the reader's tree differs from the generated one")
  }

  @Test("generated documents read as Foundation's PropertyListSerialization reads them", arguments: Array(UInt64(101)...110))
  func agreesWithFoundation(seed: UInt64) throws {
    var generator = DocumentGenerator(seed: seed)
    generator.foundationCompatible = true
    let (text, expected) = generator.document()
    let value = try decode(text)
    let foundation = try PropertyListSerialization.propertyList(from: Data(text.utf8), options: [], format: nil)
    #expect(Self.sameInOrder(value, expected))
    #expect(Self.matches(value, foundation), "seed \(seed): Foundation reads the document differently")
  }

  @Test("a document cut anywhere is refused, and the reader reads the next document whole", arguments: [UInt64(7), 8])
  func cutDocuments(seed: UInt64) throws {
    var generator = DocumentGenerator(seed: seed)
    generator.maximumDepth = 3
    let (text, expected) = generator.document()
    let bytes = Array(text.utf8)
    // Cut inside the root element (the closing tags are the last 16 bytes).
    let rootEnd = bytes.count - 16
    var refused = 0
    for cut in stride(from: 60, to: rootEnd, by: Swift.max(1, rootEnd / 300)) {
      do {
        _ = try PropertyListValue(decoding: Array(bytes[..<cut]), format: .xml)
        Issue.record("seed \(seed): the document cut at \(cut) of \(bytes.count) bytes was read")
      } catch {
        refused += 1
      }
      #expect(Self.sameInOrder(try decode(text), expected))
    }
    #expect(refused > 0)
  }

  // MARK: Comparison

  /// `==`, and dictionaries' keys in the same order.
  static func sameInOrder(_ left: PropertyListValue, _ right: PropertyListValue) -> Bool {
    switch (left, right) {
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { sameInOrder($0, $1) }
    case (.dictionary(let a), .dictionary(let b)):
      return a.keys == b.keys && zip(a.values, b.values).allSatisfy { sameInOrder($0, $1) }
    default:
      return left == right
    }
  }

  /// Whether Foundation's object graph holds the same values (its dictionaries have no order).
  static func matches(_ value: PropertyListValue, _ object: Any) -> Bool {
    switch value {
    case .string(let string): return (object as? String) == string
    case .integer(let integer): return (object as? NSNumber)?.int64Value == integer.exactly(Int64.self)
    case .real(let real, _): return (object as? NSNumber)?.doubleValue == real
    case .bool(let bool): return ((object as? Bool) ?? (object as? NSNumber)?.boolValue) == bool
    case .data(let data): return (object as? Data) == data
    case .array(let elements):
      guard let others = object as? [Any], others.count == elements.count else { return false }
      return zip(elements, others).allSatisfy { matches($0, $1) }
    case .dictionary(let dictionary):
      guard let others = object as? [String: Any], others.count == dictionary.count else { return false }
      return dictionary.allSatisfy { key, value in others[key].map { matches(value, $0) } ?? false }
    default:
      return false
    }
  }
}

/// Writes XML property lists of records that repeat their shapes (the same keys in the same
/// order, the same keys in another order, a key more or less), with the value each spells.
struct DocumentGenerator {
  var random: SplitMix64
  var maximumDepth = 5
  /// Only what Foundation's reader takes the same way: no repeated keys, no UIDs, no CDATA.
  var foundationCompatible = false
  private var shapes: [[String]] = []

  init(seed: UInt64) {
    random = SplitMix64(seed: seed)
  }

  /// Key names; the first ones are plain ASCII, the later ones are written with references, in
  /// CDATA or are not ASCII.
  private static let keyPool = [
    "id", "name", "price", "tags", "dimensions", "width", "height", "color", "a", "b", "c", "d", "e", "f", "g", "h",
    "a key longer than sixty-four bytes, which the key cache fingerprints but does not keep ...",
    "", "名前", "amp&", "<lt>",
  ]
  private static let strings = ["", "x", "short", "exactly sixteen!", "a string of more than twenty-four bytes", "日本語のテキスト", "emoji 🎁", "a & b < c"]

  private mutating func below(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }

  mutating func document() -> (String, PropertyListValue) {
    shapes = (0..<6).map { _ in newShape() }
    var records: [PropertyListValue] = []
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
    for _ in 0..<(20 + below(60)) {
      let (recordText, record) = dictionary(shape: pickShape(), depth: 1)
      text += recordText + "\n"
      records.append(record)
    }
    text += "</array>\n</plist>\n"
    return (text, .array(records))
  }

  private mutating func newShape() -> [String] {
    let count = 1 + below(foundationCompatible ? 12 : 20)
    let pool = foundationCompatible ? Array(Self.keyPool.prefix(17)) : Self.keyPool
    return (0..<count).map { _ in pool[below(pool.count)] }
  }

  /// A known shape, or one of them changed: reordered, shortened or lengthened.
  private mutating func pickShape() -> [String] {
    var shape = shapes[below(shapes.count)]
    switch below(8) {
    case 0 where shape.count > 1: shape.swapAt(0, shape.count - 1)
    case 1 where shape.count > 1: shape.removeLast()
    case 2: shape.append(Self.keyPool[below(8)])
    default: break
    }
    if foundationCompatible {
      var seen = Set<String>()
      shape = shape.filter { seen.insert($0).inserted }
    }
    return shape
  }

  private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
  }

  private mutating func keyText(_ key: String) -> String {
    if key.isEmpty && below(2) == 0 { return "<key/>" }
    if !foundationCompatible && key.contains("<") && below(2) == 0 { return "<key><![CDATA[\(key)]]></key>" }
    return "<key>\(escaped(key))</key>"
  }

  private mutating func dictionary(shape: [String], depth: Int) -> (String, PropertyListValue) {
    if shape.isEmpty { return below(2) == 0 ? ("<dict/>", .dictionary([:])) : ("<dict></dict>", .dictionary([:])) }
    var text = "<dict>"
    var values: [PropertyListValue] = []
    for key in shape {
      let (valueText, value) = element(depth: depth + 1)
      text += keyText(key) + valueText
      values.append(value)
    }
    text += "</dict>"
    return (text, .dictionary(PropertyListDictionary(keys: shape, values: values)))
  }

  private mutating func element(depth: Int) -> (String, PropertyListValue) {
    let kinds = depth >= maximumDepth ? 6 : 9
    switch below(kinds) {
    case 0:
      let string = Self.strings[below(Self.strings.count)]
      return ("<string>\(escaped(string))</string>", .string(string))
    case 1:
      let integer = Int64(bitPattern: random.next()) >> below(64)
      return ("<integer>\(integer)</integer>", .integer(PropertyListInteger(integer)))
    case 2:
      let real = Double(below(1_000_000)) / 64
      return ("<real>\(real)</real>", .real(real, width: .double))
    case 3:
      return below(2) == 0 ? ("<true/>", true) : ("<false/>", false)
    case 4:
      let bytes = (0..<below(300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      return ("<data>\(Data(bytes).base64EncodedString())</data>", .data(Data(bytes)))
    case 5 where !foundationCompatible && depth > 1 && below(4) == 0:
      let uid = UInt64(below(1000))
      let comment = below(2) == 0 ? "<!-- ref -->" : ""
      return ("<dict>\(comment)<key>CF$UID</key><integer>\(uid)</integer></dict>", .uid(uid))
    case 5:
      return ("<string>\(depth)</string>", .string("\(depth)"))
    case 6, 7:
      var text = "<array>"
      var elements: [PropertyListValue] = []
      for _ in 0..<below(6) {
        let (elementText, element) = element(depth: depth + 1)
        text += elementText
        elements.append(element)
      }
      text += "</array>"
      return (text, .array(elements))
    default:
      return dictionary(shape: pickShape(), depth: depth)
    }
  }
}
