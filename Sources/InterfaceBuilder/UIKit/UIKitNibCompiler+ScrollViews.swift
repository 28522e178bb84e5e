import Interface

/// Scroll views and their subclasses: table, collection and text views.
extension UIKitNibCompiler {
  static let insetAdjustments = ["automatic": 0, "scrollableAxes": 1, "never": 2, "always": 3]
  static let separatorStyles = ["none": 0, "default": 1, "singleLine": 1, "singleLineEtched": 2]

  mutating func scrollViewEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let inset = element.child("inset", key: "scrollIndicatorInsets") {
      // Top, left, bottom, right from minY, minX, maxY, maxX (MPSurvey's table, Xcode 7.3.1).
      let values = [inset.double("minY") ?? 0, inset.double("minX") ?? 0, inset.double("maxY") ?? 0, inset.double("maxX") ?? 0]
      entries.append(.init("UIScrollIndicatorInsets", Self.geometry(values)))
    }
    if !element.flag("showsHorizontalScrollIndicator", default: true) { entries.append(.init("UIShowsHorizontalScrollIndicator", .bool(false))) }
    if !element.flag("showsVerticalScrollIndicator", default: true) { entries.append(.init("UIShowsVerticalScrollIndicator", .bool(false))) }
    if element.flag("pagingEnabled") { entries.append(.init("UIPagingEnabled", .bool(true))) }
    if !element.flag("scrollEnabled", default: true) { entries.append(.init("UIScrollDisabled", .bool(true))) }
    if !element.flag("bounces", default: true) { entries.append(.init("UIBounceEnabled", .bool(false))) }
    entries.append(.init("UIBouncesZoom", .bool(element.flag("bouncesZoom", default: true))))
    if element.flag("alwaysBounceVertical") { entries.append(.init("UIAlwaysBounceVertical", .bool(true))) }
    if element.flag("alwaysBounceHorizontal") { entries.append(.init("UIAlwaysBounceHorizontal", .bool(true))) }
    // Xcode 7 and 8 wrote a table's content size too (its width, height 0).
    if element.name == "collectionView" || element.name == "textView" || (element.name == "tableView" && options.xcode < 900) {
      // The content size along the scrolling axis is 0, the other the view's size.
      let frame = element.child("rect", key: "frame")
      let horizontal = element.child("collectionViewFlowLayout")?["scrollDirection"] == "horizontal"
      var size = horizontal ? [0, frame?.double("height") ?? 1000] : [frame?.double("width") ?? 1000, 0]
      if element.name == "textView", (element["text"] ?? "").isEmpty {
        // ibtool lays out an empty text view: one line of its font (the system font's line is
        // 1.193 times its size, rounded up) inside the 8-point text container insets. One
        // sample: MPSurvey's 15-point text view, 34 high (Xcode 7.3.1).
        let points = element.child("fontDescription", key: "fontDescription")?.double("pointSize") ?? 14
        size[1] = 16 + (points * 1.193).rounded(.up)
      }
      entries.append(.init("UIContentSize", Self.geometry(size)))
    }
    if options.xcode >= 900 {
      let behavior = element["contentInsetAdjustmentBehavior"].flatMap { Self.insetAdjustments[$0] } ?? 0
      entries.append(.init("UIScrollViewContentInsetAdjustmentBehavior", NibGraph.integer(behavior)))
    }
    switch element.name {
    case "tableView": entries += try tableViewEntries(element)
    case "collectionView": entries += try collectionViewEntries(element)
    case "textView": entries += textViewEntries(element)
    default: break
    }
    entries += try prototypeEntries(element)
    return entries
  }

  mutating func tableViewEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if element["style"] == "grouped" { entries.append(.init("UIStyle", NibGraph.integer(1))) }
    let separator = element["separatorStyle"].flatMap { Self.separatorStyles[$0] } ?? 1
    if separator == 0 {
      // No separators: only the iOS 9 key (MPSurvey's table, Xcode 7.3.1; every xib pair's
      // table has the default style, written under both older keys).
      entries.append(.init("UISeparatorStyleIOS9AndLater", NibGraph.integer(0)))
    } else {
      entries.append(.init("UISeparatorStyle", NibGraph.integer(separator)))
      entries.append(.init("UISeparatorStyleIOS5AndLater", NibGraph.integer(separator)))
    }
    // Xcode 7 wrote the separator colour last (MPSurvey's table, Xcode 7.3.1).
    let separatorColor = color(element, key: "separatorColor").map { NibGraph.Entry("UISeparatorColor", .object($0)) }
    if options.xcode >= 800, let separatorColor { entries.append(separatorColor) }
    // Before Xcode 9 only a row height other than UIKit's 44 was written.
    let rowHeight = element.double("rowHeight") ?? 44
    if options.xcode >= 900 || rowHeight != 44 { entries.append(.init("UIRowHeight", .float32(Float(rowHeight)))) }
    entries.append(.init("UISectionHeaderHeight", .float32(Float(element.double("sectionHeaderHeight") ?? 22))))
    entries.append(.init("UISectionFooterHeight", .float32(Float(element.double("sectionFooterHeight") ?? 22))))
    if options.xcode >= 900 {
      entries.append(.init("UIEstimatedRowHeight", .float32(Float(element.double("estimatedRowHeight") ?? 0))))
      entries.append(.init("UIEstimatedSectionHeaderHeight", .float32(Float(element.double("estimatedSectionHeaderHeight") ?? 0))))
      entries.append(.init("UIEstimatedSectionFooterHeight", .float32(Float(element.double("estimatedSectionFooterHeight") ?? 0))))
      entries.append(.init("UIInsetsContentViewsToSafeArea", .bool(element.flag("insetsContentViewsToSafeArea", default: true))))
      entries.append(.init("UISeparatorInsetReference", NibGraph.integer(element["separatorInsetReference"] == "fromAutomaticInsets" ? 1 : 0)))
    }
    if options.xcode < 800 { entries.append(.init("UIShowsSelectionImmediatelyOnTouchBegin", .bool(true))) }
    if options.xcode < 800, let separatorColor { entries.append(separatorColor) }
    // Header and footer views: the keys UIKit's decoder reads (no Apple-compiled sample).
    for (key, name) in [("tableHeaderView", "UITableHeaderView"), ("tableFooterView", "UITableFooterView")] {
      if let child = element.children.first(where: { $0["key"] == key }), let view = try compileObject(child) {
        entries.append(.init(name, .object(view)))
      }
    }
    return entries
  }

  /// A collection view: its layout (`UICollectionLayout`, a flow layout with its spacing, item
  /// size and section inset when not UIKit's defaults of 10, 10, 50 × 50 and zero).
  mutating func collectionViewEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let layout = element.child("collectionViewFlowLayout") {
      var keys: [NibGraph.Entry] = []
      let interitem = layout.double("minimumInteritemSpacing") ?? 10, line = layout.double("minimumLineSpacing") ?? 10
      let size = layout.child("size", key: "itemSize")
      let item = [size?.double("width") ?? 50, size?.double("height") ?? 50]
      if interitem != 10 || line != 10 || item != [50, 50] {
        keys += [
          .init("UIInteritemSpacing", .float32(Float(interitem))), .init("UILineSpacing", .float32(Float(line))),
          .init("UIItemSize", Self.geometry(item)),
        ]
      }
      if let inset = layout.child("inset", key: "sectionInset") {
        let values = [inset.double("minY") ?? 0, inset.double("minX") ?? 0, inset.double("maxY") ?? 0, inset.double("maxX") ?? 0]
        if values != [0, 0, 0, 0] { keys.append(.init("UISectionInset", Self.geometry(values))) }
      }
      if layout["scrollDirection"] == "horizontal" { keys.append(.init("UIScrollDirection", NibGraph.integer(1))) }
      let object = graph.add("UICollectionViewFlowLayout", keys)
      try register(object, layout)
      objects.append(object)
      entries.append(.init("UICollectionLayout", .object(object)))
    }
    if options.xcode >= 800 { entries.append(.init("UICollectionViewPrefetchingEnabled", .bool(element.flag("prefetchingEnabled", default: true)))) }
    return entries
  }

  /// A text view's text, font, colour, alignment and text input traits (MPSurvey's, Xcode 7.3.1:
  /// the font and alignment always, the colour when given; UITextView's own default
  /// capitalization, sentences, not written). Its editing flags are the keys UIKit's decoder
  /// reads (no Apple sample).
  mutating func textViewEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let text = element["text"] { entries.append(.init("UIText", .object(graph.string(text)))) }
    let fontElement = element.child("fontDescription", key: "fontDescription")
    entries.append(.init("UIFont", .object(font(fontElement ?? InterfaceDocument.Element(name: "fontDescription", attributes: [("type", "system"), ("pointSize", "14")])))))
    if let textColor = color(element, key: "textColor") { entries.append(.init("UITextColor", .object(textColor))) }
    entries.append(.init("UITextAlignment", NibGraph.integer(element["textAlignment"].flatMap { Self.textAlignments[$0] } ?? 0)))
    if !element.flag("editable", default: true) { entries.append(.init("UIEditable", .bool(false))) }
    if !element.flag("selectable", default: true) { entries.append(.init("UISelectable", .bool(false))) }
    entries += textInputTraits(element).filter { entry in
      !(entry.key == "UIAutocapitalizationType" && element.child("textInputTraits")?["autocapitalizationType"] == "sentences")
    }
    return entries
  }
}
