import Interface

extension CocoaNibCompiler {
  // MARK: Menus

  /// `<menu>` → `NSMenu` {NSTitle, NSMenuItems, NSName, NSNoAutoenable}.
  mutating func compileMenu(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    let menu = try begin(element, className: "NSMenu", parent: parent)
    var items: [Int] = []
    let itemElements = element.child("items")?.children ?? []
    for child in reversesMenuItems ? itemElements.reversed() : itemElements {
      guard child.name == "menuItem" else { throw unsupported(child) }
      items.append(try compileMenuItem(child, menu: menu))
    }
    if reversesMenuItems { items.reverse() }
    var entries: [NibGraph.Entry] = [.init("NSTitle", localizable(element["title"] ?? "", element, "title")), .init("NSMenuItems", .object(graph.collection("NSMutableArray", items)))]
    if let system = element["systemMenu"] {
      let names = ["main": "_NSMainMenu", "apple": "_NSAppleMenu", "services": "_NSServicesMenu", "window": "_NSWindowsMenu", "help": "_NSHelpMenu",
        "recentDocuments": "_NSRecentDocumentsMenu", "font": "_NSFontMenu"]
      guard let name = names[system] else { throw invalid(element, "systemMenu \"\(system)\" is not known") }
      entries.append(.init("NSName", string(name)))
    }
    if element["autoenablesItems"] == "NO" { entries.append(.init("NSNoAutoenable", .bool(true))) }
    graph[menu].entries = entries
    try compileChildren(of: element, object: menu, known: ["items"])
    return menu
  }

  /// `<menuItem>` → `NSMenuItem`.
  mutating func compileMenuItem(_ element: InterfaceDocument.Element, menu: Int) throws(InterfaceBuilderError) -> Int {
    let item = try begin(element, className: "NSMenuItem", parent: menu)
    let separator = element.flag("isSeparatorItem")
    var entries: [NibGraph.Entry] = [.init("NSMenu", .object(menu))]
    if separator || !element.flag("enabled", default: true) { entries.append(.init("NSIsDisabled", .bool(true))) }
    if element.flag("alternate") { entries.append(.init("NSIsAlternate", .bool(true))) }
    if element.flag("hidden") { entries.append(.init("NSIsHidden", .bool(true))) }
    if separator { entries.append(.init("NSIsSeparator", .bool(true))) }
    entries.append(.init("NSAllowsKeyEquivalentLocalization", .bool(true)))
    entries.append(.init("NSAllowsKeyEquivalentMirroring", .bool(true)))
    let actionImage = element["secondaryImage"]
    if actionImage != nil { entries.append(.init("NSHasActionImage", .bool(true))) }
    entries.append(.init("NSTitle", separator ? string(element["title"] ?? "") : localizable(element["title"] ?? "", element, "title")))
    entries.append(.init("NSKeyEquiv", string(element["keyEquivalent"] ?? "")))
    if separator {
      // A separator has no key equivalent modifiers at all.
    } else if let mask = element.child("modifierMask", key: "keyEquivalentModifierMask") {
      var bits = 0
      for (name, bit) in [("shift", 0x2_0000), ("control", 0x4_0000), ("option", 0x8_0000), ("command", 0x10_0000), ("function", 0x80_0000)]
      where mask.flag(name) { bits |= bit }
      if bits != 0 { entries.append(.init("NSKeyEquivModMask", .int32(Int32(bits)))) }
    } else {
      entries.append(.init("NSKeyEquivModMask", .int32(0x10_0000)))
    }
    entries.append(.init("NSMnemonicLoc", .int32(0x7FFF_FFFF)))
    if let state = element["state"] {
      let states = ["off": 0, "on": 1, "mixed": -1]
      guard let value = states[state] else { throw invalid(element, "state \"\(state)\" is not on, off or mixed") }
      if value != 0 { entries.append(.init("NSState", NibGraph.integer(value))) }
    }
    if let actionImage {
      entries.append(.init("NSActionImage", .object(try namedImage(actionImage, catalog: element["catalog"], element: element))))
    }
    if let image = element["image"] { entries.append(.init("NSImage", .object(try namedImage(image, catalog: element["catalog"], element: element)))) }
    entries.append(.init("NSOnImage", .object(menuImage("NSMenuCheckmark", size: "{18, 16}"))))
    entries.append(.init("NSMixedImage", .object(menuImage("NSMenuMixedState", size: "{18, 4}"))))
    let submenuElement = element.child("menu", key: "submenu")
    var submenu: Int?
    if let submenuElement {
      submenu = try compileMenu(submenuElement, parent: item)
      entries.append(.init("NSAction", string("submenuAction:")))
    }
    if let tag = element["tag"].flatMap({ Int($0) }), tag != 0 { entries.append(.init("NSTag", NibGraph.integer(tag))) }
    if let submenu {
      entries.append(.init("NSTarget", .object(submenu)))
      entries.append(.init("NSSubmenu", .object(submenu)))
    }
    entries.append(.init("NSHiddenInRepresentation", .bool(false)))
    graph[item].entries = entries
    try compileChildren(of: element, object: item, known: ["menu", "modifierMask"])
    return item
  }

