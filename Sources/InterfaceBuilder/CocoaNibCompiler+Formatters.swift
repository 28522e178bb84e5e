import Interface

extension CocoaNibCompiler {
  // MARK: Number and custom formatters

  /// A cell's formatter other than a date formatter (``compileFormatter(_:parent:)`` handles those).
  mutating func compileOtherFormatter(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    switch element.name {
    case "numberFormatter": return try compileNumberFormatter(element, parent: parent)
    case "customFormatter": return try compileCustomFormatter(element, parent: parent)
    default: throw unsupported(element)
    }
  }

  /// `<customFormatter>` → `NSCustomFormatter` with no keys of its own; its `customClass`
  /// makes it an `NSClassSwapper` (see ``applyCustomClasses()``). No Apple sample is known.
  mutating func compileCustomFormatter(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(element, known: [])
    let formatter = try begin(element, className: "NSCustomFormatter", parent: parent)
    try compileChildren(of: element, object: formatter, known: [])
    return formatter
  }

  /// The settings of an `NSNumberFormatter` as AppKit holds them once the xib's attributes are
  /// applied over the defaults of its number style.
  struct NumberFormatterSettings {
    var allowsFloats = true
    var alwaysShowsDecimalSeparator = false
    var formatWidth = 0
    var generatesDecimalNumbers = false
    var groupingSize = 0
    var lenient = false
    var minimumIntegerDigits = 0
    var maximumIntegerDigits = 42
    var minimumFractionDigits = 0
    var maximumFractionDigits = 0
    var usesGroupingSeparator = false
    var numberStyle = 0

    /// The defaults of a 10.4-behaviour formatter of `style` (0 none, 1 decimal; seen in
    /// numfmt_basic and numfmt_decimal).
    init(style: Int) {
      numberStyle = style
      if style == 1 {
        groupingSize = 3
        usesGroupingSeparator = true
        minimumIntegerDigits = 1
        maximumIntegerDigits = 2_000_000_000
        maximumFractionDigits = 3
      }
    }
  }

