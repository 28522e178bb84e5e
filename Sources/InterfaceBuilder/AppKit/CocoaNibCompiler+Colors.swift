import Interface

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

  /// `<color>` → a shared `NSColor`: calibrated or device white or RGB, a `System` catalog
  /// color, a color in a named (custom) color space, or a color from the app's asset catalog.
  mutating func color(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let alpha = element.double("alpha") ?? 1
    switch element["colorSpace"] {
    case "calibratedWhite", "deviceWhite":
      // NSColorSpace 3 calibrated, 4 device (HSChooserWindow's grid color: "0.8 0").
      guard let white = element.double("white") else { throw invalid(element, "a white color needs white") }
      let space: Int8 = element["colorSpace"] == "deviceWhite" ? 4 : 3
      let text = Self.colorNumber(white) + (alpha != 1 ? " " + Self.colorNumber(alpha) : "")
      return try shared((space == 3 ? "white:" : "white4:") + text) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
        compiler.graph.add("NSColor", [.init("NSColorSpace", .int8(space)), .init("NSWhite", .data(Array(text.utf8) + [0]))])
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
    case "custom":
      return try customSpaceColor(element)
    case nil where element["name"] != nil:
      return try assetCatalogColor(element["name"]!, element: element)
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
    // No corpus pair has these three. A public ibtool re-implementation's readings of Apple's
    // compiles of NetNewsWire's xibs: separatorColor's resolved color is the gridColor catalog
    // color itself (CurrentActivityWindow), _sourceListBackgroundColor's the
    // controlBackgroundColor catalog color (SidebarView), systemRedColor's the sRGB red above
    // (AccountsFeedbin). Reported by catalogColor(_:catalog:element:) as unverified.
    "separatorColor": .catalog("gridColor"),
    "_sourceListBackgroundColor": .catalog("controlBackgroundColor"),
  ]

  static let netNewsWireReading = "read off Apple's compile of a NetNewsWire nib by a public re-implementation"

  /// The System catalog colors whose resolved value is not read off an Apple-compiled nib of
  /// the corpus, each with where the value comes from.
  static let unverifiedSystemColors: [String: String] = [
    "separatorColor": netNewsWireReading, "_sourceListBackgroundColor": netNewsWireReading, "systemRedColor": netNewsWireReading,
    "disabledControlTextColor": "no Apple-compiled nib shows it; secondaryLabelColor's value",
    "controlAccentColor": "no Apple-compiled nib shows it; systemBlueColor's value",
  ]

  /// A `System` catalog color: {NSColorSpace 6, NSCatalogName, NSColorName, NSColor → the
  /// resolved color in its ICC color space}.
  mutating func catalogColor(_ name: String, catalog: String, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard catalog == "System", let resolved = Self.systemColors[name] else {
      throw unsupported(element, "the catalog color \(catalog)/\(name) is not compiled yet (its resolved value is not known here)")
    }
    return try shared("catalog:\(catalog):\(name)") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      if let source = Self.unverifiedSystemColors[name] {
        let value: String
        switch resolved {
        case .catalog(let other): value = "the catalog color System/\(other)"
        case .gray(let white, _): value = "white \"\(white)\""
        case .rgb(let rgb, _): value = "sRGB \"\(rgb)\""
        }
        compiler.noteUnverified(element, "the catalog color System/\(name) resolved as \(value) (\(source))")
      }
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

  /// The catalog name AppKit archives for a color from the app's own asset catalog
  /// (`NSColor(named:)`): the main bundle stands in for the bundle that loads the nib.
  static let mainBundleAssetCatalog = "#$assets-mainBundleID"

  /// `<color name="AccentColor"/>` — a color from the app's asset catalog, defined for
  /// Interface Builder by `<namedColor name="AccentColor"><color …/></namedColor>` in
  /// `<resources>` → {NSColorSpace 6, `NSCatalogName` "#$assets-mainBundleID", `NSColorName`,
  /// `NSColor` → the `<namedColor>`'s own color compiled as any other}. This shape was read off
  /// an Apple-compiled NetNewsWire nib by a public ibtool re-implementation (one source; no
  /// corpus nib has such a color), so each one is reported with ``noteUnverified(_:_:)``.
  mutating func assetCatalogColor(_ name: String, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    // Its definition is looked up and checked once, when the color is first made.
    return try shared("asset:\(name)") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      guard let definition = compiler.document.resource(["namedColor"], named: name) else {
        throw compiler.invalid(element, "the color \"\(name)\" is not defined by a <namedColor name=\"\(name)\"> in <resources>")
      }
      guard let value = definition.child("color") else {
        throw compiler.invalid(definition, "<namedColor name=\"\(name)\"> needs a <color>")
      }
      if value["colorSpace"] == nil, value["name"] != nil {
        throw compiler.invalid(value, "a <namedColor>'s color must give its components, not another name")
      }
      compiler.noteUnverified(element, "the asset catalog color \"\(name)\" archived as catalog \"\(Self.mainBundleAssetCatalog)\" with its <namedColor> value")
      let inner = try compiler.color(value)
      return compiler.graph.add(
        "NSColor",
        [
          .init("NSColorSpace", .int8(6)), .init("NSCatalogName", compiler.string(Self.mainBundleAssetCatalog)),
          .init("NSColorName", compiler.string(name)), .init("NSColor", .object(inner)),
        ])
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
    let profiles = options.colorProfiles
    guard profiles != nil || options.omitsColorProfiles else {
      throw InterfaceBuilderError(
        .unsupported, path: document.path, line: element.line,
        detail: "a catalog color embeds AppKit's ICC profile, and the profiles this module ships (ColorProfiles/ in its resources) were not found: give the compiler ColorProfiles (ibtool --color-profiles-from AppleCompiled.nib)")
    }
    return try shared(gray ? "space:gray" : "space:srgb") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      if profiles == nil {
        compiler.noteWarning(
          element,
          "catalog colors written in the \(gray ? "Generic Gray Gamma 2.2" : "sRGB") color space by NSID alone, without AppKit's ICC profile (NSICC): the shipped profiles (ColorProfiles/) were not found; --color-profiles-from AppleCompiled.nib writes Apple's bytes")
      }
      var entries: [NibGraph.Entry] = [.init("NSID", .int8(gray ? 9 : 7))]
      if gray { entries.append(.init("NSModel", .int8(0))) }
      if let profiles {
        let data = compiler.graph.data(gray ? profiles.genericGray : profiles.sRGB)
        entries.append(.init("NSICC", .object(data)))
      }
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
