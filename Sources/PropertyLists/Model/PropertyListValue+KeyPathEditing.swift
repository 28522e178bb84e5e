/// Editing a property list at a key path, the way `plutil -insert`, `-replace` and `-remove` do.
///
/// A path is a list of components. A component names a key when the value it is applied to is a
/// dictionary, and an index when that value is an array (`"0"`, `"12"`). The last component names
/// the place that is edited; every component before it must lead to an existing value.
///
/// Errors are ``PropertyListError`` values with no format and no position, whose `detail` is the
/// sentence plutil prints, naming the key path (with literal dots escaped as `\.`):
///
/// | situation | code |
/// |---|---|
/// | a component before the last does not exist | `PropertyListError.Code.keyPathNotFound` |
/// | an array index is not a number or is out of range | `PropertyListError.Code.keyPathNotFound` |
/// | the path runs into a string, number, date, data or UID | `PropertyListError.Code.keyPathNotFound` |
/// | inserting where a value already exists | `PropertyListError.Code.invalidValue` |
/// | appending to something that is not an array | `PropertyListError.Code.keyPathNotFound` |
extension PropertyListValue {
  /// Inserts `newValue` at `path`, as `plutil -insert` does.
  ///
  /// - In a dictionary, the last component is a key that must not exist yet; with `appending`,
  ///   it may name an existing array, to which `newValue` is appended (and a missing key is simply
  ///   set, as plutil does).
  /// - In an array, the last component is an index from 0 through the array's count; `newValue`
  ///   is inserted before the element at that index, or appended when the index equals the count.
  ///   With `appending`, the element at that index must be an array, and `newValue` is appended
  ///   to it.
  ///
  /// Apple equivalent: `plutil -insert keypath -type value [-append]`.
  /// - Throws: ``PropertyListError`` as described in the type's overview; the value is unchanged.
  /// - Complexity: O(*d* + *n*) for a path of depth *d* ending in a container of *n* elements.
  public mutating func insert(
    _ newValue: PropertyListValue, atPath path: [String], appending: Bool = false
  ) throws(PropertyListError) {
    try edit(newValue, path: path[...], fullPath: path, mode: appending ? .append : .insert)
  }

  /// Sets `newValue` at `path`, overwriting any value there, as `plutil -replace` does.
  ///
  /// A missing dictionary key is created; an array index from 0 up to (but excluding) the count
  /// replaces that element, and an index equal to the count appends.
  ///
  /// Apple equivalent: `plutil -replace keypath -type value`.
  /// - Throws: ``PropertyListError`` as described in the type's overview; the value is unchanged.
  public mutating func replace(_ newValue: PropertyListValue, atPath path: [String]) throws(PropertyListError) {
    try edit(newValue, path: path[...], fullPath: path, mode: .replace)
  }

  /// Removes the value at `path` and returns it, as `plutil -remove` does.
  ///
  /// Apple equivalent: `plutil -remove keypath`.
  /// - Throws: `PropertyListError.Code.keyPathNotFound` when nothing is at `path` (the detail is
  ///   "No value to remove at key path …"), or when `path` is empty (the root cannot be removed).
  @discardableResult
  public mutating func removeValue(atPath path: [String]) throws(PropertyListError) -> PropertyListValue {
    guard !path.isEmpty else {
      throw Self.keyPathError(.keyPathNotFound, "Removing value resulted in an empty property list at ", path)
    }
    return try remove(path: path[...], fullPath: path)
  }

  /// ``insert(_:atPath:appending:)`` with a dotted key path (see ``keyPathComponents(_:)``).
  public mutating func insert(
    _ newValue: PropertyListValue, atKeyPath keyPath: String, appending: Bool = false
  ) throws(PropertyListError) {
    try insert(newValue, atPath: Self.keyPathComponents(keyPath), appending: appending)
  }

  /// ``replace(_:atPath:)`` with a dotted key path (see ``keyPathComponents(_:)``).
  public mutating func replace(_ newValue: PropertyListValue, atKeyPath keyPath: String) throws(PropertyListError) {
    try replace(newValue, atPath: Self.keyPathComponents(keyPath))
  }

  /// ``removeValue(atPath:)`` with a dotted key path (see ``keyPathComponents(_:)``).
  @discardableResult
  public mutating func removeValue(atKeyPath keyPath: String) throws(PropertyListError) -> PropertyListValue {
    try removeValue(atPath: Self.keyPathComponents(keyPath))
  }

  /// Joins path components into a dotted key path, writing a dot inside a component as `\.`
  /// (the form plutil prints in its messages: ``PropertyListKeyPathSyntax/plutil``).
  public static func joinedKeyPath(_ components: [String]) -> String {
    PropertyListKeyPathSyntax.plutil.joined(components)
  }

