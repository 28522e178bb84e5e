import PropertyLists

extension NIBArchive {
  /// What ``firstDifference(from:options:)`` lets differ.
  public struct ComparisonOptions: Sendable, Hashable {
    /// Keys whose value is a collection compared as a multiset, not in order: each member is
    /// paired with an unused member of the other side's collection that has the same class,
    /// keys and scalar values. Apple's ibtool writes a view's `NSViewConstraints` in an order
    /// of its own.
    public var unorderedCollectionKeys: Set<String>
    /// Compare `NSConnections` as a multiset and the connections' object ids (`NSOidsKeys`/
    /// `NSOidsValues`) only as a set, the other objects' ids still exactly: Apple's ibtool
    /// orders connections by a rule not known here.
    public var ignoresConnectionOrder: Bool
    /// Keys whose values need only be objects of the same class on both sides, whatever they
    /// hold: a storyboard's `uniqueIdentifierForStoryboardCompilation`, which Apple's ibtool
    /// makes at random on every compilation.
    public var wildcardKeys: Set<String>
    /// Classes whose objects may stand in another order in the nib's object tables
    /// (`NSObjectsKeys`/`NSObjectsValues`, `NSOidsKeys`/`NSOidsValues`): they are matched among
    /// themselves by resemblance, with their parents, and their object ids are not compared.
    /// Apple's ibtool lists layout constraints in an order of its own there too.
    public var reorderableClasses: Set<String>

    public init(
      unorderedCollectionKeys: Set<String> = [], ignoresConnectionOrder: Bool = false, wildcardKeys: Set<String> = [],
      reorderableClasses: Set<String> = []
    ) {
      self.unorderedCollectionKeys = unorderedCollectionKeys
      self.ignoresConnectionOrder = ignoresConnectionOrder
      self.wildcardKeys = wildcardKeys
      self.reorderableClasses = reorderableClasses
    }

    /// Everything in order: the two graphs must be the same, array for array.
    public static let exact = ComparisonOptions()
    /// What two compilations of one document by two compilers may differ in: constraint order.
    public static let compilerOutput = ComparisonOptions(
      unorderedCollectionKeys: ["NSViewConstraints"], wildcardKeys: ["uniqueIdentifierForStoryboardCompilation"],
      reorderableClasses: ["NSLayoutConstraint"])
  }

  /// The first semantic difference between this nib and `other`, or `nil` when they hold the
  /// same object graph (what `ibtool --compare` reports).
  ///
  /// Both graphs are walked from object 0 in step: each pair of objects must have the same class
  /// name (and the same fallback class names), the same keys in the same order, and equal
  /// payloads — integers of the same width, floats by bit pattern, data byte for byte — with
  /// object references pairing up one to one, so that sharing and cycles must match too. Table
  /// order, key and class-name table order, and the position of objects in the objects table do
  /// not matter; `options` can let some collections differ in order. The difference is described
  /// by the path of keys from the root, a collection's members by position, as the Python ibtool
  /// clone's `--compare` names them, then both values (strings quoted, other data in hex, flags
  /// and masks in hex too), e.g.
  /// `$root.IB.objectdata.NSObjectsKeys[3].NSSubviews[2].NSCell.NSContents.NS.bytes: "OK" vs "Cancel"`.
  public func firstDifference(from other: NIBArchive, options: ComparisonOptions = .exact) -> String? {
    var comparison = GraphComparison(left: self, right: other, options: options)
    return comparison.run()
  }

  /// A payload as `--compare` prints it: integers with their width (and in hex under a key that
  /// ends in `Flags`, `Flags2` or `Mask`), data as a quoted string when it is printable UTF-8
  /// (a C string's final NUL shown as `\0`), else in hex (the first 32 bytes and the length).
  static func describe(_ payload: Payload, key: String? = nil) -> String {
    let isFlags = key.map { $0.hasSuffix("Flags") || $0.hasSuffix("Flags2") || $0.hasSuffix("Mask") } ?? false
    func integer(_ width: String, _ value: Int64, _ bits: Int) -> String {
      guard isFlags else { return "\(width) \(value)" }
      let unsigned = bits == 64 ? UInt64(bitPattern: value) : UInt64(bitPattern: value) & ((1 << UInt64(bits)) - 1)
      return "\(width) 0x\(String(unsigned, radix: 16))"
    }
    switch payload {
    case .int8(let v): return integer("int8", Int64(v), 8)
    case .int16(let v): return integer("int16", Int64(v), 16)
    case .int32(let v): return integer("int32", Int64(v), 32)
    case .int64(let v): return integer("int64", v, 64)
    case .bool(let v): return "bool \(v)"
    case .float32(let v): return "float32 \(v)"
    case .float64(let v): return "float64 \(v)"
    case .data(let bytes): return describe(data: bytes)
    case .null: return "nil"
    case .object(let index): return "object \(index)"
    }
  }

