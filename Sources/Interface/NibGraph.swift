/// The in-memory model of a compiled nib that every reader and writer shares: objects with class
/// names (and fallback class names), each with an ordered list of keyed values in Apple's value
/// types and integer widths, references between objects by index, and one root.
///
/// A NIBArchive holds the same graph as four flat tables; ``init(_:)`` and
/// ``NIBArchive/init(_:coderVersion:keepingUnreachable:)`` convert between the two. Strings are `NSString` objects
/// whose `NS.bytes` holds UTF-8, numbers `NSNumber` objects with `NS.intval` or `NS.dblval`, and
/// arrays, sets and dictionaries are "inlined": an `NSInlinedValue` of `true` followed by one
/// `UINibEncoderEmptyKey` per member (<doc:NIBArchiveFormat>).
///
/// ```swift
/// var graph = NibGraph(rootClass: "NSObject")
/// let title = graph.string("Hello")
/// graph.append("title", .object(title), to: graph.root)
/// let bytes = NIBArchive(graph).encoded()
/// ```
public struct NibGraph: Hashable, Sendable {
  /// One object: its class, the classes to use when that one is unknown, and its values in order.
  public struct Object: Hashable, Sendable {
    /// The archived class name (`NSButtonCell`, `UIView`, …).
    public var className: String
    /// Class names to fall back on, in order, when ``className`` is not linked in.
    public var fallbacks: [String]
    /// The object's keyed values, in archive order; a key may repeat (inlined collections).
    public var entries: [Entry]

    public init(className: String, fallbacks: [String] = [], entries: [Entry] = []) {
      self.className = className
      self.fallbacks = fallbacks
      self.entries = entries
    }

    /// The first value stored under `key`.
    public subscript(key: String) -> NIBArchive.Payload? {
      entries.first(where: { $0.key == key })?.value
    }
  }

  /// One keyed value; `.object(i)` refers to ``NibGraph/objects``[i].
  public struct Entry: Hashable, Sendable {
    public var key: String
    public var value: NIBArchive.Payload

    public init(_ key: String, _ value: NIBArchive.Payload) {
      self.key = key
      self.value = value
    }
  }

  /// Every object; references are indices into this array.
  public var objects: [Object]
  /// The index of the root object (the one a NIBArchive stores first).
  public var root: Int

  /// A graph with only a root object of class `rootClass`.
  public init(rootClass: String) {
    objects = [Object(className: rootClass)]
    root = 0
  }

  public init(objects: [Object], root: Int) {
    self.objects = objects
    self.root = root
  }

  /// The graph held in a NIBArchive's tables (object 0 is the root).
  public init(_ archive: NIBArchive) {
    // Built straight from the tables (no intermediate arrays): the loader reads nibs this way
    // every time it is not given a cached graph.
    var objects: [Object] = []
    objects.reserveCapacity(archive.objects.count)
    for object in archive.objects {
      let className = archive.classNames[object.classIndex]
      var entries: [Entry] = []
      entries.reserveCapacity(object.valueCount)
      for value in archive.values[object.firstValue..<(object.firstValue + object.valueCount)] {
        entries.append(Entry(archive.keys[value.keyIndex], value.payload))
      }
      let fallbacks = className.fallbacks.isEmpty ? [] : className.fallbacks.map { archive.classNames[Int($0)].name }
      objects.append(Object(className: className.name, fallbacks: fallbacks, entries: entries))
    }
    self.objects = objects
    root = 0
  }

  public subscript(index: Int) -> Object {
    get { objects[index] }
    set { objects[index] = newValue }
  }

  /// Adds an object and returns its index.
  @discardableResult
  public mutating func add(_ className: String, fallbacks: [String] = [], _ entries: [Entry] = []) -> Int {
    objects.append(Object(className: className, fallbacks: fallbacks, entries: entries))
    return objects.count - 1
  }

  /// Appends a value to object `index`.
  public mutating func append(_ key: String, _ value: NIBArchive.Payload, to index: Int) {
    objects[index].entries.append(Entry(key, value))
  }

  /// A new `NSString` object holding `text` (as `NS.bytes`, UTF-8).
  public mutating func string(_ text: String, className: String = "NSString") -> Int {
    add(className, [Entry("NS.bytes", .data(Array(text.utf8)))])
  }

  /// A new `NSData` object holding `bytes` (as `NS.bytes`; `NSMutableData` with `className`).
  public mutating func data(_ bytes: [UInt8], className: String = "NSData") -> Int {
    add(className, [Entry("NS.bytes", .data(bytes))])
  }

  /// A new inlined collection (`NSArray`, `NSMutableArray`, `NSSet`, …) of `members`.
  public mutating func collection(_ className: String, _ members: [Int]) -> Int {
    add(className, [Entry("NSInlinedValue", .bool(true))] + members.map { Entry("UINibEncoderEmptyKey", .object($0)) })
  }

