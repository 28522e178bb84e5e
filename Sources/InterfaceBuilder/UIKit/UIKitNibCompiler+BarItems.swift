import Interface

/// Navigation items, bar button items, tab bar items and date pickers: the keys UIKit's decoders
/// read (`UINavigationItem`, `UIBarButtonItem`, `UITabBarItem`, `UIDatePicker`). No
/// Apple-compiled sample in the corpus holds one; their order follows the decoders.
extension UIKitNibCompiler {
  static let barButtonSystemItems = [
    "done": 0, "cancel": 1, "edit": 2, "save": 3, "add": 4, "flexibleSpace": 5, "fixedSpace": 6, "compose": 7, "reply": 8,
    "action": 9, "organize": 10, "bookmarks": 11, "search": 12, "refresh": 13, "stop": 14, "camera": 15, "trash": 16, "play": 17,
    "pause": 18, "rewind": 19, "fastForward": 20, "undo": 21, "redo": 22, "pageCurl": 23, "close": 24,
  ]
  static let barButtonStyles = ["plain": 0, "bordered": 1, "done": 2]
  static let tabBarSystemItems = [
    "more": 0, "favorites": 1, "featured": 2, "topRated": 3, "recents": 4, "contacts": 5, "history": 6, "bookmarks": 7, "search": 8,
    "downloads": 9, "mostRecent": 10, "mostViewed": 11,
  ]

  /// `UINavigationItem`: its title, prompt, title view and bar button items by side.
  mutating func navigationItemEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let title = element["title"] { entries.append(.init("UITitle", .object(graph.string(title)))) }
    if let prompt = element["prompt"] { entries.append(.init("UIPrompt", .object(graph.string(prompt)))) }
    for (key, sides) in [("UILeftBarButtonItems", ["leftBarButtonItem", "leftBarButtonItems"]), ("UIRightBarButtonItems", ["rightBarButtonItem", "rightBarButtonItems"])] {
      var items: [Int] = []
      for child in element.children where sides.contains(child["key"] ?? child.name) {
        let members = child.name == "barButtonItem" ? [child] : child.children
        for member in members { if let item = try compileObject(member) { items.append(item) } }
      }
      if !items.isEmpty { entries.append(.init(key, .object(graph.collection("NSArray", items)))) }
    }
    if let back = element.child("barButtonItem", key: "backBarButtonItem"), let item = try compileObject(back) {
      entries.append(.init("UIBackBarButtonItem", .object(item)))
    }
    if let titleView = element.children.first(where: { $0["key"] == "titleView" }), let view = try compileObject(titleView) {
      entries.append(.init("UITitleView", .object(view)))
    }
    return entries
  }

  /// `UIBarButtonItem`: enabled, style, title or image or system item, tag, custom view.
  mutating func barButtonItemEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = [.init("UIEnabled", .bool(element.flag("enabled", default: true)))]
    if let style = element["style"].flatMap({ Self.barButtonStyles[$0] }) { entries.append(.init("UIStyle", NibGraph.integer(style))) }
    if let title = element["title"] { entries.append(.init("UITitle", .object(graph.string(title)))) }
    if let name = element["image"] { entries.append(.init("UIImage", .object(image(name)))) }
    if let system = element["systemItem"].flatMap({ Self.barButtonSystemItems[$0] }) {
      entries.append(.init("UIIsSystemItem", .bool(true)))
      entries.append(.init("UISystemItem", NibGraph.integer(system)))
    }
    if let tag = element.wholeNumber("tag"), tag != 0 { entries.append(.init("UITag", NibGraph.integer(tag))) }
    if let width = element.double("width") { entries.append(.init("UIWidth", .float32(Float(width)))) }
    if let custom = element.children.first(where: { $0["key"] == "customView" }), let view = try compileObject(custom) {
      entries.append(.init("UICustomView", .object(view)))
    }
    return entries
  }

  /// `UITabBarItem`: title, images, system item, tag, enabled.
  mutating func tabBarItemEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let title = element["title"] { entries.append(.init("UITitle", .object(graph.string(title)))) }
    if let name = element["image"] { entries.append(.init("UIImage", .object(image(name)))) }
    if let name = element["selectedImage"] { entries.append(.init("UISelectedImage", .object(image(name)))) }
    if let system = element["systemItem"].flatMap({ Self.tabBarSystemItems[$0] }) {
      entries.append(.init("UITabBarSystemItem", NibGraph.integer(system)))
    }
    if let tag = element.wholeNumber("tag"), tag != 0 { entries.append(.init("UITag", NibGraph.integer(tag))) }
    if !element.flag("enabled", default: true) { entries.append(.init("UIEnabled", .bool(false))) }
    return entries
  }

  static let datePickerModes = ["time": 0, "date": 1, "dateAndTime": 2, "countDownTimer": 3]

  /// `UIDatePicker`: its mode, date, range and minute interval as UIKit's decoder reads them
  /// (`NSDate`s of `NS.time`, seconds since 2001; no Apple-compiled sample in the corpus).
  mutating func datePickerEntries(_ element: InterfaceDocument.Element) -> [NibGraph.Entry] {
    var entries = controlEntries(element)
    entries.append(.init("UIDatePickerMode", NibGraph.integer(element["datePickerMode"].flatMap { Self.datePickerModes[$0] } ?? 2)))
    for (key, name) in [("date", "UIDate"), ("minimumDate", "UIMinimumDate"), ("maximumDate", "UIMaximumDate")] {
      guard let date = element.child("date", key: key), let seconds = date.double("timeIntervalSinceReferenceDate") else { continue }
      entries.append(.init(name, .object(graph.add("NSDate", [.init("NS.time", .float64(seconds))]))))
    }
    if let interval = element.wholeNumber("minuteInterval"), interval != 1 { entries.append(.init("UIMinuteInterval", NibGraph.integer(interval))) }
    return entries
  }
}