  /// Data as text when it reads as printable UTF-8, else as hex.
  static func describe(data bytes: [UInt8]) -> String {
    let hasNUL = bytes.last == 0
    let body = hasNUL ? bytes.dropLast() : bytes[...]
    if !body.isEmpty, body.count <= 200, !body.contains(0), let text = String(validating: body, as: UTF8.self),
      text.unicodeScalars.allSatisfy({ $0 == "\n" || $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) })
    {
      // The text holds no control character but newline and tab: the `.strings` quoting, with
      // the NUL a C string ends with spelled inside the quotes.
      let quoted = QuotedText.stringsToken(text)
      return hasNUL ? quoted.dropLast() + "\\0\"" : quoted
    }
    let hex = bytes.prefix(32).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    return "<" + hex + (bytes.count > 32 ? "…" : "") + "> (\(bytes.count) bytes)"
  }
}

/// The walk behind ``NIBArchive/firstDifference(from:options:)``.
struct GraphComparison {
  let left: NIBArchive
  let right: NIBArchive
  let options: NIBArchive.ComparisonOptions
  var pairs: [Int: Int] = [0: 0]
  var reverse: [Int: Int] = [0: 0]
  var pending: [(Int, Int, String)] = [(0, 0, "$root")]

  init(left: NIBArchive, right: NIBArchive, options: NIBArchive.ComparisonOptions) {
    self.left = left
    self.right = right
    self.options = options
  }

  static let oidKeys: Set<String> = ["NSOidsKeys", "NSOidsValues"]
  /// How deep nibs inside nibs are compared as graphs (Apple's nest two deep); deeper ones are
  /// compared byte for byte, so that a hostile nesting cannot exhaust the stack.
  static let maximumNesting = 4
  /// How many reorderable rows (or unordered members) are matched by resemblance at most.
  static let maximumReorderedRows = 20_000
  /// How deep this comparison is nested in another.
  var nesting = 0
  /// The object tables of `NSIBObjectData`: keys array → the values array that goes with it.
  static let objectTables = ["NSObjectsKeys": "NSObjectsValues", "NSOidsKeys": "NSOidsValues"]

