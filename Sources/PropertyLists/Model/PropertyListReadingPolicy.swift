/// How a reader chooses the format of a document, what it falls back to, and which error it
/// reports when nothing reads it: the reading policy as data.
///
/// A document is first sorted by its first bytes (``PropertyListFormat/detect(_:)``): `bplist0`
/// is *binary*, XML markup is *XML*, anything else is *text*. The policy lists, for each of the
/// three, the formats to try in order (its *ladder*); the first that reads the document wins.
/// When the whole ladder fails, the ``lastResort`` format (if any) is tried. When that fails
/// too, ``reportedError`` says which of the failures is thrown.
///
/// ```swift
/// var policy = PropertyListReadingPolicy.stringsFile
/// policy.limits.maximumByteCount = 256 << 20
/// let (value, format) = try PropertyListValue.read(buffer, policy: policy)
/// ```
///
/// The constants mirror the readers of Apple's frameworks and tools:
///
/// | policy | binary | XML | text | last resort | error reported |
/// |---|---|---|---|---|---|
/// | ``automatic`` | binary | XML, OpenStep | OpenStep, JSON | – | first (JSON's for `[`) |
/// | ``only(_:)`` | the format | the format | the format | – | first |
/// | ``foundationDecoder`` | binary | XML | OpenStep, `.strings`¹ | – | first |
/// | ``plutilLint`` | binary | XML | OpenStep | – | first |
/// | ``plutil`` | binary | XML | OpenStep | JSON | both, combined |
/// | ``plutilXMLArgument`` | binary | XML | OpenStep | – | first |
/// | ``stringsFile`` | binary | XML | `.strings` | – | first |
/// | ``stringsdictFile`` | binary | XML | OpenStep, JSON | – | first (JSON's for `[`) |
///
/// ¹ accepted only when it reads as a non-empty dictionary, and reported as OpenStep.
public struct PropertyListReadingPolicy: Sendable, Hashable {
  /// One rung of a ladder: a format to read the document in.
  public struct Attempt: Sendable, Hashable {
    /// The reader that is run.
    public var format: PropertyListFormat
    /// The format reported when this attempt reads the document (Foundation's decoder reports a
    /// document read in strings-file mode as ``PropertyListFormat/openStep``).
    public var reportedFormat: PropertyListFormat
    /// Accept the result only when it is a dictionary with at least one entry (otherwise the
    /// attempt counts as failed).
    public var requiresNonEmptyDictionary: Bool

    public init(
      _ format: PropertyListFormat, reportedAs reportedFormat: PropertyListFormat? = nil,
      requiresNonEmptyDictionary: Bool = false
    ) {
      self.format = format
      self.reportedFormat = reportedFormat ?? format
      self.requiresNonEmptyDictionary = requiresNonEmptyDictionary
    }

    public static let binary = Attempt(.binary)
    public static let xml = Attempt(.xml)
    public static let openStep = Attempt(.openStep)
    public static let strings = Attempt(.strings)
    public static let json = Attempt(.json)
  }

  /// Which error is thrown when every attempt failed.
  public enum ReportedError: Sendable, Hashable {
    /// The error of the first attempt: the format the document's bytes were detected as.
    case first
    /// The first attempt's error, except when the document's first byte other than white space
    /// (space, tab, CR, LF) is `[` and JSON was tried: then JSON's. No OpenStep value starts with
    /// `[`, so such a document was meant as JSON, and JSON's error says what is wrong with it.
    case firstOrJSONForBracket
    /// One error holding both the ladder's (its first attempt's) error and the last resort's, as
    /// plutil prints them: `Property List error: … / JSON error: …`. Its code is the ladder's;
    /// it has no format or position, since it spans two formats.
    case combined
  }

  /// What a document with no content meets before its ladder is tried.
  public enum EmptyDocument: Sendable, Hashable {
    /// It goes through the ladder like any other document (the OpenStep reader refuses zero
    /// bytes; strings-file mode reads them as an empty table).
    case readAsAnyOther
    /// Zero bytes fail the ladder with `PropertyListError.Code.truncated`, no format, and this
    /// detail. The ``lastResort`` is still tried.
    case refusedZeroBytes(detail: String)
    /// Zero bytes, or a byte-order mark alone, fail with `PropertyListError.Code.truncated` as
    /// an OpenStep document ("the document is empty; expected a property list"), positioned at
    /// the end. White space alone still reads as an empty dictionary (Foundation's decoder).
    case refusedWithoutText
  }

  /// The formats tried, in order, when the document starts with `bplist0`.
  public var binary: [Attempt]
  /// The formats tried, in order, when the document starts with XML markup (after an optional
  /// byte-order mark and white space).
  public var xml: [Attempt]
  /// The formats tried, in order, for anything else.
  public var text: [Attempt]
  /// Tried after the ladder failed, whatever the document looked like. Default `nil`.
  public var lastResort: Attempt?
  /// The error thrown when nothing reads the document. Default ``ReportedError/first``.
  public var reportedError: ReportedError
  /// What a document with no content meets. Default ``EmptyDocument/readAsAnyOther``.
  public var emptyDocument: EmptyDocument
  /// The limits every attempt enforces (and the byte limit for the whole document). Default
  /// ``PropertyListReadingOptions/default``.
  public var limits: PropertyListReadingOptions

  public init(
    binary: [Attempt], xml: [Attempt], text: [Attempt], lastResort: Attempt? = nil,
    reportedError: ReportedError = .first, emptyDocument: EmptyDocument = .readAsAnyOther,
    limits: PropertyListReadingOptions = .default
  ) {
    self.binary = binary
    self.xml = xml
    self.text = text
    self.lastResort = lastResort
    self.reportedError = reportedError
    self.emptyDocument = emptyDocument
    self.limits = limits
  }

