import Interface

extension CocoaNibCompiler {
  // MARK: Predicate editors

  /// `<predicateEditor nestingMode rowHeight>` with its `<rowTemplates>` → `NSPredicateEditor`:
  /// view keys (NSSubviews: the `_NSRuleEditorViewSliceHolder`, NSDragTypes
  /// {NSRuleEditorItemPBoardType}, NSNextKeyView: the slice holder), control keys, then the
  /// NSRuleEditor keys (NSRuleEditorAlignmentGridWidth 75, NSRuleEditorSliceHeight the row
  /// height, an empty NSRuleEditorFormattingDictionary, NSRuleEditorEditable,
  /// NSRuleEditorAllowsEmptyCompoundRows false, NSRuleEditorDisallowEmpty, NSRuleEditorNestingMode,
  /// AppKit's key paths and row class, NSRuleEditorSlicesHolder, NSRuleEditorDelegate nil,
  /// NSRuleEditorBoundArrayOwner an `_NSRuleEditorViewUnboundRowHolder` with an empty
  /// NSBoundArray, empty NSRuleEditorSlices), NSPredicateTemplates and NSPredicateEditorPredicate
  /// nil (predicateEditor, pred_compound_chain: one compound row template each).
  mutating func compilePredicateEditor(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: ["nestingMode", "rowHeight"], view: true)
    let nestingModes = ["single": 0, "list": 1, "compound": 2, "simple": 3]
    guard let nesting = nestingModes[element["nestingMode"] ?? "compound"] else {
      throw invalid(element, "nestingMode \"\(element["nestingMode"]!)\" is not single, list, compound or simple")
    }
    guard element["nestingMode"] == "compound" else {
      throw unsupported(element, "a predicate editor whose nestingMode is not compound is not compiled yet (no Apple sample)")
    }
    guard let rowHeight = element.double("rowHeight") else { throw unsupported(element, "a predicate editor without rowHeight is not compiled yet (no Apple sample)") }
    if let hugging = priorities(element, prefix: "HuggingPriority", defaults: (250, 750), onlyWhenDifferent: true) {
      throw unsupported(element, "a predicate editor hugging \(hugging) is not compiled yet (no Apple sample)")
    }
    if element.child("subviews") != nil { throw unsupported(element, "<predicateEditor> with <subviews> is not compiled yet") }
    guard element.child("rowTemplates")?.children.isEmpty == false else {
      throw unsupported(element, "a predicate editor without row templates is not compiled yet (no Apple sample)")
    }
    let editor = try begin(element, className: "NSPredicateEditor", parent: parent)
    let dragTypes = graph.collection("NSMutableSet", [sharedString("NSRuleEditorItemPBoardType")])
    var entries = try viewEntries(element, view: editor, superview: superview, extraAfterSubviews: [.init("NSDragTypes", .object(dragTypes))], alwaysSubviews: true)
    let frame = element.frameRect
    let sliceHolder = graph.add("_NSRuleEditorViewSliceHolder")
    graph[sliceHolder].entries =
      [
        .init("NSNextResponder", .object(editor)), .init("NSNibTouchBar", .null), .init("NSvFlags", NibGraph.integer(viewFlags(element))),
        .init("NSSubviews", .object(graph.collection("NSMutableArray", []))),
        .init("NSFrameSize", string(Self.sizeString(width: frame.width, height: frame.height))), .init("NSSuperview", .object(editor)),
        .init("NSNextKeyView", .null), .init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)),
      ] + tailViewEntries(InterfaceDocument.Element(name: "view"))
    if case .object(let subviews)? = entries.first(where: { $0.key == "NSSubviews" })?.value {
      graph[subviews].entries.append(.init("UINibEncoderEmptyKey", .object(sliceHolder)))
    }
    if let superviewIndex = entries.firstIndex(where: { $0.key == "NSSuperview" }) {
      entries.insert(.init("NSNextKeyView", .object(sliceHolder)), at: superviewIndex + 1)
    }
    entries += tailViewEntries(element)
    entries += try controlEntries(element, source: element, cell: nil)
    entries += [
      .init("NSRuleEditorAlignmentGridWidth", .float64(75)), .init("NSRuleEditorSliceHeight", .float64(rowHeight)),
      .init("NSRuleEditorFormattingDictionary", .object(graph.collection("NSDictionary", []))), .init("NSRuleEditorEditable", .bool(true)),
      .init("NSRuleEditorAllowsEmptyCompoundRows", .bool(false)), .init("NSRuleEditorDisallowEmpty", .bool(true)),
      .init("NSRuleEditorNestingMode", NibGraph.integer(nesting)), .init("NSRuleEditorRowTypeKeyPath", string("rowType")),
      .init("NSRuleEditorSubrowsArrayKeyPath", string("subrows")), .init("NSRuleEditorItemsKeyPath", string("criteria")),
      .init("NSRuleEditorValuesKeyPath", string("displayValues")), .init("NSRuleEditorBoundArrayKeyPath", string("boundArray")),
      .init("NSRuleEditorRowClass", string("NSMutableDictionary")), .init("NSRuleEditorSlicesHolder", .object(sliceHolder)),
      .init("NSRuleEditorDelegate", .null),
    ]
    let unboundRows = graph.add("_NSRuleEditorViewUnboundRowHolder", [.init("NSBoundArray", .object(graph.collection("NSMutableArray", [])))])
    entries.append(.init("NSRuleEditorBoundArrayOwner", .object(unboundRows)))
    entries.append(.init("NSRuleEditorSlices", .object(graph.collection("NSMutableArray", []))))
    var templates: [Int] = []
    for template in element.child("rowTemplates")?.children ?? [] {
      templates.append(try compilePredicateEditorRowTemplate(template, editor: editor))
    }
    entries.append(.init("NSPredicateTemplates", .object(graph.collection("NSArray", templates))))
    entries.append(.init("NSPredicateEditorPredicate", .null))
    graph[editor].entries = entries
    try compileChildren(of: element, object: editor, known: ["rect", "autoresizingMask", "constraints", "rowTemplates"])
    return editor
  }

  /// `<predicateEditorRowTemplate rowType="compound">` with its `<popUpMenus>` →
  /// `NSPredicateEditorRowTemplate` {NSPredicateTemplateType 2, NSPredicateTemplateOptions 0,
  /// NSPredicateTemplateModifier 0, NSPredicateTemplateLeftAttributeType 0,
  /// NSPredicateTemplateRightAttributeType 0, NSPredicateTemplateViews (one popup button per
  /// menu, ``rowTemplatePopUp(menu:frame:element:)``), NSPredicateTemplateLeftIsWildcard false,
  /// NSPredicateTemplateRightIsWildcard false}. The menus are objects of the nib (parent: the
  /// template); the popups are not.
  ///
  /// The popups are laid out as AppKit's template lays them out: from x 7, 6 points apart, y 1,
  /// 24 high, each as wide as its widest title (``rowTemplatePopUpWidths``).
  mutating func compilePredicateEditorRowTemplate(_ element: InterfaceDocument.Element, editor: Int) throws(InterfaceBuilderError) -> Int {
    guard element.name == "predicateEditorRowTemplate" else { throw unsupported(element) }
    try checkAttributes(element, known: ["rowType"])
    guard element["rowType"] == "compound" else {
      throw unsupported(element, "a predicate editor row template whose rowType is not compound is not compiled yet (no Apple sample)")
    }
    let menuElements = element.child("popUpMenus")?.children ?? []
    guard !menuElements.isEmpty, menuElements.allSatisfy({ $0.name == "menu" }) else {
      throw unsupported(element, "a compound row template without <popUpMenus> of <menu> is not compiled yet")
    }
    // Widths first, so that an unknown title is refused before anything is built.
    var widths: [Double] = []
    for menuElement in menuElements {
      var width = 0.0
      for item in menuElement.child("items")?.children ?? [] {
        let title = item["title"] ?? ""
        guard let known = Self.rowTemplatePopUpWidths[title] else {
          throw unsupported(
            item,
            "a row template popup item titled \"\(title)\" is not compiled yet (the popup's width is AppKit's measure of its titles in the 11-point system font, which is not known here for this title)"
          )
        }
        width = max(width, known)
      }
      widths.append(width)
    }
    let template = try begin(element, className: "NSPredicateEditorRowTemplate", parent: editor)
    var menus: [Int] = []
    for menuElement in menuElements { menus.append(try compileMenu(menuElement, parent: template)) }
    var popUps: [Int] = []
    var x = 7.0
    for (menu, width) in zip(menus, widths) {
      popUps.append(try rowTemplatePopUp(menu: menu, frame: Self.rectString(x: x, y: 1, width: width, height: 24), element: element))
      x += width + 6
    }
    for (position, popUp) in popUps.enumerated() {
      let next: NIBArchive.Payload = position + 1 < popUps.count ? .object(popUps[position + 1]) : .null
      if let superviewIndex = graph[popUp].entries.firstIndex(where: { $0.key == "NSSuperview" }) {
        graph[popUp].entries.insert(.init("NSNextKeyView", next), at: superviewIndex + 1)
      }
    }
    graph[template].entries = [
      .init("NSPredicateTemplateType", .int8(2)), .init("NSPredicateTemplateOptions", .int8(0)), .init("NSPredicateTemplateModifier", .int8(0)),
      .init("NSPredicateTemplateLeftAttributeType", .int8(0)), .init("NSPredicateTemplateRightAttributeType", .int8(0)),
      .init("NSPredicateTemplateViews", .object(graph.collection("NSArray", popUps))), .init("NSPredicateTemplateLeftIsWildcard", .bool(false)),
      .init("NSPredicateTemplateRightIsWildcard", .bool(false)),
    ]
    try compileChildren(of: element, object: template, known: ["popUpMenus"])
    return template
  }

  /// The width AppKit sizes a row template's popup button to when the title is its widest:
  /// its title measured in the 11-point system font plus the bezel's margins. Stasis has no
  /// font metrics, so only the titles of Apple's nibs are known (predicateEditor and
  /// pred_compound_chain: "Any"/"All" and "Any"/"All"/"None" → 68, which is also the narrowest
  /// either sample shows; "of the following are true" → 173, AppKit's own compound-row title).
  static let rowTemplatePopUpWidths: [String: Double] = ["Any": 68, "All": 68, "None": 68, "of the following are true": 173]

  /// A row template's `NSPopUpButton` for `menu`, outside any view (NSNextResponder and
  /// NSSuperview nil): NSvFlags 0x100, NSTag −1, an `NSPopUpButtonCell` in the 11-point system
  /// font {NSCellFlags 0x4000040, NSCellFlags2 0x10000800, NSRepresentedObject of the selected
  /// item when it has one, NSButtonFlags 0x86804000, NSButtonFlags2 0x24, round-rect bezel 12,
  /// NSMenuItem the selected item (the one whose state is on, else the first), NSMenu, the
  /// menu's items targeting the cell with `_popUpItemAction:`} and the control keys of a cell
  /// control (centre-less natural alignment, truncating tail).
  mutating func rowTemplatePopUp(menu: Int, frame: String, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let popUp = graph.add("NSPopUpButton")
    let cell = graph.add("NSPopUpButtonCell")
    let items = graph.members(of: graph[menu].entries.first { $0.key == "NSMenuItems" }.flatMap { if case .object(let i) = $0.value { i } else { nil } } ?? -1) ?? []
    for item in items {
      var itemEntries = graph[item].entries
      if itemEntries.contains(where: { $0.key == "NSSubmenu" }) { throw unsupported(element, "a row template popup item with a submenu is not compiled yet") }
      Self.setEntry("NSAction", string("_popUpItemAction:"), in: &itemEntries, order: Self.menuItemOrder)
      Self.setEntry("NSTarget", .object(cell), in: &itemEntries, order: Self.menuItemOrder)
      graph[item].entries = itemEntries
    }
    let selected = items.first { item in graph[item].entries.contains { $0.key == "NSState" && Self.intValue($0.value) == 1 } } ?? items.first
    let font = try font(InterfaceDocument.Element(name: "font", attributes: [(name: "metaFont", value: "smallSystem")]), defaultSize: 11)
    var cellEntries: [NibGraph.Entry] = [
      .init("NSCellFlags", NibGraph.integer(0x400_0040)), .init("NSCellFlags2", NibGraph.integer(0x1000_0800)), .init("NSSupport", .object(font)),
    ]
    if let selected, let represented = graph[selected]["NSRepObject"] { cellEntries.append(.init("NSRepresentedObject", represented)) }
    cellEntries += [
      .init("NSControlView", .object(popUp)), .init("NSButtonFlags", NibGraph.integer(Self.signExtended(0x8680_4000))),
      .init("NSButtonFlags2", NibGraph.integer(0x24)), .init("NSBezelStyle", .int8(12)), .init("NSKeyEquivalent", string("")),
      .init("NSPeriodicDelay", NibGraph.integer(400)), .init("NSPeriodicInterval", NibGraph.integer(75)), .init("NSAuxButtonType", .int64(-1)),
      .init("NSMenuItem", selected.map { .object($0) } ?? .null), .init("NSMenuItemRespectAlignment", .bool(true)), .init("NSMenu", .object(menu)),
      .init("NSPreferredEdge", .int8(1)), .init("NSUsesItemFromMenu", .bool(true)), .init("NSAltersState", .bool(true)), .init("NSArrowPosition", .int8(2)),
    ]
    graph[cell].entries = cellEntries
    let plain = InterfaceDocument.Element(name: "popUpButton")
    graph[popUp].entries =
      [
        .init("NSNextResponder", .null), .init("NSNibTouchBar", .null), .init("NSvFlags", NibGraph.integer(0x100)), .init("NSFrame", string(frame)),
        .init("NSSuperview", .null), .init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)),
      ] + tailViewEntries(plain) + [.init("NSTag", .int64(-1))]
      + (try controlEntries(plain, source: InterfaceDocument.Element(name: "popUpButtonCell", attributes: [(name: "lineBreakMode", value: "truncatingTail")]), cell: cell))
      + [.init("IBNSShadowedSymbolConfiguration", .null)]
    return popUp
  }
}
