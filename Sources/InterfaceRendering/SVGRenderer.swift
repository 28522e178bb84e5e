import Foundation
import InterfaceObjects
import StasisSystem

/// The SVG back end: a scene's primitives as an SVG document in the scene's own coordinates
/// (points; `scale` sets the document's width and height, not the drawing), back to front, each
/// clipped to its ancestors' bounds. Text keeps the document's font family first, then system
/// fallbacks (``FontResolver``); images are embedded (base64) when their file is found, else drawn
/// as a labelled placeholder; controls are drawn as vector shapes in the palette's colours.
@MainActor public struct SVGRenderer {
  /// The size of the image against the scene's points (2 for a Retina-sized picture).
  public var scale: Double
  /// The colours of the chrome the renderer adds (bezels, bars, placeholders).
  public var palette: Palette
  /// Reads an image's file (at most ``imageSizeLimit`` bytes); `nil` when it cannot.
  /// By default through the current environment's file system.
  public var readFile: (String) -> [UInt8]? = { path in
    guard let data = try? HostEnvironment.current.fileSystem.read(contentsOfFile: path, limit: SVGRenderer.imageSizeLimit) else { return nil }
    return [UInt8](data)
  }
  /// The largest image file embedded (16 MB).
  public static let imageSizeLimit = 16 << 20

  public init(scale: Double = 1, palette: Palette = Palette()) {
    self.scale = scale.isFinite && scale > 0 ? scale : 1
    self.palette = palette
  }

  /// `scene` as a complete SVG document.
  public func document(for scene: RenderedScene) -> String {
    var writer = SVGWriter()
    draw(scene.primitives, into: &writer)
    return writer.document(size: scene.size, scale: scale, title: scene.caption, background: scene.background)
  }

  /// Draws `primitives` in order.
  func draw(_ primitives: [DrawingPrimitive], into writer: inout SVGWriter) {
    for primitive in primitives {
      if let clip = primitive.clip {
        guard clip.width > 0, clip.height > 0, clip.intersects(primitive.frame) || primitive.frame.isEmpty else { continue }
        writer.raw("<g clip-path=\"url(#\(writer.clipID(for: clip)))\">\n")
        draw(primitive, into: &writer)
        writer.raw("</g>\n")
      } else {
        draw(primitive, into: &writer)
      }
    }
  }

  static func n(_ value: Double) -> String { SVGWriter.number(value) }

  /// Attributes of a rectangle.
  static func rect(_ frame: CGRect, radius: Double = 0) -> [(String, String?)] {
    [
      ("x", n(frame.minX)), ("y", n(frame.minY)), ("width", n(max(0, frame.width))), ("height", n(max(0, frame.height))),
      ("rx", radius > 0 ? n(radius) : nil),
    ]
  }

  /// Fill attributes of `color`.
  static func fill(_ color: RGBAColor) -> [(String, String?)] { [("fill", color.hex), ("fill-opacity", color.alpha < 1 ? n(color.alpha) : nil)] }

  /// Stroke attributes of `color`.
  static func stroke(_ color: RGBAColor, width: Double = 1) -> [(String, String?)] {
    [("stroke", color.hex), ("stroke-opacity", color.alpha < 1 ? n(color.alpha) : nil), ("stroke-width", n(width))]
  }

  func draw(_ primitive: DrawingPrimitive, into writer: inout SVGWriter) {
    let frame = primitive.frame
    switch primitive.content {
    case .fill(let color, let radius):
      writer.element("rect", Self.rect(frame, radius: radius) + Self.fill(color))
    case .stroke(let color, let width, let radius):
      writer.element("rect", Self.rect(frame.insetBy(dx: width / 2, dy: width / 2), radius: radius) + [("fill", "none")] + Self.stroke(color, width: width))
    case .line(let from, let to, let color, let width):
      writer.element("line", [("x1", Self.n(from.x)), ("y1", Self.n(from.y)), ("x2", Self.n(to.x)), ("y2", Self.n(to.y))] + Self.stroke(color, width: width))
    case .text(let run):
      text(run, in: frame, into: &writer)
    case .image(let image):
      self.image(image, in: frame, into: &writer)
    case .textField(let field):
      textField(field, in: frame, into: &writer)
    case .button(let button):
      self.button(button, in: frame, into: &writer)
    case .toggle(let isOn, _):
      toggle(isOn, in: frame, into: &writer)
    case .checkBox(_, let isOn, let isRadio, let run):
      checkBox(isOn: isOn, isRadio: isRadio, run: run, in: frame, into: &writer)
    case .segments(let titles, let selected, _):
      segments(titles, selected: selected, in: frame, into: &writer)
    case .value(let value):
      self.value(value, in: frame, into: &writer)
    case .date(let date):
      var field = TextFieldContent(text: date.text, placeholder: nil, focused: false, borderStyle: 3, run: date.run, background: nil)
      field.run.alignment = .center
      textField(field, in: frame, into: &writer)
    case .rows(let rows):
      self.rows(rows, in: frame, into: &writer)
    case .navigationBar(let bar):
      navigationBar(bar, in: frame, into: &writer)
    case .tabBar(let bar):
      tabBar(bar, in: frame, into: &writer)
    case .titleBar(let title):
      titleBar(title, in: frame, into: &writer)
    case .arrow(let from, let to, let label):
      arrow(from: from, to: to, label: label, into: &writer)
    }
  }
}
