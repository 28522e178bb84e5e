import Interface

/// `<wkWebView>`: WebKit's `WKWebView`, an `NSView` subclass, which no Apple-compiled nib in the
/// corpus shows. Written with the view keys every view has and the keys WebKit's own decoders
/// read (`-[WKWebView initWithCoder:]`, `-[WKWebViewConfiguration initWithCoder:]`,
/// `-[WKPreferences initWithCoder:]` in WebKit's open source); reported by
/// ``CocoaNibCompiler/noteUnverified(_:_:)``.
extension CocoaNibCompiler {
  /// `<wkWebView>` → `WKWebView` {view keys, configuration, allowsBackForwardNavigationGestures,
  /// customUserAgent (when given), allowsLinkPreview, allowsMagnification, magnification}.
  mutating func compileWebView(_ element: InterfaceDocument.Element, parent: Int, superview: Int?) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(
      element, known: ["allowsBackForwardNavigationGestures", "allowsLinkPreview", "allowsMagnification", "magnification", "customUserAgent"], view: true)
    for child in element.children {
      switch child.name {
      case "rect", "autoresizingMask", "constraints", "connections": break
      case "wkWebViewConfiguration" where child["key"] == "configuration": break
      default: throw unsupported(child)
      }
    }
    let view = try begin(element, className: "WKWebView", parent: parent)
    var entries = try viewEntries(element, view: view, superview: superview)
    if let hugging = hugging(element) { entries.append(.init("NSHuggingPriority", hugging)) }
    if let resistance = compressionString(element) { entries.append(.init("NSAntiCompressionPriority", string(resistance))) }
    entries += tailViewEntries(element)
    let configuration = try compileWebViewConfiguration(element.child("wkWebViewConfiguration", key: "configuration"))
    entries.append(.init("configuration", .object(configuration)))
    entries.append(.init("allowsBackForwardNavigationGestures", .bool(element.flag("allowsBackForwardNavigationGestures"))))
    if let agent = element["customUserAgent"] { entries.append(.init("customUserAgent", string(agent))) }
    entries.append(.init("allowsLinkPreview", .bool(element.flag("allowsLinkPreview", default: true))))
    entries.append(.init("allowsMagnification", .bool(element.flag("allowsMagnification"))))
    entries.append(.init("magnification", .float64(element.double("magnification") ?? 1)))
    graph[view].entries = entries
    try compileChildren(of: element, object: view, known: ["rect", "autoresizingMask", "constraints", "wkWebViewConfiguration"])
    noteUnverified(
      element,
      "<wkWebView> as WKWebView {view keys, configuration (WKWebViewConfiguration, WKPreferences), allowsBackForwardNavigationGestures, allowsLinkPreview, allowsMagnification, magnification}, WebKit's decoder keys"
    )
    return view
  }

  /// `<wkWebViewConfiguration key="configuration">` (or none: WebKit's defaults) →
  /// `WKWebViewConfiguration` {preferences, suppressesIncrementalRendering,
  /// applicationNameForUserAgent (when given), allowsAirPlayForMediaPlayback, drawsBackground}.
  /// `<audiovisualMediaTypes key="mediaTypesRequiringUserActionForPlayback" none="YES">` is
  /// macOS's default, which WebKit's macOS decoder does not read; any other media types are refused.
  mutating func compileWebViewConfiguration(_ element: InterfaceDocument.Element?) throws(InterfaceBuilderError) -> Int {
    let empty = InterfaceDocument.Element(name: "wkWebViewConfiguration")
    let element = element ?? empty
    try checkAttributes(element, known: ["key", "suppressesIncrementalRendering", "applicationNameForUserAgent", "allowsAirPlayForMediaPlayback"])
    var preferences: InterfaceDocument.Element?
    for child in element.children {
      switch (child.name, child["key"]) {
      case ("wkPreferences", "preferences"?): preferences = child
      case ("audiovisualMediaTypes", "mediaTypesRequiringUserActionForPlayback"?):
        guard child.flag("none"), child.attributes.allSatisfy({ ["key", "none"].contains($0.name) }) else {
          throw unsupported(child, "media types requiring user action other than none are not compiled yet (WebKit's macOS decoder does not read them)")
        }
      default: throw unsupported(child)
      }
    }
    let configuration = graph.add("WKWebViewConfiguration")
    var entries: [NibGraph.Entry] = [.init("preferences", .object(try compileWebPreferences(preferences)))]
    entries.append(.init("suppressesIncrementalRendering", .bool(element.flag("suppressesIncrementalRendering"))))
    if let name = element["applicationNameForUserAgent"] { entries.append(.init("applicationNameForUserAgent", string(name))) }
    entries.append(.init("allowsAirPlayForMediaPlayback", .bool(element.flag("allowsAirPlayForMediaPlayback", default: true))))
    entries.append(.init("drawsBackground", .bool(true)))
    graph[configuration].entries = entries
    return configuration
  }

  /// `<wkPreferences key="preferences">` → `WKPreferences` {minimumFontSize,
  /// javaScriptCanOpenWindowsAutomatically, javaScriptEnabled, shouldPrintBackgrounds,
  /// tabFocusesLinks, textInteractionEnabled}, WebKit's defaults where the document says nothing
  /// (its decoder reads every key, a missing one as 0 or NO).
  mutating func compileWebPreferences(_ element: InterfaceDocument.Element?) throws(InterfaceBuilderError) -> Int {
    let element = element ?? InterfaceDocument.Element(name: "wkPreferences")
    try checkAttributes(element, known: ["key", "minimumFontSize", "javaScriptCanOpenWindowsAutomatically", "javaScriptEnabled"])
    if let child = element.children.first { throw unsupported(child) }
    let preferences = graph.add("WKPreferences")
    graph[preferences].entries = [
      .init("minimumFontSize", .float64(element.double("minimumFontSize") ?? 0)),
      .init("javaScriptCanOpenWindowsAutomatically", .bool(element.flag("javaScriptCanOpenWindowsAutomatically"))),
      .init("javaScriptEnabled", .bool(element.flag("javaScriptEnabled", default: true))),
      .init("shouldPrintBackgrounds", .bool(false)), .init("tabFocusesLinks", .bool(false)), .init("textInteractionEnabled", .bool(true)),
    ]
    return preferences
  }
}
