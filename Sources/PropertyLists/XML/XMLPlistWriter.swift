import FoundationEssentials
internal import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes XML property lists byte for byte as CoreFoundation does (`CFPropertyListCreateData`
/// with `kCFPropertyListXMLFormat_v1_0`, `plutil -convert xml1`):
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
    try document(value).takeArray()
  }

  /// Writes `value` straight into `Data`, which takes over the output buffer (no copy).
  static func writeData(_ value: PropertyListValue) throws(PropertyListError) -> Data {
    try document(value).takeData()
  }

  /// The whole document in a buffer the caller takes over, sized from the last document's length
  /// (``lastLength``).
  private static func document(_ value: PropertyListValue) throws(PropertyListError) -> XMLPlistOutput {
    let last = lastLength.load(ordering: .relaxed)
    let out = try document(capacity: last + last / 16) { (out) throws(PropertyListError) in
      var orders = KeyOrderCache()
      try writeTree(value, indent: 0, orders: &orders, into: &out)
    }
    lastLength.store(out.count, ordering: .relaxed)
    return out
  }

  /// The length of the last document the tree writer wrote (in any thread): the next one's
  /// buffer starts at that size and a little more, as a `PropertyListEncoder` sizes its output
  /// from its last document. Documents written one after another are usually alike; one buffer of
  /// the right size is then written without growing, and glibc, given back a block of that size
  /// again and again, keeps it in its heap instead of returning it to the kernel, so the next
  /// document is written into memory already mapped. Grown by doubling from 64 KB instead, a
  /// 20 MB document's buffer ended at 32 MB, which glibc maps and unmaps every time: 5,000 fresh
  /// pages (page faults and zeroing) per document, a quarter of the time of writing it. A
  /// smaller document after a larger one only leaves the end of its buffer untouched.
  private static let lastLength = Atomic<Int>(0)

  /// A document whose root `writeRoot` writes, in a buffer (of `capacity` bytes to begin with,
  /// at least 64 KB) the caller takes over.
  static func document(
    capacity: Int = 0, _ writeRoot: (inout XMLPlistOutput) throws(PropertyListError) -> Void
  ) throws(PropertyListError) -> XMLPlistOutput {
    var out = XMLPlistOutput(capacity: Swift.max(capacity, 1 << 16))
    do {
      out.append(header)
      try writeRoot(&out)
      out.append("</plist>\n")
    } catch {
      out.release()
      throw error
    }
    return out
  }

  static let header: StaticString = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  /// An open container and the position of its next child.
  struct Frame {
    /// The array's elements, or the dictionary's values.
    let values: [PropertyListValue]
    /// The dictionary's keys; empty for an array.
    let keys: [String]
    /// For a dictionary, the positions of its entries in CF's key order (`nil` when that is
    /// already the stored order).
    let order: [Int]?
    let isDictionary: Bool
    var next = 0
  }

  /// Writes `root` (and everything inside it) at `base` tabs of indentation.
  static func writeTree(
    _ root: PropertyListValue, indent base: Int, orders: inout KeyOrderCache, into out: inout XMLPlistOutput
  ) throws(PropertyListError) {
    var stack: [Frame] = []
    if let frame = try writeValue(root, indent: base, orders: &orders, into: &out) { stack.append(frame) }
    while !stack.isEmpty {
      let top = stack.count - 1
      let indent = base + stack.count  // children of frame `top` sit one level below it
      let next = stack[top].next
      if next < stack[top].values.count {
        stack[top].next = next + 1
        let position = stack[top].order?[next] ?? next
        if stack[top].isDictionary {
          out.appendTabs(indent)
          out.append("<key>")
          out.appendEscaped(stack[top].keys[position])
          out.append("</key>\n")
        }
        if let frame = try writeValue(stack[top].values[position], indent: indent, orders: &orders, into: &out) {
          stack.append(frame)
        }
      } else {
        let isDictionary = stack[top].isDictionary
        stack.removeLast()
        out.appendTabs(indent - 1)
        out.append(isDictionary ? "</dict>\n" : "</array>\n")
      }
    }
  }

  /// Writes a scalar or empty container completely, or the open tag of a container whose
  /// children the caller then writes (returned as a frame).
  static func writeValue(
    _ value: PropertyListValue, indent: Int, orders: inout KeyOrderCache, into out: inout XMLPlistOutput
  ) throws(PropertyListError) -> Frame? {
    out.appendTabs(indent)
    switch value {
    case .string(let string): writeString(string, into: &out)
    case .data(let data): writeData(data, indent: indent, into: &out)
    case .integer(let integer):
      out.append("<integer>")
      out.appendDecimal(integer)
      out.append("</integer>\n")
    case .real(let real, let width):
      out.append("<real>")
      // A 32-bit real is a float CFNumber, which CF widens to double for printing.
      out.appendReal(width == .single ? Double(Float(real)) : real)
      out.append("</real>\n")
    case .bool(let flag):
      out.append(flag ? "<true/>\n" : "<false/>\n")
    case .date(let date):
      let time = date.timeIntervalSinceReferenceDate
      guard let fields = CFGregorianCalendar.fields(time) else {
        throw PropertyListError(
          .unrepresentable, format: .xml,
          detail: "a date of \(time) seconds since 2001 has no calendar form; XML dates must be finite and within about ±2.5 × 10^16 years")
      }
      out.append("<date>")
      out.appendPadded(fields.year, width: 4)
      out.append(UInt8(ascii: "-"))
      out.appendPadded(fields.month, width: 2)
      out.append(UInt8(ascii: "-"))
      out.appendPadded(fields.day, width: 2)
      out.append(UInt8(ascii: "T"))
      out.appendPadded(fields.hour, width: 2)
      out.append(UInt8(ascii: ":"))
      out.appendPadded(fields.minute, width: 2)
      out.append(UInt8(ascii: ":"))
      out.appendPadded(fields.second, width: 2)
      out.append("Z</date>\n")
    case .uid(let uid):
      out.append("<dict>\n")
      out.appendTabs(indent + 1)
      out.append("<key>CF$UID</key>\n")
      out.appendTabs(indent + 1)
      out.append("<integer>")
      out.appendDecimal(PropertyListInteger(uid))
      out.append("</integer>\n")
      out.appendTabs(indent)
      out.append("</dict>\n")
    case .array(let elements):
      if elements.isEmpty {
        out.append("<array/>\n")
      } else {
        out.append("<array>\n")
        return Frame(values: elements, keys: [], order: nil, isDictionary: false)
      }
    case .dictionary(let dictionary):
      if dictionary.isEmpty {
        out.append("<dict/>\n")
      } else {
        out.append("<dict>\n")
        let keys = dictionary.storedKeys
        return Frame(values: dictionary.storedValues, keys: keys, order: orders.order(of: keys), isDictionary: true)
      }
    }
    return nil
  }

  /// A `<string>` element (after its indentation).
  @inline(__always)
  static func writeString(_ string: String, into out: inout XMLPlistOutput) {
    out.append("<string>")
    out.appendEscaped(string)
    out.append("</string>\n")
  }

  /// A `<data>` element (after its indentation): base64 lines at the element's indentation.
  static func writeData(_ data: Data, indent: Int, into out: inout XMLPlistOutput) {
    out.append("<data>\n")
    XMLPlistBase64.appendLines(data, indent: indent, to: &out)
    out.appendTabs(indent)
    out.append("</data>\n")
  }

  /// The positions of a dictionary's keys in CF's order (`nil` when they are stored in it), worked
  /// out once per keys array that repeats (see ``KeyArrayCache``).
  struct KeyOrderCache {
    /// An order, or `nil`: the keys are stored in order.
    private var cache = KeyArrayCache<[Int]?>()

    mutating func order(of dictionaryKeys: [String]) -> [Int]? {
      let slot = cache.slot(of: dictionaryKeys)
      if let slot, let order = cache.payload(in: slot) { return order }
      let order = Self.computeOrder(dictionaryKeys)
      if let slot { cache.setPayload(order, in: slot) } else { cache.insert(dictionaryKeys, payload: order) }
      return order
    }

    static func computeOrder(_ keys: [String]) -> [Int]? {
      var sorted = true
      for index in 1..<Swift.max(keys.count, 1) where !utf16Precedes(keys[index - 1], keys[index]) {
        sorted = false
        break
      }
      return sorted ? nil : keys.indices.sorted { utf16Precedes(keys[$0], keys[$1]) }
    }
  }

  /// Whether `a` sorts before `b` by UTF-16 code units, CF's key order
  /// (``PropertyListDictionary/sortedByKey``), computed on UTF-8. UTF-8 bytes order text by code
  /// point, which agrees with UTF-16 except that UTF-16 puts characters outside the BMP (surrogates
  /// D800–DFFF) before U+E000–U+FFFF; at the first differing byte those are lead bytes F0–F4 and
  /// EE–EF, so only that pairing is reversed.
  static func utf16Precedes(_ a: String, _ b: String) -> Bool {
    withUTF8Bytes(of: a) { x in withUTF8Bytes(of: b) { y in utf16Precedes(x, y) } }
  }

  /// ``utf16Precedes(_:_:)`` on the two strings' UTF-8 bytes.
  static func utf16Precedes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
    let common = Swift.min(x.count, y.count)
    var index = 0
    while index < common && x[index] == y[index] { index &+= 1 }
    // One a prefix of the other: the shorter first.
    guard index < common else { return x.count < y.count }
    let left = x[index]
    let right = y[index]
    if left >= 0xEE && right >= 0xEE && (left >= 0xF0) != (right >= 0xF0) { return left >= 0xF0 }
    return left < right
  }

}
