import Foundation

import KeyedArchive

// Test-side models of the Foundation classes in the corpus that Stasis does not model itself.
// Each decodes the keys Apple's archiver wrote (as seen in the macOS 10.14 fixtures) and writes
// them back the same way. Where a value can carry an archived form that a typed Swift field
// would lose (a time zone's rules, an NSMutableArray), the model keeps the decoded object, so
// that with `KeyedUnarchiver.preservesArchivedForm` re-archiving writes the graph it read.

/// `NSFormatter`, the formatters' superclass: registered so that a re-archived formatter's
/// `$classes` read as Apple's (`NSDateIntervalFormatter`, `NSFormatter`, `NSObject`).
class FormatterArchive: ArchiveEncodable, ArchiveDecodable {
  init() {}
  required init(coder: ArchiveDecoder) throws {}
  func encode(with coder: ArchiveEncoder) throws {}
}

/// `NSByteCountFormatter` (an `NSFormatter`): only keys that differ from the defaults are written.
final class ByteCountFormatterArchive: FormatterArchive, Equatable {
  var allowedUnits = 0
  var countStyle = 0
  var formattingContext = 0
  var zeroPads = false
  var includesUnit = true
  var includesCount = true
  var isAdaptive = true
  var allowsNonnumericFormatting = true

  override init() { super.init() }

  required init(coder: ArchiveDecoder) throws {
    allowedUnits = try coder.decodeInteger(forKey: "NSUnits")
    countStyle = try coder.decodeInteger(forKey: "NSKBSize")
    formattingContext = try coder.decodeInteger(forKey: "NSFormattingContext")
    zeroPads = try coder.decodeBool(forKey: "NSZeroPad")
    includesUnit = try !coder.decodeBool(forKey: "NSNoUnit")
    includesCount = try !coder.decodeBool(forKey: "NSNoCount")
    isAdaptive = try !coder.decodeBool(forKey: "NSNoAdaptive")
    allowsNonnumericFormatting = try !coder.decodeBool(forKey: "NSNoNonnumeric")
    try super.init(coder: coder)
  }

  static func == (lhs: ByteCountFormatterArchive, rhs: ByteCountFormatterArchive) -> Bool {
    (lhs.allowedUnits, lhs.countStyle, lhs.formattingContext) == (rhs.allowedUnits, rhs.countStyle, rhs.formattingContext)
      && (lhs.zeroPads, lhs.includesUnit, lhs.includesCount) == (rhs.zeroPads, rhs.includesUnit, rhs.includesCount)
      && (lhs.isAdaptive, lhs.allowsNonnumericFormatting) == (rhs.isAdaptive, rhs.allowsNonnumericFormatting)
  }

  override func encode(with coder: ArchiveEncoder) throws {
    if allowedUnits != 0 { coder.encode(allowedUnits, forKey: "NSUnits") }
    if countStyle != 0 { coder.encode(countStyle, forKey: "NSKBSize") }
    if formattingContext != 0 { coder.encode(formattingContext, forKey: "NSFormattingContext") }
    if zeroPads { coder.encode(true, forKey: "NSZeroPad") }
    if !includesUnit { coder.encode(true, forKey: "NSNoUnit") }
    if !includesCount { coder.encode(true, forKey: "NSNoCount") }
    if !isAdaptive { coder.encode(true, forKey: "NSNoAdaptive") }
    if !allowsNonnumericFormatting { coder.encode(true, forKey: "NSNoNonnumeric") }
  }
}

/// `NSCalendar` as a date-interval formatter archives it.
final class CalendarArchive: ArchiveEncodable, ArchiveDecodable {
  let identifier: String
  /// A `TimeZone`, or an `ArchivedTimeZone` (with Apple's rules) when archived forms are kept.
  let timeZoneObject: Any?
  var timeZone: TimeZone? { corpusTimeZone(timeZoneObject) }
  /// A `Locale`, or an `ArchivedLocale` (one per Apple instance) when archived forms are kept.
  let localeObject: Any?
  var locale: Locale? { corpusLocale(localeObject) }
  let firstWeekday: Int
  let minimumDaysInFirstWeek: Int
  let gregorianStartDate: Date?

