public import Foundation
public import ObjectModel
internal import StasisSystem

/// UIKit's control events (`UIControl.Event`), the mask of an action connection (`UIEventMask`).
public struct ControlEvents: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  public static let touchDownRepeat = ControlEvents(rawValue: 1 << 1)
  public static let touchDragInside = ControlEvents(rawValue: 1 << 2)
  public static let touchDragOutside = ControlEvents(rawValue: 1 << 3)
  public static let touchDragEnter = ControlEvents(rawValue: 1 << 4)
  public static let touchDragExit = ControlEvents(rawValue: 1 << 5)
  public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
  public static let touchCancel = ControlEvents(rawValue: 1 << 8)
  public static let valueChanged = ControlEvents(rawValue: 1 << 12)
  public static let editingDidBegin = ControlEvents(rawValue: 1 << 16)
  public static let editingChanged = ControlEvents(rawValue: 1 << 17)
  public static let editingDidEnd = ControlEvents(rawValue: 1 << 18)
  public static let editingDidEndOnExit = ControlEvents(rawValue: 1 << 19)
}

/// A control (`UIControl` / `NSControl`): target–action. AppKit controls have one ``target`` and
/// ``action`` and keep their value in a ``cell``; UIKit controls keep a list of (target, action,
/// events). A nil target sends the action along the responder chain.
open class Control: View {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(cell)
  }
  /// One UIKit target–action registration (`addTarget:action:forControlEvents:`).
  public struct EventAction {
    /// The target, weak; `nil` means the responder chain.
    public weak var target: AnyObject?
    /// Whether a target was given (a target that has since gone away sends nothing).
    public let hasTarget: Bool
    public let action: String
    public let events: ControlEvents
  }

  /// The AppKit cell (`NSCell`), owned by the control (it points back with `controlView`).
  public var cell: Cell? {
    didSet {
      if let oldValue, oldValue !== cell, oldValue.controlViewStorage === self { oldValue.controlViewStorage = nil }
      cell?.controlViewStorage = self
    }
  }

  deinit {
    if let cell, cell.controlViewStorage === self { cell.controlViewStorage = nil }
  }
  /// `enabled` / `isEnabled`.
  public var isEnabled = true
  /// `target` (AppKit), weak; `nil` sends ``action`` along the responder chain.
  public weak var target: AnyObject?
  /// `action` (AppKit): the selector name.
  public var action: String?
  /// UIKit's registrations, in the order they were added.
  public private(set) var eventActions: [EventAction] = []

  public required init() { super.init() }

  /// Registers `action` for `events` (`addTarget:action:forControlEvents:`); `nil` targets the
  /// responder chain.
  public func addTarget(_ target: AnyObject?, action: String, for events: ControlEvents) {
    eventActions.append(EventAction(target: target, hasTarget: target != nil, action: action, events: events))
  }

  /// The actions registered for any of `events`.
  public func actions(for events: ControlEvents) -> [String] {
    eventActions.filter { !$0.events.isDisjoint(with: events) }.map(\.action)
  }

  /// Sends `action` to `target` (`sendAction:to:forEvent:` / `sendAction:to:`): through the
  /// window's application when the control is in a window that has one, else to `target` or
  /// along the control's own responder chain. Answers whether an object handled it.
  @discardableResult
  public func sendAction(_ action: String, to target: AnyObject?) throws -> Bool {
    if let application = window?.application { return try application.sendAction(action, to: target, from: self) }
    let receivers: [AnyObject] = target.map { [$0] } ?? responderChain
    for receiver in receivers {
      if let responder = receiver as? ActionResponding, responder.responds(to: action) {
        try responder.perform(action: action, sender: self)
        return true
      }
    }
    return false
  }

  /// Sends every action registered for `events` (`sendActionsForControlEvents:`), in order; an
  /// AppKit control sends its ``action`` for any event. Answers how many were handled.
  @discardableResult
  public func sendActions(for events: ControlEvents) throws -> Int {
    var handled = 0
    for registration in eventActions where !registration.events.isDisjoint(with: events) {
      if registration.hasTarget && registration.target == nil { continue }
      if try sendAction(registration.action, to: registration.target) { handled += 1 }
    }
    if let action, try sendAction(action, to: target) { handled += 1 }
    return handled
  }

  /// Clicks the control (`performClick:`): sends ``action``, or the actions for
  /// `touchUpInside`.
  @discardableResult
  public func performClick() throws -> Bool {
    guard isEnabled else { return false }
    return try sendActions(for: .touchUpInside) > 0
  }

  open override var canBecomeFirstResponder: Bool { isEnabled }

  public static let controlKeys = KeyTable(for: Control.self, inheriting: viewKeys) {
    $0.key("enabled", \.isEnabled)
    $0.key("isEnabled", \.isEnabled)
    $0.key("target", \.target)
    $0.key("action", \.action)
    $0.key("cell", \.cell)
  }
  open override class var keyTable: KeyTable { controlKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    if coder.isUIKit {
      isEnabled = coder.decodeBool(forKey: "UIDisabled").map { !$0 } ?? true
    } else {
      isEnabled = coder.decodeBool(forKey: "NSEnabled") ?? true
      cell = try coder.decodeObject(forKey: "NSCell", as: Cell.self)
    }
  }
}

