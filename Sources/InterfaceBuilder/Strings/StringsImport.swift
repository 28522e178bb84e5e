public import StasisSystem
import PropertyLists

/// `ibtool --import-strings-file IN.strings --write OUT.xib IN.xib`: a xib or storyboard with
/// its localizable strings replaced by a `.strings` table's values.
///
/// The document is edited in its own text: each replaced value is written, XML-escaped, over
/// the attribute value or character data it came from, and every other byte stays as it was.
/// The keys are the ones ``StringsExport`` writes (`"<ObjectID>.<property>"`); a key that names
/// no object or no localizable property of its object is reported as a ``Warning`` and skipped,
/// as ibtool does.
///
/// ```swift
/// let table = try StringsImport.readTable(contentsOfFile: "de.lproj/Main.strings")
/// let result = try StringsImport.localize(bytes, table: table, path: "Main.storyboard")
/// for warning in result.warnings { print(warning) }
/// ```
public enum StringsImport {
  /// A key of the table that was not applied, and why.
  public struct Warning: Sendable, Hashable, CustomStringConvertible {
    /// The key as the table has it.
    public var key: String
    /// Why it was skipped: no object with that ID, or no such localizable property.
    public var reason: String
    /// `"key": reason`.
    public var description: String { "\"\(key)\": \(reason)" }
  }

  /// Reads a `.strings` file (UTF-8 or UTF-16 text, or a binary or XML property list, as CF's
  /// string-table loader reads one) into key → value.
  ///
  /// - Throws: ``InterfaceBuilderError`` `.fileSystem` when the file cannot be read,
  ///   `.invalidStrings` (with the path and, for a syntax error, the line) when it is not a
  ///   strings table of strings.
  public static func readTable(
    contentsOfFile path: String, environment: HostEnvironment = .current
  ) throws(InterfaceBuilderError) -> [String: String] {
    try readTable(bytes: readFile(path, fileSystem: environment.fileSystem), path: path)
  }

  /// Reads a `.strings` table from its bytes; `path` only names it in errors.
  public static func readTable(bytes: [UInt8], path: String? = nil) throws(InterfaceBuilderError) -> [String: String] {
    let value: PropertyListValue
    do {
      value = try PropertyListValue(decoding: bytes, policy: .stringsFile)
    } catch {
      var line: Int? = nil
      if case .line(let number)? = error.position { line = number }
      throw InterfaceBuilderError(.invalidStrings, path: path, line: line, detail: "not a valid strings file: \(error.detail)", underlying: error)
    }
    guard let dictionary = value.dictionaryValue else {
      throw InterfaceBuilderError(.invalidStrings, path: path, detail: "the file holds \(value.typeName), expected a strings table")
    }
    var table: [String: String] = [:]
    for (key, entry) in dictionary {
      guard let text = entry.stringValue else {
        throw InterfaceBuilderError(.invalidStrings, path: path, detail: "the value of \"\(key)\" is \(entry.typeName), expected a string")
      }
      table[key] = text
    }
    return table
  }

