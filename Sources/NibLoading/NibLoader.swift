internal import Interface
internal import InterfaceObjects
internal import ObjectModel

/// Apple's nib-loading steps, in order, for one instantiation of a nib: placeholders, every
/// object made and decoded, runtime attributes, outlets, actions and bindings connected,
/// `awakeFromNib`, visible windows and the main menu, then the top-level objects.
@MainActor struct NibLoader {
  let nib: Nib
  let owner: AnyObject?
  let options: Nib.Options
  let layout: NibLayout
  let unarchiver: NibUnarchiver
  let application: Application
  var warnings: [String] = []
  var bindings: [Binding] = []
  /// Connections applied, by connector class name (``LoadedNib/appliedConnections``).
  var applied: [String: Int] = [:]

  /// The stand-in for the First Responder placeholder: connections to it get a nil target.
  final class FirstResponderStandIn {}
  /// The stand-in for a File's Owner when the caller passes none: its outlets go nowhere.
  final class AbsentOwner {}

  init(nib: Nib, owner: AnyObject?, options: Nib.Options) throws(NibLoadingError) {
    self.nib = nib
    self.owner = owner
    self.options = options
    switch nib.layout {
    case .success(let layout): self.layout = layout
    case .failure(let problem): throw NibLoadingError(.unreadable, nib: nib.name, detail: problem.detail)
    }
    application = options.application ?? Application()
    // A NeXT typedstream nib keeps each object's values by position, as NeXT's initWithCoder:
    // wrote them, which no registered class reads: every object is made generic and keeps them.
    let classes = nib.graph.isTypedStreamNib ? ClassRegistry() : options.classes
    unarchiver = NibUnarchiver(
      graph: nib.graph, classes: classes, options: .init(isStrict: options.isStrict, localize: options.localize))
    for (index, placeholder) in layout.placeholders {
      switch placeholder {
      case .owner: unarchiver.substitutes[index] = owner ?? AbsentOwner()
      case .firstResponder: unarchiver.substitutes[index] = FirstResponderStandIn()
      case .application: unarchiver.substitutes[index] = application
      case .external(let identifier):
        guard let object = options.externalObjects[identifier] else {
          throw NibLoadingError(
            .missingExternalObject, nib: nib.name, objectID: objectID(index), key: identifier,
            detail: "the nib has an external object \"\(identifier)\" and the options' external objects hold none of that name")
        }
        unarchiver.substitutes[index] = object
      }
    }
  }

  func objectID(_ index: Int) -> Int { layout.objectIDs[index] ?? index }

  var isUIKit: Bool { layout.platform == .uiKit }

  mutating func run() throws(NibLoadingError) -> LoadedNib {
    do {
      return try runSteps()
    } catch {
      // A load that fails half-way drops what it made: cut the cycles first, or it would leak.
      unarchiver.breakReferenceCycles()
      throw error
    }
  }

