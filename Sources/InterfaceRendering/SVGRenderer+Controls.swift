import Foundation
import InterfaceObjects

extension SVGRenderer {
  /// The media type of an image file by its first bytes (PNG, JPEG, GIF, SVG), or `nil`.
  static func mediaType(of bytes: [UInt8]) -> String? {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
    let head = String(decoding: bytes.prefix(512), as: UTF8.self)
    if head.contains("<svg") { return "image/svg+xml" }
    return nil
  }

  /// An image: its file embedded when found and of a known type, scaled to fit; else a
  /// placeholder (a dashed box crossed, with the image's name).
  func image(_ image: ImageReference, in frame: CGRect, into writer: inout SVGWriter) {
    guard frame.width > 0, frame.height > 0 else { return }
    if let path = image.path, let bytes = readFile(path), let type = Self.mediaType(of: bytes) {
      writer.element(
        "image",
        Self.rect(frame) + [("preserveAspectRatio", "xMidYMid meet"), ("xlink:href", "data:\(type);base64," + Data(bytes).base64EncodedString())])
      return
    }
    let line = palette.named("secondaryLabel")!
    writer.element("rect", Self.rect(frame.insetBy(dx: 0.5, dy: 0.5), radius: 3) + Self.fill(palette.named("systemGray6")!) + Self.stroke(line) + [("stroke-dasharray", "3 2")])
    writer.element("line", [("x1", Self.n(frame.minX)), ("y1", Self.n(frame.minY)), ("x2", Self.n(frame.maxX)), ("y2", Self.n(frame.maxY))] + Self.stroke(line.fading(0.4), width: 0.5))
    writer.element("line", [("x1", Self.n(frame.maxX)), ("y1", Self.n(frame.minY)), ("x2", Self.n(frame.minX)), ("y2", Self.n(frame.maxY))] + Self.stroke(line.fading(0.4), width: 0.5))
    // The name as large as fits the width (10 points at most, 5 at least), on up to two lines.
    let fitting = (frame.width - 4) / max(1, Double(image.name.count) * 0.55)
    var label = chromeRun(image.name, size: max(5, min(10, frame.height / 2, fitting)), color: line)
    label.maximumLines = 2
    text(label, in: frame, inset: 2, into: &writer)
  }

  /// A text-entry box: its background and border by style, its text (or placeholder) inset.
  func textField(_ field: TextFieldContent, in frame: CGRect, into writer: inout SVGWriter) {
    let background = field.background ?? palette.named("textBackground")!
    switch field.borderStyle {
    case 1: writer.element("rect", Self.rect(frame.insetBy(dx: 0.5, dy: 0.5)) + Self.fill(background) + Self.stroke(palette.text))
    case 2: writer.element("rect", Self.rect(frame.insetBy(dx: 0.5, dy: 0.5)) + Self.fill(background) + Self.stroke(palette.separator))
    case 3: writer.element("rect", Self.rect(frame.insetBy(dx: 0.5, dy: 0.5), radius: 5) + Self.fill(background) + Self.stroke(palette.separator))
    default: if field.background != nil { writer.element("rect", Self.rect(frame) + Self.fill(background)) }
    }
    var run = field.run
    if run.text.isEmpty, let placeholder = field.placeholder {
      run.text = placeholder
      run.color = palette.secondaryText
    }
    text(run, in: frame, inset: field.borderStyle == 3 ? 7 : 4, into: &writer)
  }

  /// A button: a bezel (AppKit's push buttons) and its title, or its image.
  func button(_ button: ButtonContent, in frame: CGRect, into writer: inout SVGWriter) {
    if button.isBezeled {
      let bezel = frame.insetBy(dx: frame.width > 12 ? 2 : 0, dy: frame.height > 12 ? 2 : 0)
      writer.element("rect", Self.rect(bezel, radius: 5) + Self.fill(palette.control) + Self.stroke(palette.separator))
    }
    if button.isPopUp {
      // The pop-up's arrows at the right end of the bezel.
      let x = frame.maxX - 12, y = frame.midY
      let up = "M\(Self.n(x - 3)),\(Self.n(y - 1.5)) L\(Self.n(x)),\(Self.n(y - 4.5)) L\(Self.n(x + 3)),\(Self.n(y - 1.5))"
      let down = "M\(Self.n(x - 3)),\(Self.n(y + 1.5)) L\(Self.n(x)),\(Self.n(y + 4.5)) L\(Self.n(x + 3)),\(Self.n(y + 1.5))"
      let arrows: [(String, String?)] = [("d", up + " " + down), ("fill", "none")]
      writer.element("path", arrows + Self.stroke(palette.text, width: 1.2))
      text(button.run, in: CGRect(x: frame.minX + 4, y: frame.minY, width: max(0, frame.width - 24), height: frame.height), inset: 4, into: &writer)
      return
    }
    if let image = button.image, button.title.isEmpty {
      self.image(image, in: frame.insetBy(dx: button.isBezeled ? 4 : 0, dy: button.isBezeled ? 4 : 0), into: &writer)
      return
    }
    text(button.run, in: frame, inset: 4, into: &writer)
  }