  mutating func run() -> String? {
    guard !left.objects.isEmpty, !right.objects.isEmpty else {
      return left.objects.isEmpty == right.objects.isEmpty ? nil : "one nib has no objects"
    }
    var unorderedKeys = options.unorderedCollectionKeys
    if options.ignoresConnectionOrder { unorderedKeys.insert("NSConnections") }
    var oidObjects: (left: Int, right: Int)?
    while let (l, r, path) = pending.popLast() {
      let leftClass = left.classNames[left.objects[l].classIndex], rightClass = right.classNames[right.objects[r].classIndex]
      guard leftClass.name == rightClass.name else { return "\(path): class \(leftClass.name) vs \(rightClass.name)" }
      let leftFallbacks = leftClass.fallbacks.map { left.classNames[Int($0)].name }
      let rightFallbacks = rightClass.fallbacks.map { right.classNames[Int($0)].name }
      guard leftFallbacks == rightFallbacks else { return "\(path): fallbacks \(leftFallbacks) vs \(rightFallbacks)" }
      let leftValues = left.values(of: l), rightValues = right.values(of: r)
      guard leftValues.count == rightValues.count else {
        let leftKeys = leftValues.map(\.key), rightKeys = rightValues.map(\.key)
        let onlyLeft = leftKeys.filter { !rightKeys.contains($0) }, onlyRight = rightKeys.filter { !leftKeys.contains($0) }
        var detail = "\(path) (\(leftClass.name)): \(leftValues.count) vs \(rightValues.count) values"
        if !onlyLeft.isEmpty { detail += "; only in the first: " + onlyLeft.joined(separator: ", ") }
        if !onlyRight.isEmpty { detail += "; only in the second: " + onlyRight.joined(separator: ", ") }
        return detail
      }
      var repeats: [String: Int] = [:]
      for (a, b) in zip(leftValues, rightValues) {
        let occurrence = repeats[a.key, default: 0]
        repeats[a.key] = occurrence + 1
        // A collection's members by position (`NSSubviews[2]`), other values by key (`.NSCell`).
        let here = a.key == "UINibEncoderEmptyKey" ? path + "[\(occurrence)]" : path + "." + a.key
        guard a.key == b.key else { return "\(here): key \(a.key) vs \(b.key)" }
        switch (a.payload, b.payload) {
        case (.object(let x), .object(let y)) where options.wildcardKeys.contains(a.key):
          guard left.className(of: x) == right.className(of: y) else {
            return "\(here): class \(left.className(of: x)) vs \(right.className(of: y))"
          }
          // Counted as reached on both sides, but not walked.
          if pairs[x] == nil, reverse[y] == nil { pairs[x] = y; reverse[y] = x }
        case (.object(let x), .object(let y)):
          if options.ignoresConnectionOrder, Self.oidKeys.contains(a.key), leftClass.name == "NSIBObjectData" {
            if a.key == "NSOidsKeys" { oidObjects = (x, y) }
            continue
          }
          if !options.reorderableClasses.isEmpty, leftClass.name == "NSIBObjectData", let valuesKey = Self.objectTables[a.key] {
            if let difference = compareObjectTable(l, r, keysKey: a.key, valuesKey: valuesKey, path: here) { return difference }
            continue
          }
          if !options.reorderableClasses.isEmpty, leftClass.name == "NSIBObjectData", Self.objectTables.values.contains(a.key) {
            continue  // compared with its keys
          }
          if unorderedKeys.contains(a.key), members(left, x) != nil, pairs[x] == nil, reverse[y] == nil {
            // The collection itself is matched here, member by member, not walked in order.
            guard left.className(of: x) == right.className(of: y) else {
              return "\(here): class \(left.className(of: x)) vs \(right.className(of: y))"
            }
            pairs[x] = y
            reverse[y] = x
            if let difference = pairUnordered(x, y, path: here) { return difference }
            continue
          }
          if let difference = pair(x, y, path: here) { return difference }
        case (.data(let x), .data(let y)) where x != y && nesting < Self.maximumNesting && NIBArchive.isNIBArchive(x) && NIBArchive.isNIBArchive(y):
          // A nib inside a nib (a view-based table's prototype cell views): compared as a graph,
          // since Apple's key table order is its encoder's own.
          guard let nestedLeft = try? NIBArchive(bytes: x), let nestedRight = try? NIBArchive(bytes: y) else {
            return "\(here): \(NIBArchive.describe(a.payload, key: a.key)) vs \(NIBArchive.describe(b.payload, key: b.key))"
          }
          var nested = GraphComparison(left: nestedLeft, right: nestedRight, options: options)
          nested.nesting = nesting + 1
          if let difference = nested.run() {
            return difference.hasPrefix("$root") ? here + ".$nib" + difference.dropFirst(5) : "\(here) (nested nib): \(difference)"
          }
        default:
          guard a.payload == b.payload else {
            return "\(here): \(NIBArchive.describe(a.payload, key: a.key)) vs \(NIBArchive.describe(b.payload, key: b.key))"
          }
        }
      }
    }
    if let (l, r) = oidObjects, let difference = compareObjectIDs(l, r) { return difference }
    let unreachedLeft = left.objects.count - pairs.count, unreachedRight = right.objects.count - reverse.count
    guard unreachedLeft == unreachedRight else {
      return "\(unreachedLeft) vs \(unreachedRight) objects not reachable from the root"
    }
    return nil
  }

