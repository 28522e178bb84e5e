/// Writes JSON the way `plutil -convert json` does (Foundation's `JSONSerialization`), checked
/// byte for byte against the toolchain's `plutil` on this machine.
///
/// * Only dictionaries, arrays, strings, integers, reals and booleans can be written; the top
///   level must be a dictionary or an array ("Invalid object in plist for JSON format"). Dates,
///   data and UIDs, and NaN or infinite reals, throw `PropertyListError.Code.unrepresentable`
///   naming the key path.
/// * Strings: `"` and `\` are escaped, `/` is written `\/`, BS, TAB, LF, FF and CR as `\b \t \n
///   \f \r`, other control characters as `\u00XX` (lowercase hex). DEL, U+2028 and everything
///   else are written as UTF-8.
/// * Integers in decimal, `Int64.min ... UInt64.max`. Reals as Swift's shortest round-trip
///   `description` (`0.1`, `1e+16`, `1.5e-07`) without a trailing `.0`, so `1.0` is written `1`
///   and reads back as an integer, exactly as with plutil. A real stored as 32 bits is written
///   from its `Float` value (`0.1`, not `0.10000000149011612`).
/// * Compact output has no whitespace. `prettyPrinted` indents two spaces per level, writes
///   `"key" : value`, and writes an empty container as `{`, an empty line, then `}` at the
///   container's indentation. No newline at the end. `sortedKeys` orders keys as
///   ``JSONKeyOrder`` describes; otherwise keys keep the dictionary's order.
enum JSONPlistWriter {
  static func write(_ value: PropertyListValue, options: PropertyListWritingOptions) throws(PropertyListError) -> [UInt8] {
    switch value {
    case .array, .dictionary: break
    default:
      throw PropertyListError(
        .unrepresentable, format: .json,
        detail: "JSON output needs a dictionary or an array at the top level, not \(value.typeName == "integer" ? "an" : "a") \(value.typeName)")
    }
    var writer = JSONWriter(prettyPrinted: options.prettyPrinted, sortedKeys: options.sortedKeys)
    try writer.writeTree(value)
    return writer.output
  }
}

struct JSONWriter {
  let prettyPrinted: Bool
  let sortedKeys: Bool
  var output: [UInt8] = []

  init(prettyPrinted: Bool, sortedKeys: Bool) {
    self.prettyPrinted = prettyPrinted
    self.sortedKeys = sortedKeys
    output.reserveCapacity(1024)
  }

  private struct Frame {
    var keys: [String]?
    var children: [PropertyListValue]
    /// The order to write children in (sorted keys), or `nil` for their own order.
    var order: [Int]?
    var started = 0

    func child(_ position: Int) -> Int { order?[position] ?? position }
  }

  mutating func writeTree(_ root: PropertyListValue) throws(PropertyListError) {
    var stack: [Frame] = []
    var next = root
    while true {
      var opened = false
      switch next {
      case .string(let string):
        writeString(string)
      case .integer(let integer):
        output.append(contentsOf: integer.description.utf8)
      case .real(let real, let width):
        guard real.isFinite else {
          throw unrepresentable("the real number \(real)", stack)
        }
        writeReal(real, width: width)
      case .bool(let flag):
        output.append(contentsOf: (flag ? "true" : "false").utf8)
      case .array(let elements):
        opened = open(UInt8(ascii: "["), UInt8(ascii: "]"), isEmpty: elements.isEmpty, on: &stack) {
          Frame(keys: nil, children: elements, order: nil)
        }
      case .dictionary(let dictionary):
        let sorts = sortedKeys
        opened = open(UInt8(ascii: "{"), UInt8(ascii: "}"), isEmpty: dictionary.isEmpty, on: &stack) {
          Frame(keys: dictionary.keys, children: dictionary.values, order: sorts ? JSONKeyOrder.sortedIndices(dictionary.keys) : nil)
        }
      case .date:
        throw unrepresentable("a date", stack)
      case .data:
        throw unrepresentable("data", stack)
      case .uid:
        throw unrepresentable("a UID", stack)
      }

      while true {
        guard !stack.isEmpty else { return }
        let top = stack.count - 1
        if opened {
          opened = false
          if prettyPrinted { output.append(0x0A) }
        } else {
          if stack[top].started < stack[top].children.count { output.append(UInt8(ascii: ",")) }
          if prettyPrinted { output.append(0x0A) }
        }
        let position = stack[top].started
        if position < stack[top].children.count {
          let index = stack[top].child(position)
          if prettyPrinted { indent(stack.count) }
          if let keys = stack[top].keys {
            writeString(keys[index])
            if prettyPrinted {
              output.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
            } else {
              output.append(UInt8(ascii: ":"))
            }
          }
          next = stack[top].children[index]
          stack[top].started = position + 1
          break
        }
        if prettyPrinted { indent(top) }
        output.append(stack[top].keys == nil ? UInt8(ascii: "]") : UInt8(ascii: "}"))
        stack.removeLast()
      }
    }
  }

  @inline(__always)
  private mutating func indent(_ level: Int) {
    for _ in 0..<level { output.append(contentsOf: [0x20, 0x20]) }
  }

  /// Writes a container's opening bracket and, when it is empty, its body and closing bracket;
  /// else pushes its frame (`frame()`, made only then). Whether the container was opened.
  @inline(__always)
  private mutating func open(
    _ opening: UInt8, _ closing: UInt8, isEmpty: Bool, on stack: inout [Frame], _ frame: () -> Frame
  ) -> Bool {
    output.append(opening)
    guard !isEmpty else {
      writeEmptyBody(level: stack.count)
      output.append(closing)
      return false
    }
    stack.append(frame())
    return true
  }

  /// What `JSONSerialization` writes between the brackets of an empty container.
  private mutating func writeEmptyBody(level: Int) {
    guard prettyPrinted else { return }
    output.append(0x0A)
    output.append(0x0A)
    indent(level)
  }

  private mutating func writeReal(_ value: Double, width: PropertyListValue.RealWidth) {
    var text: String
    if width == .single, let single = Float(exactly: value) {
      text = single.description
    } else {
      text = value.description
    }
    if text.hasSuffix(".0") { text.removeLast(2) }
    output.append(contentsOf: text.utf8)
  }

  mutating func writeString(_ string: String) {
    var string = string
    string.withUTF8 { utf8 in
      output.append(UInt8(ascii: "\""))
      var runStart = 0
      for i in 0..<utf8.count {
        let byte = utf8[i]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
        else { continue }
        if runStart < i { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
        runStart = i + 1
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        default:
          let hex: [UInt8] = Array("0123456789abcdef".utf8)
          output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
      }
      if runStart < utf8.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
      output.append(UInt8(ascii: "\""))
    }
  }

  @inline(never)
  private func unrepresentable(_ what: String, _ stack: [Frame]) -> PropertyListError {
    var components: [String] = []
    for frame in stack {
      let index = frame.child(frame.started - 1)
      if let keys = frame.keys { components.append(keys[index]) } else { components.append(String(index)) }
    }
    let place: String
    if components.isEmpty {
      place = "at the top level"
    } else {
      let path = PropertyListKeyPathSyntax.backslash.joined(components)
      place = "at key path \"\(path)\""
    }
    return PropertyListError(
      .unrepresentable, format: .json,
      detail: "\(what) \(place) cannot be written as JSON (plutil's JSON holds only dictionaries, arrays, strings, numbers and booleans)")
  }
}