/// A button (`UIButton` / `NSButton`, and `NSPopUpButton` as ``PopUpButton``): titles per state.
open class Button: Control {
  /// UIKit's titles by control state (0 normal, 1 highlighted, 2 disabled, 4 selected).
  public var titlesByState: [Int: String] = [:]
  /// UIKit's images by control state.
  public var imagesByState: [Int: Image] = [:]

  public required init() { super.init() }

  /// `title` / `currentTitle`: the normal-state title (UIKit) or the cell's title (AppKit).
  public var title: String {
    get { titlesByState[0] ?? cell?.title ?? "" }
    set {
      if let cell { cell.title = newValue } else { titlesByState[0] = newValue }
    }
  }
  /// The title for a UIKit state (`titleForState:`), falling back to the normal title; AppKit's
  /// alternate title for the on state.
  public func title(for state: Int) -> String? {
    if let title = titlesByState[state] { return title }
    if state == 1 || state == 4, let alternate = (cell as? ButtonCell)?.alternateTitle, !alternate.isEmpty { return alternate }
    return titlesByState[0] ?? cell?.title
  }
  /// `state` (AppKit: 1 on, 0 off).
  public var state: Int {
    get { cell?.state ?? 0 }
    set { cell?.state = newValue }
  }
  /// `keyEquivalent`.
  public var keyEquivalent: String { (cell as? ButtonCell)?.keyEquivalent ?? "" }
  /// `image` (the normal image).
  public var image: Image? { (cell as? ButtonCell)?.image ?? imagesByState[0] }

  public static let buttonKeys = KeyTable(for: Button.self, inheriting: controlKeys) {
    $0.key("title", \.title)
    $0.key("state", \.state)
    $0.readOnlyKey("keyEquivalent", \.keyEquivalent)
  }
  open override class var keyTable: KeyTable { buttonKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    guard coder.isUIKit else { return }
    if let contents = try coder.decodeObject(forKey: "UIButtonStatefulContent") as? [String: Any] {
      for (state, content) in contents {
        guard let state = Int(state), let content = content as? GenericObject else { continue }
        if let title = content["UITitle"] as? String { titlesByState[state] = title }
        if let image = content["UIImage"] as? Image { imagesByState[state] = image }
      }
    }
  }
}

/// `NSPopUpButton`: a button with a menu of choices.
open class PopUpButton: Button {
  public required init() { super.init() }
  /// The menu of choices (the cell's).
  public var menu: Menu? { (cell as? PopUpButtonCell)?.menu }
  /// `itemTitles`.
  public var itemTitles: [String] { menu?.items.map(\.title) ?? [] }
  /// `indexOfSelectedItem`.
  public var indexOfSelectedItem: Int { (cell as? PopUpButtonCell)?.indexOfSelectedItem ?? -1 }
  /// `titleOfSelectedItem`.
  public var titleOfSelectedItem: String? {
    let index = indexOfSelectedItem
    guard let items = menu?.items, items.indices.contains(index) else { return nil }
    return items[index].title
  }
}

