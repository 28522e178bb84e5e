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
    let actionImageReference = element.child("imageReference", key: "secondaryImage")
    if actionImage != nil || actionImageReference != nil { entries.append(.init("NSHasActionImage", .bool(true))) }
    entries.append(.init("NSTitle", separator ? string(element["title"] ?? "") : localizable(element["title"] ?? "", element, "title")))
    // The key equivalent is an attribute, or a `<string key="keyEquivalent">` child when it is
    // a control character saved base64-encoded (transmission_MainMenu: "CA", backspace).
    var keyEquivalent = element["keyEquivalent"] ?? ""
    if element["keyEquivalent"] == nil, let child = element.child("string", key: "keyEquivalent") { keyEquivalent = try stringContent(child) }
    if let other = element.children.first(where: { ($0.name == "string" && $0["key"] != "keyEquivalent") || ($0.name == "integer" && $0["key"] != "representedObject") }) {
      throw unsupported(other)
    }
    entries.append(.init("NSKeyEquiv", string(keyEquivalent)))
    if separator && element.child("modifierMask", key: "keyEquivalentModifierMask") == nil {
      // A separator has no key equivalent modifiers unless the document gives them
      // (test26_strings, test8_menu: none; transmission_MainMenu: 33 separators with
      // command="YES" → NSKeyEquivModMask 0x100000).
    } else if let mask = element.child("modifierMask", key: "keyEquivalentModifierMask") {
      let bits = try modifierMaskFlags(mask)
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
    } else if let actionImageReference {
      entries.append(.init("NSActionImage", .object(try imageReference(actionImageReference))))
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
    // `<integer key="representedObject" value>` → NSRepObject, the shared NSNumber
    // (predicateEditor's compound-row menus).
    if let represented = element.child("integer", key: "representedObject") {
      guard let value = represented.wholeNumber("value") else { throw invalid(represented, "a representedObject integer needs an integer value") }
      Self.setEntry("NSRepObject", .object(number(value)), in: &entries, order: Self.menuItemOrder)
    }
    graph[item].entries = entries
    var known: Set<String> = ["menu", "modifierMask", "imageReference", "string", "integer"]
    if let attributed = element.child("attributedString", key: "attributedTitle") {
      try emptyAttributedTitle(attributed)
      known.insert("attributedString")
    }
    try compileChildren(of: element, object: item, known: known)
    return item
  }
}
