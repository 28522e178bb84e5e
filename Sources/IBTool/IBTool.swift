import ArgumentParser
public import Host
import Interface
import InterfaceBuilder
import PropertyLists

/// The logic of the `ibtool` command: compile xibs into nibs, print and compare compiled nibs,
/// with Apple's flags where Apple has them.
///
/// ```swift
/// let status = IBTool().run(["ibtool", "--compile", "MainMenu.nib", "MainMenu.xib"])
/// ```
///
/// Apple's flags: `--compile OUT`, `--errors`, `--warnings`, `--notices`, `--output-format
/// human-readable-text|xml1|binary1`, `--module`, `--export-strings-file`, `--import-strings-file`
/// with `--write`; `--target-device`, `--minimum-deployment-target` and `--flatten` are checked
/// (the device against the document's platform, a version number, and flat nibs only). Ours: `--print-objects` (a readable listing of a compiled nib, or of the nib a
/// xib compiles to) and `--compare OTHER` (the first semantic difference between two nibs).
public struct IBTool {
  /// Files and standard streams.
  public var environment: HostEnvironment

  public init(environment: HostEnvironment = .current) {
    self.environment = environment
  }

  /// Runs ibtool with `arguments` (program name first) and returns the exit status: 0 on
  /// success, 1 when the document has errors or an output cannot be written, 64 for a usage error.
  public func run(_ arguments: [String]) -> Int32 {
    environment.runCheckingStandardOutput(prefix: "ibtool: ") { checked in
      var tool = self
      tool.environment = checked
      return tool.runUnchecked(Array(arguments.dropFirst()))
    }
  }

  func runUnchecked(_ commandLine: [String]) -> Int32 {
    // Xcode's build-system flags (XcodeInvocation) off the line first; the rest parses as before.
    let invocation: XcodeInvocation
    do { invocation = try XcodeInvocation(commandLine) } catch {
      writeError("ibtool: \(error)\n")
      return 64
    }
    if let status = runXcodeOnlyStep(invocation) { return status }
    let arguments = invocation.remaining
    let options: Options
    if let plain = Options(plainArguments: arguments) {
      options = plain
    } else {
      do {
        options = try CommandLineOptions.parse(arguments).options
      } catch {
        let message = CommandLineOptions.fullMessage(for: error)
        let status = CommandLineOptions.exitCode(for: error)
        if status == .success {
          write(message + "\n")
        } else {
          writeError(message + "\n")
        }
        return status == .success ? 0 : 64
      }
    }
    var tool = self
    tool.colorProfileSources = options.colorProfilesFrom
    tool.module = options.module
    tool.stasisRuntime = options.stasisRuntime
    tool.targetDevices = options.targetDevice
    return tool.execute(options, invocation: invocation)
  }

  /// Notices the report starts with (Xcode's accepted flags, ``XcodeInvocation/notices``).
  var startingNotices: [String] = []

  /// Nibs to take the ICC profiles of catalog colors from.
  var colorProfileSources: [String] = []
  /// `--module`.
  var module: String?
  /// `--stasis-runtime`: Stasis's own UIKit encoding of iOS documents is what is wanted (no warning).
  var stasisRuntime = false
  /// `--target-device`: the devices asked for (checked against each document's platform).
  var targetDevices: [String] = []
  /// The compiler's options once loaded.
  var loadedOptions: CocoaNibCompiler.Options?

  func execute(_ options: Options) -> Int32 {
    var report = Report(notices: startingNotices)
    var tool = self
    do {
      try tool.checkFlags(options, report: &report)
      tool.loadedOptions = try tool.loadCompilerOptions()
    } catch {
      report.errors.append("\(error)")
      try? environment.standardStreams.writeOutput(report.renderedBytes(options: options, document: options.input))
      return 1
    }
    return tool.executeChecked(options, report: report)
  }