/// A text field (`UITextField` / `NSTextField`, and the search and secure fields); a label is a
/// ``Label``.
open class TextField: Control {
  /// UIKit's text, when there is no cell.
  private var ownText = ""
  /// UIKit's placeholder, when there is no cell.
  private var ownPlaceholder: String?
  /// UIKit's alignment, when there is no cell.
  private var ownAlignment = TextAlignment.natural
  /// `borderStyle` (UIKit's `UIBorderStyle`: 0 none, 1 line, 2 bezel, 3 rounded rect); AppKit's
  /// cell answers 2 when bezeled, 1 when bordered, else 0.
  public var borderStyle: Int {
    get {
      guard let cell else { return ownBorderStyle }
      return cell.isBezeled ? 2 : cell.isBordered ? 1 : 0
    }
    set { ownBorderStyle = newValue }
  }
  private var ownBorderStyle = 0
  /// `textAlignment` (UIKit's `UITextAlignment`) / `alignment` (AppKit: the cell's).
  public var textAlignment: TextAlignment {
    get { cell?.alignment ?? ownAlignment }
    set { if let cell { cell.alignment = newValue } else { ownAlignment = newValue } }
  }

  public required init() { super.init() }

  /// `text` / `stringValue`.
  public var text: String {
    get { cell?.title ?? ownText }
    set { if let cell { cell.title = newValue } else { ownText = newValue } }
  }
  /// `placeholder` / `placeholderString`.
  public var placeholder: String? {
    get { (cell as? TextFieldCell)?.placeholder ?? ownPlaceholder }
    set { if let cell = cell as? TextFieldCell { cell.placeholder = newValue } else { ownPlaceholder = newValue } }
  }
  /// `textColor`.
  public var textColor: Color? { (cell as? TextFieldCell)?.textColor }
  /// `font`.
  public var font: Font? { cell?.font }
  /// `editable` (its cell's; a field without a cell is editable).
  public var isEditable: Bool {
    get { cell?.isEditable ?? true }
    set { cell?.isEditable = newValue }
  }
  /// `selectable` (its cell's).
  public var isSelectable: Bool {
    get { cell?.isSelectable ?? true }
    set { cell?.isSelectable = newValue }
  }
  /// `delegate` (`NSTextFieldDelegate` / `UITextFieldDelegate`), weak; a nib sets it through its
  /// `delegate` outlet.
  public weak var delegate: AnyObject?

  open override var canBecomeFirstResponder: Bool { isEnabled && (cell?.isEditable ?? true || cell?.isSelectable ?? false) }

  /// Keeps the text being edited and whether it was being edited.
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(text, forKey: RestorableStateKey.text)
    coder.encode(isFirstResponder, forKey: RestorableStateKey.editing)
  }

  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    if let restored = coder.decode(String.self, forKey: RestorableStateKey.text) { text = restored }
    restoresFirstResponder = coder.decodeBool(forKey: RestorableStateKey.editing) ?? false
  }

  public static let textFieldKeys = KeyTable(for: TextField.self, inheriting: controlKeys) {
    $0.key("text", \.text)
    $0.key("stringValue", \.text)
    $0.key("placeholder", \.placeholder)
    $0.key("placeholderString", \.placeholder)
    $0.readOnlyKey("font", \.font)
    $0.key("delegate", \.delegate)
    $0.key("editable", \.isEditable)
    $0.key("selectable", \.isSelectable)
  }
  open override class var keyTable: KeyTable { textFieldKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    delegate = try coder.decodeReference(forKey: coder.isUIKit ? "UIDelegate" : "NSDelegate")
    guard coder.isUIKit else { return }
    if let text = try coder.decodeString(forKey: "UIText") { ownText = text }
    ownPlaceholder = try coder.decodeString(forKey: "UIPlaceholder")
    ownAlignment = TextAlignment(uiKitValue: coder.decodeInteger(forKey: "UITextAlignment") ?? 4)
    ownBorderStyle = coder.decodeInteger(forKey: "UIBorderStyle") ?? 0
  }
}

/// A label (`UILabel`; on macOS a non-editable ``TextField``).
open class Label: View {
  public var text = ""
  public var textColor: Color?
  public var font: Font?
  /// `numberOfLines` (0: as many as needed).
  public var numberOfLines = 1
  /// `textAlignment` (`UITextAlignment`).
  public var textAlignment = TextAlignment.natural

  public required init() { super.init() }

  public static let labelKeys = KeyTable(for: Label.self, inheriting: viewKeys) {
    $0.key("text", \.text)
    $0.key("textColor", \.textColor)
    $0.key("font", \.font)
    $0.key("numberOfLines", \.numberOfLines)
  }
  open override class var keyTable: KeyTable { labelKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    text = try coder.decodeString(forKey: "UIText") ?? ""
    textColor = try coder.decodeObject(forKey: "UITextColor", as: Color.self)
    font = try coder.decodeObject(forKey: "UIFont", as: Font.self)
    numberOfLines = coder.decodeInteger(forKey: "UINumberOfLines") ?? 1
    textAlignment = TextAlignment(uiKitValue: coder.decodeInteger(forKey: "UITextAlignment") ?? 4)
  }
}