  /// Replaces the localizable strings of the document `bytes` that `table` has keys for.
  ///
  /// - Returns: the localized document and the keys that could not be applied, sorted by key.
  /// - Throws: ``InterfaceBuilderError`` when `bytes` is not an Interface Builder document
  ///   (see ``InterfaceDocument/init(bytes:path:limits:)``).
  public static func localize(
    _ bytes: [UInt8], table: [String: String], path: String? = nil
  ) throws(InterfaceBuilderError) -> (bytes: [UInt8], warnings: [Warning]) {
    let document = try InterfaceDocument(bytes: bytes, path: path)
    let entries = StringsExport(document).entries
    let map = XMLSourceMap(bytes)
    guard map.elements.count == elementCount(document.root) else {
      throw InterfaceBuilderError(.invalidDocument, path: path, detail: "the document's text could not be matched to its elements")
    }
    var byKey: [String: LocalizableString] = [:]
    for entry in entries { byKey[entry.key] = entry }
    let objectIDs = Set(allObjectIDs(document.root))

    var edits: [(range: Range<Int>, replacement: [UInt8])] = []
    var warnings: [Warning] = []
    for (key, value) in table {
      guard let entry = byKey[key] else {
        let objectID = key.split(separator: ".", maxSplits: 1).first.map(String.init) ?? key
        warnings.append(Warning(key: key, reason: objectIDs.contains(objectID)
          ? "object \"\(objectID)\" has no such localizable property" : "the document has no object \"\(objectID)\""))
        continue
      }
      guard value.unicodeScalars.allSatisfy(isXMLCharacter) else {
        warnings.append(Warning(key: key, reason: "the value holds a character XML 1.0 cannot hold"))
        continue
      }
      let element = map.elements[entry.site.element]
      if let attribute = entry.site.attribute {
        guard let place = element.attributes[attribute] else { continue }
        edits.append((place.range, Array(escaped(value, quote: place.quote).utf8)))
      } else if let content = element.content {
        edits.append((content, Array(escaped(value, quote: nil).utf8)))
      } else {
        // `<string key="title"/>`: the value goes between a start and an end tag.
        let tag = element.tag
        let name = bytes[element.name]
        edits.append((tag, Array(bytes[tag.lowerBound ..< tag.upperBound - 2]) + Array(">\(escaped(value, quote: nil))</".utf8) + name + [UInt8(ascii: ">")]))
      }
    }
    var output = bytes
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      output.replaceSubrange(edit.range, with: edit.replacement)
    }
    return (output, warnings.sorted { $0.key < $1.key })
  }

  /// The document at `path` in one language, as Xcode compiles a localization: each of its
  /// localizable strings (the keys `--export-strings-file` writes) that `lookUp` translates is
  /// replaced, the others kept. A key `lookUp` answers no text for is not an error.
  ///
  /// - Throws: ``InterfaceBuilderError``: the reader's codes for a bad document, `.fileSystem`
  ///   when it cannot be read.
  public static func localizedDocument(
    contentsOfFile path: String, lookUp: (String) -> String?, environment: HostEnvironment = .current
  ) throws(InterfaceBuilderError) -> InterfaceDocument {
    let bytes = try readFile(path, fileSystem: environment.fileSystem)
    let document = try InterfaceDocument(bytes: bytes, path: path)
    var table: [String: String] = [:]
    for entry in StringsExport(document).entries { table[entry.key] = lookUp(entry.key) }
    guard !table.isEmpty else { return document }
    return try InterfaceDocument(bytes: try localize(bytes, table: table, path: path).bytes, path: path)
  }

  /// `ibtool --import-strings-file stringsPath --write outputPath documentPath`: localizes the
  /// document at `documentPath` with the table at `stringsPath` and writes the result atomically.
  ///
  /// - Returns: the keys that could not be applied.
  /// - Throws: ``InterfaceBuilderError``: `.invalidStrings` for a bad table, the reader's codes
  ///   for a bad document, `.fileSystem` when a file cannot be read or written.
  @discardableResult
  public static func importStrings(
    fromFile stringsPath: String, document documentPath: String, writeTo outputPath: String,
    environment: HostEnvironment = .current
  ) throws(InterfaceBuilderError) -> [Warning] {
    let table = try readTable(contentsOfFile: stringsPath, environment: environment)
    let result = try localize(try readFile(documentPath, fileSystem: environment.fileSystem), table: table, path: documentPath)
    try writeAtomically(result.bytes, toFile: outputPath, fileSystem: environment.fileSystem)
    return result.warnings
  }

  static func readFile(_ path: String, fileSystem: any FileSystem) throws(InterfaceBuilderError) -> [UInt8] {
    do {
      return [UInt8](try fileSystem.read(contentsOfFile: path, limit: InterfaceDocument.Limits.default.maximumByteCount))
    } catch {
      throw InterfaceBuilderError(.fileSystem, path: path, detail: "cannot read the file: \(error.detail)", underlying: error)
    }
  }

  static func elementCount(_ element: InterfaceDocument.Element) -> Int {
    element.children.reduce(1) { $0 + elementCount($1) }
  }

  static func allObjectIDs(_ element: InterfaceDocument.Element) -> [String] {
    (element["id"].map { [$0] } ?? []) + element.children.flatMap(allObjectIDs)
  }

  /// Characters XML 1.0 can hold (as text or as a character reference).
  static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9, 0xA, 0xD, 0x20 ... 0xD7FF, 0xE000 ... 0xFFFD, 0x10000 ... 0x10FFFF: true
    default: false
    }
  }

  /// `text` escaped for an attribute quoted with `quote`, or for character data when `quote` is
  /// `nil`: `&`, `<`, `>` as entities, the quote as `&quot;`/`&apos;`, and in attributes tab,
  /// newline and carriage return as character references (a parser would turn them into spaces).
  /// A carriage return is a reference in character data too, which would otherwise read as a newline.
  static func escaped(_ text: String, quote: UInt8?) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"" where quote == UInt8(ascii: "\""): result += "&quot;"
      case "'" where quote == UInt8(ascii: "'"): result += "&apos;"
      case "\t" where quote != nil: result += "&#9;"
      case "\n" where quote != nil: result += "&#10;"
      case "\r": result += "&#13;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

