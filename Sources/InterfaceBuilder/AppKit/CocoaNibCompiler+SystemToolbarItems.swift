import Interface

/// AppKit's standard toolbar items that show a panel or print (`NSToolbarShowColorsItem`,
/// `NSToolbarShowFontsItem`, `NSToolbarPrintItem`), which no Apple-compiled nib in the corpus
/// shows (the space items, which it does, are in ``CocoaNibCompiler/compileToolbarItem(_:toolbar:)``).
extension CocoaNibCompiler {
  /// What AppKit gives each standard item: label (also the palette label), tool tip, action
  /// sent to the first responder, and its fixed size. Fonts and Print as a re-implementation of
  /// Apple's nib compiler writes them; Colors by analogy with Fonts.
  static let systemToolbarItems: [String: (label: String, toolTip: String, action: String, size: String)] = [
    "NSToolbarShowColorsItem": ("Colors", "Show Color Panel", "orderFrontColorPanel:", "{36, 24}"),
    "NSToolbarShowFontsItem": ("Fonts", "Show Font Panel", "orderFrontFontPanel:", "{36, 24}"),
    "NSToolbarPrintItem": ("Print", "Print", "printDocument:", "{35, 24}"),
  ]

  /// `<toolbarItem implicitItemIdentifier="NSToolbarShowColorsItem">` (and Fonts, Print) →
  /// `NSToolbarItem` with the common toolbar item keys: its label and palette label, tool tip,
  /// bordered, its action with no target (the first responder), its size as minimum and
  /// maximum, tag −1. The image is left nil: AppKit draws its standard items' images itself
  /// (the system symbol Apple's ibtool would archive is not known here).
  mutating func compileSystemToolbarItem(
    _ element: InterfaceDocument.Element, identifier: String, _ system: (label: String, toolTip: String, action: String, size: String), toolbar: Int
  ) throws(InterfaceBuilderError) -> (Int, String) {
    try checkAttributes(element, known: ["implicitItemIdentifier"])
    if let child = element.children.first { throw unsupported(child) }
    let item = try begin(element, className: "NSToolbarItem", parent: toolbar)
    var entries = toolbarItemEntries(
      identifier: identifier, label: system.label, paletteLabel: system.label, toolTip: string(system.toolTip), view: .null,
      minSize: system.size, maxSize: system.size, tag: -1)
    Self.setEntry("NSToolbarItemBordered", .bool(true), in: &entries)
    Self.setEntry("NSToolbarItemAction", string(system.action), in: &entries)
    graph[item].entries = entries + [.init("NSToolbarIsUserRemovable", .bool(true)), .init("NSToolbarItemStyle", .int8(0))]
    noteUnverified(
      element,
      "the system toolbar item \(identifier) as NSToolbarItem {label \"\(system.label)\", action \(system.action), size \(system.size), no image}, from a re-implementation of Apple's nib compiler")
    return (item, identifier)
  }
}
