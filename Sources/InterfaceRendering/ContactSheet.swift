import Foundation
import InterfaceObjects

/// Several scenes on one picture, in a grid in the given order, each captioned and framed, with
/// labelled arrows between them (a storyboard's segues: from the source scene's edge to the
/// destination's facing edge).
public struct ContactSheet {
  /// A link between two scenes by identifier.
  public struct Link: Hashable, Sendable {
    public var from: String
    public var to: String
    public var label: String
    public init(from: String, to: String, label: String) {
      self.from = from
      self.to = to
      self.label = label
    }
  }

  public var scenes: [RenderedScene]
  public var links: [Link]
  /// The space between scenes (room for the arrows' labels).
  public var gap = 100.0
  /// The caption's height above each scene.
  public var captionHeight = 28.0

  public init(scenes: [RenderedScene], links: [Link]) {
    self.scenes = scenes
    self.links = links
  }

  /// The sheet as one scene named `identifier`: scenes in rows of ⌈√n⌉, each row as tall as its
  /// tallest scene, each column as wide as its widest.
  public func scene(identifier: String, caption: String, palette: Palette) -> RenderedScene {
    let columns = max(1, Int(Double(scenes.count).squareRoot().rounded(.up)))
    let rows = (scenes.count + columns - 1) / columns
    var widths = Array(repeating: 0.0, count: columns), heights = Array(repeating: 0.0, count: max(1, rows))
    for (index, scene) in scenes.enumerated() {
      widths[index % columns] = max(widths[index % columns], scene.size.width)
      heights[index / columns] = max(heights[index / columns], scene.size.height)
    }
    var places: [String: CGRect] = [:]
    var primitives: [DrawingPrimitive] = []
    let frameColor = palette.named("systemGray")!
    for (index, scene) in scenes.enumerated() {
      let column = index % columns, row = index / columns
      let x = gap / 2 + widths.prefix(column).reduce(0, +) + Double(column) * gap
      let y = gap / 2 + heights.prefix(row).reduce(0, +) + Double(row) * (gap + captionHeight) + captionHeight
      let rect = CGRect(x: x, y: y, width: scene.size.width, height: scene.size.height)
      places[scene.identifier] = places[scene.identifier] ?? rect
      var caption = TextRun(text: scene.caption, font: FontResolver.resolve(nil, defaultSize: 14), color: palette.text, alignment: .left)
      caption.font.weight = 600
      primitives.append(DrawingPrimitive(frame: CGRect(x: x, y: y - captionHeight, width: scene.size.width, height: captionHeight - 4), content: .text(caption)))
      if let background = scene.background { primitives.append(DrawingPrimitive(frame: rect, content: .fill(background, cornerRadius: 0))) }
      for primitive in scene.primitives {
        var moved = primitive.offsetBy(dx: x, dy: y)
        moved.clip = moved.clip.map { $0.intersection(rect) } ?? rect
        primitives.append(moved)
      }
      primitives.append(DrawingPrimitive(frame: rect.insetBy(dx: -1, dy: -1), content: .stroke(frameColor, lineWidth: 1, cornerRadius: 0)))
    }
    for link in links {
      guard let source = places[link.from], let destination = places[link.to], source != destination else { continue }
      let (from, to) = Self.endpoints(from: source, to: destination)
      primitives.append(DrawingPrimitive(frame: CGRect(x: min(from.x, to.x), y: min(from.y, to.y), width: abs(to.x - from.x), height: abs(to.y - from.y)), content: .arrow(from: from, to: to, label: link.label)))
    }
    let width = widths.reduce(0, +) + Double(columns) * gap
    let height = heights.reduce(0, +) + Double(rows) * (gap + captionHeight)
    return RenderedScene(identifier: identifier, caption: caption, size: CGSize(width: width, height: height), background: palette.named("systemGray6"), primitives: primitives)
  }

  /// Where an arrow between two scene rectangles starts and ends: the facing edges' midpoints
  /// (side by side when they overlap vertically, else top and bottom).
  static func endpoints(from source: CGRect, to destination: CGRect) -> (CGPoint, CGPoint) {
    let sideBySide = source.maxY > destination.minY && destination.maxY > source.minY
    if sideBySide || abs(destination.midX - source.midX) > abs(destination.midY - source.midY) {
      let y = (max(source.minY, destination.minY) + min(source.maxY, destination.maxY)) / 2
      let rightward = destination.midX >= source.midX
      let fromY = sideBySide ? y : source.midY, toY = sideBySide ? y : destination.midY
      return rightward
        ? (CGPoint(x: source.maxX, y: fromY), CGPoint(x: destination.minX, y: toY))
        : (CGPoint(x: source.minX, y: fromY), CGPoint(x: destination.maxX, y: toY))
    }
    let downward = destination.midY >= source.midY
    return downward
      ? (CGPoint(x: source.midX, y: source.maxY), CGPoint(x: destination.midX, y: destination.minY))
      : (CGPoint(x: source.midX, y: source.minY), CGPoint(x: destination.midX, y: destination.maxY))
  }
}
