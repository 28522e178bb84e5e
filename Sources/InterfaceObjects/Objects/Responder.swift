public import ObjectModel

/// An object in the responder chain (`UIResponder` / `NSResponder`): actions with a nil target
/// travel from the first responder along ``nextResponder`` until an object handles them.
///
/// The chain follows UIKit's rules: a view's next responder is its view controller when it is
/// that controller's root view, else its superview; a root view's is its window; a view
/// controller's is its view's superview (or its parent); a window's is the application, after
/// the window's delegate; the application's is its delegate. AppKit's `NSNextResponder` (archived
/// in macOS nibs) is kept in ``assignedNextResponder`` and wins when set.
open class Responder: NibObject {
  /// A next responder set explicitly (`setNextResponder:`, AppKit's archived `NSNextResponder`).
  public weak var assignedNextResponder: Responder?

  public required init() { super.init() }

  /// The next object in the chain (`nextResponder`).
  open var nextResponder: Responder? { assignedNextResponder }

  /// Whether this responder can be made first responder (`canBecomeFirstResponder`); `false`
  /// here, `true` for controls that take keyboard input.
  open var canBecomeFirstResponder: Bool { false }

  /// The objects an action with a nil target visits from here, in order: this responder, the
  /// ones after it, and at the window and the application their delegates. At most 1,000 (a
  /// chain made into a loop by hand stops there).
  public var responderChain: [AnyObject] {
    var chain: [AnyObject] = []
    var seen: Set<ObjectIdentifier> = []
    var current: Responder? = self
    while let responder = current, chain.count < 1_000, seen.insert(ObjectIdentifier(responder)).inserted {
      chain.append(responder)
      for extra in responder.delegatesInChain where seen.insert(ObjectIdentifier(extra)).inserted { chain.append(extra) }
      current = responder.nextResponder
    }
    return chain
  }

  /// Objects that are not responders but come right after this one in the chain (a window's
  /// delegate, the application's delegate).
  open var delegatesInChain: [AnyObject] { [] }

  /// The first object in ``responderChain`` that has the action (`targetForAction:withSender:`).
  public func target(forAction action: String) -> AnyObject? {
    responderChain.first { ($0 as? ActionResponding)?.responds(to: action) == true }
  }
}

/// The application stand-in (`UIApplication` / `NSApplication`): the end of every responder
/// chain, its delegate, the windows, the main menu, and sending actions.
///
/// A nib's Application placeholder (macOS) and a window's next responder stand for it. The
/// `Lifecycle` module's application builds on it.
open class Application: Responder {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(mainMenu)
    references.keep(dockMenu)
  }
  /// The application's delegate (`delegate`), the last stop of the responder chain. Weak, as in
  /// UIKit and AppKit: the app keeps it.
  public weak var delegate: AnyObject?
  /// The menu bar (`mainMenu`): a nib's menu named `MainMenu` becomes it.
  public var mainMenu: Menu?
  /// The Dock's menu (`dockMenu`, AppKit), which main menus often connect.
  public var dockMenu: Menu?
  private var windowReferences: [WeakReference] = []
  /// The key window, whose first responder receives actions with a nil target.
  public weak var keyWindow: Window?
  /// Whether `terminate:` was sent (a main menu's Quit item targets the Application
  /// placeholder): the host that runs the app ends its main loop when it sees it.
  public private(set) var isTerminationRequested = false

  /// `terminate:` — asks the host to end the app (``isTerminationRequested``).
  public func terminate(_ sender: Any?) { isTerminationRequested = true }

  /// How many times `orderFrontStandardAboutPanel:` asked for the About panel (a host shows it).
  public private(set) var aboutPanelRequests = 0

  /// `orderFrontStandardAboutPanel:` — asks the host for the standard About panel.
  public func orderFrontStandardAboutPanel(_ sender: Any?) { aboutPanelRequests += 1 }

  /// NSApplication's actions a nib connects to the Application placeholder.
  public static let applicationActions = ActionTable(for: Application.self) {
    $0.action("terminate:") { application, sender in application.terminate(sender) }
    $0.action("orderFrontStandardAboutPanel:") { application, sender in application.orderFrontStandardAboutPanel(sender) }
  }
  open override class var actionTable: ActionTable { applicationActions }

  public required init() { super.init() }

  /// The windows ordered front or made key, oldest first, while something keeps them (the
  /// application does not own them).
  public var windows: [Window] { windowReferences.compactMap { $0.object as? Window } }

  /// Adds `window` to ``windows`` (ordering it front).
  public func addWindow(_ window: Window) {
    windowReferences.removeAll { $0.object == nil || $0.object === window }
    windowReferences.append(WeakReference(window))
    window.application = self
  }

  open override var delegatesInChain: [AnyObject] { delegate.map { [$0] } ?? [] }

  /// The keys of `Application`: `delegate` (the outlet every main nib connects) and `mainMenu`.
  public static let applicationKeys = NibKeyTable(for: Application.self) {
    $0.key("delegate", \.delegate)
    $0.key("mainMenu", \.mainMenu)
    $0.key("dockMenu", \.dockMenu)
    $0.readOnlyKey("windows", \.windows)
  }
  open override class var nibKeyTable: NibKeyTable { applicationKeys }

  /// Sends `action` (`sendAction:to:from:forEvent:`): to `target` when it is not nil, else along
  /// the responder chain from the key window's first responder (or the key window, or the
  /// sender when it is a responder). Answers whether an object handled it.
  @discardableResult
  public func sendAction(_ action: String, to target: AnyObject?, from sender: Any?) throws -> Bool {
    if let target {
      guard let responder = target as? ActionResponding, responder.responds(to: action) else { return false }
      try responder.perform(action: action, sender: sender)
      return true
    }
    let start: Responder? = keyWindow?.firstResponder ?? keyWindow ?? (sender as? Responder)
    guard var chain = start?.responderChain else { return false }
    if !chain.contains(where: { $0 === self }) { chain += [self] + delegatesInChain }
    for object in chain {
      if let responder = object as? ActionResponding, responder.responds(to: action) {
        try responder.perform(action: action, sender: sender)
        return true
      }
    }
    return false
  }
}
