public import Foundation

// UIKit's state preservation and restoration hooks (`UIStateRestoring`), on the headless classes.
// The machinery that walks the tree, writes the snapshot and brings it back is the `Restoration`
// module; it hands every node one of these coders.

/// What a view controller or view writes its restorable state through during preservation: the
/// `NSCoder` UIKit passes to `encodeRestorableStateWithCoder:`.
@MainActor public protocol RestorableStateEncoder: AnyObject {
  /// Keeps `value` under `key`: a string, number, Boolean, date, data, an array or dictionary of
  /// those, or an instance of a class the app registered for archiving (`encodeObject:forKey:`).
  /// `nil` removes the key.
  func encode(_ value: Any?, forKey key: String)
  /// Keeps a reference to another restorable object (a view controller or view with a
  /// restoration identifier), stored as its identifier path, as UIKit stores view controllers
  /// encoded in a restoration coder. `nil` stores no reference.
  func encodeRestorableObject(_ object: AnyObject?, forKey key: String)
  /// Keeps references to several restorable objects, in order (a navigation stack, tabs).
  func encodeRestorableObjects(_ objects: [AnyObject], forKey key: String)
}

/// What a view controller or view reads its state from during restoration
/// (`decodeRestorableStateWithCoder:`).
@MainActor public protocol RestorableStateDecoder: AnyObject {
  /// The schema version the state was written with (after migration: the class's current
  /// ``ViewController/restorableStateVersion``).
  var stateVersion: Int { get }
  /// Whether the state holds `key` (`containsValueForKey:`).
  func containsValue(forKey key: String) -> Bool
  /// The value under `key`, or `nil`.
  func decodeObject(forKey key: String) -> Any?
  /// The restored object a reference under `key` leads to; `nil` when none was stored or that
  /// object was not restored.
  func decodeRestorableObject(forKey key: String) -> AnyObject?
  /// The restored objects references under `key` lead to, in order, skipping any not restored.
  func decodeRestorableObjects(forKey key: String) -> [AnyObject]
}

// Each getter takes a value of exactly the type asked for out of its `Any` without the runtime's
// dynamic cast (`exactly(_:as:)`), and casts only the others; inlinable, so that an app's
// `decodeRestorableState` gets them specialized (a restore calls them for every node).
extension RestorableStateDecoder {
  /// The value under `key` if it is a `T` (`decodeObjectOfClass:forKey:`).
  @inlinable
  public func decode<T>(_ type: T.Type, forKey key: String) -> T? {
    guard let value = decodeObject(forKey: key) else { return nil }
    // Not `exactly(value, as: T.self) ?? value as? T`: called through an existential, this
    // function is not specialized for its `Self`, and `??` made it look up `T?`'s metadata at
    // run time on every call (profiled).
    // The type the `Any` holds, read from it (`heldType(of:)`), not `type(of:)`'s run-time call.
    if heldType(of: value) == ObjectIdentifier(T.self) { return unboxExactly(value, as: T.self) }
    return value as? T
  }

  /// An integer under `key` (`decodeIntegerForKey:`), whatever width it was stored with.
  @inlinable
  public func decodeInteger(forKey key: String) -> Int? {
    guard let value = decodeObject(forKey: key) else { return nil }
    if let integer = exactly(value, as: Int.self) { return integer }
    return switch value {
    case let value as Int: value
    case let value as Int64: Int(exactly: value)
    case let value as UInt64: Int(exactly: value)
    case let value as Double: Int(exactly: value)
    default: nil
    }
  }

  /// A double under `key` (`decodeDoubleForKey:`), from any stored number.
  @inlinable
  public func decodeDouble(forKey key: String) -> Double? {
    guard let value = decodeObject(forKey: key) else { return nil }
    if let real = exactly(value, as: Double.self) { return real }
    return switch value {
    case let value as Double: value
    case let value as Float: Double(value)
    case let value as Int: Double(value)
    case let value as Int64: Double(value)
    default: nil
    }
  }

  /// A Boolean under `key` (`decodeBoolForKey:`).
  @inlinable
  public func decodeBool(forKey key: String) -> Bool? {
    guard let value = decodeObject(forKey: key) else { return nil }
    if let flag = exactly(value, as: Bool.self) { return flag }
    return value as? Bool
  }
}

/// A table's data source that names its rows by model identifier
/// (`UIDataSourceModelAssociation`), so that a restored selection follows the model objects and
/// not their positions: after the rows were reordered, added to or deleted from, the same items
/// come back selected.
@MainActor public protocol DataSourceModelAssociation: AnyObject {
  /// The identifier of the model object shown at `indexPath` (`modelIdentifierForElementAtIndexPath:inView:`).
  func modelIdentifierForElement(at indexPath: IndexPath, in view: View) -> String?
  /// Where the model object with `identifier` is shown now (`indexPathForElementWithModelIdentifier:inView:`).
  func indexPathForElement(withModelIdentifier identifier: String, in view: View) -> IndexPath?
}

/// The key names UIKit's own classes keep their restorable state under.
public enum RestorableStateKey {
  /// A navigation or tab bar controller's children, as references.
  public static let childViewControllers = "kViewControllersKey"
  /// A tab bar controller's selected child, as a reference.
  public static let selectedViewController = "kSelectedViewControllerKey"
  /// A view controller's presented view controller, as a reference.
  public static let presentedViewController = "kPresentedViewControllerKey"
  /// A scroll view's or table's content offset, `[x, y]`.
  public static let contentOffset = "kContentOffsetKey"
  /// A table's selected rows, as `[section, row]` pairs.
  public static let selectedIndexPaths = "kSelectedIndexPathsKey"
  /// A table's selected rows, as the data source's model identifiers.
  public static let selectedModelIdentifiers = "kSelectedModelIdentifiersKey"
  /// The text of a text field or text view.
  public static let text = "kTextKey"
  /// The selected range of a text view, `[location, length]`.
  public static let selectedRange = "kSelectedRangeKey"
  /// Whether a text field or text view was being edited (the first responder).
  public static let editing = "kEditingKey"
  /// The date a date picker shows (Stasis's: UIKit's picker keeps none of its own).
  public static let date = "kDateKey"
}

/// A point kept as `[x, y]` in a restoration coder, or `nil` when the value is not one.
func restoredPoint(_ value: Any?) -> CGPoint? {
  guard let value, let pair = exactly(value, as: [Any].self) ?? value as? [Any], pair.count == 2 else { return nil }
  func number(_ value: Any) -> Double? {
    if let real = exactly(value, as: Double.self) { return real }
    return switch value {
    case let value as Double: value
    case let value as Int: Double(value)
    case let value as Float: Double(value)
    default: nil
    }
  }
  guard let x = number(pair[0]), let y = number(pair[1]), x.isFinite, y.isFinite else { return nil }
  return CGPoint(x: x, y: y)
}
