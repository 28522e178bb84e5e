import Interface

extension CocoaNibCompiler {
  // MARK: A box's border, title position and title font

  /// What a box archives from `borderType`, `titlePosition` and `<font key="titleFont">`:
  /// NSBorderType (AppKit's NSBorderType: none 0, line 1, bezel 2, groove 3, the default),
  /// NSTitlePosition (NSTitlePosition: noTitle 0, aboveTop 1, atTop 2, the default, belowTop 3,
  /// aboveBottom 4, atBottom 5, belowBottom 6) and its title cell's font.
  struct BoxStyle {
    var borderType = 3
    var titlePosition = 2
    var titleFont: InterfaceDocument.Element?
  }

  /// The border, title position and title font of `element`, from AppKit's enums.
  func boxStyle(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> BoxStyle {
    var style = BoxStyle()
    let borders = ["none": 0, "line": 1, "bezel": 2, "groove": 3]
    if let border = element["borderType"] {
      guard let value = borders[border] else { throw unsupported(element, "borderType \"\(border)\" is not known", attribute: "borderType") }
      style.borderType = value
    }
    let positions = ["noTitle": 0, "aboveTop": 1, "atTop": 2, "belowTop": 3, "aboveBottom": 4, "atBottom": 5, "belowBottom": 6]
    if let position = element["titlePosition"] {
      guard let value = positions[position] else { throw unsupported(element, "titlePosition \"\(position)\" is not known", attribute: "titlePosition") }
      style.titlePosition = value
    }
    style.titleFont = element.child("font", key: "titleFont")
    return style
  }

  /// An old-style box (`<box boxType="oldStyle">`, NSBoxType 3: NSBoxOldStyle in AppKit's enum):
  /// its style, reported as unverified (no pair has an old-style box). Its content view keeps
  /// the frame the document gives it.
  mutating func oldStyleBox(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> BoxStyle {
    let style = try boxStyle(element)
    noteUnverified(
      element,
      "<box boxType=\"oldStyle\"> as NSBoxType 3 with NSBorderType \(style.borderType), NSTitlePosition \(style.titlePosition) and its title font in the title cell, from AppKit's enums")
    return style
  }

  /// A primary box's style: the corpus's primary boxes (test_box_titled, test_box_colors) keep
  /// the defaults — groove, the title at the top in the small system font, the content view
  /// 12 points shorter than the box. A border type, no title (NSTitlePosition 0; the content view
  /// then fills the box, as AppKit's title rectangle is empty, and the title defaults to "") and a
  /// title font are written as the public Python clone writes them for primary boxes
  /// (viraptor/ibtool `box.py`: NSBorderType none 0, line 1, bezel 2; noTitle 0; the title
  /// cell's font) and reported as unverified; the other title positions, whose content frames
  /// no source shows, are refused.
  mutating func primaryBoxStyle(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> BoxStyle {
    let style = try boxStyle(element)
    guard style.titlePosition == 0 || style.titlePosition == 2 else {
      throw unsupported(element, "titlePosition \"\(element["titlePosition"] ?? "")\" is not compiled yet (the content view's frame is not known)", attribute: "titlePosition")
    }
    var given: [String] = []
    if element["borderType"] != nil { given.append("NSBorderType \(style.borderType)") }
    if style.titlePosition == 0 { given.append("NSTitlePosition 0 with the content view filling the box") }
    if style.titleFont != nil { given.append("its title font in the title cell") }
    if !given.isEmpty { noteUnverified(element, "a primary box with " + given.joined(separator: ", ") + ", as a public re-implementation writes it") }
    return style
  }
}
