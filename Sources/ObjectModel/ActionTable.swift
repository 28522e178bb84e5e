/// The actions of one class: selector names (`save:`, `addNewItem:`, `dismiss`) and what each
/// does, the explicit stand-in for Objective-C's method lookup that target–action (controls
/// sending to their target, or along the responder chain for a nil target) needs.
///
/// ```swift
/// final class ItemsViewController: ActionResponding {
///   func addNewItem(_ sender: Any?) { … }
///   static let actionTable = ActionTable(for: ItemsViewController.self)
///     .action("addNewItem:") { controller, sender in controller.addNewItem(sender) }
/// }
/// try controller.perform(action: "addNewItem:", sender: button)
/// ```
public struct ActionTable: Sendable {
  private(set) var actions: [String: @Sendable (AnyObject, Any?) throws -> Void] = [:]

  /// An empty table for the class `Object`.
  public init<Object: AnyObject>(for type: Object.Type) {}

  /// An empty table.
  public init() {}

  /// Adds the action `selector` (its Objective-C name, with a trailing `:` when it takes the
  /// sender).
  public func action<Object: AnyObject>(
    _ selector: String, _ body: @escaping @Sendable (Object, Any?) throws -> Void
  ) -> ActionTable {
    var copy = self
    copy.actions[selector] = { object, sender in try body(object as! Object, sender) }
    return copy
  }

  /// This table with `other`'s actions added (a subclass's override wins).
  public func merged(with other: ActionTable) -> ActionTable {
    var copy = self
    copy.actions.merge(other.actions) { _, new in new }
    return copy
  }

  /// The selector names, sorted.
  public var selectors: [String] { actions.keys.sorted() }

  func body(_ selector: String) -> (@Sendable (AnyObject, Any?) throws -> Void)? { actions[selector] }
}

/// An object that answers actions by name (`respondsToSelector:`, `performSelector:withObject:`).
public protocol ActionResponding: AnyObject {
  /// The class's actions. In a class hierarchy, declare it `class var` and override it.
  static var actionTable: ActionTable { get }
}

extension ActionResponding {
  /// Whether the object has the action `selector` (`respondsToSelector:`).
  public func responds(to selector: String) -> Bool { type(of: self).actionTable.body(selector) != nil }

  /// Runs the action `selector` with `sender`.
  ///
  /// - Throws: ``ObjectModelError/Code/unknownAction`` when the object has no such action; an
  ///   error the action itself throws is rethrown as it is.
  public func perform(action selector: String, sender: Any?) throws {
    guard let body = type(of: self).actionTable.body(selector) else {
      throw ObjectModelError(
        .unknownAction, className: ObjectModelError.typeName(of: self), name: selector,
        detail: "the object does not respond to the action \(selector)")
    }
    try body(self, sender)
  }
}