  /// One of `NSIBObjectData`'s tables (keys and values arrays, index for index): rows whose
  /// key is of a reorderable class are matched among themselves by resemblance (their parents
  /// paired, their object ids not compared); all other rows must be in the same order.
  mutating func compareObjectTable(_ l: Int, _ r: Int, keysKey: String, valuesKey: String, path: String) -> String? {
    func table(_ archive: NIBArchive, _ data: Int) -> (keys: Int, values: Int, rows: [(key: Int, value: Int)])? {
      let entries = archive.values(of: data)
      guard case .object(let keys)? = entries.first(where: { $0.key == keysKey })?.payload,
        case .object(let values)? = entries.first(where: { $0.key == valuesKey })?.payload,
        let keyMembers = members(archive, keys), let valueMembers = members(archive, values), keyMembers.count == valueMembers.count
      else { return nil }
      return (keys, values, Array(zip(keyMembers, valueMembers)).map { (key: $0.0, value: $0.1) })
    }
    guard let a = table(left, l), let b = table(right, r) else { return "\(path): not a pair of equal-length arrays" }
    for (x, y) in [(a.keys, b.keys), (a.values, b.values)] {
      guard pairs[x] == nil, reverse[y] == nil else { continue }
      pairs[x] = y
      reverse[y] = x
    }
    let movableLeft = a.rows.filter { options.reorderableClasses.contains(left.className(of: $0.key)) }
    let fixedLeft = a.rows.filter { !options.reorderableClasses.contains(left.className(of: $0.key)) }
    var movableRight = b.rows.filter { options.reorderableClasses.contains(right.className(of: $0.key)) }
    let fixedRight = b.rows.filter { !options.reorderableClasses.contains(right.className(of: $0.key)) }
    guard fixedLeft.count == fixedRight.count, movableLeft.count == movableRight.count else {
      return "\(path): \(a.rows.count) vs \(b.rows.count) rows"
    }
    let isObjectIDs = keysKey == "NSOidsKeys"
    for (index, (x, y)) in zip(fixedLeft, fixedRight).enumerated() {
      if let difference = pair(x.key, y.key, path: path + "[\(index)]") { return difference }
      if let difference = pair(x.value, y.value, path: path + "[\(index)] (\(valuesKey))") { return difference }
    }
    // Matching by resemblance is quadratic; past this many rows (no real nib has them) the rows
    // are paired in order, so that a hostile nib cannot make a comparison run for hours.
    let matchesInOrder = movableLeft.count > Self.maximumReorderedRows
    var rowNumbers: [Int: Int] = [:]
    for (number, row) in a.rows.enumerated() where rowNumbers[row.key] == nil { rowNumbers[row.key] = number }
    for row in movableLeft {
      let candidate: Int?
      if matchesInOrder {
        candidate = movableRight.isEmpty ? nil : 0
      } else if let known = pairs[row.key] {
        candidate = movableRight.firstIndex { $0.key == known }
      } else {
        candidate = movableRight.firstIndex { reverse[$0.key] == nil && resemble(row.key, $0.key, depth: 2) }
          ?? movableRight.firstIndex { reverse[$0.key] == nil && left.className(of: row.key) == right.className(of: $0.key) }
      }
      guard let position = candidate else { return "\(path): no row of the second matches #\(row.key) \(left.className(of: row.key))" }
      let match = movableRight.remove(at: position)
      let rowPath = path + (rowNumbers[row.key].map { "[\($0)]" } ?? "")
      if let difference = pair(row.key, match.key, path: rowPath) { return difference }
      if !isObjectIDs, let difference = pair(row.value, match.value, path: rowPath + " (\(valuesKey))") {
        return difference
      }
    }
    return nil
  }

  /// Pairs `x` with `y` (or checks an existing pairing) and queues them for the walk.
  mutating func pair(_ x: Int, _ y: Int, path: String) -> String? {
    if let paired = pairs[x] {
      guard paired == y else { return "\(path): a shared object is not shared alike" }
    } else {
      guard reverse[y] == nil else { return "\(path): a shared object is not shared alike" }
      pairs[x] = y
      reverse[y] = x
      pending.append((x, y, path))
    }
    return nil
  }

  /// Pairs the members of two inlined collections as multisets, before the walk reaches them.
  mutating func pairUnordered(_ x: Int, _ y: Int, path: String) -> String? {
    guard let leftMembers = members(left, x), let rightMembers = members(right, y) else { return nil }
    guard leftMembers.count == rightMembers.count else { return "\(path): \(leftMembers.count) vs \(rightMembers.count) members" }
    // In the same order already: pair them in place (the shallow match below cannot tell apart
    // members whose references are not paired yet, such as two outlets to look-alike placeholders).
    if zip(leftMembers, rightMembers).allSatisfy({ pairs[$0] == $1 || (pairs[$0] == nil && reverse[$1] == nil && shallowlyEqual($0, $1)) }) {
      for (index, (member, match)) in zip(leftMembers, rightMembers).enumerated() {
        if let difference = pair(member, match, path: path + "[\(index)]") { return difference }
      }
      return nil
    }
    var unused = rightMembers
    if leftMembers.count > Self.maximumReorderedRows {
      // Too many to match by resemblance (quadratic): in order, as in the fast path above.
      for (index, (member, match)) in zip(leftMembers, rightMembers).enumerated() {
        if let difference = pair(member, match, path: path + "[\(index)]") { return difference }
      }
      return nil
    }
    for (index, member) in leftMembers.enumerated() {
      if let known = pairs[member] {
        guard let position = unused.firstIndex(of: known) else { return "\(path): a shared member is not shared alike" }
        unused.remove(at: position)
        continue
      }
      guard let position = unused.firstIndex(where: { reverse[$0] == nil && shallowlyEqual(member, $0) }) else {
        return "\(path): no member of the second matches #\(member) \(left.className(of: member))"
      }
      let match = unused.remove(at: position)
      if let difference = pair(member, match, path: path + "[\(index)]") { return difference }
    }
    return nil
  }