  init(coder: ArchiveDecoder) throws {
    identifier = try coder.decodeRequired(String.self, forKey: "NS.identifier")
    timeZoneObject = try coder.decodeObject(of: [TimeZone.self], forKey: "NS.timezone")
    localeObject = try coder.decodeObject(of: [Locale.self], forKey: "NS.locale")
    firstWeekday = try coder.decodeInteger(forKey: "NS.firstwkdy")
    minimumDaysInFirstWeek = try coder.decodeInteger(forKey: "NS.mindays")
    gregorianStartDate = try coder.decode(Date.self, forKey: "NS.gstartdate")
  }

  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(identifier, forKey: "NS.identifier")
    try coder.encode(timeZoneObject, forKey: "NS.timezone")
    try coder.encode(localeObject, forKey: "NS.locale")
    coder.encode(firstWeekday, forKey: "NS.firstwkdy")
    coder.encode(minimumDaysInFirstWeek, forKey: "NS.mindays")
    try coder.encode(gregorianStartDate, forKey: "NS.gstartdate")
  }
}

/// `NSDateIntervalFormatter`.
final class DateIntervalFormatterArchive: FormatterArchive {
  let dateStyle: Int
  let timeStyle: Int
  /// The templates as decoded: `String`, or `ArchivedString` when archived forms are kept and
  /// the archive holds an equal string elsewhere as another entry.
  let dateTemplateObject: Any
  var dateTemplate: String { KeyedUnarchiver.plainValue(dateTemplateObject) as? String ?? "" }
  let dateTemplateFromStylesObject: Any
  var dateTemplateFromStyles: String { KeyedUnarchiver.plainValue(dateTemplateFromStylesObject) as? String ?? "" }
  let modified: Bool
  let useTemplate: Bool
  let localeObject: Any?
  var locale: Locale? { corpusLocale(localeObject) }
  let calendar: CalendarArchive?
  let timeZoneObject: Any?
  var timeZone: TimeZone? { corpusTimeZone(timeZoneObject) }

  required init(coder: ArchiveDecoder) throws {
    dateStyle = try coder.decodeInteger(forKey: "NS.dateStyle")
    timeStyle = try coder.decodeInteger(forKey: "NS.timeStyle")
    dateTemplateObject = try coder.decodeObject(of: [String.self], forKey: "NS.dateTemplate") ?? ""
    dateTemplateFromStylesObject = try coder.decodeObject(of: [String.self], forKey: "NS.dateTemplateFromStyles") ?? ""
    modified = try coder.decodeBool(forKey: "NS.modified")
    useTemplate = try coder.decodeBool(forKey: "NS.useTemplate")
    localeObject = try coder.decodeObject(of: [Locale.self], forKey: "NS.locale")
    calendar = try coder.decode(CalendarArchive.self, forKey: "NS.calendar")
    timeZoneObject = try coder.decodeObject(of: [TimeZone.self], forKey: "NS.timeZone")
    try super.init(coder: coder)
  }

  override func encode(with coder: ArchiveEncoder) throws {
    coder.encode(dateStyle, forKey: "NS.dateStyle")
    coder.encode(timeStyle, forKey: "NS.timeStyle")
    try coder.encode(dateTemplateObject, forKey: "NS.dateTemplate")
    try coder.encode(dateTemplateFromStylesObject, forKey: "NS.dateTemplateFromStyles")
    coder.encode(modified, forKey: "NS.modified")
    coder.encode(useTemplate, forKey: "NS.useTemplate")
    try coder.encode(localeObject, forKey: "NS.locale")
    try coder.encode(calendar, forKey: "NS.calendar")
    try coder.encode(timeZoneObject, forKey: "NS.timeZone")
  }
}

/// `NSISO8601DateFormatter`.
final class ISO8601DateFormatterArchive: FormatterArchive {
  let formatOptions: Int
  let timeZoneObject: Any?
  var timeZone: TimeZone? { corpusTimeZone(timeZoneObject) }

  required init(coder: ArchiveDecoder) throws {
    formatOptions = try coder.decodeInteger(forKey: "NS.formatOptions")
    timeZoneObject = try coder.decodeObject(of: [TimeZone.self], forKey: "NS.timeZone")
    try super.init(coder: coder)
  }

  override func encode(with coder: ArchiveEncoder) throws {
    coder.encode(formatOptions, forKey: "NS.formatOptions")
    try coder.encode(timeZoneObject, forKey: "NS.timeZone")
  }
}

/// `NSRegularExpression`.
final class RegularExpressionArchive: ArchiveEncodable, ArchiveDecodable {
  let pattern: String
  let options: Int

  init(coder: ArchiveDecoder) throws {
    pattern = try coder.decodeRequired(String.self, forKey: "NSPattern")
    options = try coder.decodeInteger(forKey: "NSOptions")
  }

  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(pattern, forKey: "NSPattern")
    coder.encode(options, forKey: "NSOptions")
  }
}

