import StasisSystem
import PropertyLists

/// How ibtool runs the flags of Xcode's build system (``XcodeInvocation``): `--version` and
/// `--link` here, the others around an ordinary compile.
extension IBTool {
  /// `--version` or `--link`: run here, their status returned; `nil` for every other command
  /// line, which ``runUnchecked(_:)`` parses.
  func runXcodeOnlyStep(_ invocation: XcodeInvocation) -> Int32? {
    guard invocation.version || invocation.linkDirectory != nil else { return nil }
    // The report options and inputs of the rest of the line.
    var options = Options(input: "")
    var inputs: [String] = []
    var index = 0
    let words = invocation.remaining
    while index < words.count {
      let word = words[index]
      index += 1
      if let flag = Options.flags[word] {
        options[keyPath: flag] = true
      } else if word == "--output-format", index < words.count, let format = Options.OutputFormat(rawValue: words[index]) {
        options.outputFormat = format
        index += 1
      } else if Options.singleValues[word] != nil || Options.repeatedValues[word] != nil, index < words.count {
        index += 1  // --module, --target-device, --minimum-deployment-target: the same for every link
      } else if word.hasPrefix("-") {
        writeError("ibtool: \(word): not an option of \(invocation.version ? "--version" : "--link") (see ibtool --help)\n")
        return 64
      } else {
        inputs.append(word)
      }
    }
    if invocation.version {
      try? environment.standardStreams.writeOutput(versionReport(format: options.outputFormat))
      return 0
    }
    var report = Report(notices: invocation.notices, documents: inputs.prefix(1).filter { !$0.isEmpty })
    var status: Int32 = 0
    do {
      try StoryboardLink.link(inputs, into: invocation.linkDirectory ?? "", environment: environment)
    } catch {
      report.errors.append("\(error)")
      status = 1
    }
    if options.errors || options.warnings || options.notices || !report.errors.isEmpty {
      try? environment.standardStreams.writeOutput(report.renderedBytes(options: options))
    }
    return status
  }

  /// Runs `options` with what `invocation` adds: the output named by `--compilation-directory`,
  /// the accepted flags' notices, and `--output-partial-info-plist` written once the compile
  /// succeeded.
  func execute(_ options: Options, invocation: XcodeInvocation) -> Int32 {
    var tool = self
    tool.startingNotices = invocation.notices
    if let status = tool.runStringsTree(options) { return status }
    guard invocation.isUsed else { return execute(options) }
    var options = options
    if let directory = invocation.compilationDirectory {
      do throws(IBToolError) {
        guard options.compile == nil else {
          throw IBToolError(path: nil, detail: "--compilation-directory and --compile name the output twice")
        }
        options.compile = try XcodeInvocation.compiledPath(of: options.input, in: directory)
      } catch {
        var report = Report(notices: invocation.notices, documents: [options.input])
        report.errors.append("\(error)")
        try? environment.standardStreams.writeOutput(report.renderedBytes(options: options))
        return 1
      }
    }
    let status = tool.execute(options)
    guard status == 0, let partial = invocation.partialInfoPlist else { return status }
    do {
      try PartialInfoPlist.write(
        for: options.input, to: partial, autoActivateCustomFonts: invocation.autoActivateCustomFonts, environment: environment)
    } catch {
      var report = Report(documents: [options.input])
      report.errors.append("\(error)")
      try? environment.standardStreams.writeOutput(report.renderedBytes(options: options))
      return 1
    }
    return 0
  }

  /// Apple's `ibtool --version` report: `com.apple.ibtool.version`, a dictionary of
  /// `bundle-version` and `short-bundle-version`, in the output format asked for.
  func versionReport(format: Options.OutputFormat) -> [UInt8] {
    let key = "com.apple.ibtool.version"
    let versions: [(String, String)] = [
      ("bundle-version", IBToolVersion.bundleVersion), ("short-bundle-version", IBToolVersion.shortBundleVersion),
    ]
    switch format {
    case .humanReadableText:
      return Array(("/* \(key) */\n" + versions.map { "\($0.0): \($0.1)\n" }.joined()).utf8)
    case .xml1, .binary1:
      let value = PropertyListValue.dictionary(
        PropertyListDictionary([(key, .dictionary(PropertyListDictionary(versions.map { ($0.0, PropertyListValue.string($0.1)) })))]))
      return (try? value.encodedBytes(as: format == .binary1 ? .binary : .xml)) ?? []
    }
  }
}