  func members(_ archive: NIBArchive, _ index: Int) -> [Int]? {
    let values = archive.values(of: index)
    guard values.first?.key == "NSInlinedValue" else { return nil }
    return values.dropFirst().compactMap { if case .object(let member) = $0.payload { member } else { nil } }
  }

  /// Same class and keys, equal scalars, and references that are paired alike, or unpaired on
  /// both sides and alike two levels further down (strings and numbers by content).
  func shallowlyEqual(_ x: Int, _ y: Int) -> Bool { resemble(x, y, depth: 2) }

  /// Whether two objects not yet paired look alike to `depth` levels: the same class and keys,
  /// equal scalars, strings and numbers equal by content, other references alike one level down.
  func resemble(_ x: Int, _ y: Int, depth: Int) -> Bool {
    guard left.className(of: x) == right.className(of: y) else { return false }
    let a = left.values(of: x), b = right.values(of: y)
    guard a.count == b.count else { return false }
    for (p, q) in zip(a, b) {
      guard p.key == q.key else { return false }
      switch (p.payload, q.payload) {
      case (.object(let s), .object(let t)) where options.wildcardKeys.contains(p.key):
        if left.className(of: s) != right.className(of: t) { return false }
      case (.object(let s), .object(let t)):
        if let paired = pairs[s] {
          if paired != t { return false }
        } else if reverse[t] != nil {
          return false
        } else if depth > 0, !resemble(s, t, depth: depth - 1) {
          return false
        } else if depth == 0, left.className(of: s) != right.className(of: t) {
          return false
        }
      default:
        if p.payload != q.payload { return false }
      }
    }
    return true
  }

  /// Object ids when connection order is ignored: the same number of ids; every paired object
  /// that is not a connection has the same id on both sides.
  func compareObjectIDs(_ leftKeys: Int, _ rightKeys: Int) -> String? {
    func ids(_ archive: NIBArchive, _ keys: Int) -> [Int: Payload]? {
      guard let objectData = archive.values(of: 0).first(where: { $0.key == "IB.objectdata" }),
        case .object(let data) = objectData.payload,
        case .object(let valuesIndex)? = archive.values(of: data).first(where: { $0.key == "NSOidsValues" })?.payload,
        let keyMembers = members(archive, keys), let valueMembers = members(archive, valuesIndex), keyMembers.count == valueMembers.count
      else { return nil }
      var result: [Int: Payload] = [:]
      for (object, number) in zip(keyMembers, valueMembers) { result[object] = archive.values(of: number).first?.payload }
      return result
    }
    typealias Payload = NIBArchive.Payload
    guard let leftIDs = ids(left, leftKeys), let rightIDs = ids(right, rightKeys) else { return "NSOidsKeys/NSOidsValues: not a pair of equal-length arrays" }
    guard leftIDs.count == rightIDs.count else { return "NSOidsKeys: \(leftIDs.count) vs \(rightIDs.count) object ids" }
    for (object, id) in leftIDs {
      guard let partner = pairs[object] else { return "NSOidsKeys: #\(object) \(left.className(of: object)) is not in the graph's walk" }
      guard let partnerID = rightIDs[partner] else { return "NSOidsKeys: #\(object) \(left.className(of: object)) has an id in one nib only" }
      if !left.className(of: object).hasSuffix("Connector"), !options.reorderableClasses.contains(left.className(of: object)), id != partnerID {
        return "NSOidsValues: #\(object) \(left.className(of: object)) has id \(NIBArchive.describe(id)) vs \(NIBArchive.describe(partnerID))"
      }
    }
    return nil
  }
}
