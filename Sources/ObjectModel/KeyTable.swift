/// The keys of one class for key-value coding: each key's name with a getter and, for a
/// settable key, a setter — Stasis's explicit stand-in for the Objective-C runtime's property
/// lookup (`valueForKey:`, `setValue:forKey:`), written once per class.
///
/// ```swift
/// final class Item: KeyValueCoding {
///   var name = ""
///   var valueInDollars = 0
///   var note: String?
///   static let keyTable = KeyTable(for: Item.self)
///     .key("name", \.name)
///     .key("valueInDollars", \.valueInDollars)
///     .key("note", \.note)
/// }
/// ```
///
/// A subclass extends its superclass's table (`UIButton` has `UIView`'s keys): declare the
/// requirement as `class var keyTable` in the base class and override it with the base table
/// ``merged(with:)`` the subclass's own keys, kept in a `static let` so it is built once.
///
/// Lookups are one dictionary access; a setter converts numbers as `NSNumber` does
/// (``KeyValueConversion``).
public struct KeyTable: Sendable {
  /// How one key is read and written.
  struct Accessor: Sendable {
    let get: @Sendable (AnyObject) -> Any?
    let set: (@Sendable (AnyObject, Any?, String) throws(ObjectModelError) -> Void)?
    let valueType: KeyValueConversion.TypeBox
  }

  private(set) var accessors: [String: Accessor] = [:]

  /// An empty table, for the class `Object` (the type only documents intent; any table can be
  /// merged into a subclass's).
  public init<Object: AnyObject>(for type: Object.Type) {}

  /// An empty table.
  public init() {}

  /// The key names, sorted.
  public var keys: [String] { accessors.keys.sorted() }

  /// Whether `key` is in the table.
  public func contains(_ key: String) -> Bool { accessors[key] != nil }

  /// Whether `key` can be set.
  public func isSettable(_ key: String) -> Bool { accessors[key]?.set != nil }

  /// Adds a settable key backed by a writable property.
  public func key<Object: AnyObject, Value>(
    _ name: String, _ path: ReferenceWritableKeyPath<Object, Value> & Sendable
  ) -> KeyTable {
    var copy = self
    copy.accessors[name] = Accessor(
      get: { object in (object as! Object)[keyPath: path] },
      set: { (object, value, key) throws(ObjectModelError) in
        let converted: Value = try KeyValueConversion.convert(value, to: Value.self, key: key, of: object)
        (object as! Object)[keyPath: path] = converted
      },
      valueType: KeyValueConversion.TypeBox(Value.self))
    return copy
  }

  /// Adds a read-only key backed by a property or computed value.
  public func readOnlyKey<Object: AnyObject, Value>(_ name: String, _ path: KeyPath<Object, Value> & Sendable) -> KeyTable {
    var copy = self
    copy.accessors[name] = Accessor(
      get: { object in (object as! Object)[keyPath: path] }, set: nil, valueType: KeyValueConversion.TypeBox(Value.self))
    return copy
  }

  /// Adds a key with a hand-written getter and setter (a key that is not a stored property, or
  /// whose setter does more than assign).
  public func key<Object: AnyObject, Value>(
    _ name: String, of type: Object.Type, as valueType: Value.Type,
    get: @escaping @Sendable (Object) -> Value,
    set: @escaping @Sendable (Object, Value) -> Void
  ) -> KeyTable {
    var copy = self
    copy.accessors[name] = Accessor(
      get: { object in get(object as! Object) },
      set: { (object, value, key) throws(ObjectModelError) in
        let converted: Value = try KeyValueConversion.convert(value, to: Value.self, key: key, of: object)
        set(object as! Object, converted)
      },
      valueType: KeyValueConversion.TypeBox(Value.self))
    return copy
  }

  /// This table with `other`'s keys added; a key in both takes `other`'s accessor (a subclass
  /// overriding a property).
  public func merged(with other: KeyTable) -> KeyTable {
    var copy = self
    copy.accessors.merge(other.accessors) { _, new in new }
    return copy
  }

  func accessor(_ key: String) -> Accessor? { accessors[key] }
}
