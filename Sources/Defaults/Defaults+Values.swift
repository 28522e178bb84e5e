public import Foundation
public import PropertyLists
import KeyedArchive
import Sandbox
import StasisSystem

extension UserDefaults {
  // MARK: - Reading

  /// The value `key` resolves to through the search list, as a property-list value.
  ///
  /// - Complexity: O(1): one hash lookup in the resolved view, which is kept up to date as
  ///   domains change.
  public func propertyList(forKey key: String) -> PropertyListValue? {
    store.lock.lock()
    defer { store.lock.unlock() }
    return resolved[key]
  }

  /// `-[NSUserDefaults objectForKey:]`: the value as a Foundation value (`String`, `Int`,
  /// `Double`, `Float`, `Bool`, `Date`, `Data`, `[Any]`, `[String: Any]`), or `nil`.
  public func object(forKey key: String) -> Any? {
    propertyList(forKey: key).map(DefaultsConversion.foundationValue)
  }

  /// `-stringForKey:`: a string, or a number's text (`42`, `0.5`; a boolean as `1` or `0`);
  /// `nil` for other types and absent keys.
  public func string(forKey key: String) -> String? {
    propertyList(forKey: key).flatMap(DefaultsConversion.string)
  }

  /// `-arrayForKey:`: the array, or `nil` when the value is not one.
  public func array(forKey key: String) -> [Any]? {
    guard case .array(let array)? = propertyList(forKey: key) else { return nil }
    return array.map(DefaultsConversion.foundationValue)
  }

  /// `-dictionaryForKey:`: the dictionary, or `nil` when the value is not one.
  public func dictionary(forKey key: String) -> [String: Any]? {
    guard case .dictionary(let dictionary)? = propertyList(forKey: key) else { return nil }
    var result: [String: Any] = [:]
    for (entryKey, value) in dictionary { result[entryKey] = DefaultsConversion.foundationValue(value) }
    return result
  }

  /// `-dataForKey:`: the data, or `nil` when the value is not data.
  public func data(forKey key: String) -> Data? {
    guard case .data(let data)? = propertyList(forKey: key) else { return nil }
    return data
  }

  /// `-stringArrayForKey:`: the array when every element is a string, otherwise `nil`.
  public func stringArray(forKey key: String) -> [String]? {
    guard case .array(let array)? = propertyList(forKey: key) else { return nil }
    var strings: [String] = []
    strings.reserveCapacity(array.count)
    for element in array {
      guard case .string(let string) = element else { return nil }
      strings.append(string)
    }
    return strings
  }

  /// `-integerForKey:`: a number (reals truncated, booleans 1/0) or a string's leading integer
  /// (`"42"` → 42); 0 when absent or of another type.
  public func integer(forKey key: String) -> Int {
    propertyList(forKey: key).map(DefaultsConversion.integer) ?? 0
  }

  /// `-doubleForKey:`: a number or a string's leading number (`"2.5"` → 2.5); 0 otherwise.
  public func double(forKey key: String) -> Double {
    propertyList(forKey: key).map(DefaultsConversion.double) ?? 0
  }

  /// `-floatForKey:`: as ``double(forKey:)``, narrowed to `Float`.
  public func float(forKey key: String) -> Float {
    Float(double(forKey: key))
  }

  /// `-boolForKey:`: a boolean; a number other than 0; a string `YES`/`yes`/`true` (any case) or
  /// one whose leading integer is not 0 (`"1"`); `false` otherwise.
  public func bool(forKey key: String) -> Bool {
    propertyList(forKey: key).map(DefaultsConversion.bool) ?? false
  }

  /// `-URLForKey:`: a string is taken as a path (a leading `~` is the container's home, or `$HOME`
  /// without a container) and made a file URL, or read as a URL when it is one (`file:///…`); data is unarchived as an `NSURL` keyed archive, as
  /// ``set(_:forKey:)-(URL?,_)`` stores it. `nil` otherwise.
  public func url(forKey key: String) -> URL? {
    switch propertyList(forKey: key) {
    case .string(let text)?:
      if text.hasPrefix("file://"), let url = URL(string: text) { return url }
      return URL(fileURLWithPath: expandingTilde(text))
    case .data(let data)?:
      return (try? KeyedUnarchiver.unarchivedObject(ofClass: URL.self, from: data)) ?? nil
    default:
      return nil
    }
  }

