import Interface

/// A view frame as the compiler computes it.
struct ViewRect: Equatable {
  var x: Double, y: Double, width: Double, height: Double
}

extension InterfaceDocument.Element {
  /// The element with its `<rect key="frame">` replaced by `frame` (added when missing).
  func withFrame(_ frame: ViewRect) -> InterfaceDocument.Element {
    var copy = self
    let rect = InterfaceDocument.Element(
      name: "rect",
      attributes: [
        ("key", "frame"), ("x", CocoaNibCompiler.geometryNumber(frame.x)), ("y", CocoaNibCompiler.geometryNumber(frame.y)),
        ("width", CocoaNibCompiler.geometryNumber(frame.width)), ("height", CocoaNibCompiler.geometryNumber(frame.height)),
      ],
      line: line)
    if let index = copy.children.firstIndex(where: { $0.name == "rect" && $0["key"] == "frame" }) {
      copy.children[index] = rect
    } else {
      copy.children.insert(rect, at: 0)
    }
    return copy
  }

  /// The `<rect key="frame">`, or a zero rect.
  var frameRect: ViewRect {
    guard let rect = child("rect", key: "frame") else { return ViewRect(x: 0, y: 0, width: 0, height: 0) }
    return ViewRect(x: rect.double("x") ?? 0, y: rect.double("y") ?? 0, width: rect.double("width") ?? 0, height: rect.double("height") ?? 0)
  }

  /// The element with `frame` and its subviews moved and resized by their autoresizing masks
  /// the way AppKit resizes subviews when their superview's size changes.
  func resized(to frame: ViewRect) -> InterfaceDocument.Element {
    let old = frameRect
    var copy = withFrame(frame)
    guard (old.width != frame.width || old.height != frame.height), flag("autoresizesSubviews", default: true),
      let index = copy.children.firstIndex(where: { $0.name == "subviews" })
    else { return copy }
    copy.children[index].children = copy.children[index].children.map { subview in
      subview.resized(to: subview.autoresized(oldSuper: (old.width, old.height), newSuper: (frame.width, frame.height)))
    }
    return copy
  }

  /// This view's frame after its superview went from `oldSuper` to `newSuper` (AppKit's
  /// `resizeWithOldSuperviewSize:`: the change is shared between the flexible margins and size
  /// in proportion to their current lengths).
  func autoresized(oldSuper: (Double, Double), newSuper: (Double, Double)) -> ViewRect {
    var frame = frameRect
    guard let mask = child("autoresizingMask", key: "autoresizingMask") else { return frame }
    func axis(_ origin: inout Double, _ size: inout Double, old: Double, new: Double, minFlex: Bool, sizeFlex: Bool, maxFlex: Bool) {
      let delta = new - old
      guard delta != 0, minFlex || sizeFlex || maxFlex else { return }
      let maxMargin = old - origin - size
      var total = 0.0
      if minFlex { total += origin }
      if sizeFlex { total += size }
      if maxFlex { total += maxMargin }
      if total > 0 {
        let originShare = minFlex ? delta * origin / total : 0
        let sizeShare = sizeFlex ? delta * size / total : 0
        origin += originShare
        size += sizeShare
      } else {
        let count = Double([minFlex, sizeFlex, maxFlex].filter { $0 }.count)
        if minFlex { origin += delta / count }
        if sizeFlex { size += delta / count }
      }
    }
    axis(&frame.x, &frame.width, old: oldSuper.0, new: newSuper.0, minFlex: mask.flag("flexibleMinX"), sizeFlex: mask.flag("widthSizable"), maxFlex: mask.flag("flexibleMaxX"))
    axis(&frame.y, &frame.height, old: oldSuper.1, new: newSuper.1, minFlex: mask.flag("flexibleMinY"), sizeFlex: mask.flag("heightSizable"), maxFlex: mask.flag("flexibleMaxY"))
    return frame
  }
}

extension CocoaNibCompiler {
  /// Scroll views and what lives in them: `<scrollView>`, `<clipView>`, `<scroller>`,
  /// `<tableView>`, `<outlineView>`, `<tableHeaderView>`, `<tableColumn>`, `<tableCellView>`,
  /// `<textView>`.
  mutating func compileScrollingView(
    _ element: InterfaceDocument.Element, parent: Int, superview: Int?
  ) throws(InterfaceBuilderError) -> Int {
    switch element.name {
    case "scrollView": return try compileScrollView(element, parent: parent, superview: superview)
    case "clipView" where superview == nil && element["key"] == "contentView":
      // A window's content view: the content rect's size at the xib's origin.
      guard let size = windowContentSize(containing: element) else { throw unsupported(element, "a <clipView> outside a scroll view or window is not compiled yet") }
      let frame = element.frameRect
      let resized = element.resized(to: ViewRect(x: frame.x, y: frame.y, width: size.0, height: size.1))
      return try compileClipView(resized, parent: parent, scrollView: nil)
    case "textView": return try compileTextView(element, parent: parent, superview: superview)
    case "tableView", "outlineView": return try compileTableView(element, parent: parent, superview: superview)
    default: throw unsupported(element)
    }
  }

