extension NibGraph {
  /// The root key that marks a graph read from a NeXT typedstream nib; its value is the
  /// stream's system version. Its objects hold their values by position (see
  /// ``init(typedStream:path:)``), which the loader's classes do not decode.
  public static let typedStreamKey = "IB.typedstream"

  /// Whether this graph was read from a NeXT typedstream nib (its root holds ``typedStreamKey``).
  public var isTypedStreamNib: Bool {
    objects.indices.contains(root) && objects[root][Self.typedStreamKey] != nil
  }

  /// The graph of a NeXT/OPENSTEP typedstream nib (`objects.nib`, written by `NSArchiver`,
  /// whose root is an `NSIBObjectData`), in the shape of a keyed-archive nib's graph so that
  /// listings and the loader treat it alike.
  ///
  /// The root is an `NSObject` holding `IB.objectdata` (the stream's root object) and
  /// ``typedStreamKey``. Every object of the stream becomes one object of its class, and its
  /// values, which a typedstream keeps by position, are kept in order under the keys
  /// `"<group>.<value>"` (`"0.0"`, `"2.4"`: the fifth value of the object's third group). On top
  /// of those, what the loader needs is also given its keyed-archive key:
  ///
  /// - `NSString` (`+` characters) becomes a string object (`NS.bytes`); `NSArray`, `NSSet` and
  ///   their mutable kinds (a count, then one `@` group per member) become inlined collections.
  /// - `NSIBObjectData` (version 24 of OPENSTEP: the root; a count and (object, parent) pairs; a
  ///   count and (object, name) pairs; the visible windows; the connections; the font manager;
  ///   a count and (object, id) pairs; the next id) gets `NSRoot`, `NSObjectsKeys`/`Values`,
  ///   `NSNamesKeys`/`Values`, `NSVisibleWindows`, `NSConnections`, `NSOidsKeys`/`Values` and
  ///   `NSNextOid`, as far as its groups have that shape.
  /// - `NSCustomObject` (`@@`: class name, instance) gets `NSClassName`.
  /// - `NSIBOutletConnector` and `NSIBControlConnector` (`@@@`: source, destination, label)
  ///   become `NSNibOutletConnector` and `NSNibControlConnector` with `NSSource`,
  ///   `NSDestination` and `NSLabel` (`NSIBConnector` becomes `NSNibConnector`).
  ///
  /// Other values: integers take the smallest width, floats `float32`, doubles `float64`,
  /// strings, C strings, atoms, selectors and classes (by name) `NSString` objects, byte arrays
  /// data, other arrays and structures `NSArray` collections, nil and `!` null.
  ///
  /// - Throws: ``InterfaceError`` `.corrupt` when the stream's root is not an object.
  public init(typedStream stream: TypedStream, path: String? = nil) throws(InterfaceError) {
    guard let rootObject = stream.rootObject, stream.objects.indices.contains(rootObject) else {
      throw InterfaceError(.corrupt, path: path, detail: "typedstream: the first group does not hold the nib's root object")
    }
    var builder = TypedStreamNibBuilder(stream: stream)
    builder.build()
    builder.graph[0].entries = [
      Entry("IB.objectdata", .object(builder.index(of: rootObject))),
      Entry(Self.typedStreamKey, NibGraph.integer(stream.systemVersion)),
    ]
    self = builder.graph
  }
}

/// Converts a typedstream's objects to graph objects: object *i* of the stream is graph object
/// *i* + 1 (0 is the root), made first so that references (cycles too) need no look-up.
struct TypedStreamNibBuilder {
  let stream: TypedStream
  var graph = NibGraph(rootClass: "NSObject")

  init(stream: TypedStream) {
    self.stream = stream
  }

  func index(of object: Int) -> Int { object + 1 }

  static let renamedClasses = [
    "NSIBOutletConnector": "NSNibOutletConnector", "NSIBControlConnector": "NSNibControlConnector", "NSIBConnector": "NSNibConnector",
  ]

  mutating func build() {
    for object in stream.objects {
      let name = stream.classes.indices.contains(object.classIndex) ? stream.classes[object.classIndex].name : "NSObject"
      graph.add(Self.renamedClasses[name] ?? name)
    }
    for (number, object) in stream.objects.enumerated() {
      let name = stream.classes.indices.contains(object.classIndex) ? stream.classes[object.classIndex].name : ""
      graph[index(of: number)].entries = entries(of: object, className: name)
    }
  }

  /// The single value of a one-value group.
  static func single(_ group: TypedStream.Group) -> TypedStream.Value? { group.values.count == 1 ? group.values[0] : nil }

  static func integer(_ value: TypedStream.Value?) -> Int? {
    switch value {
    case .signed(let number, _)?: Int(exactly: number)
    case .unsigned(let number, _)?: Int(exactly: number)
    default: nil
    }
  }