  /// The shared `NSCustomResource` of one of AppKit's menu images.
  mutating func menuImage(_ name: String, size: String) -> Int {
    (try? shared("image:" + name) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      compiler.customResource(name, namespace: nil, designSize: size)
    }) ?? 0
  }

  /// An `NSCustomResource` {NSClassName NSImage, NSResourceName, NSCatalogName, IBNamespaceID, IBDesignSize}.
  mutating func customResource(_ name: String, catalog: String? = nil, namespace: String?, designSize: String) -> Int {
    let value = graph.add("NSValue")
    graph[value].entries = [.init("NS.special", .int8(2)), .init("NS.sizeval", string(designSize))]
    let resource = graph.add("NSCustomResource")
    graph[resource].entries = [
      .init("NSClassName", string("NSImage")), .init("NSResourceName", string(name)),
    ]
    if let catalog { graph[resource].entries.append(.init("NSCatalogName", string(catalog))) }
    graph[resource].entries += [
      .init("IBNamespaceID", optionalString(namespace)), .init("IBDesignSize", .object(value)), .init("IBDesignImageConfiguration", .null),
    ]
    return resource
  }

  /// The sizes of AppKit's named icons that ibtool archives at their own size: the 32-point
  /// icons and the 16-point status images.
  static let appKitImageSizes: [String: Double] = [
    "NSTrashEmpty": 32, "NSTrashFull": 32, "NSFolder": 32, "NSComputer": 32, "NSNetwork": 32, "NSUser": 32, "NSUserGroup": 32,
    "NSEveryone": 32, "NSAdvanced": 32, "NSPreferencesGeneral": 32, "NSInfo": 32, "NSFontPanel": 32, "NSColorPanel": 32,
    "NSUserAccounts": 32, "NSMultipleDocuments": 32, "NSStatusAvailable": 16, "NSStatusPartiallyAvailable": 16,
    "NSStatusUnavailable": 16, "NSStatusNone": 16,
  ]

  /// A named image (`image="NSAddTemplate"`, or an SF Symbol from `catalog="system"`), sized
  /// from the document's `<resources>`.
  mutating func namedImage(_ name: String, catalog: String?, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let resource = document.root.child("resources")?.children.first { $0.name == "image" && $0["name"] == name }
    var width = resource?.double("width") ?? 32, height = resource?.double("height") ?? 32
    let isSystem = name.hasPrefix("NS") || catalog == "system"
    if isSystem { (width, height) = (min(width, 32), min(height, 32)) }
    if catalog == "system" { (width, height) = (32, 32) }
    // AppKit's own images have their own size, whatever the document's <resources> says.
    if let size = Self.appKitImageSizes[name] { (width, height) = (size, size) }
    let designSize = Self.sizeString(width: width, height: height)
    return try shared("image:" + name + designSize + (catalog ?? "")) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      compiler.customResource(name, catalog: catalog, namespace: isSystem ? "system" : nil, designSize: designSize)
    }
  }

  // MARK: Fonts

  /// `<font key="font" metaFont="system" size="…">` or `<font name="Menlo" size="11">` →
  /// a shared `NSFont` {NSName, NSSize, NSfFlags}; `nil` gives the system font at `defaultSize`.
  mutating func font(_ element: InterfaceDocument.Element?, defaultSize: Double) throws(InterfaceBuilderError) -> Int {
    struct MetaFont {
      let name: String
      let size: Double
      let role: Int
    }
    let metaFonts: [String: MetaFont] = [
      "system": .init(name: ".AppleSystemUIFont", size: 13, role: 0x14),
      "systemBold": .init(name: ".AppleSystemUIFontBold", size: 13, role: 0x18),
      "smallSystem": .init(name: ".AppleSystemUIFont", size: 11, role: 0x1C),
      "smallSystemBold": .init(name: ".AppleSystemUIFontBold", size: 11, role: 0x1D),
      "miniSystem": .init(name: ".AppleSystemUIFont", size: 9, role: 0x1E),
      "miniSystemBold": .init(name: ".AppleSystemUIFontBold", size: 9, role: 0x1F),
      "label": .init(name: ".AppleSystemUIFont", size: 10, role: 0x1B),
      "menu": .init(name: ".AppleSystemUIFont", size: 13, role: 0x16),
      "message": .init(name: ".AppleSystemUIFont", size: 13, role: 0x16),
      "toolTip": .init(name: ".AppleSystemUIFont", size: 11, role: 0x19),
      "palette": .init(name: ".AppleSystemUIFont", size: 11, role: 0x17),
      "controlContent": .init(name: ".AppleSystemUIFont", size: 12, role: 0x1A),
      "cellTitle": .init(name: ".AppleSystemUIFont", size: 12, role: 0x13),
    ]
    let name: String
    let size: Double
    let flags: Int
    if let element {
      if let meta = element["metaFont"] {
        guard let known = metaFonts[meta] else { throw unsupported(element, "metaFont \"\(meta)\" is not compiled yet") }
        name = known.name
        size = element.double("size") ?? known.size
        flags = ((known.role << 8) & 0xF00) | (known.role & 0xFF) | (meta == "cellTitle" ? 0x1000 : 0)
      } else if let fontName = element["name"] {
        name = fontName
        size = element.double("size") ?? 12
        flags = 0x10
      } else if element.flag("usesAppearanceFont") {
        // The appearance's font: the system font at its size, marked to follow the appearance.
        let known = metaFonts["system"]!
        name = known.name
        size = element.double("size") ?? known.size
        flags = ((known.role << 8) & 0xF00) | (known.role & 0xFF)
      } else {
        throw invalid(element, "a font needs metaFont, name or usesAppearanceFont")
      }
    } else {
      let known = metaFonts["system"]!
      name = known.name
      size = defaultSize
      flags = ((known.role << 8) & 0xF00) | (known.role & 0xFF)
    }
    let appearance = element?.flag("usesAppearanceFont") ?? false
    return try shared("font:\(name):\(size):\(flags):\(appearance)") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      let font = compiler.graph.add("NSFont")
      var entries: [NibGraph.Entry] = [.init("NSName", compiler.string(name))]
      if appearance { entries.append(.init("NSFontUsesAppearanceFontSize", .bool(true))) }
      entries.append(.init("NSSize", .float64(size)))
      entries.append(.init("NSfFlags", NibGraph.integer(flags)))
      compiler.graph[font].entries = entries
      return font
    }
  }

  // MARK: Constraints

  static let layoutAttributes = [
    "left": 1, "right": 2, "top": 3, "bottom": 4, "leading": 5, "trailing": 6, "width": 7, "height": 8, "centerX": 9, "centerY": 10,
    "baseline": 11, "lastBaseline": 11, "firstBaseline": 12,
  ]

  /// `<constraint>` → `NSLayoutConstraint`; a missing `firstItem` is the view that holds it.
  mutating func compileConstraint(_ element: InterfaceDocument.Element, owner: Int) throws(InterfaceBuilderError) -> Int {
    guard element.name == "constraint" else { throw unsupported(element) }
    let constraint = try begin(element, className: "NSLayoutConstraint", parent: owner)
    func attribute(_ name: String) throws(InterfaceBuilderError) -> Int? {
      guard let text = element[name] else { return nil }
      guard let value = Self.layoutAttributes[text] else { throw invalid(element, "\(name) \"\(text)\" is not a layout attribute") }
      return value
    }
    guard let first = try attribute("firstAttribute") else { throw invalid(element, "a constraint needs firstAttribute") }
    var entries: [NibGraph.Entry] = []
    let firstItem = element["firstItem"].map { object(forID: $0, line: element.line) } ?? owner
    entries.append(.init("NSFirstItem", .object(firstItem)))
    entries.append(.init("NSFirstAttributeV2", NibGraph.integer(first)))
    entries.append(.init("NSFirstAttribute", NibGraph.integer(first)))
    switch element["relation"] {
    case nil, "equal": break
    case "greaterThanOrEqual": entries.append(.init("NSRelation", .int8(1)))
    case "lessThanOrEqual": entries.append(.init("NSRelation", .int64(-1)))
    case let other?: throw invalid(element, "relation \"\(other)\" is not known")
    }
    if let second = try attribute("secondAttribute") {
      let secondItem = element["secondItem"].map { object(forID: $0, line: element.line) } ?? owner
      entries.append(.init("NSSecondItem", .object(secondItem)))
      entries.append(.init("NSSecondAttributeV2", NibGraph.integer(second)))
      entries.append(.init("NSSecondAttribute", NibGraph.integer(second)))
    }
    let constant = element.double("constant") ?? 0
    let symbolic = element.flag("symbolic")
    if constant != 0 && !symbolic { entries.append(.init("NSConstantV2", .float64(constant))) }
    if symbolic { entries.append(.init("NSSymbolicConstant", string("NSSpace"))) }
    entries.append(.init("NSShouldBeArchived", .bool(true)))
    if let priority = element.wholeNumber("priority"), priority != 1000 { entries.append(.init("NSPriority", NibGraph.integer(priority))) }
    if constant != 0 && !symbolic { entries.append(.init("NSConstant", .float64(constant))) }
    if element["multiplier"] != nil { throw unsupported(element, "a constraint multiplier is not compiled yet") }
    graph[constraint].entries = entries
    return constraint
  }

  // MARK: Connections

  /// The `<outlet>`, `<action>` and `<binding>` children of `element`'s `<connections>`, with `source`.
  mutating func compileConnections(of element: InterfaceDocument.Element, source: Int) throws(InterfaceBuilderError) {
    for connection in element.child("connections")?.children ?? [] {
      switch connection.name {
      case "outlet":
        guard let property = connection["property"], let destination = connection["destination"] else {
          throw invalid(connection, "an outlet needs property and destination")
        }
        let connector = try begin(connection, className: "NSNibOutletConnector", parent: nil)
        graph[connector].entries = [
          .init("NSSource", .object(source)), .init("NSDestination", .object(object(forID: destination, line: connection.line))),
          .init("NSLabel", string(property)), .init("NSChildControllerCreationSelectorName", .null),
        ]
        outletConnections.append(connector)
      case "action":
        guard let selector = connection["selector"], let target = connection["target"] else {
          throw invalid(connection, "an action needs selector and target")
        }
        let connector = try begin(connection, className: "NSNibControlConnector", parent: nil)
        var entries: [NibGraph.Entry] = [.init("NSSource", .object(source))]
        if !firstResponderIDs.contains(target) { entries.append(.init("NSDestination", .object(object(forID: target, line: connection.line)))) }
        entries.append(.init("NSLabel", string(selector)))
        graph[connector].entries = entries
        actionConnections.append(connector)
      case "binding":
        try compileBinding(connection, source: source)
      default:
        throw unsupported(connection)
      }
    }
  }
}