  /// The integer payload Apple's nib encoder chooses for `value`: the smallest of int8, int16,
  /// int32 that holds a non-negative value, and int64 for every negative one.
  public static func integer(_ value: Int) -> NIBArchive.Payload {
    if value < 0 { return .int64(Int64(value)) }
    if let small = Int8(exactly: value) { return .int8(small) }
    if let small = Int16(exactly: value) { return .int16(small) }
    if let small = Int32(exactly: value) { return .int32(small) }
    return .int64(Int64(value))
  }

  /// The text of an `NSString`/`NSMutableString` object, or `nil` for any other object.
  public func text(of index: Int) -> String? {
    let object = objects[index]
    guard object.className == "NSString" || object.className == "NSMutableString" || object.className == "NSLocalizableString",
      case .data(let bytes)? = object["NS.bytes"]
    else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The text of the `NSString` that `object`'s `key` refers to, or `nil` when the key is absent,
  /// not a reference inside the graph, or not to a string.
  public func text(of object: Object, forKey key: String) -> String? {
    guard case .object(let target)? = object[key], objects.indices.contains(target) else { return nil }
    return text(of: target)
  }

  /// The members of an inlined collection object, or `nil` when `index` is not one.
  public func members(of index: Int) -> [Int]? {
    let entries = objects[index].entries
    guard entries.first?.key == "NSInlinedValue" else { return nil }
    var members: [Int] = []
    members.reserveCapacity(entries.count - 1)
    // A graph read from a nib holds one string for every use of a key, so once a member key
    // is found, the next ones are the same string: `==` answers from its bits alone, without
    // comparing the 20 bytes again (profiled: a tenth of reading the nib's layout).
    var memberKey = "UINibEncoderEmptyKey"
    for entry in entries.dropFirst() {
      guard case .object(let member) = entry.value else { continue }
      if entry.key == memberKey {
        members.append(member)
      } else if entry.key == "UINibEncoderEmptyKey" {
        memberKey = entry.key
        members.append(member)
      }
    }
    return members
  }
}

extension NIBArchive {
  /// The tables of `graph` as Apple's encoder lays them out: objects numbered depth-first from the
  /// root in the order their references are encoded, each object's values contiguous and in
  /// order, keys and class names in order of first use. Objects not reachable from the root are
  /// appended after the reachable ones, in graph order, or left out when `keepingUnreachable` is
  /// `false` (as Apple's encoder, which only writes what it reaches).
  ///
  /// Apple's own key table is in an order of its encoder's hashing, so a graph read from Apple's
  /// nib and written back holds the same tables in another order; ``NIBArchive/firstDifference(from:options:)``
  /// treats the two as equal.
  public init(_ graph: NibGraph, coderVersion: UInt32 = 10, keepingUnreachable: Bool = true) {
    var number = [Int](repeating: -1, count: graph.objects.count)
    var order: [Int] = []
    order.reserveCapacity(graph.objects.count)
    // Depth-first preorder without recursion: a stack of (object, next entry to look at).
    func visit(_ start: Int) {
      number[start] = order.count
      order.append(start)
      var stack: [(object: Int, entry: Int)] = [(start, 0)]
      while let top = stack.last {
        let entries = graph.objects[top.object].entries
        var position = top.entry
        var descended = false
        while position < entries.count {
          if case .object(let target) = entries[position].value, number[target] < 0 {
            number[target] = order.count
            order.append(target)
            stack[stack.count - 1].entry = position + 1
            stack.append((target, 0))
            descended = true
            break
          }
          position += 1
        }
        if !descended { stack.removeLast() }
      }
    }
    visit(graph.root)
    if keepingUnreachable {
      for index in graph.objects.indices where number[index] < 0 { visit(index) }
    }

    var keyIndex: [String: Int] = [:]
    var keys: [String] = []
    var classIndex: [String: Int] = [:]
    var classNames: [ClassName] = []
    func classNumber(_ name: String) -> Int {
      if let known = classIndex[name] { return known }
      classIndex[name] = classNames.count
      classNames.append(ClassName(name: name))
      return classNames.count - 1
    }
    var objects: [Object] = []
    var values: [Value] = []
    objects.reserveCapacity(order.count)
    for original in order {
      let object = graph.objects[original]
      let own = classNumber(object.className)
      if !object.fallbacks.isEmpty, classNames[own].fallbacks.isEmpty {
        let fallbacks = object.fallbacks.map { Int32(classNumber($0)) }
        classNames[own].fallbacks = fallbacks
      }
      objects.append(Object(classIndex: own, firstValue: values.count, valueCount: object.entries.count))
      for entry in object.entries {
        let key: Int
        if let known = keyIndex[entry.key] {
          key = known
        } else {
          key = keys.count
          keyIndex[entry.key] = key
          keys.append(entry.key)
        }
        var payload = entry.value
        if case .object(let target) = payload { payload = .object(number[target]) }  // reachable, so numbered
        values.append(Value(keyIndex: key, payload: payload))
      }
    }
    self.init(coderVersion: coderVersion, objects: objects, keys: keys, values: values, classNames: classNames)
  }
}
