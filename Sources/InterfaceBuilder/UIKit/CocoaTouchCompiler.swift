public import Interface
internal import FoundationEssentials

/// Compiles an iOS xib or a storyboard scene (`CocoaTouch`) into a UIKit object graph for the nib
/// loader: the runtime objects of UIKit nibs (`UIProxyObject` placeholders,
/// `UIClassSwapper` custom classes, `UIRuntimeOutletConnection`, `UIRuntimeEventConnection` with
/// its `UIEventMask`, `UIRuntimeOutletCollectionConnection`, `UINibKeyValuePair`; views as
/// `UIBounds` + `UICenter` geometry data) under a root whose `UINibObjectsKey`,
/// `UINibTopLevelObjectsKey`, `UINibConnectionsKey` and `UINibKeyValuePairsKey` list them.
///
/// **Not Apple's bytes.** This graph is Stasis's own encoding of UIKit's objects, made for
/// `NibLoading` (which reads exactly these keys) and for tools that inspect an iOS interface on
/// Linux; Apple's own encoding, checked against the Apple-compiled iOS nibs of the test corpus, is
/// in progress. `ibtool --compile` still refuses iOS documents. Property keys beyond those of the
/// runtime objects above (`UIText`, `UIButtonStatefulContent`, `UIStoryboardSegueTemplates`, …)
/// are named after UIKit's but unverified.
///
/// Strings the document marks localizable (those `ibtool --export-strings-file` writes) are
/// `NSLocalizableString` objects whose `NSKey` is the strings-file key (`"Rk6-Nm-3ol.text"`),
/// so that the loader can localize them through the storyboard's `.strings` table.
public struct CocoaTouchCompiler {
  /// Compiles an iOS xib.
  ///
  /// - Throws: ``InterfaceBuilderError`` naming the element and line of anything not compiled.
  public static func compile(_ document: InterfaceDocument) throws(InterfaceBuilderError) -> NibGraph {
    guard document.platform == .iOS, document.kind == .xib else {
      throw InterfaceBuilderError(.unsupported, path: document.path, line: document.root.line, detail: "not an iOS xib")
    }
    var compiler = CocoaTouchCompiler(document: try document.withTextChildrenAsAttributes())
    for element in compiler.document.objects { try compiler.compileTopLevel(element) }
    return try compiler.finish()
  }

  let document: InterfaceDocument
  var graph = NibGraph(rootClass: "NSObject")
  /// Graph objects by document id.
  var objectsByID: [String: Int] = [:]
  var elementsByID: [String: InterfaceDocument.Element] = [:]
  var objects: [Int] = []
  var topLevel: [Int] = []
  var connections: [Int] = []
  var keyValuePairs: [Int] = []
  /// Connection and constraint elements, compiled once every object exists: (element, the id of
  /// the object it belongs to).
  var deferredConnections: [(InterfaceDocument.Element, String)] = []
  var deferredConstraints: [(InterfaceDocument.Element, Int, String)] = []
  /// The keys of the document's localizable strings.
  let localizableKeys: Set<String>
  /// A storyboard scene's exit placeholders (unwind segues point at them).
  var exits: Set<String> = []
  /// What the storyboard compiler collects from the scene: segues by the id of their source.
  var segues: [(segue: InterfaceDocument.Element, sourceID: String)] = []
  var deferredCompiled = false
  /// In a storyboard, every id of the document (to tell a connection to another scene from a
  /// dangling one).
  var otherScenesIDs: Set<String> = []
  /// The connections to another scene's objects left out (a scene is a nib of its own, which
  /// can refer only to its own objects and to the storyboard), each a warning.
  var crossSceneWarnings: [CompilerWarning] = []

  init(document: InterfaceDocument, localizableKeys: Set<String>? = nil) {
    self.document = document
    self.localizableKeys = localizableKeys ?? Set(StringsExport(document).entries.map(\.key))
  }

  func unsupported(_ element: InterfaceDocument.Element, _ what: String? = nil) -> InterfaceBuilderError {
    InterfaceBuilderError(
      .unsupported, path: document.path, line: element.line, detail: what ?? "<\(element.name)> is not compiled for iOS yet")
  }

  func invalid(_ element: InterfaceDocument.Element, _ what: String) -> InterfaceBuilderError {
    InterfaceBuilderError(.invalidDocument, path: document.path, line: element.line, detail: what)
  }

  // MARK: - Values

  mutating func string(_ text: String) -> Int { graph.string(text) }

