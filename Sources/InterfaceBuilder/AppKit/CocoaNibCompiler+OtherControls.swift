import Interface

extension CocoaNibCompiler {
  /// Controls and containers beyond text fields and buttons.
  mutating func compileOtherControl(
    _ element: InterfaceDocument.Element, parent: Int, superview: Int?
  ) throws(InterfaceBuilderError) -> Int {
    switch element.name {
    case "popUpButton":
      return try compileGenericControl(element, className: "NSPopUpButton", parent: parent, superview: superview, hugging: (250, 750)) {
        $0.append(.init("IBNSShadowedSymbolConfiguration", .null))
      }
    case "imageView":
      return try compileImageView(element, parent: parent, superview: superview)
    case "secureTextField":
      return try compileSecureTextField(element, parent: parent, superview: superview)
    case "gridView":
      return try compileGridView(element, parent: parent, superview: superview)
    case "predicateEditor":
      return try compilePredicateEditor(element, parent: parent, superview: superview)
    case "slider":
      return try compileSlider(element, parent: parent, superview: superview)
    case "stepper":
      return try compileStepper(element, parent: parent, superview: superview)
    case "box":
      return try compileBox(element, parent: parent, superview: superview)
    case "colorWell":
      return try compileColorWell(element, parent: parent, superview: superview)
    case "segmentedControl":
      try checkAttributes(element, known: [], view: true)
      return try compileGenericControl(element, className: "NSSegmentedControl", parent: parent, superview: superview, hugging: (250, 750), alwaysSubviews: true)
    case "searchField":
      try checkAttributes(element, known: ["textCompletion"], view: true)
      return try compileGenericControl(element, className: "NSSearchField", parent: parent, superview: superview, hugging: (250, 750)) { entries in
        entries.append(.init("NSTextFieldAlignmentRectInsetsVersion", .int8(2)))
        entries.append(.init("NSAllowsWritingTools", .bool(false)))
        entries.append(.init("NSTextFieldAllowsWritingToolsAffordance", .bool(false)))
        entries.append(.init("NS.resolvesNaturalAlignmentWithBaseWritingDirection", .bool(false)))
      }
    case _ where Self.containerElements.contains(element.name):
      return try compileContainer(element, parent: parent, superview: superview)
    default:
      throw unsupported(element)
    }
  }

