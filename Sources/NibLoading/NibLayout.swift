internal import Interface

/// What a nib's root says about its objects, read once before any object is made: which
/// objects are placeholders, which are the nib's own, which are top level, the connections in
/// order, the visible windows and the names. AppKit nibs keep it in `NSIBObjectData` (its
/// `NSObjects…`, `NSOids…`, `NSNames…` tables, `NSConnections`, `NSVisibleWindows`), UIKit nibs
/// in the root's `UINib…Key` values (`UINibObjectsKey`, `UINibTopLevelObjectsKey`,
/// `UINibConnectionsKey`, `UINibVisibleWindowsKey`, `UINibKeyValuePairsKey`).
struct NibLayout: Sendable {
  enum Platform: Sendable { case appKit, uiKit }

  enum Placeholder: Equatable, Sendable {
    case owner
    case firstResponder
    case application
    case external(String)
  }

  var platform: Platform
  var placeholders: [Int: Placeholder] = [:]
  /// The nib's own objects, in the order the nib lists them (instantiated in this order).
  var objects: [Int] = []
  var topLevel: [Int] = []
  /// Connector objects, in order.
  var connections: [Int] = []
  /// AppKit's accessibility connectors (`NSIBObjectData`'s `NSAccessibilityConnectors`:
  /// `NSNibAXAttributeConnector`s), applied after the other connections.
  var accessibilityConnections: [Int] = []
  /// UIKit's `UINibKeyValuePair` objects, applied before the connections.
  var keyValuePairs: [Int] = []
  var visibleWindows: [Int] = []
  /// AppKit's `NSNamesKeys` → `NSNamesValues` (`MainMenu`).
  var names: [Int: String] = [:]
  /// Object ids (`NSOidsValues`), by graph index.
  var objectIDs = ObjectIDs()

  /// Object ids by graph index, in an array rather than a dictionary: every load looks up the id
  /// of each object it made (profiled: a dictionary's hashing was a fiftieth of a load).
  struct ObjectIDs: Sendable {
    private var ids: [Int?] = []

    subscript(index: Int) -> Int? {
      get { index >= 0 && index < ids.count ? ids[index] : nil }
      set {
        guard index >= 0 else { return }
        if index >= ids.count { ids += Array(repeating: nil, count: index + 1 - ids.count) }
        ids[index] = newValue
      }
    }

    /// Room for graph indices up to `count - 1`.
    mutating func reserve(_ count: Int) {
      if count > ids.count { ids += Array(repeating: nil, count: count - ids.count) }
    }
  }

  static let connectorClasses: Set<String> = [
    "NSNibOutletConnector", "NSNibControlConnector", "NSNibBindingConnector", "NSIBUserDefinedRuntimeAttributesConnector",
    "NSIBHelpConnector", "NSNibConnector", "NSNibAuxiliaryActionConnector", "NSIBAccessibilityConnector",
    "NSNibAXAttributeConnector", "NSNibAXRelationshipConnector",
    "UIRuntimeOutletConnection", "UIRuntimeEventConnection", "UIRuntimeOutletCollectionConnection", "UINibKeyValuePair",
  ]

  /// Whether `className` is one of ``connectorClasses`` that AppKit nibs use (`NSNib…`,
  /// `NSIB…`): compared only with the names of its length (every object of a nib is asked).
  static func isAppKitConnectorClass(_ className: String) -> Bool {
    let count = className.utf8.count
    guard count < appKitConnectorsByLength.count else { return false }
    return appKitConnectorsByLength[count].contains { $0 == className }
  }

  private static let appKitConnectorsByLength: [[String]] = {
    let names = connectorClasses.filter { $0.hasPrefix("NSNib") || $0.hasPrefix("NSIB") }
    var table = Array(repeating: [String](), count: 1 + names.map(\.utf8.count).max()!)
    for name in names { table[name.utf8.count].append(name) }
    return table
  }()

  /// Reads the layout of `graph`, or answers why it cannot.
  init(_ graph: NibGraph) throws(LayoutProblem) {
    guard graph.objects.indices.contains(graph.root) else { throw LayoutProblem("the nib has no root object") }
    let root = graph.objects[graph.root]
    if case .object(let data)? = root["IB.objectdata"] {
      platform = .appKit
      try readAppKit(graph, data: data)
    } else if root["UINibObjectsKey"] != nil || root["UINibTopLevelObjectsKey"] != nil {
      platform = .uiKit
      try readUIKit(graph)
    } else {
      throw LayoutProblem(
        "the root has neither IB.objectdata (AppKit) nor UINibObjectsKey (UIKit): not a nib's object graph")
    }
  }

  struct LayoutProblem: Error, Sendable {
    let detail: String
    init(_ detail: String) { self.detail = detail }
  }

  private static func members(_ graph: NibGraph, _ payload: NIBArchive.Payload?, _ key: String) throws(LayoutProblem) -> [Int] {
    guard let payload, case .object(let index) = payload else { return [] }
    guard graph.objects.indices.contains(index) else { throw LayoutProblem("\(key) refers to object #\(index), outside the graph") }
    guard let members = graph.members(of: index) else { throw LayoutProblem("\(key) is not a collection") }
    for member in members where !graph.objects.indices.contains(member) {
      throw LayoutProblem("\(key) holds object #\(member), outside the graph")
    }
    return members
  }

