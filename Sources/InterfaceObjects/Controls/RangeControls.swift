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

  public static let rangeControlKeys = NibKeyTable(for: RangeControl.self, inheriting: controlKeys) {
    $0.key("value", \.value)
    $0.key("doubleValue", \.value)
    $0.readOnlyKey("minimumValue", \.minimumValue)
    $0.readOnlyKey("maximumValue", \.maximumValue)
    $0.uiKit {
      $0.double(\.own.value, from: "UIValue") { $0.own.value = $1 }
      $0.double(\.own.minimum, from: "UIMinValue", "UIMinimumValue") { $0.own.minimum = $1 }
      $0.double(\.own.maximum, from: "UIMaxValue", "UIMaximumValue") { $0.own.maximum = $1 }
      $0.double(\.own.step, from: "UIStepValue") { $0.own.step = $1 }
    }
  }
  open override class var nibKeyTable: NibKeyTable { rangeControlKeys }
}

/// `UISlider` / `NSSlider`.
open class Slider: RangeControl {
  public required init() { super.init() }
}

/// `UIStepper` / `NSStepper`.
open class Stepper: RangeControl {
  public required init() { super.init() }
}
