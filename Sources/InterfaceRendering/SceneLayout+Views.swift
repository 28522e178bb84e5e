import Foundation
import InterfaceObjects

extension SceneLayout {
  /// One piece of a view's drawing: its content and, when not the view's frame, where.
  struct Piece {
    var frame: CGRect?
    var content: DrawingPrimitive.Content
    init(_ content: DrawingPrimitive.Content, at frame: CGRect? = nil) {
      self.content = content
      self.frame = frame
    }
  }

  /// Text of `font` (else the platform's default size), `color` (else the label colour), faded.
  func run(
    _ text: String, font: Font?, color: Color?, alignment: TextAlignment = .natural, lines: Int = 1, size: Double? = nil,
    opacity: Double = 1
  ) -> TextRun {
    TextRun(
      text: text, font: FontResolver.resolve(font, defaultSize: size ?? defaultTextSize),
      color: (palette.resolve(color) ?? palette.text).fading(opacity), alignment: alignment, maximumLines: lines)
  }

  /// What `view` draws itself, by kind (its subviews are drawn after it).
  func contents(of view: View, frame: CGRect, opacity: Double) -> [Piece] {
    let focused = focusedView === view
    switch view {
    case let label as Label:
      return [Piece(.text(run(label.text, font: label.font, color: label.textColor, alignment: label.textAlignment, lines: label.numberOfLines, opacity: opacity)))]
    case let field as TextField:
      return textField(field, focused: focused, opacity: opacity)
    case let popUp as PopUpButton:
      let title = popUp.titleOfSelectedItem ?? popUp.title
      var content = ButtonContent(title: title, image: nil, focused: focused, isBezeled: true, run: run(title, font: popUp.cell?.font, color: nil, opacity: opacity))
      content.isPopUp = true
      content.run.alignment = .left
      return [Piece(.button(content))]
    case let button as Button:
      return self.button(button, focused: focused, opacity: opacity)
    case let picker as DatePicker:
      let text = formatDate(picker.date, picker.datePickerMode)
      return [Piece(.date(DateContent(text: text, focused: focused, parts: datePickerParts?(picker), run: run(text, font: picker.cell?.font, color: nil, opacity: opacity))))]
    case let toggle as Switch:
      return [Piece(.toggle(isOn: toggle.isOn, focused: focused))]
    case let segments as SegmentedControl:
      return [Piece(.segments(titles: segments.segmentTitles, selected: segments.selectedSegmentIndex, focused: focused))]
    case let range as RangeControl:
      let kind: ValueContent.Kind = range is Stepper ? .stepper : .slider
      return [Piece(.value(ValueContent(kind: kind, value: range.value, minimum: range.minimumValue, maximum: range.maximumValue, focused: focused, tint: palette.accent)))]
    case let image as ImageView:
      guard let name = image.image?.name, !name.isEmpty else { return [] }
      return [Piece(.image(ImageReference(name: name, path: imagePath(name))))]
    case let table as TableView:
      return [Piece(.rows(rows(of: table, opacity: opacity)))]
    case let box as Box:
      return self.box(box, frame: frame, opacity: opacity)
    case let tabs as TabView:
      let titles = tabs.tabViewItems.map(\.label)
      let selected = tabs.selectedTabViewItem.flatMap { item in tabs.tabViewItems.firstIndex { $0 === item } }
      let bar = CGRect(x: frame.minX, y: frame.minY, width: frame.width, height: min(frame.height, 24))
      return [
        Piece(.stroke(palette.separator, lineWidth: 1, cornerRadius: 4), at: CGRect(x: frame.minX, y: frame.minY + 12, width: frame.width, height: max(0, frame.height - 12))),
        Piece(.tabBar(TabBarContent(titles: titles, selected: selected, atBottom: false, background: palette.control, run: run("", font: nil, color: nil, opacity: opacity))), at: bar),
      ]
    case let text as TextView:
      return [
        Piece(.fill(palette.named("textBackground")!, cornerRadius: 0)),
        Piece(.text(run(text.text, font: nil, color: nil, alignment: .left, lines: 0, opacity: opacity))),
      ]
    case let clip as ClipView where platform == .appKit && clip.drawsBackground && clip.documentView is TableView:
      return [Piece(.fill(palette.named("controlBackground")!, cornerRadius: 0))]
    default:
      return []
    }
  }

