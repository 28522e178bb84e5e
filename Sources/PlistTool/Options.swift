/// The options that follow a command: `-s`, `-r`, `-n`, `-o path`, `-e extension`, `--`, and
/// the files.
struct Options: Hashable, Sendable {
  var paths: [String] = []
  /// `-r`: indented, key-sorted JSON.
  var readable = false
  /// Cleared by `-n`: no newline after `raw` and `type` output.
  var terminatingNewline = true
  /// `-o path` (`-` is standard output).
  var outputPath: String?
  /// `-e extension`.
  var outputExtension: String?
  /// `-s`: print nothing on success.
  var silent = false

  /// Parses the arguments after the command; at least one file is required.
  init(parsing arguments: ArraySlice<String>) throws(PlistToolError) {
    var remaining = arguments
    while let argument = remaining.popFirst() {
      switch argument {
      case "--":
        paths.append(contentsOf: remaining)
        remaining = []
      case "-n": terminatingNewline = false
      case "-s": silent = true
      case "-r": readable = true
      case "-o":
        guard let path = remaining.popFirst() else { throw .usage("Missing argument for -o.") }
        outputPath = path
      case "-e":
        guard let pathExtension = remaining.popFirst() else { throw .usage("Missing argument for -e.") }
        outputExtension = pathExtension
      default:
        if argument.hasPrefix("-") && argument != "-" {
          throw .usage("unrecognized option: \(argument)")
        }
        paths.append(argument)
      }
    }
    guard !paths.isEmpty else { throw .usage("No files specified.") }
  }

  /// Where the result for `inputPath` goes, or `nil` for standard output.
  ///
  /// `-o -` and `raw`/`type` without `-o` print; so does standard input without `-o` (Apple's
  /// toolchain port writes a file named `-` instead). Otherwise the file is rewritten in place,
  /// or under `-o path`, or with its extension replaced by `-e` (added when it has none); the
  /// literal formats always get `.swift` or `.m`.
  func destination(for inputPath: String, format: OutputFormat) -> String? {
    if let outputPath { return outputPath == "-" ? nil : outputPath }
    if format.printsByDefault || inputPath == "-" { return nil }
    var path = inputPath
    if let outputExtension { path = Self.replacingExtension(of: path, with: outputExtension) }
    switch format {
    case .swift: path = Self.replacingExtension(of: path, with: "swift")
    case .objc: path = Self.replacingExtension(of: path, with: "m")
    default: break
    }
    return path
  }

  /// `dir/name.ext` → `dir/name.new`; `dir/name` → `dir/name.new`. A leading dot (`.hidden`)
  /// does not start an extension.
  static func replacingExtension(of path: String, with newExtension: String) -> String {
    let bytes = Array(path.utf8)
    let nameStart = (bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
    var stemEnd = bytes.count
    if let dot = bytes[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot > nameStart {
      stemEnd = dot
    }
    return String(decoding: bytes[..<stemEnd], as: UTF8.self) + "." + newExtension
  }

  /// The file name without folder and extension (for literal variable names).
  static func stem(of path: String) -> String {
    let bytes = Array(path.utf8)
    let nameStart = (bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
    var stemEnd = bytes.count
    if let dot = bytes[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot > nameStart {
      stemEnd = dot
    }
    return String(decoding: bytes[nameStart..<stemEnd], as: UTF8.self)
  }

  /// The last path component.
  static func lastComponent(of path: String) -> String {
    let bytes = Array(path.utf8)
    let nameStart = (bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
    return String(decoding: bytes[nameStart...], as: UTF8.self)
  }
}
