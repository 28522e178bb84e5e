public import Foundation

/// A window (`UIWindow` / `NSWindow`), headless. In a macOS nib it is archived as an
/// `NSWindowTemplate` (`NSWindowClass`, `NSWindowRect`, `NSWindowTitle`, `NSWindowView`,
/// `NSWindowStyleMask`, `NSMinSize`, `NSMaxSize`, `NSFrameAutosaveName`, …) and made from it,
/// as AppKit's template makes the real window.
open class Window: Responder {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(contentView)
    references.keep(rootViewController)
    references.cuttable(toolbar) { { [weak self] in self?.toolbar = nil } }
  }
  /// `title`.
  public var title = ""
  /// The frame on the screen (`frame`; the template's `NSWindowRect`).
  public var frame: CGRect = .zero
  /// `styleMask` (titled 1, closable 2, miniaturizable 4, resizable 8, …).
  public var styleMask = 0
  /// `minSize` / `maxSize`.
  public var minSize: CGSize?
  public var maxSize: CGSize?
  /// `frameAutosaveName`.
  public var frameAutosaveName: String?
  /// `identifier`.
  public var identifier: String?
  /// `menu` (`NSResponder`'s menu: a window's contextual menu, set by a nib's `menu` outlet).
  public var menu: Menu?
  /// `restorable` (AppKit) — whether the window takes part in restoration.
  public var isRestorable = true
  /// `rootViewController` (UIKit) / `contentViewController` (AppKit); its view becomes the
  /// content view — now if it is loaded, else when it loads (a storyboard gives the controller
  /// its view's nib after the window is made).
  public var rootViewController: ViewController? {
    didSet {
      oldValue?.hostingWindow = nil
      rootViewController?.hostingWindow = self
      if let view = rootViewController?.viewIfLoaded { contentView = view }
    }
  }
  /// The delegate (`delegate`), weak; it hears actions after the window in the responder chain.
  public weak var delegate: AnyObject?
  /// The window controller that owns the window, weak.
  public weak var windowController: WindowController?
  /// The application the window belongs to, weak.
  public weak var application: Application?
  /// The responder that gets actions with a nil target first (`firstResponder`), weak.
  public private(set) weak var firstResponder: Responder?
  /// Whether the window is on screen (`visible` / `isKeyWindow`).
  public private(set) var isVisible = false
  /// The toolbar object of a macOS window, as the nib made it.
  public var toolbar: AnyObject?

  public required init() { super.init() }

  /// The top view (`contentView`); the window owns it.
  public var contentView: View? {
    didSet {
      oldValue?.hostWindow = nil
      contentView?.hostWindow = self
    }
  }

  /// Makes `responder` the first responder (`makeFirstResponder:`); `nil` makes the window itself
  /// first responder. Answers `false` when the responder cannot become first responder.
  @discardableResult
  public func makeFirstResponder(_ responder: Responder?) -> Bool {
    guard let responder else {
      firstResponder = self
      return true
    }
    guard responder === self || responder.canBecomeFirstResponder else { return false }
    firstResponder = responder
    return true
  }

  /// Puts the window on screen and makes it the key window (`makeKeyAndVisible`,
  /// `makeKeyAndOrderFront:`).
  public func makeKeyAndVisible() {
    isVisible = true
    application?.addWindow(self)
    application?.keyWindow = self
  }

  /// Puts the window on screen without making it key (`orderFront:`).
  public func orderFront() {
    isVisible = true
    application?.addWindow(self)
  }

  /// Takes the window off screen (`orderOut:`).
  public func orderOut() { isVisible = false }

  open override var nextResponder: Responder? { assignedNextResponder ?? windowController ?? application }

  open override var delegatesInChain: [AnyObject] { delegate.map { [$0] } ?? [] }

  public static let windowKeys = NibKeyTable(for: Window.self) {
    $0.rect(\.frame, from: "NSWindowRect", key: "frame") { $0.frame = $1 }
    $0.string(\.title, from: "NSWindowTitle", key: "title") { $0.title = $1 }
    $0.integer(\.styleMask, from: "NSWindowStyleMask", key: "styleMask") { $0.styleMask = $1 }
    $0.object(\.contentView, from: "NSWindowView", key: "contentView") { $0.contentView = $1 }
    $0.size(\.minSize, from: "NSMinSize") { $0.minSize = $1 }
    $0.size(\.maxSize, from: "NSMaxSize") { $0.maxSize = $1 }
    $0.string(\.frameAutosaveName, from: "NSFrameAutosaveName", key: "frameAutosaveName") { $0.frameAutosaveName = $1 }
    $0.string(\.identifier, from: "NSUserInterfaceItemIdentifier", key: "identifier") { $0.identifier = $1 }
    $0.bool(\.isRestorable, from: "NSWindowIsRestorable", key: "restorable") { $0.isRestorable = $1 }
    $0.reference(\.toolbar, from: "NSToolbar", key: "toolbar") { $0.toolbar = $1 }
    $0.key("rootViewController", \.rootViewController)
    $0.key("contentViewController", \.rootViewController)
    $0.key("delegate", \.delegate)
    $0.key("initialFirstResponder", get: { $0.firstResponder }, set: { window, responder in window.makeFirstResponder(responder) })
    $0.key("menu", \.menu)
  }
  open override class var nibKeyTable: NibKeyTable { windowKeys }
}

/// A window controller (`NSWindowController`): its window and content view controller, as a
/// storyboard's window-controller scene makes them.
open class WindowController: Responder {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(window)
    references.keep(contentViewController)
  }
  /// `window`; the controller owns it.
  public var window: Window? {
    didSet { window?.windowController = self }
  }
  /// `contentViewController`.
  public var contentViewController: ViewController? {
    didSet { if let contentViewController { window?.rootViewController = contentViewController } }
  }
  /// The controller's nib or storyboard identifier.
  public var windowNibName: String?

  public required init() { super.init() }

  /// The storyboard that made the controller.
  public var storyboard: (any ViewControllerSource)?

  public static let windowControllerKeys = NibKeyTable(for: WindowController.self) {
    $0.object(\.window, from: "IBWindowTemplate", key: "window") { $0.window = $1 }
    $0.object(\.contentViewController, from: "IBWindowTemplateContentViewController", key: "contentViewController") { $0.contentViewController = $1 }
    $0.key("storyboard", get: { $0.storyboard }, set: { controller, storyboard in controller.storyboard = storyboard })
  }
  open override class var nibKeyTable: NibKeyTable { windowControllerKeys }
}