  /// Cells beyond `<textFieldCell>` and `<buttonCell>`.
  mutating func compileOtherCell(
    _ element: InterfaceDocument.Element, control: Int, parent: Int, controlElement: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> Int {
    switch element.name {
    case "popUpButtonCell": return try compilePopUpButtonCell(element, control: control, parent: parent, controlElement: controlElement)
    case "imageCell": return try compileImageCell(element, control: control, parent: parent)
    case "sliderCell": return try compileSliderCell(element, control: control, parent: parent)
    case "stepperCell": return try compileStepperCell(element, control: control, parent: parent)
    case "segmentedCell": return try compileSegmentedCell(element, control: control, parent: parent)
    case "searchFieldCell": return try compileSearchFieldCell(element, control: control, parent: parent, controlElement: controlElement)
    case "datePickerCell", "pathCell": return try compileContainerCell(element, control: control, parent: parent, controlElement: controlElement)
    default: throw unsupported(element)
    }
  }

  // MARK: Shared control machinery

  /// Attributes every view element may carry that the view keys (or nothing) account for.
  static let viewAttributes: Set<String> = [
    "id", "key", "translatesAutoresizingMaskIntoConstraints", "fixedFrame", "customClass", "customModule", "customModuleProvider",
    "horizontalHuggingPriority", "verticalHuggingPriority", "horizontalCompressionResistancePriority", "verticalCompressionResistancePriority",
    "hidden", "wantsLayer", "focusRingType", "autoresizesSubviews", "clipsToBounds", "tag", "userLabel", "misplaced", "ambiguous",
    "placeholderIntrinsicWidth", "placeholderIntrinsicHeight",
  ]

  /// Refuses an attribute of `element` that is neither in `known` nor in ``viewAttributes``
  /// (when `view`).
  func checkAttributes(_ element: InterfaceDocument.Element, known: Set<String>, view: Bool = false) throws(InterfaceBuilderError) {
    for attribute in element.attributes where !known.contains(attribute.name) && !(view && Self.viewAttributes.contains(attribute.name)) {
      if ["id", "key", "customClass", "customModule", "customModuleProvider", "userLabel"].contains(attribute.name) { continue }
      throw unsupported(element, "<\(element.name)> attribute \(attribute.name)=\"\(attribute.value)\" is not compiled yet (how Apple's ibtool compiles it is not known here)", attribute: attribute.name)
    }
  }

  /// The values Interface Builder writes for a cell's enumerated attributes (AppKit's
  /// NSTextAlignment, NSLineBreakMode, NSControlSize, NSFocusRingType).
  static let cellAttributeValues: [String: Set<String>] = [
    "alignment": ["natural", "left", "center", "right", "justified"],
    "lineBreakMode": ["wordWrapping", "charWrapping", "clipping", "truncatingHead", "truncatingTail", "truncatingMiddle"],
    "controlSize": ["regular", "small", "mini", "large"],
    "focusRingType": ["default", "none", "exterior"],
  ]

  /// Refuses a value of one of a cell's enumerated attributes (``cellAttributeValues``) that
  /// AppKit's enum does not have, naming the element, its line and the attribute — never written
  /// as the default.
  func checkCellAttributeValues(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) {
    for (name, values) in Self.cellAttributeValues {
      if let value = element[name], !values.contains(value) {
        throw unsupported(element, "<\(element.name)> \(name)=\"\(value)\" is not known", attribute: name)
      }
    }
  }

  /// NSHuggingPriority "{h, v}" (a missing attribute counts as 250) unless it equals the
  /// class's intrinsic default (checked on popup buttons, image views, sliders, steppers, boxes…).
  func huggingString(_ element: InterfaceDocument.Element, defaults: (Double, Double)) -> String? {
    let h = element.double("horizontalHuggingPriority") ?? 250, v = element.double("verticalHuggingPriority") ?? 250
    if h == defaults.0 && v == defaults.1 { return nil }
    return "{\(Self.geometryNumber(h)), \(Self.geometryNumber(v))}"
  }

  /// NSAntiCompressionPriority "{h, v}" whenever either compression-resistance attribute is
  /// given (the missing one counts as 750).
  func compressionString(_ element: InterfaceDocument.Element) -> String? {
    priorities(element, prefix: "CompressionResistancePriority", defaults: (750, 750), onlyWhenDifferent: false)
  }

  /// Sets `key` to `value` in `entries` (replacing it, or inserting it before the first key
  /// that follows it in `order`, else at the end).
  static func setEntry(_ key: String, _ value: NIBArchive.Payload, in entries: inout [NibGraph.Entry], order: [String] = []) {
    if let index = entries.firstIndex(where: { $0.key == key }) {
      entries[index].value = value
      return
    }
    if let position = order.firstIndex(of: key) {
      let later = Set(order[(position + 1)...])
      if let index = entries.firstIndex(where: { later.contains($0.key) }) {
        entries.insert(.init(key, value), at: index)
        return
      }
    }
    entries.append(.init(key, value))
  }

  /// The NSDragTypes set of an image view.
  mutating func dragTypes(_ types: [String]) -> Int {
    let strings = types.map { text -> Int in
      guard case .object(let index) = string(text) else { return 0 }
      return index
    }
    return graph.collection("NSMutableSet", strings)
  }

  static let imageDragTypes = [
    "Apple PDF pasteboard type", "Apple PICT pasteboard type", "Apple PNG pasteboard type", "NSFilenamesPboardType",
    "NeXT TIFF v4.0 pasteboard type", "com.apple.NSFilePromiseItemMetaData", "com.apple.pasteboard.promised-file-content-type",
    "dyn.ah62d4rv4gu8yc6durvwwa3xmrvw1gkdusm1044pxqyuha2pxsvw0e55bsmwca7d3sbwu",
  ]

  /// A control with (or, `cellKey == nil`, without) a cell: the view keys, hugging and
  /// compression priorities, the NSControl keys, then `tail` adds the class's own keys.
  /// The cell is compiled before the control's constraints (NSObjectsKeys order).
  mutating func compileGenericControl(
    _ element: InterfaceDocument.Element, className: String, parent: Int, superview: Int?, hugging: (Double, Double),
    alwaysSubviews: Bool = false, afterSubviews: [NibGraph.Entry] = [], hasCell: Bool = true, knownChildren: Set<String> = [],
    tail: (inout [NibGraph.Entry]) -> Void = { _ in }
  ) throws(InterfaceBuilderError) -> Int {
    let control = try begin(element, className: className, parent: parent)
    var cell: Int?
    var cellElement: InterfaceDocument.Element?
    if hasCell {
      guard let found = element.children.first(where: { $0["key"] == "cell" }) else {
        throw invalid(element, "a control needs its cell (<… key=\"cell\">)")
      }
      cellElement = found
      cell = try compileCell(found, control: control, parent: control, controlElement: element)
    }
    var entries = try viewEntries(element, view: control, superview: superview, extraAfterSubviews: afterSubviews, alwaysSubviews: alwaysSubviews)
    if let text = huggingString(element, defaults: hugging) { entries.append(.init("NSHuggingPriority", string(text))) }
    if let resistance = compressionString(element) { entries.append(.init("NSAntiCompressionPriority", string(resistance))) }
    if element.flag("clipsToBounds") { entries.append(.init("NSViewClipsToBoundsKeyName", .bool(true))) }
    entries += tailViewEntries(element)
    entries += try controlEntries(element, source: cellElement ?? element, cell: cell)
    tail(&entries)
    graph[control].entries = entries
    var known: Set<String> = knownChildren.union(["rect", "autoresizingMask", "subviews", "constraints"])
    if let cellElement { known.insert(cellElement.name) }
    try compileChildren(of: element, object: control, known: known)
    return control
  }

  /// NSCellFlags/NSCellFlags2 entries of a cell.
  func cellFlagEntries(_ element: InterfaceDocument.Element, className: String, extra: Int = 0) -> [NibGraph.Entry] {
    let (flags, flags2) = cellFlags(element, className: className)
    return [
      .init("NSCellFlags", NibGraph.integer(Self.signExtended(flags | extra))), .init("NSCellFlags2", NibGraph.integer(flags2)),
    ]
  }

  // MARK: Popup buttons

  static let menuItemOrder = [
    "NSMenu", "NSIsDisabled", "NSIsAlternate", "NSIsHidden", "NSIsSeparator", "NSAllowsKeyEquivalentLocalization",
    "NSAllowsKeyEquivalentMirroring", "NSHasActionImage", "NSTitle", "NSKeyEquiv", "NSKeyEquivModMask", "NSMnemonicLoc", "NSState",
    "NSActionImage", "NSImage", "NSOnImage", "NSMixedImage", "NSAction", "NSTag", "NSRepObject", "NSTarget", "NSSubmenu",
    "NSHiddenInRepresentation",
  ]

  /// `<popUpButtonCell>` → `NSPopUpButtonCell`: a button cell's keys, then its menu. Every
  /// item of the menu sends `_popUpItemAction:` to the cell; a pull-down hides its first item.
  mutating func compilePopUpButtonCell(
    _ element: InterfaceDocument.Element, control: Int, parent: Int, controlElement: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(
      element,
      known: ["type", "title", "bezelStyle", "imagePosition", "alignment", "controlSize", "lineBreakMode", "borderStyle", "inset", "pullsDown",
        "arrowPosition", "selectedItem", "state", "imageScaling", "preferredEdge", "tag"])
    // The cell's `tag` selects no item and is not archived (StatusBar: tag="-1", no NSTag).
    guard let menuElement = element.child("menu", key: "menu") else { throw invalid(element, "a popup button cell needs its <menu key=\"menu\">") }
    // Font: a popup cell of regular size archives its meta font with the menu role.
    var buttonElement = element
    buttonElement.children.removeAll { $0.name == "menu" }
    buttonElement.attributes.removeAll { $0.name == "tag" }
    if let index = buttonElement.children.firstIndex(where: { $0.name == "font" && $0["key"] == "font" }),
      let meta = buttonElement.children[index]["metaFont"], element["controlSize"] == nil
    {
      if meta == "smallSystemBold" {
        // Not a regular-size menu font: kept as it is, as a small popup cell keeps its small
        // system font (StatusBar). No pair has it.
        noteUnverified(buttonElement.children[index], "metaFont \"smallSystemBold\" in a popup button cell kept as its own meta font (.AppleSystemUIFontBold 11)")
      } else {
        guard ["system", "message", "menu"].contains(meta) else {
          throw unsupported(buttonElement.children[index], "metaFont \"\(meta)\" in a popup button cell is not compiled yet")
        }
        buttonElement.children[index].attributes.removeAll { $0.name == "metaFont" }
        buttonElement.children[index].attributes.append((name: "metaFont", value: "menu"))
      }
    }
    let cell = try compileButtonCell(buttonElement, control: control, parent: parent, controlElement: controlElement)
    graph[cell].className = "NSPopUpButtonCell"
    var entries = graph[cell].entries
    let arrow = element["arrowPosition"]
    let textured = element["bezelStyle"] == "texturedRounded"
    let borderAndBezel = element["borderStyle"] == "borderAndBezel"
    if borderAndBezel {
      let (flags, _) = cellFlags(element, className: "NSButtonCell")
      Self.setEntry("NSCellFlags", NibGraph.integer(Self.signExtended(flags | 0x40_0000)), in: &entries)
    }
    if arrow != "noArrow" && !textured {
      if let index = entries.firstIndex(where: { $0.key == "NSButtonFlags" }), case .some(let value) = Self.intValue(entries[index].value) {
        entries[index].value = NibGraph.integer(Self.signExtended(value & ~0x30_0000))
      }
    }
    let menu = try compileMenu(menuElement, parent: cell)
    let items = graph.members(of: graph[menu].entries.first { $0.key == "NSMenuItems" }.flatMap { if case .object(let i) = $0.value { i } else { nil } } ?? -1) ?? []
    let pullsDown = element.flag("pullsDown")
    for (position, item) in items.enumerated() {
      var itemEntries = graph[item].entries
      if itemEntries.contains(where: { $0.key == "NSSubmenu" }) { throw unsupported(menuElement, "a popup button item with a submenu is not compiled yet") }
      Self.setEntry("NSAction", string("_popUpItemAction:"), in: &itemEntries, order: Self.menuItemOrder)
      Self.setEntry("NSTarget", .object(cell), in: &itemEntries, order: Self.menuItemOrder)
      if pullsDown && position == 0 { Self.setEntry("NSIsHidden", .bool(true), in: &itemEntries, order: Self.menuItemOrder) }
      graph[item].entries = itemEntries
    }
    var selected: Int?
    if let id = element["selectedItem"] {
      guard let item = objectsByID[id], let index = items.firstIndex(of: item) else { throw invalid(element, "selectedItem \"\(id)\" is not an item of the menu") }
      selected = index
    }
    entries.append(.init("NSMenuItem", selected.map { .object(items[$0]) } ?? .null))
    entries.append(.init("NSMenuItemRespectAlignment", .bool(true)))
    entries.append(.init("NSMenu", .object(menu)))
    if let selected {
      if selected > 0 { entries.append(.init("NSSelectedIndex", NibGraph.integer(selected))) }
    } else {
      entries.append(.init("NSSelectedIndex", .int64(-1)))
    }
    if pullsDown { entries.append(.init("NSPullDown", .bool(true))) }
    let edges = ["minX": 0, "minY": 1, "maxX": 2, "maxY": 3]
    guard let edge = edges[element["preferredEdge"] ?? "minY"] else { throw unsupported(element, "preferredEdge \"\(element["preferredEdge"]!)\" is not known") }
    entries.append(.init("NSPreferredEdge", .int8(Int8(edge))))
    entries.append(.init("NSUsesItemFromMenu", .bool(true)))
    entries.append(.init("NSAltersState", .bool(true)))
    switch arrow {
    case nil, "arrowAtBottom": entries.append(.init("NSArrowPosition", .int8(2)))
    case "arrowAtCenter": entries.append(.init("NSArrowPosition", .int8(1)))
    case "noArrow": break
    case let other?: throw unsupported(element, "arrowPosition \"\(other)\" is not known")
    }
    graph[cell].entries = entries
    return cell
  }

  /// The integer in an integer payload.
  static func intValue(_ payload: NIBArchive.Payload) -> Int? {
    switch payload {
    case .int8(let v): return Int(v)
    case .int16(let v): return Int(v)
    case .int32(let v): return Int(v)
    case .int64(let v): return Int(v)
    default: return nil
    }
  }

  // MARK: Image views

  /// `<imageView>` → `NSImageView` (always an empty NSSubviews and the image drag types).
  mutating func compileImageView(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: [], view: true)
    let types = dragTypes(Self.imageDragTypes)
    return try compileGenericControl(
      element, className: "NSImageView", parent: parent, superview: superview, hugging: (250, 250), alwaysSubviews: true,
      afterSubviews: [.init("NSDragTypes", .object(types))]
    ) { entries in
      Self.setEntry("NSControlTextAlignment", .int8(0), in: &entries)
      entries.append(.init("NSEditable", .bool(true)))
      entries.append(.init("NSImageViewPlaceholderPrecedence", .int8(0)))
      entries.append(.init("IBNSShadowedSymbolConfiguration", .null))
    }
  }

