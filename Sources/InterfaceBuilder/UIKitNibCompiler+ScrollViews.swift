import Interface

/// Scroll views and their subclasses: table, collection and text views.
extension UIKitNibCompiler {
  static let insetAdjustments = ["automatic": 0, "scrollableAxes": 1, "never": 2, "always": 3]
  static let separatorStyles = ["none": 0, "default": 1, "singleLine": 1, "singleLineEtched": 2]

  mutating func scrollViewEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
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
      let size = horizontal ? [0, frame?.double("height") ?? 1000] : [frame?.double("width") ?? 1000, 0]
      entries.append(.init("UIContentSize", Self.geometry(size)))
    }
    if options.xcode >= 900 {
      let behavior = element["contentInsetAdjustmentBehavior"].flatMap { Self.insetAdjustments[$0] } ?? 0
      entries.append(.init("UIScrollViewContentInsetAdjustmentBehavior", NibGraph.integer(behavior)))
    }
    switch element.name {
    case "tableView": entries += tableViewEntries(element)
    case "collectionView": entries += try collectionViewEntries(element)
    default: break
    }
    return entries
  }

  mutating func tableViewEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if element["style"] == "grouped" { entries.append(.init("UIStyle", NibGraph.integer(1))) }
    let separator = element["separatorStyle"].flatMap { Self.separatorStyles[$0] } ?? 1
    entries.append(.init("UISeparatorStyle", NibGraph.integer(separator)))
    entries.append(.init("UISeparatorStyleIOS5AndLater", NibGraph.integer(separator)))
    if let color = color(element, key: "separatorColor") { entries.append(.init("UISeparatorColor", .object(color))) }
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
}