  /// A string property: an `NSLocalizableString` keyed `<id>.<property>` when the document
  /// exports it for localization, else a plain `NSString`.
  mutating func text(_ text: String, of element: InterfaceDocument.Element, property: String) -> Int {
    let key = (element["id"] ?? "") + "." + property
    guard localizableKeys.contains(key) else { return graph.string(text) }
    return graph.add(
      "NSLocalizableString", [.init("NSKey", .object(graph.string(key))), .init("NS.bytes", .data(Array(text.utf8)))])
  }

  mutating func number(_ value: Double) -> Int {
    if let whole = Int(exactly: value) { return graph.add("NSNumber", [.init("NS.intval", NibGraph.integer(whole))]) }
    return graph.add("NSNumber", [.init("NS.dblval", .float64(value))])
  }

  static func geometry(_ numbers: [Double]) -> NIBArchive.Payload {
    var bytes: [UInt8] = [7]
    for number in numbers { withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    return .data(bytes)
  }

  /// `<color …>`: components, white, or a system / named colour (`UISystemColorName`).
  mutating func color(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    var entries: [NibGraph.Entry] = []
    if let name = element["systemColor"] ?? element["name"] ?? element["cocoaTouchSystemColor"] {
      entries.append(.init("UISystemColorName", .object(string(name))))
      if let resolved = resourceColor(name) { return try color(resolved, named: name) }
    }
    if let white = element.double("white") {
      entries += [.init("UIWhite", .float64(white)), .init("UIAlpha", .float64(element.double("alpha") ?? 1))]
    } else if element["red"] != nil {
      entries += [
        .init("UIRed", .float64(element.double("red") ?? 0)), .init("UIGreen", .float64(element.double("green") ?? 0)),
        .init("UIBlue", .float64(element.double("blue") ?? 0)), .init("UIAlpha", .float64(element.double("alpha") ?? 1)),
      ]
    } else if entries.isEmpty {
      throw unsupported(element, "a colour without components or a name")
    }
    return graph.add("UIColor", entries)
  }

  private mutating func color(_ resolved: InterfaceDocument.Element, named name: String) throws(InterfaceBuilderError) -> Int {
    let base = try color(resolved)
    graph[base].entries.insert(.init("UISystemColorName", .object(string(name))), at: 0)
    return base
  }

  /// The `<systemColor name=…>` / `<namedColor name=…>` definition in `<resources>`.
  func resourceColor(_ name: String) -> InterfaceDocument.Element? {
    guard let color = document.resource(["systemColor", "namedColor"], named: name)?.child("color"),
      color["systemColor"] == nil, color["name"] == nil
    else { return nil }
    return color
  }

  /// `<fontDescription>`: the name (or the system font's / text style's) and size.
  mutating func font(_ element: InterfaceDocument.Element) -> Int {
    let name = element["name"] ?? element["style"].map { "UICTFontTextStyle:" + $0 } ?? (element["type"] == "boldSystem" ? ".SFUI-Semibold" : ".SFUI-Regular")
    return graph.add(
      "UIFont", [.init("UIFontName", .object(string(name))), .init("UIFontPointSize", .float64(element.double("pointSize") ?? 17))])
  }

  mutating func image(_ name: String) -> Int {
    graph.add("UIImageNibPlaceholder", [.init("UIResourceName", .object(string(name)))])
  }

  // MARK: - Objects

  static let classNames: [String: String] = UIKitElementClasses.shared.merging([
    "pageViewController": "UIPageViewController", "splitViewController": "UISplitViewController",
  ]) { shared, _ in shared }


  static let controllerElements: Set<String> = [
    "viewController", "tableViewController", "collectionViewController", "navigationController", "tabBarController",
    "pageViewController", "splitViewController",
  ]

  /// Elements that only describe how Interface Builder draws or sizes the document, or traits the
  /// headless objects do not hold: skipped.
  static let ignoredChildren: Set<String> = [
    "point", "size", "freeformSimulatedSizeMetrics", "simulatedNavigationBarMetrics", "simulatedToolbarMetrics",
    "simulatedStatusBarMetrics", "simulatedTabBarMetrics", "viewLayoutGuide", "textInputTraits", "inset", "nil",
    "collectionViewFlowLayout", "preferredSymbolConfiguration", "imageReference", "buttonConfiguration", "blurEffect",
    "accessibilityOverrides", "inferredMetricsTieBreakers", "edgeInsets", "directionalEdgeInsets", "fontDescription", "color",
    "rect", "autoresizingMask", "subviews", "constraints", "connections", "accessibility", "userDefinedRuntimeAttributes",
    "state", "string", "segments", "prototypes", "sections", "cells", "navigationItem", "tabBarItem", "toolbarItems",
    "rightBarButtonItems", "leftBarButtonItems", "barButtonItem", "tableViewCellContentView", "collectionViewCellContentView",
    "view", "tableView", "collectionView", "navigationBar", "tabBar", "toolbar", "attributedString", "variation", "mask",
    "searchBar", "image", "textAttributes", "scrollEdgeAppearance", "standardAppearance", "compactAppearance", "offsetWrapper",
    "backgroundConfiguration", "tableViewSection", "datePickerLocale", "collectionReusableView", "collectionViewCell",
    "layoutGuides", "containerView",
  ]

  /// Value elements one kind of object reads itself (a date picker's `<date>`s), refused elsewhere.
  static let valueChildren: [String: Set<String>] = ["datePicker": ["date"]]

  mutating func compileTopLevel(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) {
    switch element.name {
    case "placeholder":
      try compilePlaceholder(element)
    case "exit":
      if let id = element["id"] { exits.insert(id) }
    default:
      let object = try compileObject(element, superview: nil)
      topLevel.append(object)
    }
  }

  mutating func compilePlaceholder(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) {
    guard let id = element["id"], let identifier = element["placeholderIdentifier"] else {
      throw invalid(element, "a placeholder needs an id and a placeholderIdentifier")
    }
    let proxy = graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(string(identifier)))])
    try register(proxy, element, id: id)
    objects.append(proxy)
    topLevel.append(proxy)
    if let connectionList = element.child("connections") { deferredConnections.append((connectionList, id)) }
  }

  mutating func register(_ object: Int, _ element: InterfaceDocument.Element, id: String) throws(InterfaceBuilderError) {
    guard objectsByID[id] == nil else { throw invalid(element, "the id \(id) is used twice") }
    objectsByID[id] = object
    elementsByID[id] = element
  }

  /// The runtime class name of a custom class (Swift classes in a module are mangled).
  func customClassName(_ element: InterfaceDocument.Element) -> String? {
    guard let name = element["customClass"] else { return nil }
    guard let module = element["customModule"] else { return name }
    return "_TtC\(module.utf8.count)\(module)\(name.utf8.count)\(name)"
  }

  /// Compiles an object element and everything under it; answers its graph object.
  @discardableResult
  mutating func compileObject(_ element: InterfaceDocument.Element, superview: Int?) throws(InterfaceBuilderError) -> Int {
    guard let className = Self.classNames[element.name] else { throw unsupported(element) }
    guard let id = element["id"] else { throw invalid(element, "<\(element.name)> needs an id") }
    let object: Int
    if let custom = customClassName(element) {
      object = graph.add(
        "UIClassSwapper", [.init("UIClassName", .object(string(custom))), .init("UIOriginalClassName", .object(string(className)))])
    } else {
      object = graph.add(className)
    }
    try register(object, element, id: id)
    objects.append(object)
    var entries: [NibGraph.Entry] = []
    if Self.controllerElements.contains(element.name) {
      entries = try controllerEntries(element, object: object)
    } else if ["navigationItem", "barButtonItem", "tabBarItem", "customObject"].contains(element.name) {
      entries = try itemEntries(element, object: object)
    } else {
      entries = try viewEntries(element, object: object, superview: superview)
    }
    graph[object].entries += entries
    if let list = element.child("connections") { deferredConnections.append((list, id)) }
    if let attributes = element.child("userDefinedRuntimeAttributes") { try compileRuntimeAttributes(attributes, object: object) }
    for child in element.children where !Self.ignoredChildren.contains(child.name) && !Self.valueChildren[element.name, default: []].contains(child.name) {
      throw unsupported(child, "<\(child.name)> inside <\(element.name)> is not compiled for iOS yet")
    }
    // An object element under this one that no rule above compiled (a view under a key not
    // known here) is refused, never dropped.
    for child in element.children where Self.classNames[child.name] != nil {
      if let childID = child["id"], objectsByID[childID] == nil {
        throw unsupported(child, "<\(child.name) key=\"\(child["key"] ?? "")\"> inside <\(element.name)> is not compiled for iOS yet")
      }
    }
    return object
  }

  // MARK: - Views

  static let autoresizingBits: [(String, Int)] = [
    ("flexibleMinX", 1), ("widthSizable", 2), ("flexibleMaxX", 4), ("flexibleMinY", 8), ("heightSizable", 16), ("flexibleMaxY", 32),
  ]

  mutating func viewEntries(_ element: InterfaceDocument.Element, object: Int, superview: Int?) throws(InterfaceBuilderError)
    -> [NibGraph.Entry]
  {
    var entries: [NibGraph.Entry] = []
    if let frame = element.child("rect", key: "frame") {
      let (x, y) = (frame.double("x") ?? 0, frame.double("y") ?? 0)
      let (width, height) = (frame.double("width") ?? 0, frame.double("height") ?? 0)
      entries.append(.init("UIBounds", Self.geometry([0, 0, width, height])))
      entries.append(.init("UICenter", Self.geometry([x + width / 2, y + height / 2])))
    }
    if let superview { entries.append(.init("UISuperview", .object(superview))) }
    var subviews: [Int] = []
    for key in ["contentView", "view"] {
      if let content = element.children.first(where: { $0["key"] == key && Self.classNames[$0.name] != nil }) {
        subviews.append(try compileObject(content, superview: object))
      }
    }
    for child in element.child("subviews")?.children ?? [] { subviews.append(try compileObject(child, superview: object)) }
    if element.name == "tableView" || element.name == "collectionView" {
      var cells: [Int] = []
      for child in element.child("prototypes")?.children ?? [] { cells.append(try compileObject(child, superview: object)) }
      for section in element.child("sections")?.children("tableViewSection") ?? [] {
        for cell in section.child("cells")?.children ?? [] { cells.append(try compileObject(cell, superview: object)) }
      }
      let reusable = element.children.filter { $0.name == "collectionViewCell" || $0.name == "collectionReusableView" }
      for child in reusable + (element.child("cells")?.children ?? []) { cells.append(try compileObject(child, superview: object)) }
      if !cells.isEmpty { entries.append(.init("UITableViewCellPrototypes", .object(graph.collection("NSArray", cells)))) }
      for (key, archivedKey) in [("tableHeaderView", "UITableHeaderView"), ("tableFooterView", "UITableFooterView")] {
        if let header = element.children.first(where: { $0["key"] == key && Self.classNames[$0.name] != nil }) {
          entries.append(.init(archivedKey, .object(try compileObject(header, superview: object))))
        }
      }
      if let height = element.double("rowHeight") { entries.append(.init("UIRowHeight", .float64(height))) }
    }
    if !subviews.isEmpty { entries.append(.init("UISubviews", .object(graph.collection("NSMutableArray", subviews)))) }
    if let tag = element.wholeNumber("tag") { entries.append(.init("UITag", NibGraph.integer(tag))) }
    if element.flag("hidden") { entries.append(.init("UIHidden", .bool(true))) }
    if let alpha = element.double("alpha") { entries.append(.init("UIAlpha", .float64(alpha))) }
    if let background = element.child("color", key: "backgroundColor") { entries.append(.init("UIBackgroundColor", .object(try color(background)))) }
    if let mask = element.child("autoresizingMask", key: "autoresizingMask") {
      let bits = Self.autoresizingBits.reduce(0) { $0 | (mask.flag($1.0) ? $1.1 : 0) }
      entries.append(.init("UIAutoresizingMask", NibGraph.integer(bits)))
    }
    if let restoration = element["restorationIdentifier"] { entries.append(.init("UIRestorationIdentifier", .object(string(restoration)))) }
    if let accessibility = element.child("accessibility", key: "accessibilityConfiguration") {
      if let identifier = accessibility["identifier"] { entries.append(.init("UIAccessibilityIdentifier", .object(string(identifier)))) }
      if let label = accessibility["label"] {
        entries.append(.init("UIAccessibilityLabel", .object(text(label, of: element, property: "accessibilityLabel"))))
      }
    }
    if element["translatesAutoresizingMaskIntoConstraints"] == "NO" {
      entries.append(.init("UIViewDoesNotTranslateAutoresizingMaskIntoConstraints", .bool(true)))
    }
    if let reuse = element["reuseIdentifier"] { entries.append(.init("UIReuseIdentifier", .object(string(reuse)))) }
    if let list = element.child("constraints") {
      for constraint in list.children("constraint") {
        deferredConstraints.append((constraint, object, element["id"] ?? ""))
      }
    }
    entries += try controlEntries(element)
    return entries
  }

  mutating func controlEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if element["enabled"] == "NO" { entries.append(.init("UIDisabled", .bool(true))) }
    switch element.name {
    case "label", "textField", "textView":
      if let value = element["text"] { entries.append(.init("UIText", .object(text(value, of: element, property: "text")))) }
      if let placeholder = element["placeholder"] {
        entries.append(.init("UIPlaceholder", .object(text(placeholder, of: element, property: "placeholder"))))
      }
      if let textColor = element.child("color", key: "textColor") { entries.append(.init("UITextColor", .object(try color(textColor)))) }
      if let description = element.child("fontDescription") { entries.append(.init("UIFont", .object(font(description)))) }
      if let lines = element.wholeNumber("numberOfLines") { entries.append(.init("UINumberOfLines", NibGraph.integer(lines))) }
    case "button":
      var contents: [Int] = []
      let states = ["normal": 0, "highlighted": 1, "disabled": 2, "selected": 4]
      for state in element.children("state") {
        guard let key = state["key"], let number = states[key] else { throw unsupported(state, "a button state \(state["key"] ?? "")") }
        var content: [NibGraph.Entry] = []
        if let title = state["title"] { content.append(.init("UITitle", .object(text(title, of: element, property: key + "Title")))) }
        if let name = state["image"] { content.append(.init("UIImage", .object(image(name)))) }
        if let titleColor = state.child("color", key: "titleColor") { content.append(.init("UITitleColor", .object(try color(titleColor)))) }
        contents += [self.number(Double(number)), graph.add("UIButtonContent", content)]
      }
      if !contents.isEmpty { entries.append(.init("UIButtonStatefulContent", .object(graph.collection("NSDictionary", contents)))) }
    case "imageView":
      if let name = element["image"] { entries.append(.init("UIImage", .object(image(name)))) }
    case "switch":
      entries.append(.init("UISwitchOn", .bool(element.flag("on"))))
    case "slider":
      entries.append(.init("UIValue", .float64(element.double("value") ?? 0)))
      entries.append(.init("UIMinValue", .float64(element.double("minValue") ?? 0)))
      entries.append(.init("UIMaxValue", .float64(element.double("maxValue") ?? 1)))
    case "stepper":
      entries.append(.init("UIValue", .float64(element.double("value") ?? 0)))
      entries.append(.init("UIMinimumValue", .float64(element.double("minimumValue") ?? 0)))
      entries.append(.init("UIMaximumValue", .float64(element.double("maximumValue") ?? 100)))
      entries.append(.init("UIStepValue", .float64(element.double("stepValue") ?? 1)))
    case "segmentedControl":
      var titles: [Int] = []
      for (index, segment) in (element.child("segments")?.children("segment") ?? []).enumerated() {
        titles.append(text(segment["title"] ?? "", of: element, property: "segmentTitles[\(index)]"))
      }
      entries.append(.init("UISegments", .object(graph.collection("NSArray", titles))))
      entries.append(.init("UISelectedSegmentIndex", NibGraph.integer(element.wholeNumber("selectedSegmentIndex") ?? -1)))
    case "datePicker":
      entries += try datePickerEntries(element)
    case "stackView":
      entries.append(.init("UIStackViewAxis", NibGraph.integer(element["axis"] == "vertical" ? 1 : 0)))
      entries.append(.init("UIStackViewSpacing", .float64(element.double("spacing") ?? 0)))
      let alignments = ["fill": 0, "leading": 1, "top": 1, "firstBaseline": 2, "center": 3, "trailing": 4, "bottom": 4, "lastBaseline": 5]
      entries.append(.init("UIStackViewAlignment", NibGraph.integer(alignments[element["alignment"] ?? "fill"] ?? 0)))
      let distributions = ["fill": 0, "fillEqually": 1, "fillProportionally": 2, "equalSpacing": 3, "equalCentering": 4]
      entries.append(.init("UIStackViewDistribution", NibGraph.integer(distributions[element["distribution"] ?? "fill"] ?? 0)))
    default:
      break
    }
    return entries
  }

  /// UIKit's date picker modes (`UIDatePicker.Mode`), by the document's `datePickerMode`.
  static let datePickerModes = ["time": 0, "date": 1, "dateAndTime": 2, "countDownTimer": 3]

  /// `<datePicker>`: `UIDatePickerMode` (date and time when the document names none), then
  /// `UIDate`, `UIMinimumDate` and `UIMaximumDate` from its `<date key=…>` children (an
  /// `NSDate` each; no `date` is Interface Builder's "Current").
  mutating func datePickerEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    let modeName = element["datePickerMode"] ?? "dateAndTime"
    guard let mode = Self.datePickerModes[modeName] else { throw unsupported(element, "a date picker mode \(modeName)") }
    var entries: [NibGraph.Entry] = [.init("UIDatePickerMode", NibGraph.integer(mode))]
    let keys = ["date": "UIDate", "minimumDate": "UIMinimumDate", "maximumDate": "UIMaximumDate"]
    for date in element.children("date") {
      guard let key = date["key"].flatMap({ keys[$0] }) else { throw unsupported(date, "a date picker's <date key=\"\(date["key"] ?? "")\">") }
      guard let time = date.double("timeIntervalSinceReferenceDate") else {
        throw invalid(date, "a <date> needs a timeIntervalSinceReferenceDate")
      }
      entries.append(.init(key, .object(graph.add("NSDate", [.init("NS.time", .float64(time))]))))
    }
    return entries
  }

  // MARK: - Items and controllers

  static let systemItems = [
    "done", "cancel", "edit", "save", "add", "flexibleSpace", "fixedSpace", "compose", "reply", "action", "organize",
    "bookmarks", "search", "refresh", "stop", "camera", "trash", "play", "pause", "rewind", "fastForward", "undo", "redo",
    "pageCurl", "close",
  ]

  mutating func itemEntries(_ element: InterfaceDocument.Element, object: Int) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let title = element["title"] { entries.append(.init("UITitle", .object(text(title, of: element, property: "title")))) }
    if let name = element["image"] { entries.append(.init("UIImage", .object(image(name)))) }
    if let tag = element.wholeNumber("tag") { entries.append(.init("UITag", NibGraph.integer(tag))) }
    if element["enabled"] == "NO" { entries.append(.init("UIEnabled", .bool(false))) }
    if let system = element["systemItem"] {
      guard let number = Self.systemItems.firstIndex(of: system) else { throw unsupported(element, "a system item \(system)") }
      entries.append(.init("UISystemItem", NibGraph.integer(number)))
    }
    if element.name == "barButtonItem", let custom = element.children.first(where: { $0["key"] == "customView" && Self.classNames[$0.name] != nil }) {
      entries.append(.init("UICustomView", .object(try compileObject(custom, superview: nil))))
    }
    if element.name == "navigationItem" {
      for (key, listKey) in [("leftBarButtonItem", "leftBarButtonItems"), ("rightBarButtonItem", "rightBarButtonItems")] {
        var items: [Int] = []
        for item in element.children("barButtonItem") where item["key"] == key { items.append(try compileObject(item, superview: nil)) }
        for item in element.child(listKey)?.children ?? [] { items.append(try compileObject(item, superview: nil)) }
        if !items.isEmpty {
          entries.append(.init(key == "leftBarButtonItem" ? "UILeftBarButtonItems" : "UIRightBarButtonItems", .object(graph.collection("NSArray", items))))
        }
      }
    }
    return entries
  }

  mutating func controllerEntries(_ element: InterfaceDocument.Element, object: Int) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let identifier = element["storyboardIdentifier"] { entries.append(.init("UIStoryboardIdentifier", .object(string(identifier)))) }
    if let title = element["title"] { entries.append(.init("UITitle", .object(text(title, of: element, property: "title")))) }
    if let restoration = element["restorationIdentifier"]
      ?? (element.flag("useStoryboardIdentifierAsRestorationIdentifier") ? element["storyboardIdentifier"] : nil)
    {
      entries.append(.init("UIRestorationIdentifier", .object(string(restoration))))
    }
    if let view = element.children.first(where: { $0["key"] == "view" && Self.classNames[$0.name] != nil }) {
      entries.append(.init("UIView", .object(try compileObject(view, superview: nil))))
    }
    if let item = element.child("navigationItem", key: "navigationItem") {
      entries.append(.init("UINavigationItem", .object(try compileObject(item, superview: nil))))
    }
    if let item = element.child("tabBarItem", key: "tabBarItem") {
      entries.append(.init("UITabBarItem", .object(try compileObject(item, superview: nil))))
    }
    var toolbarItems: [Int] = []
    for item in element.child("toolbarItems")?.children ?? [] { toolbarItems.append(try compileObject(item, superview: nil)) }
    if !toolbarItems.isEmpty { entries.append(.init("UIToolbarItems", .object(graph.collection("NSArray", toolbarItems)))) }
    for bar in element.children where bar["key"] == "navigationBar" || bar["key"] == "tabBar" || bar["key"] == "toolbar" {
      entries.append(.init(bar["key"] == "tabBar" ? "UITabBar" : bar["key"] == "toolbar" ? "UIToolbar" : "UINavigationBar", .object(try compileObject(bar, superview: nil))))
    }
    return entries
  }

  // MARK: - Connections

  static let eventMasks: [String: Int] = [
    "touchDown": 1 << 0, "touchDownRepeat": 1 << 1, "touchDragInside": 1 << 2, "touchDragOutside": 1 << 3,
    "touchDragEnter": 1 << 4, "touchDragExit": 1 << 5, "touchUpInside": 1 << 6, "touchUpOutside": 1 << 7,
    "touchCancel": 1 << 8, "valueChanged": 1 << 12, "primaryActionTriggered": 1 << 13, "editingDidBegin": 1 << 16,
    "editingChanged": 1 << 17, "editingDidEnd": 1 << 18, "editingDidEndOnExit": 1 << 19,
  ]

  func object(_ id: String?, for element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let id, let object = objectsByID[id] else {
      if let id, otherScenesIDs.contains(id) {
        throw invalid(element, "<\(element.name)> refers to \(id), an object of another scene: connections cannot cross scenes")
      }
      throw invalid(element, "<\(element.name)> refers to \(id ?? "no object"), which the document does not define")
    }
    return object
  }

  mutating func compileConnections() throws(InterfaceBuilderError) {
    var collections: [String: (source: Int, label: String, members: [Int], element: InterfaceDocument.Element)] = [:]
    var collectionOrder: [String] = []
    for (list, sourceID) in deferredConnections {
      let source = try object(sourceID, for: list)
      for connection in list.children {
        if ["outlet", "outletCollection", "action"].contains(connection.name), let destination = connection["destination"],
          objectsByID[destination] == nil, otherScenesIDs.contains(destination)
        {
          crossSceneWarnings.append(
            CompilerWarning(
              path: document.path, line: connection.line, element: connection.name,
              detail: "\(connection["property"] ?? connection["selector"] ?? "") to \(destination), an object of another scene, left out: connections cannot cross scenes"))
          continue
        }
        switch connection.name {
        case "outlet":
          guard let property = connection["property"] else { throw invalid(connection, "an outlet needs a property") }
          let destination = try object(connection["destination"], for: connection)
          connections.append(
            graph.add(
              "UIRuntimeOutletConnection",
              [.init("UILabel", .object(string(property))), .init("UISource", .object(source)), .init("UIDestination", .object(destination))]))
        case "outletCollection":
          guard let property = connection["property"] else { throw invalid(connection, "an outlet collection needs a property") }
          let destination = try object(connection["destination"], for: connection)
          let key = sourceID + "\u{0}" + property
          if collections[key] == nil {
            collections[key] = (source, property, [], connection)
            collectionOrder.append(key)
          }
          collections[key]?.members.append(destination)
        case "action":
          guard let selector = connection["selector"] else { throw invalid(connection, "an action needs a selector") }
          let destination = try object(connection["destination"], for: connection)
          var entries: [NibGraph.Entry] = [
            .init("UILabel", .object(string(selector))), .init("UISource", .object(source)), .init("UIDestination", .object(destination)),
          ]
          if let event = connection["eventType"] {
            guard let mask = Self.eventMasks[event] else { throw unsupported(connection, "the control event \(event)") }
            entries.append(.init("UIEventMask", NibGraph.integer(mask)))
          }
          connections.append(graph.add("UIRuntimeEventConnection", entries))
        case "segue":
          segues.append((connection, sourceID))
        default:
          throw unsupported(connection, "a <\(connection.name)> connection is not compiled for iOS yet")
        }
      }
    }
    for key in collectionOrder {
      guard let collection = collections[key] else { continue }
      connections.append(
        graph.add(
          "UIRuntimeOutletCollectionConnection",
          [
            .init("UILabel", .object(string(collection.label))), .init("UISource", .object(collection.source)),
            .init("UIDestination", .object(graph.collection("NSArray", collection.members))),
          ]))
    }
  }

  static let layoutAttributes: [String: Int] = [
    "left": 1, "right": 2, "top": 3, "bottom": 4, "leading": 5, "trailing": 6, "width": 7, "height": 8, "centerX": 9, "centerY": 10,
    "lastBaseline": 11, "baseline": 11, "firstBaseline": 12, "leftMargin": 13, "rightMargin": 14, "topMargin": 15,
    "bottomMargin": 16, "leadingMargin": 17, "trailingMargin": 18, "centerXWithinMargins": 19, "centerYWithinMargins": 20,
  ]

  mutating func compileConstraints() throws(InterfaceBuilderError) -> [Int: [Int]] {
    var byView: [Int: [Int]] = [:]
    for (element, view, viewID) in deferredConstraints {
      var entries: [NibGraph.Entry] = []
      // A constraint without a firstItem is about the view that holds it (Interface Builder's
      // shorthand); an item that is a layout guide of the view stands for the view itself.
      let firstID = element["firstItem"] ?? viewID
      let first = objectsByID[firstID] ?? view
      entries.append(.init("NSFirstItem", .object(first)))
      entries.append(.init("NSFirstAttribute", NibGraph.integer(Self.layoutAttributes[element["firstAttribute"] ?? ""] ?? 0)))
      let relations = ["lessThanOrEqual": -1, "greaterThanOrEqual": 1]
      if let relation = element["relation"] { entries.append(.init("NSRelation", NibGraph.integer(relations[relation] ?? 0))) }
      if element["secondAttribute"] != nil {
        let second = element["secondItem"].flatMap { objectsByID[$0] } ?? view
        entries.append(.init("NSSecondItem", .object(second)))
        entries.append(.init("NSSecondAttribute", NibGraph.integer(Self.layoutAttributes[element["secondAttribute"] ?? ""] ?? 0)))
      }
      if let multiplier = element["multiplier"] {
        let parts = multiplier.split(separator: ":").compactMap { Double($0) }
        let value = parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : parts.first ?? 1
        entries.append(.init("NSMultiplier", .float64(value)))
      }
      if let constant = element.double("constant") { entries.append(.init("NSConstant", .float64(constant))) }
      if let priority = element.double("priority") { entries.append(.init("NSPriority", .float64(priority))) }
      if let identifier = element["identifier"] { entries.append(.init("NSLayoutIdentifier", .object(string(identifier)))) }
      let constraint = graph.add("NSLayoutConstraint", entries)
      if let id = element["id"] { try register(constraint, element, id: id) }
      objects.append(constraint)
      byView[view, default: []].append(constraint)
    }
    return byView
  }

  /// `<userDefinedRuntimeAttributes>` → one `UINibKeyValuePair` each.
  mutating func compileRuntimeAttributes(_ element: InterfaceDocument.Element, object: Int) throws(InterfaceBuilderError) {
    for attribute in element.children {
      guard attribute.name == "userDefinedRuntimeAttribute", let keyPath = attribute["keyPath"] else {
        throw invalid(attribute, "a runtime attribute needs a keyPath")
      }
      let value: NIBArchive.Payload
      switch attribute["type"] {
      case "string": value = .object(string(attribute["value"] ?? ""))
      case "localizedString": value = .object(text(attribute["value"] ?? "", of: attribute, property: keyPath))
      case "boolean": value = .object(number(attribute["value"] == "YES" ? 1 : 0))
      case "number":
        guard let child = attribute.children.first, let number = child.double("value") else {
          throw invalid(attribute, "a number runtime attribute needs an <integer> or <real> value")
        }
        value = .object(self.number(number))
      case "color":
        guard let child = attribute.child("color") else { throw invalid(attribute, "a color runtime attribute needs a <color>") }
        value = .object(try color(child))
      case "image": value = .object(image(attribute["value"] ?? ""))
      case "nil": value = .null
      case "point", "size", "rect":
        guard let child = attribute.children.first else { throw invalid(attribute, "a geometry runtime attribute needs its value") }
        let numbers = attribute["type"] == "point" ? [child.double("x") ?? 0, child.double("y") ?? 0]
          : attribute["type"] == "size" ? [child.double("width") ?? 0, child.double("height") ?? 0]
          : [child.double("x") ?? 0, child.double("y") ?? 0, child.double("width") ?? 0, child.double("height") ?? 0]
        let key = attribute["type"] == "point" ? "NS.pointval" : attribute["type"] == "size" ? "NS.sizeval" : "NS.rectval"
        value = .object(graph.add("NSValue", [.init(key, Self.geometry(numbers))]))
      case let other:
        throw unsupported(attribute, "a runtime attribute of type \"\(other ?? "(none)")\" is not compiled for iOS yet")
      }
      keyValuePairs.append(
        graph.add(
          "UINibKeyValuePair", [.init("UIObject", .object(object)), .init("UIKeyPath", .object(string(keyPath))), .init("UIValue", value)]))
    }
  }

  /// Constraints, then connections (outlets may point at constraints), once every object
  /// exists; once.
  mutating func compileDeferred() throws(InterfaceBuilderError) {
    guard !deferredCompiled else { return }
    deferredCompiled = true
    // In the order of the views' objects, so that one document always compiles to the same bytes.
    for (view, constraints) in try compileConstraints().sorted(by: { $0.key < $1.key }) {
      graph[view].entries.append(.init("UIViewAutolayoutConstraints", .object(graph.collection("NSArray", constraints))))
    }
    try compileConnections()
  }

  /// The root's lists, after the deferred constraints and connections.
  mutating func finish() throws(InterfaceBuilderError) -> NibGraph {
    try compileDeferred()
    graph[graph.root].entries = [
      .init("UINibTopLevelObjectsKey", .object(graph.collection("NSArray", topLevel))),
      .init("UINibObjectsKey", .object(graph.collection("NSArray", objects))),
      .init("UINibConnectionsKey", .object(graph.collection("NSArray", connections))),
      .init("UINibVisibleWindowsKey", .object(graph.collection("NSArray", []))),
      .init("UINibKeyValuePairsKey", .object(graph.collection("NSArray", keyValuePairs))),
    ]
    return graph
  }
}
