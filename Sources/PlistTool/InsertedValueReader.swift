import FoundationEssentials
import PropertyLists

/// Turns the value argument of `-insert`/`-replace` into a property-list value.
struct InsertedValueReader {
  var readingOptions: PropertyListReadingOptions = .default

  /// - Parameter type: the type flag (`-bool`, `-integer`, `-float`, `-string`, `-date`,
  ///   `-data`, `-xml`, `-json`).
  func value(ofType type: String, from text: String) throws(PlistToolError) -> PropertyListValue {
    switch type {
    case "-bool":
      let lowered = text.lowercased()
      return .bool(lowered == "yes" || lowered == "true")
    case "-integer": return .integer(PropertyListInteger(Self.integerPrefix(of: text)))
    case "-float": return .real(Self.doublePrefix(of: text))
    case "-string": return .string(text)
    case "-date": return try date(from: text)
    case "-data":
      guard let data = Self.base64Decoded(text) else { throw .usage("Invalid base64 data in argument") }
      return .data(data)
    case "-xml": return try propertyList(from: text)
    case "-json": return try json(from: text)
    default: throw .usage("Unknown insert or replace type \(type)")
    }
  }

  /// `NSString.longLongValue`: optional leading whitespace, an optional sign, then decimal
  /// digits up to the first non-digit; 0 when there are none; clamped to the `Int64` range.
  static func integerPrefix(of text: String) -> Int64 {
    var bytes = text.utf8[...]
    while let first = bytes.first, isSpace(first) { bytes.removeFirst() }
    var negative = false
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      negative = sign == UInt8(ascii: "-")
      bytes.removeFirst()
    }
    var magnitude: UInt64 = 0
    var overflow = false
    for byte in bytes {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
      let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      if o1 || o2 { overflow = true; break }
      magnitude = sum
    }
    if negative {
      if overflow || magnitude > UInt64(Int64.max) + 1 { return .min }
      return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
    }
    if overflow || magnitude > UInt64(Int64.max) { return .max }
    return Int64(magnitude)
  }

  /// `NSString.doubleValue`: the longest prefix (after whitespace) that is a decimal floating-
  /// point number, `[+-]digits[.digits][e[+-]digits]`; 0 when there is none; ±infinity on
  /// overflow. An exponent without digits is not part of the number (`1e` is 1).
  static func doublePrefix(of text: String) -> Double {
    let bytes = Array(text.utf8)
    var index = 0
    func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    let start = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
    var digits = 0
    while isDigit(index) { index += 1; digits += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      while isDigit(index) { index += 1; digits += 1 }
    }
    guard digits > 0 else { return 0 }
    var end = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      var exponent = index + 1
      if exponent < bytes.count, bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-") { exponent += 1 }
      if isDigit(exponent) {
        while isDigit(exponent) { exponent += 1 }
        end = exponent
      }
    }
    var literal = String(decoding: bytes[start..<end], as: UTF8.self)
    if literal.hasPrefix("+") { literal.removeFirst() }
    if literal.hasPrefix(".") { literal = "0" + literal }
    if literal.hasPrefix("-.") { literal = "-0" + literal.dropFirst() }
    if literal.hasSuffix(".") { literal += "0" }
    return Double(literal) ?? 0
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (0x09...0x0D).contains(byte)
  }

  /// Base64 that tolerates characters outside the alphabet (they are skipped, as with
  /// `Data(base64Encoded:options: .ignoreUnknownCharacters)`); decoding stops at the first
  /// padded group. `nil` when a group is incomplete or nothing but unknown characters was given.
  static func base64Decoded(_ text: String) -> Data? {
    var sextets: [UInt8] = []
    var padding = 0
    var sawAlphabet = false
    var bytes: [UInt8] = []
    for byte in text.utf8 {
      let sextet: UInt8
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = byte - UInt8(ascii: "A")
      case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = byte - UInt8(ascii: "a") + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = byte - UInt8(ascii: "0") + 52
      case UInt8(ascii: "+"): sextet = 62
      case UInt8(ascii: "/"): sextet = 63
      case UInt8(ascii: "="):
        sawAlphabet = true
        padding += 1
        // "x===" and "====" cannot end a group.
        guard sextets.count >= 2, sextets.count + padding <= 4 else { return nil }
        if sextets.count + padding == 4 {
          appendGroup(sextets, to: &bytes)
          return Data(bytes)
        }
        continue
      default: continue
      }
      sawAlphabet = true
      guard padding == 0 else { return nil }  // "ab=c"
      sextets.append(sextet)
      if sextets.count == 4 {
        appendGroup(sextets, to: &bytes)
        sextets.removeAll(keepingCapacity: true)
      }
    }
    guard sextets.isEmpty, padding == 0 else { return nil }
    guard sawAlphabet || text.isEmpty else { return nil }
    return Data(bytes)
  }

  private static func appendGroup(_ sextets: [UInt8], to bytes: inout [UInt8]) {
    var bits: UInt32 = 0
    for sextet in sextets { bits = bits << 6 | UInt32(sextet) }
    bits <<= UInt32(6 * (4 - sextets.count))
    let count = sextets.count - 1  // 2 sextets → 1 byte, 3 → 2, 4 → 3
    for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(16 - 8 * index))) }
  }

  /// A date written as in an XML property list (`2020-01-02T03:04:05Z`), read by the XML reader.
  private func date(from text: String) throws(PlistToolError) -> PropertyListValue {
    let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><date>\(text)</date></plist>\n"
    guard let value = try? PropertyListValue(decoding: Array(document.utf8), format: .xml, options: readingOptions),
      case .date = value
    else {
      throw .usage("Invalid date in argument: expected the XML property list form, like 2001-01-01T00:00:00Z")
    }
    return value
  }

  /// `-xml`: a property list in any format but JSON (despite the flag's name, binary and
  /// OpenStep are read too, as Apple's plutil does).
  private func propertyList(from text: String) throws(PlistToolError) -> PropertyListValue {
    var policy = PropertyListReadingPolicy.plutilXMLArgument
    policy.limits = readingOptions
    do throws(PropertyListError) {
      return try PropertyListValue(decoding: Array(text.utf8), policy: policy)
    } catch {
      throw .usage("Unable to parse xml property list: \(error.description)")
    }
  }

  /// `-json`: a JSON document or fragment (`{"a": 1}`, `[1, 2]`, `"text"`, `12`). Only JSON is
  /// read (``PropertyListReadingPolicy/only(_:)``); a fragment is not a second format but the same
  /// reader given the text inside brackets, so it stays here rather than in a policy.
  private func json(from text: String) throws(PlistToolError) -> PropertyListValue {
    let bytes = Array(text.utf8)
    do {
      return try PropertyListValue(decoding: bytes, format: .json, options: readingOptions)
    } catch let documentError {
      // A fragment (a bare string, number, true or false) is read as the only element of an array.
      let first = bytes.first { !(0x09...0x0D).contains($0) && $0 != 0x20 }
      if let first, first != UInt8(ascii: "{"), first != UInt8(ascii: "[") {
        let wrapped = Array("[".utf8) + bytes + Array("]".utf8)
        if let value = try? PropertyListValue(decoding: wrapped, format: .json, options: readingOptions),
          case .array(let elements) = value, elements.count == 1
        {
          return elements[0]
        }
      }
      throw .usage("Unable to parse JSON: \(documentError.description)")
    }
  }
}