  /// Apple's flags that do not change a macOS compilation are checked, not ignored: the target
  /// device must be `mac` for a macOS document, the deployment target a version number (noted),
  /// and `--flatten NO` (a nib folder) is refused.
  func checkFlags(_ options: Options, report: inout Report) throws(IBToolError) {
    for device in options.targetDevice where !["mac", "iphone", "ipad", "tv", "watch", "vision"].contains(device) {
      throw IBToolError(path: nil, detail: "--target-device \(device): not a device (mac, iphone, ipad, tv, watch, vision)")
    }
    if let version = options.minimumDeploymentTarget {
      let parts = version.split(separator: ".", omittingEmptySubsequences: false)
      guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
        throw IBToolError(path: nil, detail: "--minimum-deployment-target \(version): not a version number")
      }
      report.notices.append("--minimum-deployment-target \(version): the compiled nib is the same for every macOS version Stasis compiles for")
    }
    if let flatten = options.flatten {
      guard flatten == "YES" || flatten == "NO" else { throw IBToolError(path: nil, detail: "--flatten \(flatten): YES or NO") }
      if flatten == "NO" { throw IBToolError(path: nil, detail: "--flatten NO (a nib folder) is not supported; compiled nibs are flat files") }
    }
  }

  func executeChecked(_ options: Options, report startingReport: Report) -> Int32 {
    var report = startingReport
    var status: Int32 = 0
    // The input compiled (or read) once, however many steps use it.
    var inputNib: NIBArchive?
    func input() throws(IBToolError) -> NIBArchive {
      if let inputNib { return inputNib }
      let nib = try compiledNib(options.input, warnings: &report.warnings)
      inputNib = nib
      return nib
    }
    var inputGraph: NibGraph?
    func graph() throws(IBToolError) -> NibGraph {
      if let inputGraph { return inputGraph }
      let graph = NibGraph(try input())
      inputGraph = graph
      return graph
    }
    do {
      if let output = options.compile {
        if options.input.hasSuffix(".storyboard") {
          try StoryboardFolder.write(try compiledStoryboard(options.input, warnings: &report.warnings), to: output)
        } else {
          do {
            try input().write(toFile: output)
          } catch let error as IBToolError {
            throw error
          } catch {
            throw IBToolError(path: nil, detail: "cannot write the nib: \(error)")
          }
        }
      }
      if let output = options.exportStringsFile {
        do {
          try StringsExport(try InterfaceDocument(contentsOfFile: options.input)).write(toFile: output)
        } catch {
          throw IBToolError(path: nil, detail: error.description)
        }
      }
      if let strings = options.importStringsFile {
        guard let output = options.write else {
          throw IBToolError(path: nil, detail: "--import-strings-file needs --write OUT.xib")
        }
        do {
          let warnings = try StringsImport.importStrings(fromFile: strings, document: options.input, writeTo: output)
          report.warnings += warnings.map { "\(strings): \($0)" }
        } catch {
          throw IBToolError(path: nil, detail: error.description)
        }
      }
      if options.printObjects { write(try input().dump()) }
      if options.printHierarchy { write(try graph().hierarchyListing()) }
      if options.printConnections { write(try graph().connectionsListing()) }
      if options.printClasses { write(try graph().classesListing()) }
      if let other = options.compare {
        var comparison = NIBArchive.ComparisonOptions.compilerOutput
        comparison.ignoresConnectionOrder = options.ignoreConnectionOrder
        let difference =
          isStoryboard(options.input) || isStoryboard(other)
          ? try compareStoryboards(options.input, other, options: comparison)
          : try input().firstDifference(from: try compiledNib(other, warnings: &report.warnings), options: comparison)
        if let difference {
          write("\(options.input) and \(other) differ: \(difference)\n")
          status = 1
        } else {
          write("\(options.input) and \(other) hold the same object graph\n")
        }
      }
    } catch {
      report.errors.append("\(error)")
      status = 1
    }
    if options.errors || options.warnings || options.notices || !report.errors.isEmpty || !report.warnings.isEmpty {
      try? environment.standardStreams.writeOutput(report.renderedBytes(options: options, document: options.input))
    }
    return status
  }

  /// A compiled nib from a `.nib` file, or the nib a `.xib` compiles to (its compile's
  /// warnings added to `warnings`).
  func compiledNib(_ path: String, warnings: inout [String]) throws(IBToolError) -> NIBArchive {
    if path.hasSuffix(".xib") { return NIBArchive(try compiledGraph(path, warnings: &warnings), keepingUnreachable: false) }
    do {
      switch try CompiledNib(contentsOf: path) {
      case .nibArchive(let archive): return archive
      case .keyedArchive(let archive):
        return NIBArchive(try NibGraph(keyedArchive: archive, path: path))
      case .typedStream(let stream):
        return NIBArchive(try NibGraph(typedStream: stream, path: path))
      }
    } catch {
      throw IBToolError(path: nil, detail: error.description)
    }
  }

  /// The graph a xib compiles to: a macOS xib through `CocoaNibCompiler` (what it wrote without
  /// an Apple sample to check it against added to `warnings`), an iOS xib through
  /// `CocoaTouchCompiler` (``iOSEncodingWarning`` added, unless `--stasis-runtime` asked for it).
  func compiledGraph(_ path: String, warnings: inout [String]) throws(IBToolError) -> NibGraph {
    do {
      let document = try InterfaceDocument(contentsOfFile: path)
      try checkTargetDevice(for: document)
      if document.platform == .iOS {
        if !stasisRuntime { warnings.append("\(path): \(Self.iOSEncodingWarning)") }
        return try CocoaTouchCompiler.compile(document)
      }
      let compilation = try CocoaNibCompiler.compileReportingUnverified(document, options: compilerOptions)
      warnings += compilation.warnings.map(\.description)
      return compilation.graph
    } catch let error as IBToolError {
      throw error
    } catch {
      throw IBToolError(path: nil, detail: "\(error)")
    }
  }

  /// What an iOS document compiles to: Stasis's own UIKit encoding, not yet Apple's bytes.
  static let iOSEncodingWarning =
    "compiled into UIKit's runtime classes (UIProxyObject, UIClassSwapper, UIRuntimeOutletConnection…) as Stasis encodes them for its nib loader; property keys beyond those runtime classes' are not checked against an Apple-compiled iOS nib (--stasis-runtime says this is what you want)"

  /// `--target-device` against the document's platform: `mac` for a macOS document, an iOS
  /// device (`iphone`, `ipad`…) for an iOS one.
  func checkTargetDevice(for document: InterfaceDocument) throws(IBToolError) {
    guard !targetDevices.isEmpty else { return }
    let wanted = document.platform == .macOS ? ["mac"] : ["iphone", "ipad", "tv", "watch", "vision"]
    guard targetDevices.contains(where: { wanted.contains($0) }) else {
      throw IBToolError(
        path: document.path,
        detail: "--target-device \(targetDevices.joined(separator: ", ")): this is \(document.platform == .macOS ? "a macOS document (mac)" : "an iOS document (iphone, ipad)")")
    }
  }

  /// The compiler's options: color profiles from `--color-profiles-from` nibs.
  /// - Throws: when a `--color-profiles-from` nib cannot be read, or holds neither profile.
  func loadCompilerOptions() throws(IBToolError) -> CocoaNibCompiler.Options {
    // Without Apple's profiles, catalog colors are written by NSID alone (and a warning says so).
    var options = CocoaNibCompiler.Options(module: module, omitsColorProfiles: true)
    guard !colorProfileSources.isEmpty else { return options }
    options.omitsColorProfiles = false
    var nibs: [NIBArchive] = []
    for path in colorProfileSources {
      do {
        switch try CompiledNib(contentsOf: path) {
        case .nibArchive(let nib): nibs.append(nib)
        case .keyedArchive: throw IBToolError(path: path, detail: "--color-profiles-from needs a NIBArchive nib, not a keyed-archive one")
        case .typedStream: throw IBToolError(path: path, detail: "--color-profiles-from needs a NIBArchive nib, not a NeXT typedstream one")
        }
      } catch let error as IBToolError {
        throw error
      } catch {
        throw IBToolError(path: nil, detail: "--color-profiles-from: \(error)")
      }
    }
    guard let profiles = ColorProfiles(extractingFrom: nibs) else {
      throw IBToolError(path: nil, detail: "--color-profiles-from: the nibs hold no NSColorSpace with both the Generic Gray (NSID 9) and sRGB (NSID 7) profiles")
    }
    options.colorProfiles = profiles
    return options
  }

  /// The compiler's options, read once per run (``loadCompilerOptions()``).
  var compilerOptions: CocoaNibCompiler.Options {
    loadedOptions ?? CocoaNibCompiler.Options(module: module, omitsColorProfiles: colorProfileSources.isEmpty)
  }

  func isStoryboard(_ path: String) -> Bool { path.hasSuffix(".storyboard") || path.hasSuffix(".storyboardc") || path.hasSuffix(".storyboardc/") }

  func compiledStoryboard(_ path: String, warnings: inout [String]) throws(IBToolError) -> CompiledStoryboardOutput {
    do {
      let document = try InterfaceDocument(contentsOfFile: path)
      try checkTargetDevice(for: document)
      if document.platform == .iOS {
        if !stasisRuntime { warnings.append("\(path): \(Self.iOSEncodingWarning)") }
      }
      let output =
        document.platform == .iOS
        ? try CocoaTouchStoryboardCompiler.compile(document) : try CocoaStoryboardCompiler.compile(document, options: compilerOptions)
      for name in output.warnings.keys.sorted() { warnings += output.warnings[name, default: []].map { "\($0) [\(name).nib]" } }
      return output
    } catch let error as IBToolError {
      throw error
    } catch {
      throw IBToolError(path: nil, detail: "\(error)")
    }
  }

  /// A compiled storyboard: compiled now from a `.storyboard`, or read from a `.storyboardc` folder.
  func storyboardContents(_ path: String, warnings: inout [String]) throws(IBToolError) -> (info: PropertyListValue, nibs: [String: NIBArchive]) {
    if path.hasSuffix(".storyboard") {
      let compiled = try compiledStoryboard(path, warnings: &warnings)
      var nibs: [String: NIBArchive] = [:]
      for (name, graph) in compiled.nibs { nibs[name] = NIBArchive(graph, keepingUnreachable: false) }
      return (compiled.info, nibs)
    }
    do {
      let folder = try CompiledStoryboard(contentsOf: path)
      var nibs: [String: NIBArchive] = [:]
      for (name, nib) in folder.nibs {
        switch nib {
        case .nibArchive(let archive): nibs[name] = archive
        case .keyedArchive(let archive): nibs[name] = NIBArchive(try NibGraph(keyedArchive: archive, path: path + "/" + name + ".nib"))
        case .typedStream(let stream): nibs[name] = NIBArchive(try NibGraph(typedStream: stream, path: path + "/" + name + ".nib"))
        }
      }
      return (folder.info, nibs)
    } catch {
      throw IBToolError(path: nil, detail: error.description)
    }
  }

  /// The first difference between two compiled storyboards: their Info.plists (the UUIDs Apple
  /// makes at random compared by key only) and each nib by name.
  func compareStoryboards(_ left: String, _ right: String, options: NIBArchive.ComparisonOptions) throws(IBToolError) -> String? {
    var warnings: [String] = []
    let a = try storyboardContents(left, warnings: &warnings), b = try storyboardContents(right, warnings: &warnings)
    func withoutUUIDValues(_ info: PropertyListValue) -> PropertyListValue {
      guard case .dictionary(var dictionary) = info, case .dictionary(let uuids)? = dictionary["NSViewControllerIdentifiersToUUIDs"] else { return info }
      dictionary["NSViewControllerIdentifiersToUUIDs"] = .dictionary(PropertyListDictionary(uuids.keys.sorted().map { ($0, PropertyListValue.string("")) }))
      return .dictionary(dictionary)
    }
    guard withoutUUIDValues(a.info) == withoutUUIDValues(b.info) else { return "Info.plist differs" }
    guard Set(a.nibs.keys) == Set(b.nibs.keys) else {
      return "nibs \(a.nibs.keys.sorted()) vs \(b.nibs.keys.sorted())"
    }
    for name in a.nibs.keys.sorted() {
      if let difference = a.nibs[name]!.firstDifference(from: b.nibs[name]!, options: options) { return "\(name).nib: \(difference)" }
    }
    return nil
  }

  func write(_ text: String) { try? environment.standardStreams.writeOutput(Array(text.utf8)) }
  func writeError(_ text: String) { try? environment.standardStreams.writeError(Array(text.utf8)) }
}

