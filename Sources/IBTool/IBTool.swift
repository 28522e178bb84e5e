import ArgumentParser
public import StasisSystem
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
/// xib compiles to), `--compare OTHER` (the first semantic difference between two nibs) and
/// `--render OUT.svg|OUT.png` (the document's scenes drawn from its loaded views; `RenderRequest`).
///
/// It runs on the main actor: `--render` loads the document's views, which live there.
@MainActor public struct IBTool {
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
    tool.xcodeVersion = options.xcodeVersion.flatMap { Self.xcodeNumber($0) }
    if let target = options.minimumDeploymentTarget {
      let parts = target.split(separator: ".").compactMap { Int($0) }
      tool.deploymentTarget = (parts.first ?? 0, parts.count > 1 ? parts[1] : 0)
    }
    tool.targetDevices = options.targetDevice
    return tool.execute(options, invocation: invocation)
  }

  /// Notices the report starts with (Xcode's accepted flags, ``XcodeInvocation/notices``).
  var startingNotices: [String] = []

  /// Nibs to take the ICC profiles of catalog colors from.
  var colorProfileSources: [String] = []
  /// `--module`.
  var module: String?
  /// `--stasis-runtime`: iOS documents in Stasis's own UIKit encoding (`CocoaTouchCompiler`),
  /// not Apple's.
  var stasisRuntime = false
  /// `--xcode-version` (ours): the Xcode whose UIKit encoding iOS documents are compiled in,
  /// as `DTXcode` numbers it (1200); when absent, the last release of the Xcode major that saved
  /// each document (`UIKitNibCompiler.defaultXcode(for:)`).
  var xcodeVersion: Int?
  /// `--minimum-deployment-target` as major and minor numbers.
  var deploymentTarget: (major: Int, minor: Int)?
  /// `--target-device`: the devices asked for (checked against each document's platform).
  var targetDevices: [String] = []
  /// The compiler's options once loaded.
  var loadedOptions: CocoaNibCompiler.Options?

  func execute(_ options: Options) -> Int32 {
    var report = Report(notices: startingNotices)
    report.documents = [options.input] + [options.compare, options.importStringsFile].compactMap { $0 }
    var tool = self
    do {
      try tool.checkFlags(options, report: &report)
      tool.loadedOptions = try tool.loadCompilerOptions()
    } catch {
      report.errors.append("\(error)")
      try? environment.standardStreams.writeOutput(report.renderedBytes(options: options))
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
    if let version = options.xcodeVersion, Self.xcodeNumber(version) == nil {
      throw IBToolError(path: nil, detail: "--xcode-version \(version): not an Xcode version (12.0, 8.3.2 or a DTXcode number such as 0832)")
    }
    if let version = options.minimumDeploymentTarget {
      let parts = version.split(separator: ".", omittingEmptySubsequences: false)
      guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
        throw IBToolError(path: nil, detail: "--minimum-deployment-target \(version): not a version number")
      }
      // Only a macOS document's nib ignores the target: an iOS one's defaults and nib folder
      // split follow it (UIKitNibCompiler+Defaults).
      if options.targetDevice == ["mac"] {
        report.notices.append("--minimum-deployment-target \(version): the compiled nib is the same for every macOS version Stasis compiles for")
      }
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
          try StoryboardFolder.write(try compiledStoryboard(options.input, warnings: &report.warnings), to: output, environment: environment)
        } else {
          // A universal document built for both devices is a nib per device (`X~iphone.nib`).
          let folder = try iOSNibFolder(options.input, warnings: &report.warnings)
          for path in deviceOutputs(output, for: options.input) {
            if let folder {
              try StoryboardFolder.write(folder, info: nil, to: path, environment: environment)
              continue
            }
            do {
              try input().write(toFile: path, environment: environment)
            } catch let error as IBToolError {
              throw error
            } catch {
              throw IBToolError(path: nil, detail: StoryboardFolder.fileSystemMessage(error))
            }
          }
        }
      }
      if let output = options.exportStringsFile {
        do {
          try StringsExport(try InterfaceDocument(contentsOfFile: options.input, environment: environment)).write(toFile: output, environment: environment)
        } catch {
          throw IBToolError(path: nil, detail: error.description)
        }
      }
      if let strings = options.importStringsFile {
        guard let output = options.write else {
          throw IBToolError(path: nil, detail: "--import-strings-file needs --write OUT.xib")
        }
        do {
          let warnings = try StringsImport.importStrings(fromFile: strings, document: options.input, writeTo: output, environment: environment)
          report.warnings += warnings.map { "\(strings): \($0)" }
        } catch {
          throw IBToolError(path: nil, detail: error.description)
        }
      }
      if options.printObjects || options.printHierarchy || options.printConnections || options.printClasses {
        if isStoryboard(options.input) {
          try printStoryboard(options, warnings: &report.warnings)
        } else {
          try printListings(options, nib: try input(), graph: try graph())
        }
      }
      if let output = options.render {
        if try render(options.input, request: try RenderRequest(options, output: output)).isEmpty {
          report.notices.append("\(options.input): has no window, top-level view or scene to render; nothing written")
        }
      }
      if let other = options.compare {
        var comparison = NIBArchive.ComparisonOptions.compilerOutput
        comparison.ignoresConnectionOrder = options.ignoreConnectionOrder
        let difference =
          isStoryboard(options.input) || isStoryboard(other)
          ? try compareStoryboards(options.input, other, options: comparison)
          : Self.difference(try input(), try compiledNib(other, warnings: &report.warnings), options: comparison)
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
    if report.isWanted(options: options) {
      try? environment.standardStreams.writeOutput(report.renderedBytes(options: options))
    }
    return status
  }

  /// The listings the `--print-…` flags ask for, of one nib.
  func printListings(_ options: Options, nib: NIBArchive, graph: NibGraph) throws(IBToolError) {
    if options.printObjects { write(nib.dump()) }
    if options.printHierarchy { write(graph.hierarchyListing()) }
    if options.printConnections { write(graph.connectionsListing()) }
    if options.printClasses { write(graph.classesListing()) }
  }

  /// The `--print-…` listings of a storyboard — a `.storyboardc` folder as `--compare` reads it,
  /// or a `.storyboard` compiled now: each of its nibs by name (`== Main.nib ==`), in name order.
  func printStoryboard(_ options: Options, warnings: inout [String]) throws(IBToolError) {
    let contents = try storyboardContents(options.input, warnings: &warnings)
    for name in contents.nibs.keys.sorted() {
      guard let nib = contents.nibs[name] else { continue }
      write("== \(name).nib ==\n")
      try printListings(options, nib: nib, graph: NibGraph(nib))
    }
  }

  /// A compiled nib from a `.nib` file, or the nib a `.xib` compiles to (its compile's
  /// warnings added to `warnings`).
  func compiledNib(_ path: String, warnings: inout [String]) throws(IBToolError) -> NIBArchive {
    if path.hasSuffix(".xib") { return NIBArchive(try compiledGraph(path, warnings: &warnings), keepingUnreachable: false) }
    do {
      switch try CompiledNib(contentsOf: path, environment: environment) {
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
  /// `UIKitNibCompiler` in Apple's UIKit encoding, or with `--stasis-runtime` through
  /// `CocoaTouchCompiler` in Stasis's own (what `NibLoading` reads).
  func compiledGraph(_ path: String, warnings: inout [String]) throws(IBToolError) -> NibGraph {
    do {
      let document = try InterfaceDocument(contentsOfFile: path, environment: environment)
      try checkTargetDevice(for: document)
      if document.platform == .iOS {
        guard stasisRuntime else {
          warnings += UIKitNibCompiler.unwrittenVariations(in: document).map(\.description)
          return try UIKitNibCompiler.compile(document, options: uikitOptions(for: document))
        }
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

  /// The files of the nib folder an iOS xib compiles to for `--minimum-deployment-target` (else
  /// the document's own deployment target)
  /// (`objects-11.0+.nib` and `runtime.nib` before iOS 11 for a document with safe areas), or
  /// `nil` when it compiles to a flat nib. The variations the compiler leaves out are added to
  /// `warnings` (``UIKitNibCompiler/unwrittenVariations(in:)``).
  func iOSNibFolder(_ path: String, warnings: inout [String]) throws(IBToolError) -> [String: NibGraph]? {
    // A document that cannot be read is left to the flat compile, which reports why.
    guard !stasisRuntime, path.hasSuffix(".xib"), let document = try? InterfaceDocument(contentsOfFile: path, environment: environment), document.platform == .iOS
    else { return nil }
    do {
      let options = uikitOptions(for: document)
      let variants = try UIKitNibCompiler.compileVariants(document, options: options, deploymentTarget: options.deploymentTarget)
      guard variants.count > 1 else { return nil }
      warnings += UIKitNibCompiler.unwrittenVariations(in: document).map(\.description)
      var files: [String: NibGraph] = [:]
      for variant in variants { files[variant.name ?? "runtime.nib"] = variant.graph }
      return files
    } catch {
      throw IBToolError(path: nil, detail: "\(error)")
    }
  }

  /// The paths an iOS xib compiled to `output` is written at: `output` itself, or for a universal
  /// document built for both devices (``UIKitNibCompiler/deviceSuffixes(for:devices:xcode:fileName:)``)
  /// one per device, `X~iphone.nib` and `X~ipad.nib` beside where `X.nib` would be.
  func deviceOutputs(_ output: String, for path: String) -> [String] {
    guard !stasisRuntime, path.hasSuffix(".xib"), targetDevices.count > 1,
      let document = try? InterfaceDocument(contentsOfFile: path, environment: environment), document.platform == .iOS
    else { return [output] }
    let fileName = path.split(separator: "/").last.map(String.init) ?? path
    let options = uikitOptions(for: document)
    let suffixes = UIKitNibCompiler.deviceSuffixes(for: document, devices: targetDevices, xcode: options.xcode, fileName: fileName)
    guard !suffixes.isEmpty else { return [output] }
    let trimmed = output.hasSuffix("/") ? String(output.dropLast()) : output
    let base = trimmed.hasSuffix(".nib") ? String(trimmed.dropLast(4)) : trimmed
    return suffixes.map { base + "~" + $0 + ".nib" }
  }

  /// How an iOS document is compiled: as `--xcode-version`, else as the last release of the
  /// Xcode major that saved it (its `toolsVersion`); for `--minimum-deployment-target`, else for
  /// the document's own deployment target (`<deployment version=…>`), else the oldest iOS that
  /// Xcode builds for.
  func uikitOptions(for document: InterfaceDocument) -> UIKitNibCompiler.Options {
    let xcode = xcodeVersion ?? UIKitNibCompiler.defaultXcode(for: document)
    return UIKitNibCompiler.Options(
      module: module, xcode: xcode,
      deploymentTarget: deploymentTarget ?? UIKitNibCompiler.defaultDeploymentTarget(for: document, xcode: xcode))
  }

  /// `--xcode-version`: `12`, `12.0`, `8.3.2` or a `DTXcode` number (`0832`) as a `DTXcode`
  /// number (1200, 832), or `nil` when it is none of these.
  static func xcodeNumber(_ text: String) -> Int? {
    if !text.contains("."), text.count == 4, let number = Int(text) { return number }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
    guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 && $0! < 100 }) else { return nil }
    let numbers = parts.map { $0! } + [0, 0]
    return numbers[0] * 100 + min(numbers[1], 9) * 10 + min(numbers[2], 9)
  }

  /// What an iOS storyboard compiles to: Apple's storyboard encoding is not written yet.
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
    // The shipped profiles by default (ColorProfiles.shipped); without any, catalog colors are
    // written by NSID alone (and a warning says so); --color-profiles-from overrides them.
    var options = CocoaNibCompiler.Options(module: module, omitsColorProfiles: true)
    guard !colorProfileSources.isEmpty else { return options }
    options.omitsColorProfiles = false
    var nibs: [NIBArchive] = []
    for path in colorProfileSources {
      do {
        switch try CompiledNib(contentsOf: path, environment: environment) {
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
      let document = try InterfaceDocument(contentsOfFile: path, environment: environment)
      try checkTargetDevice(for: document)
      let output: CompiledStoryboardOutput
      switch (document.platform == .iOS, stasisRuntime) {
      case (true, true): output = try CocoaTouchStoryboardCompiler.compile(document)
      case (true, false):
        output = try UIKitStoryboardCompiler.compile(document, options: uikitOptions(for: document))
        warnings += UIKitNibCompiler.unwrittenVariations(in: document).map(\.description)
      default: output = try CocoaStoryboardCompiler.compile(document, options: compilerOptions)
      }
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
      let folder = try CompiledStoryboard(contentsOf: path, environment: environment)
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
    // iOS storyboards: the random names of upstream placeholders compared by what they stand for.
    func renamed(_ nibs: [String: NIBArchive]) -> [String: NIBArchive] {
      guard nibs.values.contains(where: \.isUIKitNib) else { return nibs }
      return NibGraph.renamingUpstreamPlaceholders(in: nibs.mapValues { NibGraph($0) }).mapValues { NIBArchive($0, keepingUnreachable: false) }
    }
    let (left, right) = (renamed(a.nibs), renamed(b.nibs))
    for name in left.keys.sorted() {
      if let difference = Self.difference(left[name]!, right[name]!, options: options) { return "\(name).nib: \(difference)" }
    }
    return nil
  }

  /// The first difference between two nibs: UIKit nibs canonically (Apple's UIKit encoder keeps
  /// neither object order, `UINibKeyValuePairsKey` order nor which equal value is shared), other
  /// nibs by ``NIBArchive/firstDifference(from:options:)``.
  static func difference(_ left: NIBArchive, _ right: NIBArchive, options: NIBArchive.ComparisonOptions) -> String? {
    if left.isUIKitNib || right.isUIKitNib { return left.canonicalDifference(from: right) }
    return left.firstDifference(from: right, options: options)
  }

  func write(_ text: String) { try? environment.standardStreams.writeOutput(Array(text.utf8)) }
  func writeError(_ text: String) { try? environment.standardStreams.writeError(Array(text.utf8)) }
}

/// A failure of one ibtool step: reported under `com.apple.ibtool.document.errors` when its text
/// opens with the document's path, else under `com.apple.ibtool.errors` (``Report``).
struct IBToolError: Error, CustomStringConvertible {
  var path: String?
  var detail: String
  var description: String { (path.map { $0 + ": " } ?? "") + detail }
}
