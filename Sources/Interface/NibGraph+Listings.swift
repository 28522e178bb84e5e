import PropertyLists

extension NibGraph {
  /// A short name for object `index`: its class, and the text of a title, label or class name
  /// it holds (`NSMenuItem "Quit"`, `NSCustomObject AppDelegate`).
  public func label(of index: Int) -> String {
    let object = objects[index]
    var name = object.className
    if name == "NSClassSwapper" || name == "UIClassSwapper", let swapped = textValue(of: index, keys: ["NSClassName", "UIClassName"]) {
      name = swapped
    }
    if let text = textValue(of: index, keys: ["NSTitle", "NSWindowTitle", "NSContents", "UIText", "UITitle"]), !text.isEmpty {
      return "#\(index) \(name) \(QuotedText.oneLine(text))"
    }
    if ["NSCustomObject", "NSCustomView"].contains(object.className), let className = textValue(of: index, keys: ["NSClassName"]) {
      return "#\(index) \(name) \(className)"
    }
    if object.className == "UIProxyObject", let identifier = textValue(of: index, keys: ["UIProxiedObjectIdentifier"]) {
      return "#\(index) \(name) \(identifier)"
    }
    return "#\(index) \(name)"
  }

  /// The text of the first of `keys` that holds a string object.
  func textValue(of index: Int, keys: [String]) -> String? {
    for key in keys {
      if case .object(let target)? = objects[index][key], let text = text(of: target) { return text }
    }
    return nil
  }

  /// The object held by `key` of the root's `IB.objectdata` (macOS nibs), if any.
  func objectDataValue(_ key: String) -> Int? {
    guard case .object(let data)? = objects[root]["IB.objectdata"], case .object(let value)? = objects[data][key] else { return nil }
    return value
  }

  /// The hierarchy of the nib's objects as an indented tree: for a macOS nib, each object under
  /// its parent from `NSObjectsKeys`/`NSObjectsValues` (the File's Owner at the top); for a
  /// UIKit nib, the top-level objects (`UINibTopLevelObjectsKey`) with their subviews
  /// (`UISubviews`). What `ibtool --print-hierarchy` prints (Stasis's own flag; Apple's
  /// `--hierarchy` prints a property list).
  public func hierarchyListing() -> String {
    var children: [Int: [Int]] = [:]
    var tops: [Int] = []
    if let keys = objectDataValue("NSObjectsKeys"), let values = objectDataValue("NSObjectsValues"),
      let keyMembers = members(of: keys), let valueMembers = members(of: values), let owner = objectDataValue("NSRoot")
    {
      tops = [owner]
      for (child, parent) in zip(keyMembers, valueMembers) where child != parent { children[parent, default: []].append(child) }
    } else if case .object(let list)? = objects[root]["UINibTopLevelObjectsKey"], let topLevel = members(of: list) {
      tops = topLevel
      var seen = Set<Int>()
      var queue = topLevel
      while let view = queue.popLast() {
        guard seen.insert(view).inserted, case .object(let subviews)? = objects[view]["UISubviews"], let list = members(of: subviews) else { continue }
        children[view] = list
        queue += list
      }
    }
    var lines: [String] = []
    var shown = Set<Int>()
    func render(_ index: Int, _ depth: Int) {
      guard shown.insert(index).inserted, depth < 256 else { return }
      lines.append(String(repeating: "  ", count: depth) + label(of: index))
      for child in children[index] ?? [] { render(child, depth + 1) }
    }
    for top in tops { render(top, 0) }
    return lines.isEmpty ? "(no object hierarchy)\n" : lines.joined(separator: "\n") + "\n"
  }

  /// One line per connection: its kind, source, label and destination, from `NSConnections`
  /// (macOS) or `UINibConnectionsKey` (UIKit). What `ibtool --print-connections` prints
  /// (Stasis's own flag; Apple's `--connections` prints a property list).
  public func connectionsListing() -> String {
    let list: Int?
    if let connections = objectDataValue("NSConnections") {
      list = connections
    } else if case .object(let connections)? = objects[root]["UINibConnectionsKey"] {
      list = connections
    } else {
      list = nil
    }
    var lines: [String] = []
    for connection in list.flatMap({ members(of: $0) }) ?? [] {
      let object = objects[connection]
      func end(_ keys: [String]) -> String {
        for key in keys { if case .object(let target)? = object[key] { return label(of: target) } }
        return "(none)"
      }
      let name = textValue(of: connection, keys: ["NSLabel", "UILabel", "NSMarker"]) ?? ""
      lines.append("\(object.className) \(QuotedText.oneLine(name)): \(end(["NSSource", "UISource"])) → \(end(["NSDestination", "UIDestination"]))")
    }
    return lines.isEmpty ? "(no connections)\n" : lines.joined(separator: "\n") + "\n"
  }

  /// Every class the nib instantiates, with how many objects of it there are, most used first
  /// (custom classes by their own names; strings, numbers, collections and the nib's own
  /// bookkeeping objects left out). What `ibtool --print-classes` prints (Stasis's own
  /// flag; Apple's `--classes` prints a property list).
  public func classesListing() -> String {
    let plumbing: Set<String> = [
      "NSObject", "NSIBObjectData", "NSString", "NSMutableString", "NSNumber", "NSData", "NSArray", "NSMutableArray", "NSSet", "NSMutableSet",
      "NSDictionary", "NSMutableDictionary", "IBClassReference",
    ]
    var counts: [String: Int] = [:]
    for index in objects.indices where index != root && !plumbing.contains(objects[index].className) {
      var name = objects[index].className
      if name == "NSClassSwapper" || name == "UIClassSwapper", let swapped = textValue(of: index, keys: ["NSClassName", "UIClassName"]) {
        name = swapped
      }
      counts[name, default: 0] += 1
    }
    return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.value)\t\($0.key)" }
      .joined(separator: "\n") + "\n"
  }
}
