import Interface

extension CocoaNibCompiler {
  // MARK: Images

  /// The shared `NSCustomResource` of one of AppKit's menu images.
  mutating func menuImage(_ name: String, size: String) -> Int {
    (try? shared("image:" + name) {
      (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      compiler.customResource(name, namespace: nil, designSize: size)
    }) ?? 0
  }

  /// An `NSCustomResource` {NSClassName NSImage, NSResourceName, NSCatalogName, IBNamespaceID, IBDesignSize}.
  mutating func customResource(
    _ name: String, catalog: String? = nil, namespace: String?, designSize: String
  ) -> Int {
    let value = graph.add("NSValue")
    graph[value].entries = [.init("NS.special", .int8(2)), .init("NS.sizeval", string(designSize))]
    let resource = graph.add("NSCustomResource")
    graph[resource].entries = [
      .init("NSClassName", string("NSImage")), .init("NSResourceName", string(name)),
    ]
    if let catalog { graph[resource].entries.append(.init("NSCatalogName", string(catalog))) }
    graph[resource].entries += [
      .init("IBNamespaceID", optionalString(namespace)), .init("IBDesignSize", .object(value)),
      .init("IBDesignImageConfiguration", .null),
    ]
    return resource
  }

  /// `<imageReference image catalog="system" symbolScale variableValue>` → an
  /// `NSCustomResource` like a named SF Symbol's, with NSImageVariableValue (right after
  /// NSCatalogName) and IBDesignImageConfiguration → `IBImageConfiguration` {IBSymbolScale
  /// (default −1), IBRenderingMode 0, IBVariableValue, IBHierarchicalColors [], IBLocale nil}
  /// (transmission_MainMenu's Donate item, the one sample).
  ///
  /// Its IBDesignSize is the symbol's size as configured, which the document does not give:
  /// the document's `<resources>` size of the symbol is written instead, with a warning
  /// (heart: 16×14 there, {17, 14} in Apple's nib).
  mutating func imageReference(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["image", "catalog", "symbolScale", "variableValue"])
    guard let name = element["image"], element["catalog"] == "system" else {
      throw unsupported(element, "an <imageReference> other than a system symbol is not compiled yet")
    }
    let scales = ["default": -1]
    guard let scale = scales[element["symbolScale"] ?? "default"] else {
      throw unsupported(element, "an <imageReference> symbolScale \"\(element["symbolScale"] ?? "")\" is not compiled yet (no Apple sample)")
    }
    guard let variable = element.double("variableValue") else {
      throw unsupported(element, "an <imageReference> without variableValue is not compiled yet (no Apple sample)")
    }
    // The design size is the symbol's as configured, which the document does not give: its
    // <resources> size is written instead (transmission_MainMenu: heart is 16×14 there, {17, 14}
    // in Apple's nib; the pair stays a listed exception).
    let resource = document.resource(["image"], named: name)
    guard let width = resource?.double("width"), let height = resource?.double("height") else {
      throw unsupported(element, "an <imageReference> whose symbol has no size in <resources> is not compiled yet")
    }
    let designSize = Self.sizeString(width: width, height: height)
    noteUnverified(
      element, "the configured symbol \"\(name)\" with its <resources> size \(designSize) as IBDesignSize (Apple's ibtool gives the configured symbol's own size: {17, 14} for heart's 16×14)")
    return try shared("imageReference:\(name):\(scale):\(variable):\(designSize)") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      let configuration = compiler.graph.add(
        "IBImageConfiguration",
        [
          .init("IBSymbolScale", .int64(Int64(scale))), .init("IBRenderingMode", .int8(0)), .init("IBVariableValue", .float64(variable)),
          .init("IBHierarchicalColors", .object(compiler.graph.collection("NSArray", []))), .init("IBLocale", .null),
        ])
      let resource = compiler.customResource(name, catalog: "system", namespace: "system", designSize: designSize)
      var entries = compiler.graph[resource].entries
      if let index = entries.firstIndex(where: { $0.key == "NSCatalogName" }) {
        entries.insert(.init("NSImageVariableValue", .float64(variable)), at: index + 1)
      }
      if let index = entries.firstIndex(where: { $0.key == "IBDesignImageConfiguration" }) {
        entries[index] = .init("IBDesignImageConfiguration", .object(configuration))
      }
      compiler.graph[resource].entries = entries
      return resource
    }
  }

  /// The sizes of AppKit's named icons that ibtool archives at their own size: the 32-point
  /// icons and the 16-point status images.
  static let appKitImageSizes: [String: Double] = [
    "NSTrashEmpty": 32, "NSTrashFull": 32, "NSFolder": 32, "NSComputer": 32, "NSNetwork": 32,
    "NSUser": 32, "NSUserGroup": 32,
    "NSEveryone": 32, "NSAdvanced": 32, "NSPreferencesGeneral": 32, "NSInfo": 32, "NSFontPanel": 32,
    "NSColorPanel": 32,
    "NSUserAccounts": 32, "NSMultipleDocuments": 32, "NSStatusAvailable": 16,
    "NSStatusPartiallyAvailable": 16,
    "NSStatusUnavailable": 16, "NSStatusNone": 16,
  ]

  /// AppKit's template images that ibtool archives at their own (not square) size, whatever
  /// the document's `<resources>` says: NSActionTemplate 19×19 (HSChooserWindow's pair, 15×15
  /// in its xib; a public ibtool re-implementation read the same off Apple's compile of
  /// NetNewsWire's DinosaursWindow.xib, 20×20 in its xib). NSAddTemplate 18×16 and
  /// NSRemoveTemplate 18×4 come from that re-implementation's reading of NetNewsWire's
  /// AccountsPreferencesView.xib only, so they are reported as unverified.
  static let appKitTemplateSizes: [String: (width: Double, height: Double, checked: Bool)] = [
    "NSActionTemplate": (19, 19, true), "NSAddTemplate": (18, 16, false), "NSRemoveTemplate": (18, 4, false),
  ]

  /// A named image (`image="NSAddTemplate"`, or an SF Symbol from `catalog="system"`), sized
  /// from the document's `<resources>`; an image the document saves as a keyed archive is
  /// compiled from it (``archivedImage(_:name:)``).
  mutating func namedImage(_ name: String, catalog: String?, element: InterfaceDocument.Element)
    throws(InterfaceBuilderError) -> Int
  {
    let resource = document.resource(["image"], named: name)
    if let resource, let data = archivedImageData(resource) {
      return try shared("archived image:" + name) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
        try compiler.archivedImage(data, name: name)
      }
    }
    var width = resource?.double("width") ?? 32
    var height = resource?.double("height") ?? 32
    let isSystem = name.hasPrefix("NS") || catalog == "system"
    if isSystem { (width, height) = (min(width, 32), min(height, 32)) }
    if catalog == "system" { (width, height) = (32, 32) }
    // AppKit's own images have their own size, whatever the document's <resources> says.
    if let size = Self.appKitImageSizes[name] { (width, height) = (size, size) }
    if let template = Self.appKitTemplateSizes[name] {
      (width, height) = (template.width, template.height)
      if !template.checked {
        noteUnverified(element, "the image \"\(name)\" at AppKit's own size \(Self.sizeString(width: width, height: height)) as IBDesignSize")
      }
    }
    let designSize = Self.sizeString(width: width, height: height)
    return try shared("image:" + name + designSize + (catalog ?? "")) {
      (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      compiler.customResource(
        name, catalog: catalog, namespace: isSystem ? "system" : nil, designSize: designSize)
    }
  }
}
