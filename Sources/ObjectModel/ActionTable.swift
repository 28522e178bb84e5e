/// The actions of one class: selector names (`save:`, `addNewItem:`, `dismiss`) and what each
/// does — the explicit stand-in for Objective-C's method lookup that target–action (a control
/// sending to its target, or along the responder chain for a nil target) needs.
///
/// ```swift
/// final class ItemsViewController: ActionResponding {
///   func addNewItem(_ sender: Any?) { … }
///   static let actionTable = ActionTable(for: ItemsViewController.self) {
///     $0.action("addNewItem:") { controller, sender in controller.addNewItem(sender) }
///   }
/// }
/// try controller.perform(action: "addNewItem:", sender: button)
/// ```
public struct ActionTable: Sendable {
  private(set) var actions: [String: @MainActor @Sendable (AnyObject, Any?) throws -> Void] = [:]

  /// An empty table.
  public init() {}

  /// The table of the class `Object`: `inheriting`'s actions (the superclass's table), then the
  /// actions `build` adds, which replace inherited ones of the same name (an override).
  @MainActor public init<Object: AnyObject>(
    for type: Object.Type, inheriting inherited: ActionTable = ActionTable(), _ build: (inout Builder<Object>) -> Void
  ) {
    var builder = Builder<Object>(table: inherited)
    build(&builder)
    self = builder.table
  }

  /// The selector names, sorted.
  public var selectors: [String] { actions.keys.sorted() }

  func body(_ selector: String) -> (@MainActor @Sendable (AnyObject, Any?) throws -> Void)? { actions[selector] }

  /// Adds the actions of the class `Object` to an ``ActionTable``.
  @MainActor public struct Builder<Object: AnyObject> {
    var table: ActionTable

    /// Adds the action `selector` (its Objective-C name, with a trailing `:` when it takes the
    /// sender).
    public mutating func action(_ selector: String, _ body: @escaping @MainActor @Sendable (Object, Any?) throws -> Void) {
      table.actions[selector] = { object, sender in try body(object as! Object, sender) }
    }
  }
}

/// An object that answers actions by name (`respondsToSelector:`, `performSelector:withObject:`).
@MainActor public protocol ActionResponding: AnyObject {
  /// The class's actions. In a class hierarchy, declare it `class var` and override it.
  static var actionTable: ActionTable { get }
}

extension ActionResponding {
  /// Whether the object has the action `selector` (`respondsToSelector:`).
  public func responds(to selector: String) -> Bool { type(of: self).actionTable.body(selector) != nil }

  /// Runs the action `selector` with `sender`.
  ///
  /// - Throws: `ObjectModelError.Code.unknownAction` when the object has no such action; an
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
