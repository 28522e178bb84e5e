internal import ObjectModel

/// UIKit's control events (`UIControl.Event`), the mask of an action connection (`UIEventMask`).
public struct ControlEvents: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  public static let touchDownRepeat = ControlEvents(rawValue: 1 << 1)
  public static let touchDragInside = ControlEvents(rawValue: 1 << 2)
  public static let touchDragOutside = ControlEvents(rawValue: 1 << 3)
  public static let touchDragEnter = ControlEvents(rawValue: 1 << 4)
  public static let touchDragExit = ControlEvents(rawValue: 1 << 5)
  public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
  public static let touchCancel = ControlEvents(rawValue: 1 << 8)
  public static let valueChanged = ControlEvents(rawValue: 1 << 12)
  public static let editingDidBegin = ControlEvents(rawValue: 1 << 16)
  public static let editingChanged = ControlEvents(rawValue: 1 << 17)
  public static let editingDidEnd = ControlEvents(rawValue: 1 << 18)
  public static let editingDidEndOnExit = ControlEvents(rawValue: 1 << 19)
}

/// A control (`UIControl` / `NSControl`): target–action. AppKit controls have one ``target`` and
/// ``action`` and keep their value in a ``cell``; UIKit controls keep a list of (target, action,
/// events). A nil target sends the action along the responder chain.
open class Control: View {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.keep(cell)
  }
  /// One UIKit target–action registration (`addTarget:action:forControlEvents:`).
  public struct EventAction {
    /// The target, weak; `nil` means the responder chain.
    public weak var target: AnyObject?
    /// Whether a target was given (a target that has since gone away sends nothing).
    public let hasTarget: Bool
    public let action: String
    public let events: ControlEvents
  }

  /// The AppKit cell (`NSCell`), owned by the control (it points back with `controlView`).
  /// No run-time exclusivity checks: read or assigned whole, and read by every text field's
  /// ``TextField/text`` (see ``View``).
  @exclusivity(unchecked) public var cell: Cell? {
    didSet {
      if let oldValue, oldValue !== cell, oldValue.controlViewStorage === self { oldValue.controlViewStorage = nil }
      cell?.controlViewStorage = self
    }
  }

  isolated deinit {
    if let cell, cell.controlViewStorage === self { cell.controlViewStorage = nil }
  }
  /// `enabled` / `isEnabled`.
  public var isEnabled = true
  /// `target` (AppKit), weak; `nil` sends ``action`` along the responder chain.
  public weak var target: AnyObject?
  /// `action` (AppKit): the selector name.
  public var action: String?
  /// UIKit's registrations, in the order they were added.
  public private(set) var eventActions: [EventAction] = []

  public required init() { super.init() }

  /// Registers `action` for `events` (`addTarget:action:forControlEvents:`); `nil` targets the
  /// responder chain.
  public func addTarget(_ target: AnyObject?, action: String, for events: ControlEvents) {
    eventActions.append(EventAction(target: target, hasTarget: target != nil, action: action, events: events))
  }

  /// The actions registered for any of `events`.
  public func actions(for events: ControlEvents) -> [String] {
    eventActions.filter { !$0.events.isDisjoint(with: events) }.map(\.action)
  }

  /// Sends `action` to `target` (`sendAction:to:forEvent:` / `sendAction:to:`): through the
  /// window's application when the control is in a window that has one, else to `target` or
  /// along the control's own responder chain. Answers whether an object handled it.
  @discardableResult
  public func sendAction(_ action: String, to target: AnyObject?) throws -> Bool {
    if let application = window?.application { return try application.sendAction(action, to: target, from: self) }
    let receivers: [AnyObject] = target.map { [$0] } ?? responderChain
    for receiver in receivers {
      if let responder = receiver as? ActionResponding, responder.responds(to: action) {
        try responder.perform(action: action, sender: self)
        return true
      }
    }
    return false
  }

  /// Sends every action registered for `events` (`sendActionsForControlEvents:`), in order; an
  /// AppKit control sends its ``action`` for any event. Answers how many were handled.
  @discardableResult
  public func sendActions(for events: ControlEvents) throws -> Int {
    var handled = 0
    for registration in eventActions where !registration.events.isDisjoint(with: events) {
      if registration.hasTarget && registration.target == nil { continue }
      if try sendAction(registration.action, to: registration.target) { handled += 1 }
    }
    if let action, try sendAction(action, to: target) { handled += 1 }
    return handled
  }

  /// Clicks the control (`performClick:`): sends ``action``, or the actions for
  /// `touchUpInside`.
  @discardableResult
  public func performClick() throws -> Bool {
    guard isEnabled else { return false }
    return try sendActions(for: .touchUpInside) > 0
  }

  open override var canBecomeFirstResponder: Bool { isEnabled }

  public static let controlKeys = NibKeyTable(for: Control.self, inheriting: viewKeys) {
    $0.key("isEnabled", \.isEnabled)
    $0.key("target", \.target)
    $0.key("action", \.action)
    $0.uiKit { $0.bool(\.isEnabled, from: "UIDisabled", inverted: true, key: "enabled") { $0.isEnabled = $1 } }
    $0.appKit {
      $0.bool(\.isEnabled, from: "NSEnabled") { $0.isEnabled = $1 }
      $0.object(\.cell, from: "NSCell", key: "cell") { $0.cell = $1 }
    }
  }
  open override class var nibKeyTable: NibKeyTable { controlKeys }
}
