public import Foundation
public import ObjectModel

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

  public static let windowKeys = KeyTable(for: Window.self) {
    $0.key("title", \.title)
    $0.key("frame", \.frame)
    $0.key("styleMask", \.styleMask)
    $0.key("contentView", \.contentView)
    $0.key("rootViewController", \.rootViewController)
    $0.key("contentViewController", \.rootViewController)
    $0.key("delegate", \.delegate)
    $0.key("frameAutosaveName", \.frameAutosaveName)
    $0.key("identifier", \.identifier)
    $0.key("restorable", \.isRestorable)
    $0.key("initialFirstResponder", get: { $0.firstResponder }, set: { window, responder in window.makeFirstResponder(responder) })
    $0.key("toolbar", \.toolbar)
    $0.key("menu", \.menu)
  }
  open override class var keyTable: KeyTable { windowKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    if let rect = try coder.decodeRect(forKey: "NSWindowRect") { frame = rect }
    title = try coder.decodeString(forKey: "NSWindowTitle") ?? ""
    styleMask = coder.decodeInteger(forKey: "NSWindowStyleMask") ?? 0
    contentView = try coder.decodeObject(forKey: "NSWindowView", as: View.self)
    minSize = try coder.decodeSize(forKey: "NSMinSize")
    maxSize = try coder.decodeSize(forKey: "NSMaxSize")
    frameAutosaveName = try coder.decodeString(forKey: "NSFrameAutosaveName")
    identifier = try coder.decodeString(forKey: "NSUserInterfaceItemIdentifier")
    isRestorable = coder.decodeBool(forKey: "NSWindowIsRestorable") ?? true
    toolbar = try coder.decodeReference(forKey: "NSToolbar")
  }
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

  public static let windowControllerKeys = KeyTable(for: WindowController.self) {
    $0.key("window", \.window)
    $0.key("contentViewController", \.contentViewController)
    $0.key("storyboard", get: { $0.storyboard }, set: { controller, storyboard in controller.storyboard = storyboard })
  }
  open override class var keyTable: KeyTable { windowControllerKeys }

  open override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    if let window = try coder.decodeObject(forKey: "IBWindowTemplate", as: Window.self) { self.window = window }
    contentViewController = try coder.decodeObject(forKey: "IBWindowTemplateContentViewController", as: ViewController.self)
  }
}
