import Interface

extension CocoaNibCompiler {
  /// A control (`<textField>`, `<button>`) and its cell.
  mutating func compileControl(
    _ element: InterfaceDocument.Element, className: String, parent: Int, superview: Int?
  ) throws(InterfaceBuilderError) -> Int {
    let control = try begin(element, className: className, parent: parent)
    guard let cellElement = element.children.first(where: { $0["key"] == "cell" }) else {
      throw invalid(element, "a control needs its cell (<… key=\"cell\">)")
    }
    // Apple lists the cell right after its control, before the control's subviews and constraints.
    let cell = try compileCell(cellElement, control: control, parent: control, controlElement: element)
    var entries = try viewEntries(element, view: control, superview: superview)
    // The hugging priorities a control has unless the document says otherwise.
    var defaults = (250, 750)
    if className == "NSButton" {
      // By bezel style: rounded push buttons hug vertically, help buttons and both disclosure
      // bezels both ways (test16_buttons: 750/750 in the xib, nothing in Apple's nib), square
      // bezels (check boxes, radio and bevel buttons; shadowless square ones, transmission_MainMenu:
      // 250/750 in the xib, {250, 750} in Apple's nib) neither.
      switch cellElement["bezelStyle"] {
      case "rounded", nil: defaults = (250, 750)
      case "helpButton", "disclosure", "roundedDisclosure": defaults = (750, 750)
      case "regularSquare", "shadowlessSquare": defaults = (250, 250)
      default: break
      }
    }
    if let hugging = priorities(element, prefix: "HuggingPriority", defaults: defaults, onlyWhenDifferent: true) {
      entries.append(.init("NSHuggingPriority", string(hugging)))
    }
    if let resistance = compressionString(element) { entries.append(.init("NSAntiCompressionPriority", string(resistance))) }
    entries += tailViewEntries(element)
    entries += try controlEntries(element, source: cellElement, cell: cell)
    if cellElement["controlSize"] == "large" { largeControlSize(cellElement, control: &entries, cell: cell) }
    var others = element
    switch className {
    case "NSButton":
      if let tint = element.child("color", key: "contentTintColor") {
        // On the cell, after its keys (see contentTintColorEntry).
        let entry = try contentTintColorEntry(tint)
        graph.append(entry.key, entry.value, to: cell)
        others.children.removeAll { $0.name == "color" && $0["key"] == "contentTintColor" }
      }
      entries.append(.init("IBNSShadowedSymbolConfiguration", .null))
    case "NSSecureTextField":
      // Its own keys as a re-implementation of Apple's compiler writes them (no Apple sample).
      entries.append(.init("NSTextFieldAlignmentRectInsetsVersion", .int8(2)))
      if let type = textContentType(element) { entries.append(type) }
      entries.append(.init("NSAllowsWritingTools", .bool(false)))
      entries.append(.init("NSTextFieldAllowsWritingToolsAffordance", .bool(false)))
      entries.append(.init("NS.resolvesNaturalAlignmentWithBaseWritingDirection", .bool(false)))
    case "NSTextField":
      if let width = element.double("preferredMaxLayoutWidth"), width != 0 { entries.append(.init("NSPreferredMaxLayoutWidth", .float64(width))) }
      entries.append(.init("NSTextFieldAlignmentRectInsetsVersion", .int8(2)))
      if let type = textContentType(element) { entries.append(type) }
      entries.append(.init("NSAllowsWritingTools", .bool(true)))
      entries.append(.init("NSTextFieldAllowsWritingToolsAffordance", .bool(false)))
      entries.append(.init("NS.resolvesNaturalAlignmentWithBaseWritingDirection", .bool(false)))
    default: break
    }
    graph[control].entries = entries
    try compileChildren(of: others, object: control, known: ["rect", "autoresizingMask", "subviews", "constraints", cellElement.name])
    return control
  }

