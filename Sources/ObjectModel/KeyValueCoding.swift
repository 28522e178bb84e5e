/// Key-value coding: reading and setting an object's properties by name, as the nib loader does
/// for outlets and `userDefinedRuntimeAttributes` and restoration does for saved state
/// (`NSKeyValueCoding`: `valueForKey:`, `setValue:forKey:`, `valueForKeyPath:`).
///
/// A class adopts it by listing its keys once in a ``KeyTable``:
///
/// ```swift
/// final class DetailViewController: KeyValueCoding {
///   var nameField: TextField?
///   static let keyTable = KeyTable(for: DetailViewController.self) { $0.key("nameField", \.nameField) }
/// }
/// try controller.setValue(field, forKey: "nameField")
/// try controller.value(forKeyPath: "nameField.text")
/// ```
///
/// A key not in the table goes to ``setValue(_:forUndefinedKey:)`` /
/// ``value(forUndefinedKey:)``, whose default throws `ObjectModelError.Code.undefinedKey`
/// naming the class and the key (Apple raises `NSUnknownKeyException`: "this class is not key
/// value coding-compliant for the key …"). Implement them to accept extra keys. In a class
/// hierarchy, implement both in the base class that adopts the protocol (throwing
/// ``ObjectModelError/undefinedKey(_:of:)``), so that subclasses can `override` them: Swift
/// calls the protocol's default, not a subclass's method, when the base class has none.
@MainActor public protocol KeyValueCoding: AnyObject {
  /// The class's keys. In a class hierarchy, declare it `class var` and override it in
  /// subclasses (``KeyTable/init(for:inheriting:_:)``).
  static var keyTable: KeyTable { get }

  /// The value for a key that is not in ``keyTable``. Default: throws
  /// `ObjectModelError.Code.undefinedKey`.
  func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any?

  /// Sets a key that is not in ``keyTable``. Default: throws `ObjectModelError.Code.undefinedKey`.
  func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError)
}

extension KeyValueCoding {
  public func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? {
    throw .undefinedKey(key, of: self)
  }

  public func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) {
    throw .undefinedKey(key, of: self)
  }

  /// The value of `key` (`valueForKey:`); an optional property that is `nil` gives `nil`.
  public func value(forKey key: String) throws(ObjectModelError) -> Any? {
    guard let accessor = type(of: self).keyTable.accessor(key) else { return try value(forUndefinedKey: key) }
    return KeyValueConversion.flatten(accessor.get(self))
  }

  /// Sets `key` to `value` (`setValue:forKey:`), converting numbers as `NSNumber` does.
  ///
  /// - Throws: `ObjectModelError.Code.undefinedKey` (through ``setValue(_:forUndefinedKey:)``),
  ///   `ObjectModelError.Code.readOnlyKey`, `ObjectModelError.Code.typeMismatch`,
  ///   `ObjectModelError.Code.nilForNonOptional`.
  public func setValue(_ value: Any?, forKey key: String) throws(ObjectModelError) {
    guard let accessor = type(of: self).keyTable.accessor(key) else {
      try setValue(value, forUndefinedKey: key)
      return
    }
    guard let set = accessor.set else {
      throw ObjectModelError(
        .readOnlyKey, className: ObjectModelError.typeName(of: self), name: key, detail: "the key \(key) is read-only")
    }
    try set(self, value, key)
  }

  /// The value at a dotted key path (`valueForKeyPath:`): each part but the last must lead to
  /// an object that adopts ``KeyValueCoding`` or to a `[String: Any]` dictionary; `nil` part of
  /// the way gives `nil`, as in Objective-C.
  public func value(forKeyPath keyPath: String) throws(ObjectModelError) -> Any? {
    let parts = try KeyValuePath.parts(of: keyPath, in: self)
    var current: Any? = self
    for (index, part) in parts.enumerated() {
      guard let value = current else { return nil }
      current = try KeyValuePath.value(of: value, forKey: part, path: keyPath, at: index)
    }
    return current
  }

  /// Sets the value at a dotted key path (`setValue:forKeyPath:`): the object reached by all
  /// parts but the last gets ``setValue(_:forKey:)`` with the last part. A `nil` on the way sets
  /// nothing, as in Objective-C.
  public func setValue(_ value: Any?, forKeyPath keyPath: String) throws(ObjectModelError) {
    if !keyPath.isEmpty, !keyPath.utf8.contains(UInt8(ascii: ".")) {
      try setValue(value, forKey: keyPath)
      return
    }
    let parts = try KeyValuePath.parts(of: keyPath, in: self)
    var target: Any? = self
    for (index, part) in parts.dropLast().enumerated() {
      guard let current = target else { return }
      target = try KeyValuePath.value(of: current, forKey: part, path: keyPath, at: index)
    }
    guard let target else { return }
    guard let object = target as? any KeyValueCoding else {
      throw ObjectModelError(
        .invalidKeyPath, className: String(describing: type(of: target)), name: keyPath,
        detail: "the key path \(keyPath) leads to a \(type(of: target)), which has no settable keys")
    }
    try object.setValue(value, forKey: parts[parts.count - 1])
  }
}

/// The grammar of key-value-coding key paths: keys joined by `.`, none empty. (Property-list
/// key paths, with their `\.` escapes and array indices, are `PropertyLists`' own grammar.)
enum KeyValuePath {
  static func parts(of keyPath: String, in object: AnyObject) throws(ObjectModelError) -> [String] {
    let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !keyPath.isEmpty, !parts.contains(where: \.isEmpty) else {
      throw ObjectModelError(
        .invalidKeyPath, className: ObjectModelError.typeName(of: object), name: keyPath,
        detail: "the key path \"\(keyPath)\" has an empty key")
    }
    return parts
  }

  @MainActor static func value(of value: Any, forKey key: String, path: String, at index: Int) throws(ObjectModelError) -> Any? {
    if let object = value as? any KeyValueCoding { return try object.value(forKey: key) }
    if let dictionary = value as? [String: Any] { return KeyValueConversion.flatten(dictionary[key]) }
    throw ObjectModelError(
      .invalidKeyPath, className: String(describing: type(of: value)), name: path,
      detail: "the key path \(path) reaches a \(type(of: value)) before the key \(key) (part \(index + 1)), which has no keys")
  }
}