  private mutating func runSteps() throws(NibLoadingError) -> LoadedNib {
    // 2. Instantiate every object before any connection (both platforms).
    // Everything the later steps touch is made here: the nib's objects, the top-level ones, the
    // visible windows and the named objects (a damaged nib may list them nowhere else).
    for index in layout.objects + layout.topLevel + layout.visibleWindows + layout.names.keys.sorted() { _ = try instance(index) }
    do {
      try unarchiver.finishDecoding()
    } catch {
      throw wrap(error)
    }
    // 3. Runtime attributes first on UIKit, then connections in the nib's order.
    for pair in layout.keyValuePairs { try applyKeyValuePair(pair) }
    for connection in layout.connections { try connect(connection) }
    for connection in layout.accessibilityConnections { try connect(connection) }
    // 4. awakeFromNib.
    awake()
    // 5. Windows and the main menu.
    var namedObjects: [String: AnyObject] = [:]
    for (index, name) in layout.names { if let object = try instance(index) { namedObjects[name] = object } }
    if let menu = namedObjects["MainMenu"] as? Menu { application.mainMenu = menu }
    for index in unarchiver.madeIndices {
      if let window = try instance(index) as? Window, window.application == nil { window.application = application }
    }
    for index in layout.visibleWindows {
      guard let window = try instance(index) as? Window else { continue }
      if isUIKit { window.makeKeyAndVisible() } else { window.orderFront() }
    }
    // Last, once every object exists: connections may make objects (a connector's hostile
    // label) and set generic objects' keys, and either can close a cycle.
    let cut = unarchiver.breakReferenceCycles()
    if cut > 0 { warnings.append("\(nib.name): \(cut) reference cycle\(cut == 1 ? "" : "s") among generic objects and menus cut") }
    var objectsByID: [Int: AnyObject] = [:]
    var objects: [AnyObject] = []
    objects.reserveCapacity(unarchiver.madeIndices.count)
    for index in unarchiver.madeIndices {
      guard let object = try instance(index) else { continue }
      objects.append(object)
      if let id = isUIKit ? index : layout.objectIDs[index] { objectsByID[id] = object }
    }
    var topLevel: [AnyObject] = []
    for index in layout.topLevel { if let object = try instance(index) { topLevel.append(object) } }
    return LoadedNib(
      topLevelObjects: topLevel, objectsByID: objectsByID, objects: objects, application: application, bindings: bindings,
      warnings: unarchiver.warnings + warnings, unknownClassNames: unarchiver.unknownClassNames, namedObjects: namedObjects,
      appliedConnections: applied)
  }

  // MARK: - Objects

  func instance(_ index: Int) throws(NibLoadingError) -> AnyObject? {
    do {
      return try unarchiver.instance(at: index)
    } catch {
      throw wrap(error)
    }
  }

  func wrap(_ error: InterfaceObjectsError) -> NibLoadingError {
    let code: NibLoadingError.Code = error.code == .unknownClass ? .unknownClass : .invalidObject
    return NibLoadingError(
      code, nib: nib.name, objectID: error.objectIndex.map(objectID), key: error.key ?? error.className, detail: error.detail,
      underlying: error)
  }

  /// The live object a connector's `key` refers to; `nil` for the First Responder (a nil target).
  func end(_ connector: NibGraph.Object, _ key: String, in connection: Int) throws(NibLoadingError) -> (object: AnyObject?, index: Int?) {
    guard case .object(let index)? = connector[key] else { return (nil, nil) }
    let object = try instance(index)
    if object is FirstResponderStandIn { return (nil, index) }
    return (object, index)
  }

  /// A connector's string value, through the unarchiver (which converts each shared string once).
  func text(_ connector: NibGraph.Object, _ key: String) -> String? {
    guard case .object(let index)? = connector[key], nib.graph.objects.indices.contains(index) else { return nil }
    return (try? unarchiver.value(ofObjectAt: index)) as? String
  }

  /// A missing outlet, key or selector: an error on UIKit and in strict mode, a warning for an
  /// AppKit nib in lenient mode (AppKit skips such connections).
  mutating func missing(_ code: NibLoadingError.Code, object: Int?, key: String, detail: String, underlying: (any Error & Sendable)? = nil)
    throws(NibLoadingError)
  {
    let error = NibLoadingError(code, nib: nib.name, objectID: object.map(objectID), key: key, detail: detail, underlying: underlying)
    switch options.missingConnections {
    case .error: throw error
    case .warning: break
    case .platformDefault: if isUIKit || options.isStrict { throw error }
    }
    warnings.append(error.description)
  }

  // MARK: - Connections

  /// The connector classes the loader applies, told apart by length first (a connector's class
  /// name is compared with one or two names instead of up to ten long ones, for every connection
  /// of every load).
  enum ConnectorKind {
    case outlet, outletCollection, action, binding, runtimeAttributes, help, keyValuePair, plain, accessibilityAttribute, other

