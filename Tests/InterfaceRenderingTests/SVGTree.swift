import Foundation
#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An SVG document parsed by Foundation's XML parser (a well-formedness check independent of the
/// writer): its elements in document order, each with its attributes, text and ancestors' names.
struct SVGTree {
  struct Element {
    var name: String
    var attributes: [String: String]
    var text: String
    var depth: Int
    func number(_ key: String) -> Double? { attributes[key].flatMap(Double.init) }
  }

  var elements: [Element] = []

  /// Parses `text`; throws with the parser's line and column when it is not well-formed XML.
  init(_ text: String) throws {
    let delegate = Collector()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = delegate
    guard parser.parse() else {
      throw SVGTreeError(description: "not well-formed XML at line \(parser.lineNumber), column \(parser.columnNumber): \(parser.parserError.map { "\($0)" } ?? "?")")
    }
    elements = delegate.elements
  }

  /// The elements named `name`.
  func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

  /// The text elements whose text is `text`.
  func texts(_ text: String) -> [Element] { all("text").filter { $0.text == text } }

  final class Collector: NSObject, XMLParserDelegate {
    var elements: [Element] = []
    var open: [Int] = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
      open.append(elements.count)
      elements.append(Element(name: name, attributes: attributes, text: "", depth: open.count))
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if let index = open.last { elements[index].text += string }
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { open.removeLast() }
  }
}

struct SVGTreeError: Error, CustomStringConvertible {
  var description: String
}
