import Foundation

/// Builds an SVG document's text: numbers written short, text and attributes escaped, clip paths
/// shared by rectangle.
struct SVGWriter {
  private(set) var body = ""
  private var definitions = ""
  private var clipIDs: [String: String] = [:]
  /// Whether the arrowhead marker is defined.
  var hasArrowMarker = false

  /// A number as SVG wants it: at most two decimals, no trailing zeros.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 100).rounded() / 100
    if rounded == rounded.rounded() { return String(Int(rounded)) }
    var text = String(format: "%.2f", rounded)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }

  /// `text` escaped for XML character data and attribute values (and without the control
  /// characters XML 1.0 forbids).
  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      default:
        let value = scalar.value
        let allowed = value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value) || value >= 0x10000
        if allowed { result.unicodeScalars.append(scalar) }
      }
    }
    return result
  }

  /// An element: `name` with `attributes` (nil values left out), and `content` (escaped text) or empty.
  mutating func element(_ name: String, _ attributes: [(String, String?)], text: String? = nil) {
    body += "<" + name
    for (key, value) in attributes {
      guard let value else { continue }
      body += " " + key + "=\"" + Self.escaped(value) + "\""
    }
    if let text {
      body += ">" + Self.escaped(text) + "</" + name + ">\n"
    } else {
      body += "/>\n"
    }
  }

  /// Raw markup (an opening or closing group).
  mutating func raw(_ markup: String) { body += markup }

  /// The id of a clip path for `rect` (one per distinct rectangle).
  mutating func clipID(for rect: CGRect) -> String {
    let key = [rect.minX, rect.minY, rect.width, rect.height].map(Self.number).joined(separator: " ")
    if let id = clipIDs[key] { return id }
    let id = "clip\(clipIDs.count + 1)"
    clipIDs[key] = id
    definitions +=
      "<clipPath id=\"\(id)\"><rect x=\"\(Self.number(rect.minX))\" y=\"\(Self.number(rect.minY))\" width=\"\(Self.number(max(0, rect.width)))\" height=\"\(Self.number(max(0, rect.height)))\"/></clipPath>\n"
    return id
  }

  /// Adds a definition (a marker).
  mutating func define(_ markup: String) { definitions += markup }

  /// The whole document: `size` points shown at `scale`, a title, the background, the body.
  func document(size: CGSize, scale: Double, title: String, background: RGBAColor?) -> String {
    let width = max(1, size.width), height = max(1, size.height)
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    text += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\""
    text += " width=\"\(Self.number(width * scale))\" height=\"\(Self.number(height * scale))\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\">\n"
    text += "<title>" + Self.escaped(title) + "</title>\n"
    if !definitions.isEmpty { text += "<defs>\n" + definitions + "</defs>\n" }
    if let background, background.alpha > 0 {
      text += "<rect x=\"0\" y=\"0\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" fill=\"\(background.hex)\"\(background.alpha < 1 ? " fill-opacity=\"\(Self.number(background.alpha))\"" : "")/>\n"
    }
    return text + body + "</svg>\n"
  }
}
