public import StasisSystem
import CLibXML2

/// An Interface Builder document — a `.xib` or a `.storyboard`, document format 3.0 — read as a
/// tree of XML elements with their line numbers, so that every later error can name the line.
///
/// The reader is libxml2's tree parser, with network access off, no entity substitution and no
/// document type declaration accepted (Interface Builder never writes one; refusing it closes off
/// entity expansion attacks), inside ``Limits``.
///
/// ```swift
/// let document = try InterfaceDocument(contentsOfFile: "MainMenu.xib")
/// print(document.kind, document.targetRuntime)          // xib MacOSX.Cocoa
/// for object in document.objects { print(object.name, object["id"] ?? "") }
/// ```
public struct InterfaceDocument: Sendable {
  /// One XML element: its name, its attributes in document order, its child elements, the
  /// character data directly inside it, and the line it starts on.
  public struct Element: Sendable, Hashable {
    public var name: String
    /// Attributes in the order the document writes them.
    public var attributes: [(name: String, value: String)]
    public var children: [Element]
    /// The element's own character data (the text of `<string>`, `<mutableString>`, …).
    public var text: String
    /// The 1-based line of the element's start tag.
    public var line: Int

    public init(name: String, attributes: [(name: String, value: String)] = [], children: [Element] = [], text: String = "", line: Int = 0) {
      self.name = name
      self.attributes = attributes
      self.children = children
      self.text = text
      self.line = line
    }

    /// The value of attribute `name`.
    public subscript(name: String) -> String? {
      for attribute in attributes where attribute.name == name { return attribute.value }
      return nil
    }

    /// The first child element called `name`.
    public func child(_ name: String) -> Element? { children.first { $0.name == name } }

    /// The first child element called `name` whose `key` attribute is `key` (`<rect key="frame">`).
    public func child(_ name: String, key: String) -> Element? {
      children.first { $0.name == name && $0["key"] == key }
    }

    /// Child elements called `name`.
    public func children(_ name: String) -> [Element] { children.filter { $0.name == name } }

    public static func == (left: Element, right: Element) -> Bool {
      left.name == right.name && left.line == right.line && left.text == right.text && left.children == right.children
        && left.attributes.elementsEqual(right.attributes, by: { $0.name == $1.name && $0.value == $1.value })
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(name)
      hasher.combine(line)
      hasher.combine(children.count)
    }
  }

  /// What kind of document this is, from the root element's `type` attribute.
  public enum Kind: String, Sendable {
    /// `com.apple.InterfaceBuilder3.Cocoa.XIB` or `…CocoaTouch.XIB`.
    case xib
    /// `com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB` or `…CocoaTouch.Storyboard.XIB`.
    case storyboard
  }

  /// The platform the document targets.
  public enum Platform: String, Sendable {
    /// macOS (`Cocoa`, `targetRuntime="MacOSX.Cocoa"`).
    case macOS
    /// iOS, tvOS and friends (`CocoaTouch`, `targetRuntime="iOS.CocoaTouch"`, …).
    case iOS
  }

  /// How large a document the reader accepts.
  public struct Limits: Sendable, Hashable {
    /// The most bytes a document may have (default 64 MiB; the largest real storyboards are
    /// a few MB).
    public var maximumByteCount: Int
    /// The most elements a document may have.
    public var maximumElementCount: Int
    /// How deeply elements may nest (libxml2 itself stops at 256 without its "huge" option).
    public var maximumDepth: Int

    /// `maximumByteCount` is capped at 2 GiB − 1, the most libxml2 reads in one buffer.
    public init(maximumByteCount: Int = 64 << 20, maximumElementCount: Int = 4_000_000, maximumDepth: Int = 256) {
      self.maximumByteCount = min(maximumByteCount, Int(Int32.max))
      self.maximumElementCount = maximumElementCount
      self.maximumDepth = maximumDepth
    }

    public static let `default` = Limits()
  }

  /// The file the document was read from (used in error messages), if any.
  public var path: String?
  /// The root `<document>` element.
  public var root: Element
  public var kind: Kind
  public var platform: Platform

  /// The `<resources>` entry of one of `kinds` (`image`, `namedColor`, `systemColor`) named
  /// `name`: what Interface Builder saved of an image or color the document refers to by name.
  public func resource(_ kinds: Set<String>, named name: String) -> Element? {
    root.child("resources")?.children.first { kinds.contains($0.name) && $0["name"] == name }
  }

  /// The root's `targetRuntime` (`MacOSX.Cocoa`, `iOS.CocoaTouch`, `AppleTV`, …).
  public var targetRuntime: String { root["targetRuntime"] ?? "" }
  /// The root's `toolsVersion` (the Xcode build that saved the document).
  public var toolsVersion: String { root["toolsVersion"] ?? "" }
  /// The children of `<objects>` (xibs) — the top-level objects and placeholders.
  public var objects: [Element] { root.child("objects")?.children ?? [] }
  /// The `<scene>` elements of a storyboard (under `<scenes>`).
  public var scenes: [Element] { root.child("scenes")?.children("scene") ?? [] }

