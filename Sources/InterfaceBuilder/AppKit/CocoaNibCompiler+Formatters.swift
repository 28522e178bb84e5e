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
    if behavior == "custom10_4", let given = element["positiveFormat"] {
      positive = given
      negative = element["negativeFormat"] ?? given
    } else if behavior == "custom10_4" {
      // A custom formatter without formats gets the pattern its digit settings give, as a
      // 10.4-default one does: the public Python clone (viraptor/ibtool `numberFormatter.py`)
      // builds every formatter's pattern from the digits alone and matches Apple's compile of
      // its numfmt_dedup sample (custom10_4, 1…42 integer digits); one public sample, no corpus pair.
      noteUnverified(element, "a custom10_4 number formatter without positiveFormat, its pattern from the digit settings")
      positive = try numberPattern(settings, element: element)
      negative = positive
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
    if let symbol = element["currencySymbol"] { items.append(("currencySymbol", sharedString(symbol))) }
    items.append(("formatWidth", number(settings.formatWidth)))
    items.append(("formatterBehavior", number(1040)))
    items.append(("generatesDecimalNumbers", boolNumber(settings.generatesDecimalNumbers)))
    items.append(("groupingSize", number(settings.groupingSize)))
    if let symbol = element["internationalCurrencySymbol"] { items.append(("internationalCurrencySymbol", sharedString(symbol))) }
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
    if let format = element["negativeFormat"] { items.append(("negativeFormat", sharedString(format))) }
    if !nilSymbols.contains("negativeInfinitySymbol") { items.append(("negativeInfinitySymbol", sharedString("-∞"))) }
    items.append(("nilSymbol", sharedString("")))
    if settings.numberStyle != 0 { items.append(("numberStyle", number(settings.numberStyle))) }
    items.append(("paddingPosition", number(0)))
    if let format = element["positiveFormat"] { items.append(("positiveFormat", sharedString(format))) }
    if !nilSymbols.contains("positiveInfinitySymbol") { items.append(("positiveInfinitySymbol", sharedString("+∞"))) }
    items.append(("roundingMode", number(4)))
    items.append(("secondaryGroupingSize", number(0)))
    items.append(("usesGroupingSeparator", boolNumber(settings.usesGroupingSeparator)))
    var dictionary: [Int] = []
    for item in items { dictionary += [sharedString(item.key), item.value] }
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
  /// (numfmt, numfmt_basic), and a date formatter the `NSDate` {NS.time} its pattern parses
  /// (test_date_formatter: "4/1/1976, 11:00 pm" → 1976-01-04 23:00 GMT), or the title itself
  /// when the pattern does not parse it (datacell_unparseable: "Text Cell").
  mutating func cellContents(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> NIBArchive.Payload? {
    let title = element["title"] ?? ""
    if let formatter = element.child("dateFormatter", key: "formatter") {
      // A fixed dateFormat leaves the title a string (dateformatter_weekday, the clone's one sample).
      if formatter["dateFormat"] != nil { return string(title) }
      guard let pattern = try datePattern(formatter), let time = Self.parseDate(title, pattern: pattern) else { return string(title) }
      return .object(graph.add("NSDate", [.init("NS.time", .float64(time))]))
    }
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
  // MARK: Formatters

  /// A cell's `<dateFormatter key="formatter">` → `NSDateFormatter` {NS.attributes (the
  /// formatter's settings, keys sorted), NS.format (the ICU pattern Apple's ibtool resolved),
  /// NS.natural}. Number and custom formatters: ``compileOtherFormatter(_:parent:)``.
  mutating func compileFormatter(_ element: InterfaceDocument.Element, parent: Int) throws(InterfaceBuilderError) -> Int {
    guard element.name == "dateFormatter" else { return try compileOtherFormatter(element, parent: parent) }
    try checkAttributes(element, known: ["dateStyle", "timeStyle", "doesRelativeDateFormatting", "formatterBehavior", "dateFormat"])
    if let custom = element["dateFormat"] { return try compileCustomDateFormatter(element, format: custom, parent: parent) }
    if let behavior = element["formatterBehavior"], behavior != "default10_4" { throw unsupported(element, "formatterBehavior \"\(behavior)\" is not compiled yet") }
    let (dateStyle, timeStyle) = try dateStyles(element)
    guard let format = try datePattern(element) else {
      throw unsupported(element, "the pattern of a date formatter with dateStyle \(element["dateStyle"] ?? "none") and timeStyle \(element["timeStyle"] ?? "none") is not known")
    }
    if !Self.dateStylesSeenInAppleNibs.contains("\(dateStyle),\(timeStyle)") {
      noteUnverified(element, "a date formatter's pattern \"\(format)\" for dateStyle \(element["dateStyle"] ?? "none") and timeStyle \(element["timeStyle"] ?? "none") (ICU's en_AU pattern)")
    }
    let formatter = try begin(element, className: "NSDateFormatter", parent: parent)
    var pairs: [Int] = []
    if dateStyle != 0 { pairs += [sharedString("dateStyle"), number(dateStyle)] }
    if element.flag("doesRelativeDateFormatting") { pairs += [sharedString("doesRelativeDateFormatting"), boolNumber(true)] }
    pairs += [sharedString("formatterBehavior"), number(1040)]
    if timeStyle != 0 { pairs += [sharedString("timeStyle"), number(timeStyle)] }
    graph[formatter].entries = [
      .init("NS.attributes", .object(graph.collection("NSMutableDictionary", pairs))), .init("NS.format", string(format)),
      .init("NS.natural", .bool(false)),
    ]
    try compileChildren(of: element, object: formatter, known: [])
    return formatter
  }

  /// `<dateFormatter formatterBehavior="custom10_4" dateFormat="EEEE">` → `NSDateFormatter`
  /// {NS.attributes {dateFormat: the pattern, dateStyle 0, formatterBehavior 1040, timeStyle 0},
  /// NS.format: the pattern as written, NS.natural false}. The styles are AppKit's none (0): a
  /// fixed format replaces them (`-[NSDateFormatter setDateFormat:]`). The pattern is archived
  /// as the document gives it (no locale is involved), and the cell's title stays a string (see
  /// ``cellContents(_:)``). Evidence: the public Python clone's reading of Apple's compile of its
  /// dateformatter_weekday sample (viraptor/ibtool `dateFormatter.py`); one public sample, no
  /// corpus pair, so it is reported as unverified.
  mutating func compileCustomDateFormatter(_ element: InterfaceDocument.Element, format: String, parent: Int) throws(InterfaceBuilderError) -> Int {
    if let behavior = element["formatterBehavior"], behavior != "custom10_4" && behavior != "default10_4" {
      throw unsupported(element, "formatterBehavior \"\(behavior)\" is not compiled yet")
    }
    if element["dateStyle"] != nil || element["timeStyle"] != nil || element["doesRelativeDateFormatting"] != nil {
      throw unsupported(element, "a date formatter with both dateFormat and date or time styles is not compiled yet (no public sample shows which wins)")
    }
    noteUnverified(element, "a date formatter's fixed dateFormat \"\(format)\" as NS.format and NS.attributes {dateFormat, dateStyle 0, formatterBehavior 1040, timeStyle 0}")
    let formatter = try begin(element, className: "NSDateFormatter", parent: parent)
    let none = number(0)
    let pairs = [
      sharedString("dateFormat"), sharedString(format), sharedString("dateStyle"), none, sharedString("formatterBehavior"), number(1040),
      sharedString("timeStyle"), none,
    ]
    graph[formatter].entries = [
      .init("NS.attributes", .object(graph.collection("NSMutableDictionary", pairs))), .init("NS.format", string(format)),
      .init("NS.natural", .bool(false)),
    ]
    try compileChildren(of: element, object: formatter, known: [])
    return formatter
  }

  /// A `<dateFormatter>`'s dateStyle and timeStyle as NSDateFormatterStyle values (none 0 … full 4).
  func dateStyles(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> (date: Int, time: Int) {
    let styles = ["none": 0, "short": 1, "medium": 2, "long": 3, "full": 4]
    guard let date = styles[element["dateStyle"] ?? "none"], let time = styles[element["timeStyle"] ?? "none"] else {
      throw invalid(element, "dateStyle/timeStyle must be none, short, medium, long or full")
    }
    return (date, time)
  }

  /// The ICU pattern (`NS.format`) of a 10.4-behaviour date formatter's styles in the locale
  /// Apple's ibtool ran in (en_AU: day first, "at", a narrow no-break space before the day
  /// period), or `nil` for none/none (no pattern).
  ///
  /// The table is ICU's en_AU date and time patterns (`udat_open(timeStyle, dateStyle, "en_AU")`,
  /// ICU 72 / CLDR 42) with a lone `yy` written `y`, as macOS's ICU gives it — the public Python
  /// ibtool clone's reading (viraptor/ibtool `ibtool/parsers/dateFormatter.py`, which asks ICU for
  /// the pattern in en_AU and makes that one change). Evidence in the corpus: short/short
  /// (test_date_formatter, datacell_unparseable) and long/short (textfield_formatter) are Apple's
  /// exactly; the other combinations rest on ICU and the clone, and are reported as unverified
  /// (``dateStylesSeenInAppleNibs``).
  static let datePatterns: [String: String] = {
    let dates = ["", "d/M/y", "d MMM y", "d MMMM y", "EEEE, d MMMM y"]
    let times = ["", "h:mm\u{202F}a", "h:mm:ss\u{202F}a", "h:mm:ss\u{202F}a z", "h:mm:ss\u{202F}a zzzz"]
    var patterns: [String: String] = [:]
    for date in 0...4 {
      for time in 0...4 where date != 0 || time != 0 {
        // Short and medium dates join the time with ", ", long and full ones with " 'at' ".
        let joiner = date >= 3 ? " 'at' " : ", "
        patterns["\(date),\(time)"] = date == 0 ? times[time] : time == 0 ? dates[date] : dates[date] + joiner + times[time]
      }
    }
    return patterns
  }()

  /// The date and time style pairs an Apple-compiled corpus nib shows.
  static let dateStylesSeenInAppleNibs: Set<String> = ["1,1", "3,1"]

  func datePattern(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> String? {
    let (date, time) = try dateStyles(element)
    return Self.datePatterns["\(date),\(time)"]
  }

  /// The seconds since 2001-01-01 00:00 GMT (NSDate's `NS.time`) of `text` read with the ICU
  /// date `pattern`, in GMT, as Apple's ibtool parsed a date-formatted cell's title
  /// (test_date_formatter, one sample: "4/1/1976, 11:00 pm" with "d/M/y, h:mm a" →
  /// −788662800, 1976-01-04 23:00 GMT); `nil` when it does not parse.
  ///
  /// Fields: `d`, `M`/`MM` (number), `MMM` (its first three letters, "Sept" too), `MMMM`
  /// (English month name), `EEEE` (an English weekday's name, read and not checked), `y`, `h`
  /// (1…12), `mm`, `ss`, `a` (am/pm, any case), `z`…`zzzz` (GMT or UTC only); quoted literals; whitespace in either matches any run of whitespace
  /// (the pattern's narrow no-break space matches the title's space, as ICU's lenient parse
  /// does). Any other field letter gives `nil`.
  static func parseDate(_ text: String, pattern: String) -> Double? {
    let input = Array(text.unicodeScalars), format = Array(pattern.unicodeScalars)
    var position = 0, index = 0
    var day: Int?, month: Int?, year: Int?, hour12: Int?, minute = 0, isPM: Bool?
    let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
    let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    var second = 0
    func skipSpaces() { while position < input.count, input[position].properties.isWhitespace { position += 1 } }
    func readNumber(maximumDigits: Int) -> Int? {
      var value = 0, digits = 0
      while position < input.count, digits < maximumDigits, let digit = input[position].properties.numericType == .decimal ? Int(String(input[position])) : nil {
        value = value * 10 + digit
        position += 1
        digits += 1
      }
      return digits == 0 ? nil : value
    }
    func literal(_ scalar: Unicode.Scalar) -> Bool {
      if scalar.properties.isWhitespace {
        skipSpaces()
        return true
      }
      guard position < input.count, input[position] == scalar else { return false }
      position += 1
      return true
    }
    while index < format.count {
      let scalar = format[index]
      if scalar == "'" {
        index += 1
        while index < format.count, format[index] != "'" {
          guard literal(format[index]) else { return nil }
          index += 1
        }
        index += 1
        continue
      }
      guard scalar.properties.isAlphabetic, scalar.isASCII else {
        guard literal(scalar) else { return nil }
        index += 1
        continue
      }
      var count = 0
      while index < format.count, format[index] == scalar { count += 1; index += 1 }
      switch (scalar, count) {
      case ("d", 1...2): day = readNumber(maximumDigits: 2)
      case ("M", 1...2): month = readNumber(maximumDigits: 2)
      case ("M", 4):
        let rest = String(String.UnicodeScalarView(input[position...])).lowercased()
        guard let found = months.firstIndex(where: { rest.hasPrefix($0) }) else { return nil }
        month = found + 1
        position += months[found].unicodeScalars.count
      case ("M", 3):
        // en_AU's abbreviations are the first three letters ("Sept" for September), a full stop optional.
        let rest = String(String.UnicodeScalarView(input[position...])).lowercased()
        guard let found = months.firstIndex(where: { rest.hasPrefix($0.prefix(3)) }) else { return nil }
        month = found + 1
        position += found == 8 && rest.hasPrefix("sept") ? 4 : 3
        if position < input.count, input[position] == "." { position += 1 }
      case ("E", 4):
        // The weekday's name is read, not checked: the day, month and year fix the date (ICU
        // resolves a date from them before the day of the week).
        let rest = String(String.UnicodeScalarView(input[position...])).lowercased()
        guard let found = weekdays.firstIndex(where: { rest.hasPrefix($0) }) else { return nil }
        position += weekdays[found].unicodeScalars.count
      case ("s", 1...2): guard let value = readNumber(maximumDigits: 2), value < 60 else { return nil }; second = value
      case ("z", 1...4):
        // Only the time zone ibtool compiles in (GMT/UTC) is read.
        let rest = String(String.UnicodeScalarView(input[position...]))
        guard let zone = ["Coordinated Universal Time", "Greenwich Mean Time", "UTC", "GMT"].first(where: { rest.hasPrefix($0) }) else { return nil }
        position += zone.unicodeScalars.count
      case ("y", 1): year = readNumber(maximumDigits: 9)
      case ("h", 1...2): hour12 = readNumber(maximumDigits: 2)
      case ("m", 1...2): guard let value = readNumber(maximumDigits: 2) else { return nil }; minute = value
      case ("a", 1):
        let rest = String(String.UnicodeScalarView(input[position...])).lowercased()
        if rest.hasPrefix("am") { isPM = false } else if rest.hasPrefix("pm") { isPM = true } else { return nil }
        position += 2
      default: return nil
      }
    }
    skipSpaces()
    guard position == input.count, let day, let month, let year, (1...12).contains(month), (1...31).contains(day), minute < 60 else { return nil }
    var hour = 0
    if let hour12 {
      guard (1...12).contains(hour12), let isPM else { return nil }
      hour = hour12 % 12 + (isPM ? 12 : 0)
    }
    // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's civil rule).
    let shifted = month <= 2 ? year - 1 : year
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let unixSeconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second)
    return unixSeconds - 978_307_200
  }

  /// The shared `NSNumber` of a bool (`NS.boolval`; not shared with the integers).
  mutating func boolNumber(_ value: Bool) -> Int {
    (try? shared("number:bool:\(value)") { (compiler: inout CocoaNibCompiler) throws(InterfaceBuilderError) in
      compiler.graph.add("NSNumber", [.init("NS.boolval", .bool(value))])
    }) ?? 0
  }
}
