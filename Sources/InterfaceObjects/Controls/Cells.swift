public import ObjectModel

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

  public static let cellKeys = KeyTable(for: Cell.self) {
    $0.key("target", \.target)
    $0.key("action", \.action)
    $0.key("title", \.title)
    $0.key("stringValue", \.title)
    $0.key("state", \.state)
    $0.key("enabled", \.isEnabled)
    $0.key("editable", \.isEditable)
    $0.key("selectable", \.isSelectable)
    $0.key("tag", \.tag)
    $0.key("font", \.font)
    $0.key("formatter", \.formatter)
  }
  open override class var keyTable: KeyTable { cellKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
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
    font = try coder.decodeObject(forKey: "NSSupport", as: Font.self)
    formatter = try coder.decodeReference(forKey: "NSFormatter")
    tag = coder.decodeInteger(forKey: "NSTag") ?? 0
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

  public static let buttonCellKeys = KeyTable(for: ButtonCell.self, inheriting: cellKeys) {
    $0.key("alternateTitle", \.alternateTitle)
    $0.key("keyEquivalent", \.keyEquivalent)
    $0.key("bezelStyle", \.bezelStyle)
    $0.key("image", \.image)
  }
  open override class var keyTable: KeyTable { buttonCellKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    alternateTitle = try coder.decodeString(forKey: "NSAlternateContents") ?? ""
    keyEquivalent = try coder.decodeString(forKey: "NSKeyEquivalent") ?? ""
    bezelStyle = coder.decodeInteger(forKey: "NSBezelStyle") ?? 0
    image = try coder.decodeObject(forKey: "NSNormalImage", as: Image.self)
    alternateImage = try coder.decodeObject(forKey: "NSAlternateImage", as: Image.self)
    buttonType = coder.decodeInteger(forKey: "NSAuxButtonType") ?? 0
  }
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

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    menu = try coder.decodeObject(forKey: "NSMenu", as: Menu.self)
    indexOfSelectedItem = coder.decodeInteger(forKey: "NSSelectedIndex") ?? -1
    pullsDown = coder.decodeBool(forKey: "NSPullDown") == true
  }
}

/// `NSTextFieldCell` (and the search-field, header and secure cells): colours and placeholder.
open class TextFieldCell: Cell {
  public var textColor: Color?
  public var backgroundColor: Color?
  /// `placeholderString`.
  public var placeholder: String?
  public var drawsBackground = false

  public required init() { super.init() }

  public static let textFieldCellKeys = KeyTable(for: TextFieldCell.self, inheriting: cellKeys) {
    $0.key("textColor", \.textColor)
    $0.key("backgroundColor", \.backgroundColor)
    $0.key("placeholderString", \.placeholder)
  }
  open override class var keyTable: KeyTable { textFieldCellKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    backgroundColor = try coder.decodeObject(forKey: "NSBackgroundColor", as: Color.self)
    textColor = try coder.decodeObject(forKey: "NSTextColor", as: Color.self)
    placeholder = try coder.decodeString(forKey: "NSPlaceholderString")
    drawsBackground = coder.decodeBool(forKey: "NSDrawsBackground") == true
  }
}

/// `NSImageCell`: the image (`NSContents`), scaling and alignment.
open class ImageCell: Cell {
  public var image: Image? { objectValue as? Image }
  /// `imageScaling` (`NSScale`).
  public var imageScaling = 0
  /// `imageAlignment` (`NSAlign`).
  public var imageAlignment = 0

  public required init() { super.init() }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    imageScaling = coder.decodeInteger(forKey: "NSScale") ?? 0
    imageAlignment = coder.decodeInteger(forKey: "NSAlign") ?? 0
  }
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

  public static let valueCellKeys = KeyTable(for: ValueCell.self, inheriting: cellKeys) {
    $0.key("doubleValue", \.doubleValue)
    $0.key("minValue", \.minValue)
    $0.key("maxValue", \.maxValue)
    $0.key("increment", \.increment)
  }
  open override class var keyTable: KeyTable { valueCellKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    maxValue = coder.decodeDouble(forKey: "NSMaxValue") ?? maxValue
    minValue = coder.decodeDouble(forKey: "NSMinValue") ?? minValue
    doubleValue = coder.decodeDouble(forKey: "NSValue") ?? doubleValue
    increment = coder.decodeDouble(forKey: "NSIncrement") ?? increment
    valueWraps = coder.decodeBool(forKey: "NSValueWraps") == true
    autorepeat = coder.decodeBool(forKey: "NSAutorepeat") == true
    numberOfTickMarks = coder.decodeInteger(forKey: "NSNumberOfTickMarks") ?? 0
  }
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

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    segments = try coder.decodeArray(forKey: "NSSegmentImages", of: Segment.self)
    selectedSegment = coder.decodeInteger(forKey: "NSSelectedSegment") ?? -1
  }
}

/// One segment of a segmented control (`NSSegmentItem`).
public final class Segment: NibObject {
  public var label = ""
  public var tag = 0
  public var width = 0.0
  public var isSelected = false
  public var image: Image?

  public required init() { super.init() }

  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    label = try coder.decodeString(forKey: "NSSegmentItemLabel") ?? ""
    tag = coder.decodeInteger(forKey: "NSSegmentItemTag") ?? 0
    width = coder.decodeDouble(forKey: "NSSegmentItemWidth") ?? 0
    isSelected = coder.decodeBool(forKey: "NSSegmentItemSelected") == true
    image = try coder.decodeObject(forKey: "NSSegmentItemImage", as: Image.self)
  }
}