  /// Reads the document at `path`, through `environment`'s file system.
  ///
  /// - Throws: ``InterfaceBuilderError``: `.fileSystem` when the file cannot be read,
  ///   `.limitExceeded`, `.malformedXML` with libxml2's line and message, `.invalidDocument`
  ///   when the root is not an Interface Builder `<document>` of format 3.0.
  public init(
    contentsOfFile path: String, limits: Limits = .default, environment: HostEnvironment = .current
  ) throws(InterfaceBuilderError) {
    let bytes: [UInt8]
    do {
      bytes = [UInt8](try environment.fileSystem.read(contentsOfFile: path, limit: limits.maximumByteCount))
    } catch {
      throw InterfaceBuilderError(
        error.code == .tooLarge ? .limitExceeded : .fileSystem, path: path, detail: "cannot read the document: \(error.detail)",
        underlying: error)
    }
    try self.init(bytes: bytes, path: path, limits: limits)
  }

  /// Reads a document from its bytes; `path` only names it in errors.
  public init(bytes: [UInt8], path: String? = nil, limits: Limits = .default) throws(InterfaceBuilderError) {
    self.path = path
    guard bytes.count <= limits.maximumByteCount else {
      throw InterfaceBuilderError(.limitExceeded, path: path, detail: "the document has \(bytes.count) bytes, more than the limit of \(limits.maximumByteCount)")
    }
    if let line = Self.lineOfDeclaration(in: bytes) {
      throw InterfaceBuilderError(
        .malformedXML, path: path, line: line,
        detail: "a document type or entity declaration; Interface Builder documents have none, and none is accepted")
    }
    root = try XMLTreeReader.read(bytes, path: path, limits: limits)
    guard root.name == "document" else {
      throw InterfaceBuilderError(.invalidDocument, path: path, line: root.line, detail: "the root element is <\(root.name)>, expected an Interface Builder <document>")
    }
    let type = root["type"] ?? ""
    switch type {
    case "com.apple.InterfaceBuilder3.Cocoa.XIB": (kind, platform) = (.xib, .macOS)
    case "com.apple.InterfaceBuilder3.CocoaTouch.XIB", "com.apple.InterfaceBuilder.AppleTV.XIB", "com.apple.InterfaceBuilder.WatchKit.XIB":
      (kind, platform) = (.xib, .iOS)
    case "com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB": (kind, platform) = (.storyboard, .macOS)
    case "com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB", "com.apple.InterfaceBuilder.AppleTV.Storyboard",
      "com.apple.InterfaceBuilder.WatchKit.Storyboard":
      (kind, platform) = (.storyboard, .iOS)
    default:
      throw InterfaceBuilderError(
        .invalidDocument, path: path, line: root.line,
        detail: "document type \"\(type)\" is not an Interface Builder 3 xib or storyboard (com.apple.InterfaceBuilder3.Cocoa.XIB, …CocoaTouch.XIB, …Storyboard.XIB)")
    }
    guard root["version"] == "3.0" else {
      throw InterfaceBuilderError(.invalidDocument, path: path, line: root.line, detail: "document format version \(root["version"] ?? "(none)"), expected 3.0")
    }
  }

  /// The line of the first `<!DOCTYPE` or `<!ENTITY` in `bytes`, if there is one.
  static func lineOfDeclaration(in bytes: [UInt8]) -> Int? {
    var line = 1
    var index = 0
    /// Moves past `terminator`, counting lines; false when the document ends first.
    func skip(past terminator: [UInt8]) -> Bool {
      while index < bytes.count {
        if bytes[index] == 0x0A { line += 1 }
        if bytes[index] == terminator[0], bytes[index...].starts(with: terminator) {
          index += terminator.count
          return true
        }
        index += 1
      }
      return false
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A { line += 1 }
      if byte == UInt8(ascii: "<"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "!") {
        // Comments and CDATA sections are fine, and what they hold is not markup; anything
        // else after "<!" is a declaration.
        if bytes[index...].starts(with: Array("<!--".utf8)) {
          index += 4
          if !skip(past: Array("-->".utf8)) { return nil }
          continue
        }
        if bytes[index...].starts(with: Array("<![CDATA[".utf8)) {
          index += 9
          if !skip(past: Array("]]>".utf8)) { return nil }
          continue
        }
        return line
      }
      index += 1
    }
    return nil
  }
}

/// Where the parser's first error is kept while libxml2 runs.
final class FirstXMLError {
  var message: String?
  var line: Int?
}

