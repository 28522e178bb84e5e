public import Foundation

/// A view (`UIView` / `NSView`), headless: its geometry, its place in the view tree, and the
/// properties nibs archive.
///
/// Decodes AppKit's keys (`NSFrame` or `NSFrameSize`, `NSSubviews`, `NSSuperview`, `NSvFlags`:
/// autoresizing mask in bits 0–5 and hidden in bit 31, `NSViewConstraints`, `NSNextKeyView`,
/// `NSDoNotTranslateAutoresizingMask`) and UIKit's (`UIBounds` + `UICenter`, `UISubviews`,
/// `UISuperview`, `UITag`, `UIHidden`, `UIAlpha`, `UIBackgroundColor`, `UIAutoresizingMask`,
/// `UIRestorationIdentifier`, `UIViewAutolayoutConstraints`).
///
/// The stored properties a view's own methods and restoration touch for every view (its
/// subviews, superview, controller, restoration identifier and first-responder flag) have no
/// run-time exclusivity checks: views are `@MainActor`, and each of these is read or assigned
/// whole, or changed in place by the view's own methods with no call that could reach the same
/// property while the change is under way (the closures they pass compare identities only). Only
/// a program passing one of them `inout` while assigning it again would lose the check's trap.
/// The checks were about 5 % of a 10,000-node restore (`swift_beginAccess`, profiled).
open class View: Responder {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    for subview in subviews { references.keep(subview) }
  }
  /// The frame in the superview's coordinates (`frame`).
  public var frame: CGRect = .zero
  /// The subviews, back to front (`subviews`); the view owns them.
  @exclusivity(unchecked) public private(set) var subviews: [View] = []
  /// The superview (`superview`). Not a weak reference (weak references make every retain of
  /// the view slow): as in UIKit, a view clears its subviews' pointer when it goes, and the
  /// pointer is only ever set to the view that holds this one in its ``subviews``.
  public var superview: View? { superviewStorage }
  @exclusivity(unchecked) private unowned(unsafe) var superviewStorage: View?
  /// The view controller whose root view this is, weak. Not a Swift `weak` reference (it gives
  /// every view controller a side table and makes each retain of it slow: profiled in
  /// restoring 3,330 controllers): the controller holds the view, and clears this pointer when it
  /// takes another view or goes itself, so it never dangles.
  public internal(set) var viewController: ViewController? {
    get { viewControllerStorage }
    set { viewControllerStorage = newValue }
  }
  @exclusivity(unchecked) private unowned(unsafe) var viewControllerStorage: ViewController?
  weak var hostWindow: Window?
  /// `tag`.
  public var tag = 0
  /// `hidden` / `isHidden`.
  public var isHidden = false
  /// `alpha` (UIKit) / `alphaValue` (AppKit).
  public var alpha = 1.0
  /// `backgroundColor`.
  public var backgroundColor: Color?
  /// `autoresizingMask`: UIKit's and AppKit's bits (flexible left margin, width, right margin,
  /// top/bottom margin, height), as archived.
  public var autoresizingMask = 0
  /// `translatesAutoresizingMaskIntoConstraints`.
  public var translatesAutoresizingMaskIntoConstraints = true
  /// The constraints the view holds (`constraints`), kept as data: nothing lays the view out.
  public var constraints: [LayoutConstraint] = []
  /// `restorationIdentifier`: the view's name in state restoration.
  @exclusivity(unchecked) public var restorationIdentifier: String?
  /// `accessibilityIdentifier`.
  public var accessibilityIdentifier: String?
  /// `accessibilityLabel` (AppKit's `AXDescription`, from an `NSNibAXAttributeConnector`).
  public var accessibilityLabel: String?
  /// `accessibilityHelp` (AppKit's `AXHelp`).
  public var accessibilityHelp: String?
  /// `accessibilityTitle` (AppKit's `AXTitle`).
  public var accessibilityTitle: String?
  /// `accessibilityRoleDescription` (`AXRoleDescription`).
  public var accessibilityRoleDescription: String?
  /// `accessibilityValueDescription` (`AXValueDescription`).
  public var accessibilityValueDescription: String?
  /// Other accessibility attributes a nib overrides, by AX attribute name
  /// (`accessibilitySetOverrideValue:forAttribute:`).
  public var accessibilityOverrides = [String: Any]()
  /// `identifier` (AppKit's `NSUserInterfaceItemIdentifier`).
  public var identifier: String?
  /// `toolTip`, from the nib's help connectors.
  public var toolTip: String?
  /// `nextKeyView` (AppKit's keyboard loop), weak: it reads `nil` once that view is gone.
  ///
  /// Not a Swift `weak` reference, which gives the view it points to a side table and makes every
  /// retain and release of that view slow (profiled in nib loading: a key-view loop through a
  /// window's fields). The view it points to keeps this one among its referrers (`ViewReferrer`)
  /// and clears the pointer when it goes, as for ``superview``.
  public var nextKeyView: View? {
    get { nextKeyViewStorage }
    set {
      guard newValue !== nextKeyViewStorage else { return }
      nextKeyViewStorage?.removeReferrer(self)
      nextKeyViewStorage = newValue
      newValue?.addReferrer(self)
    }
  }
  private unowned(unsafe) var nextKeyViewStorage: View?

  /// The objects holding an unretained pointer to this view (``nextKeyView`` links, constraints'
  /// items), told when it goes. Unretained too: each removes itself when it lets go or goes.
  private var referrers: [ReferrerLink] = []

  /// Registers `referrer`, which now points at this view without retaining it (once per pointer).
  func addReferrer(_ referrer: any ViewReferrer) { referrers.append(ReferrerLink(object: referrer)) }

  /// Unregisters one pointer of `referrer` to this view.
  func removeReferrer(_ referrer: any ViewReferrer) {
    if let position = referrers.lastIndex(where: { $0.object === referrer }) { referrers.remove(at: position) }
  }

  public required init() { super.init() }

  /// The schema version of what ``encodeRestorableState(with:)`` writes.
  open class var restorableStateVersion: Int { 0 }

  /// Writes the view's restorable state (`encodeRestorableStateWithCoder:`); nothing for a
  /// plain view. Views are preserved only when they have a ``restorationIdentifier`` and their
  /// view controller is preserved. Subclasses call `super`.
  open func encodeRestorableState(with coder: any RestorableStateEncoder) {}

  /// Reads the state back (`decodeRestorableStateWithCoder:`). Subclasses call `super`.
  open func decodeRestorableState(with coder: any RestorableStateDecoder) {}

  /// Whether the view was the first responder when its state was saved, and should become it
  /// again once it is in a window (the `Restoration` module does so after decoding). A view set
  /// to `true` is noted in `FirstResponderRequests`, which restoration consults instead of
  /// reading the flag of every restored view.
  @exclusivity(unchecked) public var restoresFirstResponder = false {
    didSet { if restoresFirstResponder, !oldValue { FirstResponderRequests.note(self) } }
  }

  /// Whether the view is its window's first responder.
  public var isFirstResponder: Bool { window?.firstResponder === self }

  /// A view with `frame`.
  public convenience init(frame: CGRect) {
    self.init()
    self.frame = frame
  }

  /// `bounds`: the frame's size at the origin.
  public var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
  /// `center`: the frame's midpoint in the superview's coordinates.
  public var center: CGPoint {
    get { CGPoint(x: frame.midX, y: frame.midY) }
    set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
  }
  /// The window the view is in (`window`), through its superviews.
  public var window: Window? {
    var current: View? = self
    var steps = 0
    while let view = current, steps < 10_000 {
      if let window = view.hostWindow { return window }
      current = view.superview
      steps += 1
    }
    return nil
  }

  /// Adds `view` at the front (`addSubview:`), taking it from its old superview. A view cannot
  /// become a subview of itself or of one of its own subviews (UIKit raises); such a call does
  /// nothing here.
  public func addSubview(_ view: View) {
    guard !view.isAncestor(of: self) else { return }
    view.removeFromSuperview()
    // Room for a few at the first: appended one by one from empty, the list was made for one
    // subview and made again for the second (profiled: a view with two subviews).
    if subviews.isEmpty { subviews.reserveCapacity(4) }
    subviews.append(view)
    view.superviewStorage = self
  }

  isolated deinit {
    for subview in subviews where subview.superviewStorage === self { subview.superviewStorage = nil }
    // Whoever points here without retaining reads nil from now on; this view lets go of the view
    // it points to.
    let going = referrers
    referrers = []
    for link in going { link.object.viewIsGoing(self) }
    nextKeyViewStorage?.removeReferrer(self)
  }

  /// Whether this view is `view` or one of its superviews.
  public func isAncestor(of view: View) -> Bool {
    var current: View? = view
    var steps = 0
    while let candidate = current, steps < 100_000 {
      if candidate === self { return true }
      current = candidate.superview
      steps += 1
    }
    return false
  }

  /// Takes the view out of its superview (`removeFromSuperview`).
  public func removeFromSuperview() {
    guard let parent = superviewStorage else { return }
    superviewStorage = nil
    parent.subviews.removeAll { $0 === self }
  }

  /// The view with `tag`: this one or a descendant, depth first (`viewWithTag:`).
  public func viewWithTag(_ tag: Int) -> View? {
    var stack: [View] = [self]
    while let view = stack.popLast() {
      if view.tag == tag { return view }
      stack.append(contentsOf: view.subviews.reversed())
    }
    return nil
  }

  open override var nextResponder: Responder? {
    if let assigned = assignedNextResponder { return assigned }
    if let viewController { return viewController }
    if let superview { return superview }
    return hostWindow
  }

  /// The keys of `View` for key-value coding and runtime attributes.
  public static let viewKeys = NibKeyTable(for: View.self) {
    $0.key("frame", \.frame)
    $0.readOnlyKey("bounds", \.bounds)
    $0.key("center", \.center)
    $0.readOnlyKey("subviews", \.subviews)
    $0.readOnlyKey("superview", \.superview)
    $0.key("hidden", \.isHidden)
    $0.key("alphaValue", \.alpha)
    $0.key("accessibilityHelp", \.accessibilityHelp)
    $0.key("accessibilityTitle", \.accessibilityTitle)
    $0.key("accessibilityRoleDescription", \.accessibilityRoleDescription)
    $0.key("accessibilityValueDescription", \.accessibilityValueDescription)
    $0.key("toolTip", \.toolTip)
    $0.decode { view, coder throws(InterfaceObjectsError) in
      view.assignedNextResponder = nil
      if coder.isUIKit { try view.decodeUIKitTree(from: coder) } else { try view.decodeAppKitTree(from: coder) }
    }
    $0.uiKit {
      $0.integer(\.tag, from: "UITag", key: "tag") { $0.tag = $1 }
      $0.bool(\.isHidden, from: "UIHidden", key: "isHidden") { $0.isHidden = $1 }
      $0.double(\.alpha, from: "UIAlpha", key: "alpha") { $0.alpha = $1 }
      $0.object(\.backgroundColor, from: "UIBackgroundColor", key: "backgroundColor") { $0.backgroundColor = $1 }
      $0.integer(\.autoresizingMask, from: "UIAutoresizingMask", key: "autoresizingMask") { $0.autoresizingMask = $1 }
      $0.string(\.restorationIdentifier, from: "UIRestorationIdentifier", key: "restorationIdentifier") { $0.restorationIdentifier = $1 }
      $0.string(\.accessibilityIdentifier, from: "UIAccessibilityIdentifier", key: "accessibilityIdentifier") { $0.accessibilityIdentifier = $1 }
      $0.string(\.accessibilityLabel, from: "UIAccessibilityLabel", key: "accessibilityLabel") { $0.accessibilityLabel = $1 }
      $0.bool(
        \.translatesAutoresizingMaskIntoConstraints, from: "UIViewDoesNotTranslateAutoresizingMaskIntoConstraints", inverted: true,
        key: "translatesAutoresizingMaskIntoConstraints") { $0.translatesAutoresizingMaskIntoConstraints = $1 }
      $0.array(\.constraints, from: "UIViewAutolayoutConstraints") { $0.constraints = $1 }
    }
    $0.appKit {
      $0.object(\.nextKeyView, from: "NSNextKeyView", key: "nextKeyView") { $0.nextKeyView = $1 }
      $0.bool(\.translatesAutoresizingMaskIntoConstraints, from: "NSDoNotTranslateAutoresizingMask", inverted: true) { $0.translatesAutoresizingMaskIntoConstraints = $1 }
      $0.integer(\.tag, from: "NSTag") { $0.tag = $1 }
      $0.string(\.identifier, from: "NSUserInterfaceItemIdentifier", "NSReuseIdentifierKey", key: "identifier") { $0.identifier = $1 }
      $0.array(\.constraints, from: "NSViewConstraints") { $0.constraints = $1 }
    }
  }
  open override class var nibKeyTable: NibKeyTable { viewKeys }

  /// The flags, frame, subviews and superview of an AppKit view (`NSvFlags`, `NSFrame` or
  /// `NSFrameSize`, `NSSubviews`, `NSSuperview`).
  private func decodeAppKitTree(from coder: NibCoder) throws(InterfaceObjectsError) {
    if let flags = coder.decodeInteger(forKey: "NSvFlags") {
      autoresizingMask = flags & 0x3F
      isHidden = UInt32(truncatingIfNeeded: flags) & 0x8000_0000 != 0
    }
    if let frame = try coder.decodeRect(forKey: "NSFrame") {
      self.frame = frame
    } else if let size = try coder.decodeSize(forKey: "NSFrameSize") {
      frame = CGRect(origin: .zero, size: size)
    }
    for case let subview as View in try coder.decodeArray(forKey: "NSSubviews") where subview.superview !== self { addSubview(subview) }
    if let parent = try coder.decodeObject(forKey: "NSSuperview", as: View.self), superview == nil {
      parent.addSubview(self)
    }
  }

  /// The frame (from `UIBounds` and `UICenter`), subviews and superview of a UIKit view.
  private func decodeUIKitTree(from coder: NibCoder) throws(InterfaceObjectsError) {
    let bounds = try coder.decodeRect(forKey: "UIBounds") ?? .zero
    let center = try coder.decodePoint(forKey: "UICenter") ?? CGPoint(x: bounds.midX, y: bounds.midY)
    frame = CGRect(x: center.x - bounds.width / 2, y: center.y - bounds.height / 2, width: bounds.width, height: bounds.height)
    for case let subview as View in try coder.decodeArray(forKey: "UISubviews") where subview.superview !== self { addSubview(subview) }
    if let parent = try coder.decodeObject(forKey: "UISuperview", as: View.self), superview == nil { parent.addSubview(self) }
  }

}

/// An object that points at views without retaining them and is told when one goes, so that
/// the pointer reads `nil` afterwards: a weak reference without the side table Swift's `weak`
/// gives the view (which makes each retain and release of that view slow). The view keeps its
/// referrers unretained; a referrer unregisters when it lets go of the view or goes itself.
/// Views live on the main actor (`@MainActor`), as UIKit's and AppKit's do.
@MainActor protocol ViewReferrer: AnyObject {
  /// `view` is going: clear every pointer to it (without unregistering from it).
  func viewIsGoing(_ view: View)
}

/// One unretained pointer from a ``ViewReferrer`` to a view.
struct ReferrerLink {
  unowned(unsafe) let object: any ViewReferrer
}

extension View: ViewReferrer {
  func viewIsGoing(_ view: View) {
    if nextKeyViewStorage === view { nextKeyViewStorage = nil }
  }
}
