public import ObjectModel

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

  public static let constraintKeys = KeyTable(for: LayoutConstraint.self) {
    $0.key("constant", \.constant)
    $0.key("multiplier", \.multiplier)
    $0.key("priority", \.priority)
    $0.key("identifier", \.identifier)
  }
  public override class var keyTable: KeyTable { constraintKeys }

  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    firstItem = try coder.decodeReference(forKey: "NSFirstItem")
    firstAttribute = coder.decodeInteger(forKey: "NSFirstAttributeV2") ?? coder.decodeInteger(forKey: "NSFirstAttribute") ?? 0
    secondItem = try coder.decodeReference(forKey: "NSSecondItem")
    secondAttribute = coder.decodeInteger(forKey: "NSSecondAttributeV2") ?? coder.decodeInteger(forKey: "NSSecondAttribute") ?? 0
    relation = coder.decodeInteger(forKey: "NSRelation") ?? 0
    multiplier = coder.decodeDouble(forKey: "NSMultiplier") ?? 1
    constant = coder.decodeDouble(forKey: "NSConstantV2") ?? coder.decodeDouble(forKey: "NSConstant") ?? 0
    priority = coder.decodeDouble(forKey: "NSPriority") ?? 1000
    identifier = try coder.decodeString(forKey: "NSLayoutIdentifier")
  }
}

extension LayoutConstraint: ViewReferrer {
  func viewIsGoing(_ view: View) {
    if firstItemView === view { firstItemView = nil }
    if secondItemView === view { secondItemView = nil }
  }
}