  /// `<numberFormatter key="formatter">` → `NSNumberFormatter` {NS.attributes (every setting,
  /// keys sorted), NS.positiveformat, NS.negativeformat, NS.positiveattrs/negativeattrs/zero
  /// nil, NS.nil and NS.nan attributed strings, NS.min, NS.max, NS.rounding, NS.decimal,
  /// NS.thousand, NS.hasthousands, NS.localized, NS.allowsfloats} (numfmt, numfmt_basic,
  /// numfmt_decimal).
  ///
  /// The formats and symbols come from the ICU locale Apple's ibtool ran in ("." and ","): only
  /// the styles whose pattern follows from the settings alone are compiled (no style, from
  /// `positiveFormat` or the digit counts, and the decimal style with its usual grouping).
  mutating func compileNumberFormatter(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    try checkAttributes(
      element,
      known: ["formatterBehavior", "numberStyle", "positiveFormat", "negativeFormat", "allowsFloats", "usesGroupingSeparator", "groupingSize",
        "minimumIntegerDigits", "maximumIntegerDigits", "minimumFractionDigits", "maximumFractionDigits", "formatWidth", "currencySymbol",
        "internationalCurrencySymbol", "lenient", "alwaysShowsDecimalSeparator", "generatesDecimalNumbers"])
    let behavior = element["formatterBehavior"] ?? "default10_4"
    guard behavior == "default10_4" || behavior == "custom10_4" else {
      throw unsupported(element, "a number formatter with formatterBehavior \"\(behavior)\" is not compiled yet")
    }
    let styles = ["none": 0, "decimal": 1]
    guard let style = styles[element["numberStyle"] ?? "none"] else {
      throw unsupported(
        element, "a number formatter with numberStyle \"\(element["numberStyle"] ?? "")\" is not compiled yet (its pattern and symbols come from the ICU locale Apple's ibtool ran in)")
    }
    var settings = NumberFormatterSettings(style: style)
    func integer(_ name: String, _ value: inout Int) throws(InterfaceBuilderError) {
      guard let text = element[name] else { return }
      guard let number = Int(text) else { throw invalid(element, "\(name) \"\(text)\" is not an integer") }
      value = number
    }
    try integer("formatWidth", &settings.formatWidth)
    try integer("groupingSize", &settings.groupingSize)
    try integer("minimumIntegerDigits", &settings.minimumIntegerDigits)
    try integer("maximumIntegerDigits", &settings.maximumIntegerDigits)
    try integer("minimumFractionDigits", &settings.minimumFractionDigits)
    try integer("maximumFractionDigits", &settings.maximumFractionDigits)
    settings.allowsFloats = element.flag("allowsFloats", default: settings.allowsFloats)
    settings.usesGroupingSeparator = element.flag("usesGroupingSeparator", default: settings.usesGroupingSeparator)
    settings.lenient = element.flag("lenient", default: settings.lenient)
    settings.alwaysShowsDecimalSeparator = element.flag("alwaysShowsDecimalSeparator", default: settings.alwaysShowsDecimalSeparator)
    settings.generatesDecimalNumbers = element.flag("generatesDecimalNumbers", default: settings.generatesDecimalNumbers)
    if settings.generatesDecimalNumbers { throw unsupported(element, "a number formatter that generates decimal numbers is not compiled yet") }
    if settings.alwaysShowsDecimalSeparator { throw unsupported(element, "a number formatter that always shows the decimal separator is not compiled yet") }

    // Children: the range, and infinity symbols set to nil.
    var minimumElement: InterfaceDocument.Element?, maximumElement: InterfaceDocument.Element?
    var nilSymbols: Set<String> = []
    for child in element.children {
      switch (child.name, child["key"]) {
      case ("real", "minimum"), ("integer", "minimum"): minimumElement = child
      case ("real", "maximum"), ("integer", "maximum"): maximumElement = child
      case ("nil", "negativeInfinitySymbol"), ("nil", "positiveInfinitySymbol"): nilSymbols.insert(child["key"]!)
      default: throw unsupported(child)
      }
    }

    // The patterns.
    let positive: String, negative: String
    if behavior == "custom10_4" {
      guard let given = element["positiveFormat"] else { throw unsupported(element, "a custom10_4 number formatter without positiveFormat is not compiled yet") }
      positive = given
      negative = element["negativeFormat"] ?? given
    } else {
      if element["positiveFormat"] != nil || element["negativeFormat"] != nil {
        throw unsupported(element, "positiveFormat/negativeFormat on a default10_4 number formatter is not compiled yet")
      }
      positive = try numberPattern(settings, element: element)
      negative = positive
    }

    let formatter = try begin(element, className: "NSNumberFormatter", parent: parent)
    // The settings dictionary, keys sorted; numbers are created in that order (an integer and a
    // double of the same value share the first one, numfmt: minimumIntegerDigits → 1.0).
    var items: [(key: String, value: Int)] = []
    items.append(("allowsFloats", boolNumber(settings.allowsFloats)))
    items.append(("alwaysShowsDecimalSeparator", boolNumber(settings.alwaysShowsDecimalSeparator)))
    if let symbol = element["currencySymbol"] { items.append(("currencySymbol", stringIndex(symbol))) }
    items.append(("formatWidth", number(settings.formatWidth)))
    items.append(("formatterBehavior", number(1040)))
    items.append(("generatesDecimalNumbers", boolNumber(settings.generatesDecimalNumbers)))
    items.append(("groupingSize", number(settings.groupingSize)))
    if let symbol = element["internationalCurrencySymbol"] { items.append(("internationalCurrencySymbol", stringIndex(symbol))) }
    items.append(("lenient", boolNumber(settings.lenient)))
    var maximum: Int?, minimum: Int?
    if let maximumElement {
      maximum = try rangeNumber(maximumElement)
      items.append(("maximum", maximum!))
    }
    items.append(("maximumFractionDigits", number(settings.maximumFractionDigits)))
    items.append(("maximumIntegerDigits", number(settings.maximumIntegerDigits)))
    if let minimumElement {
      minimum = try rangeNumber(minimumElement)
      items.append(("minimum", minimum!))
    }
    items.append(("minimumFractionDigits", number(settings.minimumFractionDigits)))
    items.append(("minimumIntegerDigits", number(settings.minimumIntegerDigits)))
    if let format = element["negativeFormat"] { items.append(("negativeFormat", stringIndex(format))) }
    if !nilSymbols.contains("negativeInfinitySymbol") { items.append(("negativeInfinitySymbol", stringIndex("-∞"))) }
    items.append(("nilSymbol", stringIndex("")))
    if settings.numberStyle != 0 { items.append(("numberStyle", number(settings.numberStyle))) }
    items.append(("paddingPosition", number(0)))
    if let format = element["positiveFormat"] { items.append(("positiveFormat", stringIndex(format))) }
    if !nilSymbols.contains("positiveInfinitySymbol") { items.append(("positiveInfinitySymbol", stringIndex("+∞"))) }
    items.append(("roundingMode", number(4)))
    items.append(("secondaryGroupingSize", number(0)))
    items.append(("usesGroupingSeparator", boolNumber(settings.usesGroupingSeparator)))
    var dictionary: [Int] = []
    for item in items { dictionary += [stringIndex(item.key), item.value] }
    let attributes = graph.collection("NSMutableDictionary", dictionary)

    var entries: [NibGraph.Entry] = [
      .init("NS.attributes", .object(attributes)), .init("NS.positiveformat", string(positive)), .init("NS.negativeformat", string(negative)),
      .init("NS.positiveattrs", .null), .init("NS.negativeattrs", .null), .init("NS.zero", .null),
    ]
    let nilString = graph.add("NSAttributedString", [.init("NSString", string(""))])
    entries.append(.init("NS.nil", .object(nilString)))
    let emptyAttributes = graph.collection("NSDictionary", [])
    let nanString = graph.add("NSAttributedString", [.init("NSString", string("NaN")), .init("NSAttributes", .object(emptyAttributes))])
    entries.append(.init("NS.nan", .object(nanString)))
    // Without a minimum or maximum AppKit holds NSDecimalNumber's not-a-number (numfmt_decimal).
    let notANumber = (minimum == nil || maximum == nil) ? decimalNotANumber() : 0
    entries.append(.init("NS.min", .object(minimum ?? notANumber)))
    entries.append(.init("NS.max", .object(maximum ?? notANumber)))
    // roundingMode 4 (half even) is NSDecimalNumberHandler's NSRoundBankers (3).
    let handler = graph.add(
      "NSDecimalNumberHandler",
      [
        .init("NS.roundingmode", .int8(3)), .init("NS.raise.overflow", .bool(true)), .init("NS.raise.underflow", .bool(true)),
        .init("NS.raise.dividebyzero", .bool(true)),
      ])
    entries.append(.init("NS.rounding", .object(handler)))
    entries.append(.init("NS.decimal", string(".")))
    entries.append(.init("NS.thousand", string(",")))
    entries.append(.init("NS.hasthousands", .bool(settings.usesGroupingSeparator)))
    entries.append(.init("NS.localized", .bool(true)))
    entries.append(.init("NS.allowsfloats", .bool(settings.allowsFloats)))
    graph[formatter].entries = entries
    return formatter
  }

