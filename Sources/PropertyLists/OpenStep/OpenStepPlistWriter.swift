import FoundationEssentials

/// Writes OpenStep ("old-style") property lists and `.strings` files.
///
/// Apple has no writer for this format: `PropertyListSerialization` and `CFPropertyListWrite`
/// refuse `NSPropertyListOpenStepFormat` ("not supported for writing"), and macOS `plutil
/// -convert` offers only xml1, binary1, json, swift and objc. The layout therefore follows the
/// nearest thing Apple prints, `-[NSDictionary descriptionWithLocale:indent:]`:
///
/// ```text
/// {
///     name = Stasis;
///     tags = (
///         a,
///         "two words"
///     );
///     blob = <0fbd7788 1c>;
///     empty = {
///     };
/// }
/// ```
///
/// * Four spaces per level; `key = value;` in dictionaries; `,` between array elements.
/// * An empty container is written `{` newline `}` (closing at its own indentation), as
///   `NSDictionary`'s description does.
/// * Keys stay in the dictionary's order (the description sorts them; Stasis keeps document
///   order so that a file read and written again does not move its entries).
/// * A string is unquoted when it is non-empty, made only of `[A-Za-z0-9_$/:.-]` and does not
///   begin with `//` (which would read back as a comment). Otherwise it is quoted with `"`, and
///   `"`, `\`, BEL, BS, TAB, LF, VT, FF and CR are written `\"`, `\\`, `\a`, `\b`, `\t`, `\n`,
///   `\v`, `\f`, `\r`; other control characters and DEL are written as three-digit octal
///   escapes (`\001`). Everything else, non-ASCII included, is written as UTF-8.
/// * Data is `<hex>` in lowercase, grouped four bytes at a time.
/// * The document ends with a newline.
///
/// Integers, reals, booleans, dates and UIDs throw `PropertyListError.Code.unrepresentable`
/// naming the key path: the format has no such types, and CoreFoundation's
/// `CFPropertyListIsValid(plist, kCFPropertyListOpenStepFormat)` rejects them too. (Writing a
/// number as its decimal string would silently turn it into a string when read back.)
///
/// In `.strings` mode the value must be a dictionary; each entry is written on its own line as
/// `"key" = "value";` with both sides quoted, no braces, UTF-8 without a byte-order mark.
enum OpenStepPlistWriter {
  static func write(_ value: PropertyListValue, stringsFile: Bool) throws(PropertyListError) -> [UInt8] {
    var writer = OpenStepWriter(format: stringsFile ? .strings : .openStep)
    if stringsFile {
      guard case .dictionary(let dictionary) = value else {
        throw PropertyListError(
          .unrepresentable, format: .strings,
          detail: "a strings file holds a dictionary at the top level, not \(value.typeName == "array" ? "an" : "a") \(value.typeName)")
      }
      for (key, entry) in dictionary {
        writer.writeString(key, alwaysQuoted: true)
        writer.output.append(contentsOf: " = ".utf8)
        try writer.writeTree(entry, baseLevel: 0, topKey: key)
        writer.output.append(contentsOf: ";\n".utf8)
      }
    } else {
      try writer.writeTree(value, baseLevel: 0, topKey: nil)
      writer.output.append(0x0A)
    }
    return writer.output
  }
}

struct OpenStepWriter {
  let format: PropertyListFormat
  var output: [UInt8] = []

  init(format: PropertyListFormat) {
    self.format = format
    output.reserveCapacity(1024)
  }

  /// One open container: its children and how many of them have been started.
  private struct Frame {
    var keys: [String]?
    var children: [PropertyListValue]
    var started = 0
  }

  /// Writes `root` and everything under it without recursion. Nested lines are indented by
  /// `baseLevel` plus their depth. `topKey` is the strings-file key `root` belongs to (its
  /// strings are then always quoted, and error paths start with it).
  mutating func writeTree(_ root: PropertyListValue, baseLevel: Int, topKey: String?) throws(PropertyListError) {
    var stack: [Frame] = []
    var next = root
    while true {
      var opened = false
      switch next {
      case .string(let string):
        writeString(string, alwaysQuoted: topKey != nil && stack.isEmpty)
      case .data(let data):
        writeData(data)
      case .array(let elements):
        opened = open(UInt8(ascii: "("), UInt8(ascii: ")"), isEmpty: elements.isEmpty, level: baseLevel, on: &stack) {
          Frame(keys: nil, children: elements)
        }
      case .dictionary(let dictionary):
        opened = open(UInt8(ascii: "{"), UInt8(ascii: "}"), isEmpty: dictionary.isEmpty, level: baseLevel, on: &stack) {
          Frame(keys: dictionary.keys, children: dictionary.values)
        }
      case .integer, .real, .bool, .date, .uid:
        throw unrepresentable(next, path: path(stack, topKey: topKey))
      }

      // Find the next value to start, closing finished containers on the way.
      while true {
        guard !stack.isEmpty else { return }
        let top = stack.count - 1
        let isArray = stack[top].keys == nil
        if opened {
          opened = false
        } else if isArray {
          if stack[top].started < stack[top].children.count { output.append(UInt8(ascii: ",")) }
          output.append(0x0A)
        } else {
          output.append(UInt8(ascii: ";"))
          output.append(0x0A)
        }
        let index = stack[top].started
        if index < stack[top].children.count {
          indent(baseLevel + stack.count)
          if let keys = stack[top].keys {
            writeString(keys[index], alwaysQuoted: false)
            output.append(contentsOf: " = ".utf8)
          }
          next = stack[top].children[index]
          stack[top].started = index + 1
          break
        }
        indent(baseLevel + top)
        output.append(isArray ? UInt8(ascii: ")") : UInt8(ascii: "}"))
        stack.removeLast()
      }
    }
  }