/// A failure of one ibtool step, as reported under `com.apple.ibtool.errors`.
struct IBToolError: Error, CustomStringConvertible {
  var path: String?
  var detail: String
  var description: String { (path.map { $0 + ": " } ?? "") + detail }
}

/// What ibtool reports: Apple prints it as a property list keyed by
/// `com.apple.ibtool.errors`/`.warnings`/`.notices` (xml1), or as
/// `/* com.apple.ibtool.errors */` sections of text (human-readable-text).
struct Report {
  var errors: [String] = []
  var warnings: [String] = []
  var notices: [String] = []

  /// The report in `--output-format`: text, an XML property list or a binary one.
  func renderedBytes(options: Options, document: String) -> [UInt8] {
    guard options.outputFormat != .humanReadableText else { return Array(rendered(options: options, document: document).utf8) }
    return (try? propertyList(options: options).encodedBytes(as: options.outputFormat == .binary1 ? .binary : .xml)) ?? []
  }

  func sections(options: Options) -> [(String, [String])] {
    var sections: [(String, [String])] = []
    if options.errors || !errors.isEmpty { sections.append(("com.apple.ibtool.errors", errors)) }
    if options.warnings || !warnings.isEmpty { sections.append(("com.apple.ibtool.warnings", warnings)) }
    if options.notices || !notices.isEmpty { sections.append(("com.apple.ibtool.notices", notices)) }
    return sections
  }

  /// Apple's shape: `{com.apple.ibtool.errors: [{description, type}], …}`.
  func propertyList(options: Options) -> PropertyListValue {
    var dictionary: [(String, PropertyListValue)] = []
    for (key, messages) in sections(options: options) where !messages.isEmpty {
      dictionary.append(
        (key, .array(messages.map { PropertyListValue.dictionary(PropertyListDictionary([("description", .string($0)), ("type", .string(Self.type(of: key)))])) })))
    }
    return .dictionary(PropertyListDictionary(dictionary))
  }

  func rendered(options: Options, document: String) -> String {
    var text = ""
    for (key, messages) in sections(options: options) where !messages.isEmpty {
      text += "/* \(key) */\n"
      for message in messages { text += "\(message)\n" }
    }
    return text
  }

  static func type(of key: String) -> String {
    key.hasSuffix("errors") ? "error" : key.hasSuffix("warnings") ? "warning" : "notice"
  }
}
