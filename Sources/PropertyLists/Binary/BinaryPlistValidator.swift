import FoundationEssentials

// A pass over a `bplist00` document that checks everything `Parser.value(at:depth:)` checks and
// builds nothing, for the Codable decoder that reads values straight from the object table.
//
// It walks the graph as the tree reader does — every container once per reference, the same
// budget of values, depth limit and cycle check — so it accepts a document exactly when the tree
// reader would (it may only be stricter, never looser: the decoder then reads the document as a
// tree, which gives the tree reader's own error). What it skips is building: a scalar object is
// checked once however many references reach it, and a key once per key object.

extension BinaryPlistReader {
  /// What the validating pass learns beyond "the document is readable".
  struct Validation {
    /// Dictionaries that repeat a key (compared as strings, as the tree reader compares them):
    /// the tree keeps each key's first value, so the decoder reads these few as trees.
    var dictionariesWithRepeatedKeys: Set<Int> = []
    /// Each key text's one key object, when no two key objects have the same text (writers
    /// store each key string once) and there are at most ``maximumKeyTexts`` of them; `nil`
    /// otherwise. A text that is not here is then no dictionary's key.
    var keyObjectsByText: [String: Int]?

    static let maximumKeyTexts = 4096
  }

  /// The validating pass's working state.
  struct ValidationState {
    /// A bit per object: a scalar already checked as a value.
    var checkedScalars: [UInt64]
    /// A bit per object: a key object already checked as a key.
    var checkedKeys: [UInt64]
    /// The key objects checked so far, and their texts.
    var keyObjects: [Int] = []
    var keyTexts: [String] = []
    /// Compare keys by text rather than by key object (`nil`): needed only when two key objects
    /// have the same text, which writers that store each string once never make. Then each key
    /// text has a number here.
    var keyNumbersByText: [String: Int]?
    /// The keys of the dictionary being checked (reused scratch space): key object numbers, or
    /// text numbers when keys are compared by text.
    var scratch: [Int] = []
    var result = Validation()

    init(objectCount: Int, comparingKeyTexts: Bool) {
      checkedScalars = [UInt64](repeating: 0, count: (objectCount + 63) / 64)
      checkedKeys = comparingKeyTexts ? [] : [UInt64](repeating: 0, count: (objectCount + 63) / 64)
      keyNumbersByText = comparingKeyTexts ? [:] : nil
    }

    /// Whether `object` was checked as a scalar already; marks it checked.
    @inline(__always)
    mutating func firstVisit(_ object: Int) -> Bool {
      let bit: UInt64 = 1 << UInt64(object & 63)
      let seen = checkedScalars[object >> 6] & bit != 0
      checkedScalars[object >> 6] |= bit
      return !seen
    }

    /// Whether the scratch keys repeat one.
    mutating func scratchHasRepeat() -> Bool {
      let count = scratch.count
      guard count > 1 else { return false }
      if count <= 16 {
        for i in 1..<count {
          for j in 0..<i where scratch[i] == scratch[j] { return true }
        }
        return false
      }
      scratch.sort()
      for i in 1..<count where scratch[i] == scratch[i - 1] { return true }
      return false
    }

    /// Each key text's one key object, or `nil` when two key objects have the same text.
    func keyObjectsByText() -> [String: Int]? {
      var byText = [String: Int](minimumCapacity: keyTexts.count)
      for (text, object) in zip(keyTexts, keyObjects) where byText.updateValue(object, forKey: text) != nil {
        return nil
      }
      return byText
    }
  }

  /// Checks the whole document in `buffer` as ``read(_:options:)`` would read it, building no
  /// value. Throws the first problem found (not necessarily the tree reader's first).
  ///
  /// Keys are first told apart by key object, which hashes no text during the walk; only if two
  /// key objects turn out to have the same text is the walk made again comparing texts (a
  /// dictionary may then repeat a key under two key objects).
  static func validate(
    _ buffer: UnsafeRawBufferPointer, options: PropertyListReadingOptions
  ) throws(PropertyListError) -> (Parser, Validation) {
    let trailer = try BinaryPlistTrailer(validating: buffer, options: options)
    var parser = Parser(buffer: buffer, trailer: trailer, options: options)
    var state = ValidationState(objectCount: trailer.objectCount, comparingKeyTexts: false)
    try parser.validate(at: trailer.topObject, depth: 0, state: &state)
    let textsAreDistinct: Bool
    if state.keyTexts.count <= Validation.maximumKeyTexts {
      state.result.keyObjectsByText = state.keyObjectsByText()
      textsAreDistinct = state.result.keyObjectsByText != nil
    } else {
      textsAreDistinct = Set(state.keyTexts).count == state.keyTexts.count
    }
    if textsAreDistinct { return (parser, state.result) }
    parser = Parser(buffer: buffer, trailer: trailer, options: options)
    state = ValidationState(objectCount: trailer.objectCount, comparingKeyTexts: true)
    try parser.validate(at: trailer.topObject, depth: 0, state: &state)
    return (parser, state.result)
  }
}