    init(className: String) {
      switch className.utf8.count {
      case 14 where className == "NSNibConnector": self = .plain
      case 25 where className == "NSNibAXAttributeConnector": self = .accessibilityAttribute
      case 17 where className == "UINibKeyValuePair": self = .keyValuePair
      case 17 where className == "NSIBHelpConnector": self = .help
      case 20 where className == "NSNibOutletConnector": self = .outlet
      case 21 where className == "NSNibControlConnector": self = .action
      case 21 where className == "NSNibBindingConnector": self = .binding
      case 24 where className == "UIRuntimeEventConnection": self = .action
      case 25 where className == "UIRuntimeOutletConnection": self = .outlet
      case 35 where className == "UIRuntimeOutletCollectionConnection": self = .outletCollection
      case 41 where className == "NSIBUserDefinedRuntimeAttributesConnector": self = .runtimeAttributes
      default: self = .other
      }
    }
  }

  /// Applies one connector, counting it in ``applied`` unless it was skipped (with a warning).
  mutating func connect(_ connection: Int) throws(NibLoadingError) {
    let warningsBefore = warnings.count
    try establish(connection)
    if warnings.count == warningsBefore { applied[nib.graph.objects[connection].className, default: 0] += 1 }
  }

  private mutating func establish(_ connection: Int) throws(NibLoadingError) {
    let connector = nib.graph.objects[connection]
    switch ConnectorKind(className: connector.className) {
    case .outlet:
      let labelKey = isUIKit ? "UILabel" : "NSLabel"
      let (source, sourceIndex) = try end(connector, isUIKit ? "UISource" : "NSSource", in: connection)
      let (destination, _) = try end(connector, isUIKit ? "UIDestination" : "NSDestination", in: connection)
      guard let label = text(connector, labelKey) else { return try malformed(connection, "an outlet without a label") }
      try setOutlet(label, of: source, at: sourceIndex, to: destination)
    case .outletCollection:
      let (source, sourceIndex) = try end(connector, "UISource", in: connection)
      guard let label = text(connector, "UILabel") else { return try malformed(connection, "an outlet collection without a label") }
      var members: [AnyObject] = []
      if case .object(let collection)? = connector["UIDestination"], let indices = nib.graph.members(of: collection) {
        for index in indices { if let member = try instance(index) { members.append(member) } }
      } else if let (destination, _) = Optional(try end(connector, "UIDestination", in: connection)), let destination {
        members = [destination]
      }
      try setOutlet(label, of: source, at: sourceIndex, to: members)
    case .action:
      try connectAction(connector, connection)
    case .binding:
      let (source, _) = try end(connector, "NSSource", in: connection)
      let (destination, _) = try end(connector, "NSDestination", in: connection)
      var bindingOptions: [String: Any] = [:]
      if case .object(let index)? = connector["NSOptions"] {
        do {
          bindingOptions = try unarchiver.value(ofObjectAt: index) as? [String: Any] ?? [:]
        } catch {
          throw wrap(error)
        }
      }
      bindings.append(
        Binding(
          source: source, destination: destination, binding: text(connector, "NSBinding") ?? "",
          keyPath: text(connector, "NSKeyPath") ?? "", options: bindingOptions))
    case .runtimeAttributes:
      let (object, objectIndex) = try end(connector, "NSObject", in: connection)
      var keyPaths: [Any] = []
      var values: [Any] = []
      do {
        if case .object(let index)? = connector["NSKeyPaths"] { keyPaths = try unarchiver.value(ofObjectAt: index) as? [Any] ?? [] }
        if case .object(let index)? = connector["NSValues"] { values = try unarchiver.value(ofObjectAt: index) as? [Any] ?? [] }
      } catch {
        throw wrap(error)
      }
      for (keyPath, value) in zip(keyPaths, values) {
        guard let keyPath = keyPath as? String else { continue }
        try setAttribute(keyPath, of: object, at: objectIndex, to: value)
      }
    case .help:
      try connectHelp(connector, connection)
    case .keyValuePair:
      try applyKeyValuePair(connection)
    case .plain:
      // `NSNibConnector` itself establishes nothing: Apple's ibtool writes one per stack view
      // (its NSLabel a note on decoding order) so that the view is decoded before the others.
      guard case .object? = connector["NSSource"] else { return try malformed(connection, "a connector without a source") }
    case .accessibilityAttribute:
      try connectAccessibilityAttribute(connector, connection)
    case .other:
      // A connector class the loader does not know: skipped with a warning, refused strictly.
      let detail = "connection \(objectID(connection)) of class \(connector.className) not applied: the loader knows no such connector"
      if options.isStrict {
        throw NibLoadingError(.unknownClass, nib: nib.name, objectID: objectID(connection), key: connector.className, detail: detail)
      }
      warnings.append("\(nib.name): \(detail)")
    }
  }

