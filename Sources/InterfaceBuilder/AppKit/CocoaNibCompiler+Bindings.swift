import Interface

extension CocoaNibCompiler {
  // MARK: Bindings

  /// `<binding destination name keyPath>` → `NSNibBindingConnector` {NSSource, NSDestination,
  /// NSLabel "name: keyPath", NSBinding, NSKeyPath, NSOptions (when `<dictionary key="options">`
  /// has entries), NSPreviousConnector (with `previousBinding`), NSNibBindingConnectorVersion 2}
  /// (transmission_MainMenu, binding_options_order).
  mutating func compileBinding(_ element: InterfaceDocument.Element, source: Int) throws(InterfaceBuilderError) {
    guard let destination = element["destination"], let name = element["name"], let keyPath = element["keyPath"] else {
      throw invalid(element, "a binding needs destination, name and keyPath")
    }
    try checkAttributes(element, known: ["destination", "name", "keyPath", "previousBinding"])
    let connector = try begin(element, className: "NSNibBindingConnector", parent: nil)
    var entries: [NibGraph.Entry] = [
      .init("NSSource", .object(source)), .init("NSDestination", .object(object(forID: destination, line: element.line))),
      .init("NSLabel", string(name + ": " + keyPath)), .init("NSBinding", string(name)), .init("NSKeyPath", string(keyPath)),
    ]
    for child in element.children {
      guard child.name == "dictionary", child["key"] == "options" else { throw unsupported(child) }
      let pairs = try optionPairs(child)
      if !pairs.isEmpty { entries.append(.init("NSOptions", .object(graph.collection("NSDictionary", pairs)))) }
    }
    // `previousBinding="id"`: the binding this one is established after (a progress
    // indicator's value after its maxValue) → NSPreviousConnector, that binding's connector,
    // as AppKit's NSNibBindingConnector decoder reads it. No pair has one.
    if let previous = element["previousBinding"] {
      entries.append(.init("NSPreviousConnector", .object(object(forID: previous, line: element.line))))
      noteUnverified(element, "<binding previousBinding=\"\(previous)\"> as NSPreviousConnector, the previous binding's NSNibBindingConnector")
    }
    entries.append(.init("NSNibBindingConnectorVersion", .int8(2)))
    graph[connector].entries = entries
    bindingConnections.append(connector)
  }

  /// The key/value members of a binding's options dictionary, keys sorted (as in
  /// binding_options_order): `<string>` → NSString, `<integer>` → NSNumber, `<real>` → a double
  /// NSNumber, `<bool>` → a bool NSNumber.
  mutating func optionPairs(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [Int] {
    for attribute in element.attributes where attribute.name != "key" {
      throw unsupported(element, "a binding option given as an attribute (\(attribute.name)) is not compiled yet", attribute: attribute.name)
    }
    var options: [(key: String, value: InterfaceDocument.Element)] = []
    for child in element.children {
      guard let key = child["key"] else { throw invalid(child, "a binding option needs a key") }
      options.append((key, child))
    }
    var pairs: [Int] = []
    for (key, child) in options.sorted(by: { $0.key < $1.key }) {
      pairs += [sharedString(key), try propertyListValue(child)]
    }
    return pairs
  }

  /// The object of a `<string>`, `<integer>`, `<real>` or `<bool>` value element.
  mutating func propertyListValue(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    switch element.name {
    case "string":
      return sharedString(try stringContent(element))
    case "integer":
      guard let text = element["value"], let value = Int(text) else { throw invalid(element, "an integer needs an integer value") }
      return number(value)
    case "real":
      guard let text = element["value"], let value = Double(text) else { throw invalid(element, "a real needs a numeric value") }
      return number(double: value)
    case "bool":
      guard let text = element["value"], text == "YES" || text == "NO" else { throw invalid(element, "a bool needs value YES or NO") }
      return boolNumber(text == "YES")
    default:
      throw unsupported(element)
    }
  }

  // MARK: User-defined runtime attributes

  /// `<userDefinedRuntimeAttributes>` → one `NSIBUserDefinedRuntimeAttributesConnector`
  /// {NSObject, NSValues, NSKeyPaths} after the other connections, with an object id
  /// (test_udra): `boolean` → a bool NSNumber, `string` → NSString, `number` → the NSNumber of
  /// its `<integer>`, `<real>` or `<bool>`. Other types are refused (not seen in Apple's nibs).
  mutating func compileRuntimeAttributes(_ element: InterfaceDocument.Element, object: Int) throws(InterfaceBuilderError) {
    var values: [Int] = [], keyPaths: [Int] = []
    for attribute in element.children {
      guard attribute.name == "userDefinedRuntimeAttribute" else { throw unsupported(attribute) }
      guard let keyPath = attribute["keyPath"] else { throw invalid(attribute, "a runtime attribute needs keyPath") }
      switch attribute["type"] {
      case "boolean":
        guard attribute.children.isEmpty else { throw unsupported(attribute.children[0]) }
        values.append(boolNumber(attribute["value"] == "YES"))
      case "string":
        guard attribute.children.isEmpty else { throw unsupported(attribute.children[0]) }
        values.append(sharedString(attribute["value"] ?? ""))
      case "number":
        guard attribute.children.count == 1, ["integer", "real", "bool"].contains(attribute.children[0].name) else {
          throw unsupported(attribute, "a number runtime attribute needs one <integer>, <real> or <bool>")
        }
        values.append(try propertyListValue(attribute.children[0]))
      case let other:
        throw unsupported(attribute, "a runtime attribute of type \"\(other ?? "(none)")\" is not compiled yet (no Apple sample)")
      }
      keyPaths.append(sharedString(keyPath))
    }
    guard !values.isEmpty else { return }
    let connector = graph.add("NSIBUserDefinedRuntimeAttributesConnector")
    graph[connector].entries = [
      .init("NSObject", .object(object)), .init("NSValues", .object(graph.collection("NSArray", values))),
      .init("NSKeyPaths", .object(graph.collection("NSArray", keyPaths))),
    ]
    lateConnections.append(connector)
  }
}

extension CocoaNibCompiler {
  // MARK: Controllers

  /// `<userDefaultsController representsSharedInstance="YES">` → `NSUserDefaultsController`
  /// {NSSharedInstance true} (transmission_MainMenu). A controller of its own (not the shared
  /// one) is written from AppKit's decoder keys (``compileOwnUserDefaultsController(_:parent:)``).
  mutating func compileUserDefaultsController(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    guard element.flag("representsSharedInstance") else { return try compileOwnUserDefaultsController(element, parent: parent) }
    try checkAttributes(element, known: ["representsSharedInstance"])
    let controller = try begin(element, className: "NSUserDefaultsController", parent: parent)
    graph[controller].entries = [.init("NSSharedInstance", .bool(true))]
    try compileChildren(of: element, object: controller, known: [])
    return controller
  }
}
