/// A layout constraint (`NSLayoutConstraint`), kept as data: `firstItem.firstAttribute relation
/// secondItem.secondAttribute × multiplier + constant` at a priority. Nothing solves it.
public final class LayoutConstraint: NibObject {
  /// The first item (a view or a layout guide), weak. A view item is held as a
  /// `ViewReferrer` holds it (no side table on the view); any other object weakly.
  public var firstItem: AnyObject? {
    get { firstItemView ?? firstItemObject }
    set { setItem(newValue, view: &firstItemView, object: &firstItemObject) }
  }
  private unowned(unsafe) var firstItemView: View?
  private weak var firstItemObject: AnyObject?
  /// `NSLayoutAttribute` of the first item (1 left … 11 last baseline; 0 none).
  public var firstAttribute = 0
  /// −1 less than or equal, 0 equal, 1 greater than or equal.
  public var relation = 0
  /// The second item, weak (as ``firstItem``); `nil` for a constant size.
  public var secondItem: AnyObject? {
    get { secondItemView ?? secondItemObject }
    set { setItem(newValue, view: &secondItemView, object: &secondItemObject) }
  }
  private unowned(unsafe) var secondItemView: View?
  private weak var secondItemObject: AnyObject?
  public var secondAttribute = 0
  public var multiplier = 1.0
  public var constant = 0.0
  /// 1…1000 (required).
  public var priority = 1000.0
  /// `identifier`.
  public var identifier: String?

  public required init() { super.init() }

  private func setItem(_ item: AnyObject?, view: inout View?, object: inout AnyObject?) {
    view?.removeReferrer(self)
    view = item as? View
    view?.addReferrer(self)
    object = view == nil ? item : nil
  }

  isolated deinit {
    firstItemView?.removeReferrer(self)
    secondItemView?.removeReferrer(self)
  }

  public static let constraintKeys = NibKeyTable(for: LayoutConstraint.self) {
    $0.reference(\.firstItem, from: "NSFirstItem") { $0.firstItem = $1 }
    $0.integer(\.firstAttribute, from: "NSFirstAttributeV2", "NSFirstAttribute") { $0.firstAttribute = $1 }
    $0.reference(\.secondItem, from: "NSSecondItem") { $0.secondItem = $1 }
    $0.integer(\.secondAttribute, from: "NSSecondAttributeV2", "NSSecondAttribute") { $0.secondAttribute = $1 }
    $0.integer(\.relation, from: "NSRelation") { $0.relation = $1 }
    $0.double(\.multiplier, from: "NSMultiplier", key: "multiplier") { $0.multiplier = $1 }
    $0.double(\.constant, from: "NSConstantV2", "NSConstant", key: "constant") { $0.constant = $1 }
    $0.double(\.priority, from: "NSPriority", key: "priority") { $0.priority = $1 }
    $0.string(\.identifier, from: "NSLayoutIdentifier", key: "identifier") { $0.identifier = $1 }
  }
  public override class var nibKeyTable: NibKeyTable { constraintKeys }
}

extension LayoutConstraint: ViewReferrer {
  func viewIsGoing(_ view: View) {
    if firstItemView === view { firstItemView = nil }
    if secondItemView === view { secondItemView = nil }
  }
}
