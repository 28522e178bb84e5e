/// Key-path access in the style of `plutil -extract`: components separated by `.`, a numeric
/// component indexes an array. A `\.` in the path stands for a literal dot inside a key.
extension PropertyListValue {
  /// Splits a key path into components, honouring `\.` (and `\\`) escapes: the
  /// ``PropertyListKeyPathSyntax/backslash`` dialect.
  public static func keyPathComponents(_ keyPath: String) -> [String] {
    PropertyListKeyPathSyntax.backslash.components(of: keyPath)
  }

  /// The value at `keyPath` (`a.b.0.c`), or `nil` when any component does not lead to a value.
  public func value(atKeyPath keyPath: String) -> PropertyListValue? {
    value(atPath: Self.keyPathComponents(keyPath)[...])
  }

  /// The value at the given path components.
  public func value(atPath path: ArraySlice<String>) -> PropertyListValue? {
    guard let first = path.first else { return self }
    switch self {
    case .dictionary(let dictionary):
      return dictionary[first]?.value(atPath: path.dropFirst())
    case .array(let array):
      guard let index = Int(first), array.indices.contains(index) else { return nil }
      return array[index].value(atPath: path.dropFirst())
    default:
      return nil
    }
  }
}
