import Interface

extension CocoaNibCompiler {
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
    // Meta fonts whose NSfFlags do not follow the role formula (metafonts_extra; one sample each):
    // the menu bar's (role 0x10 with 0x1000) and the user font (Helvetica 12, role 0x11).
    let exceptions: [String: (name: String, size: Double, flags: Int)] = [
      "menuBar": (".AppleSystemUIFont", 14, 0x1010), "user": ("Helvetica", 12, 0x111),
    ]
    let name: String
    let size: Double
    let flags: Int
    if let element {
      if element["metaFont"] == "titleBar", element["size"] == nil {
        // The title bar's font is the headline text style's (metafonts_extra; one sample).
        return try textStyleFont(name: ".AppleSystemUIFontBold", size: 13, flags: 0x313, style: "UICTFontTextStyleHeadline")
      }
      if let meta = element["metaFont"], let exception = exceptions[meta] {
        name = exception.name
        size = element.double("size") ?? exception.size
        flags = exception.flags
      } else if let meta = element["metaFont"] {
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

  /// A font of a text style, as AppKit archives it: `NSFont` {NSName, NSSize, NSfFlags,
  /// NSTextStyleDescriptor → `NSFontDescriptor` {NSFontDescriptorAttributes: size category 3,
  /// the UI usage (`UICTFontTextStyleHeadline`, …) and the size; options 0x80008404},
  /// NSHasWidth false} (a table header's subheadline font; metaFont="titleBar", headline).
  mutating func textStyleFont(name: String, size: Double, flags: Int, style: String) throws(InterfaceBuilderError) -> Int {
    try shared("font:style:\(name):\(size):\(flags):\(style)") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      let attributes = compiler.graph.collection(
        "NSDictionary",
        [
          compiler.sharedString("NSCTFontSizeCategoryAttribute"), compiler.number(3), compiler.sharedString("NSCTFontUIUsageAttribute"),
          compiler.sharedString(style), compiler.sharedString("NSFontSizeAttribute"), compiler.number(double: size),
        ])
      let descriptor = compiler.graph.add(
        "NSFontDescriptor", [.init("NSFontDescriptorAttributes", .object(attributes)), .init("NSFontDescriptorOptions", .int64(0x8000_8404))])
      return compiler.graph.add(
        "NSFont",
        [
          .init("NSName", compiler.string(name)), .init("NSSize", .float64(size)), .init("NSfFlags", NibGraph.integer(flags)),
          .init("NSTextStyleDescriptor", .object(descriptor)), .init("NSHasWidth", .bool(false)),
        ])
    }
  }
}
