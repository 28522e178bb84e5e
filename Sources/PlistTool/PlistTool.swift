public import StasisSystem
import KeyedArchive
public import PropertyLists

/// The logic of the `plutil` command: check, convert, print and edit property lists, with the
/// flags, output and exit codes of Apple's `plutil`.
///
/// ```swift
/// let status = PlistTool().run(["plutil", "-convert", "xml1", "-o", "-", "Info.plist"])
/// ```
///
/// Every file is handled on its own: a file that fails prints `file: reason` on standard error
/// and the others are still processed. The exit status is 0 when every file succeeded and 1
/// otherwise; a usage error prints its message and exits 1 before any file is read.
///
/// See `Docs/plutil.md` for where this differs from Apple's tool.
public struct PlistTool {
  /// Files and standard streams (`HostEnvironment.fileSystem` and
  /// `HostEnvironment.standardStreams`).
  public var environment: HostEnvironment
  /// Limits applied to every input.
  public var readingOptions: PropertyListReadingOptions

  public init(environment: HostEnvironment = .current, readingOptions: PropertyListReadingOptions = .default) {
    self.environment = environment
    self.readingOptions = readingOptions
  }

  /// Runs plutil with `arguments` (the whole argument vector, program name first) and returns
  /// the exit status: 1 when any file failed, and also when any write to standard output failed
  /// (`plutil -p Info.plist > /dev/full`), which is then reported on standard error.
  public func run(_ arguments: [String]) -> Int32 {
    environment.runCheckingStandardOutput(prefix: "plutil: ") { checkedEnvironment in
      var tool = self
      tool.environment = checkedEnvironment
      return tool.runUnchecked(arguments)
    }
  }

  func runUnchecked(_ arguments: [String]) -> Int32 {
    let command: Command
    do {
      command = try Command(parsing: arguments, valueReader: InsertedValueReader(readingOptions: readingOptions))
    } catch {
      environment.writeStandardError(error.message + "\n")
      return 1
    }
    return execute(command) ? 0 : 1
  }

  /// Runs a parsed command; `true` when every file succeeded.
  func execute(_ command: Command) -> Bool {
    switch command {
    case .help(let programName):
      environment.writeStandardOutput(HelpText.text(programName: programName))
      return true
    case .lint(let options):
      return forEachFile(options) { (path) throws(PlistToolError) in
        let bytes = try readInput(path)
        do throws(PropertyListError) {
          _ = try parsePropertyList(bytes)
        } catch {
          throw PlistToolError(.unreadable, "(\(error.description))")
        }
        if !options.silent { environment.writeStandardOutput("\(Self.displayName(path)): OK\n") }
      }
    case .convert(let format, let objcHeader, let options):
      return forEachFile(options) { (path) throws(PlistToolError) in
        let (value, _) = try loadDocument(path)
        try emit(value, from: path, as: format, options: options, objcHeader: objcHeader)
      }
    case .print(let options):
      if options.silent { environment.writeStandardError("-s doesn't make a lot of sense with -p.\n") }
      return forEachFile(options) { (path) throws(PlistToolError) in
        let (value, _) = try loadDocument(path)
        environment.writeStandardOutput(value.humanReadableDescription(sortingKeysBy: KeyOrder.areInIncreasingOrder))
      }
    case .archive(let options):
      return forEachFile(options) { (path) throws(PlistToolError) in
        let (value, _) = try loadDocument(path)
        do {
          environment.writeStandardOutput(try ArchiveDump.render(value))
        } catch {
          throw PlistToolError(.unreadable, "(\(error))")
        }
      }
    case .insert(let keyPath, let newValue, let replacing, let appending, let options):
      return forEachFile(options) { (path) throws(PlistToolError) in
        let bytes = try readInput(path)
        var (value, format) = try parseDocument(bytes)
        do throws(PropertyListError) {
          if replacing {
            try value.replace(newValue, atPath: PropertyListKeyPathSyntax.plutil.components(of: keyPath))
          } else {
            try value.insert(newValue, atPath: PropertyListKeyPathSyntax.plutil.components(of: keyPath), appending: appending)
          }
        } catch {
          throw PlistToolError(.keyPath, error.detail)
        }
        if format == .openStep || format == .strings, case .string(let text) = newValue, !appending,
          try editStringsFile(bytes, path: path, keyPath: keyPath, change: .set(text), expected: value, options: options)
        {
          return
        }
        try emit(value, from: path, as: OutputFormat(format), options: options, keyPath: keyPath)
      }
    case .remove(let keyPath, let options):
      return forEachFile(options) { (path) throws(PlistToolError) in
        let bytes = try readInput(path)
        var (value, format) = try parseDocument(bytes)
        let components = PropertyListKeyPathSyntax.plutil.components(of: keyPath)
        do throws(PropertyListError) {
          // Apple's plutil finds nothing under an empty key.
          guard !components.contains(where: \.isEmpty) else {
            throw PropertyListError(.keyPathNotFound, format: nil, detail: "No value to remove at key path \(keyPath)")
          }
          try value.removeValue(atPath: components)
        } catch {
          throw PlistToolError(.keyPath, error.detail)
        }
        if format == .openStep || format == .strings, try editStringsFile(bytes, path: path, keyPath: keyPath, change: .remove, expected: value, options: options) {
          return
        }
        try emit(value, from: path, as: OutputFormat(format), options: options, keyPath: keyPath)
      }
    case .extract(let keyPath, let format, let expected, let options):
      return forEachFile(options) { (path) throws(PlistToolError) in
        let (document, _) = try loadDocument(path)
        let components = PropertyListKeyPathSyntax.plutil.components(of: keyPath)
        guard !components.contains(where: \.isEmpty), let value = document.value(atPath: components[...]) else {
          throw PlistToolError(
            .keyPath, "Could not extract value, error: No value at that key path or invalid key path: \(keyPath)")
        }
        if let expected, ValueType(of: value) != expected {
          throw PlistToolError(
            .unexpectedType, "Value at [\(keyPath)] expected to be \(expected.messageName) but is \(ValueType(of: value).messageName)")
        }
        try emit(value, from: path, as: format, options: options, keyPath: keyPath)
      }
    case .create(let format, let options):
      return forEachFile(options) { (path) throws(PlistToolError) in
        let empty = PropertyListValue.dictionary([:])
        let bytes: [UInt8]
        switch format {
        case .raw: bytes = [0x0A]  // an empty dictionary has no keys: one empty line
        default:
          bytes = try encode(
            empty, as: format, readable: options.readable, sourcePath: path, outputPath: path, keyPath: nil)
        }
        if path == "-" {
          environment.writeStandardOutput(bytes)
          if options.terminatingNewline && format.printsByDefault { environment.writeStandardOutput([0x0A]) }
        } else {
          try environment.writeFileAtomically(bytes, toPath: path)
        }
      }
    }
  }

  /// Runs `body` for each file, printing `file: message` for each failure; `true` when none failed.
  private func forEachFile(_ options: Options, _ body: (String) throws(PlistToolError) -> Void) -> Bool {
    var succeeded = true
    for path in options.paths {
      do {
        try body(path)
      } catch {
        succeeded = false
        environment.writeStandardError("\(Self.displayName(path)): \(error.message)\n")
      }
    }
    return succeeded
  }

  /// How a path appears in messages: `<stdin>` for `-`.
  static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}

extension OutputFormat {
  /// The output format that rewrites a document in the format it was read in.
  init(_ format: PropertyListFormat) {
    switch format {
    case .binary: self = .binary
    case .xml: self = .xml
    case .openStep, .strings: self = .openStep
    case .json: self = .json
    }
  }
}
