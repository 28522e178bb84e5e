import Interface

/// Views: UIView's keys in the order UIKit's encoder writes them, then each class's own.
extension UIKitNibCompiler {
  static let classNames: [String: String] = UIKitElementClasses.shared.merging([
    "mapView": "MKMapView", "webView": "UIWebView", "wkWebView": "WKWebView", "glkView": "GLKView",
    "tapGestureRecognizer": "UITapGestureRecognizer", "panGestureRecognizer": "UIPanGestureRecognizer",
    "pinchGestureRecognizer": "UIPinchGestureRecognizer", "swipeGestureRecognizer": "UISwipeGestureRecognizer",
    "rotationGestureRecognizer": "UIRotationGestureRecognizer",
    "pongPressGestureRecognizer": "UILongPressGestureRecognizer",
    "longPressGestureRecognizer": "UILongPressGestureRecognizer",
    "screenEdgePanGestureRecognizer": "UIScreenEdgePanGestureRecognizer",
    "collectionViewFlowLayout": "UICollectionViewFlowLayout",
  ]) { shared, _ in shared }


  /// The class of an object element: known ones by table, others that look like objects (an id
  /// and a frame) as `UI` + the element's name.
  static func className(of element: InterfaceDocument.Element) -> String? {
    if let known = classNames[element.name] { return known }
    guard element["id"] != nil, element.child("rect", key: "frame") != nil, let first = element.name.first else { return nil }
    return "UI" + first.uppercased() + element.name.dropFirst()
  }

  static let nonViews: Set<String> = [
    "viewController", "tableViewController", "collectionViewController", "navigationController", "tabBarController",
    "navigationItem", "barButtonItem", "tabBarItem", "customObject", "tapGestureRecognizer", "panGestureRecognizer",
    "pinchGestureRecognizer", "swipeGestureRecognizer", "rotationGestureRecognizer", "longPressGestureRecognizer",
    "screenEdgePanGestureRecognizer", "collectionViewFlowLayout",
  ]

  static func isView(_ element: InterfaceDocument.Element) -> Bool { !nonViews.contains(element.name) }

  /// UIView's keys and the subclasses' ones, in the order UIKit writes them (Xcode 9 and later,
  /// from the pairs: a key never follows one listed after it). `UIRestorationIdentifier` (the
  /// key UIView's decoder reads, as UIViewController's) has no sample among the pairs — no
  /// corpus document gives a view a restoration identifier —, so its place after the tint colour
  /// is not Apple's checked order; the loader reads it wherever it is.
  static let keyOrder: [String] = [
    "UIBounds", "UICenter", "UISubviews", "UIBackgroundColor", "UIDeepDrawRect", "UIOpaque", "UIMultipleTouchEnabled",
    "UIHidden", "UIUserInteractionDisabled", "UITag", "UIAutoresizeSubviews", "UIAutoresizingMask", "UIAlpha", "UIContentMode",
    "UIClipsToBounds", "UIViewDoesNotTranslateAutoresizingMaskIntoConstraints", "UIClearsContextBeforeDrawing", "UITintColor",
    "UIRestorationIdentifier",
    "UIViewAutolayoutConstraints", "UIViewContentHuggingPriority", "UIViewLayoutMargins",
    "UIViewContentCompressionResistancePriority", "UIViewPreservesSuperviewMargins", "UIViewLayoutGuides",
    "UIViewPreservesSpecificSuperviewMargins", "UIViewSemanticContentAttribute", "UIViewLargeContentStoredProperties",
  ]
  static let keyRank: [String: Int] = Dictionary(uniqueKeysWithValues: keyOrder.enumerated().map { ($1, $0) })

  static let autoresizingBits: [(String, Int)] = [
    ("flexibleMinX", 1), ("widthSizable", 2), ("flexibleMaxX", 4), ("flexibleMinY", 8), ("heightSizable", 16), ("flexibleMaxY", 32),
  ]

  static let contentModes = [
    "scaleToFill", "scaleAspectFit", "scaleAspectFill", "redraw", "center", "top", "bottom", "left", "right", "topLeft",
    "topRight", "bottomLeft", "bottomRight",
  ]

