import PropertyLists

/// What ibtool reports, in Apple's two shapes (Docs/ibtool.md, "The report", names the public
/// sources these shapes were read from):
///
/// - A problem with a document is reported per document: `com.apple.ibtool.document.errors`
///   (`.warnings`, `.notices`) is a dictionary keyed by the document's path, each value an array
///   of dictionaries (`message`, `description`, `type`). In human-readable text a section
///   `/* com.apple.ibtool.document.warnings */` lists `path:line: warning: message`, the form
///   Xcode's build system parses.
/// - A problem of the run itself (a flag, an output that cannot be written) is reported under
///   `com.apple.ibtool.errors` (`.warnings`, `.notices`): an array of dictionaries with
///   `description`; in text, `/* com.apple.ibtool.errors */` and the descriptions.
///
/// `--errors`, `--warnings` and `--notices` choose the categories reported; with none of them,
/// every category with something in it is. The run's own errors are reported whatever was
/// chosen: a failed run always says why.
struct Report {
  /// Every message: `path:line: text` or `path: text` for a document's, plain text for the run's.
  var errors: [String] = []
  var warnings: [String] = []
  var notices: [String] = []
  /// The documents of this run (input first); a message opening with one of them followed by
  /// `:` is that document's.
  var documents: [String] = []

  enum Category: CaseIterable {
    case error, warning, notice

    /// The plural of Apple's keys (`com.apple.ibtool.document.errors`).
    var plural: String {
      switch self {
      case .error: "errors"
      case .warning: "warnings"
      case .notice: "notices"
      }
    }
    /// The word of the text form (`path:12: warning: …`) and the `type` of the plist form.
    var word: String {
      switch self {
      case .error: "error"
      case .warning: "warning"
      case .notice: "notice"
      }
    }
  }

  /// One message split into its document, location (a line) and text.
  struct Diagnostic: Equatable {
    var document: String?
    var line: Int?
    var text: String

    /// `path:line: text` (or `path: text`) when the message opens with one of `documents`;
    /// otherwise a message of the run.
    init(_ message: String, documents: [String]) {
      // The longest document that prefixes it (a path may prefix another one).
      guard let document = documents.filter({ message.hasPrefix($0 + ":") }).max(by: { $0.count < $1.count }) else {
        self.init(document: nil, line: nil, text: message)
        return
      }
      var rest = Substring(message.dropFirst(document.count + 1))
      var line: Int?
      let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
      if !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix(":"), let number = Int(digits) {
        line = number
        rest = rest.dropFirst(digits.count + 1)
      }
      if rest.hasPrefix(" ") { rest = rest.dropFirst() }
      self.init(document: document, line: line, text: String(rest))
    }

    init(document: String?, line: Int?, text: String) {
      self.document = document
      self.line = line
      self.text = text
    }

    /// `path:line: ` or `path: ` (empty for a message of the run).
    var location: String {
      guard let document else { return "" }
      return document + (line.map { ":\($0)" } ?? "") + ": "
    }
  }

  func messages(_ category: Category) -> [String] {
    switch category {
    case .error: errors
    case .warning: warnings
    case .notice: notices
    }
  }

  /// The categories asked for: those flagged, or all of them when none is.
  static func chosen(_ options: Options) -> [Category] {
    let flagged = Category.allCases.filter {
      switch $0 {
      case .error: options.errors
      case .warning: options.warnings
      case .notice: options.notices
      }
    }
    return flagged.isEmpty ? Category.allCases : flagged
  }

  /// Whether anything is to be printed: a category was asked for, or a reported one has messages.
  func isWanted(options: Options) -> Bool {
    if options.errors || options.warnings || options.notices { return true }
    return Category.allCases.contains { !messages($0).isEmpty }
  }

  /// The messages of `category` to report, split by document (document-less ones: the run's).
  /// The run's errors are kept even when errors were not chosen.
  func diagnostics(_ category: Category, options: Options) -> (documents: [(String, [Diagnostic])], run: [Diagnostic]) {
    let all = messages(category).map { Diagnostic($0, documents: documents) }
    let chosen = Self.chosen(options).contains(category)
    var byDocument: [(String, [Diagnostic])] = []
    var run: [Diagnostic] = []
    for diagnostic in all {
      guard let document = diagnostic.document else {
        if chosen || category == .error { run.append(diagnostic) }
        continue
      }
      guard chosen else { continue }
      if let index = byDocument.firstIndex(where: { $0.0 == document }) {
        byDocument[index].1.append(diagnostic)
      } else {
        byDocument.append((document, [diagnostic]))
      }
    }
    return (byDocument, run)
  }

  /// The report in `--output-format`: text, an XML property list or a binary one.
  func renderedBytes(options: Options) -> [UInt8] {
    guard options.outputFormat != .humanReadableText else { return Array(rendered(options: options).utf8) }
    return (try? propertyList(options: options).encodedBytes(as: options.outputFormat == .binary1 ? .binary : .xml)) ?? []
  }

  /// Apple's plist: a chosen category's document key is always present when categories were
  /// flagged (an empty dictionary when that category has nothing, as Apple prints it); the run's
  /// keys only when they have messages.
  func propertyList(options: Options) -> PropertyListValue {
    let flagged = options.errors || options.warnings || options.notices
    let chosen = Self.chosen(options)
    var dictionary: [(String, PropertyListValue)] = []
    for category in Category.allCases {
      let (documents, run) = diagnostics(category, options: options)
      if !run.isEmpty {
        let entries = run.map { PropertyListValue.dictionary(PropertyListDictionary([("description", .string($0.text))])) }
        dictionary.append(("com.apple.ibtool.\(category.plural)", .array(entries)))
      }
      guard chosen.contains(category), flagged || !documents.isEmpty else { continue }
      let perDocument = documents.map { document, diagnostics in
        (document, PropertyListValue.array(diagnostics.map { entry(for: $0, category: category) }))
      }
      dictionary.append(("com.apple.ibtool.document.\(category.plural)", .dictionary(PropertyListDictionary(perDocument))))
    }
    return .dictionary(PropertyListDictionary(dictionary))
  }

  /// One message of a document: `message` (what build systems read), `description` (the whole
  /// line as the text form prints it) and `type`; `line` when the message names one (ours).
  func entry(for diagnostic: Diagnostic, category: Category) -> PropertyListValue {
    var fields: [(String, PropertyListValue)] = [
      ("description", .string(diagnostic.location + diagnostic.text)),
      ("message", .string(diagnostic.text)),
      ("type", .string(category.word)),
    ]
    if let line = diagnostic.line { fields.append(("line", .integer(PropertyListInteger(Int64(line))))) }
    return .dictionary(PropertyListDictionary(fields))
  }

  /// The text form: for each category, the run's section (`/* com.apple.ibtool.errors */`, the
  /// descriptions) and the documents' (`/* com.apple.ibtool.document.errors */`,
  /// `path:line: error: message`).
  func rendered(options: Options) -> String {
    var text = ""
    for category in Category.allCases {
      let (documents, run) = diagnostics(category, options: options)
      if !run.isEmpty {
        text += "/* com.apple.ibtool.\(category.plural) */\n"
        for diagnostic in run { text += diagnostic.text + "\n" }
      }
      if !documents.isEmpty {
        text += "/* com.apple.ibtool.document.\(category.plural) */\n"
        for (_, diagnostics) in documents {
          for diagnostic in diagnostics { text += "\(diagnostic.location)\(category.word): \(diagnostic.text)\n" }
        }
      }
    }
    return text
  }
}