  /// Writes a container's opening bracket and line break and, when it is empty, its closing
  /// bracket indented by `level` plus the depth; else pushes its frame. Whether it was opened.
  @inline(__always)
  private mutating func open(
    _ opening: UInt8, _ closing: UInt8, isEmpty: Bool, level: Int, on stack: inout [Frame], _ frame: () -> Frame
  ) -> Bool {
    output.append(opening)
    output.append(0x0A)
    guard !isEmpty else {
      indent(level + stack.count)
      output.append(closing)
      return false
    }
    stack.append(frame())
    return true
  }

  @inline(__always)
  private mutating func indent(_ level: Int) {
    for _ in 0..<level { output.append(contentsOf: [0x20, 0x20, 0x20, 0x20]) }
  }

  /// Writes a string, unquoted when the grammar allows it.
  mutating func writeString(_ string: String, alwaysQuoted: Bool) {
    var string = string
    string.withUTF8 { utf8 in
      if !alwaysQuoted && Self.canBeUnquoted(utf8) {
        output.append(contentsOf: utf8)
        return
      }
      output.append(UInt8(ascii: "\""))
      var runStart = 0
      for i in 0..<utf8.count {
        let byte = utf8[i]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else { continue }
        if runStart < i { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
        runStart = i + 1
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x07: output.append(UInt8(ascii: "a"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0B: output.append(UInt8(ascii: "v"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        default:
          // Octal below 0x80 decodes to the same ASCII code in NeXTSTEP, so this round-trips.
          output.append(UInt8(ascii: "0") + (byte >> 6))
          output.append(UInt8(ascii: "0") + (byte >> 3 & 7))
          output.append(UInt8(ascii: "0") + (byte & 7))
        }
      }
      if runStart < utf8.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
      output.append(UInt8(ascii: "\""))
    }
  }

  static func canBeUnquoted(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !utf8.isEmpty else { return false }
    if utf8.count >= 2 && utf8[0] == UInt8(ascii: "/") && (utf8[1] == UInt8(ascii: "/") || utf8[1] == UInt8(ascii: "*")) {
      return false
    }
    for byte in utf8 where !OpenStepParser.isUnquoted(byte) { return false }
    return true
  }

  private mutating func writeData(_ data: Data) {
    let digits: StaticString = "0123456789abcdef"
    output.append(UInt8(ascii: "<"))
    output.reserveCapacity(output.count + data.count * 2 + data.count / 4 + 2)
    digits.withUTF8Buffer { hex in
      var index = 0
      for byte in data {
        if index > 0 && index & 3 == 0 { output.append(0x20) }
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0x0F)])
        index += 1
      }
    }
    output.append(UInt8(ascii: ">"))
  }

  /// The key path of the value about to be written: the strings-file key, then for each open
  /// container the key or index of its current child. Dots inside keys are written `\.`.
  private func path(_ stack: [Frame], topKey: String?) -> String {
    var components: [String] = []
    if let topKey { components.append(topKey) }
    for frame in stack {
      let index = frame.started - 1
      if let keys = frame.keys {
        components.append(keys[index])
      } else {
        components.append(String(index))
      }
    }
    return PropertyListKeyPathSyntax.backslash.joined(components)
  }

  @inline(never)
  private func unrepresentable(_ value: PropertyListValue, path: String) -> PropertyListError {
    let place = path.isEmpty && format == .openStep ? "at the top level" : "at key path \"\(path)\""
    return PropertyListError(
      .unrepresentable, format: format,
      detail: "\(value.typeName == "integer" ? "an" : "a") \(value.typeName) \(place) cannot be written: "
        + "OpenStep property lists hold only strings, data, arrays and dictionaries")
  }
}
