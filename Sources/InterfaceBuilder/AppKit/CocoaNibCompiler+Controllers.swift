import Interface

/// Cocoa bindings controllers no Apple-compiled nib in the corpus shows: `<arrayController>`,
/// `<objectController>` and a `<userDefaultsController>` of its own (not the shared instance),
/// written with the archive keys AppKit's decoders read (`NSController`, `NSObjectController`,
/// `NSArrayController`, `NSUserDefaultsController`), as re-implementations of AppKit that load
/// Apple's nibs (Cocotron, Cappuccino, GNUstep) decode them. Each is reported by
/// ``CocoaNibCompiler/noteUnverified(_:_:)``.
extension CocoaNibCompiler {
  /// The boolean keys of `NSObjectController` and `NSArrayController`: xib attribute, archive
  /// key and AppKit's default (Cocotron's `initWithContent:` defaults for the array controller).
  static let objectControllerFlags: [(attribute: String, key: String, default: Bool)] = [
    ("editable", "NSEditable", true), ("automaticallyPreparesContent", "NSAutomaticallyPreparesContent", false),
  ]
  static let arrayControllerFlags: [(attribute: String, key: String, default: Bool)] = [
    ("avoidsEmptySelection", "NSAvoidsEmptySelection", true), ("preservesSelection", "NSPreservesSelection", true),
    ("selectsInsertedObjects", "NSSelectsInsertedObjects", true),
    ("clearsFilterPredicateOnInsertion", "NSClearsFilterPredicateOnInsertion", true),
    ("filterRestrictsInsertion", "NSFilterRestrictsInsertion", false),
    ("alwaysUsesMultipleValuesMarker", "NSAlwaysUsesMultipleValuesMarker", false),
    ("automaticallyRearrangesObjects", "NSAutomaticallyRearrangesObjects", false),
  ]

  /// `<objectController>` → `NSObjectController`, `<arrayController>` → `NSArrayController`:
  /// NSDeclaredKeys (an `NSMutableArray` of the `<declaredKeys>` strings, when there are any),
  /// NSEditable, NSAutomaticallyPreparesContent, NSObjectClassName (`objectClassName`, else
  /// AppKit's `NSMutableDictionary`), then the array controller's own flags. Its bindings are
  /// connections like any object's.
  mutating func compileObjectController(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    let isArray = element.name == "arrayController"
    let flags = Self.objectControllerFlags + (isArray ? Self.arrayControllerFlags : [])
    try checkAttributes(element, known: Set(flags.map(\.attribute) + ["objectClassName"]))
    let controller = try begin(element, className: isArray ? "NSArrayController" : "NSObjectController", parent: parent)
    var entries = try declaredKeysEntries(element)
    for flag in flags.prefix(Self.objectControllerFlags.count) {
      entries.append(.init(flag.key, .bool(element.flag(flag.attribute, default: flag.default))))
    }
    entries.append(.init("NSObjectClassName", string(element["objectClassName"] ?? "NSMutableDictionary")))
    for flag in flags.dropFirst(Self.objectControllerFlags.count) {
      entries.append(.init(flag.key, .bool(element.flag(flag.attribute, default: flag.default))))
    }
    graph[controller].entries = entries
    try compileChildren(of: element, object: controller, known: ["declaredKeys"])
    noteUnverified(
      element,
      "<\(element.name)> as \(graph[controller].className) {NSDeclaredKeys, NSEditable, NSAutomaticallyPreparesContent, NSObjectClassName"
        + (isArray ? ", NSAvoidsEmptySelection, NSPreservesSelection, NSSelectsInsertedObjects, …" : "") + "}, AppKit's decoder keys")
    return controller
  }

  /// `<userDefaultsController>` that is not the shared instance → `NSUserDefaultsController`
  /// {NSDeclaredKeys, NSAppliesImmediately (`appliesImmediately`, AppKit's default YES)}: no
  /// NSSharedInstance key (AppKit's decoder reads its absence as false), as a public ibtool
  /// re-implementation read a bare `<userDefaultsController>` off Apple's compile of a
  /// NetNewsWire preferences nib ({NSAppliesImmediately true} alone).
  mutating func compileOwnUserDefaultsController(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["representsSharedInstance", "appliesImmediately"])
    let controller = try begin(element, className: "NSUserDefaultsController", parent: parent)
    var entries = try declaredKeysEntries(element)
    entries.append(.init("NSAppliesImmediately", .bool(element.flag("appliesImmediately", default: true))))
    graph[controller].entries = entries
    try compileChildren(of: element, object: controller, known: ["declaredKeys"])
    noteUnverified(element, "a user defaults controller of its own as NSUserDefaultsController {NSDeclaredKeys, NSAppliesImmediately}, AppKit's decoder keys")
    return controller
  }

  /// NSController's `NSDeclaredKeys` from `<declaredKeys>` (nothing when it is absent or empty).
  mutating func declaredKeysEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    guard let list = element.child("declaredKeys") else { return [] }
    var keys: [Int] = []
    for item in list.children {
      guard item.name == "string" else { throw unsupported(item) }
      keys.append(sharedString(try stringContent(item)))
    }
    return keys.isEmpty ? [] : [.init("NSDeclaredKeys", .object(graph.collection("NSMutableArray", keys)))]
  }
}
