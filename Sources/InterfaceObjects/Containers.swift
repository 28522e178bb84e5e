public import ObjectModel

/// A scroll view (`UIScrollView` / `NSScrollView`): on macOS a clip view holding the document
/// view, and the scrollers.
open class ScrollView: View {
  /// `contentView` (`NSContentView`, a ``ClipView``).
  public var contentView: ClipView?
  /// `documentView`: what scrolls.
  public var documentView: View? { contentView?.documentView }
  public var hasVerticalScroller = false
  public var hasHorizontalScroller = false
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    contentView = try coder.decodeObject(forKey: "NSContentView", as: ClipView.self)
    hasVerticalScroller = try coder.decodeReference(forKey: "NSVScroller") != nil
    hasHorizontalScroller = try coder.decodeReference(forKey: "NSHScroller") != nil
  }
}

/// `NSClipView`: the visible part of a scroll view's document.
open class ClipView: View {
  /// `documentView`, weak: the clip view's subviews own it.
  public weak var documentView: View?
  public var drawsBackground = true
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    documentView = try coder.decodeObject(forKey: "NSDocView", as: View.self)
  }
}

/// A table view (`UITableView` / `NSTableView`, and `NSOutlineView`): columns, row height,
/// delegate and data source.
open class TableView: Control {
  /// `tableColumns`; the table owns them.
  public var tableColumns: [TableColumn] = []
  /// `rowHeight`.
  public var rowHeight = 0.0
  /// `delegate`, weak.
  public weak var delegate: AnyObject?
  /// `dataSource`, weak.
  public weak var dataSource: AnyObject?
  /// `headerView`.
  public var headerView: View?
  /// `autosaveName`.
  public var autosaveName: String?
  /// UIKit's `tableHeaderView` / `tableFooterView`.
  public var tableHeaderView: View?
  public var tableFooterView: View?
  public required init() { super.init() }

  /// The column with `identifier` (`tableColumnWithIdentifier:`).
  public func tableColumn(withIdentifier identifier: String) -> TableColumn? {
    tableColumns.first { $0.identifier == identifier }
  }

  public static let tableViewKeys = KeyTable(for: TableView.self, inheriting: controlKeys) {
    $0.key("delegate", \.delegate)
    $0.key("dataSource", \.dataSource)
    $0.key("rowHeight", \.rowHeight)
    $0.key("autosaveName", \.autosaveName)
    $0.key("tableHeaderView", \.tableHeaderView)
    $0.key("tableFooterView", \.tableFooterView)
  }
  open override class var keyTable: KeyTable { tableViewKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    tableColumns = try coder.decodeArray(forKey: "NSTableColumns", of: TableColumn.self)
    for column in tableColumns { column.tableView = self }
    rowHeight = coder.decodeDouble(forKey: "NSRowHeight") ?? coder.decodeDouble(forKey: "UIRowHeight") ?? 0
    delegate = try coder.decodeReference(forKey: "NSDelegate")
    dataSource = try coder.decodeReference(forKey: "NSDataSource")
    headerView = try coder.decodeObject(forKey: "NSHeaderView", as: View.self)
    autosaveName = try coder.decodeString(forKey: "NSAutosaveName")
    tableHeaderView = try coder.decodeObject(forKey: "UITableHeaderView", as: View.self)
    tableFooterView = try coder.decodeObject(forKey: "UITableFooterView", as: View.self)
  }
}

/// A table column (`NSTableColumn`): identifier, width, header and data cells.
public final class TableColumn: NibObject {
  public var identifier: String?
  public var width = 0.0
  public var minWidth = 0.0
  public var maxWidth = 0.0
  /// The header's title (`headerCell.stringValue`).
  public var title: String { headerCell?.title ?? "" }
  public var headerCell: Cell?
  public var dataCell: Cell?
  public var isEditable = true
  /// The table, weak.
  public weak var tableView: TableView?
  public required init() { super.init() }
  public static let tableColumnKeys = KeyTable(for: TableColumn.self) {
    $0.key("identifier", \.identifier)
    $0.key("width", \.width)
    $0.readOnlyKey("title", \.title)
  }
  public override class var keyTable: KeyTable { tableColumnKeys }
  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    identifier = try coder.decodeString(forKey: "NSIdentifier")
    width = coder.decodeDouble(forKey: "NSWidth") ?? 0
    minWidth = coder.decodeDouble(forKey: "NSMinWidth") ?? 0
    maxWidth = coder.decodeDouble(forKey: "NSMaxWidth") ?? 0
    headerCell = try coder.decodeObject(forKey: "NSHeaderCell", as: Cell.self)
    dataCell = try coder.decodeObject(forKey: "NSDataCell", as: Cell.self)
    isEditable = coder.decodeBool(forKey: "NSIsEditable") ?? true
  }
}

/// A table cell: `NSTableCellView` (its `textField` and `imageView` outlets) and
/// `UITableViewCell` (`reuseIdentifier`, `textLabel`, `contentView`).
open class TableCellView: View {
  /// `textField` (AppKit outlet) / `textLabel`.
  public weak var textField: TextField?
  /// `imageView` (AppKit outlet).
  public weak var imageView: ImageView?
  /// `reuseIdentifier`.
  public var reuseIdentifier: String?
  public required init() { super.init() }
  public static let tableCellViewKeys = KeyTable(for: TableCellView.self, inheriting: viewKeys) {
    $0.key("textField", \.textField)
    $0.key("imageView", \.imageView)
    $0.key("reuseIdentifier", \.reuseIdentifier)
  }
  open override class var keyTable: KeyTable { tableCellViewKeys }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    reuseIdentifier = try coder.decodeString(forKey: "UIReuseIdentifier")
  }
}

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
  public var tabViewItems: [TabViewItem] = []
  public weak var selectedTabViewItem: TabViewItem?
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    tabViewItems = try coder.decodeArray(forKey: "NSTabViewItems", of: TabViewItem.self)
    selectedTabViewItem = try coder.decodeObject(forKey: "NSSelectedTabViewItem", as: TabViewItem.self)
  }
}

/// `NSTabViewItem`: a tab's label and view.
public final class TabViewItem: NibObject {
  public var label = ""
  public var identifier: Any?
  public var view: View?
  public required init() { super.init() }
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
  public required init() { super.init() }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    isVertical = coder.decodeBool(forKey: "NSIsVertical") == true
  }
}

/// A multi-line text view (`UITextView` / `NSTextView`).
open class TextView: View {
  public var text = ""
  public var isEditable = true
  public required init() { super.init() }
  public static let textViewKeys = KeyTable(for: TextView.self, inheriting: viewKeys) {
    $0.key("text", \.text)
    $0.key("string", \.text)
    $0.key("editable", \.isEditable)
  }
  open override class var keyTable: KeyTable { textViewKeys }
  open override var canBecomeFirstResponder: Bool { isEditable }
  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    text = try coder.decodeString(forKey: "UIText") ?? ""
  }
}
