/// The containers the text readers (OpenStep, JSON) have open while they read, without
/// recursion: the flat value and key stacks their trees are built on — the children of every
/// open container sit at the end of `values` (and, for dictionaries, of `keys`), and closing a
/// container moves them out into an array or dictionary — and the limits on depth and on the
/// number of values (``PropertyListReadingOptions``).
struct PendingContainers {
  enum Kind {
    case array
    case dictionary
    /// A dictionary body without braces: the top level of a strings file.
    case body
  }

  struct Open {
    var kind: Kind
    /// Where this container's values start in `values`.
    var valueStart: Int
    /// Where its keys start in `keys` (dictionaries).
    var keyStart: Int
    /// Offset of the opening bracket, for messages.
    var openedAt: Int
  }

  /// What passed a limit: the error's code and its message (the reader adds the position).
  typealias LimitFailure = (code: PropertyListError.Code, detail: String)

  var values: [PropertyListValue] = []
  var keys: [String] = []
  /// The open containers, innermost last.
  var open: [Open] = []
  /// The values read so far, keys and containers included.
  var valueCount = 0
  let maximumDepth: Int
  let maximumValueCount: Int

  init(options: PropertyListReadingOptions) {
    maximumDepth = options.maximumDepth
    maximumValueCount = options.maximumObjectCount
  }

  /// Counts one more value; what passed the limit, if the count did.
  @inline(__always)
  mutating func countValue() -> LimitFailure? {
    valueCount &+= 1
    return valueCount > maximumValueCount ? (.limitExceeded, "more than \(maximumValueCount) values") : nil
  }

  /// Opens a container of `kind` whose bracket is at `offset` (a value itself); what passed a
  /// limit, if one was.
  mutating func push(_ kind: Kind, at offset: Int) -> LimitFailure? {
    guard open.count < maximumDepth else { return (.tooDeep, "containers are nested more than \(maximumDepth) deep") }
    if let failure = countValue() { return failure }
    open.append(Open(kind: kind, valueStart: values.count, keyStart: keys.count, openedAt: offset))
    return nil
  }

  /// Ends the innermost container, an array.
  mutating func closeArray() -> PropertyListValue {
    let valueStart = open.removeLast().valueStart
    let elements = Array(values[valueStart...])
    values.removeSubrange(valueStart...)
    return .array(elements)
  }

  /// Ends the innermost container, a dictionary; a repeated key keeps its last value, as CF's
  /// text parsers do.
  mutating func closeDictionary() -> PropertyListValue {
    let container = open.removeLast()
    let dictionary = PropertyListDictionary(keys: Array(keys[container.keyStart...]), values: Array(values[container.valueStart...]))
    keys.removeSubrange(container.keyStart...)
    values.removeSubrange(container.valueStart...)
    return .dictionary(dictionary)
  }
}