  mutating func malformed(_ connection: Int, _ what: String) throws(NibLoadingError) {
    throw NibLoadingError(.invalidObject, nib: nib.name, objectID: objectID(connection), detail: "\(what) (a damaged nib)")
  }

  /// Outlets as Apple sets them: UIKit's `setValue:forKey:`, AppKit's `set<Label>:` (both through
  /// key-value coding here).
  mutating func setOutlet(_ label: String, of source: AnyObject?, at sourceIndex: Int?, to destination: Any?) throws(NibLoadingError) {
    try set(label, isPath: false, what: "outlet", of: source, at: sourceIndex, to: destination)
  }

  /// A user-defined runtime attribute: `setValue:forKeyPath:`.
  mutating func setAttribute(_ keyPath: String, of object: AnyObject?, at index: Int?, to value: Any?) throws(NibLoadingError) {
    try set(keyPath, isPath: true, what: "runtime attribute", of: object, at: index, to: value)
  }

  mutating func set(
    _ key: String, isPath: Bool, what: String, of object: AnyObject?, at index: Int?, to value: Any?
  ) throws(NibLoadingError) {
    guard let object, !(object is AbsentOwner) else { return }
    // Most objects are `NibObject`s (which adopt `KeyValueCoding`): a class cast before the
    // protocol cast, which looks the conformance up (profiled). The same methods run.
    if let nibObject = object as? NibObject {
      do {
        if isPath { try nibObject.setValue(value, forKeyPath: key) } else { try nibObject.setValue(value, forKey: key) }
      } catch {
        try missing(.undefinedKey, object: index, key: key, detail: "\(what) \(key) cannot be set", underlying: error)
      }
      return
    }
    guard let coding = object as? any KeyValueCoding else {
      return try missing(
        .undefinedKey, object: index, key: key, detail: "\(what) \(key): \(type(of: object)) does not adopt KeyValueCoding")
    }
    do {
      if isPath { try coding.setValue(value, forKeyPath: key) } else { try coding.setValue(value, forKey: key) }
    } catch {
      try missing(.undefinedKey, object: index, key: key, detail: "\(what) \(key) cannot be set", underlying: error)
    }
  }

  mutating func applyKeyValuePair(_ pair: Int) throws(NibLoadingError) {
    let object = nib.graph.objects[pair]
    let (target, targetIndex) = try end(object, "UIObject", in: pair)
    guard let keyPath = text(object, "UIKeyPath") else { return try malformed(pair, "a runtime attribute without a key path") }
    var value: Any?
    do {
      if let payload = object["UIValue"] { value = try unarchiver.value(of: payload) }
    } catch {
      throw wrap(error)
    }
    try setAttribute(keyPath, of: target, at: targetIndex, to: value)
  }

