import Foundation
import InterfaceObjects

extension SVGRenderer {
  /// A navigation bar: its background and bottom line, the title centred, `‹` and the back
  /// title on the left, the bar button items' titles (else their image names) at the edges.
  func navigationBar(_ bar: NavigationBarContent, in frame: CGRect, into writer: inout SVGWriter) {
    writer.element("rect", Self.rect(frame) + Self.fill(bar.background))
    writer.element("line", [("x1", Self.n(frame.minX)), ("y1", Self.n(frame.maxY)), ("x2", Self.n(frame.maxX)), ("y2", Self.n(frame.maxY))] + Self.stroke(palette.separator, width: 0.5))
    var title = bar.run
    title.color = palette.text
    text(title, in: frame.insetBy(dx: frame.width / 4, dy: 0), into: &writer)
    var left = frame.minX + 8
    if let back = bar.backTitle {
      let run = chromeRun("‹ " + back, size: 17, color: palette.accent, alignment: .left)
      text(run, in: CGRect(x: left, y: frame.minY, width: frame.width / 4, height: frame.height), into: &writer)
      left += frame.width / 4
    }
    for item in bar.leftItems {
      let label = item.title ?? item.image?.name ?? ""
      let width = Self.estimatedWidth(Substring(label), font: FontResolver.resolve(nil, defaultSize: 17)) + 8
      text(chromeRun(label, size: 17, color: palette.accent, alignment: .left), in: CGRect(x: left, y: frame.minY, width: width, height: frame.height), into: &writer)
      left += width + 8
    }
    var right = frame.maxX - 8
    for item in bar.rightItems {
      let label = item.title ?? item.image?.name ?? ""
      let width = Self.estimatedWidth(Substring(label), font: FontResolver.resolve(nil, defaultSize: 17)) + 8
      text(chromeRun(label, size: 17, color: palette.accent, weight: item.isEnabled ? 400 : 300, alignment: .right), in: CGRect(x: right - width, y: frame.minY, width: width, height: frame.height), into: &writer)
      right -= width + 8
    }
  }

  /// A tab bar: at the bottom (UIKit) its background and top line and the titles side by side,
  /// the selected one tinted; on top (an AppKit tab view) the titles as a segmented row.
  func tabBar(_ bar: TabBarContent, in frame: CGRect, into writer: inout SVGWriter) {
    guard !bar.titles.isEmpty else { return }
    if !bar.atBottom {
      let widths = bar.titles.map { Self.estimatedWidth(Substring($0), font: FontResolver.resolve(nil, defaultSize: 13)) + 20 }
      let total = widths.reduce(0, +)
      let row = CGRect(x: frame.midX - total / 2, y: frame.minY, width: total, height: min(frame.height, 24))
      writer.element("rect", Self.rect(row.insetBy(dx: 0.5, dy: 0.5), radius: 5) + Self.fill(bar.background) + Self.stroke(palette.separator))
      var x = row.minX
      for (index, title) in bar.titles.enumerated() {
        let tab = CGRect(x: x, y: row.minY, width: widths[index], height: row.height)
        if index == bar.selected { writer.element("rect", Self.rect(tab.insetBy(dx: 1, dy: 1), radius: 4) + Self.fill(palette.accent)) }
        text(chromeRun(title, size: 13, color: index == bar.selected ? .white : palette.text), in: tab, into: &writer)
        x += widths[index]
      }
      return
    }
    writer.element("rect", Self.rect(frame) + Self.fill(bar.background))
    writer.element("line", [("x1", Self.n(frame.minX)), ("y1", Self.n(frame.minY)), ("x2", Self.n(frame.maxX)), ("y2", Self.n(frame.minY))] + Self.stroke(palette.separator, width: 0.5))
    let width = frame.width / Double(bar.titles.count)
    for (index, title) in bar.titles.enumerated() {
      let tab = CGRect(x: frame.minX + Double(index) * width, y: frame.minY, width: width, height: frame.height)
      let color = index == bar.selected ? palette.accent : bar.run.color
      writer.element("circle", [("cx", Self.n(tab.midX)), ("cy", Self.n(tab.minY + 16)), ("r", "9")] + [("fill", "none")] + Self.stroke(color, width: 1.5))
      text(chromeRun(title, size: 10, color: color), in: CGRect(x: tab.minX, y: tab.minY + 28, width: tab.width, height: 16), into: &writer)
    }
  }

  /// A window's title bar: its background and bottom line, the three window buttons, the title.
  func titleBar(_ title: String, in frame: CGRect, into writer: inout SVGWriter) {
    writer.element("rect", Self.rect(frame) + Self.fill(palette.bar))
    writer.element("line", [("x1", Self.n(frame.minX)), ("y1", Self.n(frame.maxY - 0.5)), ("x2", Self.n(frame.maxX)), ("y2", Self.n(frame.maxY - 0.5))] + Self.stroke(palette.separator))
    for (index, color) in [0xFF5F57, 0xFEBC2E, 0x28C840].enumerated() {
      let fill = RGBAColor(red: Double(color >> 16) / 255, green: Double((color >> 8) & 0xFF) / 255, blue: Double(color & 0xFF) / 255)
      writer.element("circle", [("cx", Self.n(frame.minX + 14 + Double(index) * 20)), ("cy", Self.n(frame.midY)), ("r", "6")] + Self.fill(fill))
    }
    text(chromeRun(title, size: 13, weight: 600), in: frame.insetBy(dx: 80, dy: 0), into: &writer)
  }

  /// An arrow (a segue) from `from` to `to`, its label at the middle on a halo.
  func arrow(from: CGPoint, to: CGPoint, label: String, into writer: inout SVGWriter) {
    let color = palette.named("systemGray")!
    if !writer.hasArrowMarker {
      writer.define(
        "<marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"\(color.hex)\"/></marker>\n")
      writer.hasArrowMarker = true
    }
    writer.element(
      "line", [("x1", Self.n(from.x)), ("y1", Self.n(from.y)), ("x2", Self.n(to.x)), ("y2", Self.n(to.y)), ("marker-end", "url(#arrowhead)")] + Self.stroke(color, width: 2))
    guard !label.isEmpty else { return }
    let middle = CGPoint(x: (from.x + to.x) / 2, y: (from.y + to.y) / 2)
    let run = chromeRun(label, size: 11, color: palette.text)
    let width = Self.estimatedWidth(Substring(label), font: run.font) + 10
    let box = CGRect(x: middle.x - width / 2, y: middle.y - 9, width: width, height: 18)
    writer.element("rect", Self.rect(box, radius: 9) + Self.fill(palette.named("systemBackground")!) + Self.stroke(color, width: 1))
    text(run, in: box, into: &writer)
  }
}
