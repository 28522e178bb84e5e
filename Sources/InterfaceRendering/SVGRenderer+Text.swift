import Foundation
import InterfaceObjects

extension SVGRenderer {
  /// The width a text is estimated to take (``ResolvedFont/estimatedWidth(of:)``).
  static func estimatedWidth(_ text: Substring, font: ResolvedFont) -> Double { font.estimatedWidth(of: text) }

  /// The lines `run` shows in `width`: its paragraphs, wrapped at spaces when it may have more
  /// than one line, at most `maximumLines` (0: as many as `height` holds); the last one shown
  /// cut with "…" when text is left over.
  static func lines(of run: TextRun, width: Double, height: Double) -> [String] {
    let lineHeight = run.font.size * 1.2
    let limit = run.maximumLines > 0 ? run.maximumLines : max(1, Int(height / lineHeight + 0.25))
    var lines: [String] = []
    for paragraph in run.text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard run.maximumLines != 1, estimatedWidth(paragraph, font: run.font) > width else {
        lines.append(String(paragraph))
        continue
      }
      var current = ""
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
        let candidate = current.isEmpty ? String(word) : current + " " + word
        if !current.isEmpty, estimatedWidth(Substring(candidate), font: run.font) > width {
          lines.append(current)
          current = String(word)
        } else {
          current = candidate
        }
      }
      lines.append(current)
    }
    guard lines.count > limit || (lines.count == 1 && estimatedWidth(Substring(lines[0]), font: run.font) > width) else { return lines }
    var shown = Array(lines.prefix(limit))
    var last = shown[shown.count - 1]
    while !last.isEmpty, estimatedWidth(Substring(last + "…"), font: run.font) > width { last.removeLast() }
    shown[shown.count - 1] = last + "…"
    return shown
  }

  /// `run` in `frame`: lines centred vertically as a block, aligned left, centre or right,
  /// clipped to the frame's height and, widened by a fifth on each side, its width (a fallback
  /// font may be a little wider than the document's: better a letter past the frame than cut).
  func text(_ run: TextRun, in frame: CGRect, inset: Double = 0, into writer: inout SVGWriter) {
    guard !run.text.isEmpty, frame.width > 0, frame.height > 0 else { return }
    let box = frame.insetBy(dx: inset, dy: 0)
    let lines = Self.lines(of: run, width: box.width, height: box.height)
    let lineHeight = run.font.size * 1.2
    let blockTop = box.midY - Double(lines.count) * lineHeight / 2
    let (x, anchor): (Double, String?) =
      switch run.alignment {
      case .center: (box.midX, "middle")
      case .right: (box.maxX, "end")
      default: (box.minX, nil)
      }
    let families = run.font.families.map { $0.contains(" ") ? "'" + $0 + "'" : $0 }.joined(separator: ", ")
    var attributes: [(String, String?)] = [
      ("font-family", families), ("font-size", Self.n(run.font.size)), ("font-weight", run.font.weight == 400 ? nil : String(run.font.weight)),
      ("font-style", run.font.isItalic ? "italic" : nil), ("text-anchor", anchor), ("xml:space", "preserve"),
      ("clip-path", "url(#\(writer.clipID(for: frame.insetBy(dx: -frame.width / 5, dy: 0))))"),
    ]
    attributes += Self.fill(run.color)
    for (index, line) in lines.enumerated() where !line.isEmpty {
      let baseline = blockTop + Double(index) * lineHeight + lineHeight / 2 + run.font.size * 0.35
      writer.element("text", [("x", Self.n(x)), ("y", Self.n(baseline))] + attributes, text: line)
    }
  }

  /// A text run of the palette's text colour at `size` points (chrome's own labels).
  func chromeRun(_ text: String, size: Double, color: RGBAColor? = nil, weight: Int = 400, alignment: TextAlignment = .center) -> TextRun {
    var font = FontResolver.resolve(nil, defaultSize: size)
    font.weight = weight
    return TextRun(text: text, font: font, color: color ?? palette.text, alignment: alignment)
  }
}