  /// The ICU pattern AppKit derives for a 10.4-behaviour formatter: with no style, "#" for each
  /// optional integer digit (at most 42 in all) and "0" for each required one (numfmt_basic:
  /// 0…42 → 42 "#"); the decimal style "#,##0" (numfmt_decimal); then the fraction digits.
  func numberPattern(_ settings: NumberFormatterSettings, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> String {
    var pattern: String
    switch settings.numberStyle {
    case 0:
      guard !settings.usesGroupingSeparator, settings.minimumIntegerDigits >= 0, settings.minimumIntegerDigits <= 42 else {
        throw unsupported(element, "the pattern of this number formatter (grouping, or over 42 integer digits) is not known")
      }
      let optional = max(min(settings.maximumIntegerDigits, 42) - settings.minimumIntegerDigits, 0)
      pattern = String(repeating: "#", count: optional) + String(repeating: "0", count: settings.minimumIntegerDigits)
    default:
      guard settings.usesGroupingSeparator, settings.groupingSize == 3, settings.minimumIntegerDigits == 1,
        settings.maximumIntegerDigits == 2_000_000_000
      else {
        throw unsupported(element, "the pattern of a decimal number formatter other than \"#,##0\" with 1 to 2000000000 integer digits is not known")
      }
      pattern = "#,##0"
    }
    guard settings.minimumFractionDigits >= 0, settings.maximumFractionDigits >= settings.minimumFractionDigits else {
      throw invalid(element, "minimumFractionDigits is above maximumFractionDigits")
    }
    // A double has 17 significant digits; NSNumberFormatter caps fraction digits far below this.
    guard settings.maximumFractionDigits <= 340 else {
      throw invalid(element, "maximumFractionDigits \(settings.maximumFractionDigits) is more than a number formatter can show")
    }
    if settings.maximumFractionDigits > 0 {
      pattern += "." + String(repeating: "0", count: settings.minimumFractionDigits)
        + String(repeating: "#", count: settings.maximumFractionDigits - settings.minimumFractionDigits)
    }
    return pattern
  }

  /// The shared NSNumber of a formatter's `<real key="minimum">`/`<integer key="maximum">`.
  mutating func rangeNumber(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let text = element["value"] else { throw invalid(element, "a number needs value") }
    if element.name == "integer" {
      guard let value = Int(text) else { throw invalid(element, "\"\(text)\" is not an integer") }
      return number(value)
    }
    guard let value = Double(text) else { throw invalid(element, "\"\(text)\" is not a number") }
    return number(double: value)
  }

  /// NSDecimalNumber's not-a-number as an `NSDecimalNumberPlaceholder` (one shared object).
  mutating func decimalNotANumber() -> Int {
    (try? shared("decimal:NaN") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      compiler.graph.add(
        "NSDecimalNumberPlaceholder",
        [
          .init("NS.exponent", .int8(0)), .init("NS.length", .int8(0)), .init("NS.negative", .bool(true)), .init("NS.compact", .bool(false)),
          .init("NS.mantissa.bo", .int8(1)), .init("NS.mantissa", .data([UInt8](repeating: 0, count: 16))),
        ])
    }) ?? 0
  }

