package import FoundationEssentials

/// Writes an XML property list element by element, exactly as ``PropertyListValue``'s XML writer
/// writes the equal value (CF's layout, see `XMLPlistWriter`), without the value tree: for
/// writers that keep their document in another shape (the keyed archiver's flat `$objects`).
///
/// The caller writes each container's open tag, then its members — for a dictionary, each key
/// followed by its value, in CF's key order (``keyOrder(_:)``) — then its close tag, each at its
/// indentation (the root at 0):
///
/// ```swift
/// var builder = XMLPlistBuilder()
/// builder.openDictionary(count: 1, indent: 0)              // <dict>
/// builder.key("name", indent: 1)                           //   <key>name</key>
/// try builder.value(.string("Stasis"), indent: 1)          //   <string>Stasis</string>
/// builder.closeDictionary(count: 1, indent: 0)             // </dict>
/// let bytes = builder.finish()                             // == value.encoded(as: .xml)
/// ```
///
/// The builder owns its output buffer: end it exactly once, with ``finish()`` or ``release()``.
package struct XMLPlistBuilder {
  private var out: XMLPlistOutput
  private var orders = XMLPlistWriter.KeyOrderCache()

  /// A document whose output buffer starts at `capacity` bytes (at least 64 KB).
  package init(capacity: Int = 0) {
    out = XMLPlistOutput(capacity: Swift.max(capacity, 1 << 16))
    out.append(XMLPlistWriter.header)
  }

  /// The positions of `keys` in the order CF writes a dictionary's entries (`nil`: as given).
  package static func keyOrder(_ keys: [String]) -> [Int]? {
    XMLPlistWriter.KeyOrderCache.computeOrder(keys)
  }

  /// An array's open tag (`<array/>` when `count` is 0, which then needs no close tag).
  package mutating func openArray(count: Int, indent: Int) {
    line(count == 0 ? "<array/>\n" : "<array>\n", indent: indent)
  }

  /// An array's close tag (none when `count` is 0).
  package mutating func closeArray(count: Int, indent: Int) {
    if count > 0 { line("</array>\n", indent: indent) }
  }

  /// A dictionary's open tag (`<dict/>` when `count` is 0, which then needs no close tag).
  package mutating func openDictionary(count: Int, indent: Int) {
    line(count == 0 ? "<dict/>\n" : "<dict>\n", indent: indent)
  }

  /// A dictionary's close tag (none when `count` is 0).
  package mutating func closeDictionary(count: Int, indent: Int) {
    if count > 0 { line("</dict>\n", indent: indent) }
  }

  @inline(__always)
  private mutating func line(_ text: StaticString, indent: Int) {
    out.appendTabs(indent)
    out.append(text)
  }

  /// A dictionary's key; its value follows at the same indentation.
  @inline(__always)
  package mutating func key(_ key: String, indent: Int) {
    out.appendTabs(indent)
    out.append("<key>")
    out.appendEscaped(key)
    out.append("</key>\n")
  }

  /// A whole value: a scalar, a UID, or a container with everything inside it.
  @inline(__always)
  package mutating func value(_ value: PropertyListValue, indent: Int) throws(PropertyListError) {
    switch value {
    case .array, .dictionary: try XMLPlistWriter.writeTree(value, indent: indent, orders: &orders, into: &out)
    default: _ = try XMLPlistWriter.writeValue(value, indent: indent, orders: &orders, into: &out)
    }
  }

  /// The document's bytes (after the root's last element).
  package consuming func finish() -> Data {
    out.append("</plist>\n")
    return out.takeData()
  }

  /// Frees the output, for a document abandoned after an error.
  package consuming func release() {
    out.release()
  }
}
