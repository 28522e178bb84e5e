import Interface

/// AppKit's standard toolbar items that show a panel or print (`NSToolbarShowColorsItem`,
/// `NSToolbarShowFontsItem`, `NSToolbarPrintItem`), which no Apple-compiled nib in the corpus
/// shows (the space items, which it does, are in ``CocoaNibCompiler/compileToolbarItem(_:toolbar:)``).
extension CocoaNibCompiler {
  /// The image of a standard item: an SF Symbol AppKit archives as a template `NSImage`
  /// (name, size, alignment rectangle), or an image resource of AppKit's by name.
  enum SystemToolbarImage {
    case symbol(name: String, size: String, alignmentRect: String)
    case resource(String)
  }

  /// What AppKit gives each standard item: label (also the palette label), tool tip, action
  /// sent to the first responder, its fixed size and its image — as the public Python clone
  /// (viraptor/ibtool `toolbar.py`, STANDARD_ITEMS) reads them off Apple's compiles (Colors: its
  /// sb_toolbar_colors_tv sample, 44 × 42 with AppKit's `NSToolbarShowColors` image; Fonts and
  /// Print: the SF Symbols `textformat` and `printer`). No corpus pair shows them.
  static let systemToolbarItems: [String: (label: String, toolTip: String, action: String, size: String, image: SystemToolbarImage)] = [
    "NSToolbarShowColorsItem": ("Colors", "Show Color Panel", "orderFrontColorPanel:", "{44, 42}", .resource("NSToolbarShowColors")),
    "NSToolbarShowFontsItem": (
      "Fonts", "Show Font Panel", "orderFrontFontPanel:", "{36, 24}",
      .symbol(name: "textformat", size: "{19, 12}", alignmentRect: "{{0, 0.083333333333333329}, {1, 0.75}}")
    ),
    "NSToolbarPrintItem": (
      "Print", "Print", "printDocument:", "{35, 24}", .symbol(name: "printer", size: "{19, 16}", alignmentRect: "{{0, 0.1875}, {1, 0.5625}}")
    ),
  ]

  /// `<toolbarItem implicitItemIdentifier="NSToolbarShowColorsItem">` (and Fonts, Print) →
  /// `NSToolbarItem` with the common toolbar item keys: its label and palette label, tool tip,
  /// bordered, its action with no target (the first responder), its size as minimum and
  /// maximum, tag −1, and its image (``systemToolbarImage(_:element:)``).
  mutating func compileSystemToolbarItem(
    _ element: InterfaceDocument.Element, identifier: String,
    _ system: (label: String, toolTip: String, action: String, size: String, image: SystemToolbarImage), toolbar: Int
  ) throws(InterfaceBuilderError) -> (Int, String) {
    try checkAttributes(element, known: ["implicitItemIdentifier"])
    if let child = element.children.first { throw unsupported(child) }
    let item = try begin(element, className: "NSToolbarItem", parent: toolbar)
    var entries = toolbarItemEntries(
      identifier: identifier, label: system.label, paletteLabel: system.label, toolTip: string(system.toolTip), view: .null,
      minSize: system.size, maxSize: system.size, tag: -1, image: .object(try systemToolbarImage(system.image, element: element)))
    Self.setEntry("NSToolbarItemBordered", .bool(true), in: &entries)
    Self.setEntry("NSToolbarItemAction", string(system.action), in: &entries)
    graph[item].entries = entries + [.init("NSToolbarIsUserRemovable", .bool(true)), .init("NSToolbarItemStyle", .int8(0))]
    noteUnverified(
      element,
      "the system toolbar item \(identifier) as NSToolbarItem {label \"\(system.label)\", action \(system.action), size \(system.size), AppKit's image}, from a re-implementation of Apple's nib compiler")
    return (item, identifier)
  }

  /// A standard item's image. A symbol → `NSImage` {NSImageFlags 0x20c00000, NSSize, NSReps
  /// [[6, the symbol's name, false]], NSColor (clear in Generic Gray, the nib's shared color
  /// space), NSAlignmentRectInNormalizedCoordinates, NSIsTemplate true, NSResizingMode 0,
  /// NSTintColor nil}; a resource → `NSCustomResource` {its name, NSImage, IBNamespaceID nil,
  /// IBDesignSize {32, 32}} (the clone's reading; AppKit's own image is not in the system namespace).
  mutating func systemToolbarImage(_ image: SystemToolbarImage, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    switch image {
    case .resource(let name):
      return try shared("toolbar resource:" + name) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
        compiler.customResource(name, namespace: nil, designSize: "{32, 32}")
      }
    case .symbol(let name, let size, let alignmentRect):
      let color = graph.add(
        "NSColor",
        [
          .init("NSColorSpace", .int8(3)), .init("NSWhite", .data(Array("0 0\u{0}".utf8))),
          .init("NSCustomColorSpace", .object(try colorSpace(gray: true, element: element))), .init("NSComponents", .data(Array("0 0".utf8))),
          .init("NSLinearExposure", .data(Array("1".utf8))),
        ])
      let representation = graph.collection("NSArray", [number(6), sharedString(name), boolNumber(false)])
      return graph.add(
        "NSImage",
        [
          .init("NSImageFlags", NibGraph.integer(0x20C0_0000)), .init("NSSize", string(size)),
          .init("NSReps", .object(graph.collection("NSArray", [representation]))), .init("NSColor", .object(color)),
          .init("NSAlignmentRectInNormalizedCoordinates", string(alignmentRect)), .init("NSIsTemplate", .bool(true)),
          .init("NSResizingMode", .int8(0)), .init("NSTintColor", .null),
        ])
    }
  }
}
