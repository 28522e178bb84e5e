/// The UIKit class of each Interface Builder element both iOS compilers write the same way
/// (`<label>` → `UILabel`); each compiler adds the elements only it knows.
enum UIKitElementClasses {
  static let shared: [String: String] = [
    "view": "UIView", "label": "UILabel", "button": "UIButton", "textField": "UITextField", "textView": "UITextView",
    "imageView": "UIImageView", "switch": "UISwitch", "slider": "UISlider", "stepper": "UIStepper",
    "segmentedControl": "UISegmentedControl", "tableView": "UITableView", "tableViewCell": "UITableViewCell",
    "tableViewCellContentView": "UITableViewCellContentView", "collectionView": "UICollectionView",
    "collectionViewCell": "UICollectionViewCell", "collectionViewCellContentView": "UIView",
    "collectionReusableView": "UICollectionReusableView", "scrollView": "UIScrollView", "stackView": "UIStackView",
    "activityIndicatorView": "UIActivityIndicatorView", "visualEffectView": "UIVisualEffectView",
    "navigationBar": "UINavigationBar", "tabBar": "UITabBar", "toolbar": "UIToolbar", "searchBar": "UISearchBar",
    "pickerView": "UIPickerView", "datePicker": "UIDatePicker", "progressView": "UIProgressView",
    "pageControl": "UIPageControl", "window": "UIWindow", "viewController": "UIViewController",
    "tableViewController": "UITableViewController", "collectionViewController": "UICollectionViewController",
    "navigationController": "UINavigationController", "tabBarController": "UITabBarController",
    "navigationItem": "UINavigationItem", "barButtonItem": "UIBarButtonItem", "tabBarItem": "UITabBarItem",
    "customObject": "NSObject", "containerView": "UIView",
  ]
}
