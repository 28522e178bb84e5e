import Interface

extension CocoaNibCompiler {
  // MARK: A button cell's style, type and image position (AppKit's model)

  /// Interface Builder's `bezelStyle` names and AppKit's `NSBezelStyle` values (the
  /// NSBezelStyle key). The macOS 14 names (`push`, `flexiblePush`, `toolbar`,
  /// `accessoryBarAction`, `accessoryBar`, `pushDisclosure`, `badge`) are AppKit's aliases of the
  /// same values; no corpus document writes them.
  static let bezelStyles = [
    "rounded": 1, "regularSquare": 2, "disclosure": 5, "shadowlessSquare": 6, "circular": 7, "texturedSquare": 8, "helpButton": 9,
    "smallSquare": 10, "texturedRounded": 11, "roundedRect": 12, "recessed": 13, "roundedDisclosure": 14, "inline": 15,
    "push": 1, "flexiblePush": 2, "toolbar": 11, "accessoryBarAction": 12, "accessoryBar": 13, "pushDisclosure": 14, "badge": 15,
  ]

  /// Interface Builder's button `type`s: the check box and radio button draw AppKit's named
  /// images; the others are presets of a bezel and a behavior (the behavior element says which
  /// NSButtonType the cell has, ``buttonType(_:)``).
  static let buttonTypes: Set<String> = [
    "push", "check", "radio", "square", "squareTextured", "disclosureTriangle", "help", "smallSquare", "roundTextured", "disclosure",
    "roundRect", "recessed", "inline", "bevel",
  ]

  /// The attributes of a `<buttonCell>` (and a popup button's, after its own) the compiler
  /// writes: the cell flags (``cellFlags(_:className:)``), the button flags and the contents;
  /// any other is refused with its line. A cell's `tag` is not archived (StatusBar's popup).
  static let buttonCellAttributes: Set<String> = [
    "type", "title", "alternateTitle", "bezelStyle", "imagePosition", "alignment", "controlSize", "lineBreakMode", "borderStyle", "inset",
    "state", "imageScaling", "image", "catalog", "keyEquivalent", "showsBorderOnlyWhileMouseInside", "focusRingType", "enabled",
    "allowsMixedState", "tag", "refusesFirstResponder", "continuous", "sendsActionOnEndEditing", "baseWritingDirection",
    "truncatesLastVisibleLine", "usesSingleLineMode", "pullsDown", "arrowPosition", "selectedItem", "preferredEdge",
  ]

  /// A button cell's `bezelStyle` as AppKit's NSBezelStyle (0, no key, when absent).
  func bezelStyle(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let name = element["bezelStyle"] else { return 0 }
    guard let value = Self.bezelStyles[name] else { throw unsupported(element, "a button bezelStyle \"\(name)\" is not known", attribute: "bezelStyle") }
    return value
  }

  /// The low bits of NSButtonFlags2: the bezel style, as AppKit's decoder reads it back
  /// (`bezel = (flags2 & 0x7) | ((flags2 & 0x20) >> 2)`, GNUstep's NSButtonCell), and bit
  /// 0x8, shows the border only while the mouse is inside — set by the recessed preset and by
  /// `showsBorderOnlyWhileMouseInside="YES"`. Every Apple button and popup cell of the corpus
  /// (64, twelve bezels — all but circular — and none) has this field equal to its NSBezelStyle, whatever its
  /// type (a bevel button with the regular square bezel 0x2, the Python clone's bevel with the
  /// rounded bezel 0x1); the recessed pair has 0x2D.
  func buttonFlags2Style(_ element: InterfaceDocument.Element, bezel: Int) throws(InterfaceBuilderError) -> Int {
    let type = element["type"] ?? "push"
    guard Self.buttonTypes.contains(type) else { throw unsupported(element, "a button type \"\(type)\" is not known", attribute: "type") }
    var field = (bezel & 0x7) | ((bezel & 0x8) << 2)
    if type == "recessed" || element.flag("showsBorderOnlyWhileMouseInside") { field |= 0x8 }
    return field
  }

