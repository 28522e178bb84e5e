import Interface

/// Connections, runtime attributes and accessibility configurations.
extension UIKitNibCompiler {
  static let eventMasks: [String: Int] = [
    "touchDown": 1 << 0, "touchDownRepeat": 1 << 1, "touchDragInside": 1 << 2, "touchDragOutside": 1 << 3,
    "touchDragEnter": 1 << 4, "touchDragExit": 1 << 5, "touchUpInside": 1 << 6, "touchUpOutside": 1 << 7,
    "touchCancel": 1 << 8, "valueChanged": 1 << 12, "primaryActionTriggered": 1 << 13, "editingDidBegin": 1 << 16,
    "editingChanged": 1 << 17, "editingDidEnd": 1 << 18, "editingDidEndOnExit": 1 << 19,
  ]

  func destination(_ connection: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let id = connection["destination"], let object = objectsByID[id] else {
      throw invalid(connection, "<\(connection.name)> refers to \(connection["destination"] ?? "no object"), which the document does not define")
    }
    return object
  }

  /// Outlets (`UIRuntimeOutletConnection`), actions (`UIRuntimeEventConnection` with their
  /// `UIEventMask`) and outlet collections (`UIRuntimeOutletCollectionConnection`, one per
  /// member).
  mutating func compileConnections() throws(InterfaceBuilderError) {
    for (list, sourceID) in deferredConnections {
      guard let source = objectsByID[sourceID] else { continue }
      for connection in list.children {
        // A storyboard's connection belongs to the nib that holds one of its ends.
        if let id = connection["destination"],
          (foreignIDs.contains(id) && objectsByID[id] == nil) || (upstreamIDs.contains(id) && upstreamIDs.contains(sourceID))
        {
          continue
        }
        switch connection.name {
        case "outlet", "outletCollection":
          let destination = try destination(connection)
          var entries: [NibGraph.Entry] = [
            .init("UILabel", .object(graph.string(connection["property"] ?? ""))), .init("UISource", .object(source)),
            .init("UIDestination", .object(destination)),
          ]
          if connection.name == "outletCollection" {
            entries.append(.init("UIAddsContentToExistingCollection", .bool(true)))
            if let type = connection["collectionClass"] { entries.append(.init("UICollectionClassName", .object(graph.string(type)))) }
          }
          let className = connection.name == "outlet" ? "UIRuntimeOutletConnection" : "UIRuntimeOutletCollectionConnection"
          connections.append(graph.add(className, entries))
        case "action":
          let destination = try destination(connection)
          var entries: [NibGraph.Entry] = [
            .init("UILabel", .object(graph.string(connection["selector"] ?? ""))), .init("UISource", .object(source)),
            .init("UIDestination", .object(destination)),
          ]
          // An action is an event connection whatever its source: a control's with the mask of
          // its events; a bar button item's or a gesture recognizer's (no `eventType`) with 0,
          // which UIKit hands to the source to connect itself (no Apple sample in the corpus).
          let mask = connection["eventType"].flatMap { Self.eventMasks[$0] }
          entries.append(.init("UIEventMask", NibGraph.integer(mask ?? 0)))
          connections.append(graph.add("UIRuntimeEventConnection", entries))
        default:
          continue
        }
      }
    }
  }

  /// `<userDefinedRuntimeAttributes>` → one `UINibKeyValuePair` each (`UIObject`, `UIValue`,
  /// `UIKeyPath`).
  mutating func compileRuntimeAttributes(_ element: InterfaceDocument.Element, object: Int) throws(InterfaceBuilderError) {
    for attribute in element.children where attribute.name == "userDefinedRuntimeAttribute" {
      let keyPath = attribute["keyPath"] ?? ""
      let value: NIBArchive.Payload
      switch attribute["type"] {
      case "string", "localizedString": value = .object(graph.string(attribute["value"] ?? ""))
      case "boolean": value = .object(number(attribute["value"] == "YES" ? 1 : 0, integer: true))
      case "number":
        let child = attribute.children.first { $0["key"] == "value" }
        value = .object(number(child?.double("value") ?? 0, integer: child?.name == "integer"))
      case "color":
        value = attribute.child("color").flatMap { color($0) }.map { .object($0) } ?? .null
      case "image": value = .object(image(attribute["value"] ?? ""))
      case "point", "size", "rect":
        let child = attribute.children.first
        let numbers = [child?.double("x") ?? 0, child?.double("y") ?? 0, child?.double("width") ?? 0, child?.double("height") ?? 0]
        value = .object(geometryValue(numbers, type: attribute["type"] ?? "rect"))
      default: value = .null
      }
      keyValuePairs.append(
        graph.add("UINibKeyValuePair", [.init("UIObject", .object(object)), .init("UIValue", value), .init("UIKeyPath", .object(graph.string(keyPath)))]))
    }
  }