  /// `controlSize="large"` on a text field's or button's cell: NSControlSize 0 (regular, for
  /// systems without the large size) followed by NSControlSize2 3 and NSControlSizeExtraLarge
  /// false, on the control and, after NSCellFlags2, on its cell — as a public ibtool
  /// re-implementation read them off Apple's compile of NetNewsWire's ActivityLogWindow.xib
  /// (its Copy Contents button). No corpus pair has a large control, so it is reported by
  /// ``noteUnverified(_:_:)``.
  mutating func largeControlSize(_ cellElement: InterfaceDocument.Element, control entries: inout [NibGraph.Entry], cell: Int) {
    let sizeKeys: [NibGraph.Entry] = [.init("NSControlSize2", .int8(3)), .init("NSControlSizeExtraLarge", .bool(false))]
    if let index = entries.firstIndex(where: { $0.key == "NSControlSize" }) {
      entries[index].value = .int8(0)
      entries.insert(contentsOf: sizeKeys, at: index + 1)
    }
    if let index = graph[cell].entries.firstIndex(where: { $0.key == "NSCellFlags2" }) {
      graph[cell].entries.insert(contentsOf: sizeKeys, at: index + 1)
    }
    noteUnverified(cellElement, "controlSize=\"large\" as NSControlSize 0, NSControlSize2 3 and NSControlSizeExtraLarge false on the control and its cell")
  }