  /// The behavior flags that choose an NSButtonType: what lights the cell while pressed
  /// (highlightsBy) and what shows its state (showsStateBy); `doesNotDimImage` is apart.
  static let buttonTypeBehaviors: [(Set<String>, Int)] = [
    (["lightByBackground", "lightByGray"], 0),  // momentary light
    (["pushIn", "lightByBackground", "lightByGray", "changeBackground", "changeGray"], 1),  // push on / push off
    (["pushIn", "lightByContents", "changeContents"], 2),  // toggle
    (["lightByContents", "changeContents"], 3),  // switch (a radio button: 4)
    (["lightByContents"], 5),  // momentary change
    (["lightByBackground", "lightByGray", "changeBackground", "changeGray"], 6),  // on / off
    (["pushIn", "lightByBackground", "lightByGray"], 7),  // momentary push in
  ]

  /// The type each preset gets when its behavior is none of AppKit's standard ones (the
  /// disclosure triangle's pushIn, lightByContents, changeBackground and changeGray is a toggle:
  /// test16_buttons).
  static let presetButtonTypes = [
    "push": 7, "radio": 4, "recessed": 1, "check": 3, "roundRect": 7, "disclosureTriangle": 2, "help": 7, "smallSquare": 7,
    "roundTextured": 7, "disclosure": 6, "inline": 7, "bevel": 7, "square": 7, "squareTextured": 7,
  ]

  /// NSAuxButtonType: the NSButtonType whose highlight and state masks the `<behavior>`
  /// element holds (AppKit's `setButtonType:` table: momentary push in = pushIn, lightByBackground,
  /// lightByGray; toggle = pushIn, lightByContents, changeContents; …), a radio button's switch
  /// behavior 4. Every Apple button and popup cell of the corpus with a standard behavior agrees
  /// (all eight types among them: push 7, check 3, radio 4, recessed 1, disclosure 6, square and
  /// textured square buttons 7, 5 or 2 by their behavior); a behavior that is none of the
  /// standard ones takes its preset's type.
  func buttonType(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let type = element["type"] ?? "push"
    let behavior = element.child("behavior", key: "behavior")
    let flags = Set((behavior?.attributes ?? []).filter { $0.value == "YES" && $0.name != "doesNotDimImage" }.map(\.name))
    if let standard = Self.buttonTypeBehaviors.first(where: { $0.0 == flags })?.1 {
      return standard == 3 && type == "radio" ? 4 : standard
    }
    guard let preset = Self.presetButtonTypes[type] else { throw unsupported(element, "a button type \"\(type)\" is not known", attribute: "type") }
    return preset
  }

  /// `imagePosition` → NSButtonFlags bits (AppKit's cell flags: image and text 0x80000, bottom
  /// or left 0x100000, horizontal 0x200000, overlaps 0x400000; every position in the corpus
  /// pairs). `leading` and `trailing` (macOS 10.12) have no bits of their own: written as left
  /// and right, a left-to-right layout's, and warned.
  mutating func imagePositionFlags(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let positions = ["noImage": 0, "left": 0x38_0000, "right": 0x28_0000, "above": 0x8_0000, "below": 0x18_0000, "only": 0x40_0000, "overlaps": 0x48_0000]
    guard let name = element["imagePosition"] else { return 0 }
    if let bits = positions[name] { return bits }
    let directional = ["leading": "left", "trailing": "right"]
    guard let written = directional[name], let bits = positions[written] else {
      throw unsupported(element, "a button imagePosition \"\(name)\" is not known", attribute: "imagePosition")
    }
    noteUnverified(element, "imagePosition=\"\(name)\" written as \"\(written)\" (NSButtonFlags 0x\(String(bits, radix: 16)))")
    return bits
  }
}