extension CocoaNibCompiler {
  // MARK: Colors

  /// A number in a color's component strings: 10 significant digits, no trailing zeros, as
  /// "%.10g" prints it (test11_text_view_back: 0.75810480442176875 → "0.7581048044";
  /// imagecell_datacell_font: 0.33333298560000002 → "0.3333329856"; test19_2_layouts:
  /// 0.055541899059999997 → "0.05554189906").
  static func colorNumber(_ value: Double) -> String {
    // Past these magnitudes the scaling below would overflow; no color component is that small or large.
    guard value.isFinite, value == 0 || (abs(value) > 1e-250 && abs(value) < 1e250) else { return value.isFinite ? "\(value)" : "0" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    var text = ""
    var digits = value
    let magnitude = digits == 0 ? 0 : Int((abs(digits)).log10Floor())
    let decimals = max(0, 9 - magnitude)
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    digits = (digits * scale).rounded() / scale
    text = "\(digits)"
    if text.contains("e") { return text }
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }

  /// `<color>` → a shared `NSColor`: calibrated white or RGB; catalog colors need AppKit's
  /// color profiles and are refused until they are built.
  mutating func color(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let alpha = element.double("alpha") ?? 1
    switch element["colorSpace"] {
    case "calibratedWhite":
      guard let white = element.double("white") else { throw invalid(element, "a calibratedWhite color needs white") }
      let text = Self.colorNumber(white) + (alpha != 1 ? " " + Self.colorNumber(alpha) : "")
      return try shared("white:" + text) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
        compiler.graph.add("NSColor", [.init("NSColorSpace", .int8(3)), .init("NSWhite", .data(Array(text.utf8) + [0]))])
      }
    case "calibratedRGB", "deviceRGB":
      guard let red = element.double("red"), let green = element.double("green"), let blue = element.double("blue") else {
        throw invalid(element, "an RGB color needs red, green and blue")
      }
      let space: Int8 = element["colorSpace"] == "deviceRGB" ? 2 : 1
      let text = [red, green, blue].map(Self.colorNumber).joined(separator: " ") + (alpha != 1 ? " " + Self.colorNumber(alpha) : "")
      return try shared("rgb\(space):" + text) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
        compiler.graph.add("NSColor", [.init("NSColorSpace", .int8(space)), .init("NSRGB", .data(Array(text.utf8) + [0]))])
      }
    case "catalog":
      guard let name = element["name"], let catalog = element["catalog"] else { throw invalid(element, "a catalog color needs name and catalog") }
      return try catalogColor(name, catalog: catalog, element: element)
    default:
      throw unsupported(element, "<color> in color space \"\(element["colorSpace"] ?? "(none)")\" is not compiled yet")
    }
  }

  /// How AppKit resolves a System catalog color when ibtool archives it: a gray (white,
  /// components) in Generic Gray Gamma 2.2, an sRGB triple (rgb, components), or another
  /// catalog color. Read off Apple's compiled nibs.
  enum CatalogColor {
    case gray(white: String, components: String)
    case rgb(rgb: String, components: String)
    case catalog(String)
  }

  static let systemColors: [String: CatalogColor] = [
    "controlBackgroundColor": .gray(white: "0.602715373", components: "0.6666666667 1"),
    "controlColor": .gray(white: "0.602715373", components: "0.6666666667 1"),
    "selectedTextBackgroundColor": .gray(white: "0.602715373", components: "0.6666666667 1"),
    "_sourceListBackgroundColor": .gray(white: "0.602715373", components: "0.6666666667 1"),
    "controlTextColor": .gray(white: "0", components: "0 1"),
    "headerTextColor": .gray(white: "0", components: "0 1"),
    "labelColor": .gray(white: "0", components: "0 1"),
    "selectedTextColor": .gray(white: "0", components: "0 1"),
    "textColor": .gray(white: "0", components: "0 1"),
    "headerColor": .gray(white: "1", components: "1 1"),
    "textBackgroundColor": .gray(white: "1", components: "1 1"),
    "gridColor": .gray(white: "0.4246723652", components: "0.5 1"),
    "windowBackgroundColor": .gray(white: "0.4246723652", components: "0.5 1"),
    "tertiaryLabelColor": .gray(white: "0.4246723652", components: "0.5 1"),
    "secondaryLabelColor": .gray(white: "0.2637968361", components: "0.3333333333 1"),
    "disabledControlTextColor": .gray(white: "0.2637968361", components: "0.3333333333 1"),
    "linkColor": .rgb(rgb: "0 0 0.9981992245", components: "0 0 1 1"),
    "systemBlueColor": .rgb(rgb: "0 0 0.9981992245", components: "0 0 1 1"),
    "controlAccentColor": .rgb(rgb: "0 0 0.9981992245", components: "0 0 1 1"),
    "systemRedColor": .rgb(rgb: "0.9859541655 0 0.02694000863", components: "1 0 0 1"),
    "textInsertionPointColor": .catalog("systemBlueColor"),
  ]

  /// A `System` catalog color: {NSColorSpace 6, NSCatalogName, NSColorName, NSColor → the
  /// resolved color in its ICC color space}.
  mutating func catalogColor(_ name: String, catalog: String, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard catalog == "System", let resolved = Self.systemColors[name] else {
      throw unsupported(element, "the catalog color \(catalog)/\(name) is not compiled yet (its resolved value is not known here)")
    }
    return try shared("catalog:\(catalog):\(name)") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      let inner: Int
      switch resolved {
      case .catalog(let other): inner = try compiler.catalogColor(other, catalog: catalog, element: element)
      case .gray(let white, let components):
        inner = try compiler.resolvedColor(gray: true, value: white, components: components, element: element)
      case .rgb(let rgb, let components):
        inner = try compiler.resolvedColor(gray: false, value: rgb, components: components, element: element)
      }
      return compiler.graph.add(
        "NSColor",
        [.init("NSColorSpace", .int8(6)), .init("NSCatalogName", compiler.string(catalog)), .init("NSColorName", compiler.string(name)), .init("NSColor", .object(inner))])
    }
  }

  /// A catalog color's resolved value, shared: a gray (`NSWhite`, color space 3) or an sRGB
  /// triple (`NSRGB`, color space 1) in its ICC color space, with its components.
  mutating func resolvedColor(
    gray: Bool, value: String, components: String, element: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> Int {
    let space = try colorSpace(gray: gray, element: element)
    return try shared((gray ? "gray:" : "srgb:") + value) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      compiler.graph.add(
        "NSColor",
        [
          .init("NSColorSpace", .int8(gray ? 3 : 1)), .init(gray ? "NSWhite" : "NSRGB", .data(Array(value.utf8) + [0])),
          .init("NSCustomColorSpace", .object(space)), .init("NSComponents", .data(Array(components.utf8))),
          .init("NSLinearExposure", .data(Array("1".utf8))),
        ])
    }
  }

  /// The shared `NSColorSpace` with its ICC profile: Generic Gray Gamma 2.2 (NSID 9, NSModel 0)
  /// or sRGB (NSID 7).
  mutating func colorSpace(gray: Bool, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let profiles = options.colorProfiles else {
      throw InterfaceBuilderError(
        .unsupported, path: document.path, line: element.line,
        detail: "a catalog color embeds AppKit's ICC profile, which Stasis does not ship: give the compiler ColorProfiles (ibtool --color-profiles-from AppleCompiled.nib)")
    }
    return try shared(gray ? "space:gray" : "space:srgb") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      let data = compiler.graph.add("NSData", [.init("NS.bytes", .data(gray ? profiles.genericGray : profiles.sRGB))])
      var entries: [NibGraph.Entry] = [.init("NSID", .int8(gray ? 9 : 7))]
      if gray { entries.append(.init("NSModel", .int8(0))) }
      entries.append(.init("NSICC", .object(data)))
      return compiler.graph.add("NSColorSpace", entries)
    }
  }
}

extension Double {
  /// ⌊log10(self)⌋ for a positive finite value.
  func log10Floor() -> Int {
    guard isFinite, self > 0 else { return 0 }
    var exponent = 0
    var value = self
    while value >= 10 { value /= 10; exponent += 1 }
    while value < 1 && value > 0 { value *= 10; exponent -= 1 }
    return exponent
  }
}
