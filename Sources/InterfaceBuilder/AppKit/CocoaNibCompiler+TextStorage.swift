import Interface

extension CocoaNibCompiler {
  // MARK: Attributed strings

  /// A text view's `NSTextStorage` {NSString (an NSMutableString), NSAttributes, NSAttributeInfo,
  /// NSDelegate nil}. Without `<attributedString key="textStorage">` it holds an empty string and
  /// no attributes. Each `<fragment>` is a run whose attributes are the System `textColor` and its
  /// `NSFont` (Helvetica 12 without one); equal neighbouring runs merge. One run: NSAttributes is
  /// its NSDictionary; several: an NSMutableArray of the distinct dictionaries and NSAttributeInfo
  /// an NSMutableData of (length, dictionary index) pairs (textview_attributedstring,
  /// textview_multiattr). A `<paragraphStyle key="NSParagraphStyle">` adds an NSParagraphStyle
  /// to its run's dictionary (``paragraphStyle(_:tabs:)``); runs differ when their font or
  /// their paragraph style's attributes differ.
  mutating func textStorage(_ element: InterfaceDocument.Element?) throws(InterfaceBuilderError) -> Int {
    guard let element else { return graph.add("NSTextStorage", [.init("NSString", mutableString("")), .init("NSDelegate", .null)]) }
    try checkAttributes(element, known: [])
    var runs: [(length: Int, font: InterfaceDocument.Element?, paragraph: InterfaceDocument.Element?)] = []
    var text = ""
    for fragment in element.children {
      guard fragment.name == "fragment" else { throw unsupported(fragment) }
      try checkAttributes(fragment, known: ["content"])
      var content = fragment["content"]
      var font: InterfaceDocument.Element?, paragraph: InterfaceDocument.Element?
      for child in fragment.children {
        switch child.name {
        case "string" where child["key"] == "content": content = try stringContent(child)
        case "attributes":
          for attribute in child.children {
            switch (attribute.name, attribute["key"]) {
            case ("font", "NSFont"): font = attribute
            case ("paragraphStyle", "NSParagraphStyle"): paragraph = attribute
            default:
              throw unsupported(attribute, "a text attribute other than NSFont and NSParagraphStyle (<\(attribute.name) key=\"\(attribute["key"] ?? "")\">) is not compiled yet")
            }
          }
        default: throw unsupported(child)
        }
      }
      guard let content else { throw invalid(fragment, "a fragment needs content") }
      let length = content.utf16.count
      guard length > 0 else { continue }
      text += content
      if let last = runs.last, Self.sameAttributes(last.font, font), try paragraphSignature(last.paragraph) == paragraphSignature(paragraph) {
        runs[runs.count - 1].length += length
      } else {
        runs.append((length, font, paragraph))
      }
    }
    var dictionaries: [Int] = []
    var keysOfDictionaries: [String: Int] = [:]  // font object and paragraph signature → index in dictionaries
    var tabs: [Double: Int] = [:]
    var info: [UInt8] = []
    let color = try catalogColor("textColor", catalog: "System", element: element)
    let helvetica = InterfaceDocument.Element(name: "font", attributes: [("name", "Helvetica"), ("size", "12")], line: element.line)
    for run in runs {
      let font = try self.font(run.font ?? helvetica, defaultSize: 12)
      let key = "\(font) \(try paragraphSignature(run.paragraph) ?? "")"
      let index: Int
      if let known = keysOfDictionaries[key] {
        index = known
      } else {
        index = dictionaries.count
        keysOfDictionaries[key] = index
        var members = [sharedString("NSColor"), color, sharedString("NSFont"), font]
        if let paragraph = run.paragraph { members += [sharedString("NSParagraphStyle"), try paragraphStyle(paragraph, tabs: &tabs)] }
        dictionaries.append(graph.collection("NSDictionary", members))
      }
      guard run.length < 128, index < 128 else {
        throw unsupported(element, "a text run of 128 characters or more (how NSAttributeInfo writes its length is not known here)")
      }
      info += [UInt8(run.length), UInt8(index)]
    }
    var entries: [NibGraph.Entry] = [.init("NSString", mutableString(text))]
    if runs.count == 1 {
      entries.append(.init("NSAttributes", .object(dictionaries[0])))
    } else if runs.count > 1 {
      entries.append(.init("NSAttributes", .object(graph.collection("NSMutableArray", dictionaries))))
      entries.append(.init("NSAttributeInfo", .object(graph.data(info, className: "NSMutableData"))))
    }
    entries.append(.init("NSDelegate", .null))
    return graph.add("NSTextStorage", entries)
  }
}
