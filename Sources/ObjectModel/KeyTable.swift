/// The keys of one class for key-value coding: each key's name with a getter and, for a
/// settable key, a setter — Stasis's explicit stand-in for the Objective-C runtime's property
/// lookup (`valueForKey:`, `setValue:forKey:`), written once per class.
///
/// ```swift
/// final class Item: KeyValueCoding {
///   var name = ""
///   var valueInDollars = 0
///   var note: String?
///   static let keyTable = KeyTable(for: Item.self) {
///     $0.key("name", \.name)
///     $0.key("valueInDollars", \.valueInDollars)
///     $0.key("note", \.note)
///   }
/// }
/// ```
///
/// A subclass extends its superclass's table (`UIButton` has `UIView`'s keys): declare the
/// requirement as `class var keyTable` in the base class, keep each class's table in a
/// `static let` (built once), and pass the superclass's as `inheriting:`.
///
/// Lookups are one dictionary access; a setter converts numbers as `NSNumber` does.
public struct KeyTable: Sendable {
  /// How one key is read and written.
  struct Accessor: Sendable {
    let get: @MainActor @Sendable (AnyObject) -> Any?
    let set: (@MainActor @Sendable (AnyObject, Any?, String) throws(ObjectModelError) -> Void)?
  }

  private(set) var accessors: [String: Accessor] = [:]

  /// An empty table.
  public init() {}

  /// The table of the class `Object`: `inheriting`'s keys (the superclass's table), then the keys
  /// `build` adds, which replace inherited keys of the same name (a subclass overriding a property).
  @MainActor public init<Object: AnyObject>(
    for type: Object.Type, inheriting inherited: KeyTable = KeyTable(), _ build: (inout Builder<Object>) -> Void
  ) {
    var builder = Builder<Object>(table: inherited)
    build(&builder)
    self = builder.table
  }

  /// The key names, sorted.
  public var keys: [String] { accessors.keys.sorted() }

  /// Whether `key` is in the table.
  public func contains(_ key: String) -> Bool { accessors[key] != nil }

  /// Whether `key` can be set.
  public func isSettable(_ key: String) -> Bool { accessors[key]?.set != nil }

  func accessor(_ key: String) -> Accessor? { accessors[key] }

  /// Adds the keys of the class `Object` to a ``KeyTable``.
  @MainActor public struct Builder<Object: AnyObject> {
    var table: KeyTable

    /// Adds a settable key backed by a writable property.
    public mutating func key<Value>(_ name: String, _ path: ReferenceWritableKeyPath<Object, Value>) {
      table.accessors[name] = Accessor(
        get: { object in (object as! Object)[keyPath: path] },
        set: { (object, value, key) throws(ObjectModelError) in
          let converted: Value = try KeyValueConversion.convert(value, to: Value.self, key: key, of: object)
          (object as! Object)[keyPath: path] = converted
        })
    }

    /// Adds a read-only key backed by a property or a computed value.
    public mutating func readOnlyKey<Value>(_ name: String, _ path: KeyPath<Object, Value>) {
      table.accessors[name] = Accessor(get: { object in (object as! Object)[keyPath: path] }, set: nil)
    }

    /// Adds a key with a hand-written getter and setter (a key that is not a stored property, or
    /// whose setter does more than assign).
    public mutating func key<Value>(
      _ name: String, get: @escaping @MainActor @Sendable (Object) -> Value, set: @escaping @MainActor @Sendable (Object, Value) -> Void
    ) {
      table.accessors[name] = Accessor(
        get: { object in get(object as! Object) },
        set: { (object, value, key) throws(ObjectModelError) in
          let converted: Value = try KeyValueConversion.convert(value, to: Value.self, key: key, of: object)
          set(object as! Object, converted)
        })
    }
  }
}
