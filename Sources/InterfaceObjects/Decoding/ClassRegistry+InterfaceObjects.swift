public import ObjectModel

extension ClassRegistry {
  /// A registry holding the headless interface classes under their AppKit and UIKit names (built
  /// once; a copy is cheap until it is changed).
  public static var interfaceObjects: ClassRegistry { builtInterfaceObjects }

  private static let builtInterfaceObjects: ClassRegistry = {
    var registry = ClassRegistry()
    registry.registerInterfaceObjects()
    return registry
  }()

  /// Registers the headless interface classes under the AppKit and UIKit names nibs archive
  /// them by (`NSButton` and `UIButton` are both ``Button``), and AppKit's support classes that
  /// are kept as data (``GenericObject`` with every archived value: text storage, cursors,
  /// formatters, gesture recognizers, toolbars, layout guides). An app then registers its own
  /// classes (custom classes) in the same registry.
  public mutating func registerInterfaceObjects() {
    func add<Object: NibObject>(_ type: Object.Type, _ names: [String]) {
      for name in names { register(type, as: name, makeInstanceOnMainActor: { Object() }) }
    }
    add(NibObject.self, ["NSObject"])
    add(Responder.self, ["NSResponder", "UIResponder"])
    add(Application.self, ["NSApplication", "UIApplication"])
    add(View.self, [
      "NSView", "UIView", "UITableViewCellContentView", "NSVisualEffectView", "NSProgressIndicator", "NSScroller", "_NSCornerView", "NSTableHeaderView",
      "UIActivityIndicatorView", "UIProgressView", "UIVisualEffectView", "PDFView", "NSTableRowView", "UINavigationBar",
      "UITabBar", "UIToolbar", "UISearchBar", "UIPageControl", "WKWebView",
      // UIKit's private views in Apple's storyboard encoding: a prototype cell's separator, a
      // controller's top and bottom layout guides.
      "_UITableViewCellSeparatorView", "_UILayoutGuide",
    ])
    add(Control.self, [
      "NSControl", "UIControl", "NSDatePicker", "NSColorWell", "NSPathControl", "NSMatrix", "NSLevelIndicator",
      "NSPredicateEditor", "NSRuleEditor", "UIPickerView",
    ])
    add(DatePicker.self, ["UIDatePicker"])
    add(Button.self, ["NSButton", "UIButton"])
    add(PopUpButton.self, ["NSPopUpButton"])
    add(TextField.self, ["NSTextField", "UITextField", "NSSearchField", "NSSecureTextField", "NSTokenField", "NSComboBox"])
    add(Label.self, ["UILabel"])
    add(ImageView.self, ["NSImageView", "UIImageView"])
    add(Switch.self, ["NSSwitch", "UISwitch"])
    add(Slider.self, ["NSSlider", "UISlider"])
    add(Stepper.self, ["NSStepper", "UIStepper"])
    add(SegmentedControl.self, ["NSSegmentedControl", "UISegmentedControl"])
    add(TableView.self, ["NSTableView", "NSOutlineView", "UITableView", "UICollectionView"])
    add(TableColumn.self, ["NSTableColumn"])
    add(TableCellView.self, ["NSTableCellView", "UITableViewCell", "UICollectionViewCell", "UICollectionReusableView"])
    add(ScrollView.self, ["NSScrollView", "UIScrollView"])
    add(ClipView.self, ["NSClipView"])
    add(StackView.self, ["NSStackView", "UIStackView"])
    add(Box.self, ["NSBox"])
    add(GridView.self, ["NSGridView"])
    add(GridRow.self, ["NSGridRow"])
    add(GridColumn.self, ["NSGridColumn"])
    add(GridCell.self, ["NSGridCell"])
    add(TabView.self, ["NSTabView"])
    add(TabViewItem.self, ["NSTabViewItem"])
    add(SplitView.self, ["NSSplitView"])
    add(TextView.self, ["NSTextView", "UITextView"])
    add(Window.self, ["NSWindow", "NSPanel", "UIWindow"])
    add(WindowController.self, ["NSWindowController", "IBNSWindowController"])
    add(ViewController.self, [
      "NSViewController", "IBNSViewController", "UIViewController", "NSPageController",
      "UITableViewController", "UICollectionViewController", "UIPageViewController", "UISplitViewController",
    ])
    add(SplitViewController.self, ["NSSplitViewController"])
    add(TabViewController.self, ["NSTabViewController"])
    add(NavigationController.self, ["UINavigationController"])
    add(SegueTemplateObject.self, ["UIStoryboardSegueTemplate"] + SegueTemplateObject.kinds.keys.sorted())
    add(TabBarController.self, ["UITabBarController"])
    add(NavigationItem.self, ["UINavigationItem"])
    add(TabBarItem.self, ["UITabBarItem"])
    add(BarButtonItem.self, ["UIBarButtonItem"])
    add(Menu.self, ["NSMenu"])
    add(MenuItem.self, ["NSMenuItem"])
    add(Cell.self, ["NSCell", "NSActionCell", "NSDatePickerCell", "NSPathCell", "NSPathComponentCell", "NSLevelIndicatorCell"])
    add(ButtonCell.self, ["NSButtonCell"])
    add(PopUpButtonCell.self, ["NSPopUpButtonCell"])
    add(TextFieldCell.self, ["NSTextFieldCell", "NSTableHeaderCell", "NSSearchFieldCell", "NSSecureTextFieldCell", "NSTokenFieldCell", "NSComboBoxCell"])
    add(ImageCell.self, ["NSImageCell"])
    add(ValueCell.self, ["NSSliderCell", "NSStepperCell"])
    add(SegmentedCell.self, ["NSSegmentedCell"])
    add(Segment.self, ["NSSegmentItem"])
    // The constraints ibtool adds: a fixed frame's prototyping ones, a layout guide's support one.
    add(LayoutConstraint.self, ["NSLayoutConstraint", "NSIBPrototypingLayoutConstraint", "_UILayoutSupportConstraint"])
    for name in Self.dataKeptClassNames {
      register(GenericObject.self, as: name, makeInstanceOnMainActor: { GenericObject(className: name) })
    }
  }