  /// A text field cell's NSContents: its title, except that a number formatter holds the number
  /// it parses (numfmt_decimal: title "400" → NSNumber 400) and no contents for no title
  /// (numfmt, numfmt_basic).
  mutating func cellContents(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> NIBArchive.Payload? {
    let title = element["title"] ?? ""
    guard let formatter = element.child("numberFormatter", key: "formatter") else { return string(title) }
    if title.isEmpty { return nil }
    guard let value = Int(title) else {
      throw unsupported(element, "a title (\"\(title)\") other than an integer in a cell with a number formatter is not compiled yet (how the formatter parses it is not known here)")
    }
    _ = formatter
    return .object(number(value))
  }
}

extension CocoaNibCompiler {
  // MARK: Attributed strings

  /// A text view's `NSTextStorage` {NSString (an NSMutableString), NSAttributes, NSAttributeInfo,
  /// NSDelegate nil}. Without `<attributedString key="textStorage">` it holds an empty string and
  /// no attributes. Each `<fragment>` is a run whose attributes are the System `textColor` and its
  /// `NSFont` (Helvetica 12 without one); equal neighbouring runs merge. One run: NSAttributes is
  /// its NSDictionary; several: an NSMutableArray of the distinct dictionaries and NSAttributeInfo
  /// an NSMutableData of (length, dictionary index) pairs (textview_attributedstring,
  /// textview_multiattr).
  mutating func textStorage(_ element: InterfaceDocument.Element?) throws(InterfaceBuilderError) -> Int {
    guard let element else { return graph.add("NSTextStorage", [.init("NSString", mutableString("")), .init("NSDelegate", .null)]) }
    try checkAttributes(element, known: [])
    var runs: [(length: Int, font: InterfaceDocument.Element?)] = []
    var text = ""
    for fragment in element.children {
      guard fragment.name == "fragment" else { throw unsupported(fragment) }
      try checkAttributes(fragment, known: ["content"])
      var content = fragment["content"]
      var font: InterfaceDocument.Element?
      for child in fragment.children {
        switch child.name {
        case "string" where child["key"] == "content": content = try stringContent(child)
        case "attributes":
          for attribute in child.children {
            guard attribute.name == "font", attribute["key"] == "NSFont" else {
              throw unsupported(attribute, "a text attribute other than NSFont (<\(attribute.name) key=\"\(attribute["key"] ?? "")\">) is not compiled yet")
            }
            font = attribute
          }
        default: throw unsupported(child)
        }
      }
      guard let content else { throw invalid(fragment, "a fragment needs content") }
      let length = content.utf16.count
      guard length > 0 else { continue }
      text += content
      if let last = runs.last, last.font == font ||
        (last.font.map { $0.attributes.elementsEqual(font?.attributes ?? [], by: { $0 == $1 }) } ?? false)
      {
        runs[runs.count - 1].length += length
      } else {
        runs.append((length, font))
      }
    }
    var dictionaries: [Int] = []
    var keysOfDictionaries: [Int: Int] = [:]  // font object → index in dictionaries
    var info: [UInt8] = []
    let color = try catalogColor("textColor", catalog: "System", element: element)
    let helvetica = InterfaceDocument.Element(name: "font", attributes: [("name", "Helvetica"), ("size", "12")], line: element.line)
    for run in runs {
      let font = try self.font(run.font ?? helvetica, defaultSize: 12)
      let index: Int
      if let known = keysOfDictionaries[font] {
        index = known
      } else {
        index = dictionaries.count
        keysOfDictionaries[font] = index
        dictionaries.append(graph.collection("NSDictionary", [stringIndex("NSColor"), color, stringIndex("NSFont"), font]))
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
      entries.append(.init("NSAttributeInfo", .object(graph.add("NSMutableData", [.init("NS.bytes", .data(info))]))))
    }
    entries.append(.init("NSDelegate", .null))
    return graph.add("NSTextStorage", entries)
  }
}
