import PropertyLists

/// An edit of a `.strings` file made in its text, as a translator's file is edited: comments,
/// blank lines, layout, key order and the file's encoding (UTF-8, or UTF-16 with its byte-order
/// mark) stay; only the entry changed changes — its value replaced in place, a new entry appended
/// at the end, a removed entry's line(s) and the comment just above it taken out.
///
/// The edit is checked before it is used (``PlistTool/editStringsFile(_:path:keyPath:change:expected:options:)``):
/// the edited text must read back as exactly the value `-replace`/`-insert`/`-remove` made of the
/// document; otherwise, or when ``edited(key:_:)`` cannot edit the text, plutil rewrites the
/// document as before.
struct StringsFileEdit {
  /// What to do to the one top-level key.
  enum Change {
    case set(String)
    case remove
  }

  /// The file's text and how to write it back.
  let scalars: [Unicode.Scalar]
  let encoding: TextEncoding

  enum TextEncoding {
    case utf8(byteOrderMark: Bool)
    case utf16(bigEndian: Bool, byteOrderMark: Bool)
  }

  /// One `key = value;` (or `key;`) entry of the file: where its key token, its value token
  /// and the whole entry (key to `;`) are, as scalar offsets.
  struct Entry {
    var key: Range<Int>
    var value: Range<Int>?
    var whole: Range<Int>
  }

