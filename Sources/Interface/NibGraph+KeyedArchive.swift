public import PropertyLists

extension NibGraph {
  /// The graph of a keyed-archive nib (`keyedobjects.nib`, an `NSKeyedArchiver` archive whose
  /// `$top` holds `IB.objectdata` → `NSIBObjectData`), in the same shape as a NIBArchive's, so
  /// that listings, comparisons and the loader treat both kinds of nib alike.
  ///
  /// The root is an `NSObject` holding `$top`'s keys. Each `$objects` dictionary becomes an
  /// object of its `$classname`, its keys in sorted order (a keyed archive keeps no order);
  /// arrays and sets (`NS.objects`) and dictionaries (`NS.keys`/`NS.objects`) become inlined
  /// collections; strings become `NSString` objects (`NS.bytes`, UTF-8) and data `NSData`
  /// objects; integers take the smallest width, reals are float64, `$null` is nil.
  ///
  /// - Throws: ``InterfaceError`` `.corrupt` when the archive has no `$objects` or `$top`, or a
  ///   UID or `$class` that points nowhere.
  public init(keyedArchive archive: PropertyListValue, path: String? = nil) throws(InterfaceError) {
    guard let archived = archive["$objects"]?.arrayValue, case .dictionary(let top)? = archive["$top"] else {
      throw InterfaceError(.corrupt, path: path, detail: "a keyed archive needs $objects and a $top dictionary")
    }
    var builder = KeyedNibBuilder(archived: archived, path: path)
    let rootEntries = try builder.entries(of: top)
    try builder.fillPending()
    builder.graph[0].entries = rootEntries
    self = builder.graph
  }
}

/// Converts `$objects` entries to graph objects, each once (sharing and cycles kept). Objects
/// are made when first referenced and filled from a work list, so that a long chain of
/// references cannot exhaust the stack.
struct KeyedNibBuilder {
  let archived: [PropertyListValue]
  let path: String?
  var graph = NibGraph(rootClass: "NSObject")
  /// Graph object of each `$objects` index already made.
  var converted: [Int: Int] = [:]
  /// Objects made but not filled yet: (`$objects` index, graph object).
  var pending: [(Int, Int)] = []

  init(archived: [PropertyListValue], path: String?) {
    self.archived = archived
    self.path = path
  }

  func corrupt(_ detail: String) -> InterfaceError { InterfaceError(.corrupt, path: path, detail: detail) }

  mutating func entries(of dictionary: PropertyListDictionary) throws(InterfaceError) -> [NibGraph.Entry] {
    var result: [NibGraph.Entry] = []
    for key in dictionary.keys.sorted() where key != "$class" {
      guard let value = dictionary[key] else { continue }
      result.append(NibGraph.Entry(key, try payload(of: value)))
    }
    return result
  }

  /// A value as it appears under a key: inline scalars stay scalars, references become objects.
  mutating func payload(of value: PropertyListValue) throws(InterfaceError) -> NIBArchive.Payload {
    switch value {
    case .uid(let uid):
      guard let index = Int(exactly: uid) else { throw corrupt("UID \(uid) is past the \(archived.count) $objects") }
      return try object(at: index)
    case .integer(let integer):
      if let value = integer.exactly(Int.self) { return NibGraph.integer(value) }
      return .int64(Int64(bitPattern: integer.uint64Value ?? 0))
    case .real(let real, _): return .float64(real)
    case .bool(let flag): return .bool(flag)
    case .string(let text): return .object(graph.string(text))
    case .data(let bytes): return .object(graph.data(Array(bytes)))
    default: throw corrupt("a \(value.typeName) directly under a key of a keyed-archive nib")
    }
  }

  /// The object for `$objects[index]` (`$null`, index 0, is nil), made now and filled later.
  mutating func object(at index: Int) throws(InterfaceError) -> NIBArchive.Payload {
    guard index > 0 else { return .null }
    guard index < archived.count else { throw corrupt("UID \(index) is past the \(archived.count) $objects") }
    if let known = converted[index] { return .object(known) }
    let object: Int
    switch archived[index] {
    case .string(let text):
      object = graph.string(text)
    case .data(let bytes):
      object = graph.data(Array(bytes))
    case .integer, .real, .bool:
      object = graph.add("NSNumber")
      pending.append((index, object))
    case .dictionary(let dictionary):
      guard case .uid(let classUID)? = dictionary["$class"], let classIndex = Int(exactly: classUID), classIndex < archived.count,
        let className = archived[classIndex]["$classname"]?.stringValue
      else { throw corrupt("$objects[\(index)] has no $class with a $classname") }
      object = graph.add(className)
      pending.append((index, object))
    default:
      throw corrupt("$objects[\(index)] is a \(archived[index].typeName), not an object")
    }
    converted[index] = object
    return .object(object)
  }

  /// Fills every object made so far, and those its values make, until none is left.
  mutating func fillPending() throws(InterfaceError) {
    while let (index, object) = pending.popLast() {
      switch archived[index] {
      case .dictionary(let dictionary):
        if let members = dictionary["NS.objects"]?.arrayValue {
          var entries: [NibGraph.Entry] = [.init("NSInlinedValue", .bool(true))]
          let keys = dictionary["NS.keys"]?.arrayValue
          if let keys, keys.count != members.count {
            throw corrupt("$objects[\(index)] (\(graph[object].className)) has \(keys.count) NS.keys for \(members.count) NS.objects")
          }
          for (position, member) in members.enumerated() {
            if let keys { entries.append(.init("UINibEncoderEmptyKey", try payload(of: keys[position]))) }
            entries.append(.init("UINibEncoderEmptyKey", try payload(of: member)))
          }
          graph[object].entries = entries
        } else {
          graph[object].entries = try entries(of: dictionary)
        }
      default:
        let value = try payload(of: archived[index])
        graph[object].entries = [.init(value.isFloat ? "NS.dblval" : "NS.intval", value)]
      }
    }
  }
}

extension NIBArchive.Payload {
  var isFloat: Bool {
    switch self {
    case .float32, .float64: true
    default: false
    }
  }
}