/// An image view (`UIImageView` / `NSImageView`).
open class ImageView: Control {
  private var ownImage: Image?
  public required init() { super.init() }
  /// `image`.
  public var image: Image? {
    get { (cell as? ImageCell)?.image ?? ownImage }
    set { ownImage = newValue }
  }
  public static let imageViewKeys = KeyTable(for: ImageView.self, inheriting: controlKeys) {
    $0.key("image", \.image)
  }
  open override class var keyTable: KeyTable { imageViewKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    guard coder.isUIKit else { return }
    if let image = try coder.decodeObject(forKey: "UIImage", as: Image.self) { ownImage = image }
  }
}

/// A switch (`UISwitch` / `NSSwitch`).
open class Switch: Control {
  /// `on` / `isOn` (AppKit: the state).
  public var isOn = false
  public required init() { super.init() }
  public static let switchKeys = KeyTable(for: Switch.self, inheriting: controlKeys) {
    $0.key("on", \.isOn)
    $0.key("isOn", \.isOn)
  }
  open override class var keyTable: KeyTable { switchKeys }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    isOn = coder.decodeBool(forKey: "UISwitchOn") ?? ((coder.decodeInteger(forKey: "NSControlState") ?? cell?.state ?? 0) == 1)
  }
}

/// A control with a value in a range: `UISlider`/`NSSlider` (``Slider``) and
/// `UIStepper`/`NSStepper` (``Stepper``).
open class RangeControl: Control {
  private var own = (value: 0.0, minimum: 0.0, maximum: 1.0, step: 1.0)
  public required init() { super.init() }
  private var valueCell: ValueCell? { cell as? ValueCell }
  /// `value` / `doubleValue`.
  public var value: Double {
    get { valueCell?.doubleValue ?? own.value }
    set { if let valueCell { valueCell.doubleValue = newValue } else { own.value = newValue } }
  }
  /// `minimumValue` / `minValue`.
  public var minimumValue: Double { valueCell?.minValue ?? own.minimum }
  /// `maximumValue` / `maxValue`.
  public var maximumValue: Double { valueCell?.maxValue ?? own.maximum }
  /// `stepValue` / `increment`.
  public var stepValue: Double { valueCell?.increment ?? own.step }

  public static let rangeControlKeys = KeyTable(for: RangeControl.self, inheriting: controlKeys) {
    $0.key("value", \.value)
    $0.key("doubleValue", \.value)
    $0.readOnlyKey("minimumValue", \.minimumValue)
    $0.readOnlyKey("maximumValue", \.maximumValue)
  }
  open override class var keyTable: KeyTable { rangeControlKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    guard coder.isUIKit else { return }
    own.value = coder.decodeDouble(forKey: "UIValue") ?? own.value
    own.minimum = coder.decodeDouble(forKey: "UIMinValue") ?? coder.decodeDouble(forKey: "UIMinimumValue") ?? own.minimum
    own.maximum = coder.decodeDouble(forKey: "UIMaxValue") ?? coder.decodeDouble(forKey: "UIMaximumValue") ?? own.maximum
    own.step = coder.decodeDouble(forKey: "UIStepValue") ?? own.step
  }
}

/// `UISlider` / `NSSlider`.
open class Slider: RangeControl {
  public required init() { super.init() }
}

/// `UIStepper` / `NSStepper`.
open class Stepper: RangeControl {
  public required init() { super.init() }
}