  /// An `NSValue` of a point, size or rect as the nib encoder writes one: `NS.special` (1 point,
  /// 2 size, 3 rect) and the value as text (`{{275, 110}, {51, 31}}`).
  mutating func geometryValue(_ numbers: [Double], type: String) -> Int {
    func text(_ value: Double) -> String {
      let whole = value.rounded() == value && abs(value) < 1e15
      return whole ? String(Int64(value)) : "\(value)"
    }
    let (x, y, width, height) = (text(numbers[0]), text(numbers[1]), text(numbers[2]), text(numbers[3]))
    let (key, special, string) =
      type == "point" ? ("NS.pointval", 1, "{\(x), \(y)}")
      : type == "size" ? ("NS.sizeval", 2, "{\(width), \(height)}") : ("NS.rectval", 3, "{{\(x), \(y)}, {\(width), \(height)}}")
    return graph.add("NSValue", [.init("NS.special", NibGraph.integer(special)), .init(key, .object(graph.string(string)))])
  }

  /// A switch sizes itself when decoded: ibtool adds its document frame as a `frame` runtime
  /// attribute, so that the nib's frame wins (every switch of the pairs).
  mutating func compileSwitchFrame(_ element: InterfaceDocument.Element, object: Int) {
    guard element.name == "switch", let frame = element.child("rect", key: "frame") else { return }
    let numbers = [frame.double("x") ?? 0, frame.double("y") ?? 0, frame.double("width") ?? 0, frame.double("height") ?? 0]
    let value = geometryValue(numbers, type: "rect")
    keyValuePairs.append(
      graph.add("UINibKeyValuePair", [.init("UIObject", .object(object)), .init("UIValue", .object(value)), .init("UIKeyPath", .object(graph.string("frame")))]))
  }

  static let accessibilityTraits: [(String, Int)] = [
    ("button", 1), ("link", 2), ("image", 4), ("selected", 8), ("playsSound", 16), ("keyboardKey", 32), ("staticText", 64),
    ("summaryElement", 128), ("notEnabled", 256), ("updatesFrequently", 512), ("searchField", 1024), ("startsMediaSession", 2048),
    ("adjustable", 4096), ("allowsDirectInteraction", 8192), ("causesPageTurn", 16384), ("header", 65536),
  ]

  /// `<accessibility key="accessibilityConfiguration">` → a `UIRuntimeAccessibilityConfiguration`
  /// in `UINibAccessibilityConfigurationsKey`.
  mutating func compileAccessibility(_ element: InterfaceDocument.Element, object: Int) {
    guard let accessibility = element.child("accessibility", key: "accessibilityConfiguration") else { return }
    var entries: [NibGraph.Entry] = [.init("UIAccessibileObject", .object(object))]
    if let hint = accessibility["hint"] { entries.append(.init("UIAccessibilityHint", .object(graph.string(hint)))) }
    if let identifier = accessibility["identifier"] { entries.append(.init("UIAccessibilityIdentifier", .object(graph.string(identifier)))) }
    if let label = accessibility["label"] { entries.append(.init("UIAccessibilityLabel", .object(graph.string(label)))) }
    if let traits = accessibility.child("accessibilityTraits") {
      let value = Self.accessibilityTraits.reduce(0) { $0 | (traits.flag($1.0) ? $1.1 : 0) }
      entries.append(.init("UIAccessibilityTraits", .object(number(Double(value), integer: true))))
    }
    if let isElement = accessibility.children.first(where: { $0.name == "bool" && $0["key"] == "isElement" }) {
      entries.append(.init("UIIsAccessibilityElement", .object(number(isElement["value"] == "YES" ? 1 : 0, integer: true))))
    }
    guard entries.count > 1 else { return }
    accessibilityConfigurations.append(graph.add("UIRuntimeAccessibilityConfiguration", entries))
  }
}
