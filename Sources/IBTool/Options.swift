import ArgumentParser

/// What one ibtool run was asked to do: the values of its command line
/// (``CommandLineOptions`` defines the flags and their help).
struct Options: Equatable {
  enum OutputFormat: String, Equatable {
    case humanReadableText = "human-readable-text"
    case xml1
    case binary1
  }

  var compile: String?
  var errors = false
  var warnings = false
  var notices = false
  var outputFormat: OutputFormat = .xml1
  var module: String?
  var stasisRuntime = false
  var targetDevice: [String] = []
  var minimumDeploymentTarget: String?
  var xcodeVersion: String?
  var flatten: String?
  var exportStringsFile: String?
  var importStringsFile: String?
  var write: String?
  var printObjects = false
  var printHierarchy = false
  var printConnections = false
  var printClasses = false
  var compare: String?
  var ignoreConnectionOrder = false
  var colorProfilesFrom: [String] = []
  var render: String?
  var contactSheet = false
  var scene: String?
  var scale: String?
  var appearance: String?
  var input: String

  /// The flags that take no value.
  static let flags: [String: WritableKeyPath<Options, Bool> & Sendable] = [
    "--errors": \.errors, "--warnings": \.warnings, "--notices": \.notices,
    "--stasis-runtime": \.stasisRuntime,
    "--print-objects": \.printObjects, "--print-hierarchy": \.printHierarchy,
    "--print-connections": \.printConnections,
    "--print-classes": \.printClasses, "--ignore-connection-order": \.ignoreConnectionOrder,
    "--contact-sheet": \.contactSheet,
  ]
  /// The options that take one value (given once).
  static let singleValues: [String: WritableKeyPath<Options, String?> & Sendable] = [
    "--compile": \.compile, "--module": \.module,
    "--minimum-deployment-target": \.minimumDeploymentTarget, "--flatten": \.flatten,
    "--export-strings-file": \.exportStringsFile, "--import-strings-file": \.importStringsFile,
    "--write": \.write, "--compare": \.compare, "--xcode-version": \.xcodeVersion,
    "--render": \.render, "--scene": \.scene, "--scale": \.scale, "--appearance": \.appearance,
  ]
  /// The options that may be given again, each time adding a value.
  static let repeatedValues: [String: WritableKeyPath<Options, [String]> & Sendable] = [
    "--target-device": \.targetDevice, "--color-profiles-from": \.colorProfilesFrom,
  ]
}

extension Options {
  /// Reads a plain invocation without swift-argument-parser, whose reflection over the flags
  /// costs about 3 ms of every process: known long flags, each value as the next argument (not
  /// starting with `-`), single-value options once, one input. Anything else — `--help`, an
  /// unknown or repeated option, a missing value, `--name=value`, `--` — gives `nil`, and
  /// ``CommandLineOptions`` parses it (and explains the mistake). Where this reads a command
  /// line, argument-parser reads the same values (IBToolTests checks it on generated ones).
  init?(plainArguments arguments: [String]) {
    var options = Options(input: "")
    var input: String?
    var seen: Set<String> = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("-") else {
        guard input == nil else { return nil }
        input = argument
        continue
      }
      if let flag = Self.flags[argument] {
        options[keyPath: flag] = true
        continue
      }
      guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
      let value = arguments[index]
      index += 1
      if let option = Self.singleValues[argument] {
        guard seen.insert(argument).inserted else { return nil }
        options[keyPath: option] = value
      } else if let option = Self.repeatedValues[argument] {
        options[keyPath: option].append(value)
      } else if argument == "--output-format", let format = OutputFormat(rawValue: value) {
        guard seen.insert(argument).inserted else { return nil }
        options.outputFormat = format
      } else {
        return nil
      }
    }
    guard let input else { return nil }
    options.input = input
    self = options
  }
}