/// A segmented control (`UISegmentedControl` / `NSSegmentedControl`).
open class SegmentedControl: Control {
  private var ownTitles: [String] = []
  private var ownSelection = -1
  public required init() { super.init() }
  private var segmentedCell: SegmentedCell? { cell as? SegmentedCell }
  /// `numberOfSegments`.
  public var numberOfSegments: Int { segmentedCell?.segments.count ?? ownTitles.count }
  /// The segments' titles (`titleForSegmentAtIndex:` / `labelForSegment:`).
  public var segmentTitles: [String] { segmentedCell?.segments.map(\.label) ?? ownTitles }
  /// `selectedSegmentIndex` / `selectedSegment`.
  public var selectedSegmentIndex: Int {
    get {
      if let cell = segmentedCell {
        return cell.selectedSegment >= 0 ? cell.selectedSegment : (cell.segments.firstIndex { $0.isSelected } ?? -1)
      }
      return ownSelection
    }
    set {
      if let cell = segmentedCell { cell.selectedSegment = newValue } else { ownSelection = newValue }
    }
  }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    guard coder.isUIKit else { return }
    ownTitles = try coder.decodeArray(forKey: "UISegments", of: String.self)
    ownSelection = coder.decodeInteger(forKey: "UISelectedSegmentIndex") ?? -1
  }
  public static let segmentedControlKeys = KeyTable(for: SegmentedControl.self, inheriting: controlKeys) {
    $0.key("selectedSegmentIndex", \.selectedSegmentIndex)
    $0.key("selectedSegment", \.selectedSegmentIndex)
  }
  open override class var keyTable: KeyTable { segmentedControlKeys }
}

/// A date picker (`UIDatePicker`): the date chosen, kept between ``minimumDate`` and
/// ``maximumDate`` when they are set, and the mode that says which parts of it the picker shows.
///
/// Decodes UIKit's `UIDatePickerMode`, `UIDate` (absent when Interface Builder's date is
/// "Current": the date at loading, on the environment's clock), `UIMinimumDate` and `UIMaximumDate`. It keeps the date
/// being chosen through state restoration, as a ``TextField`` keeps its text. AppKit's
/// `NSDatePicker` keeps its date in its cell and is a plain ``Control``.
open class DatePicker: Control {
  /// Which parts of the date the picker shows (`UIDatePicker.Mode`, archived as its raw value).
  public enum Mode: Int, Sendable {
    case time = 0
    case date = 1
    case dateAndTime = 2
    case countDownTimer = 3
  }

  /// `datePickerMode`.
  public var datePickerMode = Mode.dateAndTime
  private var chosenDate = HostEnvironment.current.clock.now()

  public required init() { super.init() }

  /// `date`: the date chosen. A date outside the range is set to the nearest end of it, as the
  /// picker's wheels settle there.
  public var date: Date {
    get { chosenDate }
    set { chosenDate = clamped(newValue) }
  }
  /// `minimumDate`: the earliest date that can be chosen, if any (``date`` moves into the range).
  public var minimumDate: Date? {
    didSet { chosenDate = clamped(chosenDate) }
  }
  /// `maximumDate`: the latest date that can be chosen, if any (``date`` moves into the range).
  public var maximumDate: Date? {
    didSet { chosenDate = clamped(chosenDate) }
  }

  /// `date` moved into ``minimumDate`` … ``maximumDate``; a minimum later than the maximum
  /// limits nothing (UIKit ignores both then).
  public func clamped(_ date: Date) -> Date {
    if let minimumDate, let maximumDate, minimumDate > maximumDate { return date }
    if let minimumDate, date < minimumDate { return minimumDate }
    if let maximumDate, date > maximumDate { return maximumDate }
    return date
  }

  /// Keeps the date being chosen.
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(date, forKey: RestorableStateKey.date)
  }

  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    if let restored = coder.decode(Date.self, forKey: RestorableStateKey.date) { date = restored }
  }

  public static let datePickerKeys = KeyTable(for: DatePicker.self, inheriting: controlKeys) {
    $0.key("date", \.date)
    $0.key("minimumDate", \.minimumDate)
    $0.key("maximumDate", \.maximumDate)
  }
  open override class var keyTable: KeyTable { datePickerKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    guard coder.isUIKit else { return }
    if let mode = coder.decodeInteger(forKey: "UIDatePickerMode") {
      guard let known = Mode(rawValue: mode) else {
        throw InterfaceObjectsError(
          .invalidValue, objectIndex: coder.objectIndex, className: coder.archivedClassName, key: "UIDatePickerMode",
          detail: "\(mode) is not a date picker mode (0 time, 1 date, 2 date and time, 3 count-down timer)")
      }
      datePickerMode = known
    }
    let archivedDate = try coder.decodeObject(forKey: "UIDate", as: Date.self)
    minimumDate = try coder.decodeObject(forKey: "UIMinimumDate", as: Date.self)
    maximumDate = try coder.decodeObject(forKey: "UIMaximumDate", as: Date.self)
    date = archivedDate ?? HostEnvironment.current.clock.now()
  }
}
