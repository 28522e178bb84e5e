import Interface

/// Each UIKit class's own keys, after UIView's.
extension UIKitNibCompiler {
  static let textAlignments = ["left": 0, "center": 1, "right": 2, "justified": 3, "natural": 4]
  static let lineBreakModes = [
    "wordWrap": 0, "characterWrap": 1, "clip": 2, "headTruncation": 3, "tailTruncation": 4, "middleTruncation": 5,
  ]
  static let contentHorizontalAlignments = ["center": 0, "left": 1, "right": 2, "fill": 3, "leading": 4, "trailing": 5]
  static let contentVerticalAlignments = ["center": 0, "top": 1, "bottom": 2, "fill": 3]

  mutating func classEntries(_ element: InterfaceDocument.Element, object: Int) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    switch element.name {
    case "label": return labelEntries(element)
    case "button": return buttonEntries(element)
    case "imageView": return element["image"].map { [.init("UIImage", .object(image($0)))] } ?? []
    case "stackView": return stackViewEntries(element)
    case "textField": return textFieldEntries(element)
    case "switch":
      return [.init("UISwitchEnabled", .bool(element.flag("enabled", default: true))), .init("UISwitchOn", .bool(element.flag("on")))]
    case "slider":
      return [
        .init("UIMinValue", .float32(Float(element.double("minValue") ?? 0))), .init("UIMaxValue", .float32(Float(element.double("maxValue") ?? 1))),
      ]
    case "window": return [.init("UIResizesToFullScreen", .bool(true))]
    case "scrollView", "tableView", "collectionView", "textView": return try scrollViewEntries(element)
    case "mapView": return mapViewEntries(element)
    case "navigationItem": return try navigationItemEntries(element)
    case "barButtonItem": return try barButtonItemEntries(element)
    case "tabBarItem": return tabBarItemEntries(element)
    case "datePicker": return datePickerEntries(element)
    default: return []
    }
  }

  /// Content alignment of a control (`UIContentHorizontalAlignment`/`UIContentVerticalAlignment`)
  /// when not centred.
  func controlEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let horizontal = element["contentHorizontalAlignment"].flatMap({ Self.contentHorizontalAlignments[$0] }), horizontal != 0 {
      entries.append(.init("UIContentHorizontalAlignment", NibGraph.integer(horizontal)))
    }
    if let vertical = element["contentVerticalAlignment"].flatMap({ Self.contentVerticalAlignments[$0] }), vertical != 0 {
      entries.append(.init("UIContentVerticalAlignment", NibGraph.integer(vertical)))
    }
    return entries
  }

  mutating func labelEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = [.init("UIText", .object(graph.string(element["text"] ?? "")))]
    let fontElement = element.child("fontDescription", key: "fontDescription")
    entries.append(.init("UIFont", .object(fontElement.map { font($0) } ?? font(InterfaceDocument.Element(name: "fontDescription", attributes: [("type", "system"), ("pointSize", "17")])))))
    let textColor = color(element, key: "textColor") ?? color(InterfaceDocument.Element(name: "color", attributes: [("cocoaTouchSystemColor", "darkTextColor")]))
    if let textColor { entries.append(.init("UITextColor", .object(textColor))) }
    if let highlighted = color(element, key: "highlightedColor") { entries.append(.init("UIHighlightedColor", .object(highlighted))) }
    if let shadow = color(element, key: "shadowColor") { entries.append(.init("UIShadowColor", .object(shadow))) }
    let offset = element.child("size", key: "shadowOffset")
    entries.append(.init("UIShadowOffset", Self.geometry([offset?.double("width") ?? 0, offset?.double("height") ?? -1])))
    if let lines = element.wholeNumber("numberOfLines"), lines != 1 { entries.append(.init("UINumberOfLines", NibGraph.integer(lines))) }
    if let mode = element["lineBreakMode"].flatMap({ Self.lineBreakModes[$0] }), mode != 4 {
      entries.append(.init("UILineBreakMode", NibGraph.integer(mode)))
    }
    // A label shrinks its text unless the document says adjustsFontSizeToFit="NO": the smallest
    // size is written both as a point size (the scale factor times the font's) and as the factor.
    let adjusts = element.flag("adjustsFontSizeToFit", default: true)
    let scale = element.double("minimumScaleFactor") ?? 0
    if adjusts {
      let size = fontElement.flatMap { $0.double("pointSize") } ?? 17
      entries.append(.init("UIAdjustsFontSizeToFit", .bool(true)))
      entries.append(.init("UIMinimumFontSize", .float32(Float(element.double("minimumFontSize") ?? scale * size))))
    }
    entries.append(.init("UITextAlignment", NibGraph.integer(element["textAlignment"].flatMap { Self.textAlignments[$0] } ?? 0)))
    if let width = element.double("preferredMaxLayoutWidth") { entries.append(.init("UIPreferredMaxLayoutWidth", .float32(Float(width)))) }
    if adjusts, scale != 0 { entries.append(.init("UIMinimumScaleFactor", .float32(Float(scale)))) }
    // (MPSurvey's cell labels, Xcode 7.3.1.)
    if element.flag("adjustsLetterSpacingToFitWidth") { entries.append(.init("UIAdjustsLetterSpacingToFit", .bool(true))) }
    if options.xcode >= 800 { entries.append(.init("UIDisableUpdateTextColorOnTraitCollectionChange", .bool(true))) }
    return entries
  }

  static let buttonTypes = ["custom": 0, "system": 1, "roundedRect": 1, "detailDisclosure": 2, "infoLight": 3, "infoDark": 4, "contactAdd": 5]
  static let controlStates = ["normal": 0, "highlighted": 1, "disabled": 2, "selected": 4]

  mutating func buttonEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries = controlEntries(element)
    var states: [Int] = []
    for state in element.children("state") {
      guard let number = state["key"].flatMap({ Self.controlStates[$0] }) else { continue }
      var content: [NibGraph.Entry] = []
      if let title = state["title"] { content.append(.init("UITitle", .object(graph.string(title)))) }
      if let name = state["image"] { content.append(.init("UIImage", .object(image(name)))) }
      if let name = state["backgroundImage"] { content.append(.init("UIBackgroundImage", .object(image(name)))) }
      if let color = color(state, key: "titleColor") { content.append(.init("UITitleColor", .object(color))) }
      if let color = color(state, key: "titleShadowColor") { content.append(.init("UIShadowColor", .object(color))) }
      guard !content.isEmpty else { continue }
      states += [self.number(Double(number), integer: true), graph.add("UIButtonContent", content)]
    }
    entries.append(.init("UIButtonStatefulContent", .object(graph.collection("NSMutableDictionary", states))))
    entries.append(.init("UIAdjustsImageWhenHighlighted", .bool(element.flag("adjustsImageWhenHighlighted", default: true))))
    entries.append(.init("UIAdjustsImageWhenDisabled", .bool(element.flag("adjustsImageWhenDisabled", default: true))))
    if let type = element["buttonType"].flatMap({ Self.buttonTypes[$0] }), type != 0 { entries.append(.init("UIButtonType", NibGraph.integer(type))) }
    let fontElement = element.child("fontDescription", key: "fontDescription")
    entries.append(.init("UIFont", .object(font(fontElement ?? InterfaceDocument.Element(name: "fontDescription", attributes: [("type", "system"), ("pointSize", "15")])))))
    if let inset = element.children.first(where: { $0.name == "inset" && $0["key"] == "contentEdgeInsets" }) {
      // Top, left, bottom, right from the document's minY, minX, maxY, maxX.
      let values = [inset.double("minY") ?? 0, inset.double("minX") ?? 0, inset.double("maxY") ?? 0, inset.double("maxX") ?? 0]
      entries.append(.init("UIContentEdgeInsets", Self.geometry(values)))
    }
    return entries
  }

  mutating func stackViewEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    let arranged = (element.child("subviews")?.children ?? []).compactMap { $0["id"].flatMap { objectsByID[$0] } }
    let distributions = ["fill": 0, "fillEqually": 1, "fillProportionally": 2, "equalSpacing": 3, "equalCentering": 4]
    let alignments = ["fill": 0, "leading": 1, "top": 1, "firstBaseline": 2, "center": 3, "trailing": 4, "bottom": 4, "lastBaseline": 5]
    return [
      .init("UIStackViewArrangedSubviews", .object(graph.collection("NSArray", arranged))),
      .init("UIStackViewAxis", NibGraph.integer(element["axis"] == "vertical" ? 1 : 0)),
      .init("UIStackViewDistribution", NibGraph.integer(element["distribution"].flatMap { distributions[$0] } ?? 0)),
      .init("UIStackViewAlignment", NibGraph.integer(element["alignment"].flatMap { alignments[$0] } ?? 0)),
      .init("UIStackViewSpacing", .float64(element.double("spacing") ?? 0)),
      .init("UIStackViewBaselineRelative", .bool(element.flag("baselineRelativeArrangement"))),
      .init("UIStackViewLayoutMarginsRelative", .bool(element.flag("layoutMarginsFollowReadableWidth") || element.flag("layoutMarginsRelativeArrangement"))),
    ]
  }

  static let borderStyles = ["none": 0, "line": 1, "bezel": 2, "roundedRect": 3]

  mutating func textFieldEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries = controlEntries(element)
    if let text = element["text"] { entries.append(.init("UIText", .object(graph.string(text)))) }
    let fontElement = element.child("fontDescription", key: "fontDescription")
    entries.append(.init("UIFont", .object(font(fontElement ?? InterfaceDocument.Element(name: "fontDescription", attributes: [("type", "system"), ("pointSize", "14")])))))
    if let placeholder = element["placeholder"] { entries.append(.init("UIPlaceholder", .object(graph.string(placeholder)))) }
    entries.append(.init("UITextAlignment", NibGraph.integer(element["textAlignment"].flatMap { Self.textAlignments[$0] } ?? 0)))
    // The default text colour: UIKit's black, written as RGB by Xcode 7.
    let black: [(name: String, value: String)] =
      options.xcode < 800 ? [("red", "0"), ("green", "0"), ("blue", "0"), ("alpha", "1")] : [("cocoaTouchSystemColor", "blackColor")]
    let textColor = color(element, key: "textColor") ?? color(InterfaceDocument.Element(name: "color", attributes: black))
    if let textColor { entries.append(.init("UITextColor", .object(textColor))) }
    entries.append(.init("UIBorderStyle", NibGraph.integer(element["borderStyle"].flatMap { Self.borderStyles[$0] } ?? 0)))
    entries.append(.init("UIAdjustsFontSizeToFit", .bool(element.flag("adjustsFontSizeToFit", default: true))))
    entries.append(.init("UIMinimumFontSize", .float32(Float(element.double("minimumFontSize") ?? 0))))
    entries.append(.init("UIClearButtonOffset", Self.geometry([3, 1])))
    entries += textInputTraits(element)
    if options.xcode >= 800 { entries.append(.init("UIDisableTextColorUpdateOnTraitCollectionChange", .bool(true))) }
    return entries
  }

  static let keyboardTypes = [
    "default": 0, "alphabet": 1, "numbersAndPunctuation": 2, "URL": 3, "numberPad": 4, "phonePad": 5, "namePhonePad": 6,
    "emailAddress": 7, "decimalPad": 8, "twitter": 9, "webSearch": 10, "asciiCapableNumberPad": 11,
  ]
  static let returnKeyTypes = [
    "default": 0, "go": 1, "google": 2, "join": 3, "next": 4, "route": 5, "search": 6, "send": 7, "yahoo": 8, "done": 9,
    "emergencyCall": 10, "continue": 11,
  ]

  /// `<textInputTraits>`: keyboard and return key, autocorrection, … when not the default.
  mutating func textInputTraits(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    guard let traits = element.child("textInputTraits") else { return [] }
    var entries: [NibGraph.Entry] = []
    let autocapitalization = ["none": 0, "words": 1, "sentences": 2, "allCharacters": 3]
    if let value = traits["autocapitalizationType"].flatMap({ autocapitalization[$0] }) { entries.append(.init("UIAutocapitalizationType", NibGraph.integer(value))) }
    if let value = traits["autocorrectionType"] { entries.append(.init("UIAutocorrectionType", NibGraph.integer(value == "no" ? 1 : value == "yes" ? 2 : 0))) }
    if let value = traits["spellCheckingType"] { entries.append(.init("UISpellCheckingType", NibGraph.integer(value == "no" ? 1 : value == "yes" ? 2 : 0))) }
    if let value = traits["keyboardType"].flatMap({ Self.keyboardTypes[$0] }) { entries.append(.init("UIKeyboardType", NibGraph.integer(value))) }
    if let value = traits["keyboardAppearance"] { entries.append(.init("UIKeyboardAppearance", NibGraph.integer(value == "alert" || value == "dark" ? 1 : value == "light" ? 2 : 0))) }
    if let value = traits["returnKeyType"].flatMap({ Self.returnKeyTypes[$0] }) { entries.append(.init("UIReturnKeyType", NibGraph.integer(value))) }
    if traits.flag("enablesReturnKeyAutomatically") { entries.append(.init("UIEnablesReturnKeyAutomatically", .bool(true))) }
    if traits.flag("secureTextEntry") { entries.append(.init("UISecureTextEntry", .bool(true))) }
    return entries
  }

  static let mapTypes = ["standard": 0, "satellite": 1, "hybrid": 2, "satelliteFlyover": 3, "hybridFlyover": 4, "mutedStandard": 5]

  /// `MKMapView`: its map type and the enabled interactions (MapKit's keys).
  mutating func mapViewEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    [
      .init("MKDelegate", .null), .init("MKMapType", NibGraph.integer(element["mapType"].flatMap { Self.mapTypes[$0] } ?? 0)),
      .init("MKZoomEnabled", .bool(element.flag("zoomEnabled", default: true))), .init("MKScrollEnabled", .bool(element.flag("scrollEnabled", default: true))),
      .init("MKShowsUserLocation", .bool(element.flag("showsUserLocation"))), .init("MKPitchEnabled", .bool(element.flag("pitchEnabled", default: true))),
      .init("MKRotateEnabled", .bool(element.flag("rotateEnabled", default: true))),
      .init("MKShowsPointsOfInterest", .bool(element.flag("showsPointsOfInterest", default: true))),
      .init("MKShowsBuildings", .bool(element.flag("showsBuildings", default: true))), .init("MKShowsTraffic", .bool(element.flag("showsTraffic"))),
      .init("MKShowsCompass", .bool(element.flag("showsCompass", default: true))), .init("MKShowsScaleKey", .bool(element.flag("showsScale"))),
    ]
  }
}