  private mutating func readAppKit(_ graph: NibGraph, data: Int) throws(LayoutProblem) {
    guard graph.objects.indices.contains(data) else { throw LayoutProblem("IB.objectdata refers outside the graph") }
    let objectData = graph.objects[data]
    guard case .object(let owner)? = objectData["NSRoot"], graph.objects.indices.contains(owner) else {
      throw LayoutProblem("NSIBObjectData has no NSRoot (File's Owner)")
    }
    placeholders[owner] = .owner
    let keys = try Self.members(graph, objectData["NSObjectsKeys"], "NSObjectsKeys")
    let parents = try Self.members(graph, objectData["NSObjectsValues"], "NSObjectsValues")
    let oidKeys = try Self.members(graph, objectData["NSOidsKeys"], "NSOidsKeys")
    let oidValues = try Self.members(graph, objectData["NSOidsValues"], "NSOidsValues")
    objectIDs.reserve(graph.objects.count)
    for (object, id) in zip(oidKeys, oidValues) {
      switch graph.objects[id]["NS.intval"] {
      case .int8(let value)?: objectIDs[object] = Int(value)
      case .int16(let value)?: objectIDs[object] = Int(value)
      case .int32(let value)?: objectIDs[object] = Int(value)
      case .int64(let value)?: objectIDs[object] = Int(value)
      default: break
      }
    }
    // Marks, not a set: every candidate is a graph index.
    var seen = [Bool](repeating: false, count: graph.objects.count)
    seen[owner] = true
    objects.reserveCapacity(oidKeys.count)
    for candidate in keys + oidKeys where !seen[candidate] {
      seen[candidate] = true
      let className = graph.objects[candidate].className
      if Self.isAppKitConnectorClass(className) { continue }
      if className == "NSCustomObject", let name = graph.text(of: graph.objects[candidate], forKey: "NSClassName") {
        if name == "FirstResponder" { placeholders[candidate] = .firstResponder; continue }
        if name == "NSApplication" { placeholders[candidate] = .application; continue }
      }
      if className == "NSNibExternalObjectPlaceholder" {
        placeholders[candidate] = .external(graph.text(of: graph.objects[candidate], forKey: "NSExternalObjectPlaceholderIdentifier") ?? "")
        continue
      }
      objects.append(candidate)
    }
    for (object, parent) in zip(keys, parents) where parent == owner && placeholders[object] == nil {
      if !Self.isAppKitConnectorClass(graph.objects[object].className) { topLevel.append(object) }
    }
    connections = try Self.members(graph, objectData["NSConnections"], "NSConnections")
    accessibilityConnections = try Self.members(graph, objectData["NSAccessibilityConnectors"], "NSAccessibilityConnectors")
    visibleWindows = try Self.members(graph, objectData["NSVisibleWindows"], "NSVisibleWindows")
    let nameKeys = try Self.members(graph, objectData["NSNamesKeys"], "NSNamesKeys")
    let nameValues = try Self.members(graph, objectData["NSNamesValues"], "NSNamesValues")
    for (object, name) in zip(nameKeys, nameValues) { names[object] = graph.text(of: name) }
    // External objects may appear only in connections (a storyboard's NSStoryboardPlaceholder).
    for connection in connections {
      for entry in graph.objects[connection].entries {
        // The key first: short strings, cheaper to compare than the class name.
        guard case .object(let end) = entry.value, entry.key == "NSSource" || entry.key == "NSDestination" || entry.key == "NSObject",
          graph.objects.indices.contains(end), graph.objects[end].className == "NSNibExternalObjectPlaceholder", placeholders[end] == nil
        else { continue }
        placeholders[end] = .external(graph.text(of: graph.objects[end], forKey: "NSExternalObjectPlaceholderIdentifier") ?? "")
      }
    }
  }

  private mutating func readUIKit(_ graph: NibGraph) throws(LayoutProblem) {
    let root = graph.objects[graph.root]
    let all = try Self.members(graph, root["UINibObjectsKey"], "UINibObjectsKey")
    let top = try Self.members(graph, root["UINibTopLevelObjectsKey"], "UINibTopLevelObjectsKey")
    var listed: Set<Int> = []
    for candidate in all + top where placeholders[candidate] == nil && listed.insert(candidate).inserted {
      let object = graph.objects[candidate]
      if object.className == "UIProxyObject" {
        switch graph.text(of: object, forKey: "UIProxiedObjectIdentifier") ?? "" {
        case "IBFilesOwner": placeholders[candidate] = .owner
        case "IBFirstResponder": placeholders[candidate] = .firstResponder
        case let name: placeholders[candidate] = .external(name)
        }
        continue
      }
      objects.append(candidate)
    }
    topLevel = top.filter { placeholders[$0] == nil }
    connections = try Self.members(graph, root["UINibConnectionsKey"], "UINibConnectionsKey")
    keyValuePairs = try Self.members(graph, root["UINibKeyValuePairsKey"], "UINibKeyValuePairsKey")
    visibleWindows = try Self.members(graph, root["UINibVisibleWindowsKey"], "UINibVisibleWindowsKey")
  }
}