  /// Actions as Apple sets them: the control keeps target, action (and UIKit's event mask); a nil
  /// target (First Responder) travels the responder chain when the action is sent.
  mutating func connectAction(_ connector: NibGraph.Object, _ connection: Int) throws(NibLoadingError) {
    let (source, sourceIndex) = try end(connector, isUIKit ? "UISource" : "NSSource", in: connection)
    let (target, _) = try end(connector, isUIKit ? "UIDestination" : "NSDestination", in: connection)
    guard let selector = text(connector, isUIKit ? "UILabel" : "NSLabel") else {
      return try malformed(connection, "an action without a selector")
    }
    if let target, !(target is AbsentOwner) {
      // A target that lacks the action is not connected (AppKit logs "Could not connect the
      // action"), unless it is a generic object standing for an unknown class.
      if let responder = target as? ActionResponding, !(target is GenericObject), !responder.responds(to: selector) {
        return try missing(
          .unknownAction, object: sourceIndex, key: selector,
          detail: "action \(selector): the target \(type(of: target)) does not respond to it")
      } else if !(target is ActionResponding) {
        return try missing(
          .unknownAction, object: sourceIndex, key: selector,
          detail: "action \(selector): the target \(type(of: target)) has no action table")
      }
    }
    let effectiveTarget = target is AbsentOwner ? nil : target
    switch source {
    case let control as Control:
      if isUIKit {
        let mask = ControlEvents(rawValue: integer(connector["UIEventMask"]) ?? ControlEvents.touchUpInside.rawValue)
        control.addTarget(effectiveTarget, action: selector, for: mask)
      } else {
        control.target = effectiveTarget
        control.action = selector
      }
    case let item as MenuItem:
      item.target = effectiveTarget
      item.action = selector
    case let cell as Cell:
      cell.target = effectiveTarget
      cell.action = selector
    case let item as BarButtonItem:
      item.target = effectiveTarget
      item.action = selector
    case let coding as any KeyValueCoding:
      do {
        try coding.setValue(effectiveTarget, forKey: "target")
        try coding.setValue(selector, forKey: "action")
      } catch {
        try missing(.undefinedKey, object: sourceIndex, key: selector, detail: "action \(selector): \(error.description)", underlying: error)
      }
    default:
      try missing(.undefinedKey, object: sourceIndex, key: selector, detail: "action \(selector): the source cannot hold a target and action")
    }
  }

  func integer(_ payload: NIBArchive.Payload?) -> Int? {
    payload?.integerValue
  }

  // MARK: - awakeFromNib

  /// UIKit: every object the nib made, never placeholders. AppKit: the nib's objects, then the
  /// placeholders (the Application and external objects; not the First Responder stand-in),
  /// File's Owner last, the order AppKit tries to keep.
  func awake() {
    var seen: Set<ObjectIdentifier> = []
    seen.reserveCapacity(unarchiver.madeIndices.count + layout.placeholders.count)
    for index in unarchiver.madeIndices {
      guard let object = (try? unarchiver.instance(at: index)) ?? nil, seen.insert(ObjectIdentifier(object)).inserted else { continue }
      // A class cast first: most objects are `NibObject`s, and a cast to a protocol looks the
      // conformance up (profiled); `NibObject` adopts `NibAwaking`, so the call is the same.
      if let nibObject = object as? NibObject { nibObject.awakeFromNib() } else { (object as? NibAwaking)?.awakeFromNib() }
    }
    guard !isUIKit else { return }
    var ownerObject: AnyObject?
    for (index, placeholder) in layout.placeholders.sorted(by: { $0.key < $1.key }) {
      guard let object = unarchiver.substitutes[index], seen.insert(ObjectIdentifier(object)).inserted else { continue }
      switch placeholder {
      case .owner: ownerObject = object
      case .external, .application: (object as? NibAwaking)?.awakeFromNib()
      case .firstResponder: break
      }
    }
    (ownerObject as? NibAwaking)?.awakeFromNib()
  }
}