/// ibtool's command line as swift-argument-parser defines, documents (`--help`) and parses it.
/// ``Options/init(plainArguments:)`` reads the plain invocations itself, faster; anything else
/// (help, a mistake, an option written `--name=value`) comes here for argument-parser's messages.
struct CommandLineOptions: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ibtool",
    abstract: "Compile Interface Builder documents into nibs, export and import their strings, list and compare nibs, render them (ours).")

  @Option(
    name: .customLong("compile"), help: "Compile the document into this nib (Apple: --compile).")
  var compile: String?
  @Flag(name: .customLong("errors"), help: "Report errors.") var errors = false
  @Flag(name: .customLong("warnings"), help: "Report warnings.") var warnings = false
  @Flag(name: .customLong("notices"), help: "Report notices.") var notices = false
  @Option(name: .customLong("output-format"), help: "human-readable-text, xml1 or binary1.")
  var outputFormat: Options.OutputFormat = .xml1
  @Option(name: .customLong("module"), help: "The Swift module of classes without a customModule.")
  var module: String?
  @Flag(
    name: .customLong("stasis-runtime"),
    help:
      "iOS documents: Stasis's own UIKit encoding instead of Apple's (each localizable string keeps its strings-file key, so one compiled folder is translated when Stasis's nib loader loads it)."
  )
  var stasisRuntime = false
  @Option(name: .customLong("target-device"), help: "mac, iphone or ipad.") var targetDevice:
    [String] = []
  @Option(name: .customLong("minimum-deployment-target"), help: "The oldest OS version to support.")
  var minimumDeploymentTarget: String?
  @Option(
    name: .customLong("xcode-version"),
    help: "iOS documents: the Xcode whose UIKit encoding to write, e.g. 12.0 or 8.3.2 (ours; default: the last release of the Xcode major that saved the document, from its toolsVersion).")
  var xcodeVersion: String?
  @Option(
    name: .customLong("flatten"),
    help: "YES or NO: write a flat nib file (YES, the default) or a nib folder.") var flatten:
    String?
  @Option(
    name: .customLong("export-strings-file"),
    help: "Write the document's localizable strings to this .strings file (UTF-16).")
  var exportStringsFile: String?
  @Option(
    name: .customLong("import-strings-file"),
    help: "Localize the document with this .strings file (with --write).")
  var importStringsFile: String?
  @Option(
    name: .customLong("write"), help: "Where --import-strings-file writes the localized document.")
  var write: String?
  @Flag(
    name: .customLong("print-objects"),
    help: "Print the compiled object graph (ours; Apple's --objects prints a plist).")
  var printObjects = false
  @Flag(
    name: .customLong("print-hierarchy"),
    help: "Print the object hierarchy (ours; Apple's --hierarchy prints a plist).")
  var printHierarchy = false
  @Flag(
    name: .customLong("print-connections"),
    help: "Print the connections (ours; Apple's --connections prints a plist).")
  var printConnections = false
  @Flag(
    name: .customLong("print-classes"),
    help: "Print the classes and their counts (ours; Apple's --classes prints a plist).")
  var printClasses = false
  @Option(
    name: .customLong("compare"),
    help: "Report the first semantic difference from this nib, constraint order aside (ours).")
  var compare: String?
  @Flag(
    name: .customLong("ignore-connection-order"),
    help: "With --compare: connections (and their object ids) in any order (ours).")
  var ignoreConnectionOrder = false
  @Option(
    name: .customLong("color-profiles-from"),
    help: "An Apple-compiled nib to take the ICC profiles of catalog colors from (ours).")
  var colorProfilesFrom: [String] = []
  @Option(
    name: .customLong("render"),
    help:
      "Draw every window, top-level view and scene of the document (xib, storyboard, nib, storyboardc) from its loaded views into OUT.svg or OUT.png, one file per scene (OUT-<scene>) — ours: Apple's ibtool has no such flag. PNG needs librsvg's rsvg-convert."
  )
  var render: String?
  @Flag(name: .customLong("contact-sheet"), help: "With --render: all scenes on one picture, the storyboard's segues as arrows (ours).")
  var contactSheet = false
  @Option(name: .customLong("scene"), help: "With --render: only the scene with this identifier (ours).") var scene: String?
  @Option(name: .customLong("scale"), help: "With --render: the picture's size against the document's points, e.g. 2 (ours).") var scale: String?
  @Option(name: .customLong("appearance"), help: "With --render: light (the default) or dark (ours).") var appearance: String?
  @Argument(help: "The .xib, or a compiled .nib for --print-objects and --compare.") var input:
    String

  // Xcode's build-system flags: read by XcodeInvocation before this parser sees the line; declared
  // here for --help, the man page and the completion scripts.
  @Option(name: .customLong("compilation-directory"), help: "Compile into this folder as NAME.nib or NAME.storyboardc (Xcode's).")
  var compilationDirectory: String?
  @Option(name: .customLong("output-partial-info-plist"), help: "Write the Info.plist keys the document contributes here (Xcode's).")
  var outputPartialInfoPlist: String?
  @Option(name: .customLong("link"), help: "Copy the compiled storyboards given as inputs into this product folder (Xcode's link step).")
  var link: String?
  @Flag(name: .customLong("auto-activate-custom-fonts"), help: "List an iOS document's custom fonts under UIAppFonts in the partial Info.plist.")
  var autoActivateCustomFonts = false
  @Flag(name: .customLong("version"), help: "Print com.apple.ibtool.version.") var version = false

  /// The values parsed.
  var options: Options {
    Options(
      compile: compile, errors: errors, warnings: warnings, notices: notices,
      outputFormat: outputFormat, module: module,
      stasisRuntime: stasisRuntime, targetDevice: targetDevice,
      minimumDeploymentTarget: minimumDeploymentTarget, xcodeVersion: xcodeVersion, flatten: flatten,
      exportStringsFile: exportStringsFile, importStringsFile: importStringsFile, write: write,
      printObjects: printObjects,
      printHierarchy: printHierarchy, printConnections: printConnections,
      printClasses: printClasses, compare: compare,
      ignoreConnectionOrder: ignoreConnectionOrder, colorProfilesFrom: colorProfilesFrom,
      render: render, contactSheet: contactSheet, scene: scene, scale: scale, appearance: appearance,
      input: input)
  }
}

extension Options.OutputFormat: ExpressibleByArgument {}