  func expandingTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    let home = container?.homePath ?? configuration.environment.homeDirectory
    return home + path.dropFirst()
  }

  /// `-dictionaryRepresentation`: every key of the search list with the value it resolves to.
  public func dictionaryRepresentation() -> [String: Any] {
    store.lock.lock()
    let snapshot = resolved
    store.lock.unlock()
    return DefaultsConversion.foundationDictionary(snapshot)
  }

  /// Every key of the search list with the value it resolves to, as property-list values.
  public func propertyListRepresentation() -> [String: PropertyListValue] {
    store.lock.lock()
    defer { store.lock.unlock() }
    return resolved
  }

  // MARK: - Writing

  /// Sets (or with `nil` removes) `key` in the application domain.
  public func setPropertyList(_ value: PropertyListValue?, forKey key: String) {
    mutate { deliveries in
      applicationDomain.set(value, forKey: key, deliveries: &deliveries)
    }
  }

  /// `-setObject:forKey:`: stores a property-list value; `nil`
  /// removes the key, as `-removeObjectForKey:` does.
  ///
  /// Accepted: `PropertyListValue`, `String`/`Substring`/`NSString`, `Bool`, every fixed-width
  /// integer, `Double`, `Float`, `NSNumber`, `Date`, `Data`, and arrays and `String`-keyed
  /// dictionaries of these (`[Any]`, `[String: Any]`, `NSArray`, `NSDictionary`).
  ///
  /// - Precondition: `value` is a property-list value. Apple raises `NSInvalidArgumentException`
  ///   ("Attempt to insert non-property list object"), which ends the process; so does this.
  ///   Use ``setChecked(_:forKey:)`` to get an error instead.
  public func set(_ value: Any?, forKey key: String) {
    guard let value else { return setPropertyList(nil, forKey: key) }
    guard let converted = DefaultsConversion.propertyList(from: value) else {
      preconditionFailure("Attempt to insert non-property list object \(type(of: value)) for key \(key)")
    }
    setPropertyList(converted, forKey: key)
  }

  /// Like ``set(_:forKey:)-(Any?,_)`` but throws for a value that is not a property list.
  ///
  /// - Throws: `DefaultsError.Code.notAPropertyList`, naming the key and the value's type.
  public func setChecked(_ value: Any?, forKey key: String) throws(DefaultsError) {
    guard let value else { return setPropertyList(nil, forKey: key) }
    guard let converted = DefaultsConversion.propertyList(from: value) else {
      throw DefaultsError(
        .notAPropertyList, domain: domainName, detail: "a \(type(of: value)) for key \(key) is not a property-list value")
    }
    setPropertyList(converted, forKey: key)
  }

  /// `-setInteger:forKey:`.
  public func set(_ value: Int, forKey key: String) { setPropertyList(.integer(value), forKey: key) }
  /// `-setFloat:forKey:` (stored as a 32-bit real).
  public func set(_ value: Float, forKey key: String) { setPropertyList(.real(Double(value), width: .single), forKey: key) }
  /// `-setDouble:forKey:`.
  public func set(_ value: Double, forKey key: String) { setPropertyList(.real(value), forKey: key) }
  /// `-setBool:forKey:`.
  public func set(_ value: Bool, forKey key: String) { setPropertyList(.bool(value), forKey: key) }

  /// `-setURL:forKey:`: stores the URL as an `NSURL` keyed archive (data), as Apple does for
  /// non-file URLs; `nil` removes the key. (Apple also tilde-abbreviates file URLs under the home
  /// folder first; Stasis archives them unchanged.) ``url(forKey:)`` reads it back.
  public func set(_ url: URL?, forKey key: String) {
    guard let url else { return setPropertyList(nil, forKey: key) }
    guard let archived = try? KeyedArchiver.archivedData(withRootObject: url) else {
      preconditionFailure("the URL for key \(key) could not be archived")
    }
    setPropertyList(.data(archived), forKey: key)
  }

  /// `-removeObjectForKey:`: removes `key` from the application domain (other domains may still
  /// supply a value).
  public func removeObject(forKey key: String) {
    setPropertyList(nil, forKey: key)
  }
}