  /// A check box (a rounded square, ✓ when on) or a radio button (a circle, a dot when on), 14
  /// points, and its title to the right.
  func checkBox(isOn: Bool, isRadio: Bool, run: TextRun, in frame: CGRect, into writer: inout SVGWriter) {
    let side = min(14, frame.height)
    let box = CGRect(x: frame.minX + 1, y: frame.midY - side / 2, width: side, height: side)
    let fill = isOn ? palette.accent : palette.named("textBackground")!
    if isRadio {
      writer.element("circle", [("cx", Self.n(box.midX)), ("cy", Self.n(box.midY)), ("r", Self.n(side / 2 - 0.5))] + Self.fill(fill) + Self.stroke(palette.separator))
      if isOn { writer.element("circle", [("cx", Self.n(box.midX)), ("cy", Self.n(box.midY)), ("r", Self.n(side / 5))] + Self.fill(.white)) }
    } else {
      writer.element("rect", Self.rect(box.insetBy(dx: 0.5, dy: 0.5), radius: 3) + Self.fill(fill) + Self.stroke(palette.separator))
      if isOn {
        let start = "M\(Self.n(box.minX + side * 0.25)),\(Self.n(box.midY))"
        let corner = " L\(Self.n(box.minX + side * 0.43)),\(Self.n(box.maxY - side * 0.28))"
        let end = " L\(Self.n(box.maxX - side * 0.22)),\(Self.n(box.minY + side * 0.25))"
        let path = start + corner + end
        writer.element("path", [("d", path), ("fill", "none"), ("stroke-linecap", "round")] + Self.stroke(.white, width: 1.8))
      }
    }
    text(run, in: CGRect(x: box.maxX + 5, y: frame.minY, width: max(0, frame.maxX - box.maxX - 5), height: frame.height), into: &writer)
  }

  /// A switch: a pill (green when on) with its knob.
  func toggle(_ isOn: Bool, in frame: CGRect, into writer: inout SVGWriter) {
    let height = min(frame.height, 31), width = min(frame.width, height * 51 / 31)
    let pill = CGRect(x: frame.minX, y: frame.midY - height / 2, width: width, height: height)
    writer.element("rect", Self.rect(pill, radius: height / 2) + Self.fill(isOn ? palette.named("systemGreen")! : palette.named("systemGray5")!))
    let radius = height / 2 - 2
    let knobX = isOn ? pill.maxX - height / 2 : pill.minX + height / 2
    writer.element("circle", [("cx", Self.n(knobX)), ("cy", Self.n(pill.midY)), ("r", Self.n(max(0, radius)))] + Self.fill(.white) + Self.stroke(RGBAColor(white: 0, alpha: 0.1), width: 0.5))
  }

  /// A segmented control: equal segments in a rounded border, the selected one filled.
  func segments(_ titles: [String], selected: Int, in frame: CGRect, into writer: inout SVGWriter) {
    guard !titles.isEmpty else { return }
    writer.element("rect", Self.rect(frame.insetBy(dx: 0.5, dy: 0.5), radius: 5) + [("fill", "none")] + Self.stroke(palette.accent))
    let width = frame.width / Double(titles.count)
    for (index, title) in titles.enumerated() {
      let segment = CGRect(x: frame.minX + Double(index) * width, y: frame.minY, width: width, height: frame.height)
      if index == selected { writer.element("rect", Self.rect(segment.insetBy(dx: 1, dy: 1), radius: 4) + Self.fill(palette.accent)) }
      if index > 0 {
        writer.element("line", [("x1", Self.n(segment.minX)), ("y1", Self.n(frame.minY)), ("x2", Self.n(segment.minX)), ("y2", Self.n(frame.maxY))] + Self.stroke(palette.accent))
      }
      text(chromeRun(title, size: 13, color: index == selected ? .white : palette.accent), in: segment, inset: 2, into: &writer)
    }
  }