  // MARK: - Implementation

  private enum EditMode { case insert, append, replace }

  /// A throwaway value parked in `self` while a container is edited, so that the container's
  /// storage is uniquely referenced and is mutated in place instead of copied.
  private static var placeholder: PropertyListValue { .bool(false) }

  private static func keyPathError(
    _ code: PropertyListError.Code, _ text: String, _ fullPath: [String]
  ) -> PropertyListError {
    PropertyListError(code, format: nil, detail: text + joinedKeyPath(fullPath))
  }

  private mutating func edit(
    _ newValue: PropertyListValue, path: ArraySlice<String>, fullPath: [String], mode: EditMode
  ) throws(PropertyListError) {
    guard let key = path.first else {
      throw Self.keyPathError(.keyPathNotFound, "Key path not found ", fullPath)
    }
    let isLast = path.count == 1
    switch self {
    case .dictionary(var dictionary):
      self = Self.placeholder
      defer { self = .dictionary(dictionary) }
      let existing = dictionary.position(of: key)
      if !isLast {
        guard let existing else { throw Self.keyPathError(.keyPathNotFound, "Key path not found ", fullPath) }
        try dictionary.storedValues[existing].edit(newValue, path: path.dropFirst(), fullPath: fullPath, mode: mode)
        return
      }
      switch (mode, existing) {
      case (.replace, _), (.insert, nil), (.append, nil):
        dictionary.updateValue(newValue, forKey: key)
      case (.insert, _?):
        throw Self.keyPathError(.invalidValue, "Value already exists at key path ", fullPath)
      case (.append, let at?):
        guard dictionary.storedValues[at].appendToArray(newValue) else {
          throw Self.keyPathError(.keyPathNotFound, "Appending to a non-array at key path ", fullPath)
        }
      }
    case .array(var array):
      guard let index = Int(key) else {
        throw Self.keyPathError(.keyPathNotFound, "Unable to index into array with key path ", fullPath)
      }
      let outOfBounds = "Index \(index) out of bounds in array at key path "
      self = Self.placeholder
      defer { self = .array(array) }
      if !isLast {
        guard array.indices.contains(index) else { throw Self.keyPathError(.keyPathNotFound, outOfBounds, fullPath) }
        try array[index].edit(newValue, path: path.dropFirst(), fullPath: fullPath, mode: mode)
        return
      }
      switch mode {
      case .append:
        guard array.indices.contains(index) else { throw Self.keyPathError(.keyPathNotFound, outOfBounds, fullPath) }
        guard array[index].appendToArray(newValue) else {
          throw Self.keyPathError(.keyPathNotFound, "Attempt to append value to non-array at key path ", fullPath)
        }
      case .insert, .replace:
        if index == array.count {
          array.append(newValue)
        } else if array.indices.contains(index) {
          if mode == .insert { array.insert(newValue, at: index) } else { array[index] = newValue }
        } else {
          throw Self.keyPathError(.keyPathNotFound, outOfBounds, fullPath)
        }
      }
    default:
      throw Self.keyPathError(.keyPathNotFound, "Unable to insert value at key path ", fullPath)
    }
  }

  /// Appends to this value when it is an array; returns `false` (and changes nothing) otherwise.
  private mutating func appendToArray(_ element: PropertyListValue) -> Bool {
    guard case .array(var array) = self else { return false }
    self = Self.placeholder
    array.append(element)
    self = .array(array)
    return true
  }

  private mutating func remove(path: ArraySlice<String>, fullPath: [String]) throws(PropertyListError) -> PropertyListValue {
    let key = path[path.startIndex]
    let isLast = path.count == 1
    switch self {
    case .dictionary(var dictionary):
      guard let at = dictionary.position(of: key) else {
        throw Self.keyPathError(.keyPathNotFound, "No value to remove at key path ", fullPath)
      }
      self = Self.placeholder
      defer { self = .dictionary(dictionary) }
      if isLast { return dictionary.removeValue(forKey: key)! }
      return try dictionary.storedValues[at].remove(path: path.dropFirst(), fullPath: fullPath)
    case .array(var array):
      guard let index = Int(key), array.indices.contains(index) else {
        throw Self.keyPathError(.keyPathNotFound, "No value to remove at key path ", fullPath)
      }
      self = Self.placeholder
      defer { self = .array(array) }
      if isLast { return array.remove(at: index) }
      return try array[index].remove(path: path.dropFirst(), fullPath: fullPath)
    default:
      throw Self.keyPathError(.keyPathNotFound, "No value to remove at key path ", fullPath)
    }
  }
}
