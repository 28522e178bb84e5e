/// The flat value and key stacks that the text readers (OpenStep, JSON) build their trees on:
/// the children of every open container sit at the end of `values` (and, for dictionaries, of
/// `keys`), and closing a container moves them out into an array or dictionary.
struct PendingContainers {
  var values: [PropertyListValue] = []
  var keys: [String] = []

  /// Ends the array whose first child is at `valueStart`.
  mutating func closeArray(valueStart: Int) -> PropertyListValue {
    let elements = Array(values[valueStart...])
    values.removeSubrange(valueStart...)
    return .array(elements)
  }

  /// Ends the dictionary whose first key and value are at `keyStart` and `valueStart`; a repeated
  /// key keeps its last value, as CF's text parsers do.
  mutating func closeDictionary(keyStart: Int, valueStart: Int) -> PropertyListValue {
    let dictionary = PropertyListDictionary(keys: Array(keys[keyStart...]), values: Array(values[valueStart...]))
    keys.removeSubrange(keyStart...)
    values.removeSubrange(valueStart...)
    return .dictionary(dictionary)
  }
}