  /// NSControl's keys, in Apple's order, from NSTag to NSControlSendActionMask: the states come
  /// from the cell's attributes (`source`; the control's own for a control without a cell,
  /// which also aligns left and writes its writing direction as int8 0).
  func controlEntries(_ element: InterfaceDocument.Element, source: InterfaceDocument.Element, cell: Int?) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let tag = element["tag"] {
      guard let value = Int(tag) else { throw invalid(element, "tag \"\(tag)\" is not an integer") }
      entries.append(.init("NSTag", NibGraph.integer(value)))
    }
    entries.append(.init("NSEnabled", .bool(source.flag("enabled", default: true))))
    if let cell { entries.append(.init("NSCell", .object(cell))) }
    entries.append(.init("NSAllowsLogicalLayoutDirection", .bool(false)))
    if element.flag("allowsExpansionToolTips") { entries.append(.init("NSControlAllowsExpansionToolTips", .bool(true))) }
    let sizes = ["regular": 0, "small": 1, "mini": 2, "large": 3]
    entries.append(.init("NSControlSize", .int8(Int8(sizes[source["controlSize"] ?? "regular"] ?? 0))))
    entries.append(.init("NSControlContinuous", .bool(source.flag("continuous"))))
    entries.append(.init("NSControlRefusesFirstResponder", .bool(source.flag("refusesFirstResponder"))))
    entries.append(.init("NSControlUsesSingleLineMode", .bool(source.flag("usesSingleLineMode"))))
    let alignments = ["left": 0, "center": 1, "right": 2, "justified": 3]
    entries.append(.init("NSControlTextAlignment", .int8(Int8(source["alignment"].flatMap { alignments[$0] } ?? (cell != nil ? 4 : 0)))))
    entries.append(.init("NSControlLineBreakMode", .int8(Int8(Self.lineBreakModes[source["lineBreakMode"] ?? ""] ?? 0))))
    entries.append(.init("NSControlWritingDirection", cell != nil ? NibGraph.integer(try writingDirection(source)) : .int8(0)))
    entries.append(.init("NSControlSendActionMask", .int8(4)))
    return entries
  }

  /// A cell's `baseWritingDirection` as AppKit's `NSWritingDirection` (natural -1, leftToRight
  /// 0, rightToLeft 1), archived by the control as NSControlWritingDirection. Natural is what
  /// every corpus cell writes (an int64 -1); the other two rest on AppKit's enum and the Python
  /// clone's map (no corpus document sets one: the text field cell reports them as not checked).
  func writingDirection(_ cell: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let name = cell["baseWritingDirection"] else { return -1 }
    guard let direction = Self.writingDirections[name] else { throw invalid(cell, "baseWritingDirection \"\(name)\" is not known") }
    return direction
  }

  /// Interface Builder's `baseWritingDirection` values and AppKit's `NSWritingDirection`.
  static let writingDirections = ["natural": -1, "leftToRight": 0, "rightToLeft": 1]

  static let lineBreakModes = ["wordWrapping": 0, "charWrapping": 1, "clipping": 2, "truncatingHead": 3, "truncatingTail": 4, "truncatingMiddle": 5]

  /// "{h, v}" from `horizontal<prefix>`/`vertical<prefix>` (missing ones take the defaults),
  /// or `nil` when neither is given, or (`onlyWhenDifferent`) both equal the defaults.
  func priorities(_ element: InterfaceDocument.Element, prefix: String, defaults: (Int, Int), onlyWhenDifferent: Bool) -> String? {
    let horizontal = element.double("horizontal" + prefix)
    let vertical = element.double("vertical" + prefix)
    guard horizontal != nil || vertical != nil else { return nil }
    let missing: Double = onlyWhenDifferent ? 250 : 750
    let h = horizontal ?? missing, v = vertical ?? missing
    if onlyWhenDifferent && h == Double(defaults.0) && v == Double(defaults.1) { return nil }
    return "{\(Self.geometryNumber(h)), \(Self.geometryNumber(v))}"
  }

  // MARK: Cells

  /// A control's cell: `<textFieldCell>`, `<buttonCell>`.
  mutating func compileCell(
    _ element: InterfaceDocument.Element, control: Int, parent: Int, controlElement: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> Int {
    switch element.name {
    case "textFieldCell": return try compileTextFieldCell(element, control: control, parent: parent, controlElement: controlElement)
    case "secureTextFieldCell": return try compileSecureTextFieldCell(element, control: control, parent: parent, controlElement: controlElement)
    case "buttonCell": return try compileButtonCell(element, control: control, parent: parent, controlElement: controlElement)
    default: return try compileOtherCell(element, control: control, parent: parent, controlElement: controlElement)
    }
  }

  /// NSCellFlags and NSCellFlags2, from the cell's attributes (bit values as Apple's compiled
  /// nibs hold them, checked on the corpus pairs).
  func cellFlags(_ element: InterfaceDocument.Element, className: String) -> (Int, Int) {
    var flags = 0
    if ["NSTextFieldCell", "NSButtonCell", "NSSearchFieldCell", "NSPopUpButtonCell", "NSTableHeaderCell", "NSSegmentedCell",
      "NSDatePickerCell", "NSSecureTextFieldCell"].contains(className)
    { flags |= 0x0400_0000 }
    if element["state"] == "on" { flags |= 0x8000_0000 }
    if !element.flag("enabled", default: true) { flags |= 0x2000_0000 }
    if element.flag("editable") { flags |= 0x1000_0000 }
    if element["borderStyle"] == "bezel" { flags |= 0x0040_0000 }
    if className == "NSTableHeaderCell" || className == "NSSegmentedCell" { flags |= 0x0080_0000 }
    if element.flag("selectable") { flags |= 0x0020_0001 }
    if element.flag("scrollable") { flags |= 0x0010_0000 }
    if ["clipping", "truncatingHead", "truncatingTail", "truncatingMiddle"].contains(element["lineBreakMode"] ?? "") { flags |= 0x40 }

    var flags2 = 0
    flags2 |= Self.bits(element["alignment"] ?? "natural", ["natural": 0x1000_0000, "center": 0x0800_0000, "right": 0x0400_0000, "justified": 0x0C00_0000])
    // allowsEditingTextAttributes → 0x40000000 (HSChooserWindow's three cells: Apple 0x50400800
    // where the other bits give 0x10400800; the clone names the bit RICH_TEXT).
    if element.flag("allowsEditingTextAttributes") { flags2 |= 0x4000_0000 }
    if element.flag("refusesFirstResponder") { flags2 |= 0x0200_0000 }
    if element.flag("allowsMixedState") { flags2 |= 0x0100_0000 }
    if element.flag("sendsActionOnEndEditing") { flags2 |= 0x0040_0000 }
    flags2 |= Self.bits(element["controlSize"], ["small": 0x2_0000, "mini": 0x4_0000])
    flags2 |= Self.bits(element["focusRingType"], ["none": 0x8000, "exterior": 0x1_0000])
    if element["allowsUndo"] == "NO" { flags2 |= 0x1000 }
    flags2 |= Self.bits(
      element["lineBreakMode"], ["charWrapping": 0x200, "clipping": 0x400, "truncatingHead": 0x600, "truncatingTail": 0x800, "truncatingMiddle": 0xA00])
    if element.flag("truncatesLastVisibleLine") { flags2 |= 0x100 }
    if element.flag("usesSingleLineMode") { flags2 |= 0x40 }
    // A date formatter of styles sets the top bit in a control's cell, not in a table column's
    // data cell (test_date_formatter); one with a fixed dateFormat does not (the public Python
    // clone's reading of Apple's compile of dateformatter_weekday, one sample).
    if let formatter = element.child("dateFormatter", key: "formatter"), formatter["dateFormat"] == nil, element["key"] != "dataCell" { flags2 |= 0x8000_0000 }
    return (Self.signExtended(flags), Self.signExtended(flags2))
  }

  /// The bits an attribute's value stands for in a flag word (0 when absent or not listed).
  static func bits(_ value: String?, _ table: [String: Int]) -> Int { value.flatMap { table[$0] } ?? 0 }

  /// A 32-bit flag word as Apple stores it: with bit 31 set it is negative (and so 64-bit wide).
  static func signExtended(_ word: Int) -> Int { Int(Int32(truncatingIfNeeded: word)) }

  /// The attributes of a `<textFieldCell>` (and a secure one) the compiler writes: the flags
  /// (``cellFlags(_:className:)``), the contents, placeholder, background and bezel.
  static let textFieldCellAttributes: Set<String> = [
    "title", "alignment", "lineBreakMode", "selectable", "editable", "scrollable", "sendsActionOnEndEditing", "allowsUndo", "controlSize",
    "drawsBackground", "borderStyle", "state", "usesSingleLineMode", "allowsEditingTextAttributes", "placeholderString",
    "truncatesLastVisibleLine", "refusesFirstResponder", "enabled", "focusRingType", "allowsMixedState", "bezelStyle",
    "baseWritingDirection",
  ]

  /// `<textFieldCell>` → `NSTextFieldCell`.
  mutating func compileTextFieldCell(
    _ element: InterfaceDocument.Element, control: Int, parent: Int, controlElement: InterfaceDocument.Element, className: String = "NSTextFieldCell"
  ) throws(InterfaceBuilderError) -> Int {
    // Every attribute is compiled or refused with its line, never dropped silently.
    try checkAttributes(element, known: Self.textFieldCellAttributes)
    try checkCellAttributeValues(element)
    if try writingDirection(element) != -1 {
      noteUnverified(element, "baseWritingDirection=\"\(element["baseWritingDirection"] ?? "")\" as the control's NSControlWritingDirection")
    }
    let cell = try begin(element, className: className, parent: parent)
    var (flags, flags2) = cellFlags(element, className: className)
    switch element["borderStyle"] {
    case nil, "bezel": break
    case "border":
      // NSCellFlags' bordered bit, next to the bezeled one (0x00400000) the corpus shows: the
      // Python clone's CellFlags.BORDERED; no corpus text field has a plain border (unverified).
      flags = Self.signExtended(flags | 0x0080_0000)
      noteUnverified(element, "borderStyle=\"border\" as NSCellFlags 0x00800000")
    case let other?: throw invalid(element, "borderStyle \"\(other)\" is not border or bezel")
    }
    var entries: [NibGraph.Entry] = [.init("NSCellFlags", NibGraph.integer(flags)), .init("NSCellFlags2", NibGraph.integer(flags2))]
    if let contents = try cellContents(element) { entries.append(.init("NSContents", contents)) }
    entries.append(.init("NSSupport", .object(try font(element.child("font", key: "font"), defaultSize: 13))))
    if let formatter = element.children.first(where: { $0["key"] == "formatter" }) {
      entries.append(.init("NSFormatter", .object(try compileFormatter(formatter, parent: cell))))
    }
    if let placeholder = element["placeholderString"] { entries.append(.init("NSPlaceholderString", string(placeholder))) }
    entries.append(.init("NSControlView", .object(control)))
    // A rounded text field (bezelStyle="round") → NSTextBezelStyle 1 right after NSControlView,
    // where Apple's search field cells have it (searchfield_no_completion); the square bezel is
    // the class default and writes nothing. No corpus pair has a rounded text field: unverified
    // (the Python clone writes the same key and value for secure text field cells).
    switch element["bezelStyle"] {
    case nil, "square": break
    case "round":
      entries.append(.init("NSTextBezelStyle", .int8(1)))
      noteUnverified(element, "bezelStyle=\"round\" as NSTextBezelStyle 1 after NSControlView")
    case let other?: throw invalid(element, "bezelStyle \"\(other)\" is not square or round")
    }
    if element.flag("drawsBackground") { entries.append(.init("NSDrawsBackground", .bool(true))) }
    if let background = element.child("color", key: "backgroundColor") { entries.append(.init("NSBackgroundColor", .object(try color(background)))) }
    if var text = element.child("color", key: "textColor") {
      // Older documents (toolsVersion ≤ 14268) that pair an editable cell's System textColor with
      // textBackgroundColor are archived with controlTextColor: one sample (textfield_textcolor,
      // 11762) and the Python clone's same rule; the corpus's two non-editable cells of that age
      // and an editable one saved later keep textColor.
      if (Int(document.toolsVersion) ?? 0) <= 14268, element.flag("editable"), text["name"] == "textColor", text["catalog"] == "System",
        element.child("color", key: "backgroundColor")?["name"] == "textBackgroundColor",
        let position = text.attributes.firstIndex(where: { $0.name == "name" })
      {
        text.attributes[position].value = "controlTextColor"
      }
      entries.append(.init("NSTextColor", .object(try color(text))))
    }
    let tools = Int(document.toolsVersion) ?? 0
    // Not for a table's data cell (test_table_no_header, toolsVersion 11762).
    let inTable = controlElement.name == "tableView" || controlElement.name == "outlineView"
    if ((11759...12107).contains(tools) && !inTable) || controlElement.flag("allowsCharacterPickerTouchBarItem") {
      entries.append(.init("NSCharacterPickerEnabled", .bool(true)))
    }
    // A secure cell's allowed input locales come first (compileSecureTextFieldCell).
    if className == "NSTextFieldCell", let completion = textCompletionEntry(controlElement) { entries.append(completion) }
    graph[cell].entries = entries
    try compileChildren(
      of: element, object: cell,
      known: Set(["font", "color", "numberFormatter", "dateFormatter", "customFormatter"]).union(className == "NSSecureTextFieldCell" ? ["allowedInputSourceLocales"] : []))
    return cell
  }

  /// `<textField textCompletion="NO">` (or a secure one) → its cell's last key,
  /// NSAutomaticTextCompletionDisabled true, as a public ibtool re-implementation read it off
  /// Apple's compile of NetNewsWire's AccountsAddCloudKit.xib (no corpus pair has one, so it is
  /// reported by ``noteUnverified(_:_:)``).
  mutating func textCompletionEntry(_ field: InterfaceDocument.Element) -> NibGraph.Entry? {
    guard ["textField", "secureTextField"].contains(field.name), field["textCompletion"] == "NO" else { return nil }
    noteUnverified(field, "textCompletion=\"NO\" as the cell's NSAutomaticTextCompletionDisabled true")
    return .init("NSAutomaticTextCompletionDisabled", .bool(true))
  }

  /// `<textField contentType="…">` → NSTextContentType, the content type's name, after
  /// NSTextFieldAlignmentRectInsetsVersion: where a public ibtool re-implementation writes it
  /// for NetNewsWire's About window (contentType="url"), which it compiled against Apple's nib;
  /// no corpus pair has one, so it is reported by ``noteUnverified(_:_:)``.
  mutating func textContentType(_ field: InterfaceDocument.Element) -> NibGraph.Entry? {
    guard let type = field["contentType"] else { return nil }
    noteUnverified(field, "contentType=\"\(type)\" as NSTextContentType \"\(type)\"")
    return .init("NSTextContentType", string(type))
  }

  /// A button cell's font (`NSSupport`). An inline-bezel button's small bold system font is
  /// the one AppKit gives that bezel, the emphasized subheadline text style
  /// (`.AppleSystemUIFontDemi` 11, `UICTFontTextStyleEmphasizedSubhead`), not
  /// `.AppleSystemUIFontBold`: test16_buttons, the one sample; text fields with the same meta
  /// font keep Bold (transmission_MainMenu), as do other bezels' bold fonts (test16_buttons'
  /// recessed button, systemBold 12).
  mutating func buttonFont(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let fontElement = element.child("font", key: "font")
    if element["bezelStyle"] == "inline", let fontElement, fontElement["metaFont"] == "smallSystemBold", fontElement["size"] == nil {
      return try textStyleFont(name: ".AppleSystemUIFontDemi", size: 11, flags: 0x10, style: "UICTFontTextStyleEmphasizedSubhead")
    }
    return try font(fontElement, defaultSize: 13)
  }

  /// `<buttonCell>` → `NSButtonCell`.
  mutating func compileButtonCell(
    _ element: InterfaceDocument.Element, control: Int, parent: Int, controlElement: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: Self.buttonCellAttributes)
    try checkCellAttributeValues(element)
    // NSCellFlags holds on (0x80000000) and off; where AppKit keeps the mixed state is not known.
    if let state = element["state"], state != "on" && state != "off" {
      throw unsupported(element, "a button cell state \"\(state)\" is not compiled yet (NSCellFlags has on and off only)", attribute: "state")
    }
    let cell = try begin(element, className: "NSButtonCell", parent: parent)
    let (flags, flags2) = cellFlags(element, className: "NSButtonCell")
    var entries: [NibGraph.Entry] = [.init("NSCellFlags", NibGraph.integer(flags)), .init("NSCellFlags2", NibGraph.integer(flags2))]
    let type = element["type"] ?? "push"
    entries.append(.init("NSContents", string(element["title"] ?? "")))
    entries.append(.init("NSSupport", .object(try buttonFont(element))))
    entries.append(.init("NSControlView", .object(control)))
    // The inset is a two-bit field (0x6000): values past 3 are held at 3, as the Python clone
    // clamps them (helpers.py); every corpus cell has 2.
    var buttonFlags = 0
    if let inset = element["inset"] {
      guard let value = Int(inset) else { throw invalid(element, "inset \"\(inset)\" is not an integer") }
      buttonFlags |= min(max(value, 0), 3) << 13
    }
    if type == "radio" || type == "check" { buttonFlags |= 0x100 }
    switch element["borderStyle"] {
    case nil: break
    case "border": buttonFlags |= 0x0080_0000
    case "bezel": buttonFlags |= 0x0030_0000
    case "borderAndBezel": buttonFlags |= 0x00B0_0000
    case let other?: throw unsupported(element, "a button borderStyle \"\(other)\" is not known", attribute: "borderStyle")
    }
    buttonFlags |= try imagePositionFlags(element)
    if controlElement.flag("imageHugsTitle") { buttonFlags |= 0x20 }
    if let behavior = element.child("behavior", key: "behavior") {
      for (name, bit) in [("pushIn", 0x8000_0000), ("changeContents", 0x4000_0000), ("changeBackground", 0x2000_0000), ("changeGray", 0x1000_0000),
        ("lightByContents", 0x0800_0000), ("lightByBackground", 0x0400_0000), ("lightByGray", 0x0200_0000), ("doesNotDimImage", 0x1000)]
      where behavior.flag(name) { buttonFlags |= bit }
    }
    entries.append(.init("NSButtonFlags", NibGraph.integer(Self.signExtended(buttonFlags))))
    let bezel = try bezelStyle(element)
    var buttonFlags2 = try buttonFlags2Style(element, bezel: bezel)
    buttonFlags2 |= try buttonImageScaling(element)
    // The key equivalent is an attribute, or a <string key="keyEquivalent"> child (blocklist_big).
    var keyEquivalent = element["keyEquivalent"]
    if keyEquivalent == nil, let child = element.child("string", key: "keyEquivalent") { keyEquivalent = try stringContent(child) }
    buttonFlags2 |= try buttonKeyEquivalentModifiers(element.child("modifierMask", key: "keyEquivalentModifierMask"), keyEquivalent: keyEquivalent ?? "")
    entries.append(.init("NSButtonFlags2", NibGraph.integer(Self.signExtended(buttonFlags2))))
    if bezel != 0 { entries.append(.init("NSBezelStyle", .int8(Int8(bezel)))) }
    if type == "check" || type == "radio" {
      // AppKit draws check boxes and radio buttons from a named image source.
      let name = type == "check" ? "NSSwitch" : "NSRadioButton"
      let source = try shared("buttonImageSource:" + name) { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
        compiler.graph.add("NSButtonImageSource", [.init("NSImageName", compiler.string(name))])
      }
      entries.append(.init("NSAlternateImage", .object(source)))
    }
    if let image = element["image"] {
      entries.append(.init("NSNormalImage", .object(try namedImage(image, catalog: element["catalog"], element: element))))
    }
    entries.append(.init("NSAlternateContents", string(element["alternateTitle"] ?? "")))
    entries.append(.init("NSKeyEquivalent", string(keyEquivalent ?? "")))
    entries.append(.init("NSPeriodicDelay", .int16(400)))
    entries.append(.init("NSPeriodicInterval", .int8(75)))
    let aux = try buttonType(element)
    entries.append(.init("NSAuxButtonType", .int8(Int8(aux))))
    graph[cell].entries = entries
    var others = element
    others.children.removeAll { $0.name == "string" && $0["key"] == "keyEquivalent" }
    try compileChildren(of: others, object: cell, known: ["font", "behavior", "modifierMask"])
    return cell
  }
}
