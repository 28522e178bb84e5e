
/// A cell (`NSCell`): what an AppKit control draws and edits — its contents, font, state and
/// flags. Controls read their title, value and state from it.
///
/// `NSCellFlags` bits used: state on `0x8000_0000`, disabled `0x2000_0000`, editable
/// `0x1000_0000`, selectable `0x0020_0001` (as the xib compiler writes them).
open class Cell: NibObject {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.cuttable(objectValue) { { [weak self] in self?.objectValue = nil } }
    references.cuttable(formatter) { { [weak self] in self?.formatter = nil } }
  }
  /// `stringValue` / `title`: the cell's text contents (`NSContents` when it is a string).
  public var title = ""
  /// The contents when they are not text (an image, a number).
  public var objectValue: Any?
  /// `font` (`NSSupport`).
  public var font: Font?
  /// `state`: 1 on, 0 off.
  public var state = 0
  /// `enabled`.
  public var isEnabled = true
  /// `editable`.
  public var isEditable = false
  /// `selectable`.
  public var isSelectable = false
  /// `tag`.
  public var tag = 0
  /// `alignment` (`NSCellFlags2` bits 26–28: left, right, center, justified, natural).
  public var alignment = TextAlignment.natural
  /// `bezeled` (`NSCellFlags` 0x00400000).
  public var isBezeled = false
  /// `bordered` (`NSCellFlags` 0x00800000).
  public var isBordered = false
  /// `formatter` (a date or number formatter object, as the nib made it).
  public var formatter: AnyObject?
  /// The control the cell belongs to (`controlView`): set by the control that holds the cell,
  /// cleared when that control goes (not a weak reference, which would slow every retain of the
  /// control).
  public var controlView: View? { controlViewStorage }
  unowned(unsafe) var controlViewStorage: View?

  public required init() { super.init() }

  /// `target` (weak) and `action`: a cell's own target–action (a matrix's cells, a table
  /// column's data cell), set by a nib's action connection whose source is the cell.
  public weak var target: AnyObject?
  public var action: String?

  public static let cellKeys = NibKeyTable(for: Cell.self) {
    $0.decode { cell, coder throws(InterfaceObjectsError) in try cell.decodeFlagsAndContents(from: coder) }
    $0.key("target", \.target)
    $0.key("action", \.action)
    $0.key("title", \.title)
    $0.key("stringValue", \.title)
    $0.key("state", \.state)
    $0.key("enabled", \.isEnabled)
    $0.key("editable", \.isEditable)
    $0.key("selectable", \.isSelectable)
    $0.object(\.font, from: "NSSupport", key: "font") { $0.font = $1 }
    $0.reference(\.formatter, from: "NSFormatter", key: "formatter") { $0.formatter = $1 }
    $0.integer(\.tag, from: "NSTag", key: "tag") { $0.tag = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { cellKeys }

  /// The flags words (`NSCellFlags`, `NSCellFlags2`) and `NSContents`: a string is the title,
  /// anything else the object value.
  private func decodeFlagsAndContents(from coder: NibCoder) throws(InterfaceObjectsError) {
    let flags = UInt32(truncatingIfNeeded: coder.decodeInteger(forKey: "NSCellFlags") ?? 0)
    state = flags & 0x8000_0000 != 0 ? 1 : 0
    isEnabled = flags & 0x2000_0000 == 0
    isEditable = flags & 0x1000_0000 != 0
    isSelectable = flags & 0x0020_0001 == 0x0020_0001
    isBezeled = flags & 0x0040_0000 != 0
    isBordered = flags & 0x0080_0000 != 0
    let flags2 = UInt32(truncatingIfNeeded: coder.decodeInteger(forKey: "NSCellFlags2") ?? 0)
    alignment = TextAlignment(appKitValue: Int((flags2 >> 26) & 7))
    let contents = try coder.decodeObject(forKey: "NSContents")
    if let text = contents as? String { title = text } else { objectValue = contents }
  }
}

/// `NSButtonCell`: alternate title, key equivalent, bezel style, images.
open class ButtonCell: Cell {
  public var alternateTitle = ""
  public var keyEquivalent = ""
  /// `bezelStyle` (1 rounded/push, 2 regular square, …).
  public var bezelStyle = 0
  public var image: Image?
  public var alternateImage: Image?
  /// `NSButtonType` (`NSAuxButtonType`): 3 a check box (switch), 4 a radio button, 0 and 7 push
  /// buttons.
  public var buttonType = 0

  public required init() { super.init() }

  public static let buttonCellKeys = NibKeyTable(for: ButtonCell.self, inheriting: cellKeys) {
    $0.string(\.alternateTitle, from: "NSAlternateContents", key: "alternateTitle") { $0.alternateTitle = $1 }
    $0.string(\.keyEquivalent, from: "NSKeyEquivalent", key: "keyEquivalent") { $0.keyEquivalent = $1 }
    $0.integer(\.bezelStyle, from: "NSBezelStyle", key: "bezelStyle") { $0.bezelStyle = $1 }
    $0.object(\.image, from: "NSNormalImage", key: "image") { $0.image = $1 }
    $0.object(\.alternateImage, from: "NSAlternateImage") { $0.alternateImage = $1 }
    $0.integer(\.buttonType, from: "NSAuxButtonType") { $0.buttonType = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { buttonCellKeys }
}

/// `NSPopUpButtonCell`: its menu and the selected item.
open class PopUpButtonCell: ButtonCell {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(menu)
  }
  /// The menu of choices; the cell owns it.
  public var menu: Menu?
  /// `indexOfSelectedItem` (−1 for none).
  public var indexOfSelectedItem = -1
  /// `pullsDown`.
  public var pullsDown = false

  public required init() { super.init() }

  public static let popUpButtonCellKeys = NibKeyTable(for: PopUpButtonCell.self, inheriting: buttonCellKeys) {
    $0.object(\.menu, from: "NSMenu") { $0.menu = $1 }
    $0.integer(\.indexOfSelectedItem, from: "NSSelectedIndex") { $0.indexOfSelectedItem = $1 }
    $0.bool(\.pullsDown, from: "NSPullDown") { $0.pullsDown = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { popUpButtonCellKeys }
}

/// `NSTextFieldCell` (and the search-field, header and secure cells): colours and placeholder.
open class TextFieldCell: Cell {
  public var textColor: Color?
  public var backgroundColor: Color?
  /// `placeholderString`.
  public var placeholder: String?
  public var drawsBackground = false

  public required init() { super.init() }

  public static let textFieldCellKeys = NibKeyTable(for: TextFieldCell.self, inheriting: cellKeys) {
    $0.object(\.backgroundColor, from: "NSBackgroundColor", key: "backgroundColor") { $0.backgroundColor = $1 }
    $0.object(\.textColor, from: "NSTextColor", key: "textColor") { $0.textColor = $1 }
    $0.string(\.placeholder, from: "NSPlaceholderString", key: "placeholderString") { $0.placeholder = $1 }
    $0.bool(\.drawsBackground, from: "NSDrawsBackground") { $0.drawsBackground = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { textFieldCellKeys }
}

/// `NSImageCell`: the image (`NSContents`), scaling and alignment.
open class ImageCell: Cell {
  public var image: Image? { objectValue as? Image }
  /// `imageScaling` (`NSScale`).
  public var imageScaling = 0
  /// `imageAlignment` (`NSAlign`).
  public var imageAlignment = 0

  public required init() { super.init() }

  public static let imageCellKeys = NibKeyTable(for: ImageCell.self, inheriting: cellKeys) {
    $0.integer(\.imageScaling, from: "NSScale") { $0.imageScaling = $1 }
    $0.integer(\.imageAlignment, from: "NSAlign") { $0.imageAlignment = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { imageCellKeys }
}

/// A cell with a numeric value in a range: `NSSliderCell` and `NSStepperCell` (`NSValue`,
/// `NSMinValue`, `NSMaxValue`, `NSIncrement`, `NSValueWraps`, `NSAutorepeat`,
/// `NSNumberOfTickMarks`).
open class ValueCell: Cell {
  public var doubleValue = 0.0
  public var minValue = 0.0
  public var maxValue = 1.0
  public var increment = 1.0
  public var valueWraps = false
  public var autorepeat = false
  public var numberOfTickMarks = 0

  public required init() { super.init() }

  public static let valueCellKeys = NibKeyTable(for: ValueCell.self, inheriting: cellKeys) {
    $0.double(\.maxValue, from: "NSMaxValue", key: "maxValue") { $0.maxValue = $1 }
    $0.double(\.minValue, from: "NSMinValue", key: "minValue") { $0.minValue = $1 }
    $0.double(\.doubleValue, from: "NSValue", key: "doubleValue") { $0.doubleValue = $1 }
    $0.double(\.increment, from: "NSIncrement", key: "increment") { $0.increment = $1 }
    $0.bool(\.valueWraps, from: "NSValueWraps") { $0.valueWraps = $1 }
    $0.bool(\.autorepeat, from: "NSAutorepeat") { $0.autorepeat = $1 }
    $0.integer(\.numberOfTickMarks, from: "NSNumberOfTickMarks") { $0.numberOfTickMarks = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { valueCellKeys }
}

/// `NSSegmentedCell`: the segments and the selection.
open class SegmentedCell: Cell {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    for segment in segments { references.keep(segment) }
  }
  public var segments: [Segment] = []
  /// `selectedSegment` (−1 for none).
  public var selectedSegment = -1

  public required init() { super.init() }

  public static let segmentedCellKeys = NibKeyTable(for: SegmentedCell.self, inheriting: cellKeys) {
    $0.array(\.segments, from: "NSSegmentImages") { $0.segments = $1 }
    $0.integer(\.selectedSegment, from: "NSSelectedSegment") { $0.selectedSegment = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { segmentedCellKeys }
}

/// One segment of a segmented control (`NSSegmentItem`).
public final class Segment: NibObject {
  public var label = ""
  public var tag = 0
  public var width = 0.0
  public var isSelected = false
  public var image: Image?

  public required init() { super.init() }

  public static let segmentKeys = NibKeyTable(for: Segment.self) {
    $0.string(\.label, from: "NSSegmentItemLabel") { $0.label = $1 }
    $0.integer(\.tag, from: "NSSegmentItemTag") { $0.tag = $1 }
    $0.double(\.width, from: "NSSegmentItemWidth") { $0.width = $1 }
    $0.bool(\.isSelected, from: "NSSegmentItemSelected") { $0.isSelected = $1 }
    $0.object(\.image, from: "NSSegmentItemImage") { $0.image = $1 }
  }
  public override class var nibKeyTable: NibKeyTable { segmentKeys }
}
