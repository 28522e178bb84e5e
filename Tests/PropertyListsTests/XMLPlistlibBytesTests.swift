import Foundation
import Testing
import TestSupport

@testable import PropertyLists

/// The XML writer's bytes against python3's plistlib (`plistlib.dumps(v, fmt=FMT_XML,
/// sort_keys=True)`), an independent writer of the same format, on seeded values sent to python
/// as tagged JSON (so python builds its values without reading Stasis's XML).
///
/// plistlib and CoreFoundation agree on everything these values exercise except, by design:
///
/// 1. **Reals.** plistlib writes `repr(value)` (shortest round-trip digits: `1.0`, `0.1`, `inf`,
///    `-0.0`); CF writes `%.17g` with `0.0`, `nan`, `+infinity`, `-infinity` (`1`,
///    `0.10000000000000001`). Stasis follows CF. With stock plistlib the test requires every other
///    line to be identical and each `<real>` line to hold the same number; with plistlib's real
///    formatter replaced by CF's rule (a 7-line patch in the script) it requires identical bytes.
/// 2. **Control characters.** plistlib refuses strings with C0 controls other than tab, LF and CR,
///    and turns CR and CRLF into LF; CF writes all of them raw. The generated strings are stripped
///    of those characters before the comparison (the other XML tests cover them).
/// 3. **Key order** for keys with characters from U+E000 to U+FFFF next to characters outside the
///    BMP: plistlib sorts by code point, CF by UTF-16 unit. The generator's alphabet has no such
///    characters; ``XMLPlistSyntaxTests/keysAreSortedByUTF16CodeUnits()`` covers CF's order.
/// 4. **Base64 below nesting level 8.** CF caps the indentation of base64 lines at 8 tabs and
///    narrows them to 12 characters there; plistlib keeps indenting and never goes below 16.
///    Checked separately by ``deepDataIsTheOneLayoutDifference()``.
/// 5. **UIDs.** plistlib's XML writer has no UID type; the script sends a UID as the dictionary
///    `{"CF$UID": n}`, which is exactly how CF writes one, so the bytes must still agree.
@Suite("XML property lists: bytes agree with python3 plistlib")
struct XMLPlistlibBytesTests {
  static let python: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
    for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/python3") {
      return "\(folder)/python3"
    }
    return nil
  }()

  static var pythonMissing: Comment { "python3 not found on PATH: the byte comparison with plistlib is skipped" }

  static let script = #"""
    import base64, datetime, json, math, plistlib, struct, sys

    EPOCH = datetime.datetime(2001, 1, 1)

    def build(node):
        tag, payload = node
        if tag == "s": return payload
        if tag == "i": return int(payload)
        if tag == "r": return struct.unpack("<d", bytes.fromhex(payload))[0]
        if tag == "b": return payload
        if tag == "d": return EPOCH + datetime.timedelta(seconds=payload)
        if tag == "D": return base64.b64decode(payload)
        if tag == "u": return {"CF$UID": payload}
        if tag == "a": return [build(child) for child in payload]
        if tag == "m": return {key: build(child) for key, child in payload}
        raise ValueError(tag)

    def cf_real(value):
        if value != value: return "nan"
        if value == math.inf: return "+infinity"
        if value == -math.inf: return "-infinity"
        if value == 0: return "0.0"
        return "%.17g" % value

    stock_write_value = plistlib._PlistWriter.write_value

    def cf_write_value(self, value):
        if isinstance(value, float):
            self.simple_element("real", cf_real(value))
        else:
            stock_write_value(self, value)

    with open(sys.argv[1]) as f:
        nodes = json.load(f)
    results = []
    for node in nodes:
        value = build(node)
        plistlib._PlistWriter.write_value = stock_write_value
        stock = plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=True)
        plistlib._PlistWriter.write_value = cf_write_value
        patched = plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=True)
        results.append([base64.b64encode(stock).decode(), base64.b64encode(patched).decode()])
    json.dump(results, sys.stdout)
    """#

  /// The value as a tagged JSON tree for the script.
  static func node(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let string): return ["s", string]
    case .integer(let integer): return ["i", integer.description]
    case .real(let real, _):
      return ["r", withUnsafeBytes(of: real.bitPattern.littleEndian) { $0.map { String(format: "%02x", $0) }.joined() }]
    case .bool(let flag): return ["b", flag]
    case .date(let date): return ["d", Int64(date.timeIntervalSinceReferenceDate)]
    case .data(let data): return ["D", data.base64EncodedString()]
    case .uid(let uid): return ["u", uid]
    case .array(let array): return ["a", array.map(node)]
    case .dictionary(let dictionary): return ["m", dictionary.map { [$0.key, node($0.value)] }]
    }
  }

  /// Removes what plistlib cannot write (C0 controls other than tab and LF, and CR, which it
  /// rewrites).
  static func plistlibSafe(_ value: PropertyListValue) -> PropertyListValue {
    func clean(_ string: String) -> String {
      String(String.UnicodeScalarView(string.unicodeScalars.filter { $0.value >= 0x20 || $0 == "\n" || $0 == "\t" }))
    }
    switch value {
    case .string(let string): return .string(clean(string))
    case .array(let array): return .array(array.map(plistlibSafe))
    case .dictionary(let dictionary): return .dictionary(PropertyListDictionary(dictionary.map { (clean($0.key), plistlibSafe($0.value)) }))
    default: return value
    }
  }

  /// Runs the script on `values`; returns (stock plistlib bytes, CF-real-patched bytes) for each.
  static func plistlibOutputs(_ values: [PropertyListValue]) throws -> [(stock: [UInt8], patched: [UInt8])] {
    let scratch = try ScratchFolder("xml-plistlib")
    defer { scratch.remove() }
    let folder = scratch.url
    let input = folder.appendingPathComponent("values.json")
    try JSONSerialization.data(withJSONObject: values.map(node)).write(to: input)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python!)
    process.arguments = ["-c", script, input.path]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let problems = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      Issue.record("plistlib failed: \(String(decoding: problems, as: UTF8.self).suffix(2000))")
      return []
    }
    let pairs = try #require(try JSONSerialization.jsonObject(with: data) as? [[String]])
    return pairs.map { ([UInt8](Data(base64Encoded: $0[0])!), [UInt8](Data(base64Encoded: $0[1])!)) }
  }

  /// The text between `<real>` and `</real>` when `line` is a real's line.
  static func realText(_ line: Substring) -> Substring? {
    let trimmed = line.drop { $0 == "\t" }
    guard trimmed.hasPrefix("<real>"), trimmed.hasSuffix("</real>") else { return nil }
    return trimmed.dropFirst(6).dropLast(7)
  }

  @Test(.enabled(if: python != nil, pythonMissing))
  func writerBytesMatchPlistlib() throws {
    let seeds = 0..<400 as Range<UInt64>
    let values = seeds.map { seed -> PropertyListValue in
      var generator = RandomPropertyList(seed: seed, kinds: .xml, maximumDepth: 4)
      return Self.plistlibSafe(seed % 4 == 0 ? generator.value() : generator.document())
    }
    let outputs = try Self.plistlibOutputs(values)
    try #require(outputs.count == values.count)
    var identicalWithStockPlistlib = 0
    var realLinesWrittenDifferently = 0
    for (index, value) in values.enumerated() {
      let ours = try value.encodedBytes(as: .xml)
      let (stock, patched) = outputs[index]
      // With CF's real formatting, plistlib writes exactly Stasis's bytes.
      #expect(ours == patched, "seed \(seeds.lowerBound + UInt64(index)): differs from plistlib with CF reals:\n\(String(decoding: ours, as: UTF8.self))\n---\n\(String(decoding: patched, as: UTF8.self))")
      if ours == stock {
        identicalWithStockPlistlib += 1
        continue
      }
      // Stock plistlib: only <real> lines may differ, and only in how the same number is spelled.
      let ourLines = String(decoding: ours, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      let stockLines = String(decoding: stock, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      #expect(ourLines.count == stockLines.count, "seed \(seeds.lowerBound + UInt64(index)): different line count")
      for (ourLine, stockLine) in zip(ourLines, stockLines) where ourLine != stockLine {
        guard let ourReal = Self.realText(ourLine), let stockReal = Self.realText(stockLine),
          let a = Double(String(ourReal)), let b = Double(String(stockReal))
        else {
          Issue.record("seed \(seeds.lowerBound + UInt64(index)): '\(ourLine)' vs plistlib '\(stockLine)'")
          continue
        }
        #expect(a == b || (a.isNaN && b.isNaN), "seed \(seeds.lowerBound + UInt64(index)): \(ourReal) and \(stockReal) are different numbers")
        realLinesWrittenDifferently += 1
      }
    }
    print("plistlib bytes: \(values.count) values; \(identicalWithStockPlistlib) identical to stock plistlib, the rest differ only in \(realLinesWrittenDifferently) <real> spellings (repr vs %.17g); all identical with CF real formatting")
  }

  /// Data nested 8 and more levels deep: CF's base64 lines stop at 8 tabs and 12 characters,
  /// plistlib's keep indenting and stay at 16 characters. Everything else still agrees.
  @Test(.enabled(if: python != nil, pythonMissing))
  func deepDataIsTheOneLayoutDifference() throws {
    var value = PropertyListValue.data(Data((0..<40).map { UInt8($0) }))
    for _ in 0..<9 { value = [value] }
    let ours = String(decoding: try value.encodedBytes(as: .xml), as: UTF8.self)
    let outputs = try Self.plistlibOutputs([value])
    try #require(outputs.count == 1)
    let theirs = String(decoding: outputs[0].patched, as: UTF8.self)
    #expect(ours != theirs)
    func base64Lines(_ text: String) -> [Substring] {
      text.split(separator: "\n").filter { !$0.contains("<") }
    }
    let ourLines = base64Lines(ours)
    let theirLines = base64Lines(theirs)
    #expect(ourLines.allSatisfy { $0.prefix(9) == "\t\t\t\t\t\t\t\t" + String($0.dropFirst(8).prefix(1)) && $0.dropFirst(8).count <= 12 })
    #expect(ourLines.dropLast().allSatisfy { $0.dropFirst(8).count == 12 })
    #expect(theirLines.allSatisfy { $0.hasPrefix(String(repeating: "\t", count: 9)) })
    #expect(theirLines.dropLast().allSatisfy { $0.dropFirst(9).count == 16 })
    // The same base64 text, wrapped differently; all other lines identical.
    #expect(ourLines.map { $0.dropFirst(8) }.joined() == theirLines.map { $0.dropFirst(9) }.joined())
    #expect(ours.split(separator: "\n").filter { $0.contains("<") } == theirs.split(separator: "\n").filter { $0.contains("<") })
  }
}
