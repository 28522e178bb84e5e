import PropertyLists

/// One plutil invocation, parsed.
///
/// plutil's syntax is its own: the command comes first (`-lint` when the first argument is not
/// a command), followed by the command's own arguments in a fixed order, then the shared
/// ``Options`` and the files. A value after `-insert keypath -integer` may itself start with a
/// dash (`-5`), which is why this is parsed by hand.
enum Command: Equatable {
  case help(programName: String)
  case lint(Options)
  case convert(OutputFormat, objcHeader: Bool, Options)
  case print(Options)
  /// `-archive`: Stasis's own command, a readable dump of a keyed archive's object graph.
  case archive(Options)
  case insert(keyPath: String, value: PropertyListValue, replacing: Bool, appending: Bool, Options)
  case remove(keyPath: String, Options)
  case extract(keyPath: String, format: OutputFormat, expecting: ValueType?, Options)
  case create(OutputFormat, Options)

  /// Parses `arguments` (the whole argument vector, program name first).
  ///
  /// - Parameter valueReader: reads the values of `-insert`/`-replace` that need a parser.
  init(parsing arguments: [String], valueReader: InsertedValueReader) throws(PlistToolError) {
    var remaining = arguments[...]
    let programPath = remaining.popFirst() ?? "plutil"
    guard let command = remaining.popFirst() else { throw .usage("No files specified.") }

    switch command {
    case "-help":
      let name = Options.lastComponent(of: programPath)
      self = .help(programName: name.isEmpty ? "plutil" : name)
    case "-lint":
      self = .lint(try Self.optionsWithoutOutput(remaining, command: command))
    case "-convert":
      guard let formatName = remaining.popFirst() else { throw .usage("Missing format specifier for command.") }
      let format = try OutputFormat(argument: formatName)
      var header = false
      if remaining.first == "-header" {
        guard format == .objc else { throw .usage("-header is only valid for objc literal conversions.") }
        remaining.removeFirst()
        header = true
      }
      self = .convert(format, objcHeader: header, try Options(parsing: remaining))
    case "-p":
      self = .print(try Self.optionsWithoutOutput(remaining, command: command))
    case "-archive":
      self = .archive(try Self.optionsWithoutOutput(remaining, command: command))
    case "-insert", "-replace":
      let replacing = command == "-replace"
      let missing = "'Insert' and 'Replace' require a key path, a type, and a value."
      guard let keyPath = remaining.popFirst(), let type = remaining.popFirst() else { throw .usage(missing) }
      let value: PropertyListValue
      switch type {
      case "-dictionary": value = .dictionary([:])
      case "-array": value = .array([])
      case "-bool", "-integer", "-float", "-string", "-date", "-data", "-xml", "-json":
        guard let text = remaining.popFirst() else { throw .usage(missing) }
        value = try valueReader.value(ofType: type, from: text)
      default:
        throw .usage("Unknown insert or replace type \(type)")
      }
      var appending = false
      if remaining.first == "-append" {
        remaining.removeFirst()
        appending = !replacing  // -replace accepts -append and ignores it, as Apple's does
      }
      self = .insert(keyPath: keyPath, value: value, replacing: replacing, appending: appending, try Options(parsing: remaining))
    case "-remove":
      guard let keyPath = remaining.popFirst() else { throw .usage("'Remove' requires a key path.") }
      self = .remove(keyPath: keyPath, try Options(parsing: remaining))
    case "-extract":
      let missing = "'Extract' requires a key path and a plist format."
      guard let keyPath = remaining.popFirst(), let formatName = remaining.popFirst() else { throw .usage(missing) }
      let format = try OutputFormat(argument: formatName)
      let expected = try Self.parseExpectation(&remaining)
      self = .extract(keyPath: keyPath, format: format, expecting: expected, try Options(parsing: remaining))
    case "-type":
      guard let keyPath = remaining.popFirst() else { throw .usage("'Type' requires a key path.") }
      let expected = try Self.parseExpectation(&remaining)
      self = .extract(keyPath: keyPath, format: .type, expecting: expected, try Options(parsing: remaining))
    case "-create":
      guard let formatName = remaining.popFirst() else { throw .usage("'Create' requires a plist format.") }
      self = .create(try OutputFormat(argument: formatName), try Options(parsing: remaining))
    default:
      // Not a command: lint, with this argument as the first file (or option).
      self = .lint(try Self.optionsWithoutOutput(arguments[arguments.index(after: arguments.startIndex)...], command: "-lint"))
    }
  }

  /// The shared options of a command that writes no file (`-lint`, `-p`, `-archive`): `-o` and
  /// `-e` are refused.
  private static func optionsWithoutOutput(_ arguments: ArraySlice<String>, command: String) throws(PlistToolError) -> Options {
    let options = try Options(parsing: arguments)
    if options.outputPath != nil { throw .usage("-o is not used with \(command).") }
    if options.outputExtension != nil { throw .usage("-e is not used with \(command).") }
    return options
  }

  /// An optional `-expect type` right after the command's own arguments.
  private static func parseExpectation(_ remaining: inout ArraySlice<String>) throws(PlistToolError) -> ValueType? {
    guard remaining.first == "-expect" else { return nil }
    remaining.removeFirst()
    guard let name = remaining.popFirst() else { throw .usage("-expect requires a type argument.") }
    return try ValueType(argument: name)
  }
}