  /// A view's keys: UIView's (geometry, subviews, colour, flags, constraints, priorities), then
  /// its class's (``classEntries(_:object:)``).
  mutating func viewEntries(_ element: InterfaceDocument.Element, object: Int) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var base: [String: NIBArchive.Payload] = [:]
    let frame = element.child("rect", key: "frame")
    // A view without a frame in the document (Interface Builder left it to Auto Layout) is
    // laid out 1000 × 1000 at the origin by ibtool (seen on labels of several pairs).
    var (x, y) = (frame?.double("x") ?? 0, frame?.double("y") ?? 0)
    var (width, height) = (frame?.double("width") ?? 1000, frame?.double("height") ?? 1000)
    if isSizeClassCanvas(element) { (x, y, width, height) = (0, 0, 600, 600) }
    // A prototype cell is the top of its own nib, at the origin (MPSurvey's, Xcode 7.3.1).
    if Self.cells.contains(element.name), superviews.isEmpty { (x, y) = (0, 0) }
    base["UIBounds"] = Self.geometry([0, 0, width, height])
    base["UICenter"] = Self.geometry([x + width / 2, y + height / 2])
    var ownMargins = layoutMargins(element)
    if element.flag("preservesSuperviewLayoutMargins"), let parent = superviews.last, let inherited = margins[parent] {
      // Preserved superview margins: the larger of the view's and its superview's, edge by edge.
      ownMargins = zip(ownMargins, inherited).map { max($0, $1) }
    }
    margins[object] = ownMargins
    superviews.append(object)
    var subviews: [Int] = []
    var contentView: Int?
    if Self.cells.contains(element.name), let content = element.children.first(where: { $0["key"] == "contentView" }) {
      let view = element.name == "tableViewCell" ? try tableCellContentView(content, cell: element) : try cellContentView(content, cell: element)
      contentView = view
      subviews.append(view)
      if element.name == "tableViewCell" { subviews.append(tableCellSeparator(cellWidth: width, cellHeight: height)) }
    }
    for child in element.child("subviews")?.children ?? [] {
      if let view = try compileObject(child) { subviews.append(view) }
    }
    // A static table's cells (`dataMode="static"`): no Apple-compiled sample shows how ibtool
    // archives them; they are compiled as the table's subviews, so that their outlets connect.
    for section in element.child("sections")?.children ?? [] where section.name == "tableViewSection" {
      for cell in section.child("cells")?.children ?? [] {
        if let view = try compileObject(cell) { subviews.append(view) }
      }
    }
    superviews.removeLast()
    if !subviews.isEmpty { base["UISubviews"] = .object(graph.collection("NSMutableArray", subviews)) }
    // A stack view draws nothing: its background colour is not archived.
    if element.name != "stackView", let color = color(element, key: "backgroundColor") {
      base["UIBackgroundColor"] = .object(color)
    }
    if element.name == "tableView", Self.isWhiteOrAbsent(element.children.first { $0.name == "color" && $0["key"] == "backgroundColor" }),
      let color = color(InterfaceDocument.Element(name: "color", attributes: [("cocoaTouchSystemColor", "tableBackgroundColor")]))
    {
      // A table view without a colour, or white (its default as Interface Builder shows it), has
      // UIKit's table background colour, by name (every table of the pairs).
      base["UIBackgroundColor"] = .object(color)
    }
    if options.xcode >= 800 { base["UIDeepDrawRect"] = .bool(true) }
    // A stack view is always written opaque (146 of 146 in the pairs, whatever the document says).
    if element.flag("opaque", default: true) || element.name == "stackView" { base["UIOpaque"] = .bool(true) }
    if element.flag("multipleTouchEnabled") { base["UIMultipleTouchEnabled"] = .bool(true) }
    if element.flag("hidden") { base["UIHidden"] = .bool(true) }
    if !element.flag("userInteractionEnabled", default: true) { base["UIUserInteractionDisabled"] = .bool(true) }
    if let tag = element.wholeNumber("tag"), tag != 0 { base["UITag"] = NibGraph.integer(tag) }
    // A float, written after the autoresizing keys (MPSurvey's labels and cells, Xcode 7.3.1;
    // no xib pair has a translucent view).
    if let alpha = element.double("alpha"), alpha != 1 { base["UIAlpha"] = .float32(Float(alpha)) }
    if element.flag("autoresizesSubviews", default: true) { base["UIAutoresizeSubviews"] = .bool(true) }
    var mask = 36
    // A view laid out by its constraints keeps the default mask whatever the document says
    // (one sample: MPNotification's image view, widthSizable and heightSizable, written 36;
    // no xib pair has such a view with another mask).
    if let maskElement = element.child("autoresizingMask", key: "autoresizingMask"), element["translatesAutoresizingMaskIntoConstraints"] != "NO" {
      mask = Self.autoresizingBits.reduce(0) { $0 | (maskElement.flag($1.0) ? $1.1 : 0) }
    }
    if mask != 0 { base["UIAutoresizingMask"] = NibGraph.integer(mask) }
    if let mode = element["contentMode"].flatMap({ Self.contentModes.firstIndex(of: $0) }), mode != 0 {
      base["UIContentMode"] = NibGraph.integer(mode)
    }
    if element.flag("clipsSubviews") { base["UIClipsToBounds"] = .bool(true) }
    if element["translatesAutoresizingMaskIntoConstraints"] == "NO" {
      base["UIViewDoesNotTranslateAutoresizingMaskIntoConstraints"] = .bool(true)
    }
    if !element.flag("clearsContextBeforeDrawing", default: true) { base["UIClearsContextBeforeDrawing"] = .bool(false) }
    if let tint = color(element, key: "tintColor") { base["UITintColor"] = .object(tint) }
    // State restoration finds a view by this identifier under its controller's view.
    if let restoration = element["restorationIdentifier"], !restoration.isEmpty {
      base["UIRestorationIdentifier"] = .object(graph.string(restoration))
    }
    // A switch hugs at 750 by default (not written when the document says so); a slider's own
    // default is not 250, and Interface Builder's 250 is always written (every pair).
    let defaultHugging = element.name == "switch" ? 750 : 250
    let hugging = (
      element.wholeNumber("horizontalHuggingPriority") ?? defaultHugging, element.wholeNumber("verticalHuggingPriority") ?? defaultHugging
    )
    if hugging != (defaultHugging, defaultHugging) || element.name == "slider" { base["UIViewContentHuggingPriority"] = .object(graph.string("{\(hugging.0), \(hugging.1)}")) }
    let resistance = (
      element.wholeNumber("horizontalCompressionResistancePriority") ?? 750, element.wholeNumber("verticalCompressionResistancePriority") ?? 750
    )
    if resistance != (750, 750) {
      base["UIViewContentCompressionResistancePriority"] = .object(graph.string("{\(resistance.0), \(resistance.1)}"))
    }
    let semantic = ["unspecified", "playback", "spatial", "forceLeftToRight", "forceRightToLeft"]
    base["UIViewSemanticContentAttribute"] = NibGraph.integer(element["semanticContentAttribute"].flatMap { semantic.firstIndex(of: $0) } ?? 0)
    let alwaysMargins = element.name == "stackView" || element.name == "mapView" || (element.name == "collectionView" && options.xcode >= 900)
    if alwaysMargins || element.child("edgeInsets", key: "layoutMargins") != nil {
      base["UIViewLayoutMargins"] = Self.geometry(layoutMargins(element))
    }
    if element.flag("preservesSuperviewLayoutMargins") {
      base["UIViewPreservesSuperviewMargins"] = .bool(true)
      // Xcode 9 added the edges preserved: all four (top 1, left 2, bottom 4, right 8).
      if options.xcode >= 900 { base["UIViewPreservesSpecificSuperviewMargins"] = NibGraph.integer(15) }
    }
    if options.xcode >= 1100 { base["UIViewLargeContentStoredProperties"] = .null }
    for guide in element.children("viewLayoutGuide") {
      if let id = guide["id"] { layoutGuides[id] = (object, guide["key"] ?? "") }
    }
    if element.flag("fixedFrame"), element["translatesAutoresizingMaskIntoConstraints"] == "NO", let superview = superviews.last,
      document.root.flag("useAutolayout")
    {
      fixedFrames.append((object, superview, [x, y, width, height]))
    }
    if let list = element.child("constraints"), let id = element["id"] {
      // A cell's constraints are its content view's, the cell standing for the content view.
      if let contentView { constraintItems[id] = contentView }
      deferredConstraints.append((list, contentView ?? object, id))
    }
    var entries = Self.keyOrder.compactMap { key in base[key].map { NibGraph.Entry(key, $0) } }
    entries += try classEntries(element, object: object)
    if element.name == "tableViewCell" {
      entries += tableViewCellEntries(element, contentView: contentView)
    } else if let contentView {
      entries.append(.init("UIContentView", .object(contentView)))
    }
    return entries
  }

  static let cells: Set<String> = ["collectionViewCell", "tableViewCell", "collectionReusableView"]

  /// A cell's content view: made by the cell, so the document's attributes of it are not
  /// archived (one pair: YPImagePicker's gallery cell, whose content view says not opaque,
  /// clipping, multiple touch, and is written with none of these): its frame, subviews, the
  /// cell's constraints and UIView's fixed keys.
  mutating func cellContentView(_ content: InterfaceDocument.Element, cell: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    let view = graph.add(Self.classNames[content.name] ?? "UIView")
    try register(view, content)
    margins[view] = [8, 8, 8, 8]
    superviews.append(view)
    var subviews: [Int] = []
    for child in content.child("subviews")?.children ?? [] {
      if let subview = try compileObject(child) { subviews.append(subview) }
    }
    superviews.removeLast()
    let frame = content.child("rect", key: "frame")
    let (x, y) = (frame?.double("x") ?? 0, frame?.double("y") ?? 0)
    let (width, height) = (frame?.double("width") ?? 1000, frame?.double("height") ?? 1000)
    var entries: [NibGraph.Entry] = [.init("UIBounds", Self.geometry([0, 0, width, height])), .init("UICenter", Self.geometry([x + width / 2, y + height / 2]))]
    if !subviews.isEmpty { entries.append(.init("UISubviews", .object(graph.collection("NSMutableArray", subviews)))) }
    if options.xcode >= 800 { entries.append(.init("UIDeepDrawRect", .bool(true))) }
    entries += [.init("UIOpaque", .bool(true)), .init("UIAutoresizeSubviews", .bool(true)), .init("UIViewSemanticContentAttribute", NibGraph.integer(0))]
    if options.xcode >= 1100 { entries.append(.init("UIViewLargeContentStoredProperties", .null)) }
    graph[view].entries = entries
    // The cell's safe area is its content view's, made whether constraints use it or not, and
    // not listed among the nib's objects.
    for guide in cell.children("viewLayoutGuide") {
      guard let id = guide["id"] else { continue }
      layoutGuides[id] = (view, guide["key"] ?? "")
      if guide["key"] == "safeArea", !options.withoutSafeAreaGuides {
        guideObjects[id] = layoutGuide(owner: view, key: "safeArea", listed: false)
      }
    }
    return view
  }

  /// Whether a top-level view is archived at the 600 × 600 "any size" canvas of size classes:
  /// before iOS 9 (a deployment target below 9.0), in a document using trait collections, a
  /// top-level view Interface Builder sizes for a simulated screen (not freeform) is written at
  /// 600 × 600 whatever size the document shows, its subviews where the document has them
  /// (calabash's, mixpanel's pairs built for iOS 8).
  func isSizeClassCanvas(_ element: InterfaceDocument.Element) -> Bool {
    guard let target = options.deploymentTarget, target.major < 9, superviews.isEmpty, document.root.flag("useTraitCollections"),
      document.objects.contains(where: { $0["id"] != nil && $0["id"] == element["id"] })
    else { return false }
    return !element.children.contains { $0.name == "freeformSimulatedSizeMetrics" && $0["key"] == "simulatedDestinationMetrics" }
  }

  /// Whether a `<color>` is absent or opaque white (grey or RGB).
  static func isWhiteOrAbsent(_ color: InterfaceDocument.Element?) -> Bool {
    guard let color else { return true }
    guard color["cocoaTouchSystemColor"] == nil, color["systemColor"] == nil, color["name"] == nil else { return false }
    let alpha = color.double("alpha") ?? 1
    if let white = color.double("white") { return white == 1 && alpha == 1 }
    return color.double("red") == 1 && color.double("green") == 1 && color.double("blue") == 1 && alpha == 1
  }

  /// The view's layout margins (top, left, bottom, right): its `<edgeInsets key="layoutMargins">`,
  /// or UIKit's default of 8 on every side (a stack view: 0).
  func layoutMargins(_ element: InterfaceDocument.Element) -> [Double] {
    if let insets = element.child("edgeInsets", key: "layoutMargins") {
      return [insets.double("top") ?? 0, insets.double("left") ?? 0, insets.double("bottom") ?? 0, insets.double("right") ?? 0]
    }
    return element.name == "stackView" || element.name == "mapView" ? [0, 0, 0, 0] : [8, 8, 8, 8]
  }

  /// Objects that are not views (custom objects, gesture recognizers, items): their class's keys.
  mutating func plainObjectEntries(_ element: InterfaceDocument.Element, object: Int) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    try classEntries(element, object: object)
  }
}