  init?(_ bytes: [UInt8]) {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      guard !bytes.starts(with: [0xFF, 0xFE, 0, 0]) else { return nil }  // UTF-32LE
      let bigEndian = bytes[0] == 0xFE
      guard let scalars = Self.decodeUTF16(bytes.dropFirst(2), bigEndian: bigEndian) else { return nil }
      self.scalars = scalars
      encoding = .utf16(bigEndian: bigEndian, byteOrderMark: true)
    } else if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
      let bigEndian = bytes[0] == 0
      guard let scalars = Self.decodeUTF16(bytes[...], bigEndian: bigEndian) else { return nil }
      self.scalars = scalars
      encoding = .utf16(bigEndian: bigEndian, byteOrderMark: false)
    } else {
      let marked = bytes.starts(with: [0xEF, 0xBB, 0xBF])
      var scalars: [Unicode.Scalar] = []
      var decoder = UTF8()
      var iterator = bytes.dropFirst(marked ? 3 : 0).makeIterator()
      loop: while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): scalars.append(scalar)
        case .emptyInput: break loop
        case .error: return nil
        }
      }
      self.scalars = scalars
      encoding = .utf8(byteOrderMark: marked)
    }
  }

  static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [Unicode.Scalar]? {
    guard bytes.count % 2 == 0 else { return nil }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count / 2)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
      units.append(bigEndian ? a << 8 | b : b << 8 | a)
      index += 2
    }
    var scalars: [Unicode.Scalar] = []
    var decoder = UTF16()
    var iterator = units.makeIterator()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): scalars.append(scalar)
      case .emptyInput: return scalars
      case .error: return nil
      }
    }
  }

  /// The bytes of `scalars` in the file's encoding.
  func encoded(_ scalars: [Unicode.Scalar]) -> [UInt8] {
    switch encoding {
    case .utf8(let marked):
      var bytes: [UInt8] = marked ? [0xEF, 0xBB, 0xBF] : []
      for scalar in scalars { UTF8.encode(scalar) { bytes.append($0) } }
      return bytes
    case .utf16(let bigEndian, let marked):
      var bytes: [UInt8] = []
      func append(_ unit: UInt16) {
        bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      }
      if marked { append(0xFEFF) }
      for scalar in scalars { UTF16.encode(scalar) { append($0) } }
      return bytes
    }
  }

  // MARK: - Scanning

  /// The file's top-level entries in order, or `nil` when the text is not a plain strings table
  /// this scanner follows (the reader's verdict on the whole file stands either way).
  func entries() -> [Entry]? {
    var entries: [Entry] = []
    var position = 0
    while true {
      position = skipSpace(from: position)
      guard position < scalars.count else { return entries }
      guard let key = token(from: position) else { return nil }
      position = skipSpace(from: key.upperBound)
      var value: Range<Int>?
      if position < scalars.count, scalars[position] == "=" {
        position = skipSpace(from: position + 1)
        guard let found = token(from: position) else { return nil }
        value = found
        position = skipSpace(from: found.upperBound)
      }
      guard position < scalars.count, scalars[position] == ";" else { return nil }
      entries.append(Entry(key: key, value: value, whole: key.lowerBound..<position + 1))
      position += 1
    }
  }

  /// Past white space and `/* … */` and `// …` comments.
  func skipSpace(from start: Int) -> Int {
    var position = start
    while position < scalars.count {
      let scalar = scalars[position]
      if scalar.properties.isWhitespace {
        position += 1
      } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "*" {
        position += 2
        while position + 1 < scalars.count, !(scalars[position] == "*" && scalars[position + 1] == "/") { position += 1 }
        position = min(scalars.count, position + 2)
      } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "/" {
        while position < scalars.count, scalars[position] != "\n" { position += 1 }
      } else {
        break
      }
    }
    return position
  }

  /// A quoted (`"…"`, `'…'`) or unquoted string token starting at `start`.
  func token(from start: Int) -> Range<Int>? {
    guard start < scalars.count else { return nil }
    let first = scalars[start]
    if first == "\"" || first == "'" {
      var position = start + 1
      while position < scalars.count {
        if scalars[position] == "\\" {
          position += 2
          continue
        }
        if scalars[position] == first { return start..<position + 1 }
        position += 1
      }
      return nil
    }
    var position = start
    while position < scalars.count, Self.isUnquoted(scalars[position]) { position += 1 }
    return position > start ? start..<position : nil
  }

  /// The characters of an unquoted OpenStep string.
  static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_$+/:.-".unicodeScalars.contains(scalar))
  }

  /// The key a token stands for, read by the property-list reader itself (escapes and all).
  func key(of entry: Entry) -> String? {
    let text = String(String.UnicodeScalarView(scalars[entry.key])) + " = x;"
    guard case .dictionary(let dictionary)? = try? PropertyListValue.read(Array(text.utf8), policy: .plutil).0 else { return nil }
    return dictionary.keys.first
  }

  // MARK: - Editing

  /// The file with `change` made to `key`, or `nil` when the text cannot be edited in place.
  func edited(key: String, _ change: Change) -> [Unicode.Scalar]? {
    guard let entries = entries() else { return nil }
    // The last entry of a key is the one the reader keeps.
    let index = entries.indices.last { self.key(of: entries[$0]) == key }
    var result = scalars
    switch change {
    case .set(let value):
      let token = Array(QuotedText.stringsToken(value).unicodeScalars)
      if let index {
        let entry = entries[index]
        if let range = entry.value {
          result.replaceSubrange(range, with: token)
        } else {
          // `"key";` (the value is the key): it becomes `"key" = "value";`.
          result.replaceSubrange(entry.key.upperBound..<entry.key.upperBound, with: Array(" = ".unicodeScalars) + token)
        }
      } else {
        if let last = result.last, last != "\n" { result.append("\n") }
        result += Array(QuotedText.stringsToken(key).unicodeScalars) + Array(" = ".unicodeScalars) + token + [";", "\n"]
      }
    case .remove:
      guard let index else { return nil }
      result.removeSubrange(removedRange(of: entries[index]))
    }
    return result
  }

  /// What removing an entry takes out: the entry, the rest of its line when only white space
  /// follows, the comment directly above it (nothing but white space between, no blank line),
  /// and the blank line that separated it from the entry before, so the layout stays even.
  func removedRange(of entry: Entry) -> Range<Int> {
    var end = entry.whole.upperBound
    var probe = end
    while probe < scalars.count, scalars[probe] == " " || scalars[probe] == "\t" { probe += 1 }
    if probe == scalars.count || scalars[probe] == "\n" { end = min(scalars.count, probe + 1) }
    var start = entry.whole.lowerBound
    // Back to the start of the line, when only white space precedes the entry on it.
    var back = start
    while back > 0, scalars[back - 1] == " " || scalars[back - 1] == "\t" { back -= 1 }
    guard back == 0 || scalars[back - 1] == "\n" else { return start..<end }
    start = back
    // A comment ending on the line just above.
    var above = start - 1
    while above > 0, scalars[above - 1] == " " || scalars[above - 1] == "\t" { above -= 1 }
    if above >= 2, scalars[above - 1] == "/", scalars[above - 2] == "*" {
      var open = above - 2
      while open >= 1, !(scalars[open - 1] == "/" && scalars[open] == "*") { open -= 1 }
      if open >= 1 {
        var lineStart = open - 1
        while lineStart > 0, scalars[lineStart - 1] == " " || scalars[lineStart - 1] == "\t" { lineStart -= 1 }
        if lineStart == 0 || scalars[lineStart - 1] == "\n" { start = lineStart }
      }
    }
    // One blank line before what is removed goes with it (genstrings separates entries so).
    if start >= 2, scalars[start - 1] == "\n", scalars[start - 2] == "\n" { start -= 1 }
    return start..<end
  }
}

extension PlistTool {
  /// `-replace`/`-insert`/`-remove` of one key of a `.strings` file (an OpenStep document whose
  /// dictionary has no braces), written as an edit of its text (``StringsFileEdit``) when that
  /// reads back as `expected`; `false` when it cannot be (a document in braces, a nested key
  /// path, a value that is not a string, a file the scanner does not follow), and the caller
  /// rewrites the document.
  func editStringsFile(
    _ bytes: [UInt8], path: String, keyPath: String, change: StringsFileEdit.Change, expected: PropertyListValue, options: Options
  ) throws(PlistToolError) -> Bool {
    let components = PropertyListKeyPathSyntax.plutil.components(of: keyPath)
    guard components.count == 1, let file = StringsFileEdit(bytes), let edited = file.edited(key: components[0], change) else { return false }
    let output = file.encoded(edited)
    guard let (readBack, _) = try? PropertyListValue.read(output, policy: .plutil), readBack == expected else { return false }
    guard let destination = options.destination(for: path, format: .openStep) else {
      environment.writeStandardOutput(output)
      return true
    }
    try environment.writeFileAtomically(output, toPath: destination)
    return true
  }
}
