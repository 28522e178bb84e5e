public import Foundation
internal import StasisSystem

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

  public static let segmentedControlKeys = NibKeyTable(for: SegmentedControl.self, inheriting: controlKeys) {
    $0.key("selectedSegmentIndex", \.selectedSegmentIndex)
    $0.key("selectedSegment", \.selectedSegmentIndex)
    $0.uiKit {
      $0.array(\.ownTitles, from: "UISegments") { $0.ownTitles = $1 }
      $0.integer(\.ownSelection, from: "UISelectedSegmentIndex") { $0.ownSelection = $1 }
    }
  }
  open override class var nibKeyTable: NibKeyTable { segmentedControlKeys }
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

  public static let datePickerKeys = NibKeyTable(for: DatePicker.self, inheriting: controlKeys) {
    $0.key("date", \.date)
    $0.key("minimumDate", \.minimumDate)
    $0.key("maximumDate", \.maximumDate)
    $0.uiKit { $0.decode { picker, coder throws(InterfaceObjectsError) in try picker.decodeDates(from: coder) } }
  }
  open override class var nibKeyTable: NibKeyTable { datePickerKeys }

  /// UIKit's mode and dates (`UIDatePickerMode`, `UIDate`, `UIMinimumDate`, `UIMaximumDate`): the
  /// limits before the date, which they clamp; no date is now.
  private func decodeDates(from coder: NibCoder) throws(InterfaceObjectsError) {
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