  /// `<imageCell key="cell">` → `NSImageCell`.
  mutating func compileImageCell(_ element: InterfaceDocument.Element, control: Int, parent: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(
      element, known: ["refusesFirstResponder", "alignment", "animates", "imageScaling", "image", "catalog", "imageFrameStyle", "controlSize"])
    guard element["key"] == "cell" || element["key"] == "dataCell" else {
      throw unsupported(element, "an <imageCell> other than a control's cell or a column's data cell is not compiled here")
    }
    guard element["alignment"] == nil || element["alignment"] == "left" else {
      throw unsupported(element, "an image cell's alignment other than left is not compiled yet")
    }
    let cell = try begin(element, className: "NSImageCell", parent: parent)
    // A font makes the cell a text-capable one (0x04000000), as for sliders (imagecell_datacell_font).
    var entries = cellFlagEntries(element, className: "NSImageCell", extra: element.child("font", key: "font") != nil ? 0x0400_0000 : 0)
    if let image = element["image"] { entries.append(.init("NSContents", .object(try namedImage(image, catalog: element["catalog"], element: element)))) }
    if let font = element.child("font", key: "font") { entries.append(.init("NSSupport", .object(try self.font(font, defaultSize: 13)))) }
    entries.append(.init("NSControlView", .object(control)))
    entries.append(.init("NSAlign", .int8(0)))
    let scales = ["proportionallyDown": 0, "axesIndependently": 1, "none": 2, "proportionallyUpOrDown": 3]
    guard let scale = scales[element["imageScaling"] ?? "none"] else { throw invalid(element, "imageScaling \"\(element["imageScaling"]!)\" is not known") }
    entries.append(.init("NSScale", .int8(Int8(scale))))
    let styles = ["none": 0, "photo": 1, "grayBezel": 2, "groove": 3, "button": 4]
    guard let style = styles[element["imageFrameStyle"] ?? "none"] else { throw invalid(element, "imageFrameStyle \"\(element["imageFrameStyle"]!)\" is not known") }
    entries.append(.init("NSStyle", .int8(Int8(style))))
    // An image cell without `animates` does not animate in a xib, but does in a storyboard
    // (two storyboard samples, eight xib samples) and in a table's prototype cell view nib, even
    // in a xib, where its copy among the document's objects does not (HSChooserWindow's two and
    // transmission_MainMenu's nine prototype image cells).
    entries.append(.init("NSAnimates", .bool(element.flag("animates", default: document.kind == .storyboard || isPrototypeNib))))
    entries.append(.init("NSImageAnimation", .int64(-1)))
    graph[cell].entries = entries
    try compileChildren(of: element, object: cell, known: ["font"])
    return cell
  }