  /// Whether the document's first bytes choose the ladder (`false` when all three ladders are
  /// the same, as for ``only(_:)``: the bytes are then not examined).
  public var usesContentDetection: Bool { !(binary == xml && xml == text) }

  /// The ladder for a document whose bytes were detected as `detected` (``PropertyListFormat/binary``,
  /// ``PropertyListFormat/xml``, or anything else for text).
  public func ladder(for detected: PropertyListFormat) -> [Attempt] {
    switch detected {
    case .binary: binary
    case .xml: xml
    default: text
    }
  }

  /// Every format this policy may try, in the order of first mention.
  public var allowedFormats: [PropertyListFormat] {
    var formats: [PropertyListFormat] = []
    for attempt in binary + xml + text + (lastResort.map { [$0] } ?? []) where !formats.contains(attempt.format) {
      formats.append(attempt.format)
    }
    return formats
  }
}

// MARK: - The readers' policies

extension PropertyListReadingPolicy {
  /// `PropertyListValue(decoding:)` and every reader that does not name a format:
  /// CoreFoundation's detection (`CFPropertyListCreateWithData`) with plutil's JSON fallback.
  ///
  /// - Binary: binary only.
  /// - XML: XML, then OpenStep (CF tries OpenStep after XML: `<0fbd>` is OpenStep data, not markup).
  /// - Text: OpenStep, then JSON (what is neither binary nor XML, plutil tries as JSON).
  /// - Error: the first attempt's, or JSON's when the text starts with `[`.
  public static let automatic = PropertyListReadingPolicy(
    binary: [.binary], xml: [.xml, .openStep], text: [.openStep, .json], reportedError: .firstOrJSONForBracket)

  /// Reads only `format`, whatever the bytes look like (`PropertyListValue(decoding:format:)`).
  /// Its errors are that reader's.
  public static func only(_ format: PropertyListFormat) -> PropertyListReadingPolicy {
    switch format {
    case .binary: onlyBinary
    case .xml: onlyXML
    case .openStep: onlyOpenStep
    case .strings: onlyStrings
    case .json: onlyJSON
    }
  }

  // One value per format, so that `only(_:)` allocates nothing.
  private static let onlyBinary = PropertyListReadingPolicy(binary: [.binary], xml: [.binary], text: [.binary])
  private static let onlyXML = PropertyListReadingPolicy(binary: [.xml], xml: [.xml], text: [.xml])
  private static let onlyOpenStep = PropertyListReadingPolicy(binary: [.openStep], xml: [.openStep], text: [.openStep])
  private static let onlyStrings = PropertyListReadingPolicy(binary: [.strings], xml: [.strings], text: [.strings])
  private static let onlyJSON = PropertyListReadingPolicy(binary: [.json], xml: [.json], text: [.json])

  /// Foundation's `PropertyListDecoder`: the detected format only, except that text that is not
  /// an OpenStep value is read again as a `.strings` file (an OpenStep dictionary without
  /// braces), accepted when it has at least one entry and reported as OpenStep, as
  /// CoreFoundation's OpenStep parser does. JSON is not a property list here. A document with no
  /// text at all (nothing, or a byte-order mark alone) is refused. Error: the first attempt's.
  public static let foundationDecoder = PropertyListReadingPolicy(
    binary: [.binary], xml: [.xml],
    text: [.openStep, Attempt(.strings, reportedAs: .openStep, requiresNonEmptyDictionary: true)],
    emptyDocument: .refusedWithoutText)

  /// `plutil -lint`: the detected format only (binary, XML or OpenStep; no JSON, no fallback
  /// from XML to OpenStep). Zero bytes are refused ("the input is empty (zero bytes)").
  public static let plutilLint = PropertyListReadingPolicy(
    binary: [.binary], xml: [.xml], text: [.openStep],
    emptyDocument: .refusedZeroBytes(detail: "the input is empty (zero bytes)"))

  /// Every other plutil command (`-convert`, `-p`, `-extract`, `-insert` …): ``plutilLint``, then
  /// JSON as a last resort. When both fail, plutil prints both reasons:
  /// `Property List error: … / JSON error: …` (``ReportedError/combined``).
  public static let plutil = PropertyListReadingPolicy(
    binary: [.binary], xml: [.xml], text: [.openStep], lastResort: .json, reportedError: .combined,
    emptyDocument: .refusedZeroBytes(detail: "the input is empty (zero bytes)"))

  /// The value of plutil's `-insert`/`-replace … -xml`: a property list in the detected format
  /// (binary and OpenStep too, despite the flag's name, as Apple's plutil reads them). An empty
  /// value is refused ("the value is empty").
  public static let plutilXMLArgument = PropertyListReadingPolicy(
    binary: [.binary], xml: [.xml], text: [.openStep],
    emptyDocument: .refusedZeroBytes(detail: "the value is empty"))

  /// A `.strings` file, as CF's string-table loader reads one: a binary or XML property list, or
  /// OpenStep text in strings-file mode (which accepts a braced dictionary too, and reads zero
  /// bytes as an empty table).
  public static let stringsFile = PropertyListReadingPolicy(binary: [.binary], xml: [.xml], text: [.strings])

  /// A `.stringsdict` file: a binary or XML property list in that format only; text is read as
  /// OpenStep and then as JSON, with ``automatic``'s choice of error.
  public static let stringsdictFile = PropertyListReadingPolicy(
    binary: [.binary], xml: [.xml], text: [.openStep, .json], reportedError: .firstOrJSONForBracket)
}
