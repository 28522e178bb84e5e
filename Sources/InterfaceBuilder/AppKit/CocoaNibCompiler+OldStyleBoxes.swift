import Interface

extension CocoaNibCompiler {
  // MARK: Old-style boxes

  /// What an old-style box (`<box boxType="oldStyle">`, NSBoxType 3: NSBoxOldStyle in AppKit's
  /// enum) archives differently from a primary one: NSBorderType from `borderType` (AppKit's
  /// NSBorderType: none 0, line 1, bezel 2, groove 3, the default), NSTitlePosition from
  /// `titlePosition` (NSTitlePosition: noTitle 0, aboveTop 1, atTop 2, the default, belowTop 3,
  /// aboveBottom 4, atBottom 5, belowBottom 6) and its title cell's font from
  /// `<font key="titleFont">`. Its content view keeps the frame the document gives it.
  struct OldStyleBox {
    var borderType = 3
    var titlePosition = 2
    var titleFont: InterfaceDocument.Element?
  }

  /// The old-style settings of `element`, reported as unverified (no pair has an old-style box).
  mutating func oldStyleBox(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> OldStyleBox {
    var style = OldStyleBox()
    let borders = ["none": 0, "line": 1, "bezel": 2, "groove": 3]
    if let border = element["borderType"] {
      guard let value = borders[border] else { throw unsupported(element, "borderType \"\(border)\" is not known") }
      style.borderType = value
    }
    let positions = ["noTitle": 0, "aboveTop": 1, "atTop": 2, "belowTop": 3, "aboveBottom": 4, "atBottom": 5, "belowBottom": 6]
    if let position = element["titlePosition"] {
      guard let value = positions[position] else { throw unsupported(element, "titlePosition \"\(position)\" is not known") }
      style.titlePosition = value
    }
    style.titleFont = element.child("font", key: "titleFont")
    noteUnverified(
      element,
      "<box boxType=\"oldStyle\"> as NSBoxType 3 with NSBorderType \(style.borderType), NSTitlePosition \(style.titlePosition) and its title font in the title cell, from AppKit's enums")
    return style
  }
}