  // MARK: Sliders and steppers

  /// `<slider>` → `NSSlider` (an empty NSSubviews; a continuous slider acts on mouse down,
  /// drag and up: send-action mask 0x46).
  mutating func compileSlider(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: [], view: true)
    let continuous = element.child("sliderCell", key: "cell")?.flag("continuous") ?? false
    return try compileGenericControl(element, className: "NSSlider", parent: parent, superview: superview, hugging: (250, 750), alwaysSubviews: true) {
      entries in
      if continuous { Self.setEntry("NSControlSendActionMask", .int8(0x46), in: &entries) }
    }
  }

  /// `<sliderCell>` → `NSSliderCell`.
  mutating func compileSliderCell(_ element: InterfaceDocument.Element, control: Int, parent: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(
      element,
      known: ["continuous", "alignment", "maxValue", "minValue", "doubleValue", "tickMarkPosition", "sliderType", "numberOfTickMarks", "state",
        "identifier", "controlSize", "allowsTickMarkValuesOnly", "altIncrementValue", "enabled"])
    if let type = element["sliderType"], type != "linear" { throw unsupported(element, "sliderType \"\(type)\" is not compiled yet") }
    let cell = try begin(element, className: "NSSliderCell", parent: parent)
    let font = element.child("font", key: "font")
    var extra = 0
    if font != nil { extra |= 0x0400_0000 }  // a text cell
    if element.flag("continuous") { extra |= 0x4_0100 }  // acts on mouse down and drag
    var entries = cellFlagEntries(element, className: "NSSliderCell", extra: extra)
    if let font { entries.append(.init("NSSupport", .object(try self.font(font, defaultSize: 13)))) }
    if let identifier = element["identifier"] { entries.append(.init("NSCellIdentifier", string(identifier))) }
    entries.append(.init("NSControlView", .object(control)))
    // Without maxValue the slider has AppKit's default range, 0 to 1: NSMaxValue 1, as the
    // public Python clone writes it (viraptor/ibtool `sliderCell.py`); every corpus slider gives
    // maxValue, so it is reported unverified.
    if element["maxValue"] == nil { noteUnverified(element, "a slider cell without maxValue as NSMaxValue 1 (AppKit's default maximum)") }
    entries.append(.init("NSMaxValue", .float64(element.double("maxValue") ?? 1)))
    entries.append(.init("NSMinValue", .float64(element.double("minValue") ?? 0)))
    entries.append(.init("NSValue", .float64(element.double("doubleValue") ?? 0)))
    entries.append(.init("NSAltIncValue", .float64(element.double("altIncrementValue") ?? 0)))
    entries.append(.init("NSNumberOfTickMarks", NibGraph.integer(element.wholeNumber("numberOfTickMarks") ?? 0)))
    let positions = ["below": 0, "above": 1]
    guard let position = positions[element["tickMarkPosition"] ?? "below"] else {
      throw unsupported(element, "tickMarkPosition \"\(element["tickMarkPosition"]!)\" is not compiled yet")
    }
    entries.append(.init("NSTickMarkPosition", .int8(Int8(position))))
    entries.append(.init("NSAllowsTickMarkValuesOnly", .bool(element.flag("allowsTickMarkValuesOnly"))))
    entries.append(.init("NSVertical", .bool(false)))
    graph[cell].entries = entries
    try compileChildren(of: element, object: cell, known: ["font"])
    return cell
  }

  /// `<stepper>` → `NSStepper`; an autorepeating stepper (the default) is continuous and
  /// sends on mouse down and periodically (mask 0x10002).
  mutating func compileStepper(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: [], view: true)
    let cellElement = element.child("stepperCell", key: "cell")
    let autorepeat = cellElement?.flag("autorepeat", default: true) ?? true
    if let cellElement, !autorepeat, cellElement.flag("continuous") || cellElement.flag("valueWraps") {
      throw unsupported(cellElement, "a stepper cell with autorepeat=\"NO\" and continuous or valueWraps is not compiled yet")
    }
    return try compileGenericControl(element, className: "NSStepper", parent: parent, superview: superview, hugging: (750, 750)) { entries in
      if autorepeat {
        Self.setEntry("NSControlContinuous", .bool(true), in: &entries)
        Self.setEntry("NSControlSendActionMask", NibGraph.integer(0x1_0002), in: &entries)
      }
      entries.append(.init("NSStepperMinValue", .float64(0)))
      entries.append(.init("NSStepperMaxValue", .float64(0)))
      entries.append(.init("NSStepperIncrement", .float64(0)))
      entries.append(.init("NSStepperWraps", .bool(false)))
      entries.append(.init("NSStepperAutorepeat", .bool(false)))
    }
  }

  /// `<stepperCell>` → `NSStepperCell` {NSValue, NSMinValue (both only when non-zero),
  /// NSMaxValue, NSIncrement, NSValueWraps, NSAutorepeat}.
  mutating func compileStepperCell(_ element: InterfaceDocument.Element, control: Int, parent: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["alignment", "minValue", "maxValue", "doubleValue", "autorepeat", "continuous", "valueWraps", "increment"])
    if element["alignment"] != nil && element["alignment"] != "left" { throw unsupported(element, "a stepper cell alignment other than left is not compiled yet") }
    if element["valueWraps"] == "NO" { throw unsupported(element, "valueWraps=\"NO\" is not compiled yet") }
    let cell = try begin(element, className: "NSStepperCell", parent: parent)
    let autorepeat = element.flag("autorepeat", default: true)
    var entries: [NibGraph.Entry] = [
      .init("NSCellFlags", NibGraph.integer(autorepeat ? 0xC_0020 : 0)), .init("NSCellFlags2", .int8(0)),
      .init("NSControlView", .object(control)),
    ]
    if let value = element.double("doubleValue"), value != 0 { entries.append(.init("NSValue", .float64(value))) }
    if let value = element.double("minValue"), value != 0 { entries.append(.init("NSMinValue", .float64(value))) }
    guard let maxValue = element.double("maxValue") else { throw unsupported(element, "a stepper cell without maxValue is not compiled yet") }
    entries.append(.init("NSMaxValue", .float64(maxValue)))
    entries.append(.init("NSIncrement", .float64(element.double("increment") ?? 1)))
    if element.flag("valueWraps") { entries.append(.init("NSValueWraps", .bool(true))) }
    if autorepeat { entries.append(.init("NSAutorepeat", .bool(true))) }
    graph[cell].entries = entries
    try compileChildren(of: element, object: cell, known: [])
    return cell
  }

  // MARK: Color wells

  /// `<colorWell>` → `NSColorWell` (no cell; its color is its own object, not shared).
  mutating func compileColorWell(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["bordered", "enabled"], view: true)
    let types = dragTypes(["NSColor pasteboard type"])
    var color: Int?
    if let colorElement = element.child("color", key: "color") {
      let saved = sharedObjects
      color = try self.color(colorElement)
      if colorElement["colorSpace"] != "catalog" { sharedObjects = saved }
    }
    let well = try compileGenericControl(
      element, className: "NSColorWell", parent: parent, superview: superview, hugging: (250, 250), alwaysSubviews: true,
      afterSubviews: [.init("NSDragTypes", .object(types))], hasCell: false, knownChildren: ["color"]
    ) { entries in
      entries.append(.init("NSIsBordered", .bool(element.flag("bordered", default: true))))
      if let color { entries.append(.init("NSColor", .object(color))) }
    }
    return well
  }

  // MARK: Boxes

  /// `<box>` → `NSBox` {view keys, NSOffsets, NSTitleCell, NSContentView, NSBorderType,
  /// NSBoxType, NSTitlePosition, NSTransparent, IBNSBoxIsUsingDocumentContentView}.
  mutating func compileBox(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["title", "boxType", "titlePosition", "borderType"], view: true)
    let box = try begin(element, className: "NSBox", parent: parent)
    let boxTypes = ["primary": 0, "secondary": 1, "separator": 2, "oldStyle": 3, "custom": 4]
    guard let boxType = boxTypes[element["boxType"] ?? "primary"] else { throw unsupported(element, "boxType \"\(element["boxType"]!)\" is not known") }
    let separator = boxType == 2
    let oldStyle = boxType == 3
    if boxType == 1 || boxType == 4 { throw unsupported(element, "a \(element["boxType"]!) box is not compiled yet") }
    // A separator keeps the defaults whatever it says (test_box_separator: noTitle, title "Box").
    let style: BoxStyle? = oldStyle ? try oldStyleBox(element) : separator ? nil : try primaryBoxStyle(element)
    if separator, let border = element["borderType"] { throw unsupported(element, "borderType \"\(border)\" is not compiled yet", attribute: "borderType") }
    let titled = style?.titlePosition != 0
    let frame = try rect(element, key: "frame") ?? (0, 0, 0, 0)
    var subviews: [Int] = []
    var contentView: Int?
    if let content = element.child("view", key: "contentView") {
      guard !separator else { throw unsupported(content, "a separator box with a content view is not compiled yet") }
      // The content view fills the box below the title; its subviews follow by autoresizing.
      // An old-style box's keeps the frame the document gives it (inside its border).
      let resized = oldStyle ? content : content.resized(to: ViewRect(x: 0, y: 0, width: frame.width, height: frame.height - (titled ? 12 : 0)))
      let view = try compileView(resized, parent: box, superview: box)
      if let index = graph[view].entries.firstIndex(where: { $0.key == "NSvFlags" }) {
        graph[view].entries[index].value = NibGraph.integer((viewFlags(content) & ~0x3F) | 0x12)
      }
      subviews.append(view)
      contentView = view
    }
    if element.child("subviews") != nil { throw unsupported(element, "<box> with <subviews> is not compiled yet") }
    var entries = try viewEntries(element, view: box, superview: superview)
    let subviewsIndex = entries.firstIndex { $0.key == "NSvFlags" }! + 1
    entries.insert(.init("NSSubviews", .object(graph.collection("NSMutableArray", subviews))), at: subviewsIndex)
    if let text = huggingString(element, defaults: (250, 250)) { entries.append(.init("NSHuggingPriority", string(text))) }
    if let resistance = compressionString(element) { entries.append(.init("NSAntiCompressionPriority", string(resistance))) }
    entries += tailViewEntries(element)
    entries.append(.init("NSOffsets", string(separator ? "{5, 5}" : "{0, 0}")))
    // The title cell: centred, small system font, label color on text background.
    let titleCell = graph.add("NSTextFieldCell")
    let title = separator ? "Title" : element["title"] ?? (titled ? "Title" : "")
    graph[titleCell].entries = [
      .init("NSCellFlags", NibGraph.integer(0x0400_0000)), .init("NSCellFlags2", NibGraph.integer(0x0800_0000)),
      .init("NSContents", string(title)),
      .init("NSSupport", .object(try font(style?.titleFont ?? InterfaceDocument.Element(name: "font", attributes: [(name: "metaFont", value: "smallSystem")]), defaultSize: 11))),
      .init("NSControlView", .null),
      .init("NSBackgroundColor", .object(try catalogColor("textBackgroundColor", catalog: "System", element: element))),
      .init("NSTextColor", .object(try catalogColor("labelColor", catalog: "System", element: element))),
    ]
    entries.append(.init("NSTitleCell", .object(titleCell)))
    if let contentView { entries.append(.init("NSContentView", .object(contentView))) }
    entries.append(.init("NSBorderType", .int8(Int8(style?.borderType ?? 3))))
    entries.append(.init("NSBoxType", .int8(Int8(boxType))))
    entries.append(.init("NSTitlePosition", .int8(Int8(style?.titlePosition ?? 2))))
    entries.append(.init("NSTransparent", .bool(false)))
    if contentView != nil { entries.append(.init("IBNSBoxIsUsingDocumentContentView", .bool(true))) }
    graph[box].entries = entries
    try compileChildren(of: element, object: box, known: ["rect", "autoresizingMask", "constraints", "view", "color", "font"])
    return box
  }

  // MARK: Segmented controls

  /// `<segmentedCell>` → `NSSegmentedCell` with its `<segments>` as `NSSegmentItem`s.
  mutating func compileSegmentedCell(_ element: InterfaceDocument.Element, control: Int, parent: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["borderStyle", "alignment", "style", "trackingMode", "segmentDistribution", "controlSize"])
    if let border = element["borderStyle"], border != "border" { throw unsupported(element, "a segmented cell borderStyle \"\(border)\" is not compiled yet") }
    let cell = try begin(element, className: "NSSegmentedCell", parent: parent)
    var entries = cellFlagEntries(element, className: "NSSegmentedCell")
    entries.append(.init("NSSupport", .object(try font(element.child("font", key: "font"), defaultSize: 13))))
    entries.append(.init("NSControlView", .object(control)))
    var items: [Int] = []
    var selected = -1
    for (index, segment) in (element.child("segments")?.children ?? []).enumerated() {
      guard segment.name == "segment" else { throw unsupported(segment) }
      try checkAttributes(segment, known: ["label", "width", "tag", "selected", "imageScaling", "image", "catalog"])
      var itemEntries: [NibGraph.Entry] = []
      if let width = segment.double("width") { itemEntries.append(.init("NSSegmentItemWidth", .float64(width))) }
      if let image = segment["image"] {
        itemEntries.append(.init("NSSegmentItemImage", .object(try namedImage(image, catalog: segment["catalog"], element: segment))))
      }
      let nilLabel = segment.children.contains { $0.name == "nil" && $0["key"] == "label" }
      if !nilLabel { itemEntries.append(.init("NSSegmentItemLabel", string(segment["label"] ?? ""))) }
      if let tag = segment["tag"].flatMap({ Int($0) }), tag != 0 { itemEntries.append(.init("NSSegmentItemTag", NibGraph.integer(tag))) }
      if segment.flag("selected") {
        itemEntries.append(.init("NSSegmentItemSelected", .bool(true)))
        selected = index
      }
      let scales = ["proportionallyDown": 0, "axesIndependently": 1, "none": 2, "proportionallyUpOrDown": 3]
      guard let scale = scales[segment["imageScaling"] ?? "proportionallyDown"] else { throw invalid(segment, "imageScaling \"\(segment["imageScaling"]!)\" is not known") }
      itemEntries.append(.init("NSSegmentItemImageScaling", .int8(Int8(scale))))
      for child in segment.children where !(child.name == "nil" && child["key"] == "label") { throw unsupported(child) }
      items.append(graph.add("NSSegmentItem", itemEntries))
    }
    entries.append(.init("NSSegmentImages", .object(graph.collection("NSMutableArray", items))))
    entries.append(.init("NSSelectedSegment", NibGraph.integer(selected)))
    let style = element["style"] ?? "rounded"
    if style == "separated" { entries.append(.init("NSSegmentStyleSeparated", .int8(1))) }
    switch element["trackingMode"] {
    case nil, "selectOne": break
    case "selectAny": entries.append(.init("NSTrackingMode", .int8(1)))
    case "momentary": entries.append(.init("NSTrackingMode", .int8(2)))
    case let other?: throw unsupported(element, "trackingMode \"\(other)\" is not compiled yet")
    }
    let styles = ["rounded": 1, "texturedRounded": 2, "roundRect": 3, "texturedSquare": 4, "capsule": 5, "smallSquare": 6, "separated": 9]
    guard let styleValue = styles[style] else { throw unsupported(element, "segment style \"\(style)\" is not compiled yet") }
    entries.append(.init("NSSegmentStyle", .int8(Int8(styleValue))))
    let distributions = ["fit": 0, "fill": 1, "fillEqually": 2, "fillProportionally": 3]
    guard let distribution = distributions[element["segmentDistribution"] ?? "fit"] else {
      throw unsupported(element, "segmentDistribution \"\(element["segmentDistribution"]!)\" is not known")
    }
    entries.append(.init("NSSegmentDistribution", .int8(Int8(distribution))))
    graph[cell].entries = entries
    try compileChildren(of: element, object: cell, known: ["font", "segments"])
    return cell
  }

  // MARK: Search fields

  /// `<searchFieldCell>` → `NSSearchFieldCell`, with AppKit's search and cancel button cells.
  mutating func compileSearchFieldCell(
    _ element: InterfaceDocument.Element, control: Int, parent: Int, controlElement: InterfaceDocument.Element
  ) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(
      element,
      known: ["scrollable", "lineBreakMode", "selectable", "editable", "borderStyle", "usesSingleLineMode", "bezelStyle", "title", "placeholderString",
        "alignment", "sendsActionOnEndEditing"])
    let cell = try begin(element, className: "NSSearchFieldCell", parent: parent)
    var entries = cellFlagEntries(element, className: "NSSearchFieldCell")
    entries.append(.init("NSContents", string(element["title"] ?? "")))
    entries.append(.init("NSSupport", .object(try font(element.child("font", key: "font"), defaultSize: 13))))
    if let placeholder = element["placeholderString"] { entries.append(.init("NSPlaceholderString", string(placeholder))) }
    entries.append(.init("NSControlView", .object(control)))
    switch element["bezelStyle"] {
    case "round": entries.append(.init("NSTextBezelStyle", .int8(1)))
    case nil: break
    case let other?: throw unsupported(element, "a search field bezelStyle \"\(other)\" is not compiled yet")
    }
    if let background = element.child("color", key: "backgroundColor") { entries.append(.init("NSBackgroundColor", .object(try color(background)))) }
    if let text = element.child("color", key: "textColor") { entries.append(.init("NSTextColor", .object(try color(text)))) }
    if controlElement["textCompletion"] == "NO" { entries.append(.init("NSAutomaticTextCompletionDisabled", .bool(true))) }
    func buttonCell(_ compiler: inout CocoaNibCompiler, cancel: Bool) -> Int {
      var button: [NibGraph.Entry] = [
        .init("NSCellFlags", cancel ? .int64(Int64(Int32.min)) : .int8(0)), .init("NSCellFlags2", .int8(0)),
      ]
      if cancel {
        let dictionary = compiler.graph.collection(
          "NSMutableDictionary",
          [compiler.sharedString("AXDescription"), compiler.sharedString("cancel"), compiler.sharedString("NSAccessibilityEncodedAttributesValueType"), compiler.number(1)])
        button.append(.init("NSAccessibilityOverriddenAttributes", .object(compiler.graph.collection("NSMutableArray", [dictionary]))))
      } else {
        button.append(.init("NSContents", compiler.string("search")))
      }
      button += [
        .init("NSControlView", .object(control)), .init("NSAction", compiler.string(cancel ? "_searchFieldCancel:" : "_searchFieldSearch:")),
        .init("NSTarget", .object(cell)), .init("NSButtonFlags", NibGraph.integer(0x0840_4000)), .init("NSButtonFlags2", .int8(0)),
        .init("NSBezelStyle", .int8(0)), .init("NSKeyEquivalent", compiler.string("")), .init("NSPeriodicDelay", .int16(400)),
        .init("NSPeriodicInterval", .int8(75)), .init("NSAuxButtonType", .int8(5)),
      ]
      return compiler.graph.add("NSButtonCell", button)
    }
    entries.append(.init("NSSearchButtonCell", .object(buttonCell(&self, cancel: false))))
    entries.append(.init("NSCancelButtonCell", .object(buttonCell(&self, cancel: true))))
    entries.append(.init("NSMaximumRecents", .int16(255)))
    entries.append(.init("NSSearchFieldFlags", .data([6, 0, 0, 0])))
    entries.append(.init("NSAutomaticTextCompletionStored", .bool(true)))
    graph[cell].entries = entries
    try compileChildren(of: element, object: cell, known: ["font", "color"])
    return cell
  }
}