extension BinaryPlistReader.Parser {
  /// Checks the value at `object` and everything under it as ``value(at:depth:)`` reads it.
  mutating func validate(at object: Int, depth: Int, state: inout BinaryPlistReader.ValidationState) throws(PropertyListError) {
    try spendBudget(for: object)
    let start = offset(of: object)
    let marker = buffer[start]
    switch marker >> 4 {
    case 0xA, 0xC:
      let (count, payload) = try openContainer(object, marker: marker, start: start, depth: depth)
      var position = payload
      for _ in 0..<count {
        let child = try checkedReference(at: position, container: start)
        try validate(at: child, depth: depth + 1, state: &state)
        position &+= trailer.referenceSize
      }
      leave(object)
    case 0xD:
      let (count, payload) = try openContainer(object, marker: marker, start: start, depth: depth)
      state.scratch.removeAll(keepingCapacity: true)
      var position = payload
      for _ in 0..<count {
        let keyObject = try checkedReference(at: position, container: start)
        state.scratch.append(try keyIdentity(of: keyObject, container: start, state: &state))
        position &+= trailer.referenceSize
      }
      if state.scratchHasRepeat() { state.result.dictionariesWithRepeatedKeys.insert(object) }
      for _ in 0..<count {
        let child = try checkedReference(at: position, container: start)
        try validate(at: child, depth: depth + 1, state: &state)
        position &+= trailer.referenceSize
      }
      leave(object)
    default:
      if state.firstVisit(object) { try area.validateScalar(marker: marker, object: object, start: start) }
    }
  }

  /// What tells key `object` apart from the other keys of a dictionary: its object number, or
  /// when keys are compared by text, its text's number. Checked as ``key(at:container:)``
  /// checks it (once per key object, unless keys are compared by text).
  @inline(__always)
  func keyIdentity(of object: Int, container: Int, state: inout BinaryPlistReader.ValidationState) throws(PropertyListError) -> Int {
    if state.keyNumbersByText != nil { return try keyTextNumber(of: object, container: container, state: &state) }
    let bit: UInt64 = 1 << UInt64(object & 63)
    if state.checkedKeys[object >> 6] & bit != 0 { return object }
    state.checkedKeys[object >> 6] |= bit
    state.keyTexts.append(try keyText(at: object, container: container))
    state.keyObjects.append(object)
    return object
  }

  /// The number of key `object`'s text (for documents with two key objects of one text).
  @inline(never)
  func keyTextNumber(of object: Int, container: Int, state: inout BinaryPlistReader.ValidationState) throws(PropertyListError) -> Int {
    let text = try keyText(at: object, container: container)
    if let found = state.keyNumbersByText?[text] { return found }
    let number = state.keyNumbersByText?.count ?? 0
    state.keyNumbersByText?[text] = number
    return number
  }
}

extension BinaryPlistReader.ObjectArea {
  /// Checks a value that is not a container. Strings and data are checked without being built;
  /// numbers, dates, Booleans and UIDs are read (they need no allocation). A method of the
  /// object area, not of the parser, so that the walk passes three words rather than a copy of
  /// the parser.
  @inline(never)
  func validateScalar(marker: UInt8, object: Int, start: Int) throws(PropertyListError) {
    switch marker >> 4 {
    case 0x4:
      let (count, payload) = try count(marker: marker, at: start)
      try checkFits(count, size: 1, payload: payload, start: start, what: "data")
    case 0x5:
      let (count, payload) = try count(marker: marker, at: start)
      try checkFits(count, size: 1, payload: payload, start: start, what: "ASCII string")
      try checkASCII(payload: payload, count: count, start: start)
    case 0x6:
      let (count, payload) = try count(marker: marker, at: start)
      try checkFits(count, size: 2, payload: payload, start: start, what: "UTF-16 string")
    default:
      _ = try scalarValue(marker: marker, object: object, start: start)
    }
  }
}