  /// AppKit and UIKit support classes a nib may hold that have no behaviour here: made as a
  /// ``GenericObject`` keeping every archived value, without counting as unknown.
  public static let dataKeptClassNames = [
    "NSTextStorage", "NSTextContainer", "NSLayoutManager", "NSTextViewSharedData", "NSCursor", "NSPanGestureRecognizer",
    "NSClickGestureRecognizer", "NSNumberFormatter", "NSDateFormatter", "NSToolbar", "NSToolbarItem", "NSToolbarSpaceItem",
    "NSToolbarFlexibleSpaceItem", "NSLayoutGuide", "IBNSViewAutolayoutGuide", "NSUserDefaultsController",
    "NSDecimalNumberHandler", "NSDecimalNumberPlaceholder", "NSBitmapImageRep", "NSImage", "NSAttributedString",
    "NSMutableAttributedString", "NSValue", "NSFontDescriptor", "NSColorSpace", "NSButtonImageSource", "NSNib",
    "NSPredicateEditorRowTemplate", "IBClassReference", "NSParagraphStyle", "NSMutableParagraphStyle", "NSShadow",
    "_NSRuleEditorViewSliceHolder", "_NSRuleEditorViewUnboundRowHolder", "IBImageConfiguration", "NSArrayController",
    "NSObjectController", "NSTreeController", "NSDictionaryController", "UILayoutGuide", "UITapGestureRecognizer",
    "UIPanGestureRecognizer", "UILongPressGestureRecognizer", "UISwipeGestureRecognizer", "NSLocale", "NSTimeZone", "NSFontManager", "UIButtonContent",
    "NSSplitViewItem", "NSStoryboardEmbedSegueTemplate", "WKWebViewConfiguration",
    "WKPreferences", "UICollectionViewFlowLayout",
  ]
}
