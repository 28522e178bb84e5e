import Foundation
import InterfaceObjects

/// Several scenes on one picture, each captioned and framed, placed along their links (a
/// storyboard's relationship segues and segues: ``grid()``), with a labelled arrow per link from
/// the source scene's edge to the destination's facing edge.
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

  /// Where each scene goes, as (column, row). With links, as Interface Builder's canvas flows:
  /// a scene's column is its depth along the links from the first scene not yet placed (the
  /// initial one first), each column filled top down; scenes on no link fill rows below, left
  /// to right. Without links, rows of ⌈√n⌉.
  public func grid() -> [(column: Int, row: Int)] {
    let identifiers = scenes.map(\.identifier)
    let known = Set(identifiers)
    let useful = links.filter { known.contains($0.from) && known.contains($0.to) && $0.from != $0.to }
    guard !useful.isEmpty else {
      let columns = max(1, Int(Double(scenes.count).squareRoot().rounded(.up)))
      return scenes.indices.map { ($0 % columns, $0 / columns) }
    }
    var next: [String: [String]] = [:]
    for link in useful { next[link.from, default: []].append(link.to) }
    var depth: [String: Int] = [:]
    for start in identifiers where depth[start] == nil {
      depth[start] = 0
      var queue = [start]
      var position = 0
      while position < queue.count {
        let current = queue[position]
        position += 1
        for destination in next[current] ?? [] where depth[destination] == nil {
          depth[destination] = depth[current]! + 1
          queue.append(destination)
        }
      }
    }
    // Scenes on no link go in rows of their own below, as wide as the linked part.
    let linked = Set(useful.flatMap { [$0.from, $0.to] })
    var filled: [Int: Int] = [:]
    var seen: Set<String> = []
    var places: [(column: Int, row: Int)?] = identifiers.map { identifier in
      guard linked.contains(identifier), seen.insert(identifier).inserted else { return nil }
      let column = depth[identifier] ?? 0
      let row = filled[column, default: 0]
      filled[column] = row + 1
      return (column, row)
    }
    let width = max(1, (filled.keys.max() ?? 0) + 1)
    let firstFreeRow = (filled.values.max() ?? 0)
    var free = 0
    for index in places.indices where places[index] == nil {
      places[index] = (free % width, firstFreeRow + free / width)
      free += 1
    }
    return places.map { $0! }
  }

  /// The sheet as one scene named `identifier`: scenes on a grid (``grid()``), each column as
  /// wide as its widest scene, each row as tall as its tallest.
  public func scene(identifier: String, caption: String, palette: Palette) -> RenderedScene {
    let places = grid()
    let columns = (places.map(\.column).max() ?? 0) + 1
    let rows = (places.map(\.row).max() ?? 0) + 1
    var widths = Array(repeating: 0.0, count: columns), heights = Array(repeating: 0.0, count: rows)
    for (index, scene) in scenes.enumerated() {
      let place = places[index]
      widths[place.column] = max(widths[place.column], scene.size.width)
      heights[place.row] = max(heights[place.row], scene.size.height)
    }
    var rectangles: [String: CGRect] = [:]
    var primitives: [DrawingPrimitive] = []
    let frameColor = palette.named("systemGray")!
    for (index, scene) in scenes.enumerated() {
      let column = places[index].column, row = places[index].row
      let x = gap / 2 + widths.prefix(column).reduce(0, +) + Double(column) * gap
      let y = gap / 2 + heights.prefix(row).reduce(0, +) + Double(row) * (gap + captionHeight) + captionHeight
      let rect = CGRect(x: x, y: y, width: scene.size.width, height: scene.size.height)
      rectangles[scene.identifier] = rectangles[scene.identifier] ?? rect
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
      guard let source = rectangles[link.from], let destination = rectangles[link.to], source != destination else { continue }
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
