import Interface

extension CocoaNibCompiler {
  // MARK: Control options without an Apple sample

  /// The event modifier flags of a `<modifierMask>` (NSEventModifierFlags: shift 1 << 17 …
  /// function 1 << 23), as menu items archive them in NSKeyEquivModMask.
  static let modifierFlags = [("shift", 0x2_0000), ("control", 0x4_0000), ("option", 0x8_0000), ("command", 0x10_0000), ("function", 0x80_0000)]

  /// A button cell's `<modifierMask key="keyEquivalentModifierMask">` → its flags shifted 8
  /// bits up into NSButtonFlags2, where AppKit's decoder reads the key equivalent's modifiers
  /// (GNUstep's NSButtonCell: `(NSButtonFlags2 >> 8) & NSDeviceIndependentModifierFlagsMask`):
  /// command is 0x10000000. No pair has a button with a key equivalent and modifiers, so it
  /// is reported as unverified.
  mutating func buttonKeyEquivalentModifiers(_ mask: InterfaceDocument.Element) -> Int {
    var flags = 0
    for (name, bit) in Self.modifierFlags where mask.flag(name) { flags |= bit }
    noteUnverified(mask, "a button cell's key equivalent modifiers as NSButtonFlags2 bits 0x\(String(flags << 8, radix: 16)) (AppKit's decoder reads them shifted 8 bits up)")
    return flags << 8
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