/// `NSTextCheckingResult`; the archives name private subclasses
/// (`NSSimpleRegularExpressionCheckingResult` → `NSRegularExpressionCheckingResult` →
/// `NSTextCheckingResult`), registered below so that re-archiving writes the same classes.
class TextCheckingResultArchive: ArchiveEncodable, ArchiveDecodable {
  let range: ArchivedRange
  /// The `NSRangeArray` as decoded: `[Any]`, or `ArchiveMutable<[Any]>` when archived forms are
  /// kept and Apple wrote an `NSMutableArray`.
  let rangeArray: Any?
  var ranges: [ArchivedRange] { rangeArray.flatMap { KeyedUnarchiver.plainValue($0) as? [ArchivedRange] } ?? [] }
  let regularExpression: RegularExpressionArchive?

  required init(coder: ArchiveDecoder) throws {
    range = try ArchivedRange(location: coder.decodeInteger(forKey: "NSRangeLocation"), length: coder.decodeInteger(forKey: "NSRangeLength"))
    rangeArray = try coder.decodeObject(of: [[ArchivedRange].self], forKey: "NSRangeArray")
    regularExpression = try coder.decode(RegularExpressionArchive.self, forKey: "NSRegularExpression")
  }

  func encode(with coder: ArchiveEncoder) throws {
    coder.encode(range.location, forKey: "NSRangeLocation")
    coder.encode(range.length, forKey: "NSRangeLength")
    try coder.encode(rangeArray, forKey: "NSRangeArray")
    try coder.encode(regularExpression, forKey: "NSRegularExpression")
  }
}

/// `NSRegularExpressionCheckingResult` and its private subclasses.
class RegularExpressionCheckingResultArchive: TextCheckingResultArchive {}
final class SimpleRegularExpressionCheckingResultArchive: RegularExpressionCheckingResultArchive {}
final class ComplexRegularExpressionCheckingResultArchive: RegularExpressionCheckingResultArchive {}
final class ExtendedRegularExpressionCheckingResultArchive: RegularExpressionCheckingResultArchive {}

/// `NSNotification`.
struct NotificationArchive: ArchiveValueCodable {
  var name: String
  var object: Any?
  var userInfo: [AnyHashable: Any]?

  init(coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "NS.name")
    object = try coder.decodeObject(forKey: "NS.object")
    userInfo = try coder.decode([AnyHashable: Any].self, forKey: "NS.userinfo")
  }

  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "NS.name")
    try coder.encode(object, forKey: "NS.object")
    try coder.encode(userInfo, forKey: "NS.userinfo")
  }
}

/// A decoded `NSTimeZone` (a `TimeZone`, or an `ArchivedTimeZone` when archived forms are kept)
/// as a `TimeZone`.
func corpusTimeZone(_ object: Any?) -> TimeZone? {
  object.flatMap { KeyedUnarchiver.plainValue($0) as? TimeZone }
}

/// A decoded `NSLocale` (a `Locale`, or an `ArchivedLocale` when archived forms are kept) as a
/// `Locale`.
func corpusLocale(_ object: Any?) -> Locale? {
  object.flatMap { KeyedUnarchiver.plainValue($0) as? Locale }
}

/// Foundation's classes plus the test-side models above.
let corpusRegistry: ArchiveClassRegistry = {
  var registry = ArchiveClassRegistry.foundation
  registry.register(ByteCountFormatterArchive.self, as: "NSByteCountFormatter", supportsSecureCoding: true)
  registry.register(CalendarArchive.self, as: "NSCalendar", supportsSecureCoding: true)
  registry.register(FormatterArchive.self, as: "NSFormatter", supportsSecureCoding: true)
  registry.register(DateIntervalFormatterArchive.self, as: "NSDateIntervalFormatter", supportsSecureCoding: true)
  registry.register(ISO8601DateFormatterArchive.self, as: "NSISO8601DateFormatter", supportsSecureCoding: true)
  registry.register(RegularExpressionArchive.self, as: "NSRegularExpression", supportsSecureCoding: true)
  registry.register(TextCheckingResultArchive.self, as: "NSTextCheckingResult", supportsSecureCoding: true)
  registry.register(RegularExpressionCheckingResultArchive.self, as: "NSRegularExpressionCheckingResult", supportsSecureCoding: true)
  registry.register(SimpleRegularExpressionCheckingResultArchive.self, as: "NSSimpleRegularExpressionCheckingResult", supportsSecureCoding: true)
  registry.register(ComplexRegularExpressionCheckingResultArchive.self, as: "NSComplexRegularExpressionCheckingResult", supportsSecureCoding: true)
  registry.register(ExtendedRegularExpressionCheckingResultArchive.self, as: "NSExtendedRegularExpressionCheckingResult", supportsSecureCoding: true)
  registry.register(NotificationArchive.self, as: "NSNotification", supportsSecureCoding: true)
  return registry
}()