  /// The content size of the window whose content view is `element`.
  func windowContentSize(containing element: InterfaceDocument.Element) -> (Double, Double)? {
    element["id"].flatMap { index.windowContentSizes[$0] }
  }

  /// A System catalog color by name.
  mutating func systemColor(_ name: String, line: Int) throws(InterfaceBuilderError) -> Int {
    let element = InterfaceDocument.Element(
      name: "color", attributes: [("name", name), ("catalog", "System"), ("colorSpace", "catalog")], line: line)
    return try color(element)
  }

  // MARK: Scroll views

  static func borderInset(_ element: InterfaceDocument.Element) -> Double {
    switch element["borderType"] ?? "bezel" {
    case "none": 0
    case "groove": 2
    default: 1
    }
  }

  /// The width of a legacy scroller of `controlSize` as AppKit tiles it.
  /// (A small scroller counts 13 beside a table, 17 beside other documents: textview_linkdetection,
  /// outline_cellview.)
  static func scrollerWidth(_ scroller: InterfaceDocument.Element?, table: Bool = true) -> Double {
    scroller?["controlSize"] == "small" && table ? 13 : 17
  }

  /// `<scrollView>` → `NSScrollView` with its clip view, scrollers and (for tables) header clip
  /// view and corner view.
  mutating func compileScrollView(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    let scrollView = try begin(element, className: "NSScrollView", parent: parent)
    let known: Set<String> = ["rect", "autoresizingMask", "clipView", "scroller", "tableHeaderView", "constraints"]
    for child in element.children where !known.contains(child.name) {
      if child.name == "connections" || (child.name == "point" && child["key"] == "canvasLocation") { continue }
      throw unsupported(child)
    }
    for attribute in element.attributes {
      switch attribute.name {
      case "id", "fixedFrame", "translatesAutoresizingMaskIntoConstraints", "horizontalLineScroll", "horizontalPageScroll", "verticalLineScroll",
        "verticalPageScroll", "hasHorizontalScroller", "hasVerticalScroller", "usesPredominantAxisScrolling", "autohidesScrollers", "borderType",
        "focusRingType", "horizontalScrollElasticity", "verticalScrollElasticity", "wantsLayer", "autoresizesSubviews", "hidden", "userLabel",
        "customClass", "customModule", "customModuleProvider":
        break
      case "misplaced", "ambiguous":
        break  // Interface Builder's editor state (a frame that its constraints disagree with); never archived
      default: throw unsupported(element, "<scrollView \(attribute.name)=…> is not compiled yet", attribute: attribute.name)
      }
    }
    guard let clipElement = element.child("clipView", key: "contentView") else { throw invalid(element, "a scroll view needs <clipView key=\"contentView\">") }
    let hElement = element.child("scroller", key: "horizontalScroller")
    let vElement = element.child("scroller", key: "verticalScroller")
    let headerElement = element.child("tableHeaderView", key: "headerView")

    let frame = element.frameRect
    let inset = Self.borderInset(element)
    let hasH = element.flag("hasHorizontalScroller", default: true)
    let hasV = element.flag("hasVerticalScroller", default: true)
    // Overlay scrollers take no room from the clip view (todo/test20_framecalc, whose
    // correct/ twin was compiled with legacy ones: {181, 94} against {164, 77}; and
    // sb_tv_customclass's 480 points beside its scroller; two samples).
    let tiles = options.scrollerStyle == .legacy
    let showsV = hasV && vElement != nil && !(vElement?.flag("hidden") ?? true)
    let showsH = hasH && hElement != nil && !(hElement?.flag("hidden") ?? true)
    let documentElement = clipElement.child("subviews")?.children.first
    let isTable = documentElement?.name == "tableView" || documentElement?.name == "outlineView"
    var clipFrame = ViewRect(
      x: inset, y: inset, width: frame.width - 2 * inset - (tiles && showsV ? Self.scrollerWidth(vElement, table: isTable) : 0),
      height: frame.height - 2 * inset - (tiles && showsH ? Self.scrollerWidth(hElement, table: isTable) : 0))
    let headerHeight = headerElement?.frameRect.height ?? 0
    if clipFrame.width < 0 { clipFrame.width = 0 }
    if clipFrame.height < 0 { clipFrame.height = 0 }

    // The view keys, with the clip view (and its document view) compiled first.
    var entries: [NibGraph.Entry] = []
    entries.append(.init("NSNextResponder", superview.map { .object($0) } ?? .null))
    entries.append(.init("NSNibTouchBar", .null))
    entries.append(.init("NSvFlags", NibGraph.integer(viewFlags(element))))
    let subviewsPosition = entries.count

    // The clip view is tiled from the scroll view; its subviews follow by autoresizing.
    var resizedClip = clipElement.resized(to: clipFrame)
    // A table fills the clip view's height below the header (AppKit tiles an empty table to the
    // visible height: test_6col 148 − 23 = 125, sv_nohs_wide_col 247).
    // A view-based table keeps its xib height (test24_tables_elastic: 47, 52 and 75 in alike clips).
    if isTable, documentElement?.flag("viewBased") != true, let index = resizedClip.children.firstIndex(where: { $0.name == "subviews" }),
      !resizedClip.children[index].children.isEmpty
    {
      var table = resizedClip.children[index].children[0]
      var frame = table.frameRect
      frame.height = clipFrame.height - (headerElement != nil ? headerHeight : 0)
      table = table.withFrame(frame)
      resizedClip.children[index].children[0] = table
    }
    let clip = try compileClipView(resizedClip, parent: scrollView, scrollView: scrollView, headerHeight: headerElement != nil ? headerHeight : nil)

    func placeScroller(_ scroller: InterfaceDocument.Element?, horizontal: Bool) -> InterfaceDocument.Element? {
      guard var scroller else { return nil }
      if isTable, !scroller.flag("hidden") {
        let width = Self.scrollerWidth(scroller)
        if horizontal {
          scroller = scroller.withFrame(ViewRect(x: inset, y: inset + clipFrame.height, width: clipFrame.width, height: width))
        } else {
          let top = headerElement != nil ? headerHeight : 0
          scroller = scroller.withFrame(ViewRect(x: inset + clipFrame.width, y: inset + top, width: width, height: clipFrame.height - top))
        }
      }
      return scroller
    }
    // A table's scroll view that never hides its scrollers (autohidesScrollers="NO") shows a
    // vertical scroller the xib left hidden, over the clip view's right edge: the clip view keeps
    // its width (test17_scrollhiding: {{222, 29}, {17, 105}} beside a 238-point clip view under a
    // 28-point header).
    func overlaidVerticalScroller(_ scroller: InterfaceDocument.Element?) -> InterfaceDocument.Element? {
      guard var scroller, isTable, hasV, element["autohidesScrollers"] == "NO", scroller.flag("hidden") else { return scroller }
      let top = headerElement != nil ? headerHeight : 0
      let width = Self.scrollerWidth(scroller)
      scroller = scroller.withFrame(ViewRect(x: inset + clipFrame.width - width, y: inset + top, width: width, height: clipFrame.height - top))
      scroller.attributes.removeAll { $0.name == "hidden" }
      return scroller
    }
    var horizontal: Int?, vertical: Int?
    // A table wider than its clip view: AppKit's tiling enables the horizontal scroller (and
    // shows it when the scroll view has one, at the overlay width 15 — test_6col) and sets
    // scroll-view flag 0x80 (test_table_uniform_header, sv_nohs_wide_col).
    var contentWidth: Double?
    if isTable, let tableElement = resizedClip.child("subviews")?.children.first {
      let width = try tableLayout(tableElement).width
      if width > clipFrame.width { contentWidth = width }
    }
    // Scrollers without wantsLayer are layer tree hosts with autohiding in documents without
    // autolayout (outline_2col_default, sv_nohs_small_vs; not test_outline_indent, test_table_no_header).
    let layerHost = isTable && element.flag("autohidesScrollers") && document.root["useAutolayout"] != "YES"
    if var placed = placeScroller(hElement, horizontal: true) {
      var percent: Double?
      if let contentWidth, hasH {
        // 15 for a small scroller (test_6col), 17 for a regular one (test24_tables_elastic).
        let height: Double = hElement?["controlSize"] == "small" ? 15 : 17
        placed = placed.withFrame(ViewRect(x: inset, y: inset + clipFrame.height - height, width: clipFrame.width, height: height))
        placed.attributes.removeAll { $0.name == "hidden" }
        percent = clipFrame.width / contentWidth
      }
      horizontal = try compileScroller(
        placed, parent: scrollView, scrollView: scrollView, enabled: contentWidth != nil, percent: percent, layerHost: layerHost)
    }
    if let placed = overlaidVerticalScroller(placeScroller(vElement, horizontal: false)) {
      // A view-based table keeps its height: taller than its clip view (with the header), it
      // enables the vertical scroller (test24_tables_elastic: 75 / (52 + 28), 75 / (75 + 28)).
      var percent: Double?
      if isTable, documentElement?.flag("viewBased") == true, let table = documentElement {
        let documentHeight = table.frameRect.height + (headerElement != nil ? headerHeight : 0)
        if documentHeight > clipFrame.height { percent = clipFrame.height / documentHeight }
      }
      vertical = try compileScroller(
        placed, parent: scrollView, scrollView: scrollView, enabled: percent != nil, percent: percent, layerHost: layerHost)
    }

    var headerClip: Int?
    var corner: Int?
    if let headerElement {
      guard isTable, let tableElement = resizedClip.child("subviews")?.children.first else {
        throw unsupported(headerElement, "a table header view in a scroll view without a table is not compiled yet")
      }
      let tableWidth = try tableLayout(tableElement).width
      let header = try compileTableHeaderView(headerElement, parent: scrollView, width: tableWidth)
      let headerFrame = ViewRect(x: inset, y: inset, width: clipFrame.width, height: headerHeight)
      let clipIndex = graph.add("NSClipView")
      var clipEntries: [NibGraph.Entry] = [
        .init("NSNextResponder", .object(scrollView)), .init("NSNibTouchBar", .null), .init("NSvFlags", .int16(256)),
        .init("NSSubviews", .object(graph.collection("NSMutableArray", [header]))),
      ]
      clipEntries.append(frameEntry(headerFrame))
      clipEntries += [
        .init("NSSuperview", .object(scrollView)), .init("NSNextKeyView", .object(header)),
        .init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)),
      ]
      clipEntries += tailViewEntries(InterfaceDocument.Element(name: "clipView"))
      clipEntries.append(.init("NSDocView", .object(header)))
      clipEntries.append(.init("NSAutomaticallyAdjustsContentInsets", .bool(true)))
      graph[clipIndex].entries = clipEntries
      headerClip = clipIndex
      // The header view lives in the header clip view.
      setEntry(header, "NSNextResponder", .object(clipIndex))
      setEntry(header, "NSSuperview", .object(clipIndex))
      // The table's corner view, when the scroll view shows it: beside the header above a shown
      // vertical scroller (test_table_uniform_header: {{312, 1}, {18, 23}}); with a hidden one
      // it is hidden and keeps the frame it was made with, 17 × 28 at the origin
      // (imagecell_datacell_font, test_single_col_noresize: NSFrameSize {17, 28}).
      if Self.scrollViewShowsCorner(element), let tableObject = graph[clip].entries.first(where: { $0.key == "NSDocView" }),
        case .object(let table) = tableObject.value, let cornerEntry = graph[table].entries.first(where: { $0.key == "NSCornerView" }),
        case .object(let tableCorner) = cornerEntry.value
      {
        let frame =
          showsV
          ? ViewRect(x: inset + clipFrame.width, y: inset, width: Self.scrollerWidth(vElement) + 1, height: headerHeight)
          : ViewRect(x: 0, y: 0, width: 17, height: 28)
        var cornerEntries: [NibGraph.Entry] = [
          .init("NSNextResponder", .object(scrollView)), .init("NSNibTouchBar", .null),
          .init("NSvFlags", NibGraph.integer(showsV ? 256 : Int(bitPattern: 0xFFFF_FFFF_8000_0100))), frameEntry(frame),
          .init("NSSuperview", .object(scrollView)), .init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)),
        ]
        cornerEntries += tailViewEntries(InterfaceDocument.Element(name: "view"))
        graph[tableCorner].entries = cornerEntries
        corner = tableCorner
      }
    }

    var subviews = [clip]
    if let headerClip { subviews.append(headerClip) }
    if let horizontal { subviews.append(horizontal) }
    if let corner { subviews.append(corner) }
    if let vertical { subviews.append(vertical) }
    entries.insert(.init("NSSubviews", .object(graph.collection("NSMutableArray", subviews))), at: subviewsPosition)
    entries.append(frameEntry(frame))
    if let superview { entries.append(.init("NSSuperview", .object(superview))) }
    entries.append(.init("NSNextKeyView", .object(clip)))
    entries.append(.init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)))
    if element["translatesAutoresizingMaskIntoConstraints"] == "NO", let id = element["id"], constrainedIDs.contains(id) {
      entries.append(.init("NSDoNotTranslateAutoresizingMask", .bool(true)))
    }
    if let constraints = element.child("constraints"), !constraints.children.isEmpty {
      var compiled: [Int] = []
      for constraint in constraints.children { compiled.append(try compileConstraint(constraint, owner: scrollView)) }
      entries.append(.init("NSViewConstraints", .object(graph.collection("NSArray", compiled))))
    }
    let pan = graph.add(
      "NSPanGestureRecognizer",
      [
        .init("NSGestureRecognizer.allowedTouchTypes", .int8(1)), .init("NSGestureRecognizer.action", string("_panWithGestureRecognizer:")),
        .init("NSGestureRecognizer.target", .object(scrollView)), .init("NSGestureRecognizer.delegate", .object(scrollView)),
        .init("NSPanGestureRecognizer.buttonMask", .int8(0)), .init("NSPanGestureRecognizer.numberOfTouchesRequired", .int8(1)),
      ])
    entries.append(.init("NSGestureRecognizers", .object(graph.collection("NSArray", [pan]))))
    entries += tailViewEntries(element)

    var flags = 0x20800
    switch element["borderType"] ?? "bezel" {
    case "none": break
    case "line": flags |= 1
    case "bezel": flags |= 2
    case "groove": flags |= 3
    case let other: throw invalid(element, "borderType \"\(other)\" is not none, line, bezel or groove")
    }
    if hasV { flags |= 0x10 }
    if hasH { flags |= 0x20 }
    if element.flag("autohidesScrollers") { flags |= 0x200 }
    if contentWidth != nil { flags |= 0x80 }
    if element.flag("usesPredominantAxisScrolling", default: true) { flags |= 0x10000 }
    let elasticities = ["automatic": 0, "none": 1, "allowed": 2]
    let hElasticity = element["horizontalScrollElasticity"], vElasticity = element["verticalScrollElasticity"]
    if hElasticity != nil || vElasticity != nil {
      guard let h = elasticities[hElasticity ?? "automatic"], let v = elasticities[vElasticity ?? "automatic"] else {
        throw invalid(element, "a scroll elasticity is not automatic, none or allowed")
      }
      flags |= 0x40 | h << 12 | v << 14
    }
    entries.append(.init("NSsFlags", NibGraph.integer(flags)))
    if let vertical { entries.append(.init("NSVScroller", .object(vertical))) }
    if let horizontal { entries.append(.init("NSHScroller", .object(horizontal))) }
    entries.append(.init("NSContentView", .object(clip)))
    if let headerClip { entries.append(.init("NSHeaderClipView", .object(headerClip))) }
    if let corner { entries.append(.init("NSCornerView", .object(corner))) }
    // A table's scroll view scrolls a row (rowHeight + intercell height) per line, whatever the
    // document says (sv_nohs_wide_col: none given, 19; test_table_no_header: 10 given, 19).
    var tableLine: Double?
    if isTable, let table = documentElement {
      tableLine = Self.tableRowHeight(table) + Self.intercellSpacing(table).height
    }
    func amount(_ name: String) throws(InterfaceBuilderError) -> Double {
      if let tableLine, name.hasSuffix("LineScroll") { return tableLine }
      guard let text = element[name] else { return 10 }
      guard let value = Double(text) else { throw invalid(element, "\(name) is not a number") }
      return value
    }
    let amounts = [try amount("verticalPageScroll"), try amount("horizontalPageScroll"), try amount("verticalLineScroll"), try amount("horizontalLineScroll")]
    if amounts != [10, 10, 10, 10] {
      var bytes: [UInt8] = []
      for value in amounts {
        let bits = Float(value).bitPattern
        bytes += [UInt8(bits >> 24), UInt8((bits >> 16) & 0xFF), UInt8((bits >> 8) & 0xFF), UInt8(bits & 0xFF)]
      }
      entries.append(.init("NSScrollAmts", .data(bytes)))
    }
    entries.append(.init("NSMinMagnification", .float64(0.25)))
    entries.append(.init("NSMaxMagnification", .float64(4)))
    entries.append(.init("NSMagnification", .float64(1)))
    graph[scrollView].entries = entries
    try compileChildren(of: element, object: scrollView, known: known)
    return scrollView
  }

  /// NSFrameSize for a frame at the origin, else NSFrame.
  mutating func frameEntry(_ frame: ViewRect) -> NibGraph.Entry {
    if frame.x == 0 && frame.y == 0 {
      return .init("NSFrameSize", string(Self.sizeString(width: frame.width, height: frame.height)))
    }
    return .init("NSFrame", string(Self.rectString(x: frame.x, y: frame.y, width: frame.width, height: frame.height)))
  }

  /// Replaces (or appends) `key` in an object's entries.
  mutating func setEntry(_ object: Int, _ key: String, _ value: NIBArchive.Payload) {
    if let index = graph[object].entries.firstIndex(where: { $0.key == key }) {
      graph[object].entries[index].value = value
    } else {
      graph[object].entries.append(.init(key, value))
    }
  }

  /// `<clipView>` → `NSClipView` (its frame already computed); `scrollView` is `nil` for a
  /// window's content view.
  mutating func compileClipView(
    _ element: InterfaceDocument.Element, parent: Int, scrollView: Int?, headerHeight: Double? = nil
  ) throws(InterfaceBuilderError) -> Int {
    let clip = try begin(element, className: "NSClipView", parent: parent)
    let known: Set<String> = [
      "id", "key", "drawsBackground", "copiesOnScroll", "translatesAutoresizingMaskIntoConstraints",
      "customClass", "customModule", "customModuleProvider",  // a class swapper, as for any view (test17_scrollhiding)
    ]
    for attribute in element.attributes where !known.contains(attribute.name) {
      throw unsupported(element, "<clipView \(attribute.name)=…> is not compiled yet", attribute: attribute.name)
    }
    let documentName = element.child("subviews")?.children.first?.name
    var entries: [NibGraph.Entry] = []
    entries.append(.init("NSNextResponder", scrollView.map { .object($0) } ?? .null))
    entries.append(.init("NSNibTouchBar", .null))
    entries.append(.init("NSvFlags", NibGraph.integer(scrollView == nil ? viewFlags(element) : 0x100)))
    var subviews: [Int] = []
    for child in element.child("subviews")?.children ?? [] {
      subviews.append(try compileObject(child, parent: clip, superview: clip))
    }
    entries.append(.init("NSSubviews", .object(graph.collection("NSMutableArray", subviews))))
    let frame = element.frameRect
    entries.append(frameEntry(frame))
    if let headerHeight {
      entries.append(.init("NSBounds", string(Self.rectString(x: 0, y: -headerHeight, width: frame.width, height: frame.height))))
    }
    if let scrollView { entries.append(.init("NSSuperview", .object(scrollView))) }
    if let document = subviews.first { entries.append(.init("NSNextKeyView", .object(document))) }
    entries.append(.init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)))
    entries += tailViewEntries(element)
    entries.append(.init("NSDocView", subviews.first.map { .object($0) } ?? .null))
    // NSBGColor: the document's color, none for `<nil key="backgroundColor"/>` (HSChooserWindow),
    // else the control background color.
    if let background = element.child("color", key: "backgroundColor") {
      entries.append(.init("NSBGColor", .object(try color(background))))
    } else if element.child("nil", key: "backgroundColor") == nil, !(element["drawsBackground"] == "NO" && Self.isTable(documentName)) {
      // A table's clip view that draws no background has none (the public Python clone's
      // reading of Apple's compiles, viraptor/ibtool `clipView.py`).
      entries.append(.init("NSBGColor", .object(try systemColor("controlBackgroundColor", line: element.line))))
    }
    if element.child("subviews")?.children.first?.name == "textView" {
      let cursor = try shared("cursor:clip") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
        compiler.graph.add("NSCursor", [.init("NSHotSpot", compiler.string("{1, -1}")), .init("NSCursorType", .int8(0))])
      }
      entries.append(.init("NSCursor", .object(cursor)))
    }
    var flags = 0
    if clipViewDrawsBackground(element, documentName: documentName, inScrollView: scrollView != nil) { flags |= 4 }
    if !element.flag("copiesOnScroll", default: true) { flags |= 2 }
    if flags != 0 { entries.append(.init("NScvFlags", .int8(Int8(flags)))) }
    entries.append(.init("NSAutomaticallyAdjustsContentInsets", .bool(true)))
    graph[clip].entries = entries
    if let other = element.children.first(where: { $0.name == "nil" && $0["key"] != "backgroundColor" }) { throw unsupported(other) }
    try compileChildren(of: element, object: clip, known: ["rect", "autoresizingMask", "subviews", "color", "nil"])
    return clip
  }

  /// `<scroller>` → `NSScroller`.
  mutating func compileScroller(
    _ element: InterfaceDocument.Element, parent: Int, scrollView: Int, enabled: Bool = false, percent: Double? = nil, layerHost: Bool = false
  ) throws(InterfaceBuilderError) -> Int {
    let scroller = try begin(element, className: "NSScroller", parent: parent)
    for attribute in element.attributes {
      switch attribute.name {
      case "id", "key", "hidden", "wantsLayer", "verticalHuggingPriority", "horizontalHuggingPriority", "doubleValue", "horizontal", "controlSize",
        "knobProportion":
        break
      default: throw unsupported(element, "<scroller \(attribute.name)=…> is not compiled yet", attribute: attribute.name)
      }
    }
    let frame = element.frameRect
    var entries: [NibGraph.Entry] = [
      .init("NSNextResponder", .object(scrollView)), .init("NSNibTouchBar", .null), .init("NSvFlags", NibGraph.integer(viewFlags(element))),
      .init("NSFrame", string(Self.rectString(x: frame.x, y: frame.y, width: frame.width, height: frame.height))),
      .init("NSSuperview", .object(scrollView)),
    ]
    if element.flag("wantsLayer") || layerHost { entries.append(.init("NSViewIsLayerTreeHost", .bool(true))) }
    entries.append(.init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)))
    entries += tailViewEntries(element)
    if enabled { entries.append(.init("NSEnabled", .bool(true))) }
    let action = string("_doScroller:")
    entries += [
      .init("NSAllowsLogicalLayoutDirection", .bool(false)), .init("NSControlAction", action), .init("NSControlTarget", .object(scrollView)),
      .init("NSControlSize", .int8(0)), .init("NSControlContinuous", .bool(false)), .init("NSControlRefusesFirstResponder", .bool(false)),
      .init("NSControlUsesSingleLineMode", .bool(false)), .init("NSControlTextAlignment", .int8(0)), .init("NSControlLineBreakMode", .int8(0)),
      .init("NSControlWritingDirection", .int8(0)), .init("NSControlSendActionMask", .int8(4)),
    ]
    var flags = element.flag("horizontal") ? 1 : 0
    switch element["controlSize"] {
    case nil, "regular": break
    case "small": flags |= 0x100
    case "mini": flags |= 0x200
    case let other?: throw unsupported(element, "a scroller of controlSize \"\(other)\" is not compiled yet")
    }
    if flags != 0 { entries.append(.init("NSsFlags", NibGraph.integer(flags))) }
    entries.append(.init("NSTarget", .object(scrollView)))
    entries.append(.init("NSAction", action))
    if let value = element.double("doubleValue") { entries.append(.init("NSCurValue", .float64(value))) }
    if let percent { entries.append(.init("NSPercent", .float64(percent))) }
    graph[scroller].entries = entries
    try compileChildren(of: element, object: scroller, known: ["rect", "autoresizingMask"])
    return scroller
  }

  // MARK: Text views

  /// The automatic text-checking bits of a storyboard's text view, whatever its document says:
  /// those of the Mac that compiled the corpus's pairs.
  ///
  /// In a xib the bits follow the document: `spellingCorrection="YES"` is 0x4000000 in the five
  /// xib pairs with text views (toolsVersion 11762 to 23504), and no other bit of these is ever
  /// set. A storyboard's text view instead takes the text settings of the Mac that compiles it.
  /// sb_textview and sb_tv_customclass, whose text views have the same attributes (both say
  /// `spellingCorrection="YES"`), give 0x2008b03 and 0x7028b03: both have 0x8000 and 0x2000000,
  /// which no xib has; sb_textview lacks 0x4000000 in spite of its document; sb_tv_customclass
  /// adds 0x4000000 (automatic spelling correction) and 0x20000 | 0x1000000, a pair that moves
  /// together as the two halves of Keyboard settings' one "Use smart quotes and dashes" switch
  /// would. sb_tv_customclass was compiled on another Mac in other ways too: its clip view is not
  /// narrowed by its shown legacy scroller, as it is in sb_textview and the xib pairs. Stasis
  /// compiles as the Mac of sb_textview and the xib pairs: the two bits both storyboards share
  /// (two samples; which settings 0x8000 and 0x2000000 are is not known).
  static let storyboardTextChecking = 0x8000 | 0x200_0000

  /// `<textView>` → `NSTextView` with its text container, layout manager, text storage and
  /// shared data.
  mutating func compileTextView(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    let textView = try begin(element, className: "NSTextView", parent: parent)
    for attribute in element.attributes {
      switch attribute.name {
      case "id", "key", "wantsLayer", "importsGraphics", "richText", "verticallyResizable", "horizontallyResizable", "findStyle", "spellingCorrection",
        "smartInsertDelete", "editable", "selectable", "continuousSpellChecking", "usesFontPanel", "usesRuler", "allowsUndo",
        "allowsDocumentBackgroundColorChange", "translatesAutoresizingMaskIntoConstraints", "linkDetection",
        "customClass", "customModule", "customModuleProvider":  // a class swapper, as for any view
        break
      case "drawsBackground", "incrementalSearchingEnabled", "allowsNonContiguousLayout", "textCompletion", "allowsCharacterPickerTouchBarItem":
        break  // textViewOptions(_:)
      case "misplaced", "ambiguous":
        break  // Interface Builder's editor state; never archived
      default: throw unsupported(element, "<textView \(attribute.name)=…> is not compiled yet", attribute: attribute.name)
      }
    }
    for child in element.children {
      switch child.name {
      case "rect", "autoresizingMask", "connections": break
      case "color" where ["textColor", "backgroundColor", "insertionPointColor"].contains(child["key"] ?? ""): break
      case "size" where child["key"] == "minSize" || child["key"] == "maxSize": break
      case "attributedString" where child["key"] == "textStorage": break
      default: throw unsupported(child)
      }
    }
    let frame = element.frameRect
    var entries: [NibGraph.Entry] = [
      .init("NSNextResponder", superview.map { .object($0) } ?? .null), .init("NSNibTouchBar", .null),
      .init("NSvFlags", NibGraph.integer(viewFlags(element))), frameEntry(frame),
    ]
    if let superview { entries.append(.init("NSSuperview", .object(superview))) }
    if element.flag("wantsLayer") { entries.append(.init("NSViewIsLayerTreeHost", .bool(true))) }
    entries.append(.init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)))
    entries += tailViewEntries(element)

    let container = graph.add("NSTextContainer")
    let layoutManager = graph.add("NSLayoutManager")
    let storage = try textStorage(element.child("attributedString", key: "textStorage"))
    let options = textViewOptions(element)
    graph[layoutManager].entries = [
      .init("NSTextStorage", .object(storage)), .init("NSTextContainers", .object(graph.collection("NSMutableArray", [container]))),
      .init("NSLMFlags", NibGraph.integer(0x66 | options.layoutManagerFlags)), .init("NSDelegate", .null),
    ]
    graph[container].entries = [
      .init("NSLayoutManager", .object(layoutManager)), .init("NSTextLayoutManager", .null), .init("NSTextView", .object(textView)),
      .init("NSWidth", .float64(frame.width)), .init("NSMinWidth", .float64(15)), .init("NSTCFlags", .int8(1)),
    ]

    var flags = 0x100 | 0x800
    if element.flag("selectable", default: true) { flags |= 0x1 }
    if element.flag("editable", default: true) { flags |= 0x2 }
    if element.flag("richText", default: true) { flags |= 0x4 }
    if element.flag("importsGraphics", default: true) { flags |= 0x8 }
    if element.flag("usesFontPanel") { flags |= 0x20 }
    if element.flag("usesRuler") { flags |= 0x40 }
    if element.flag("continuousSpellChecking") { flags |= 0x80 }
    if element.flag("smartInsertDelete") { flags |= 0x200 }
    if element.flag("allowsUndo") { flags |= 0x400 }
    if element.flag("allowsDocumentBackgroundColorChange") { flags |= 0x4000 }
    if element.flag("linkDetection") { flags |= 0x4_0000 }
    flags = (flags & ~options.clearedFlags) | options.setFlags
    if document.kind == .storyboard {
      flags |= Self.storyboardTextChecking
    } else if element.flag("spellingCorrection") {
      flags |= 0x400_0000
    }
    var findStyle = 0
    switch element["findStyle"] {
    case nil: break
    case "panel": flags |= 0x2000; findStyle = 1
    case "bar": findStyle = 2
    case let other?: throw unsupported(element, "findStyle \"\(other)\" is not compiled yet")
    }
    var background: Int?
    if let backgroundElement = element.child("color", key: "backgroundColor") {
      // Documents from before toolsVersion 14269 store the text background as white; AppKit
      // reads it back as the catalog textBackgroundColor (test6_whitecolor).
      let tools = Double(document.toolsVersion) ?? 0
      if tools < 14269, backgroundElement["colorSpace"] == "calibratedWhite", backgroundElement.double("white") == 1,
        (backgroundElement.double("alpha") ?? 1) == 1
      {
        background = try systemColor("textBackgroundColor", line: backgroundElement.line)
      } else {
        background = try color(backgroundElement)
      }
    }
    let selected = graph.collection(
      "NSDictionary",
      [
        sharedString("NSBackgroundColor"), try systemColor("selectedTextBackgroundColor", line: element.line),
        sharedString("NSColor"), try systemColor("selectedTextColor", line: element.line),
      ])
    let insertion: Int
    if let insertionElement = element.child("color", key: "insertionPointColor") {
      insertion = try color(insertionElement)
    } else {
      insertion = try systemColor("textInsertionPointColor", line: element.line)
    }
    let linkCursor = try shared("cursor:link") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      compiler.graph.add("NSCursor", [.init("NSHotSpot", compiler.string("{8, -8}")), .init("NSCursorType", .int8(13))])
    }
    let link = graph.collection(
      "NSDictionary",
      [
        sharedString("NSColor"), try systemColor("linkColor", line: element.line), sharedString("NSCursor"), linkCursor,
        sharedString("NSUnderline"), number(1),
      ])
    let shared = graph.add(
      "NSTextViewSharedData",
      [
        .init("NSAutomaticTextCompletionDisabled", .bool(options.completionDisabled)), .init("NSFlags", NibGraph.integer(flags)), .init("NSMoreFlags", .int8(Int8(options.moreFlags))),
        .init("NSTextCheckingTypes", .int8(0)), .init("NSMarkedAttributes", .null), .init("NSBackgroundColor", background.map { .object($0) } ?? .null),
        .init("NSSelectedAttributes", .object(selected)), .init("NSInsertionColor", .object(insertion)), .init("NSLinkAttributes", .object(link)),
        .init("NSDefaultParagraphStyle", .null), .init("NSTextFinder", .null), .init("NSPreferredTextFinderStyle", .int8(Int8(findStyle))),
        .init("NSTextHighlightAttributes", .null), .init("NSWritingToolsFlags", .int16(256)),
      ])
    entries.append(.init("NSTextContainer", .object(container)))
    entries.append(.init("NSSharedData", .object(shared)))
    let tools = Double(document.toolsVersion) ?? 0
    let verticallyResizable = element.flag("verticallyResizable", default: tools >= 11169 && tools < 13087)
    entries.append(.init("NSTVFlags", NibGraph.integer(132 | (element.flag("horizontallyResizable") ? 1 : 0) | (verticallyResizable ? 2 : 0))))
    if let maxSize = element.child("size", key: "maxSize"), let width = maxSize.double("width"), let height = maxSize.double("height") {
      entries.append(.init("NSMaxSize", string(Self.sizeString(width: width, height: height))))
    } else if document.kind == .storyboard, let frame = try rect(originalElement(element), key: "frame") {
      // A storyboard's text view without a maxSize is limited to its frame as the document
      // gives it, before the scroll view's tiling (sb_textview).
      entries.append(.init("NSMaxSize", string(Self.sizeString(width: frame.width, height: frame.height))))
    }
    entries.append(.init("NSDelegate", .null))
    if let textColor = element.child("color", key: "textColor") {
      entries.append(.init("NSTextViewTextColor", .object(try color(textColor))))
    } else if tools < 14269, element.child("attributedString", key: "textStorage") == nil {
      // With text, the default text color is in the text storage's attributes instead
      // (textview_attributedstring, textview_multiattr).
      entries.append(.init("NSTextViewTextColor", .object(try systemColor("textColor", line: element.line))))
    }
    graph[textView].entries = entries
    try compileChildren(of: element, object: textView, known: ["rect", "autoresizingMask", "color", "size", "attributedString"])
    return textView
  }

}

