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
  public static let stackViewKeys = NibKeyTable(for: StackView.self, inheriting: viewKeys) {
    $0.integer(\.orientation, from: "NSStackViewOrientation", "UIStackViewAxis", key: "orientation") { $0.orientation = $1 }
    $0.key("axis", \.orientation)
    $0.double(\.spacing, from: "NSStackViewSpacing", "UIStackViewSpacing", key: "spacing") { $0.spacing = $1 }
    $0.integer(\.alignment, from: "NSStackViewAlignment", "UIStackViewAlignment", key: "alignment") { $0.alignment = $1 }
    $0.integer(\.distribution, from: "NSStackViewdistribution", "UIStackViewDistribution", key: "distribution") { $0.distribution = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { stackViewKeys }
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
  /// The title is the title cell's (`NSTitleCell`).
  public static let boxKeys = NibKeyTable(for: Box.self, inheriting: viewKeys) {
    $0.decode { box, coder throws(InterfaceObjectsError) in
      box.title = (try coder.decodeObject(forKey: "NSTitleCell", as: Cell.self))?.title ?? ""
    }
    $0.integer(\.boxType, from: "NSBoxType") { $0.boxType = $1 }
    $0.object(\.contentView, from: "NSContentView") { $0.contentView = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { boxKeys }
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
  public static let tabViewKeys = NibKeyTable(for: TabView.self, inheriting: viewKeys) {
    $0.key("delegate", \.delegate)
    $0.array(\.tabViewItems, from: "NSTabViewItems") { $0.tabViewItems = $1 }
    $0.object(\.selectedTabViewItem, from: "NSSelectedTabViewItem") { $0.selectedTabViewItem = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { tabViewKeys }
  public required init() { super.init() }
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
  public static let tabViewItemKeys = NibKeyTable(for: TabViewItem.self) {
    $0.value(\.identifier, from: "NSIdentifier") { $0.identifier = $1 }
    $0.object(\.view, from: "NSView", key: "view") { $0.view = $1 }
    $0.string(\.label, from: "NSLabel", key: "label") { $0.label = $1 }
    $0.key("viewController", \.viewController)
    $0.key("image", \.image)
  }
  public override class var nibKeyTable: NibKeyTable { tabViewItemKeys }
}

/// `NSSplitView`: panes side by side (vertical dividers) or stacked.
open class SplitView: View {
  public var isVertical = false
  /// `delegate` (`NSSplitViewDelegate`), weak; set by a nib's `delegate` outlet.
  public weak var delegate: AnyObject?
  public static let splitViewKeys = NibKeyTable(for: SplitView.self, inheriting: viewKeys) {
    $0.key("delegate", \.delegate)
    $0.bool(\.isVertical, from: "NSIsVertical", key: "vertical") { $0.isVertical = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { splitViewKeys }
  public required init() { super.init() }
}