/// libxml2's tree, copied into ``InterfaceDocument/Element`` values.
enum XMLTreeReader {
  static func read(_ bytes: [UInt8], path: String?, limits: InterfaceDocument.Limits) throws(InterfaceBuilderError) -> InterfaceDocument.Element {
    guard let context = xmlNewParserCtxt() else {
      throw InterfaceBuilderError(.limitExceeded, path: path, detail: "libxml2 could not allocate a parser")
    }
    defer { xmlFreeParserCtxt(context) }
    // The first error is the one that names the cause (later ones follow from it), so it is
    // caught as it is raised: libxml2 hands a structured error handler the context's user data,
    // which is the context itself, whose `_private` points at the slot.
    let firstError = FirstXMLError()
    context.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
    context.pointee.sax.pointee.serror = { userData, error in
      guard let userData, let error else { return }
      let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
      guard let slot = context.pointee._private else { return }
      let first = Unmanaged<FirstXMLError>.fromOpaque(slot).takeUnretainedValue()
      guard first.message == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
      var message = error.pointee.message.map { String(cString: $0).trimmingWhitespace() } ?? "not well-formed XML"
      if error.pointee.int2 > 0 { message += " (column \(error.pointee.int2))" }
      first.message = message
      first.line = error.pointee.line > 0 ? Int(error.pointee.line) : nil
    }
    // No network, no error printing, big line numbers; never XML_PARSE_NOENT (entity
    // substitution), XML_PARSE_DTDLOAD, XML_PARSE_RECOVER (accepts truncated documents) or
    // XML_PARSE_HUGE (lifts the nesting limit of 256).
    let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_BIG_LINES.rawValue)
    guard bytes.count <= Int(Int32.max) else {
      throw InterfaceBuilderError(.limitExceeded, path: path, detail: "the document has \(bytes.count) bytes; libxml2 reads at most 2 GiB")
    }
    let document = withExtendedLifetime(firstError) {
      bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
          xmlCtxtReadMemory(context, $0, Int32(buffer.count), path ?? "document.xib", "UTF-8", options)
        }
      }
    }
    context.pointee._private = nil
    guard let document, firstError.message == nil else {
      if let document { xmlFreeDoc(document) }
      var line = firstError.line
      var message = firstError.message ?? "not well-formed XML"
      if firstError.message == nil, let error = xmlCtxtGetLastError(context) {
        if error.pointee.line > 0 { line = Int(error.pointee.line) }
        if let text = error.pointee.message { message = String(cString: text).trimmingWhitespace() }
      }
      throw InterfaceBuilderError(.malformedXML, path: path, line: line, detail: message)
    }
    defer { xmlFreeDoc(document) }
    guard let rootNode = xmlDocGetRootElement(document) else {
      throw InterfaceBuilderError(.invalidDocument, path: path, detail: "the document has no root element")
    }
    var count = 0
    return try element(from: rootNode, depth: 1, count: &count, path: path, limits: limits)
  }

  static func element(
    from node: UnsafeMutablePointer<xmlNode>, depth: Int, count: inout Int, path: String?, limits: InterfaceDocument.Limits
  ) throws(InterfaceBuilderError) -> InterfaceDocument.Element {
    let line = Int(xmlGetLineNo(node))
    count += 1
    guard count <= limits.maximumElementCount else {
      throw InterfaceBuilderError(.limitExceeded, path: path, line: line, detail: "more than \(limits.maximumElementCount) elements")
    }
    guard depth <= limits.maximumDepth else {
      throw InterfaceBuilderError(.limitExceeded, path: path, line: line, detail: "elements nest deeper than \(limits.maximumDepth)")
    }
    var result = InterfaceDocument.Element(name: String(cString: node.pointee.name), line: line)
    var attribute = node.pointee.properties
    while let current = attribute {
      result.attributes.append((String(cString: current.pointee.name), text(of: current.pointee.children)))
      attribute = current.pointee.next
    }
    var child = node.pointee.children
    while let current = child {
      switch current.pointee.type {
      case XML_ELEMENT_NODE:
        result.children.append(try element(from: current, depth: depth + 1, count: &count, path: path, limits: limits))
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        if let content = current.pointee.content { result.text += String(cString: content) }
      default:
        break
      }
      child = current.pointee.next
    }
    return result
  }

  /// The concatenated text of an attribute's child nodes.
  static func text(of first: UnsafeMutablePointer<xmlNode>?) -> String {
    var result = ""
    var node = first
    while let current = node {
      if let content = current.pointee.content { result += String(cString: content) }
      node = current.pointee.next
    }
    return result
  }
}

extension String {
  func trimmingWhitespace() -> String {
    var scalars = Substring(self)
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    return String(scalars)
  }
}