  /// A slider (track, the part up to the value tinted, the knob) or a stepper (− and +).
  func value(_ value: ValueContent, in frame: CGRect, into writer: inout SVGWriter) {
    switch value.kind {
    case .stepper:
      writer.element("rect", Self.rect(frame.insetBy(dx: 0.5, dy: 0.5), radius: 5) + Self.fill(palette.control) + Self.stroke(palette.separator))
      writer.element("line", [("x1", Self.n(frame.midX)), ("y1", Self.n(frame.minY + 4)), ("x2", Self.n(frame.midX)), ("y2", Self.n(frame.maxY - 4))] + Self.stroke(palette.separator))
      let half = frame.width / 2
      text(chromeRun("−", size: 17), in: CGRect(x: frame.minX, y: frame.minY, width: half, height: frame.height), into: &writer)
      text(chromeRun("+", size: 17), in: CGRect(x: frame.minX + half, y: frame.minY, width: half, height: frame.height), into: &writer)
    case .slider:
      let span = value.maximum - value.minimum
      let fraction = span > 0 ? min(1, max(0, (value.value - value.minimum) / span)) : 0
      let knob = min(frame.height, 28) / 2
      let left = frame.minX + knob, right = frame.maxX - knob
      let x = left + (right - left) * fraction
      writer.element("line", [("x1", Self.n(left)), ("y1", Self.n(frame.midY)), ("x2", Self.n(right)), ("y2", Self.n(frame.midY)), ("stroke-linecap", "round")] + Self.stroke(palette.named("systemGray4")!, width: 4))
      writer.element("line", [("x1", Self.n(left)), ("y1", Self.n(frame.midY)), ("x2", Self.n(x)), ("y2", Self.n(frame.midY)), ("stroke-linecap", "round")] + Self.stroke(value.tint, width: 4))
      writer.element("circle", [("cx", Self.n(x)), ("cy", Self.n(frame.midY)), ("r", Self.n(max(0, knob - 1)))] + Self.fill(.white) + Self.stroke(RGBAColor(white: 0, alpha: 0.2), width: 0.5))
    }
  }

  /// A table: AppKit's header (column titles, widths), rows and separators every row height.
  func rows(_ rows: RowsContent, in frame: CGRect, into writer: inout SVGWriter) {
    var top = frame.minY
    if !rows.columnTitles.isEmpty {
      let header = CGRect(x: frame.minX, y: frame.minY, width: frame.width, height: 24)
      writer.element("rect", Self.rect(header) + Self.fill(palette.bar))
      var x = frame.minX
      for column in rows.columnTitles {
        let width = column.width > 0 ? column.width : frame.width / Double(rows.columnTitles.count)
        text(chromeRun(column.title, size: 11, alignment: .left), in: CGRect(x: x, y: header.minY, width: width, height: header.height), inset: 4, into: &writer)
        x += width
        writer.element("line", [("x1", Self.n(x)), ("y1", Self.n(header.minY + 4)), ("x2", Self.n(x)), ("y2", Self.n(header.maxY - 4))] + Self.stroke(rows.separator))
      }
      writer.element("line", [("x1", Self.n(frame.minX)), ("y1", Self.n(header.maxY)), ("x2", Self.n(frame.maxX)), ("y2", Self.n(header.maxY))] + Self.stroke(rows.separator))
      top = header.maxY
    }
    guard rows.rowHeight > 0 else { return }
    var y = top
    var index = 0
    while y + rows.rowHeight <= frame.maxY, index < 200 {
      let row = CGRect(x: frame.minX, y: y, width: frame.width, height: rows.rowHeight)
      if rows.highlighted == index { writer.element("rect", Self.rect(row) + Self.fill(palette.accent)) }
      if index < rows.rows.count {
        var run = rows.run
        run.text = rows.rows[index]
        run.alignment = .left
        if rows.highlighted == index { run.color = .white }
        text(run, in: row, inset: 8, into: &writer)
      }
      y += rows.rowHeight
      writer.element("line", [("x1", Self.n(frame.minX + 8)), ("y1", Self.n(y)), ("x2", Self.n(frame.maxX)), ("y2", Self.n(y))] + Self.stroke(rows.separator, width: 0.5))
      index += 1
    }
  }
}
