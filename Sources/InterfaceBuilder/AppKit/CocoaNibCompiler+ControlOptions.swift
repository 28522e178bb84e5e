import Interface

extension CocoaNibCompiler {
  // MARK: Control options without an Apple sample

  /// The event modifier flags of a `<modifierMask>` (NSEventModifierFlags: shift 1 << 17 …
  /// function 1 << 23), as menu items archive them in NSKeyEquivModMask.
  static let modifierFlags = [("shift", 0x2_0000), ("control", 0x4_0000), ("option", 0x8_0000), ("command", 0x10_0000), ("function", 0x80_0000)]

  /// The NSEventModifierFlags of a `<modifierMask>`; an attribute other than the five modifiers
  /// is refused with its line, not dropped.
  func modifierMaskFlags(_ mask: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let known = Set(Self.modifierFlags.map(\.0)).union(["key"])
    if let other = mask.attributes.first(where: { !known.contains($0.name) }) {
      throw unsupported(mask, "a <modifierMask> attribute \(other.name)=\"\(other.value)\" is not known", attribute: other.name)
    }
    var flags = 0
    for (name, bit) in Self.modifierFlags where mask.flag(name) { flags |= bit }
    return flags
  }

  /// A button cell's key equivalent modifiers, shifted 8 bits up into NSButtonFlags2, where
  /// AppKit's decoder reads them (GNUstep's NSButtonCell: `(NSButtonFlags2 >> 8) &
  /// NSDeviceIndependentModifierFlagsMask`): command is 0x10000000. A `<modifierMask
  /// key="keyEquivalentModifierMask">` gives them; without one, a non-empty key equivalent has
  /// Interface Builder's default mask, Command alone — the convention of menu items, whose
  /// documents leave out a Command-only mask (the corpus's menus) — and an empty one none
  /// (blocklist_big's Cancel button: 0x81). No corpus pair has a button with a key equivalent:
  /// the Python clone writes 0x10000000 for one (its test28_key_equiv_return, a Return key), and
  /// explicit modifiers are reported as unverified.
  mutating func buttonKeyEquivalentModifiers(_ mask: InterfaceDocument.Element?, keyEquivalent: String) throws(InterfaceBuilderError) -> Int {
    guard let mask else { return keyEquivalent.isEmpty ? 0 : 0x10_0000 << 8 }
    let flags = try modifierMaskFlags(mask)
    if flags != 0 {
      noteUnverified(mask, "a button cell's key equivalent modifiers as NSButtonFlags2 bits 0x\(String(flags << 8, radix: 16)) (AppKit's decoder reads them shifted 8 bits up)")
    }
    return flags << 8
  }

  /// A button cell's `imageScaling` → NSButtonFlags2 bits 6–7: proportionallyDown 0x80,
  /// proportionallyUpOrDown 0x40 (every button and popup cell of the corpus pairs: 87 and 3);
  /// absent, 0. `axesIndependently` and `none` have no corpus or public sample and are refused.
  func buttonImageScaling(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    switch element["imageScaling"] {
    case nil: return 0
    case "proportionallyDown": return 0x80
    case "proportionallyUpOrDown": return 0x40
    case let other?: throw unsupported(element, "a button imageScaling \"\(other)\" is not compiled yet (no Apple sample shows its NSButtonFlags2 bits)", attribute: "imageScaling")
    }
  }

  /// `<color key="contentTintColor">` on a button → NSContentTintColor on its button CELL,
  /// after the cell's own keys: where Apple's ibtool archives it, as a public ibtool
  /// re-implementation read it off Apple's compiles of NetNewsWire's TimelineContainerView.xib
  /// (a System color) and AccountsFeedbin.xib (an asset catalog color). No corpus pair has one,
  /// so it is reported by ``noteUnverified(_:_:)``.
  mutating func contentTintColorEntry(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> NibGraph.Entry {
    let color = try self.color(element)
    noteUnverified(element, "<color key=\"contentTintColor\"> as the button cell's NSContentTintColor")
    return .init("NSContentTintColor", .object(color))
  }
}