/// Where each element of a well-formed XML document sits in its bytes, in document order (the
/// order ``InterfaceDocument`` builds its tree in): its start tag, its name, its attribute values
/// and its content. Only run on bytes libxml2 has already accepted.
struct XMLSourceMap {
  struct Element {
    /// The start tag, `<` to `>` inclusive.
    var tag: Range<Int>
    var name: Range<Int>
    /// Each attribute's value (between the quotes) and its quote character.
    var attributes: [String: (range: Range<Int>, quote: UInt8)] = [:]
    /// From after the start tag to before the end tag; `nil` for an empty-element tag (`<a/>`).
    var content: Range<Int>?
  }

  var elements: [Element] = []

  init(_ bytes: [UInt8]) {
    var open: [Int] = []
    var index = 0
    func skip(past terminator: String) {
      let marker = Array(terminator.utf8)
      while index < bytes.count, !bytes[index...].starts(with: marker) { index += 1 }
      index = min(bytes.count, index + marker.count)
    }
    func isNameByte(_ byte: UInt8) -> Bool {
      !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">"))
    }
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
      let rest = bytes[index...]
      if rest.starts(with: Array("<?".utf8)) { skip(past: "?>"); continue }
      if rest.starts(with: Array("<!--".utf8)) { skip(past: "-->"); continue }
      if rest.starts(with: Array("<![CDATA[".utf8)) { skip(past: "]]>"); continue }
      if rest.starts(with: Array("<!".utf8)) { skip(past: ">"); continue }
      if rest.starts(with: Array("</".utf8)) {
        if let element = open.popLast(), let start = elements[element].content?.lowerBound {
          elements[element].content = start ..< index
        }
        skip(past: ">")
        continue
      }
      // A start tag: its name, then attributes up to `>` or `/>`.
      let tagStart = index
      index += 1
      let nameStart = index
      while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
      var element = Element(tag: tagStart ..< tagStart, name: nameStart ..< index)
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
        if !isNameByte(byte) { index += 1; continue }
        let attributeStart = index
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        let attributeName = String(decoding: bytes[attributeStart ..< index], as: UTF8.self)
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "'") { index += 1 }
        guard index < bytes.count else { break }
        let quote = bytes[index]
        let valueStart = index + 1
        index = valueStart
        while index < bytes.count, bytes[index] != quote { index += 1 }
        element.attributes[attributeName] = (valueStart ..< index, quote)
        index += 1
      }
      let selfClosing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
      skip(past: ">")
      element.tag = tagStart ..< index
      if !selfClosing {
        element.content = index ..< index
        open.append(elements.count)
      }
      elements.append(element)
    }
  }
}
