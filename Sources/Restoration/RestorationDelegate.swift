public import InterfaceObjects

/// The app delegate's part in state preservation and restoration (`UIApplicationDelegate`'s
/// restoration methods). Every method has a default: an app that implements none of them opts
/// out, as in UIKit.
@MainActor public protocol StateRestorationDelegate: AnyObject {
  /// Whether to save the interface state now (`application:shouldSaveApplicationState:`);
  /// `coder` takes app-wide values as ``applicationWillEncodeRestorableState(_:)`` does.
  func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool
  /// The secure-coding variant (`application:shouldSaveSecureApplicationState:`, iOS 13.2+).
  func shouldSaveSecureApplicationState(_ coder: StateEncoder) -> Bool
  /// Whether to restore the saved state (`application:shouldRestoreApplicationState:`); `coder`
  /// answers the archive's metadata (``StateDecoder/bundleVersion`` and the
  /// `UIApplicationStateRestoration…Key` keys) and the app-wide values.
  func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool
  /// The secure-coding variant (`application:shouldRestoreSecureApplicationState:`): node
  /// state is then decoded with `KeyedArchive`'s secure mode, and a node whose state holds a
  /// class not registered as secure is not restored.
  func shouldRestoreSecureApplicationState(_ coder: StateDecoder) -> Bool
  /// App-wide values to save beside the tree (`application:willEncodeRestorableStateWithCoder:`).
  func applicationWillEncodeRestorableState(_ coder: StateEncoder)
  /// The app-wide values, after every restored object decoded its state
  /// (`application:didDecodeRestorableStateWithCoder:`), the last step of restoration.
  func applicationDidDecodeRestorableState(_ coder: StateDecoder)
  /// A view controller for a saved path, asked when the node has no restoration class
  /// (`application:viewControllerWithRestorationIdentifierPath:coder:`); `nil` lets restoration
  /// look for it implicitly (an existing object with the path, then its storyboard).
  func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController?
}

extension StateRestorationDelegate {
  public func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool { false }
  public func shouldSaveSecureApplicationState(_ coder: StateEncoder) -> Bool { false }
  public func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool { false }
  public func shouldRestoreSecureApplicationState(_ coder: StateDecoder) -> Bool { false }
  public func applicationWillEncodeRestorableState(_ coder: StateEncoder) {}
  public func applicationDidDecodeRestorableState(_ coder: StateDecoder) {}
  public func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? { nil }
}

/// A restoration class (`UIViewControllerRestoration`): makes the view controller for a saved
/// path. A view controller names its restoration class by `ViewController.restorationClassName`,
/// and the app registers the class under that name with ``StateRestoration/register(_:as:)``.
/// Returning `nil` means the controller is not to be restored: its node and its saved state are
/// skipped, and restoration does not look elsewhere for it.
@MainActor public protocol ViewControllerRestoration: AnyObject {
  /// `+viewControllerWithRestorationIdentifierPath:coder:`.
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController?
}
