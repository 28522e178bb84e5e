import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes XML property lists byte for byte as CoreFoundation does (`CFPropertyListCreateData`
/// with `kCFPropertyListXMLFormat_v1_0`, `plutil -convert xml1`; formats.md §2.1 and §2.3):
///
/// * the fixed three header lines and `</plist>`, `\n` after every line, one tab per level;
/// * dictionary keys sorted by UTF-16 code units; `<array/>` and `<dict/>` when empty;
/// * only `<`, `>` and `&` escaped in text;
/// * integers in decimal; reals with `%.17g`, except `0.0`, `nan`, `+infinity`, `-infinity`;
/// * dates as `%04d-%02d-%02dT%02d:%02d:%02dZ` in UTC, floored to whole seconds;
/// * data as base64 lines whose width depends on the indentation;
/// * a UID as `<dict><key>CF$UID</key><integer>N</integer></dict>`.
///
/// The tree is walked with an explicit stack, so any nesting depth can be written.
enum XMLPlistWriter {
  static func write(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    out.append(contentsOf: header)
    try writeTree(value, into: &out)
    out.append(contentsOf: "</plist>\n".utf8)
    return out
  }

  static let header: [UInt8] = Array(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """.utf8)

  /// An open container: the children still to write.
  private enum Frame {
    case array([PropertyListValue], next: Int)
    /// The dictionary and the positions of its entries in CF's key order.
    case dictionary(PropertyListDictionary, order: [Int], next: Int)
  }

  private static func writeTree(_ root: PropertyListValue, into out: inout [UInt8]) throws(PropertyListError) {
    var stack: [Frame] = []
    if let frame = try writeValue(root, indent: 0, into: &out) { stack.append(frame) }
    while !stack.isEmpty {
      let top = stack.count - 1
      let indent = stack.count  // children of frame `top` sit one level below it
      switch stack[top] {
      case .array(let elements, let next):
        if next < elements.count {
          stack[top] = .array(elements, next: next + 1)
          if let frame = try writeValue(elements[next], indent: indent, into: &out) { stack.append(frame) }
        } else {
          stack.removeLast()
          appendTabs(indent - 1, to: &out)
          out.append(contentsOf: "</array>\n".utf8)
        }
      case .dictionary(let dictionary, let order, let next):
        if next < order.count {
          stack[top] = .dictionary(dictionary, order: order, next: next + 1)
          appendTabs(indent, to: &out)
          out.append(contentsOf: "<key>".utf8)
          appendEscaped(dictionary.storedKeys[order[next]], to: &out)
          out.append(contentsOf: "</key>\n".utf8)
          if let frame = try writeValue(dictionary.storedValues[order[next]], indent: indent, into: &out) { stack.append(frame) }
        } else {
          stack.removeLast()
          appendTabs(indent - 1, to: &out)
          out.append(contentsOf: "</dict>\n".utf8)
        }
      }
    }
  }

  /// Writes a scalar or empty container completely, or the open tag of a container whose
  /// children the caller then writes (returned as a frame).
  private static func writeValue(_ value: PropertyListValue, indent: Int, into out: inout [UInt8]) throws(PropertyListError) -> Frame? {
    appendTabs(indent, to: &out)
    switch value {
    case .string(let string):
      out.append(contentsOf: "<string>".utf8)
      appendEscaped(string, to: &out)
      out.append(contentsOf: "</string>\n".utf8)
    case .integer(let integer):
      out.append(contentsOf: "<integer>".utf8)
      appendDecimal(integer, to: &out)
      out.append(contentsOf: "</integer>\n".utf8)
    case .real(let real, let width):
      out.append(contentsOf: "<real>".utf8)
      // A 32-bit real is a float CFNumber, which CF widens to double for printing.
      appendReal(width == .single ? Double(Float(real)) : real, to: &out)
      out.append(contentsOf: "</real>\n".utf8)
    case .bool(let flag):
      out.append(contentsOf: flag ? "<true/>\n".utf8 : "<false/>\n".utf8)
    case .date(let date):
      let time = date.timeIntervalSinceReferenceDate
      guard let fields = CFGregorianCalendar.fields(time) else {
        throw PropertyListError(
          .unrepresentable, format: .xml,
          detail: "a date of \(time) seconds since 2001 has no calendar form; XML dates must be finite and within about ±2.5 × 10^16 years")
      }
      out.append(contentsOf: "<date>".utf8)
      appendPadded(fields.year, width: 4, to: &out)
      out.append(UInt8(ascii: "-"))
      appendPadded(fields.month, width: 2, to: &out)
      out.append(UInt8(ascii: "-"))
      appendPadded(fields.day, width: 2, to: &out)
      out.append(UInt8(ascii: "T"))
      appendPadded(fields.hour, width: 2, to: &out)
      out.append(UInt8(ascii: ":"))
      appendPadded(fields.minute, width: 2, to: &out)
      out.append(UInt8(ascii: ":"))
      appendPadded(fields.second, width: 2, to: &out)
      out.append(contentsOf: "Z</date>\n".utf8)
    case .data(let data):
      out.append(contentsOf: "<data>\n".utf8)
      XMLPlistBase64.appendLines(data, indent: indent, to: &out)
      appendTabs(indent, to: &out)
      out.append(contentsOf: "</data>\n".utf8)
    case .uid(let uid):
      out.append(contentsOf: "<dict>\n".utf8)
      appendTabs(indent + 1, to: &out)
      out.append(contentsOf: "<key>CF$UID</key>\n".utf8)
      appendTabs(indent + 1, to: &out)
      out.append(contentsOf: "<integer>".utf8)
      appendDecimal(PropertyListInteger(uid), to: &out)
      out.append(contentsOf: "</integer>\n".utf8)
      appendTabs(indent, to: &out)
      out.append(contentsOf: "</dict>\n".utf8)
    case .array(let elements):
      if elements.isEmpty {
        out.append(contentsOf: "<array/>\n".utf8)
      } else {
        out.append(contentsOf: "<array>\n".utf8)
        return .array(elements, next: 0)
      }
    case .dictionary(let dictionary):
      if dictionary.isEmpty {
        out.append(contentsOf: "<dict/>\n".utf8)
      } else {
        out.append(contentsOf: "<dict>\n".utf8)
        let keys = dictionary.storedKeys
        return .dictionary(dictionary, order: keys.indices.sorted { utf16Precedes(keys[$0], keys[$1]) }, next: 0)
      }
    }
    return nil
  }

  /// Whether `a` sorts before `b` by UTF-16 code units, CF's key order
  /// (``PropertyListDictionary/sortedByKey``), computed on UTF-8. UTF-8 bytes order text by code
  /// point, which agrees with UTF-16 except that UTF-16 puts characters outside the BMP (surrogates
  /// D800–DFFF) before U+E000–U+FFFF; at the first differing byte those are lead bytes F0–F4 and
  /// EE–EF, so only that pairing is reversed.
  static func utf16Precedes(_ a: String, _ b: String) -> Bool {
    var left = a.utf8.makeIterator()
    var right = b.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return false
      case (nil, _): return true
      case (_, nil): return false
      case (let x?, let y?):
        if x == y { continue }
        if x >= 0xEE && y >= 0xEE && (x >= 0xF0) != (y >= 0xF0) { return x >= 0xF0 }
        return x < y
      }
    }
  }

  @inline(__always)
  static func appendTabs(_ count: Int, to out: inout [UInt8]) {
    for _ in 0..<Swift.max(count, 0) { out.append(0x09) }
  }

  /// Appends `string` as UTF-8 with `<`, `>`, `&` replaced by `&lt;`, `&gt;`, `&amp;`; everything
  /// else, control characters included, is written as is (CF's `_appendEscapedString`).
  static func appendEscaped(_ string: String, to out: inout [UInt8]) {
    var string = string
    string.withUTF8 { bytes in
      var runStart = 0
      for index in 0..<bytes.count {
        let byte = bytes[index]
        guard byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&") else { continue }
        if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        switch byte {
        case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
        default: out.append(contentsOf: "&amp;".utf8)
        }
        runStart = index + 1
      }
      if bytes.count > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
    }
  }

  static func appendDecimal(_ integer: PropertyListInteger, to out: inout [UInt8]) {
    var magnitude = integer.isNegative ? 0 &- integer.bitPattern : integer.bitPattern
    if integer.isNegative { out.append(UInt8(ascii: "-")) }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var count = 0
      repeat {
        digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude != 0
      while count > 0 {
        count -= 1
        out.append(digits[count])
      }
    }
  }

  /// C's `%0*d`: the sign, then zeros up to `width` characters in all.
  static func appendPadded(_ value: Int32, width: Int, to out: inout [UInt8]) {
    var magnitude = value.magnitude
    var digits: [UInt8] = []
    repeat {
      digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude != 0
    if value < 0 { out.append(UInt8(ascii: "-")) }
    let used = digits.count + (value < 0 ? 1 : 0)
    if used < width { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - used)) }
    out.append(contentsOf: digits.reversed())
  }

  /// CF's `__CFNumberCopyFormattingDescriptionAsFloat64`: `nan`, `+infinity`, `-infinity`, `0.0`
  /// for either zero, otherwise C's `%.17g` (17 significant digits, trailing zeros removed,
  /// exponent form below 1e-4 and from 1e17).
  static func appendReal(_ value: Double, to out: inout [UInt8]) {
    if value.isNaN {
      out.append(contentsOf: "nan".utf8)
    } else if value.isInfinite {
      out.append(contentsOf: value > 0 ? "+infinity".utf8 : "-infinity".utf8)
    } else if value == 0 {
      out.append(contentsOf: "0.0".utf8)
    } else {
      withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
        let length = withVaList([value]) { arguments in
          vsnprintf(buffer.baseAddress!, 40, "%.17g", arguments)
        }
        for index in 0..<Int(Swift.max(0, Swift.min(length, 39))) {
          let byte = UInt8(bitPattern: buffer[index])
          // A locale with another decimal separator must not leak into the file.
          let isNumeric = byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
          out.append(isNumeric ? byte : UInt8(ascii: "."))
        }
      }
    }
  }
}