  /// A text field: an AppKit label (not editable, no bezel or border) as text; else a box.
  func textField(_ field: TextField, focused: Bool, opacity: Double) -> [Piece] {
    let cell = field.cell as? TextFieldCell
    let textRun = run(field.text, font: field.font, color: field.textColor, alignment: field.textAlignment, opacity: opacity)
    if platform == .appKit, !field.isEditable, field.borderStyle == 0 {
      var pieces: [Piece] = []
      if let cell, cell.drawsBackground, let background = palette.resolve(cell.backgroundColor) {
        pieces.append(Piece(.fill(background.fading(opacity), cornerRadius: 0)))
      }
      var label = textRun
      label.maximumLines = 0
      pieces.append(Piece(.text(label)))
      return pieces
    }
    let background = cell.flatMap { $0.drawsBackground ? palette.resolve($0.backgroundColor) : nil }
    let style = platform == .appKit && field.borderStyle == 0 ? 2 : field.borderStyle
    return [
      Piece(.textField(TextFieldContent(text: field.text, placeholder: field.placeholder, focused: focused, borderStyle: style, run: textRun, background: background)))
    ]
  }

  /// A button: its normal title and image; AppKit's bezel styles drawn as a bezel, UIKit's
  /// system buttons as tinted text.
  func button(_ button: Button, focused: Bool, opacity: Double) -> [Piece] {
    let cell = button.cell as? ButtonCell
    if let cell, cell.buttonType == 3 || cell.buttonType == 4 {
      var label = run(button.title, font: cell.font, color: nil, alignment: .left, opacity: opacity)
      label.maximumLines = 1
      return [Piece(.checkBox(title: button.title, isOn: button.state != 0, isRadio: cell.buttonType == 4, run: label))]
    }
    let image = button.image.flatMap { $0.name.isEmpty ? nil : ImageReference(name: $0.name, path: imagePath($0.name)) }
    var textRun = run(button.title, font: cell?.font, color: nil, alignment: .center, size: platform == .uiKit ? 15 : 13, opacity: opacity)
    let bezeled = platform == .appKit && (cell?.bezelStyle ?? 0) != 0
    if platform == .uiKit { textRun.color = palette.accent.fading(opacity) }
    return [Piece(.button(ButtonContent(title: button.title, image: image, focused: focused, isBezeled: bezeled, run: textRun)))]
  }

  /// A box: its border (or separator line) and its title above the content.
  func box(_ box: Box, frame: CGRect, opacity: Double) -> [Piece] {
    // NSBoxType: 0 primary, 1 secondary, 2 separator, 3 old style, 4 custom.
    if box.boxType == 2 {
      let horizontal = frame.width >= frame.height
      let from = horizontal ? CGPoint(x: frame.minX, y: frame.midY) : CGPoint(x: frame.midX, y: frame.minY)
      let to = horizontal ? CGPoint(x: frame.maxX, y: frame.midY) : CGPoint(x: frame.midX, y: frame.maxY)
      return [Piece(.line(from: from, to: to, palette.separator, width: 1))]
    }
    var pieces: [Piece] = []
    let titled = !box.title.isEmpty
    let border = CGRect(x: frame.minX, y: frame.minY + (titled ? 16 : 0), width: frame.width, height: max(0, frame.height - (titled ? 16 : 0)))
    pieces.append(Piece(.fill(RGBAColor(white: appearanceIsDark ? 1 : 0, alpha: 0.04), cornerRadius: 5), at: border))
    pieces.append(Piece(.stroke(palette.separator, lineWidth: 1, cornerRadius: 5), at: border))
    if titled {
      var title = run(box.title, font: nil, color: nil, size: 11, opacity: opacity)
      title.alignment = .left
      pieces.append(Piece(.text(title), at: CGRect(x: frame.minX + 4, y: frame.minY, width: frame.width - 4, height: 14)))
    }
    return pieces
  }

  var appearanceIsDark: Bool { palette.appearance == .dark }

  /// A table's columns (AppKit's header titles and widths), its rows from ``tableRows``.
  func rows(of table: TableView, opacity: Double) -> RowsContent {
    let (rows, highlighted) = tableRows(table)
    let columns = table.tableColumns.map { (title: $0.title, width: $0.width) }
    let height = table.rowHeight > 0 ? table.rowHeight : (platform == .uiKit ? 44 : 17)
    return RowsContent(
      columnTitles: columns, rows: rows, highlighted: highlighted, rowHeight: height, run: run("", font: nil, color: nil, opacity: opacity),
      separator: palette.separator)
  }
}
