public import ObjectModel

/// A stack view (`UIStackView` / `NSStackView`): orientation, spacing, alignment, distribution.
open class StackView: View {
  /// 0 horizontal, 1 vertical (AppKit's `NSStackViewOrientation`; UIKit's `axis`).
  public var orientation = 0
  public var spacing = 8.0
  public var alignment = 0
  public var distribution = 0
  public required init() { super.init() }
  /// `arrangedSubviews` (here: the subviews, in order).
  public var arrangedSubviews: [View] { subviews }
  public static let stackViewKeys = KeyTable(for: StackView.self, inheriting: viewKeys) {
    $0.key("orientation", \.orientation)
    $0.key("axis", \.orientation)
    $0.key("spacing", \.spacing)
    $0.key("alignment", \.alignment)
    $0.key("distribution", \.distribution)
  }
  open override class var keyTable: KeyTable { stackViewKeys }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    orientation = coder.decodeInteger(forKey: "NSStackViewOrientation") ?? coder.decodeInteger(forKey: "UIStackViewAxis") ?? 0
    spacing = coder.decodeDouble(forKey: "NSStackViewSpacing") ?? coder.decodeDouble(forKey: "UIStackViewSpacing") ?? 8
    alignment = coder.decodeInteger(forKey: "NSStackViewAlignment") ?? coder.decodeInteger(forKey: "UIStackViewAlignment") ?? 0
    distribution = coder.decodeInteger(forKey: "NSStackViewdistribution") ?? coder.decodeInteger(forKey: "UIStackViewDistribution") ?? 0
  }
}

/// `NSBox`: a titled container.
open class Box: View {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.cuttable(contentView) { { [weak self] in self?.contentView = nil } }
  }
  public var title = ""
  public var boxType = 0
  public var contentView: View?
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    title = (try coder.decodeObject(forKey: "NSTitleCell", as: Cell.self))?.title ?? ""
    boxType = coder.decodeInteger(forKey: "NSBoxType") ?? 0
    contentView = try coder.decodeObject(forKey: "NSContentView", as: View.self)
  }
}

/// `NSTabView`: tabs, one selected.
open class TabView: View {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    for item in tabViewItems { references.keep(item) }
  }
  public var tabViewItems: [TabViewItem] = []
  public weak var selectedTabViewItem: TabViewItem?
  /// `delegate` (`NSTabViewDelegate`), weak; set by a nib's `delegate` outlet.
  public weak var delegate: AnyObject?
  public static let tabViewKeys = KeyTable(for: TabView.self, inheriting: viewKeys) {
    $0.key("delegate", \.delegate)
  }
  open override class var keyTable: KeyTable { tabViewKeys }
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    tabViewItems = try coder.decodeArray(forKey: "NSTabViewItems", of: TabViewItem.self)
    selectedTabViewItem = try coder.decodeObject(forKey: "NSSelectedTabViewItem", as: TabViewItem.self)
  }
}

/// `NSTabViewItem`: a tab's label and view.
public final class TabViewItem: NibObject {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  public override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.cuttable(view) { { [weak self] in self?.view = nil } }
    references.cuttable(identifier) { { [weak self] in self?.identifier = nil } }
  }
  public var label = ""
  public var identifier: Any?
  public var view: View?
  /// `viewController` (a tab view controller's item), weak; set by a nib's outlet.
  public weak var viewController: ViewController?
  /// `image` (a tab view controller's item image; a runtime attribute in storyboards).
  public var image: Any?
  public required init() { super.init() }
  public static let tabViewItemKeys = KeyTable(for: TabViewItem.self) {
    $0.key("label", \.label)
    $0.key("view", \.view)
    $0.key("viewController", \.viewController)
    $0.key("image", \.image)
  }
  public override class var keyTable: KeyTable { tabViewItemKeys }
  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    identifier = try coder.decodeObject(forKey: "NSIdentifier")
    view = try coder.decodeObject(forKey: "NSView", as: View.self)
    label = try coder.decodeString(forKey: "NSLabel") ?? ""
  }
}

/// `NSSplitView`: panes side by side (vertical dividers) or stacked.
open class SplitView: View {
  public var isVertical = false
  /// `delegate` (`NSSplitViewDelegate`), weak; set by a nib's `delegate` outlet.
  public weak var delegate: AnyObject?
  public static let splitViewKeys = KeyTable(for: SplitView.self, inheriting: viewKeys) {
    $0.key("delegate", \.delegate)
    $0.key("vertical", \.isVertical)
  }
  open override class var keyTable: KeyTable { splitViewKeys }
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    isVertical = coder.decodeBool(forKey: "NSIsVertical") == true
  }
}
