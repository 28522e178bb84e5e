public import Foundation

/// A text field (`UITextField` / `NSTextField`, and the search and secure fields); a label is a
/// ``Label``.
open class TextField: Control {
  /// UIKit's text, when there is no cell. No run-time exclusivity checks: only ``text`` reads
  /// or assigns it, whole (see ``View``).
  @exclusivity(unchecked) private var ownText = ""
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

  public static let textFieldKeys = NibKeyTable(for: TextField.self, inheriting: controlKeys) {
    $0.key("text", \.text)
    $0.key("stringValue", \.text)
    $0.key("placeholder", \.placeholder)
    $0.key("placeholderString", \.placeholder)
    $0.readOnlyKey("font", \.font)
    $0.key("editable", \.isEditable)
    $0.key("selectable", \.isSelectable)
    $0.appKit { $0.reference(\.delegate, from: "NSDelegate", key: "delegate") { $0.delegate = $1 } }
    $0.uiKit {
      $0.reference(\.delegate, from: "UIDelegate") { $0.delegate = $1 }
      $0.string(\.ownText, from: "UIText") { $0.ownText = $1 }
      $0.string(\.ownPlaceholder, from: "UIPlaceholder") { $0.ownPlaceholder = $1 }
      $0.decode { field, coder in field.ownAlignment = TextAlignment(uiKitValue: coder.decodeInteger(forKey: "UITextAlignment") ?? 4) }
      $0.integer(\.ownBorderStyle, from: "UIBorderStyle") { $0.ownBorderStyle = $1 }
    }
  }
  open override class var nibKeyTable: NibKeyTable { textFieldKeys }
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

  public static let labelKeys = NibKeyTable(for: Label.self, inheriting: viewKeys) {
    $0.string(\.text, from: "UIText", key: "text") { $0.text = $1 }
    $0.object(\.textColor, from: "UITextColor", key: "textColor") { $0.textColor = $1 }
    $0.object(\.font, from: "UIFont", key: "font") { $0.font = $1 }
    $0.integer(\.numberOfLines, from: "UINumberOfLines", key: "numberOfLines") { $0.numberOfLines = $1 }
    $0.decode { label, coder in label.textAlignment = TextAlignment(uiKitValue: coder.decodeInteger(forKey: "UITextAlignment") ?? 4) }
  }
  open override class var nibKeyTable: NibKeyTable { labelKeys }
}

/// A multi-line text view (`UITextView` / `NSTextView`).
open class TextView: View {
  public var text = ""
  public var isEditable = true
  /// `selectedRange`: the selection or insertion point, in UTF-16 units as `NSRange`.
  public var selectedRange = NSRange(location: 0, length: 0)
  public required init() { super.init() }

  /// Keeps the text, the selection and whether it was being edited (UIKit restores a text
  /// view's selection itself; its text is the app's to keep, and Stasis keeps it too).
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(text, forKey: RestorableStateKey.text)
    coder.encode([selectedRange.location, selectedRange.length], forKey: RestorableStateKey.selectedRange)
    coder.encode(isFirstResponder, forKey: RestorableStateKey.editing)
  }

  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    if let restored = coder.decode(String.self, forKey: RestorableStateKey.text) { text = restored }
    let length = text.utf16.count
    if let range = coder.decodeObject(forKey: RestorableStateKey.selectedRange) as? [Any], range.count == 2,
      let location = range[0] as? Int, let count = range[1] as? Int, location >= 0, count >= 0, location <= length,
      count <= length - location
    {
      selectedRange = NSRange(location: location, length: count)
    }
    restoresFirstResponder = coder.decodeBool(forKey: RestorableStateKey.editing) ?? false
  }
  public static let textViewKeys = NibKeyTable(for: TextView.self, inheriting: viewKeys) {
    $0.string(\.text, from: "UIText", key: "text") { $0.text = $1 }
    $0.key("string", \.text)
    $0.key("editable", \.isEditable)
  }
  open override class var nibKeyTable: NibKeyTable { textViewKeys }
  open override var canBecomeFirstResponder: Bool { isEditable }
}