  mutating func entries(of object: TypedStream.Object, className: String) -> [NibGraph.Entry] {
    let groups = object.groups
    switch className {
    case "NSString", "NSMutableString":
      if groups.count == 1, case .string(let bytes?)? = Self.single(groups[0]) { return [.init("NS.bytes", .data(bytes))] }
    case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet":
      if let count = groups.first.flatMap(Self.single).flatMap(Self.integer), count == groups.count - 1 {
        var members: [NIBArchive.Payload] = []
        for group in groups.dropFirst() {
          guard group.encoding == "@", let member = Self.single(group) else { break }
          members.append(payload(member))
        }
        if members.count == count {
          return [.init("NSInlinedValue", .bool(true))] + members.map { .init("UINibEncoderEmptyKey", $0) }
        }
      }
    default:
      break
    }
    var entries: [NibGraph.Entry] = []
    for (groupNumber, group) in groups.enumerated() {
      for (valueNumber, value) in group.values.enumerated() {
        entries.append(.init("\(groupNumber).\(valueNumber)", payload(value)))
      }
    }
    switch className {
    case "NSIBObjectData":
      entries += objectDataEntries(groups)
    case "NSCustomObject":
      if let first = groups.first, first.encoding == "@@", case .object(let name?)? = first.values.first {
        entries.append(.init("NSClassName", payload(.object(name))))
      }
    case "NSIBOutletConnector", "NSIBControlConnector", "NSIBConnector":
      if let group = groups.first(where: { $0.encoding == "@@@" }) {
        for (key, value) in zip(["NSSource", "NSDestination", "NSLabel"], group.values) { entries.append(.init(key, payload(value))) }
      }
    default:
      break
    }
    return entries
  }

  /// The keyed-archive keys of an `NSIBObjectData`, read from its groups as far as they have
  /// OPENSTEP's shape.
  mutating func objectDataEntries(_ groups: [TypedStream.Group]) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    var position = 0
    func next(_ encoding: String) -> [TypedStream.Value]? {
      // The encodings asked for are all of one-character types: one value each.
      guard position < groups.count, groups[position].encoding == encoding, groups[position].values.count == encoding.utf8.count else {
        return nil
      }
      position += 1
      return groups[position - 1].values
    }
    /// A count, then that many groups of `encoding`.
    func pairs(_ encoding: String) -> [[TypedStream.Value]]? {
      guard let count = next("i").flatMap({ Self.integer($0.first) }), count >= 0, count <= groups.count - position else { return nil }
      var result: [[TypedStream.Value]] = []
      for _ in 0..<count {
        guard let values = next(encoding) else { return nil }
        result.append(values)
      }
      return result
    }
    guard let root = next("@") else { return entries }
    entries.append(.init("NSRoot", payload(root[0])))
    guard let parents = pairs("@@") else { return entries }
    entries.append(.init("NSObjectsKeys", .object(collection(parents.map { payload($0[0]) }))))
    entries.append(.init("NSObjectsValues", .object(collection(parents.map { payload($0[1]) }))))
    guard let names = pairs("@@") else { return entries }
    entries.append(.init("NSNamesKeys", .object(collection(names.map { payload($0[0]) }))))
    entries.append(.init("NSNamesValues", .object(collection(names.map { payload($0[1]) }))))
    guard let windows = next("@") else { return entries }
    entries.append(.init("NSVisibleWindows", payload(windows[0])))
    guard let connections = next("@") else { return entries }
    entries.append(.init("NSConnections", payload(connections[0])))
    guard let fontManager = next("@") else { return entries }
    entries.append(.init("NSFontManager", payload(fontManager[0])))
    guard let ids = pairs("@i") else { return entries }
    entries.append(.init("NSOidsKeys", .object(collection(ids.map { payload($0[0]) }))))
    let numbers = ids.map { values -> NIBArchive.Payload in
      .object(graph.add("NSNumber", [.init("NS.intval", NibGraph.integer(Self.integer(values[1]) ?? 0))]))
    }
    entries.append(.init("NSOidsValues", .object(collection(numbers))))
    if let nextID = next("i").flatMap({ Self.integer($0.first) }) { entries.append(.init("NSNextOid", NibGraph.integer(nextID))) }
    return entries
  }

  /// A new inlined `NSArray` of `members`.
  mutating func collection(_ members: [NIBArchive.Payload]) -> Int {
    graph.add("NSArray", [.init("NSInlinedValue", .bool(true))] + members.map { .init("UINibEncoderEmptyKey", $0) })
  }

  mutating func string(_ bytes: [UInt8]?) -> NIBArchive.Payload {
    guard let bytes else { return .null }
    return .object(graph.add("NSString", [.init("NS.bytes", .data(bytes))]))
  }

  mutating func payload(_ value: TypedStream.Value) -> NIBArchive.Payload {
    switch value {
    case .signed(let number, _): return NibGraph.integer(Int(number))
    case .unsigned(let number, _): return number <= UInt64(Int64.max) ? NibGraph.integer(Int(number)) : .int64(Int64(bitPattern: number))
    case .bool(let flag): return .bool(flag)
    case .float(let number): return .float32(number)
    case .double(let number): return .float64(number)
    case .string(let bytes), .cString(let bytes), .atom(let bytes): return string(bytes)
    case .selector(let name): return string(name.map { Array($0.utf8) })
    case .class(let index):
      guard let index, stream.classes.indices.contains(index) else { return .null }
      return string(Array(stream.classes[index].name.utf8))
    case .object(let object):
      guard let object, stream.objects.indices.contains(object) else { return .null }
      return .object(index(of: object))
    case .bytes(let bytes, _): return .data(bytes)
    case .array(let elements): return .object(collection(elements.map { payload($0) }))
    case .structure(_, let fields): return .object(collection(fields.map { payload($0) }))
    case .ignored: return .null
    }
  }
}
